/* Which edges of a mesh are real edges of its surface (mesh.h): each edge is
 * matched with the triangle on its other side, and the fold between the two
 * decides whether a contact may push along the edge's own direction there
 * (an active edge) or must take a face's normal.
 *
 * Edges are matched by their two vertex indices, sorted with a radix sort of
 * (lower index, higher index) keys: linear in the triangles, and the same
 * result whatever the order of the input. */
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

/* (key, half-edge) pairs sorted by key, least significant digit first, 14
 * bits a pass over the bits the keys use: stable, so equal keys keep the
 * half-edges in increasing order. */
typedef struct {
    uint64_t key;
    uint32_t half; /* 3 t + k: edge k of triangle t */
} edge_key;

#define RADIX_BITS 14u

static vx_status radix_sort(edge_key *items, size_t count, unsigned key_bits)
{
    edge_key *tmp = malloc(count * sizeof *tmp);
    size_t *bucket = malloc(((size_t)1u << RADIX_BITS) * sizeof *bucket);
    if (!tmp || !bucket) {
        free(tmp);
        free(bucket);
        return VX_ERR_NOMEM;
    }
    edge_key *src = items, *dst = tmp;
    const uint64_t mask = ((uint64_t)1u << RADIX_BITS) - 1u;
    for (unsigned shift = 0; shift < key_bits; shift += RADIX_BITS) {
        memset(bucket, 0, ((size_t)1u << RADIX_BITS) * sizeof *bucket);
        for (size_t i = 0; i < count; i++) bucket[(src[i].key >> shift) & mask]++;
        size_t sum = 0;
        for (size_t d = 0; d <= mask; d++) {
            size_t n = bucket[d];
            bucket[d] = sum;
            sum += n;
        }
        for (size_t i = 0; i < count; i++) dst[bucket[(src[i].key >> shift) & mask]++] = src[i];
        edge_key *swap = src;
        src = dst;
        dst = swap;
    }
    if (src != items) memcpy(items, src, count * sizeof *items);
    free(tmp);
    free(bucket);
    return VX_OK;
}

static unsigned bits_for(uint64_t max_value)
{
    unsigned bits = 1;
    while (bits < 64u && (max_value >> bits) != 0u) bits++;
    return bits;
}

vx_status vx_mesh_find_edges(vx_mesh *m)
{
    size_t halves = 3u * (size_t)m->triangle_count;
    m->edge_flags = calloc(m->triangle_count, sizeof *m->edge_flags);
    edge_key *keys = malloc(halves * sizeof *keys);
    if (!m->edge_flags || !keys) {
        free(keys);
        return VX_ERR_NOMEM;
    }
    unsigned index_bits = bits_for(m->vertex_count > 0 ? m->vertex_count - 1u : 0u);
    for (size_t h = 0; h < halves; h++) {
        size_t t = h / 3u;
        unsigned k = (unsigned)(h % 3u);
        uint32_t a = m->indices[3u * t + k], b = m->indices[3u * t + (k + 1u) % 3u];
        uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
        keys[h].key = (lo << index_bits) | hi;
        keys[h].half = (uint32_t)h;
    }
    vx_status st = radix_sort(keys, halves, 2u * index_bits);
    if (st != VX_OK) {
        free(keys);
        return st;
    }
    for (size_t i = 0; i < halves;) {
        size_t end = i + 1u;
        while (end < halves && keys[end].key == keys[i].key) end++;
        for (size_t j = i; j < end; j++) {
            uint32_t h = keys[j].half, t = h / 3u, k = h % 3u;
            const uint32_t *tri = &m->indices[3u * t];
            vx_vec3 a = m->vertices[tri[k]], b = m->vertices[tri[(k + 1u) % 3u]];
            vx_vec3 n = vx_mesh_normal(a, b, m->vertices[tri[(k + 2u) % 3u]]);
            const vx_vec3 *c = NULL;
            if (end - i == 2u) { /* two triangles: a neighbour; one, or three and more: a border */
                uint32_t other = keys[j == i ? i + 1u : i].half;
                const uint32_t *tri2 = &m->indices[3u * (other / 3u)];
                c = &m->vertices[tri2[(other % 3u + 2u) % 3u]];
            }
            m->edge_flags[t] |= (uint8_t)(vx_mesh_edge_flags(a, b, n, c) << (2u * k));
        }
        i = end;
    }
    free(keys);
    return VX_OK;
}
