/* One broad-phase interface over two kinds (private to the physics module):
 * VX_BROADPHASE_BVH, a median-split BVH (bvh.c) rebuilt at each find_pairs
 * from the boxes as given, and VX_BROADPHASE_DYNAMIC_TREE, two incremental
 * dynamic AABB trees (dynamic_tree.h; statics in their own, exact boxes; the
 * others with fat boxes) whose pair set is kept and re-queried only for
 * the ids that changed. See docs/simulation.md, "Broad phase". */
#ifndef VOLTEX_PHYSICS_BROADPHASE_H
#define VOLTEX_PHYSICS_BROADPHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/thread_pool.h"
#include "physics/collision/bvh.h"
#include "physics/collision/dynamic_tree.h"
#include "voltex/error.h"
#include "voltex/math.h"
#include "voltex/physics.h"

/* vx_broadphase_kind (VX_BROADPHASE_BVH, VX_BROADPHASE_DYNAMIC_TREE) is
 * public: the step's configuration chooses it (voltex/physics.h). */

/* Fat-box defaults, Box2D v2.4's b2_aabbExtension and b2_aabbMultiplier. */
#define VX_BROADPHASE_MARGIN 0.1f    /* m: a body moves this far before it is reinserted */
#define VX_BROADPHASE_MULTIPLIER 4.0f /* the fat box covers this many steps of predicted travel */

typedef struct {
    float margin;     /* m, >= 0: dynamic tree only */
    float multiplier; /* >= 0: dynamic tree only */
    bool tight_filter; /* find_pairs keeps only pairs whose tight boxes overlap */
} vx_broadphase_config;

/* margin VX_BROADPHASE_MARGIN, multiplier VX_BROADPHASE_MULTIPLIER, no tight filter. */
vx_broadphase_config vx_broadphase_config_default(void);

typedef struct {
    uint32_t a; /* a < b */
    uint32_t b;
} vx_broadphase_pair;

typedef struct {
    vx_broadphase_pair *items;
    size_t count;
    size_t capacity;
} vx_broadphase_pair_list;

void vx_broadphase_pair_list_init(vx_broadphase_pair_list *list);
void vx_broadphase_pair_list_free(vx_broadphase_pair_list *list);

/* What the broad phase knows of one id (private). */
typedef struct {
    vx_aabb tight;  /* the box last given */
    uint32_t proxy; /* node in its dynamic tree (dynamic-tree kind) */
    uint8_t flags;  /* present, static, dirty */
} vx_broadphase_slot;

/* One thread's scratch for the parallel parts of find_pairs (private): its
 * traversal stack, the pairs its queries found, the range of items it took. */
typedef struct {
    uint32_t *stack;
    uint32_t stack_capacity;
    vx_broadphase_pair *pairs;
    size_t count, capacity;
    size_t begin;     /* the first item of its range */
    vx_status status; /* VX_ERR_NOMEM if its pairs could not grow */
} vx_broadphase_worker;

typedef struct {
    size_t proxies;     /* ids present */
    size_t statics;     /* of which static */
    size_t requeried;   /* last find_pairs: ids added, removed or reinserted since the one before */
    size_t fat_pairs;   /* last find_pairs: pairs of fat boxes (before the tight filter) */
    int dynamic_height; /* dynamic tree kind: tree heights */
    int static_height;
} vx_broadphase_stats;

typedef struct {
    vx_broadphase_kind kind;
    vx_broadphase_config config;
    size_t max_pairs; /* find_pairs fails with VX_ERR_BUDGET past this many pairs (0: no limit) */
    vx_broadphase_slot *slots; /* indexed by id */
    uint32_t slot_capacity;
    size_t count;
    size_t static_count;
    vx_broadphase_stats stats;

    /* dynamic tree kind */
    vx_dynamic_tree moving;     /* dynamic and kinematic proxies, fat boxes */
    vx_dynamic_tree fixed;      /* static proxies, exact boxes */
    uint32_t *dirty;            /* ids changed since the last find_pairs, each once */
    size_t dirty_count, dirty_capacity;
    vx_broadphase_pair *pairs;  /* the fat pair set of the last find_pairs, sorted */
    size_t pair_count, pair_capacity;
    vx_broadphase_pair *fresh;  /* pairs found by this find_pairs' queries */
    size_t fresh_count, fresh_capacity;
    vx_broadphase_pair *spare;  /* radix sort buffer, then the merged set */
    size_t spare_capacity;
    vx_broadphase_worker *workers; /* one per thread of pool */
    size_t worker_count;

    /* The threads find_pairs runs on (NULL, as init leaves it: the calling
     * thread alone), set by the caller. The dirty ids' queries and the tight
     * filter are split between them; the result is the same for any pool. */
    vx_thread_pool *pool;

    /* BVH kind */
    vx_bvh bvh;
    vx_bvh_entry *entries;
    size_t entry_capacity;
    vx_pair_list bvh_pairs;
} vx_broadphase;

/* An empty broad phase of the given kind; config NULL means the defaults. */
void vx_broadphase_init(vx_broadphase *bp, vx_broadphase_kind kind, const vx_broadphase_config *config);
void vx_broadphase_free(vx_broadphase *bp);

/* Adds id with its box. is_static: never moves, never paired with another
 * static (kinematic bodies are not static). VX_ERR_INVALID if id is already
 * present or is UINT32_MAX, or the box is inverted; VX_ERR_NONFINITE if the
 * box is not finite. */
vx_status vx_broadphase_add(vx_broadphase *bp, uint32_t id, vx_aabb aabb, bool is_static);
/* New box of id, which moves by about displacement per step from now on (the
 * dynamic tree stretches fat boxes along it; 0 is fine). Cheap when the box
 * stays inside its fat box. Statics may be updated too (a moved static is
 * re-queried once). Errors as for add; VX_ERR_INVALID if id is absent. */
vx_status vx_broadphase_update(vx_broadphase *bp, uint32_t id, vx_aabb aabb, vx_vec3 displacement);
/* The part of vx_broadphase_update that threads may do at once, for
 * different ids, while nothing else changes bp: when the new box needs no
 * change of the trees (dynamic tree: it stays inside its fat box, which is
 * not too big for it either; BVH: always) and update would succeed, the box
 * is recorded and the result is true, exactly as update would leave it.
 * Otherwise nothing changes and the result is false: call update (on one
 * thread). */
bool vx_broadphase_update_in_place(vx_broadphase *bp, uint32_t id, vx_aabb aabb, vx_vec3 displacement);
/* VX_ERR_INVALID if id is absent. */
vx_status vx_broadphase_remove(vx_broadphase *bp, uint32_t id);

/* out (cleared first) receives the pairs, for both kinds: every pair of ids
 * whose boxes overlap (inclusive, as vx_aabb_intersects: touching counts),
 * at least one of them not static, each pair once as (a, b) with a < b,
 * sorted by (a, b), the contract of vx_bvh_query_pairs. The boxes are the
 * fat boxes (vx_broadphase_fat_aabb), which for the BVH kind and for static
 * proxies are the exact boxes. A fat box contains its tight box, so no pair
 * of overlapping tight boxes is ever missed; the dynamic tree may report
 * extra pairs whose tight boxes do not overlap, unless config.tight_filter
 * drops them, which makes both kinds report exactly the same pairs for the
 * same boxes. (A narrow phase that makes speculative contacts up to some
 * distance should be given boxes grown by that distance, with either kind.)
 *
 * Ids are the caller's small integers (body slots or entity indices):
 * storage is one slot per id up to the largest id used, so keep them dense. */
vx_status vx_broadphase_find_pairs(vx_broadphase *bp, vx_broadphase_pair_list *out);

/* Drops, in place and keeping the order, the pairs whose tight boxes (the last
 * given to add/update) do not overlap; returns how many were dropped. Pairs
 * naming an absent id are dropped too. */
size_t vx_broadphase_filter_tight(const vx_broadphase *bp, vx_broadphase_pair_list *pairs);

bool vx_broadphase_contains(const vx_broadphase *bp, uint32_t id);
bool vx_broadphase_is_static(const vx_broadphase *bp, uint32_t id);
/* The box id's pairs are found with (see vx_broadphase_find_pairs); false
 * if id is absent. */
bool vx_broadphase_fat_aabb(const vx_broadphase *bp, uint32_t id, vx_aabb *out);
/* The box last given for id; false if id is absent. */
bool vx_broadphase_tight_aabb(const vx_broadphase *bp, uint32_t id, vx_aabb *out);
size_t vx_broadphase_count(const vx_broadphase *bp);
vx_broadphase_stats vx_broadphase_get_stats(const vx_broadphase *bp);

#endif
