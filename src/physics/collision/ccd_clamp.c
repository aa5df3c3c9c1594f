/* Continuous collision after the solve: dynamic bodies moved back to the
 * time their core would first touch. See ccd.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/parallel.h"
#include "physics/body/compound.h"
#include "physics/body/hull.h"
#include "physics/body/shape.h"
#include "physics/collision/ccd.h"
#include "physics/collision/collide_mesh.h"
#include "physics/collision/collide_prism_sphere.h"
#include "physics/collision/collide_shapes.h"
#include "physics/collision/time_of_impact.h"

void vx_ccd_scratch_init(vx_ccd_scratch *s) { memset(s, 0, sizeof *s); }

void vx_ccd_scratch_free(vx_ccd_scratch *s)
{
    free(s->time);
    free(s->reach);
    free(s->kind);
    vx_ccd_scratch_init(s);
}

static vx_status reserve(vx_ccd_scratch *s, size_t n)
{
    if (n <= s->capacity) return VX_OK;
    size_t cap;
    vx_status st = vx_grow_capacity(s->capacity, n, 64u, sizeof *s->time, &cap);
    VX_GROW_ARRAY(st, s->time, cap);
    VX_GROW_ARRAY(st, s->reach, cap);
    VX_GROW_ARRAY(st, s->kind, cap);
    if (st == VX_OK) s->capacity = cap;
    return st;
}

/* What a body is to the sweep, found once per substep. */
#define KIND_MOVES 1u  /* dynamic, with a solid collider: can be moved back */
#define KIND_BULLET 2u /* ... and a bullet: also against dynamic bodies */
#define KIND_SOLID 4u  /* static or kinematic with a solid collider: what the others stop at */
#define KIND_ASLEEP 8u /* dynamic, solid, asleep: does not move this substep */

static uint8_t kind_of(const vx_body_info *info)
{
    if (!info->has_collider || info->collider.sensor) return 0u;
    if (info->motion != VX_MOTION_DYNAMIC) return KIND_SOLID;
    if (info->asleep) return KIND_ASLEEP;
    return (uint8_t)(KIND_MOVES | (vx_ccd_is_bullet(info) ? KIND_BULLET : 0u));
}

/* Whether body d (of kind kd) is moved back for its pair with o (ko). */
static bool moves_back(uint8_t kd, uint8_t ko)
{
    if (!(kd & KIND_MOVES) || ko == 0u) return false;
    return (ko & KIND_SOLID) || (kd & KIND_BULLET);
}

/* The shape shrunk by inset (never below half its size). */
static vx_collider core_of(const vx_collider *c, float inset)
{
    vx_collider core = *c;
    switch (c->type) {
    case VX_SHAPE_BOX:
        core.half_extents = vx_vec3_make(c->half_extents.x - fminf(inset, 0.5f * c->half_extents.x),
                                         c->half_extents.y - fminf(inset, 0.5f * c->half_extents.y),
                                         c->half_extents.z - fminf(inset, 0.5f * c->half_extents.z));
        break;
    case VX_SHAPE_CAPSULE:
    case VX_SHAPE_SPHERE:
    default:
        core.radius = c->radius - fminf(inset, 0.5f * c->radius);
        break;
    }
    return core;
}

/* q turned by the rotation vector theta (radians, world). */
static vx_quat turned(vx_quat q, vx_vec3 theta)
{
    float angle = vx_vec3_length(theta);
    if (!(angle > 0.0f)) return q;
    return vx_quat_normalize(vx_quat_mul(vx_quat_from_axis_angle(vx_vec3_scale(theta, 1.0f / angle), angle), q));
}

/* Body i as it was at the start of the substep, moving at its solved
 * velocities (positions were integrated as x += v h, q turned by about w h). */
static vx_toi_body start_of(const vx_body_set *bodies, uint32_t i, float h, const vx_collider *shape)
{
    vx_toi_body s;
    const vx_body_velocity *vel = &bodies->velocity[i];
    const vx_body_pose *pose = &bodies->pose[i];
    bool moves = bodies->info[i].motion != VX_MOTION_STATIC && !bodies->info[i].asleep;
    s.shape = shape;
    s.v = moves ? vel->v : vx_vec3_zero();
    s.w = moves && bodies->info[i].rotates ? vel->w : vx_vec3_zero();
    s.x = vx_vec3_sub(pose->x, vx_vec3_scale(s.v, h));
    s.q = turned(pose->q, vx_vec3_scale(s.w, 0.0f - h));
    s.sweep_radius = bodies->info[i].sweep_radius;
    s.inset = 0.0f;
    s.part = NULL;
    return s;
}

/* The earliest time in (0, h) at which d's core touches o, moving at their
 * solved velocities from the start of the substep; h when it does not. The
 * core is the shape shrunk by the inset plus how deep d already was in o at
 * the start (a resting contact sinks up to the slop): so it never starts
 * touching, and a touch means d went the inset deeper than it was. */
static float core_impact_with(const vx_body_set *bodies, uint32_t d, uint32_t o, const vx_collider *other,
                              const vx_triangle_hull *prism, float fast, float h)
{
    const vx_body_info *id = &bodies->info[d];
    vx_toi_body sd = start_of(bodies, d, h, &id->collider);
    vx_toi_body so = start_of(bodies, o, h, other);
    float closing = vx_vec3_length(vx_vec3_sub(sd.v, so.v)) + vx_vec3_length(sd.w) * sd.sweep_radius +
                    vx_vec3_length(so.w) * so.sweep_radius;
    float reach = h * closing;
    if (!(reach > fast)) return h;
    vx_transform td = vx_toi_body_pose(&sd, 0.0f), to = vx_toi_body_pose(&so, 0.0f);
    vx_manifold m;
    if (!vx_collide_shapes_prism(&id->collider, &td, NULL, other, &to, prism, reach, &m)) return h; /* out of reach */
    /* a sphere against a prism: the gap along the nearest point's direction
     * is the distance less the radius, -depth */
    float start_gap = prism && id->collider.type == VX_SHAPE_SPHERE
                          ? 0.0f - m.points[0].depth
                          : vx_toi_gap_along(&id->collider, &td, other, &to, m.normal);
    float inset = VX_CCD_CORE_INSET + fmaxf(0.0f - start_gap, 0.0f);
    vx_collider core = id->collider;
    if (core.type == VX_SHAPE_HULL) /* a hull's core: its support moved in (never below half its size) */
        sd.inset = fminf(inset, 0.5f * core.hull->inner_radius);
    else if (core.type == VX_SHAPE_COMPOUND) /* each part's support, by the thinnest part's half at most */
        sd.inset = fminf(inset, 0.5f * core.compound->inner_radius);
    else
        core = core_of(&id->collider, inset);
    sd.shape = &core;
    float t = h;
    if (!vx_time_of_impact_prism(&sd, NULL, &so, prism, h, VX_CCD_TOUCH_DISTANCE, &t)) return h;
    return t > 0.0f ? t : h; /* a core that touches at once (a body sunk past half its size): left alone */
}

/* Against a mesh: the earliest of its triangles near d's path, each a
 * prism (collide_mesh.h) facing where d starts. */
typedef struct {
    const vx_body_set *bodies;
    uint32_t d, o;
    float fast, h, t;
} mesh_core;

static bool core_against_prism(void *context, const vx_collider *prism, const vx_triangle_hull *th)
{
    mesh_core *c = context;
    float t = core_impact_with(c->bodies, c->d, c->o, prism, th, c->fast, c->h);
    if (t < c->t) c->t = t;
    return true;
}

static float core_impact(const vx_body_set *bodies, uint32_t d, uint32_t o, float fast, float h)
{
    const vx_body_info *io = &bodies->info[o];
    if (!vx_collider_is_mesh(&io->collider)) return core_impact_with(bodies, d, o, &io->collider, NULL, fast, h);
    const vx_collider *shape = &bodies->info[d].collider;
    vx_toi_body sd = start_of(bodies, d, h, shape);
    vx_toi_body so = start_of(bodies, o, h, &io->collider);
    vx_transform d0 = vx_toi_body_pose(&sd, 0.0f), d1 = vx_toi_body_pose(&sd, h), o0 = vx_toi_body_pose(&so, 0.0f);
    float grow = h * (vx_vec3_length(sd.w) * sd.sweep_radius + vx_vec3_length(so.v) +
                      vx_vec3_length(so.w) * so.sweep_radius) + VX_CCD_TOUCH_DISTANCE;
    vx_aabb box = vx_aabb_merged(vx_shape_aabb(shape, d0.position, d0.rotation),
                                 vx_shape_aabb(shape, d1.position, d1.rotation));
    vx_vec3 g = vx_vec3_make(grow, grow, grow);
    box = vx_aabb_new(vx_vec3_sub(box.min, g), vx_vec3_add(box.max, g));
    float travel = vx_vec3_length(vx_vec3_sub(d1.position, d0.position));
    float thickness = 2.0f * vx_collide_shape_reach(shape) + travel + grow + 1e-3f;
    mesh_core c = {bodies, d, o, fast, h, h};
    bool planes_only = shape->type == VX_SHAPE_SPHERE; /* a sphere meets the planes alone */
    vx_mesh_for_each_prism(&io->collider, &o0, box, d0.position, thickness, planes_only, core_against_prism, &c);
    return c.t;
}

typedef struct {
    vx_ccd_scratch *s;
    const vx_body_set *bodies;
    float h;
} reach_job;

/* Each body's reach in h, the time it may move (h) and its kind: every body
 * writes its own slots, split between the threads. */
static void reach_range(void *arg, size_t begin, size_t end)
{
    reach_job *job = arg;
    vx_ccd_scratch *s = job->s;
    const vx_body_set *bodies = job->bodies;
    for (size_t i = begin; i < end; i++) {
        const vx_body_velocity *vel = &bodies->velocity[i];
        float r = bodies->info[i].sweep_radius;
        float reach = vx_vec3_length(vel->v);
        if (r > 0.0f) reach += vx_vec3_length(vel->w) * r;
        s->reach[i] = bodies->info[i].asleep ? 0.0f : job->h * reach;
        s->time[i] = job->h;
        s->kind[i] = kind_of(&bodies->info[i]);
    }
}

vx_status vx_ccd_limit_motion(vx_ccd_scratch *s, vx_body_set *bodies, const vx_broadphase_pair_list *pairs,
                              float speculative_distance, float h, vx_thread_pool *pool)
{
    /* m a pair must be able to close in h to be swept; below the inset it
     * cannot get the inset deeper at all */
    float fast = fmaxf(speculative_distance, VX_CCD_CORE_INSET);
    vx_status st = reserve(s, bodies->count);
    if (st != VX_OK) return st;
    /* A pair closes at most as fast as its two surfaces move: pairs of slow
     * bodies are passed over without looking at them. */
    reach_job job = {s, bodies, h};
    vx_parallel_for(pool, bodies->count, reach_range, &job);
    bool any_fast = false;
    for (size_t i = 0; i < bodies->count && !any_fast; i++) any_fast = s->reach[i] > 0.5f * fast;
    if (!any_fast) return VX_OK;
    bool any = false;
    for (size_t p = 0; p < pairs->count; p++) {
        uint32_t a = pairs->items[p].a, b = pairs->items[p].b;
        if (!(s->reach[a] + s->reach[b] > fast)) continue;
        if (moves_back(s->kind[a], s->kind[b])) {
            float t = core_impact(bodies, a, b, fast, h);
            if (t < s->time[a]) {
                s->time[a] = t;
                any = true;
            }
        }
        if (moves_back(s->kind[b], s->kind[a])) {
            float t = core_impact(bodies, b, a, fast, h);
            if (t < s->time[b]) {
                s->time[b] = t;
                any = true;
            }
        }
    }
    if (!any) return VX_OK;
    for (size_t i = 0; i < bodies->count; i++) {
        if (!(s->time[i] < h)) continue;
        vx_toi_body start = start_of(bodies, (uint32_t)i, h, &bodies->info[i].collider);
        vx_transform at = vx_toi_body_pose(&start, s->time[i]);
        bodies->pose[i].x = at.position;
        bodies->pose[i].q = at.rotation;
    }
    return VX_OK;
}
