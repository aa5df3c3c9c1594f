/* The step's bodies in a persistent broad phase. See body_broadphase.h. */
#include "physics/body_broadphase.h"

#include <stdlib.h>
#include <string.h>

#include "physics/manifold_detect.h"

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
    if (index < bb->proxy_capacity) return VX_OK;
    if (index == UINT32_MAX) return VX_ERR_INVALID; /* not an id the broad phase takes */
    uint32_t cap = bb->proxy_capacity ? bb->proxy_capacity : 64u;
    while (cap <= index) cap = cap > UINT32_MAX / 2u ? UINT32_MAX : cap * 2u;
    vx_body_proxy *p = realloc(bb->proxies, (size_t)cap * sizeof *p);
    if (!p) return VX_ERR_NOMEM;
    memset(p + bb->proxy_capacity, 0, (size_t)(cap - bb->proxy_capacity) * sizeof *p);
    bb->proxies = p;
    bb->proxy_capacity = cap;
    return VX_OK;
}

static bool box_is_finite(vx_aabb b) { return vx_vec3_is_finite(b.min) && vx_vec3_is_finite(b.max); }

static bool same_shape(const vx_collider *a, const vx_collider *b)
{
    return a->type == b->type && a->radius == b->radius && a->half_extents.x == b->half_extents.x &&
           a->half_extents.y == b->half_extents.y && a->half_extents.z == b->half_extents.z &&
           a->half_height == b->half_height;
}

static bool same_pose(const vx_body_pose *a, const vx_body_pose *b)
{
    return a->x.x == b->x.x && a->x.y == b->x.y && a->x.z == b->x.z && a->q.x == b->q.x && a->q.y == b->q.y &&
           a->q.z == b->q.z && a->q.w == b->q.w;
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
static vx_status place(vx_body_broadphase *bb, const vx_solver_bodies *bodies, size_t i, float speculative_distance,
                       float h)
{
    const vx_body_info *info = &bodies->info[i];
    uint32_t index = info->entity.index;
    vx_body_proxy *p = &bb->proxies[index];
    bool is_static = info->motion == VX_MOTION_STATIC;
    vx_aabb box = vx_manifold_detect_bounds(bodies, i, speculative_distance, h);
    if (!box_is_finite(box)) return drop(bb, index);
    if (p->flags & PROXY_PRESENT)
        return vx_broadphase_update(&bb->broadphase, index, box, vx_vec3_scale(bodies->velocity[i].v, h));
    vx_status st = vx_broadphase_add(&bb->broadphase, index, box, is_static);
    if (st == VX_OK) p->flags = (uint8_t)(PROXY_PRESENT | (is_static ? PROXY_STATIC : 0u));
    return st;
}

vx_status vx_body_broadphase_sync(vx_body_broadphase *bb, const vx_solver_bodies *bodies, vx_broadphase_kind kind,
                                  float speculative_distance, float h, bool *statics_moved)
{
    *statics_moved = false;
    if (!bb->ready || bb->kind != kind) restart(bb, kind);
    bool statics_stale = bb->static_distance != speculative_distance;
    bb->static_distance = speculative_distance;
    uint32_t now = ++bb->sync_count;
    if (now == 0u) now = ++bb->sync_count; /* 0 means never seen */

    for (size_t i = 0; i < bodies->count; i++) {
        const vx_body_info *info = &bodies->info[i];
        if (!info->has_collider) continue;
        uint32_t index = info->entity.index;
        vx_status st = reserve_proxies(bb, index);
        if (st != VX_OK) return st;
        vx_body_proxy *p = &bb->proxies[index];
        bool is_static = info->motion == VX_MOTION_STATIC;
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
            if (!(p->flags & PROXY_PRESENT)) st = place(bb, bodies, i, speculative_distance, h);
        } else if (!(p->flags & PROXY_PRESENT) || statics_stale || !same_pose(&p->pose, &bodies->pose[i]) ||
                   !same_shape(&p->collider, &info->collider)) {
            if ((p->flags & PROXY_PRESENT) && !statics_stale) *statics_moved = true;
            st = place(bb, bodies, i, speculative_distance, h);
            p->pose = bodies->pose[i];
            p->collider = info->collider;
        }
        if (st != VX_OK) return st;
    }
    /* Entities gone since the last step, or without a collider now. */
    for (uint32_t index = 0; index < bb->proxy_capacity; index++) {
        if (bb->proxies[index].seen == now) continue;
        if ((bb->proxies[index].flags & (PROXY_PRESENT | PROXY_STATIC)) == (PROXY_PRESENT | PROXY_STATIC))
            *statics_moved = true;
        vx_status st = drop(bb, index);
        if (st != VX_OK) return st;
    }
    return VX_OK;
}

vx_status vx_body_broadphase_find_pairs(vx_body_broadphase *bb, const vx_solver_bodies *bodies,
                                        float speculative_distance, float h)
{
    for (size_t i = 0; i < bodies->count; i++) {
        const vx_body_info *info = &bodies->info[i];
        if (!info->has_collider || info->motion == VX_MOTION_STATIC || info->asleep) continue;
        vx_status st = place(bb, bodies, i, speculative_distance, h);
        if (st != VX_OK) return st;
    }
    vx_status st = vx_broadphase_find_pairs(&bb->broadphase, &bb->pairs);
    if (st != VX_OK) return st;
    /* Entity indices to body slots: the same order (slots follow indices). */
    for (size_t k = 0; k < bb->pairs.count; k++) {
        vx_broadphase_pair *pair = &bb->pairs.items[k];
        pair->a = bb->proxies[pair->a].slot;
        pair->b = bb->proxies[pair->b].slot;
    }
    return VX_OK;
}
