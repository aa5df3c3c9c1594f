/* The step's bodies in a persistent broad phase. See body_broadphase.h. */
#include "physics/collision/body_broadphase.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/parallel.h"
#include "physics/collision/narrow_phase.h"

#define PROXY_PRESENT 1u /* the entity has a proxy in bb->broadphase */
#define PROXY_STATIC 2u  /* ... added as static */

void vx_body_broadphase_init(vx_body_broadphase *bb)
{
    memset(bb, 0, sizeof *bb);
    vx_broadphase_pair_list_init(&bb->pairs);
}

void vx_body_broadphase_free(vx_body_broadphase *bb)
{
    if (bb->ready) vx_broadphase_free(&bb->broadphase);
    free(bb->proxies);
    vx_broadphase_pair_list_free(&bb->pairs);
    free(bb->boxes);
    free(bb->pending);
    vx_body_broadphase_init(bb);
}

/* A fresh broad phase of kind: every proxy is forgotten (added again below). */
static void restart(vx_body_broadphase *bb, vx_broadphase_kind kind)
{
    if (bb->ready) vx_broadphase_free(&bb->broadphase);
    vx_broadphase_config config = vx_broadphase_config_default();
    /* Exactly the pairs of overlapping boxes, as the BVH gives them. */
    config.tight_filter = true;
    vx_broadphase_init(&bb->broadphase, kind, &config);
    bb->kind = kind;
    bb->ready = true;
    for (uint32_t i = 0; i < bb->proxy_capacity; i++) bb->proxies[i].flags = 0;
}

static vx_status reserve_proxies(vx_body_broadphase *bb, uint32_t index)
{
    vx_status st = VX_OK;
    VX_RESERVE_INDEX(st, bb->proxies, bb->proxy_capacity, index, 64u);
    return st;
}

/* Scratch for n body slots. */
static vx_status reserve_bodies(vx_body_broadphase *bb, size_t n)
{
    if (n <= bb->body_capacity) return VX_OK;
    size_t cap;
    vx_status st = vx_grow_capacity(bb->body_capacity, n, 64u, sizeof *bb->boxes, &cap);
    VX_GROW_ARRAY(st, bb->boxes, cap);
    VX_GROW_ARRAY(st, bb->pending, cap);
    if (st == VX_OK) bb->body_capacity = cap;
    return st;
}

static bool same_shape(const vx_collider *a, const vx_collider *b)
{
    return a->type == b->type && a->radius == b->radius && a->half_extents.x == b->half_extents.x &&
           a->half_extents.y == b->half_extents.y && a->half_extents.z == b->half_extents.z &&
           a->half_height == b->half_height;
}

static vx_status drop(vx_body_broadphase *bb, uint32_t index)
{
    vx_body_proxy *p = &bb->proxies[index];
    if (!(p->flags & PROXY_PRESENT)) return VX_OK;
    p->flags = 0;
    return vx_broadphase_remove(&bb->broadphase, index);
}

/* Gives entity index the box of body slot i: added, updated, or dropped while
 * the box is not finite. */
static vx_status place(vx_body_broadphase *bb, const vx_body_set *bodies, size_t i, vx_aabb box, float h)
{
    const vx_body_info *info = &bodies->info[i];
    uint32_t index = info->entity.index;
    vx_body_proxy *p = &bb->proxies[index];
    bool is_static = info->motion == VX_MOTION_STATIC;
    if (!vx_aabb_is_finite(box)) return drop(bb, index);
    if (p->flags & PROXY_PRESENT)
        return vx_broadphase_update(&bb->broadphase, index, box, vx_vec3_scale(bodies->velocity[i].v, h));
    vx_status st = vx_broadphase_add(&bb->broadphase, index, box, is_static);
    if (st == VX_OK) p->flags = (uint8_t)(PROXY_PRESENT | (is_static ? PROXY_STATIC : 0u));
    return st;
}

typedef struct {
    vx_body_broadphase *bb;
    const vx_body_set *bodies;
    float speculative_distance, h;
    uint32_t now;              /* sync: its number */
    bool statics_stale;        /* sync: the static boxes need a new speculative distance */
    atomic_size_t settled;     /* sync: bodies found with their proxy as it should be */
    atomic_size_t pending;     /* bodies left for the calling thread */
} body_job;

/* Whether body slot i's entity keeps its proxy as it is in this sync. */
static bool settled(const body_job *job, size_t i)
{
    const vx_body_info *info = &job->bodies->info[i];
    const vx_body_proxy *p = &job->bb->proxies[info->entity.index];
    bool is_static = info->motion == VX_MOTION_STATIC;
    if (!(p->flags & PROXY_PRESENT) || p->generation != info->entity.generation ||
        is_static != ((p->flags & PROXY_STATIC) != 0u))
        return false;
    /* Moving bodies get their box every substep (find_pairs). */
    return !is_static || (!job->statics_stale && vx_body_pose_equal(&p->pose, &job->bodies->pose[i]) &&
                          same_shape(&p->collider, &info->collider));
}

/* Bodies [begin, end) of a sync: the settled ones are marked seen; the
 * others get their box and wait for the calling thread. */
static void sync_range(void *arg, size_t begin, size_t end)
{
    body_job *job = arg;
    vx_body_broadphase *bb = job->bb;
    size_t count = 0, left = 0;
    for (size_t i = begin; i < end; i++) {
        const vx_body_info *info = &job->bodies->info[i];
        bb->pending[i] = 0;
        if (!info->has_collider) continue;
        if (settled(job, i)) {
            vx_body_proxy *p = &bb->proxies[info->entity.index];
            p->slot = (uint32_t)i;
            p->seen = job->now;
            count++;
        } else {
            bb->pending[i] = 1;
            bb->boxes[i] = vx_narrow_phase_bounds(job->bodies, i, job->speculative_distance, job->h);
            left++;
        }
    }
    atomic_fetch_add_explicit(&job->settled, count, memory_order_relaxed);
    atomic_fetch_add_explicit(&job->pending, left, memory_order_relaxed);
}

/* What sync does for body slot i (not settled), with its box. */
static vx_status sync_body(vx_body_broadphase *bb, const vx_body_set *bodies, size_t i, uint32_t now,
                           bool statics_stale, float h, bool *statics_moved)
{
    const vx_body_info *info = &bodies->info[i];
    uint32_t index = info->entity.index;
    vx_body_proxy *p = &bb->proxies[index];
    bool is_static = info->motion == VX_MOTION_STATIC;
    vx_status st = VX_OK;
    if ((p->flags & PROXY_PRESENT) &&
        (p->generation != info->entity.generation || is_static != ((p->flags & PROXY_STATIC) != 0u))) {
        if (p->flags & PROXY_STATIC) *statics_moved = true;
        st = drop(bb, index);
        if (st != VX_OK) return st;
    }
    p->generation = info->entity.generation;
    p->slot = (uint32_t)i;
    p->seen = now;
    if (!is_static) {
        /* Moving bodies get their box every substep; a new one now. */
        if (!(p->flags & PROXY_PRESENT)) st = place(bb, bodies, i, bb->boxes[i], h);
    } else if (!(p->flags & PROXY_PRESENT) || statics_stale || !vx_body_pose_equal(&p->pose, &bodies->pose[i]) ||
               !same_shape(&p->collider, &info->collider)) {
        if ((p->flags & PROXY_PRESENT) && !statics_stale) *statics_moved = true;
        st = place(bb, bodies, i, bb->boxes[i], h);
        p->pose = bodies->pose[i];
        p->collider = info->collider;
    }
    return st;
}

vx_status vx_body_broadphase_sync(vx_body_broadphase *bb, const vx_body_set *bodies, vx_broadphase_kind kind,
                                  float speculative_distance, float h, bool *statics_moved)
{
    *statics_moved = false;
    if (!bb->ready || bb->kind != kind) restart(bb, kind);
    bool statics_stale = bb->static_distance != speculative_distance;
    bb->static_distance = speculative_distance;
    uint32_t now = ++bb->sync_count;
    if (now == 0u) now = ++bb->sync_count; /* 0 means never seen */

    /* Room for every entity index first (the slots follow the indices: the
     * last body with a collider has the largest). */
    size_t last = bodies->count;
    while (last > 0 && !bodies->info[last - 1].has_collider) last--;
    vx_status st = last > 0 ? reserve_proxies(bb, bodies->info[last - 1].entity.index) : VX_OK;
    if (st == VX_OK) st = reserve_bodies(bb, bodies->count);
    if (st != VX_OK) return st;

    body_job job = {.bb = bb, .bodies = bodies, .speculative_distance = speculative_distance, .h = h, .now = now,
                    .statics_stale = statics_stale};
    atomic_init(&job.settled, 0u);
    atomic_init(&job.pending, 0u);
    vx_parallel_for(bb->pool, bodies->count, sync_range, &job);
    /* The others in body order, as one thread would. */
    size_t seen_present = atomic_load_explicit(&job.settled, memory_order_relaxed);
    size_t left = atomic_load_explicit(&job.pending, memory_order_relaxed);
    for (size_t i = 0; i < bodies->count && left > 0; i++) {
        if (!bb->pending[i]) continue;
        left--;
        st = sync_body(bb, bodies, i, now, statics_stale, h, statics_moved);
        if (st != VX_OK) return st;
        if (bb->proxies[bodies->info[i].entity.index].flags & PROXY_PRESENT) seen_present++;
    }
    /* Entities gone since the last step, or without a collider now: there
     * are some only if the broad phase holds more than the bodies seen. */
    if (vx_broadphase_count(&bb->broadphase) == seen_present) return VX_OK;
    for (uint32_t index = 0; index < bb->proxy_capacity; index++) {
        if (bb->proxies[index].seen == now) continue;
        if ((bb->proxies[index].flags & (PROXY_PRESENT | PROXY_STATIC)) == (PROXY_PRESENT | PROXY_STATIC))
            *statics_moved = true;
        st = drop(bb, index);
        if (st != VX_OK) return st;
    }
    return VX_OK;
}

/* Bodies [begin, end) of find_pairs: each awake moving body's new box, set
 * at once when it changes no tree, else left for the calling thread. */
static void boxes_range(void *arg, size_t begin, size_t end)
{
    body_job *job = arg;
    vx_body_broadphase *bb = job->bb;
    const vx_body_set *bodies = job->bodies;
    size_t left = 0;
    for (size_t i = begin; i < end; i++) {
        const vx_body_info *info = &bodies->info[i];
        bb->pending[i] = 0;
        if (!info->has_collider || info->motion == VX_MOTION_STATIC || info->asleep) continue;
        vx_aabb box = vx_narrow_phase_bounds(bodies, i, job->speculative_distance, job->h);
        uint32_t index = info->entity.index;
        if ((bb->proxies[index].flags & PROXY_PRESENT) && vx_aabb_is_finite(box) &&
            vx_broadphase_update_in_place(&bb->broadphase, index, box, vx_vec3_scale(bodies->velocity[i].v, job->h)))
            continue;
        bb->boxes[i] = box;
        bb->pending[i] = 1;
        left++;
    }
    atomic_fetch_add_explicit(&job->pending, left, memory_order_relaxed);
}

/* The pairs whose colliders do not pass each other's collision filter go,
 * the others keep their order. */
static void drop_filtered(vx_broadphase_pair_list *pairs, const vx_body_set *bodies)
{
    size_t k = 0;
    for (size_t i = 0; i < pairs->count; i++) {
        const vx_broadphase_pair *p = &pairs->items[i];
        if (vx_collider_filter_pass(&bodies->info[p->a].collider, &bodies->info[p->b].collider))
            pairs->items[k++] = *p;
    }
    pairs->count = k;
}

/* Pairs [begin, end): entity indices to body slots. */
static void slots_range(void *arg, size_t begin, size_t end)
{
    vx_body_broadphase *bb = arg;
    for (size_t k = begin; k < end; k++) {
        vx_broadphase_pair *pair = &bb->pairs.items[k];
        pair->a = bb->proxies[pair->a].slot;
        pair->b = bb->proxies[pair->b].slot;
    }
}

vx_status vx_body_broadphase_find_pairs(vx_body_broadphase *bb, const vx_body_set *bodies,
                                        float speculative_distance, float h)
{
    vx_status st = reserve_bodies(bb, bodies->count);
    if (st != VX_OK) return st;
    body_job job = {.bb = bb, .bodies = bodies, .speculative_distance = speculative_distance, .h = h};
    atomic_init(&job.settled, 0u);
    atomic_init(&job.pending, 0u);
    vx_parallel_for(bb->pool, bodies->count, boxes_range, &job);
    /* Boxes that move proxies in the trees, in body order, as one thread would. */
    size_t left = atomic_load_explicit(&job.pending, memory_order_relaxed);
    for (size_t i = 0; i < bodies->count && left > 0; i++) {
        if (!bb->pending[i]) continue;
        left--;
        st = place(bb, bodies, i, bb->boxes[i], h);
        if (st != VX_OK) return st;
    }
    bb->broadphase.pool = bb->pool;
    st = vx_broadphase_find_pairs(&bb->broadphase, &bb->pairs);
    if (st != VX_OK) return st;
    /* Entity indices to body slots: the same order (slots follow indices). */
    vx_parallel_for(bb->pool, bb->pairs.count, slots_range, bb);
    if (bodies->filtered > 0) drop_filtered(&bb->pairs, bodies);
    return VX_OK;
}
