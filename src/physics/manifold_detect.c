/* Bounds for the broad phase and the narrow phase of the step. See
 * manifold_detect.h.
 *
 * Speculative margin. Each body's bounds grow by half the speculative
 * distance plus the distance its surface can travel in one substep,
 * h (|v| + |w| R) with R the shape's sweep radius. A pair's narrow phase then
 * uses margin = speculative_distance + h (|v_a - v_b| + |w_a| R_a + |w_b| R_b)
 * (ccd.h: for two dynamic bodies without a bullet the motion part is capped
 * at their half thicknesses), never more than the two growths together, so
 * every pair within its margin is also a pair of the broad phase. A body
 * that can close a gap within the substep against static geometry thus
 * always has a (speculative) contact for it; vx_ccd_confirm drops the
 * contacts of shapes whose sweep misses (ghosts) and gives fast impacts the
 * features they meet at. */
#include "physics/manifold_detect.h"

#include "physics/ccd.h"
#include "common/array.h"
#include "common/parallel.h"
#include "physics/collide_internal.h"

#include <stdlib.h>
#include <string.h>

void vx_manifold_detector_init(vx_manifold_detector *d) { memset(d, 0, sizeof *d); }

void vx_manifold_detector_free(vx_manifold_detector *d)
{
    free(d->items);
    free(d->hit);
    free(d->memos.items);
    free(d->spare.items);
    free(d->memo_source);
    free(d->memo_next);
    free(d->memo_state);
    vx_manifold_detector_init(d);
}

/* How far any surface point of the body can move in h. */
static float sweep(const vx_body_set *bodies, size_t i, float h)
{
    const vx_body_velocity *vel = &bodies->velocity[i];
    return h * (vx_vec3_length(vel->v) + vx_vec3_length(vel->w) * bodies->info[i].sweep_radius);
}

static bool can_move(const vx_body_info *info) { return info->motion != VX_MOTION_STATIC; }

static float sanitize_distance(float speculative_distance)
{
    return speculative_distance > 0.0f ? speculative_distance : 0.0f;
}

vx_aabb vx_manifold_detect_bounds(const vx_body_set *bodies, size_t i, float speculative_distance, float h)
{
    const vx_body_info *info = &bodies->info[i];
    const vx_body_pose *pose = &bodies->pose[i];
    vx_aabb box = vx_collider_aabb(&info->collider, pose->x, pose->q);
    float g = 0.5f * sanitize_distance(speculative_distance) + sweep(bodies, i, h);
    vx_vec3 grow_by = vx_vec3_make(g, g, g);
    return vx_aabb_new(vx_vec3_sub(box.min, grow_by), vx_vec3_add(box.max, grow_by));
}

static vx_transform pose_transform(const vx_body_pose *p)
{
    vx_transform t;
    t.position = p->x;
    t.rotation = p->q;
    return t;
}

/* Feature ids of collide_capsule_box.c: kind 10, the capsule feature in
 * bits 0..7 (0 the -Y end, 1 the +Y end), the box region in bits 8..15. */
#define VX_CAPSULE_BOX_KIND 10u
#define VX_CAPSULE_END_MASK 0xffu
/* cos of the angle within which an end's own normal must agree with the
 * manifold's (about 2.6 degrees): the same face of the box. */
#define VX_CAPSULE_END_SAME_NORMAL 0.999f

/* A capsule touching a box with one end only gets one point, however fast
 * it turns: a capsule toppling about that end swings the other one through
 * the box within a substep. So the other end, as a sphere against the box,
 * adds its own (speculative) point when it finds the same face: the solver
 * then stops it at the surface like the first. m: capsule (A) vs box (B). */
static void add_capsule_far_end(const vx_collider *cap, const vx_transform *tc, const vx_collider *box,
                                const vx_transform *tb, float margin, vx_manifold *m)
{
    if (m->count != 1 || (m->points[0].feature >> VX_FEATURE_KIND_SHIFT) != VX_CAPSULE_BOX_KIND) return;
    uint32_t end = m->points[0].feature & VX_CAPSULE_END_MASK;
    if (end > 1u) return; /* the side or a two-point contact: nothing swings */
    float sign = end == 0u ? 1.0f : -1.0f; /* the other end */
    vx_vec3 far_end = vx_vec3_add(tc->position, vx_quat_rotate(vx_quat_normalize(tc->rotation),
                                                                vx_vec3_make(0.0f, sign * cap->half_height, 0.0f)));
    vx_manifold e;
    if (!vx_collide_sphere_box(far_end, cap->radius, tb, box->half_extents, margin, &e)) return;
    if (vx_vec3_dot(e.normal, m->normal) < VX_CAPSULE_END_SAME_NORMAL) return;
    uint32_t feature =
        (VX_CAPSULE_BOX_KIND << VX_FEATURE_KIND_SHIFT) | (1u - end) | (e.points[0].feature << 8);
    vx_manifold_push(m, e.points[0].point_a, e.points[0].point_b, e.points[0].depth, feature);
}

/* The narrow phase for shapes ca (of A) and cb (of B), normal from A to B.
 * Each collide function wants its shapes in a fixed order; where that order
 * is B first, the manifold is flipped back. */
static bool collide_shapes(const vx_collider *ca, const vx_transform *ta, const vx_collider *cb,
                           const vx_transform *tb, float margin, vx_manifold *m)
{
    bool hit = false;
    bool flip = false;
    switch (ca->type) {
    case VX_SHAPE_SPHERE:
        if (cb->type == VX_SHAPE_SPHERE)
            hit = vx_collide_sphere_sphere(ta->position, ca->radius, tb->position, cb->radius, margin, m);
        else if (cb->type == VX_SHAPE_BOX)
            hit = vx_collide_sphere_box(ta->position, ca->radius, tb, cb->half_extents, margin, m);
        else {
            hit = vx_collide_capsule_sphere(tb, cb->radius, cb->half_height, ta->position, ca->radius, margin, m);
            flip = true;
        }
        break;
    case VX_SHAPE_BOX:
        if (cb->type == VX_SHAPE_SPHERE) {
            hit = vx_collide_sphere_box(tb->position, cb->radius, ta, ca->half_extents, margin, m);
            flip = true;
        } else if (cb->type == VX_SHAPE_BOX) {
            hit = vx_collide_box_box(ta, ca->half_extents, tb, cb->half_extents, margin, m);
        } else {
            hit = vx_collide_capsule_box(tb, cb->radius, cb->half_height, ta, ca->half_extents, margin, m);
            if (hit) add_capsule_far_end(cb, tb, ca, ta, margin, m);
            flip = true;
        }
        break;
    case VX_SHAPE_CAPSULE:
    default:
        if (cb->type == VX_SHAPE_SPHERE)
            hit = vx_collide_capsule_sphere(ta, ca->radius, ca->half_height, tb->position, cb->radius, margin, m);
        else if (cb->type == VX_SHAPE_BOX) {
            hit = vx_collide_capsule_box(ta, ca->radius, ca->half_height, tb, cb->half_extents, margin, m);
            if (hit) add_capsule_far_end(ca, ta, cb, tb, margin, m);
        }
        else
            hit = vx_collide_capsule_capsule(ta, ca->radius, ca->half_height, tb, cb->radius, cb->half_height,
                                             margin, m);
        break;
    }
    if (!hit || m->count <= 0) return false;
    if (flip) vx_manifold_flip(m);
    return true;
}

bool vx_manifold_detect_pair(const vx_body_set *bodies, uint32_t a, uint32_t b, float speculative_distance,
                             float h, vx_pair_manifold *out)
{
    const vx_body_info *ia = &bodies->info[a];
    const vx_body_info *ib = &bodies->info[b];
    /* continuous pairs add what their motion can close in h (ccd.h) */
    float margin = vx_ccd_pair_margin(bodies, a, b, speculative_distance, h);

    memset(out, 0, sizeof *out);
    vx_transform ta = pose_transform(&bodies->pose[a]);
    vx_transform tb = pose_transform(&bodies->pose[b]);
    if (!collide_shapes(&ia->collider, &ta, &ib->collider, &tb, margin, &out->manifold)) return false;
    /* a ghost (the sweep misses) is dropped; a fast impact gets its own manifold */
    if (!vx_ccd_confirm(bodies, a, b, speculative_distance, h, margin, &out->manifold)) return false;
    vx_manifold_sort_by_feature(&out->manifold); /* the cache is matched by a merge */
    out->a = a;
    out->b = b;
    out->sensor = ia->collider.sensor || ib->collider.sensor;
    return true;
}

/* memo_state per pair */
enum { MEMO_NONE = 0, MEMO_NEW = 1, MEMO_REUSED = 2 };

typedef struct {
    vx_manifold_detector *d;
    const vx_body_set *bodies;
    const vx_broadphase_pair_list *pairs;
    float speculative_distance, h;
    bool reuse;
} detect_job;

/* Pair p's manifold into items[p] (hit[p]: there is one): the kept one when
 * it serves, else the narrow phase's; its memo for the next step into
 * memo_next[p] when it is kept. cursor walks the kept memos. */
static void detect_one(detect_job *job, size_t p, size_t *cursor)
{
    vx_manifold_detector *d = job->d;
    const vx_body_set *bodies = job->bodies;
    uint32_t a = job->pairs->items[p].a;
    uint32_t b = job->pairs->items[p].b;
    d->memo_state[p] = MEMO_NONE;
    if (!can_move(&bodies->info[a]) && !can_move(&bodies->info[b])) { /* nothing responds */
        d->hit[p] = false;
        return;
    }
    vx_pair_manifold *out = &d->items[p];
    if (job->reuse) {
        const vx_manifold_memo *memo = vx_manifold_memo_find(d->memos.items, d->memos.count, cursor,
                                                             bodies->info[a].entity.index,
                                                             bodies->info[b].entity.index);
        if (memo && vx_manifold_memo_reuse(memo, bodies, a, b, &out->manifold)) {
            out->a = a;
            out->b = b;
            out->sensor = bodies->info[a].collider.sensor || bodies->info[b].collider.sensor;
            d->memo_source[p] = (size_t)(memo - d->memos.items); /* kept as it was made: the drift never adds up */
            d->memo_state[p] = MEMO_REUSED;
            d->hit[p] = true;
            return;
        }
    }
    d->hit[p] = vx_manifold_detect_pair(bodies, a, b, job->speculative_distance, job->h, out);
    if (job->reuse && d->hit[p] && vx_manifold_memo_make(bodies, a, b, &out->manifold, &d->memo_next[p]))
        d->memo_state[p] = MEMO_NEW;
}

/* Pairs [begin, end); the walk over the kept memos starts at the first
 * pair's. */
static void detect_range(void *arg, size_t begin, size_t end)
{
    detect_job *job = arg;
    const vx_manifold_detector *d = job->d;
    size_t cursor = 0;
    if (job->reuse && d->memos.count > 0) {
        const vx_body_info *info = job->bodies->info;
        const vx_broadphase_pair *first = &job->pairs->items[begin];
        cursor = vx_manifold_memo_lower_bound(d->memos.items, d->memos.count, info[first->a].entity.index,
                                              info[first->b].entity.index);
    }
    for (size_t p = begin; p < end; p++) detect_one(job, p, &cursor);
}

vx_status vx_manifold_detect(vx_manifold_detector *d, const vx_body_set *bodies,
                             const vx_broadphase_pair_list *pairs, float speculative_distance, float h, bool reuse,
                             vx_thread_pool *pool)
{
    d->count = 0;
    d->reused = 0;
    vx_status st = VX_OK;
    VX_RESERVE(st, d->items, d->capacity, pairs->count, 16u);
    VX_RESERVE(st, d->hit, d->hit_capacity, pairs->count, 16u);
    VX_RESERVE(st, d->memo_state, d->memo_state_capacity, pairs->count, 16u);
    if (reuse) {
        VX_RESERVE(st, d->memo_next, d->memo_next_capacity, pairs->count, 16u);
        VX_RESERVE(st, d->memo_source, d->memo_source_capacity, pairs->count, 16u);
        VX_ARRAY_RESERVE(st, d->spare, pairs->count, 16u);
    }
    if (st != VX_OK) return st;
    if (!reuse) d->memos.count = 0;
    detect_job job = {d, bodies, pairs, speculative_distance, h, reuse};
    vx_parallel_for(pool, pairs->count, detect_range, &job);
    /* the manifolds found, in pair order, and the memos kept for the next step */
    size_t kept = 0;
    for (size_t p = 0; p < pairs->count; p++) {
        if (!d->hit[p]) continue;
        if (d->memo_state[p] == MEMO_NEW) d->spare.items[kept++] = d->memo_next[p];
        if (d->memo_state[p] == MEMO_REUSED) {
            d->spare.items[kept++] = d->memos.items[d->memo_source[p]];
            d->reused++;
        }
        if (d->count != p) d->items[d->count] = d->items[p];
        d->count++;
    }
    if (reuse) {
        vx_manifold_memo_list old = d->memos;
        d->memos = d->spare;
        d->spare = old;
    }
    d->memos.count = kept;
    return VX_OK;
}
