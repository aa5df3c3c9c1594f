/* Incremental dynamic AABB tree: see dynamic_tree.h. The algorithms:
 * - insertion pairs the new leaf with the node that adds the least surface
 *   area to the tree (new parent plus growth of every ancestor), found by
 *   branch and bound (find_sibling);
 * - after an insertion or removal every ancestor is refitted and, if one
 *   child is more than one level taller than the other, rotated: the taller
 *   child takes the node's place (an AVL-like single rotation, as Box2D's
 *   b2DynamicTree::Balance; it keeps the height logarithmic in practice);
 * - removal replaces the leaf's parent by the leaf's sibling.
 * Compared with Box2D v2.4's greedy descent, the search builds trees of half
 * the surface-area cost (a shuffled grid of boxes: 10.9 against 21.5 times the
 * root's area), so queries are cheaper, for about the same total work of
 * update plus pair finding on the bench scenes' trajectories. */
#include "physics/collision/dynamic_tree.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "common/segment_box.h"

#define NIL VX_DYNAMIC_TREE_NULL
#define VX_DYNAMIC_TREE_FIRST_CAPACITY 16u
/* A fat box is shrunk once it exceeds the box it would get now by this many
 * margins on a side (Box2D's "huge AABB" check). */
#define VX_DYNAMIC_TREE_SHRINK_MARGINS 4.0f

/* Plain comparisons instead of fminf/fmaxf (calls): boxes are finite here. */
static vx_aabb merge(vx_aabb a, vx_aabb b)
{
    vx_aabb r;
    r.min.x = b.min.x < a.min.x ? b.min.x : a.min.x;
    r.min.y = b.min.y < a.min.y ? b.min.y : a.min.y;
    r.min.z = b.min.z < a.min.z ? b.min.z : a.min.z;
    r.max.x = b.max.x > a.max.x ? b.max.x : a.max.x;
    r.max.y = b.max.y > a.max.y ? b.max.y : a.max.y;
    r.max.z = b.max.z > a.max.z ? b.max.z : a.max.z;
    return r;
}

static bool contains(vx_aabb outer, vx_aabb inner)
{
    return outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && outer.min.z <= inner.min.z &&
           inner.max.x <= outer.max.x && inner.max.y <= outer.max.y && inner.max.z <= outer.max.z;
}

static bool aabb_equal(vx_aabb a, vx_aabb b) { return contains(a, b) && contains(b, a); }

static bool is_leaf(const vx_dynamic_tree_node *n) { return n->child1 == NIL; }

static int32_t max_i32(int32_t a, int32_t b) { return a > b ? a : b; }

void vx_dynamic_tree_init(vx_dynamic_tree *tree, float margin, float multiplier)
{
    memset(tree, 0, sizeof *tree);
    tree->root = NIL;
    tree->free_list = NIL;
    tree->margin = margin;
    tree->multiplier = multiplier;
}

void vx_dynamic_tree_free(vx_dynamic_tree *tree)
{
    free(tree->nodes);
    free(tree->stack);
    vx_dynamic_tree_init(tree, tree->margin, tree->multiplier);
}

vx_aabb vx_dynamic_tree_fatten(vx_aabb tight, vx_vec3 displacement, float margin, float multiplier)
{
    vx_vec3 r = vx_vec3_make(margin, margin, margin);
    vx_aabb fat = vx_aabb_new(vx_vec3_sub(tight.min, r), vx_vec3_add(tight.max, r));
    vx_vec3 d = vx_vec3_scale(displacement, multiplier);
    if (d.x < 0.0f) fat.min.x += d.x; else fat.max.x += d.x;
    if (d.y < 0.0f) fat.min.y += d.y; else fat.max.y += d.y;
    if (d.z < 0.0f) fat.min.z += d.z; else fat.max.z += d.z;
    return fat;
}

/* A free node is all zero except its link and height -1, so pools built by
 * the same calls are identical bytes. */
static void reset_free_node(vx_dynamic_tree_node *n, uint32_t next)
{
    memset(n, 0, sizeof *n);
    n->parent = next;
    n->child1 = NIL;
    n->child2 = NIL;
    n->height = -1;
}

/* Makes sure the free list holds at least one node. */
static vx_status reserve_node(vx_dynamic_tree *tree)
{
    if (tree->free_list != NIL) return VX_OK;
    uint32_t old = tree->node_capacity;
    uint32_t cap = old ? old * 2u : VX_DYNAMIC_TREE_FIRST_CAPACITY;
    if (old >= NIL / 2u) return VX_ERR_NOMEM; /* indices stay below NIL */
    vx_dynamic_tree_node *nodes = realloc(tree->nodes, (size_t)cap * sizeof *nodes);
    if (!nodes) return VX_ERR_NOMEM;
    tree->nodes = nodes;
    tree->node_capacity = cap;
    /* New nodes join the free list in increasing order. */
    for (uint32_t i = old; i < cap; i++) reset_free_node(&nodes[i], i + 1u < cap ? i + 1u : NIL);
    tree->free_list = old;
    return VX_OK;
}

/* Takes the head of the free list, which must not be empty. */
static uint32_t pop_free_node(vx_dynamic_tree *tree)
{
    uint32_t index = tree->free_list;
    VX_ASSERT(index != NIL && index < tree->node_capacity);
    vx_dynamic_tree_node *n = &tree->nodes[index];
    tree->free_list = n->parent;
    memset(n, 0, sizeof *n);
    n->parent = NIL;
    n->child1 = NIL;
    n->child2 = NIL;
    n->height = 0;
    tree->node_count++;
    return index;
}

static void release_node(vx_dynamic_tree *tree, uint32_t index)
{
    VX_ASSERT(index < tree->node_capacity && tree->node_count > 0u);
    reset_free_node(&tree->nodes[index], tree->free_list);
    tree->free_list = index;
    tree->node_count--;
}

/* Points the parent of old_child (or the root) at new_child instead. */
static void replace_child(vx_dynamic_tree *tree, uint32_t parent, uint32_t old_child, uint32_t new_child)
{
    if (parent == NIL) {
        tree->root = new_child;
        return;
    }
    vx_dynamic_tree_node *p = &tree->nodes[parent];
    if (p->child1 == old_child)
        p->child1 = new_child;
    else
        p->child2 = new_child;
}

static void refit(vx_dynamic_tree *tree, uint32_t index)
{
    VX_ASSERT(tree->nodes[index].child1 != NIL && tree->nodes[index].child2 != NIL);
    vx_dynamic_tree_node *n = &tree->nodes[index];
    const vx_dynamic_tree_node *c1 = &tree->nodes[n->child1];
    const vx_dynamic_tree_node *c2 = &tree->nodes[n->child2];
    n->aabb = merge(c1->aabb, c2->aabb);
    n->area = vx_aabb_surface_area(n->aabb);
    n->height = 1 + max_i32(c1->height, c2->height);
}

/* Lifts the taller child `up` of node a into a's place when a's children
 * differ in height by more than one. `up`'s taller child stays with it; its
 * other child takes up's old slot under a. `up_is_child2` says which slot.
 * Returns the node now in a's place. */
static uint32_t rotate_up(vx_dynamic_tree *tree, uint32_t a, uint32_t up, bool up_is_child2)
{
    vx_dynamic_tree_node *na = &tree->nodes[a];
    vx_dynamic_tree_node *nu = &tree->nodes[up];
    uint32_t g1 = nu->child1, g2 = nu->child2;
    uint32_t keep = tree->nodes[g1].height > tree->nodes[g2].height ? g1 : g2; /* ties: child2 stays */
    uint32_t give = keep == g1 ? g2 : g1;

    nu->parent = na->parent;
    replace_child(tree, na->parent, a, up);
    na->parent = up;
    nu->child1 = a;
    nu->child2 = keep;
    if (up_is_child2)
        na->child2 = give;
    else
        na->child1 = give;
    tree->nodes[give].parent = a;
    refit(tree, a);
    refit(tree, up);
    return up;
}

static uint32_t balance(vx_dynamic_tree *tree, uint32_t a)
{
    const vx_dynamic_tree_node *na = &tree->nodes[a];
    if (is_leaf(na)) return a;
    /* From the children's heights: a's own is not refitted yet. */
    uint32_t b = na->child1, c = na->child2;
    int32_t diff = tree->nodes[c].height - tree->nodes[b].height;
    if (diff > 1) return rotate_up(tree, a, c, true);
    if (diff < -1) return rotate_up(tree, a, b, false);
    return a;
}

/* Refits and rebalances every node from index up to the root. */
static void fix_upwards(vx_dynamic_tree *tree, uint32_t index)
{
    while (index != NIL) {
        index = balance(tree, index);
        refit(tree, index);
        index = tree->nodes[index].parent;
    }
}

/* Entries of the sibling search: a node, the area of its union with the new
 * box, and the growth its ancestors would pay if the new leaf went below it. */
typedef struct {
    uint32_t node;
    float merged;
    float inherited;
} sibling_candidate;

#define VX_DYNAMIC_TREE_SEARCH_STACK 64
/* A subtree is searched only if it could beat the best sibling found so far
 * by more than 20 %. On the bench scenes' trajectories this keeps the tree as
 * good as the exact search (same query cost) for 40 % less search work. */
#define VX_DYNAMIC_TREE_SEARCH_SLACK 0.8f

/* The node whose pairing with the new box (under a new parent) adds (nearly)
 * the least surface area to the tree: the new parent's area plus the growth
 * of every ancestor. Branch and bound (Bittner et al. 2012, as in Catto's
 * "Dynamic AABB trees" talk): below a node, no candidate can cost less than
 * the new box's own area plus what that node and its ancestors already grow,
 * so subtrees whose bound is not clearly below the best cost (SEARCH_SLACK)
 * are skipped. Depth first, the child that is cheaper to pair with first (it
 * tends to lower the bound soonest; ties: child1), a strictly better cost
 * needed to win: deterministic. Should a pathological tree outgrow the fixed
 * stack, the deepest branches are not searched (a worse but valid choice). */
static uint32_t find_sibling(const vx_dynamic_tree *tree, vx_aabb box)
{
    sibling_candidate stack[VX_DYNAMIC_TREE_SEARCH_STACK];
    const vx_dynamic_tree_node *nodes = tree->nodes;
    float box_area = vx_aabb_surface_area(box);
    uint32_t best = tree->root;
    float best_cost = FLT_MAX;
    int top = 0;
    stack[top].node = tree->root;
    stack[top].merged = vx_aabb_surface_area(merge(nodes[tree->root].aabb, box));
    stack[top].inherited = 0.0f;
    top++;
    while (top > 0) {
        sibling_candidate c = stack[--top];
        float cost = c.merged + c.inherited;
        if (cost < best_cost) {
            best_cost = cost;
            best = c.node;
        }
        const vx_dynamic_tree_node *n = &nodes[c.node];
        if (is_leaf(n)) continue;
        float inherited = c.inherited + (c.merged - n->area);
        if (box_area + inherited >= VX_DYNAMIC_TREE_SEARCH_SLACK * best_cost) continue;
        if (top + 2 > VX_DYNAMIC_TREE_SEARCH_STACK) continue;
        float m1 = vx_aabb_surface_area(merge(nodes[n->child1].aabb, box));
        float m2 = vx_aabb_surface_area(merge(nodes[n->child2].aabb, box));
        bool first1 = m1 <= m2; /* popped last-in first-out: push the other first */
        stack[top].node = first1 ? n->child2 : n->child1;
        stack[top].merged = first1 ? m2 : m1;
        stack[top].inherited = inherited;
        top++;
        stack[top].node = first1 ? n->child1 : n->child2;
        stack[top].merged = first1 ? m1 : m2;
        stack[top].inherited = inherited;
        top++;
    }
    return best;
}

/* Links the (already allocated) leaf into the tree; parent is a free node
 * allocated by the caller, so insertion itself cannot fail. */
static void insert_leaf(vx_dynamic_tree *tree, uint32_t leaf, uint32_t parent)
{
    if (tree->root == NIL) {
        tree->root = leaf;
        tree->nodes[leaf].parent = NIL;
        release_node(tree, parent);
        return;
    }
    vx_aabb box = tree->nodes[leaf].aabb;
    uint32_t sibling = find_sibling(tree, box);
    uint32_t old_parent = tree->nodes[sibling].parent;

    vx_dynamic_tree_node *p = &tree->nodes[parent];
    p->parent = old_parent;
    p->child1 = sibling;
    p->child2 = leaf;
    p->aabb = merge(tree->nodes[sibling].aabb, box);
    p->area = vx_aabb_surface_area(p->aabb);
    p->height = tree->nodes[sibling].height + 1;
    replace_child(tree, old_parent, sibling, parent);
    tree->nodes[sibling].parent = parent;
    tree->nodes[leaf].parent = parent;
    fix_upwards(tree, old_parent);
}

/* Unlinks the leaf (it stays allocated); frees its parent. */
static void remove_leaf(vx_dynamic_tree *tree, uint32_t leaf)
{
    if (leaf == tree->root) {
        tree->root = NIL;
        return;
    }
    uint32_t parent = tree->nodes[leaf].parent;
    VX_ASSERT(is_leaf(&tree->nodes[leaf]) && parent != NIL);
    const vx_dynamic_tree_node *p = &tree->nodes[parent];
    uint32_t grand = p->parent;
    uint32_t sibling = p->child1 == leaf ? p->child2 : p->child1;
    VX_ASSERT(p->child1 == leaf || p->child2 == leaf);
    replace_child(tree, grand, parent, sibling);
    tree->nodes[sibling].parent = grand;
    tree->nodes[leaf].parent = NIL;
    release_node(tree, parent);
    fix_upwards(tree, grand);
}

vx_status vx_dynamic_tree_create_proxy(vx_dynamic_tree *tree, vx_aabb tight, vx_vec3 displacement, uint32_t user_id,
                                       uint32_t *out_proxy)
{
    /* Both nodes an insertion needs are taken first: no half-done insert. */
    vx_status st = reserve_node(tree);
    if (st != VX_OK) return st;
    uint32_t leaf = pop_free_node(tree);
    st = reserve_node(tree);
    if (st != VX_OK) {
        release_node(tree, leaf);
        return st;
    }
    uint32_t parent = pop_free_node(tree);
    vx_dynamic_tree_node *n = &tree->nodes[leaf];
    n->aabb = vx_dynamic_tree_fatten(tight, displacement, tree->margin, tree->multiplier);
    n->area = vx_aabb_surface_area(n->aabb);
    n->user_id = user_id;
    insert_leaf(tree, leaf, parent);
    tree->proxy_count++;
    *out_proxy = leaf;
    return VX_OK;
}

void vx_dynamic_tree_destroy_proxy(vx_dynamic_tree *tree, uint32_t proxy)
{
    VX_ASSERT(proxy < tree->node_capacity && is_leaf(&tree->nodes[proxy]) && tree->proxy_count > 0u);
    remove_leaf(tree, proxy);
    release_node(tree, proxy);
    tree->proxy_count--;
}

/* Whether the leaf proxy, whose new fat box would be fat, must take it: its
 * tight box left the current fat box, or the current one is huge. */
static bool must_move(const vx_dynamic_tree *tree, uint32_t proxy, vx_aabb tight, vx_aabb fat)
{
    vx_aabb current = tree->nodes[proxy].aabb;
    if (!contains(current, tight)) return true;
    float s = VX_DYNAMIC_TREE_SHRINK_MARGINS * tree->margin;
    vx_vec3 grow = vx_vec3_make(s, s, s);
    vx_aabb huge = vx_aabb_new(vx_vec3_sub(fat.min, grow), vx_vec3_add(fat.max, grow));
    return !contains(huge, current);
}

bool vx_dynamic_tree_needs_move(const vx_dynamic_tree *tree, uint32_t proxy, vx_aabb tight, vx_vec3 displacement)
{
    return must_move(tree, proxy, tight, vx_dynamic_tree_fatten(tight, displacement, tree->margin, tree->multiplier));
}

bool vx_dynamic_tree_move_proxy(vx_dynamic_tree *tree, uint32_t proxy, vx_aabb tight, vx_vec3 displacement)
{
    vx_aabb fat = vx_dynamic_tree_fatten(tight, displacement, tree->margin, tree->multiplier);
    if (!must_move(tree, proxy, tight, fat)) return false;
    tree->nodes[proxy].aabb = fat;
    tree->nodes[proxy].area = vx_aabb_surface_area(fat);
    if (proxy == tree->root) return true;
    /* Removing a leaf that is not the root frees its parent, and inserting
     * needs one node: the free list is not empty, so this cannot fail. */
    remove_leaf(tree, proxy);
    insert_leaf(tree, proxy, pop_free_node(tree));
    return true;
}

vx_aabb vx_dynamic_tree_fat_aabb(const vx_dynamic_tree *tree, uint32_t proxy) { return tree->nodes[proxy].aabb; }

uint32_t vx_dynamic_tree_user_id(const vx_dynamic_tree *tree, uint32_t proxy) { return tree->nodes[proxy].user_id; }

uint32_t vx_dynamic_tree_query_stack_size(const vx_dynamic_tree *tree)
{
    /* Depth-first with both children pushed: the stack never holds more than
     * one pending node per level plus the current one. */
    return tree->root == NIL ? 1u : (uint32_t)tree->nodes[tree->root].height + 2u;
}

void vx_dynamic_tree_query_with_stack(const vx_dynamic_tree *tree, vx_aabb box, vx_dynamic_tree_query_fn fn,
                                      void *context, uint32_t *stack)
{
    if (tree->root == NIL) return;
    const vx_dynamic_tree_node *nodes = tree->nodes;
    uint32_t top = 0;
    stack[top++] = tree->root;
    while (top > 0) {
        const vx_dynamic_tree_node *n = &nodes[stack[--top]];
        if (!vx_aabb_intersects(n->aabb, box)) continue;
        if (is_leaf(n)) {
            if (!fn(context, (uint32_t)(n - nodes), n->user_id)) return;
        } else {
            stack[top++] = n->child2;
            stack[top++] = n->child1; /* child1 is visited first */
        }
    }
}

/* Room in the tree's own traversal stack for a walk of the tree as it is. */
static vx_status reserve_stack(vx_dynamic_tree *tree)
{
    uint32_t need = vx_dynamic_tree_query_stack_size(tree);
    if (tree->stack_capacity >= need) return VX_OK;
    uint32_t cap = need < 64u ? 64u : 2u * need;
    uint32_t *stack = realloc(tree->stack, (size_t)cap * sizeof *stack);
    if (!stack) return VX_ERR_NOMEM;
    tree->stack = stack;
    tree->stack_capacity = cap;
    return VX_OK;
}

vx_status vx_dynamic_tree_query(vx_dynamic_tree *tree, vx_aabb box, vx_dynamic_tree_query_fn fn, void *context)
{
    if (tree->root == NIL) return VX_OK;
    vx_status st = reserve_stack(tree);
    if (st != VX_OK) return st;
    vx_dynamic_tree_query_with_stack(tree, box, fn, context, tree->stack);
    return VX_OK;
}

/* Whether the segment origin + t d, t in [0, max_t], meets box (conservative). */
static bool segment_meets_box(vx_aabb box, const double origin[3], const double d[3], double max_t)
{
    double t_enter;
    return vx_segment_box_entry(box, origin, d, max_t, &t_enter);
}

vx_status vx_dynamic_tree_ray_query(vx_dynamic_tree *tree, vx_vec3 origin, vx_vec3 direction, float max_t, float grow,
                                    vx_dynamic_tree_ray_fn fn, void *context)
{
    if (tree->root == NIL || !(max_t >= 0.0f)) return VX_OK;
    vx_status st = reserve_stack(tree);
    if (st != VX_OK) return st;
    const double o[3] = {origin.x, origin.y, origin.z}, d[3] = {direction.x, direction.y, direction.z};
    vx_vec3 g = vx_vec3_make(grow, grow, grow);
    const vx_dynamic_tree_node *nodes = tree->nodes;
    uint32_t *stack = tree->stack;
    uint32_t top = 0;
    stack[top++] = tree->root;
    while (top > 0) {
        const vx_dynamic_tree_node *n = &nodes[stack[--top]];
        vx_aabb box = vx_aabb_new(vx_vec3_sub(n->aabb.min, g), vx_vec3_add(n->aabb.max, g));
        if (!segment_meets_box(box, o, d, (double)max_t)) continue;
        if (is_leaf(n)) {
            max_t = fn(context, (uint32_t)(n - nodes), n->user_id, max_t);
            if (max_t < 0.0f) return VX_OK;
        } else {
            VX_ASSERT(top + 2u <= tree->stack_capacity);
            stack[top++] = n->child2;
            stack[top++] = n->child1; /* child1 is visited first */
        }
    }
    return VX_OK;
}

int vx_dynamic_tree_height(const vx_dynamic_tree *tree)
{
    return tree->root == NIL ? 0 : (int)tree->nodes[tree->root].height;
}

float vx_dynamic_tree_area_ratio(const vx_dynamic_tree *tree)
{
    if (tree->root == NIL) return 0.0f;
    float root_area = vx_aabb_surface_area(tree->nodes[tree->root].aabb);
    if (!(root_area > 0.0f)) return 0.0f;
    float total = 0.0f;
    for (uint32_t i = 0; i < tree->node_capacity; i++) {
        const vx_dynamic_tree_node *n = &tree->nodes[i];
        if (n->height > 0) total += vx_aabb_surface_area(n->aabb);
    }
    return total / root_area;
}

/* Checks the subtree at index (its parent is expected_parent) and counts its
 * nodes and leaves. Recursion depth is the tree's height. */
static bool validate_subtree(const vx_dynamic_tree *tree, uint32_t index, uint32_t expected_parent, uint32_t *nodes,
                             uint32_t *leaves)
{
    if (index >= tree->node_capacity) return false;
    const vx_dynamic_tree_node *n = &tree->nodes[index];
    if (n->parent != expected_parent || n->height < 0) return false;
    (*nodes)++;
    if (is_leaf(n)) {
        (*leaves)++;
        return n->child2 == NIL && n->height == 0 && n->area == vx_aabb_surface_area(n->aabb);
    }
    if (n->child2 == NIL || n->user_id != 0u) return false;
    if (!validate_subtree(tree, n->child1, index, nodes, leaves)) return false;
    if (!validate_subtree(tree, n->child2, index, nodes, leaves)) return false;
    const vx_dynamic_tree_node *c1 = &tree->nodes[n->child1];
    const vx_dynamic_tree_node *c2 = &tree->nodes[n->child2];
    return n->height == 1 + max_i32(c1->height, c2->height) && aabb_equal(n->aabb, merge(c1->aabb, c2->aabb)) &&
           n->area == vx_aabb_surface_area(n->aabb);
}

bool vx_dynamic_tree_validate(const vx_dynamic_tree *tree)
{
    uint32_t nodes = 0, leaves = 0;
    if (tree->root != NIL && !validate_subtree(tree, tree->root, NIL, &nodes, &leaves)) return false;
    if (nodes != tree->node_count || leaves != tree->proxy_count) return false;
    if (tree->root != NIL && nodes != 2u * leaves - 1u) return false;
    uint32_t free_count = 0;
    for (uint32_t i = tree->free_list; i != NIL; i = tree->nodes[i].parent) {
        if (i >= tree->node_capacity || tree->nodes[i].height != -1 || free_count > tree->node_capacity) return false;
        free_count++;
    }
    return free_count + nodes == tree->node_capacity;
}
