/* Triangle grids for the mesh tests: n x n quads of side `size` centred on
 * the origin in the XZ plane, two triangles each, counter-clockwise seen
 * from +Y, heights from a function (NULL: 0). */
#ifndef VOLTEX_TEST_MESH_HELPERS_H
#define VOLTEX_TEST_MESH_HELPERS_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>

#include "voltex/math.h"

typedef struct {
    vx_vec3 *vertices;
    size_t vertex_count;
    uint32_t *indices;
    size_t triangle_count;
} vx_test_grid;

static inline vx_test_grid vx_test_grid_make(int n, float size, float (*height)(float x, float z))
{
    vx_test_grid g;
    g.vertex_count = (size_t)(n + 1) * (size_t)(n + 1);
    g.triangle_count = 2u * (size_t)n * (size_t)n;
    g.vertices = malloc(g.vertex_count * sizeof *g.vertices);
    g.indices = malloc(3u * g.triangle_count * sizeof *g.indices);
    cr_assert(g.vertices && g.indices);
    float half = 0.5f * size * (float)n;
    for (int j = 0; j <= n; j++) {
        for (int i = 0; i <= n; i++) {
            float x = (float)i * size - half, z = (float)j * size - half;
            g.vertices[j * (n + 1) + i] = vx_vec3_make(x, height ? height(x, z) : 0.0f, z);
        }
    }
    size_t k = 0;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) {
            uint32_t a = (uint32_t)(j * (n + 1) + i), b = a + 1u, c = a + (uint32_t)(n + 1), d = c + 1u;
            uint32_t quad[6] = {a, c, d, a, d, b};
            for (int q = 0; q < 6; q++) g.indices[k++] = quad[q];
        }
    }
    return g;
}

static inline void vx_test_grid_free(vx_test_grid *g)
{
    free(g->vertices);
    free(g->indices);
}

#endif
