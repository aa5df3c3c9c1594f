/* Which edges of a mesh are real edges of its surface (mesh.h): each edge is
 * matched with the triangle on its other side, and the fold between the two
 * decides whether a contact may push along the edge's own direction there
 * (an active edge) or must take a face's normal.
 *
 * Edges are matched by their two vertex indices: grouped by the lower one
 * (a counting sort, linear in the triangles), then by the higher one within
 * the group; the same result whatever the order of the input. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "physics/body/mesh.h"

uint8_t vx_mesh_edge_flags(vx_vec3 a, vx_vec3 b, vx_vec3 n, const vx_vec3 *c)
{
    if (!c) return VX_MESH_EDGE_FRONT | VX_MESH_EDGE_BACK; /* the border */
    /* The neighbour's third corner from a: p along the edge's outward
     * direction in this triangle's plane (e x n), s along the normal, both
     * scaled by |e|. Flat: it goes on within VX_MESH_FLAT_COS of the plane. */
    double e[3] = {(double)b.x - a.x, (double)b.y - a.y, (double)b.z - a.z};
    double nn[3] = {n.x, n.y, n.z};
    double w[3] = {(double)c->x - a.x, (double)c->y - a.y, (double)c->z - a.z};
    double u[3] = {e[1] * nn[2] - e[2] * nn[1], e[2] * nn[0] - e[0] * nn[2], e[0] * nn[1] - e[1] * nn[0]};
    double len = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    double p = w[0] * u[0] + w[1] * u[1] + w[2] * u[2];
    double s = (w[0] * nn[0] + w[1] * nn[1] + w[2] * nn[2]) * len;
    double cos_sq = (double)VX_MESH_FLAT_COS * (double)VX_MESH_FLAT_COS;
    if (p > 0.0 && p * p >= cos_sq * (p * p + s * s)) return 0u;
    if (s < 0.0) return VX_MESH_EDGE_FRONT; /* it falls away from the front: convex seen from there */
    if (s > 0.0) return VX_MESH_EDGE_BACK;
    return VX_MESH_EDGE_FRONT | VX_MESH_EDGE_BACK; /* folded back onto this triangle */
}

/* The half-edges (3 t + k: edge k of triangle t) grouped by their lower
 * vertex (a counting sort: linear in the triangles), then sorted within
 * their group by (higher vertex, half-edge): the half-edges of one edge
 * side by side. */
typedef struct {
    uint32_t *start; /* per vertex + 1: where its group begins */
    uint32_t *half;
} edge_groups;

static void edge_ends(const vx_mesh *m, uint32_t h, uint32_t *lo, uint32_t *hi)
{
    uint32_t t = h / 3u, k = h % 3u;
    uint32_t a = m->indices[3u * t + k], b = m->indices[3u * t + (k + 1u) % 3u];
    *lo = a < b ? a : b;
    *hi = a < b ? b : a;
}

static uint64_t edge_key(const vx_mesh *m, uint32_t h)
{
    uint32_t lo, hi;
    edge_ends(m, h, &lo, &hi);
    return ((uint64_t)hi << 32) | h;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* A vertex has a handful of edges: insertion sort, unless a fan of many
 * triangles meets there. */
static vx_status sort_group(const vx_mesh *m, uint32_t *half, uint32_t n)
{
    if (n > 32u) {
        uint64_t *k = malloc(n * sizeof *k);
        if (!k) return VX_ERR_NOMEM;
        for (uint32_t i = 0; i < n; i++) k[i] = edge_key(m, half[i]);
        qsort(k, n, sizeof *k, compare_u64);
        for (uint32_t i = 0; i < n; i++) half[i] = (uint32_t)k[i];
        free(k);
        return VX_OK;
    }
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = half[i];
        uint64_t kx = edge_key(m, x);
        uint32_t j = i;
        for (; j > 0 && edge_key(m, half[j - 1u]) > kx; j--) half[j] = half[j - 1u];
        half[j] = x;
    }
    return VX_OK;
}

static vx_status group_edges(const vx_mesh *m, edge_groups *g)
{
    uint32_t halves = 3u * m->triangle_count;
    g->start = calloc((size_t)m->vertex_count + 1u, sizeof *g->start);
    g->half = malloc((size_t)halves * sizeof *g->half);
    uint32_t *fill = malloc((size_t)m->vertex_count * sizeof *fill);
    vx_status st = g->start && g->half && fill ? VX_OK : VX_ERR_NOMEM;
    for (uint32_t h = 0; st == VX_OK && h < halves; h++) {
        uint32_t lo, hi;
        edge_ends(m, h, &lo, &hi);
        g->start[lo + 1u]++;
    }
    for (uint32_t v = 0; st == VX_OK && v < m->vertex_count; v++) g->start[v + 1u] += g->start[v];
    if (st == VX_OK) memcpy(fill, g->start, (size_t)m->vertex_count * sizeof *fill);
    for (uint32_t h = 0; st == VX_OK && h < halves; h++) {
        uint32_t lo, hi;
        edge_ends(m, h, &lo, &hi);
        g->half[fill[lo]++] = h;
    }
    free(fill);
    for (uint32_t v = 0; st == VX_OK && v < m->vertex_count; v++)
        st = sort_group(m, &g->half[g->start[v]], g->start[v + 1u] - g->start[v]);
    return st;
}

/* Half-edge h's flags (its edge with the neighbour across, whose third
 * corner is c, or none) into edge_flags. */
static void flag_edge(vx_mesh *m, uint32_t h, const vx_vec3 *c)
{
    uint32_t t = h / 3u, k = h % 3u;
    const uint32_t *tri = &m->indices[3u * t];
    vx_vec3 v[3] = {m->vertices[tri[0]], m->vertices[tri[1]], m->vertices[tri[2]]};
    vx_vec3 n = vx_mesh_normal(v[0], v[1], v[2]);
    m->edge_flags[t] |= (uint8_t)(vx_mesh_edge_flags(v[k], v[(k + 1u) % 3u], n, c) << (2u * k));
}

vx_status vx_mesh_find_edges(vx_mesh *m)
{
    m->edge_flags = calloc(m->triangle_count, sizeof *m->edge_flags);
    edge_groups g = {NULL, NULL};
    vx_status st = m->edge_flags ? group_edges(m, &g) : VX_ERR_NOMEM;
    for (uint32_t v = 0; st == VX_OK && v < m->vertex_count; v++) {
        for (uint32_t i = g.start[v]; i < g.start[v + 1u];) {
            /* the half-edges of one edge: a run of one higher vertex */
            uint32_t lo, hi, end = i + 1u;
            edge_ends(m, g.half[i], &lo, &hi);
            for (uint32_t lo2, hi2; end < g.start[v + 1u]; end++) {
                edge_ends(m, g.half[end], &lo2, &hi2);
                if (hi2 != hi) break;
            }
            for (uint32_t j = i; j < end; j++) {
                const vx_vec3 *c = NULL;
                if (end - i == 2u) { /* two triangles: a neighbour; one, or three and more: a border */
                    uint32_t other = g.half[j == i ? i + 1u : i];
                    c = &m->vertices[m->indices[3u * (other / 3u) + (other % 3u + 2u) % 3u]];
                }
                flag_edge(m, g.half[j], c);
            }
            i = end;
        }
    }
    free(g.start);
    free(g.half);
    return st;
}
