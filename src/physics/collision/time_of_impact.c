/* Conservative advancement for the time of impact. See time_of_impact.h.
 *
 * Why it is safe: for a fixed unit n, the gap g(t) = min_B n.p - max_A n.p
 * is a lower bound of the distance at every t, and its rate is at least
 * n.(vB - vA) - |wA| RA - |wB| RB = -c (a support point of a body turning at
 * w moves at most |w| R faster than its centre). So from time t the gap
 * along n stays above g(t) - c s for s more seconds: advancing by
 * (g - tolerance / 2) / c never lets the shapes come closer than
 * tolerance / 2, and c <= 0 means the gap can never close again. n is the
 * narrow phase's normal at the current poses: the closest-point direction
 * for spheres and capsules (g is then the distance itself), the axis of
 * largest separation for two boxes. */
#include "physics/collision/time_of_impact.h"

#include <math.h>
#include <string.h>

#include "common/assert.h"
#include "physics/body/compound.h"
#include "physics/body/hull.h"
#include "physics/body/shape.h"
#include "physics/collision/collide_mesh.h"
#include "physics/collision/collide_prism_sphere.h"
#include "physics/collision/collide_shapes.h"
#include "voltex/collide.h"

vx_transform vx_toi_body_pose(const vx_toi_body *body, float t)
{
    vx_transform pose;
    pose.position = vx_vec3_add(body->x, vx_vec3_scale(body->v, t));
    pose.rotation = body->q;
    float speed = vx_vec3_length(body->w);
    if (speed > 0.0f && t > 0.0f) {
        vx_quat turn = vx_quat_from_axis_angle(vx_vec3_scale(body->w, 1.0f / speed), speed * t);
        pose.rotation = vx_quat_normalize(vx_quat_mul(turn, body->q));
    }
    return pose;
}

vx_transform vx_toi_shape_pose(const vx_toi_body *body, float t)
{
    vx_transform pose = vx_toi_body_pose(body, t);
    if (!body->part) return pose;
    vx_transform shape;
    shape.position = vx_vec3_add(pose.position, vx_quat_rotate(pose.rotation, body->part->position));
    shape.rotation = vx_quat_normalize(vx_quat_mul(pose.rotation, body->part->rotation));
    return shape;
}

/* max over the shape of dir . p (dir unit). */
static float support(const vx_collider *c, const vx_transform *t, vx_vec3 dir)
{
    float centre = vx_vec3_dot(dir, t->position);
    switch (c->type) {
    case VX_SHAPE_COMPOUND: {
        float best = 0.0f;
        for (uint32_t i = 0; i < c->compound->part_count; i++) {
            vx_transform part = vx_compound_part_pose(c->compound, i, t);
            float s = support(&c->compound->parts[i].shape, &part, dir);
            if (i == 0 || s > best) best = s;
        }
        return best;
    }
    case VX_SHAPE_BOX: {
        vx_vec3 local = vx_quat_rotate(vx_quat_conjugate(t->rotation), dir);
        return centre + fabsf(local.x) * c->half_extents.x + fabsf(local.y) * c->half_extents.y +
               fabsf(local.z) * c->half_extents.z;
    }
    case VX_SHAPE_CAPSULE: {
        vx_vec3 axis = vx_quat_rotate(t->rotation, vx_vec3_make(0.0f, 1.0f, 0.0f));
        return centre + fabsf(vx_vec3_dot(dir, axis)) * c->half_height + c->radius;
    }
    case VX_SHAPE_HULL: {
        vx_vec3 local = vx_quat_rotate(vx_quat_conjugate(t->rotation), dir);
        return centre + vx_vec3_dot(local, c->hull->vertices[vx_hull_support(c->hull, local)]);
    }
    case VX_SHAPE_SPHERE:
    default:
        return centre + c->radius;
    }
}

float vx_toi_gap_along(const vx_collider *a, const vx_transform *ta, const vx_collider *b, const vx_transform *tb,
                       vx_vec3 n)
{
    return (0.0f - support(b, tb, vx_vec3_neg(n))) - support(a, ta, n);
}

/* A sweep against a mesh: the earliest impact with any of its triangles
 * near the convex body's path, each a prism (collide_mesh.h) thick enough
 * that the body cannot pass through it within t_max. */
typedef struct {
    vx_toi_body mesh, other; /* the mesh's motion with a triangle as its shape */
    bool mesh_is_a;
    float t_max, tolerance, t;
    bool hit;
} mesh_sweep;

static bool sweep_prism(void *context, const vx_collider *prism, const vx_triangle_hull *th)
{
    mesh_sweep *s = context;
    s->mesh.shape = prism;
    float t = 0.0f;
    bool hit = s->mesh_is_a ? vx_time_of_impact_prism(&s->mesh, th, &s->other, NULL, s->t_max, s->tolerance, &t)
                            : vx_time_of_impact_prism(&s->other, NULL, &s->mesh, th, s->t_max, s->tolerance, &t);
    if (hit && (!s->hit || t < s->t)) {
        s->hit = true;
        s->t = t;
    }
    return true;
}

static bool mesh_time_of_impact(const vx_toi_body *a, const vx_toi_body *b, float t_max, float tolerance,
                                float *t_hit)
{
    bool mesh_is_a = vx_collider_is_mesh(a->shape);
    const vx_toi_body *m = mesh_is_a ? a : b, *c = mesh_is_a ? b : a;
    if (vx_collider_is_mesh(c->shape)) return false; /* meshes meet no meshes */
    vx_transform c0 = vx_toi_shape_pose(c, 0.0f), c1 = vx_toi_shape_pose(c, t_max), m0 = vx_toi_shape_pose(m, 0.0f);
    /* the body's path, grown by what its turn, the mesh's motion and the
     * tolerance can add */
    float reach = vx_collide_shape_reach(c->shape);
    float grow = t_max * (vx_vec3_length(c->w) * c->sweep_radius + vx_vec3_length(m->v) +
                          vx_vec3_length(m->w) * m->sweep_radius) + tolerance + c->inset + m->inset;
    vx_aabb box = vx_aabb_merged(vx_shape_aabb(c->shape, c0.position, c0.rotation),
                                 vx_shape_aabb(c->shape, c1.position, c1.rotation));
    vx_vec3 g = vx_vec3_make(grow, grow, grow);
    box = vx_aabb_new(vx_vec3_sub(box.min, g), vx_vec3_add(box.max, g));
    mesh_sweep s;
    memset(&s, 0, sizeof s);
    s.mesh = *m;
    s.other = *c;
    s.mesh_is_a = mesh_is_a;
    s.t_max = t_max;
    s.tolerance = tolerance;
    float travel = vx_vec3_length(vx_vec3_sub(c1.position, c0.position));
    float thickness = 2.0f * reach + travel + grow + 1e-3f;
    bool planes_only = c->shape->type == VX_SHAPE_SPHERE; /* a sphere meets the planes alone */
    vx_mesh_for_each_prism(m->shape, &m0, box, c0.position, thickness, planes_only, sweep_prism, &s);
    if (s.hit) *t_hit = s.t;
    return s.hit;
}

/* A body of a compound: the earliest impact of any of its parts, each
 * swept with the body's motion (and sweep radius). */
static bool compound_time_of_impact(const vx_toi_body *a, const vx_toi_body *b, float t_max, float tolerance,
                                    float *t_hit)
{
    const vx_compound *ca = vx_collider_is_compound(a->shape) ? a->shape->compound : NULL;
    const vx_compound *cb = vx_collider_is_compound(b->shape) ? b->shape->compound : NULL;
    VX_ASSERT((!ca || !a->part) && (!cb || !b->part));
    uint32_t na = ca ? ca->part_count : 1u, nb = cb ? cb->part_count : 1u;
    bool hit = false;
    float best = t_max;
    for (uint32_t i = 0; i < na; i++) {
        vx_toi_body pa = *a;
        if (ca) {
            pa.shape = &ca->parts[i].shape;
            pa.part = &ca->parts[i].pose;
        }
        for (uint32_t j = 0; j < nb; j++) {
            vx_toi_body pb = *b;
            if (cb) {
                pb.shape = &cb->parts[j].shape;
                pb.part = &cb->parts[j].pose;
            }
            float t = 0.0f;
            if (vx_time_of_impact(&pa, &pb, best, tolerance, &t) && (!hit || t < best)) {
                hit = true;
                best = t;
            }
        }
    }
    if (hit) *t_hit = best;
    return hit;
}

bool vx_time_of_impact(const vx_toi_body *a, const vx_toi_body *b, float t_max, float tolerance, float *t_hit)
{
    return vx_time_of_impact_prism(a, NULL, b, NULL, t_max, tolerance, t_hit);
}

/* A sphere against a triangle's prism (its top and side planes are
 * enough): the advancement below, with the gap the distance from the
 * triangle's nearest point less the radius (what the supports along the
 * nearest point's direction give, without the prism's hull). */
static bool sphere_prism_time_of_impact(const vx_toi_body *a, const vx_triangle_hull *prism_a, const vx_toi_body *b,
                                        const vx_triangle_hull *prism_b, float t_max, float tolerance, float *t_hit)
{
    bool prism_is_a = prism_a != NULL;
    const vx_toi_body *prism_body = prism_is_a ? a : b, *sphere = prism_is_a ? b : a;
    const vx_triangle_hull *th = prism_is_a ? prism_a : prism_b;
    float radius = sphere->shape->radius;
    vx_vec3 dv = vx_vec3_sub(a->v, b->v);
    float turning = vx_vec3_length(a->w) * a->sweep_radius + vx_vec3_length(b->w) * b->sweep_radius;
    float closing = vx_vec3_length(dv) + turning;
    float inset = a->inset + b->inset;
    float t = 0.0f;
    for (int it = 0; it < VX_TOI_MAX_ITERATIONS; it++) {
        vx_transform tp = vx_toi_shape_pose(prism_body, t);
        vx_vec3 centre = vx_toi_shape_pose(sphere, t).position;
        float reach = tolerance + closing * (t_max - t) + inset;
        vx_prism_sphere_contact c;
        if (!vx_collide_placed_prism_sphere(th, &tp, centre, radius, reach, &c)) return false;
        vx_vec3 n = prism_is_a ? c.normal : vx_vec3_neg(c.normal); /* from a to b */
        float gap = (0.0f - c.depth) + inset;
        if (gap <= tolerance) {
            *t_hit = t;
            return true;
        }
        float rate = vx_vec3_dot(n, dv) + turning;
        if (!(rate > 0.0f)) return false; /* the gap along n never closes */
        t += (gap - 0.5f * tolerance) / rate;
        if (!(t <= t_max)) return false;
    }
    *t_hit = t; /* undecided: an impact, the safe side */
    return true;
}

bool vx_time_of_impact_prism(const vx_toi_body *a, const vx_triangle_hull *prism_a, const vx_toi_body *b,
                             const vx_triangle_hull *prism_b, float t_max, float tolerance, float *t_hit)
{
    if ((prism_a && b->shape->type == VX_SHAPE_SPHERE) || (prism_b && a->shape->type == VX_SHAPE_SPHERE))
        return sphere_prism_time_of_impact(a, prism_a, b, prism_b, t_max, tolerance, t_hit);
    VX_ASSERT(a->shape && b->shape);
    if (vx_collider_is_compound(a->shape) || vx_collider_is_compound(b->shape))
        return compound_time_of_impact(a, b, t_max, tolerance, t_hit);
    if (vx_collider_is_mesh(a->shape) || vx_collider_is_mesh(b->shape))
        return mesh_time_of_impact(a, b, t_max, tolerance, t_hit);
    vx_vec3 dv = vx_vec3_sub(a->v, b->v);
    float turning = vx_vec3_length(a->w) * a->sweep_radius + vx_vec3_length(b->w) * b->sweep_radius;
    /* how fast the distance can close at all, in any direction */
    float closing = vx_vec3_length(dv) + turning;
    float inset = a->inset + b->inset; /* the cores' gap is the shapes' plus this */
    float t = 0.0f;
    for (int it = 0; it < VX_TOI_MAX_ITERATIONS; it++) {
        vx_transform ta = vx_toi_shape_pose(a, t);
        vx_transform tb = vx_toi_shape_pose(b, t);
        /* Farther apart than what can close in the time left: no impact. */
        float reach = tolerance + closing * (t_max - t) + inset;
        vx_manifold m;
        if (!vx_collide_shapes_prism(a->shape, &ta, prism_a, b->shape, &tb, prism_b, reach, &m)) return false;
        vx_vec3 n = m.normal;
        float gap = vx_toi_gap_along(a->shape, &ta, b->shape, &tb, n) + inset;
        if (gap <= tolerance) {
            *t_hit = t;
            return true;
        }
        float c = vx_vec3_dot(n, dv) + turning;
        if (!(c > 0.0f)) return false; /* the gap along n never closes */
        t += (gap - 0.5f * tolerance) / c;
        if (!(t <= t_max)) return false;
    }
    *t_hit = t; /* undecided: an impact, the safe side */
    return true;
}
