/* A mesh's bounding-volume tree (mesh.h): built once, top down, each node's
 * triangles split at the median of their centres along the longest axis of
 * those centres' bounds (a selection, linear per level), down to leaves of
 * at most VX_MESH_LEAF_SIZE triangles; nodes stored depth first. The
 * triangles are then stored in the leaves' order. Deterministic: the order
 * of the split is total (centre, then the triangle's index). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "common/segment_box.h"
#include "physics/body/mesh.h"

/* Deeper than any tree of VX_MAX_MESH_TRIANGLES median splits (28 levels). */
#define TREE_MAX_DEPTH 64

typedef struct {
    const vx_mesh *mesh;
    vx_aabb *box;     /* per triangle (input order) */
    float *centre;    /* per triangle, 3 floats: min + max of its box */
    uint32_t *order;  /* the triangles, reordered as the tree splits them */
    vx_mesh_node *nodes;
    uint32_t node_count;
    int depth;
} builder;

static vx_aabb triangle_box(const vx_mesh *m, uint32_t t)
{
    const uint32_t *tri = &m->indices[3u * t];
    vx_vec3 a = m->vertices[tri[0]], b = m->vertices[tri[1]], c = m->vertices[tri[2]];
    return vx_aabb_new(vx_vec3_min(a, vx_vec3_min(b, c)), vx_vec3_max(a, vx_vec3_max(b, c)));
}

static bool before(const builder *b, uint32_t x, uint32_t y, int axis)
{
    float cx = b->centre[3u * x + (unsigned)axis], cy = b->centre[3u * y + (unsigned)axis];
    return cx < cy || (cx == cy && x < y);
}

static void swap_u32(uint32_t *a, uint32_t i, uint32_t j)
{
    uint32_t t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* Reorders e[0, n) so that e[k] is what a full sort would put there, the
 * ones before it before and the ones after it after (quickselect with a
 * median-of-three pivot; ranges are small enough by the time a bad pivot
 * could matter, and the order is total). */
static void select_nth(const builder *b, uint32_t *e, uint32_t n, uint32_t k, int axis)
{
    uint32_t lo = 0, hi = n - 1u;
    while (hi > lo) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (before(b, e[mid], e[lo], axis)) swap_u32(e, mid, lo);
        if (before(b, e[hi], e[lo], axis)) swap_u32(e, hi, lo);
        if (before(b, e[hi], e[mid], axis)) swap_u32(e, hi, mid);
        uint32_t pivot = e[mid];
        uint32_t i = lo, j = hi;
        while (i <= j) {
            while (before(b, e[i], pivot, axis)) i++;
            while (before(b, pivot, e[j], axis)) j--;
            if (i <= j) {
                swap_u32(e, i, j);
                i++;
                if (j == 0u) break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return;
    }
}

/* The node of triangles order[begin, end), and its subtree after it. */
static uint32_t build_node(builder *b, uint32_t begin, uint32_t end, int depth)
{
    VX_ASSERT(depth < TREE_MAX_DEPTH && end > begin);
    if (depth > b->depth) b->depth = depth;
    uint32_t index = b->node_count++;
    vx_mesh_node *node = &b->nodes[index];
    vx_aabb box = b->box[b->order[begin]];
    float lo[3], hi[3];
    for (int k = 0; k < 3; k++) lo[k] = hi[k] = b->centre[3u * b->order[begin] + (unsigned)k];
    for (uint32_t i = begin + 1u; i < end; i++) {
        uint32_t t = b->order[i];
        box = vx_aabb_merged(box, b->box[t]);
        for (int k = 0; k < 3; k++) {
            float c = b->centre[3u * t + (unsigned)k];
            lo[k] = c < lo[k] ? c : lo[k];
            hi[k] = c > hi[k] ? c : hi[k];
        }
    }
    node->box = box;
    if (end - begin <= VX_MESH_LEAF_SIZE) {
        node->index = begin;
        node->count = end - begin;
        return index;
    }
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (hi[k] - lo[k] > hi[axis] - lo[axis]) axis = k;
    uint32_t mid = begin + (end - begin) / 2u;
    select_nth(b, b->order + begin, end - begin, mid - begin, axis);
    build_node(b, begin, mid, depth + 1);
    uint32_t second = build_node(b, mid, end, depth + 1);
    node = &b->nodes[index]; /* b->nodes does not move, but keep the reading plain */
    node->index = second;
    node->count = 0u;
    return index;
}

vx_status vx_mesh_build_tree(vx_mesh *m)
{
    uint32_t n = m->triangle_count;
    builder b;
    memset(&b, 0, sizeof b);
    b.mesh = m;
    b.box = malloc((size_t)n * sizeof *b.box);
    b.centre = malloc(3u * (size_t)n * sizeof *b.centre);
    b.order = malloc((size_t)n * sizeof *b.order);
    /* a split node has 5 or more triangles, so a leaf has at least 2 (or
     * the tree is one leaf): at most n + 1 nodes, 2 n always enough */
    b.nodes = malloc(2u * (size_t)n * sizeof *b.nodes);
    uint32_t *indices = malloc(3u * (size_t)n * sizeof *indices);
    uint8_t *flags = malloc((size_t)n * sizeof *flags);
    vx_status st = VX_OK;
    if (!b.box || !b.centre || !b.order || !b.nodes || !indices || !flags) st = VX_ERR_NOMEM;
    if (st == VX_OK) {
        for (uint32_t t = 0; t < n; t++) {
            b.box[t] = triangle_box(m, t);
            b.order[t] = t;
            for (int k = 0; k < 3; k++)
                b.centre[3u * t + (unsigned)k] = vx_vec3_get(b.box[t].min, k) + vx_vec3_get(b.box[t].max, k);
        }
        build_node(&b, 0u, n, 0);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t t = b.order[i];
            memcpy(&indices[3u * i], &m->indices[3u * t], 3u * sizeof *indices);
            flags[i] = m->edge_flags[t];
        }
        free(m->indices);
        free(m->edge_flags);
        m->indices = indices;
        m->edge_flags = flags;
        indices = NULL;
        flags = NULL;
        vx_mesh_node *shrunk = realloc(b.nodes, (size_t)b.node_count * sizeof *b.nodes);
        m->nodes = shrunk ? shrunk : b.nodes;
        m->node_count = b.node_count;
        b.nodes = NULL;
    }
    free(b.box);
    free(b.centre);
    free(b.order);
    free(b.nodes);
    free(indices);
    free(flags);
    return st;
}

void vx_mesh_tree_query(const vx_mesh *m, vx_aabb box, vx_mesh_visit_fn fn, void *context)
{
    uint32_t stack[TREE_MAX_DEPTH + 1];
    int top = 0;
    stack[top++] = 0u;
    while (top > 0) {
        const vx_mesh_node *node = &m->nodes[stack[--top]];
        if (!vx_aabb_intersects(node->box, box)) continue;
        if (node->count == 0u) {
            stack[top++] = node->index;
            stack[top++] = (uint32_t)(node - m->nodes) + 1u; /* the first child goes first */
            continue;
        }
        for (uint32_t i = node->index; i < node->index + node->count; i++)
            if (vx_aabb_intersects(triangle_box(m, i), box) && !fn(context, i)) return;
    }
}

static vx_aabb grown(vx_aabb b, float g)
{
    vx_vec3 d = vx_vec3_make(g, g, g);
    return vx_aabb_new(vx_vec3_sub(b.min, d), vx_vec3_add(b.max, d));
}

void vx_mesh_tree_ray_query(const vx_mesh *m, const double o[3], const double d[3], double max_t, float grow,
                            vx_mesh_ray_fn fn, void *context)
{
    uint32_t stack[TREE_MAX_DEPTH + 1];
    double enter[TREE_MAX_DEPTH + 1];
    int top = 0;
    double t_root;
    if (!vx_segment_box_entry(grown(m->nodes[0].box, grow), o, d, max_t, &t_root)) return;
    stack[top] = 0u;
    enter[top++] = t_root;
    while (top > 0) {
        top--;
        if (enter[top] > max_t) continue; /* a nearer hit since it was pushed */
        const vx_mesh_node *node = &m->nodes[stack[top]];
        if (node->count > 0u) {
            for (uint32_t i = node->index; i < node->index + node->count; i++) {
                max_t = fn(context, i, max_t);
                if (max_t < 0.0) return;
            }
            continue;
        }
        /* both children that the segment meets, the nearer one on top */
        uint32_t child[2] = {(uint32_t)(node - m->nodes) + 1u, node->index};
        double t[2];
        bool hit[2];
        for (int c = 0; c < 2; c++)
            hit[c] = vx_segment_box_entry(grown(m->nodes[child[c]].box, grow), o, d, max_t, &t[c]);
        int first = hit[1] && (!hit[0] || t[1] < t[0]) ? 1 : 0;
        for (int c = 1; c >= 0; c--) {
            int which = c == 0 ? first : 1 - first;
            if (!hit[which]) continue;
            stack[top] = child[which];
            enter[top++] = t[which];
        }
    }
}
