/* A mesh's bounding-volume tree (mesh.h), built once in about linear time:
 * the triangles sorted along a Morton curve of their centres (10 bits an
 * axis over the cube around the centres' bounds, a radix sort, ties by index), then split
 * where the codes' highest differing bit changes (each node a block of the
 * curve, so siblings hardly overlap; equal codes split in the middle), down
 * to leaves of at most VX_MESH_LEAF_SIZE triangles. Nodes are stored depth
 * first, the triangles in the leaves' order. Deterministic: the same
 * triangles give the same tree. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "common/segment_box.h"
#include "physics/body/mesh.h"

/* Deeper than any tree: 30 code bits, then halving equal codes (28 levels). */
#define TREE_MAX_DEPTH 64
#define MORTON_BITS 10u

static vx_aabb corners_box(vx_vec3 a, vx_vec3 b, vx_vec3 c)
{
    return vx_aabb_new(vx_mesh_min3(a, vx_mesh_min3(b, c)), vx_mesh_max3(a, vx_mesh_max3(b, c)));
}

/* Triangle t's bounds: of the tree's order once the corners are gathered,
 * of the given order before. */
static vx_aabb triangle_box(const vx_mesh *m, uint32_t t)
{
    if (m->corners) {
        const vx_vec3 *corner = &m->corners[3u * t];
        return corners_box(corner[0], corner[1], corner[2]);
    }
    const uint32_t *tri = &m->indices[3u * t];
    return corners_box(m->vertices[tri[0]], m->vertices[tri[1]], m->vertices[tri[2]]);
}

/* The bits of x (10 of them) spread to every third bit. */
static uint32_t spread(uint32_t x)
{
    x &= 0x3ffu;
    x = (x | (x << 16)) & 0x030000ffu;
    x = (x | (x << 8)) & 0x0300f00fu;
    x = (x | (x << 4)) & 0x030c30c3u;
    x = (x | (x << 2)) & 0x09249249u;
    return x;
}

/* The codes' 30 bits in three stable passes of 10: ties keep the index
 * order. tmp is scratch of n keys; the sorted keys end in *keys. */
static void radix_sort_codes(uint64_t **keys, uint64_t **tmp, uint32_t n, size_t *count)
{
    uint64_t *key = *keys, *out = *tmp;
    for (unsigned shift = 32; shift < 62; shift += 10) {
        memset(count, 0, ((size_t)1u << 10) * sizeof *count);
        for (uint32_t i = 0; i < n; i++) count[(key[i] >> shift) & 0x3ffu]++;
        size_t sum = 0;
        for (size_t d = 0; d < ((size_t)1u << 10); d++) {
            size_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (uint32_t i = 0; i < n; i++) out[count[(key[i] >> shift) & 0x3ffu]++] = key[i];
        uint64_t *swap = key;
        key = out;
        out = swap;
    }
    *keys = key;
    *tmp = out;
}

/* (code << 32 | triangle) of every triangle, sorted into *out: the
 * triangles in Morton order. */
static vx_status morton_order(const vx_mesh *m, uint64_t **out)
{
    uint32_t n = m->triangle_count;
    uint64_t *key = malloc((size_t)n * sizeof *key), *tmp = malloc((size_t)n * sizeof *tmp);
    size_t *count = malloc(((size_t)1u << 10) * sizeof *count);
    if (!key || !tmp || !count) {
        free(key);
        free(tmp);
        free(count);
        return VX_ERR_NOMEM;
    }
    /* the centres' bounds (min + max: twice the centre, in float) */
    vx_vec3 lo = vx_vec3_make(INFINITY, INFINITY, INFINITY), hi = vx_vec3_neg(lo);
    for (uint32_t t = 0; t < n; t++) {
        vx_aabb b = triangle_box(m, t);
        vx_vec3 c = vx_vec3_add(b.min, b.max);
        lo = vx_mesh_min3(lo, c);
        hi = vx_mesh_max3(hi, c);
    }
    /* One scale for the three axes (a cube over the centres): a thin axis,
     * the height of a terrain, gets few of the codes' bits, so the splits
     * cut the mesh across its breadth first. Scaling each axis to its own
     * extent would give the terrain's height a third of the splits, each
     * leaving both halves as broad as the terrain. */
    double widest = 0.0;
    for (int k = 0; k < 3; k++) widest = fmax(widest, (double)vx_vec3_get(hi, k) - (double)vx_vec3_get(lo, k));
    double scale = widest > 0.0 ? (double)((1u << MORTON_BITS) - 1u) / widest : 0.0;
    for (uint32_t t = 0; t < n; t++) {
        vx_aabb b = triangle_box(m, t);
        vx_vec3 c = vx_vec3_add(b.min, b.max);
        uint32_t code = 0;
        for (int k = 0; k < 3; k++) {
            double q = ((double)vx_vec3_get(c, k) - (double)vx_vec3_get(lo, k)) * scale;
            code |= spread((uint32_t)(q + 0.5)) << k;
        }
        key[t] = ((uint64_t)code << 32) | t;
    }
    radix_sort_codes(&key, &tmp, n, count);
    *out = key;
    free(tmp);
    free(count);
    return VX_OK;
}

typedef struct {
    const vx_mesh *mesh; /* its triangles already in Morton order */
    const uint64_t *key; /* (code << 32 | triangle) in Morton order */
    vx_mesh_node *nodes;
    uint32_t node_count;
} builder;

static uint32_t code_at(const builder *b, uint32_t i) { return (uint32_t)(b->key[i] >> 32); }

/* Where [begin, end) (more than a leaf) splits: at the first code with the
 * codes' highest differing bit set, or in the middle when they are equal. */
static uint32_t split_at(const builder *b, uint32_t begin, uint32_t end)
{
    uint32_t first = code_at(b, begin), last = code_at(b, end - 1u);
    if (first == last) return begin + (end - begin) / 2u;
    uint32_t bit = 31u;
    while (!(((first ^ last) >> bit) & 1u)) bit--;
    uint32_t lo = begin + 1u, hi = end - 1u; /* the answer is in (begin, end - 1] */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if ((code_at(b, mid) >> bit) & 1u)
            hi = mid;
        else
            lo = mid + 1u;
    }
    return lo;
}

/* The node of triangles order[begin, end) and its subtree after it. */
static uint32_t build_node(builder *b, uint32_t begin, uint32_t end, int depth)
{
    VX_ASSERT(depth < TREE_MAX_DEPTH && end > begin);
    uint32_t index = b->node_count++;
    if (end - begin <= VX_MESH_LEAF_SIZE) {
        vx_aabb box = triangle_box(b->mesh, begin);
        for (uint32_t i = begin + 1u; i < end; i++) {
            vx_aabb t = triangle_box(b->mesh, i);
            box = vx_aabb_new(vx_mesh_min3(box.min, t.min), vx_mesh_max3(box.max, t.max));
        }
        b->nodes[index].box = box;
        b->nodes[index].index = begin;
        b->nodes[index].count = end - begin;
        return index;
    }
    uint32_t mid = split_at(b, begin, end);
    uint32_t first = build_node(b, begin, mid, depth + 1);
    uint32_t second = build_node(b, mid, end, depth + 1);
    vx_aabb l = b->nodes[first].box, r = b->nodes[second].box;
    b->nodes[index].box = vx_aabb_new(vx_mesh_min3(l.min, r.min), vx_mesh_max3(l.max, r.max));
    b->nodes[index].index = second;
    b->nodes[index].count = 0u;
    return index;
}

/* The indices, corners and edge flags of the triangles in Morton order,
 * in one pass. */
static void gather(vx_mesh *m, const uint64_t *key, uint32_t *indices, vx_vec3 *corners, vx_vec3 *normals,
                   uint8_t *flags)
{
    for (uint32_t i = 0; i < m->triangle_count; i++) {
        uint32_t t = (uint32_t)key[i];
        memcpy(&indices[3u * i], &m->indices[3u * t], 3u * sizeof *indices);
        vx_vec3 *c = &corners[3u * i];
        for (uint32_t k = 0; k < 3u; k++) c[k] = m->vertices[indices[3u * i + k]];
        normals[i] = vx_mesh_normal(c[0], c[1], c[2]);
        flags[i] = m->edge_flags[t];
    }
    m->corners = corners;
    m->normals = normals;
    free(m->indices);
    free(m->edge_flags);
    m->indices = indices;
    m->edge_flags = flags;
}

vx_status vx_mesh_build_tree(vx_mesh *m)
{
    uint32_t n = m->triangle_count;
    builder b;
    memset(&b, 0, sizeof b);
    uint64_t *key = NULL;
    /* every inner node splits its triangles in two non-empty parts: at
     * most 2 n - 1 nodes */
    b.nodes = malloc(2u * (size_t)n * sizeof *b.nodes);
    uint32_t *indices = malloc(3u * (size_t)n * sizeof *indices);
    vx_vec3 *corners = malloc(3u * (size_t)n * sizeof *corners);
    vx_vec3 *normals = malloc((size_t)n * sizeof *normals);
    uint8_t *flags = malloc((size_t)n * sizeof *flags);
    vx_status st = b.nodes && indices && corners && normals && flags ? morton_order(m, &key) : VX_ERR_NOMEM;
    if (st == VX_OK) {
        gather(m, key, indices, corners, normals, flags);
        b.mesh = m;
        b.key = key;
        build_node(&b, 0u, n, 0);
        vx_mesh_node *shrunk = realloc(b.nodes, (size_t)b.node_count * sizeof *b.nodes);
        m->nodes = shrunk ? shrunk : b.nodes;
        m->node_count = b.node_count;
        b.nodes = NULL;
    } else {
        free(indices);
        free(corners);
        free(normals);
        free(flags);
    }
    free(key);
    free(b.nodes);
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
