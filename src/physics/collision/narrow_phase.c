/* Bounds for the broad phase and the narrow phase of the step. See
 * narrow_phase.h.
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
#include "physics/collision/narrow_phase.h"

#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/assert.h"
#include "common/parallel.h"
#include "physics/body/compound.h"
#include "physics/body/shape.h"
#include "physics/collision/ccd.h"
#include "physics/collision/collide_compound.h"
#include "physics/collision/collide_internal.h"
#include "physics/collision/collide_mesh.h"
#include "physics/collision/collide_shapes.h"

void vx_narrow_phase_init(vx_narrow_phase *d) { memset(d, 0, sizeof *d); }

void vx_narrow_phase_free(vx_narrow_phase *d)
{
    free(d->items);
    free(d->hit);
    free(d->memos.items);
    free(d->spare.items);
    free(d->memo_source);
    free(d->memo_next);
    free(d->memo_state);
    free(d->axes.items);
    free(d->axes_spare.items);
    free(d->axis_next);
    free(d->rotations);
    free(d->mesh_slot);
    free(d->mesh_first);
    free(d->mesh_items);
    free(d->mesh_counts);
    free(d->spare_items);
    vx_narrow_phase_init(d);
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

vx_aabb vx_narrow_phase_bounds(const vx_body_set *bodies, size_t i, float speculative_distance, float h)
{
    const vx_body_info *info = &bodies->info[i];
    const vx_body_pose *pose = &bodies->pose[i];
    vx_aabb box = vx_shape_aabb(&info->collider, pose->x, pose->q);
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

/* vx_narrow_phase_pair with the pair's kept axis (NULL: none kept) and the
 * bodies' rotation matrices (per body slot; NULL: made by the test). */
static bool narrow_pair(const vx_body_set *bodies, uint32_t a, uint32_t b, float speculative_distance, float h,
                        vx_sat_axis *axis, const vx_mat3 *rotations, vx_pair_manifold *out)
{
    const vx_body_info *ia = &bodies->info[a];
    const vx_body_info *ib = &bodies->info[b];
    /* continuous pairs add what their motion can close in h (ccd.h) */
    float margin = vx_ccd_pair_margin(bodies, a, b, speculative_distance, h);

    memset(out, 0, sizeof *out);
    vx_transform ta = pose_transform(&bodies->pose[a]);
    vx_transform tb = pose_transform(&bodies->pose[b]);
    const vx_mat3 *ra = rotations ? &rotations[a] : NULL, *rb = rotations ? &rotations[b] : NULL;
    if (!vx_collide_convex_pair(&ia->collider, &ta, ra, &ib->collider, &tb, rb, margin, axis, &out->manifold))
        return false;
    /* a ghost (the sweep misses) is dropped; a fast impact gets its own manifold */
    if (!vx_ccd_confirm(bodies, a, b, speculative_distance, h, margin, &out->manifold)) return false;
    vx_manifold_sort_by_feature(&out->manifold); /* the cache is matched by a merge */
    out->a = a;
    out->b = b;
    out->sensor = ia->collider.sensor || ib->collider.sensor;
    return true;
}

/* Whether the pair has several manifolds: a body and a mesh, or a compound. */
static bool multi_pair(const vx_body_set *bodies, uint32_t a, uint32_t b)
{
    const vx_collider *ca = &bodies->info[a].collider, *cb = &bodies->info[b].collider;
    return vx_collider_is_mesh(ca) || vx_collider_is_mesh(cb) || vx_collider_is_compound(ca) ||
           vx_collider_is_compound(cb);
}

/* How many manifolds a pair of multi_pair can have. */
static uint32_t multi_capacity(const vx_body_set *bodies, uint32_t a, uint32_t b)
{
    const vx_collider *ca = &bodies->info[a].collider, *cb = &bodies->info[b].collider;
    if (vx_collider_is_compound(ca) || vx_collider_is_compound(cb))
        return (uint32_t)vx_compound_pair_capacity(ca, cb);
    return VX_MESH_MAX_MANIFOLDS;
}

/* Each manifold found of the pair confirmed as narrow_pair confirms one,
 * into out; how many are kept. */
static int confirm_found(const vx_body_set *bodies, uint32_t a, uint32_t b, float speculative_distance, float h,
                         float margin, const vx_mesh_manifold *found, int n, bool flip, vx_pair_manifold *out)
{
    const vx_body_info *ia = &bodies->info[a], *ib = &bodies->info[b];
    int kept = 0;
    for (int i = 0; i < n; i++) {
        vx_pair_manifold *o = &out[kept];
        memset(o, 0, sizeof *o);
        o->manifold = found[i].manifold;
        if (flip) vx_manifold_flip(&o->manifold); /* normal from a to b */
        if (!vx_ccd_confirm(bodies, a, b, speculative_distance, h, margin, &o->manifold)) continue;
        o->a = a;
        o->b = b;
        o->part = found[i].part;
        o->sensor = ia->collider.sensor || ib->collider.sensor;
        kept++;
    }
    return kept;
}

/* The manifolds of a pair of multi_pair into out (room for
 * multi_capacity), in part order; their number. A mesh meets no mesh, and
 * a mesh on a dynamic body (never made by the world) meets nothing. */
static int narrow_multi_pair(const vx_body_set *bodies, uint32_t a, uint32_t b, float speculative_distance, float h,
                             vx_pair_manifold *out)
{
    const vx_body_info *ia = &bodies->info[a], *ib = &bodies->info[b];
    float margin = vx_ccd_pair_margin(bodies, a, b, speculative_distance, h);
    vx_transform ta = pose_transform(&bodies->pose[a]), tb = pose_transform(&bodies->pose[b]);
    if (vx_collider_is_compound(&ia->collider) || vx_collider_is_compound(&ib->collider)) {
        if ((vx_collider_is_mesh(&ia->collider) && ia->motion == VX_MOTION_DYNAMIC) ||
            (vx_collider_is_mesh(&ib->collider) && ib->motion == VX_MOTION_DYNAMIC))
            return 0;
        vx_mesh_manifold found[VX_COMPOUND_MAX_MANIFOLDS];
        int n = vx_collide_compound(&ia->collider, &ta, &ib->collider, &tb, margin,
                                    (int)multi_capacity(bodies, a, b), found);
        return confirm_found(bodies, a, b, speculative_distance, h, margin, found, n, false, out);
    }
    bool mesh_is_b = vx_collider_is_mesh(&ib->collider);
    const vx_body_info *im = mesh_is_b ? ib : ia, *ic = mesh_is_b ? ia : ib;
    if (vx_collider_is_mesh(&ic->collider) || im->motion == VX_MOTION_DYNAMIC) return 0;
    vx_mesh_manifold found[VX_MESH_MAX_MANIFOLDS];
    int n = mesh_is_b ? vx_collide_mesh(&ib->collider, &tb, &ia->collider, &ta, margin, found)
                      : vx_collide_mesh(&ia->collider, &ta, &ib->collider, &tb, margin, found);
    return confirm_found(bodies, a, b, speculative_distance, h, margin, found, n, mesh_is_b, out);
}

bool vx_narrow_phase_pair(const vx_body_set *bodies, uint32_t a, uint32_t b, float speculative_distance,
                             float h, vx_pair_manifold *out)
{
    if (!multi_pair(bodies, a, b)) return narrow_pair(bodies, a, b, speculative_distance, h, NULL, NULL, out);
    vx_pair_manifold found[VX_COMPOUND_MAX_MANIFOLDS];
    if (narrow_multi_pair(bodies, a, b, speculative_distance, h, found) == 0) return false;
    *out = found[0];
    return true;
}

/* The first kept axis not before the pair of entity indices (a, b). */
static size_t axis_lower_bound(const vx_sat_axis_memo *memos, size_t count, uint32_t a, uint32_t b)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (memos[mid].a < a || (memos[mid].a == a && memos[mid].b < b))
            lo = mid + 1u;
        else
            hi = mid;
    }
    return lo;
}

/* The kept axis of the pair (a, b), walking on from *cursor; none when
 * there is none. */
static vx_sat_axis axis_find(const vx_sat_axis_memo *memos, size_t count, size_t *cursor, uint32_t a, uint32_t b)
{
    while (*cursor < count && (memos[*cursor].a < a || (memos[*cursor].a == a && memos[*cursor].b < b))) (*cursor)++;
    if (*cursor < count && memos[*cursor].a == a && memos[*cursor].b == b) return memos[*cursor].axis;
    vx_sat_axis none = {VX_SAT_AXIS_NONE, 0, 0};
    return none;
}

/* memo_state per pair */
enum { MEMO_NONE = 0, MEMO_NEW = 1, MEMO_REUSED = 2 };

typedef struct {
    vx_narrow_phase *d;
    const vx_body_set *bodies;
    const vx_broadphase_pair_list *pairs;
    float speculative_distance, h;
    bool reuse;
} detect_job;

/* Pair p's manifold into items[p] (hit[p]: there is one): the kept one when
 * it serves, else the narrow phase's; its memo for the next step into
 * memo_next[p] when it is kept. cursor walks the kept memos. */
static void detect_one(detect_job *job, size_t p, size_t *cursor, size_t *axis_cursor)
{
    vx_narrow_phase *d = job->d;
    const vx_body_set *bodies = job->bodies;
    uint32_t a = job->pairs->items[p].a;
    uint32_t b = job->pairs->items[p].b;
    VX_ASSERT(a < b && b < bodies->count);
    d->memo_state[p] = MEMO_NONE;
    d->axis_next[p].kind = VX_SAT_AXIS_NONE;
    if (!can_move(&bodies->info[a]) && !can_move(&bodies->info[b])) { /* nothing responds */
        d->hit[p] = false;
        return;
    }
    uint32_t slot = d->mesh_slot[p];
    if (slot != UINT32_MAX) {
        int n = narrow_multi_pair(bodies, a, b, job->speculative_distance, job->h, &d->mesh_items[d->mesh_first[slot]]);
        d->mesh_counts[slot] = (uint8_t)n;
        d->hit[p] = n > 0;
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
            out->part = 0;
            out->sensor = bodies->info[a].collider.sensor || bodies->info[b].collider.sensor;
            d->memo_source[p] = (size_t)(memo - d->memos.items); /* kept as it was made: the drift never adds up */
            d->memo_state[p] = MEMO_REUSED;
            d->hit[p] = true;
            return;
        }
    }
    vx_sat_axis *axis = NULL;
    if (vx_collide_shapes_use_axis(&bodies->info[a].collider, &bodies->info[b].collider)) {
        axis = &d->axis_next[p];
        *axis = axis_find(d->axes.items, d->axes.count, axis_cursor, bodies->info[a].entity.index,
                          bodies->info[b].entity.index);
    }
    /* the rotations were made for every box and hull (rotate_range) */
    d->hit[p] = narrow_pair(bodies, a, b, job->speculative_distance, job->h, axis, axis ? d->rotations : NULL, out);
    if (job->reuse && d->hit[p] && vx_manifold_memo_make(bodies, a, b, &out->manifold, &d->memo_next[p]))
        d->memo_state[p] = MEMO_NEW;
}

static bool is_polyhedron(const vx_collider *c) { return c->type == VX_SHAPE_BOX || c->type == VX_SHAPE_HULL; }

/* The rotation matrices of the boxes and hulls among bodies [begin, end),
 * made once for all their pairs. */
static void rotate_range(void *arg, size_t begin, size_t end)
{
    detect_job *job = arg;
    for (size_t i = begin; i < end; i++) {
        if (!is_polyhedron(&job->bodies->info[i].collider)) continue;
        vx_transform t = pose_transform(&job->bodies->pose[i]);
        job->d->rotations[i] = vx_collide_rotation_matrix(&t);
    }
}

/* Pairs [begin, end); the walk over the kept memos starts at the first
 * pair's. */
static void detect_range(void *arg, size_t begin, size_t end)
{
    detect_job *job = arg;
    const vx_narrow_phase *d = job->d;
    size_t cursor = 0, axis_cursor = 0;
    if (begin >= end) return;
    const vx_body_info *info = job->bodies->info;
    const vx_broadphase_pair *first = &job->pairs->items[begin];
    uint32_t first_a = info[first->a].entity.index, first_b = info[first->b].entity.index;
    if (job->reuse && d->memos.count > 0)
        cursor = vx_manifold_memo_lower_bound(d->memos.items, d->memos.count, first_a, first_b);
    if (d->axes.count > 0) axis_cursor = axis_lower_bound(d->axes.items, d->axes.count, first_a, first_b);
    for (size_t p = begin; p < end; p++) detect_one(job, p, &cursor, &axis_cursor);
}

vx_status vx_narrow_phase_detect(vx_narrow_phase *d, const vx_body_set *bodies, const vx_broadphase_pair_list *pairs,
                                 float speculative_distance, float h, bool reuse, vx_thread_pool *pool)
{
    d->count = 0;
    d->reused = 0;
    vx_status st = VX_OK;
    VX_RESERVE(st, d->items, d->capacity, pairs->count, 16u);
    VX_RESERVE(st, d->hit, d->hit_capacity, pairs->count, 16u);
    VX_RESERVE(st, d->memo_state, d->memo_state_capacity, pairs->count, 16u);
    VX_RESERVE(st, d->axis_next, d->axis_next_capacity, pairs->count, 16u);
    VX_RESERVE(st, d->rotations, d->rotation_capacity, bodies->count, 16u);
    VX_ARRAY_RESERVE(st, d->axes_spare, pairs->count, 16u);
    if (reuse) {
        VX_RESERVE(st, d->memo_next, d->memo_next_capacity, pairs->count, 16u);
        VX_RESERVE(st, d->memo_source, d->memo_source_capacity, pairs->count, 16u);
        VX_ARRAY_RESERVE(st, d->spare, pairs->count, 16u);
    }
    VX_RESERVE(st, d->mesh_slot, d->mesh_slot_capacity, pairs->count, 16u);
    VX_RESERVE(st, d->mesh_first, d->mesh_first_capacity, pairs->count + 1u, 16u);
    if (st != VX_OK) return st;
    uint32_t meshes = 0;
    size_t room = 0; /* the multi pairs' manifolds at most */
    for (size_t p = 0; p < pairs->count; p++) {
        uint32_t a = pairs->items[p].a, b = pairs->items[p].b;
        d->mesh_slot[p] = UINT32_MAX;
        if (!multi_pair(bodies, a, b)) continue;
        d->mesh_first[meshes] = room;
        d->mesh_slot[p] = meshes++;
        room += multi_capacity(bodies, a, b);
    }
    VX_RESERVE(st, d->mesh_items, d->mesh_item_capacity, room, 16u);
    VX_RESERVE(st, d->mesh_counts, d->mesh_count_capacity, meshes, 16u);
    if (meshes > 0) VX_RESERVE(st, d->spare_items, d->spare_capacity, pairs->count + room, 16u);
    if (st != VX_OK) return st;
    if (!reuse) d->memos.count = 0;
    detect_job job = {d, bodies, pairs, speculative_distance, h, reuse};
    vx_parallel_for(pool, bodies->count, rotate_range, &job);
    vx_parallel_for(pool, pairs->count, detect_range, &job);
    /* the manifolds found, in pair order (a mesh pair's in part order), and
     * the memos kept for the next step; with mesh pairs the list grows past
     * the pairs, so it is gathered in the spare list */
    vx_pair_manifold *dst = meshes > 0 ? d->spare_items : d->items;
    size_t kept = 0, axes_kept = 0;
    for (size_t p = 0; p < pairs->count; p++) {
        if (d->axis_next[p].kind != VX_SAT_AXIS_NONE) {
            vx_sat_axis_memo *m = &d->axes_spare.items[axes_kept++];
            m->a = bodies->info[pairs->items[p].a].entity.index;
            m->b = bodies->info[pairs->items[p].b].entity.index;
            m->axis = d->axis_next[p];
        }
        if (!d->hit[p]) continue;
        uint32_t slot = d->mesh_slot[p];
        if (slot != UINT32_MAX) {
            const vx_pair_manifold *found = &d->mesh_items[d->mesh_first[slot]];
            for (int i = 0; i < d->mesh_counts[slot]; i++) dst[d->count++] = found[i];
            continue;
        }
        if (d->memo_state[p] == MEMO_NEW) d->spare.items[kept++] = d->memo_next[p];
        if (d->memo_state[p] == MEMO_REUSED) {
            d->spare.items[kept++] = d->memos.items[d->memo_source[p]];
            d->reused++;
        }
        if (dst != d->items || d->count != p) dst[d->count] = d->items[p];
        VX_ASSERT(dst[d->count].manifold.count >= 1);
        VX_ASSERT(dst[d->count].manifold.count <= VX_MANIFOLD_MAX_POINTS);
        d->count++;
    }
    if (dst != d->items) {
        vx_pair_manifold *items = d->items;
        size_t capacity = d->capacity;
        d->items = d->spare_items;
        d->capacity = d->spare_capacity;
        d->spare_items = items;
        d->spare_capacity = capacity;
    }
    if (reuse) {
        vx_manifold_memo_list old = d->memos;
        d->memos = d->spare;
        d->spare = old;
    }
    d->memos.count = kept;
    vx_sat_axis_memo_list old_axes = d->axes;
    d->axes = d->axes_spare;
    d->axes_spare = old_axes;
    d->axes.count = axes_kept;
    VX_ASSERT(kept <= d->count);
    return VX_OK;
}
