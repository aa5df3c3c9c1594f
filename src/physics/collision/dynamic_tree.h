/* Incremental dynamic AABB tree (private to the physics module): the idea of
 * Box2D's b2DynamicTree and Bullet's btDbvt, written for voltex. Each leaf is
 * a proxy holding a "fat" box: the tight box grown by a margin and stretched
 * along the displacement predicted for the coming steps, so that a moving
 * body is only reinserted when its tight box leaves the fat one. Insertion
 * descends by a surface-area cost (SAH-guided), and every ancestor of a
 * changed leaf is rebalanced by AVL-like rotations. Nodes live in one pool
 * with a free list: once the pool is big enough, nothing allocates.
 *
 * Deterministic: the same sequence of calls gives the same node array, bit
 * for bit (free nodes are reset, ties go to the first child). */
#ifndef VOLTEX_PHYSICS_DYNAMIC_TREE_H
#define VOLTEX_PHYSICS_DYNAMIC_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voltex/error.h"
#include "voltex/math.h"

#define VX_DYNAMIC_TREE_NULL UINT32_MAX

/* One node (48 bytes). Every field is 4 bytes, so the struct has no padding
 * and two pools can be compared with memcmp. */
typedef struct {
    vx_aabb aabb;     /* leaf: the fat box; internal: the union of its children */
    uint32_t parent;  /* VX_DYNAMIC_TREE_NULL at the root; next free node on the free list */
    uint32_t child1;  /* VX_DYNAMIC_TREE_NULL for a leaf */
    uint32_t child2;
    int32_t height;   /* 0 for a leaf, -1 for a free node */
    uint32_t user_id; /* leaf: the caller's id; 0 otherwise */
    float area;       /* surface area of aabb, kept for the insertion search */
} vx_dynamic_tree_node;

typedef struct {
    vx_dynamic_tree_node *nodes;
    uint32_t node_capacity;
    uint32_t node_count; /* nodes in use (leaves and internal) */
    uint32_t proxy_count;
    uint32_t root;
    uint32_t free_list;
    float margin;     /* m: fat boxes exceed the tight box by this on every side */
    float multiplier; /* fat boxes stretch this many predicted displacements ahead */
    uint32_t *stack;  /* traversal stack of the queries, kept between calls */
    uint32_t stack_capacity;
} vx_dynamic_tree;

/* Called for each proxy whose fat box overlaps the query box; return false to
 * stop the query early. */
typedef bool (*vx_dynamic_tree_query_fn)(void *context, uint32_t proxy, uint32_t user_id);

/* An empty tree whose fat boxes use margin (m) and multiplier (see
 * vx_dynamic_tree_fatten). Margin 0 and multiplier 0 keep boxes exact (for
 * static proxies). */
void vx_dynamic_tree_init(vx_dynamic_tree *tree, float margin, float multiplier);
void vx_dynamic_tree_free(vx_dynamic_tree *tree);

/* The fat box of a proxy: tight grown by margin on every side, then extended
 * by multiplier * displacement on the side the displacement points to (the
 * other side keeps only the margin). */
vx_aabb vx_dynamic_tree_fatten(vx_aabb tight, vx_vec3 displacement, float margin, float multiplier);

/* New leaf for a body with box tight moving by displacement per step; its
 * index (stable until destroyed) goes to *out_proxy. Boxes must be finite. */
vx_status vx_dynamic_tree_create_proxy(vx_dynamic_tree *tree, vx_aabb tight, vx_vec3 displacement, uint32_t user_id,
                                       uint32_t *out_proxy);
void vx_dynamic_tree_destroy_proxy(vx_dynamic_tree *tree, uint32_t proxy);

/* The body of proxy now has box tight and moves by displacement per step.
 * Returns true when the leaf was reinserted with a new fat box: the tight box
 * left the old fat box, or the old fat box is far bigger than a new one would
 * be (a body that slowed down: the box is shrunk so it stops making pairs).
 * Returns false and changes nothing otherwise. */
bool vx_dynamic_tree_move_proxy(vx_dynamic_tree *tree, uint32_t proxy, vx_aabb tight, vx_vec3 displacement);
/* What vx_dynamic_tree_move_proxy with these arguments would return, without
 * changing anything: the tree is only read, so threads may ask at once (and
 * the answer holds until the proxy itself is moved). */
bool vx_dynamic_tree_needs_move(const vx_dynamic_tree *tree, uint32_t proxy, vx_aabb tight, vx_vec3 displacement);

vx_aabb vx_dynamic_tree_fat_aabb(const vx_dynamic_tree *tree, uint32_t proxy);
uint32_t vx_dynamic_tree_user_id(const vx_dynamic_tree *tree, uint32_t proxy);

/* Calls fn for every proxy whose fat box intersects box (inclusive, like
 * vx_aabb_intersects), in a fixed order that depends only on the tree. The
 * only failure is growing the traversal stack (VX_ERR_NOMEM). */
vx_status vx_dynamic_tree_query(vx_dynamic_tree *tree, vx_aabb box, vx_dynamic_tree_query_fn fn, void *context);

/* The same query with the caller's traversal stack of at least
 * vx_dynamic_tree_query_stack_size(tree) entries: it only reads the tree, so
 * several threads may query one tree at once, each with its own stack (and
 * nothing changes the tree meanwhile). Cannot fail. */
void vx_dynamic_tree_query_with_stack(const vx_dynamic_tree *tree, vx_aabb box, vx_dynamic_tree_query_fn fn,
                                      void *context, uint32_t *stack);
/* Entries a query's stack needs in the tree as it is now (1 when empty). */
uint32_t vx_dynamic_tree_query_stack_size(const vx_dynamic_tree *tree);

/* Called for each proxy whose fat box (grown by the query's grow) the
 * segment origin + t direction, t in [0, max_t], reaches: returns the max_t
 * for the rest of the walk (max_t to go on as before, less to clip it, as a
 * nearest hit so far does; a negative value stops the walk). */
typedef float (*vx_dynamic_tree_ray_fn)(void *context, uint32_t proxy, uint32_t user_id, float max_t);

/* Walks the proxies along a segment (a ray of direction, not necessarily
 * unit, up to max_t), every fat box grown by grow on each side first (a
 * sphere cast's radius); fn as above, in a fixed order that depends only on
 * the tree. The box test is conservative: rounding never drops a box the
 * segment touches. VX_ERR_NOMEM only from growing the traversal stack. */
vx_status vx_dynamic_tree_ray_query(vx_dynamic_tree *tree, vx_vec3 origin, vx_vec3 direction, float max_t, float grow,
                                    vx_dynamic_tree_ray_fn fn, void *context);

/* Height of the root (0: a single leaf or an empty tree). */
int vx_dynamic_tree_height(const vx_dynamic_tree *tree);
/* Sum of the surface areas of the internal nodes over the root's: the tree's
 * query cost in SAH terms (lower is better; 0 for an empty tree). */
float vx_dynamic_tree_area_ratio(const vx_dynamic_tree *tree);
/* Checks every invariant: parent and child links, heights, each internal box
 * equal to the union of its children, the counts, the free list. */
bool vx_dynamic_tree_validate(const vx_dynamic_tree *tree);

#endif
