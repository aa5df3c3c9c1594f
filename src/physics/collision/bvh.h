/* The reference pipeline's broad phase: a bounding volume hierarchy with median
 * splits, rebuilt from its entries on every build (private to the physics
 * module: the step's VX_BROADPHASE_BVH and the reference pipeline use it). */
#ifndef VOLTEX_PHYSICS_COLLISION_BVH_H
#define VOLTEX_PHYSICS_COLLISION_BVH_H

#include <stddef.h>

#include "voltex/ecs.h"
#include "voltex/error.h"
#include "voltex/math.h"

typedef struct {
    vx_entity entity;
    vx_aabb aabb;
} vx_bvh_entry;

typedef struct {
    vx_entity a; /* a.index < b.index */
    vx_entity b;
} vx_entity_pair;

typedef struct {
    vx_entity_pair *items;
    size_t count;
    size_t capacity;
    size_t limit; /* pushing more pairs fails with VX_ERR_BUDGET (vx_pair_list_init: SIZE_MAX) */
} vx_pair_list;

void vx_pair_list_init(vx_pair_list *list);
void vx_pair_list_free(vx_pair_list *list);

typedef struct vx_bvh_node vx_bvh_node; /* private */

typedef struct {
    vx_bvh_node *nodes;
    size_t node_count;
    size_t node_capacity;
    vx_bvh_entry *entries; /* leaves' entries, reordered by the build */
    size_t entry_count;
    size_t entry_capacity;
} vx_bvh;

void vx_bvh_init(vx_bvh *bvh);
void vx_bvh_free(vx_bvh *bvh);
/* Rebuilds the tree over entries (copied): sorts by centre along the longest
 * axis of the node's bounds and splits at the median. */
vx_status vx_bvh_build(vx_bvh *bvh, const vx_bvh_entry *entries, size_t count);
/* Every pair of leaves whose boxes intersect, each once, sorted by
 * (a.index, b.index); list is cleared first. */
vx_status vx_bvh_query_pairs(const vx_bvh *bvh, vx_pair_list *out);

#endif
