/* Broad phase: a bounding volume hierarchy rebuilt from scratch every step
 * (the reference pipeline's; docs/simulation.md, "Where the engine
 * started"). Median split: a node's entries are ordered by the
 * centre of their boxes along the longest axis of the centres' bounds and cut
 * in half (a selection, not a full sort: see select_nth); a leaf holds one
 * entry. The bvh keeps its arrays between builds, so a rebuild of the same
 * size allocates nothing. */
#include "physics/collision/bvh.h"

#include <stdlib.h>
#include <string.h>

#define VX_BVH_NO_CHILD UINT32_MAX

struct vx_bvh_node {
    vx_aabb aabb;   /* bounds of every entry below */
    uint32_t left;  /* child nodes, VX_BVH_NO_CHILD for a leaf */
    uint32_t right;
    uint32_t first; /* first entry below, in bvh->entries */
    uint32_t count; /* entries below; 1 for a leaf */
};

void vx_bvh_init(vx_bvh *bvh) { memset(bvh, 0, sizeof *bvh); }

void vx_bvh_free(vx_bvh *bvh)
{
    free(bvh->nodes);
    free(bvh->entries);
    vx_bvh_init(bvh);
}

static int compare_u32(uint32_t a, uint32_t b) { return (a > b) - (a < b); }

/* Total order of entries: centre on the axis (min + max, which orders like
 * the centre without the halving), then entity index and generation, then
 * the box itself, so equal keys can only be identical entries. */
static int compare_entries_on(const vx_bvh_entry *a, const vx_bvh_entry *b, int axis)
{
    float ca = vx_vec3_get(a->aabb.min, axis) + vx_vec3_get(a->aabb.max, axis);
    float cb = vx_vec3_get(b->aabb.min, axis) + vx_vec3_get(b->aabb.max, axis);
    if (ca < cb) return -1;
    if (ca > cb) return 1;
    int c = compare_u32(a->entity.index, b->entity.index);
    if (c == 0) c = compare_u32(a->entity.generation, b->entity.generation);
    for (int i = 0; i < 3 && c == 0; i++) {
        float x = vx_vec3_get(a->aabb.min, i), y = vx_vec3_get(b->aabb.min, i);
        c = (x > y) - (x < y);
        if (c == 0) {
            x = vx_vec3_get(a->aabb.max, i);
            y = vx_vec3_get(b->aabb.max, i);
            c = (x > y) - (x < y);
        }
    }
    return c;
}

/* qsort has no context argument: one comparator per axis. */
static int compare_entries_x(const void *a, const void *b) { return compare_entries_on(a, b, 0); }
static int compare_entries_y(const void *a, const void *b) { return compare_entries_on(a, b, 1); }
static int compare_entries_z(const void *a, const void *b) { return compare_entries_on(a, b, 2); }
static int (*const compare_entries_axis[3])(const void *, const void *) = {compare_entries_x, compare_entries_y,
                                                                           compare_entries_z};

static void swap_entries(vx_bvh_entry *e, uint32_t i, uint32_t j)
{
    vx_bvh_entry t = e[i];
    e[i] = e[j];
    e[j] = t;
}

/* Reorders e[0, count) so that e[k] is the entry a full sort would put there,
 * everything before it smaller and everything after it larger (quickselect,
 * median-of-three pivot). The split only needs the two halves as sets, and
 * since the order is total these sets, and so the whole tree, are the same
 * as with a full sort, at O(n) instead of O(n log n) per level. Should the
 * pivots go badly, the rest of the range is sorted instead (O(n log n)). */
static void select_nth(vx_bvh_entry *e, uint32_t count, uint32_t k, int axis)
{
    uint32_t lo = 0, hi = count - 1; /* inclusive */
    unsigned budget = 16;
    for (uint32_t c = count; c > 1; c >>= 1) budget += 2;
    while (hi > lo) {
        if (budget-- == 0) {
            qsort(e + lo, (size_t)(hi - lo) + 1u, sizeof *e, compare_entries_axis[axis]);
            return;
        }
        uint32_t mid = lo + (hi - lo) / 2u;
        if (compare_entries_on(&e[mid], &e[lo], axis) < 0) swap_entries(e, mid, lo);
        if (compare_entries_on(&e[hi], &e[lo], axis) < 0) swap_entries(e, hi, lo);
        if (compare_entries_on(&e[hi], &e[mid], axis) < 0) swap_entries(e, hi, mid);
        /* e[lo] <= e[mid] <= e[hi]: the pivot is e[mid], parked at hi. */
        swap_entries(e, mid, hi);
        uint32_t store = lo;
        for (uint32_t i = lo; i < hi; i++) {
            if (compare_entries_on(&e[i], &e[hi], axis) < 0) swap_entries(e, i, store++);
        }
        swap_entries(e, store, hi);
        if (store == k) return;
        if (k < store)
            hi = store - 1u;
        else
            lo = store + 1u;
    }
}

/* Plain comparisons instead of fminf/fmaxf (library calls here): the boxes
 * are finite, so the result is the same. */
static vx_vec3 min3(vx_vec3 a, vx_vec3 b)
{
    return vx_vec3_make(b.x < a.x ? b.x : a.x, b.y < a.y ? b.y : a.y, b.z < a.z ? b.z : a.z);
}

static vx_vec3 max3(vx_vec3 a, vx_vec3 b)
{
    return vx_vec3_make(b.x > a.x ? b.x : a.x, b.y > a.y ? b.y : a.y, b.z > a.z ? b.z : a.z);
}

/* Builds the subtree over entries[first, first + count) and returns its node.
 * The node array was sized for the whole tree (2n - 1 nodes), so indices and
 * pointers stay valid. Recursion depth is about log2(n) (median split). */
static uint32_t build_node(vx_bvh *bvh, uint32_t first, uint32_t count)
{
    uint32_t index = (uint32_t)bvh->node_count++;
    vx_bvh_entry *entries = bvh->entries + first;

    vx_aabb bounds = entries[0].aabb;
    vx_vec3 cmin = vx_aabb_center(entries[0].aabb);
    vx_vec3 cmax = cmin;
    for (uint32_t i = 1; i < count; i++) {
        bounds.min = min3(bounds.min, entries[i].aabb.min);
        bounds.max = max3(bounds.max, entries[i].aabb.max);
        vx_vec3 c = vx_aabb_center(entries[i].aabb);
        cmin = min3(cmin, c);
        cmax = max3(cmax, c);
    }

    vx_bvh_node *node = &bvh->nodes[index];
    node->aabb = bounds;
    node->first = first;
    node->count = count;
    node->left = VX_BVH_NO_CHILD;
    node->right = VX_BVH_NO_CHILD;
    if (count == 1) return index;

    /* Longest axis of the centres' spread; ties go to the lowest axis. */
    vx_vec3 spread = vx_vec3_sub(cmax, cmin);
    int axis = 0;
    if (spread.y > spread.x) axis = 1;
    if (spread.z > vx_vec3_get(spread, axis)) axis = 2;
    uint32_t half = count / 2u;
    select_nth(entries, count, half, axis);

    uint32_t left = build_node(bvh, first, half);
    uint32_t right = build_node(bvh, first + half, count - half);
    bvh->nodes[index].left = left;
    bvh->nodes[index].right = right;
    return index;
}

vx_status vx_bvh_build(vx_bvh *bvh, const vx_bvh_entry *entries, size_t count)
{
    bvh->node_count = 0;
    bvh->entry_count = 0;
    if (count == 0) return VX_OK;
    /* Node indices are 32-bit: at most 2^31 entries. */
    if (count > (size_t)(UINT32_MAX / 2u) || count > SIZE_MAX / 2u / sizeof(vx_bvh_node)) return VX_ERR_NOMEM;

    size_t nodes_needed = 2u * count - 1u;
    if (bvh->entry_capacity < count) {
        vx_bvh_entry *e = realloc(bvh->entries, count * sizeof *e);
        if (!e) return VX_ERR_NOMEM;
        bvh->entries = e;
        bvh->entry_capacity = count;
    }
    if (bvh->node_capacity < nodes_needed) {
        vx_bvh_node *n = realloc(bvh->nodes, nodes_needed * sizeof *n);
        if (!n) return VX_ERR_NOMEM;
        bvh->nodes = n;
        bvh->node_capacity = nodes_needed;
    }

    memcpy(bvh->entries, entries, count * sizeof *entries);
    bvh->entry_count = count;
    build_node(bvh, 0, (uint32_t)count);
    return VX_OK;
}

static vx_status push_pair(vx_pair_list *out, vx_entity a, vx_entity b)
{
    if (out->count >= out->limit) return VX_ERR_BUDGET;
    if (out->count == out->capacity) {
        size_t cap = out->capacity ? out->capacity * 2u : 64u;
        if (cap < out->capacity || cap > SIZE_MAX / sizeof *out->items) return VX_ERR_NOMEM;
        vx_entity_pair *items = realloc(out->items, cap * sizeof *items);
        if (!items) return VX_ERR_NOMEM;
        out->items = items;
        out->capacity = cap;
    }
    vx_entity_pair *p = &out->items[out->count++];
    memset(p, 0, sizeof *p);
    if (a.index < b.index) {
        p->a = a;
        p->b = b;
    } else {
        p->a = b;
        p->b = a;
    }
    return VX_OK;
}

static bool is_leaf(const vx_bvh_node *n) { return n->left == VX_BVH_NO_CHILD; }

/* Every intersecting pair with one leaf under node a and the other under b. */
static vx_status cross_pairs(const vx_bvh *bvh, uint32_t a, uint32_t b, vx_pair_list *out)
{
    const vx_bvh_node *na = &bvh->nodes[a];
    const vx_bvh_node *nb = &bvh->nodes[b];
    if (!vx_aabb_intersects(na->aabb, nb->aabb)) return VX_OK;
    if (is_leaf(na) && is_leaf(nb)) {
        vx_entity ea = bvh->entries[na->first].entity;
        vx_entity eb = bvh->entries[nb->first].entity;
        if (ea.index == eb.index) return VX_OK; /* the same entity twice is not a pair */
        return push_pair(out, ea, eb);
    }
    /* Descend the bigger side (a on ties), so both shrink evenly. */
    if (!is_leaf(na) && (is_leaf(nb) || na->count >= nb->count)) {
        vx_status st = cross_pairs(bvh, na->left, b, out);
        return st != VX_OK ? st : cross_pairs(bvh, na->right, b, out);
    }
    vx_status st = cross_pairs(bvh, a, nb->left, out);
    return st != VX_OK ? st : cross_pairs(bvh, a, nb->right, out);
}

/* Every intersecting pair of leaves under node: the pairs inside each child
 * plus the pairs across the two children. */
static vx_status self_pairs(const vx_bvh *bvh, uint32_t node, vx_pair_list *out)
{
    const vx_bvh_node *n = &bvh->nodes[node];
    if (is_leaf(n)) return VX_OK;
    vx_status st = self_pairs(bvh, n->left, out);
    if (st == VX_OK) st = self_pairs(bvh, n->right, out);
    if (st == VX_OK) st = cross_pairs(bvh, n->left, n->right, out);
    return st;
}

#define VX_RADIX_BITS 11u /* digit width of the pair sort: 2048 counters */

/* Sorts the pairs by (a.index, b.index) with a stable LSD radix sort on the
 * key a.index * 2^bits + b.index, where bits covers the largest index. It
 * needs a second buffer of the same size and takes it from the list's own
 * spare capacity, so a list reused step after step stops allocating. Pairs
 * with equal keys (only possible if an entity was given twice) keep the
 * traversal order, which is itself deterministic. */
static vx_status sort_pairs(vx_pair_list *out)
{
    size_t n = out->count;
    if (n < 2) return VX_OK;
    if (n > SIZE_MAX / 2u / sizeof *out->items) return VX_ERR_NOMEM;
    if (out->capacity < 2u * n) {
        vx_entity_pair *items = realloc(out->items, 2u * n * sizeof *items);
        if (!items) return VX_ERR_NOMEM;
        out->items = items;
        out->capacity = 2u * n;
    }

    uint32_t max_index = 0;
    for (size_t i = 0; i < n; i++)
        if (out->items[i].b.index > max_index) max_index = out->items[i].b.index; /* b > a */
    unsigned bits = 0;
    while (bits < 32u && (max_index >> bits) != 0u) bits++;

    vx_entity_pair *src = out->items;
    vx_entity_pair *dst = out->items + n;
    size_t counts[1u << VX_RADIX_BITS];
    for (unsigned shift = 0; shift < 2u * bits; shift += VX_RADIX_BITS) {
        memset(counts, 0, sizeof counts);
        for (size_t i = 0; i < n; i++) {
            uint64_t key = ((uint64_t)src[i].a.index << bits) | src[i].b.index;
            counts[(key >> shift) & ((1u << VX_RADIX_BITS) - 1u)]++;
        }
        size_t sum = 0;
        for (size_t d = 0; d < (1u << VX_RADIX_BITS); d++) {
            size_t c = counts[d];
            counts[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) {
            uint64_t key = ((uint64_t)src[i].a.index << bits) | src[i].b.index;
            dst[counts[(key >> shift) & ((1u << VX_RADIX_BITS) - 1u)]++] = src[i];
        }
        vx_entity_pair *t = src;
        src = dst;
        dst = t;
    }
    if (src != out->items) memcpy(out->items, src, n * sizeof *src);
    return VX_OK;
}

vx_status vx_bvh_query_pairs(const vx_bvh *bvh, vx_pair_list *out)
{
    out->count = 0;
    if (bvh->node_count == 0) return VX_OK;
    vx_status st = self_pairs(bvh, 0, out);
    if (st != VX_OK) return st;
    return sort_pairs(out);
}

void vx_pair_list_init(vx_pair_list *list)
{
    list->items = NULL;
    list->count = 0;
    list->capacity = 0;
    list->limit = SIZE_MAX;
}

void vx_pair_list_free(vx_pair_list *list)
{
    free(list->items);
    vx_pair_list_init(list);
}
