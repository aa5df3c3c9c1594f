/* Meshes and heightfields (src/physics/body/mesh.c, mesh_adjacency.c,
 * mesh_tree.c, heightfield.c): the checks of the input, which edges are
 * active from which side (flat, convex, concave, border, either winding),
 * the heightfield's triangles and diagonal, and the box and ray queries
 * against a brute-force loop over every triangle. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "physics/body/mesh.h"
#include "test_helpers.h"

static vx_mesh *build(const vx_vec3 *v, size_t nv, const uint32_t *idx, size_t nt)
{
    vx_mesh *m = NULL;
    vx_error err;
    cr_assert_eq(vx_mesh_build(v, nv, idx, nt, &m, &err), VX_OK, "%s", err.message);
    return m;
}

/* The triangle of m whose corners are (a, b, c) in some rotation: the tree
 * reorders triangles, not their corners. */
static uint32_t find_triangle(const vx_mesh *m, vx_vec3 a, vx_vec3 b, vx_vec3 c, int *rotation)
{
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        vx_mesh_triangle tri;
        vx_mesh_get_triangle(m, t, &tri);
        for (int r = 0; r < 3; r++) {
            if (memcmp(&tri.v[r], &a, sizeof a) == 0 && memcmp(&tri.v[(r + 1) % 3], &b, sizeof b) == 0 &&
                memcmp(&tri.v[(r + 2) % 3], &c, sizeof c) == 0) {
                *rotation = r;
                return t;
            }
        }
    }
    cr_assert_fail("triangle not found");
    return 0;
}

/* The flags of the edge from corner `from` of (a, b, c). */
static unsigned edge_of(const vx_mesh *m, vx_vec3 a, vx_vec3 b, vx_vec3 c, int from)
{
    int r = 0;
    uint32_t t = find_triangle(m, a, b, c, &r);
    return VX_MESH_EDGE_BITS(m->edge_flags[t], (from + r) % 3);
}

Test(mesh, a_flat_quad_has_a_flat_diagonal_and_a_border)
{
    vx_vec3 v[4] = {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}};
    /* counter-clockwise seen from +Y: (0, 3, 2) and (0, 2, 1) */
    uint32_t idx[6] = {0, 3, 2, 0, 2, 1};
    vx_mesh *m = build(v, 4, idx, 2);
    cr_assert_eq(m->triangle_count, 2u);
    vx_mesh_triangle tri;
    vx_mesh_get_triangle(m, 0, &tri);
    VX_ASSERT_VEC3_NEAR(tri.normal, 0, 1, 0, 0);
    /* (0, 3, 2): edge 0-3 border, 3-2 border, 2-0 the shared diagonal */
    cr_assert_eq(edge_of(m, v[0], v[3], v[2], 0), VX_MESH_EDGE_FRONT | VX_MESH_EDGE_BACK);
    cr_assert_eq(edge_of(m, v[0], v[3], v[2], 1), VX_MESH_EDGE_FRONT | VX_MESH_EDGE_BACK);
    cr_assert_eq(edge_of(m, v[0], v[3], v[2], 2), 0u);
    cr_assert_eq(edge_of(m, v[0], v[2], v[1], 0), 0u);
    VX_ASSERT_NEAR(m->bounds.max.x, 1.0f, 0);
    VX_ASSERT_NEAR(m->bounds.max.z, 1.0f, 0);
    vx_mesh_destroy(m);
}

Test(mesh, a_ridge_is_active_from_the_front_a_valley_from_the_back)
{
    /* two triangles meeting along the Z axis, each side falling by 30
     * degrees (a ridge seen from +Y), then the same raised (a valley) */
    for (int valley = 0; valley < 2; valley++) {
        float y = valley ? 0.577f : -0.577f;
        vx_vec3 v[4] = {{0, 0, 0}, {0, 0, 1}, {1, y, 0}, {-1, y, 0}};
        uint32_t idx[6] = {0, 1, 2, 1, 0, 3};
        vx_mesh *m = build(v, 4, idx, 2);
        vx_mesh_triangle tri;
        int r;
        vx_mesh_get_triangle(m, find_triangle(m, v[0], v[1], v[2], &r), &tri);
        cr_assert_gt(tri.normal.y, 0.5f);
        unsigned want = valley ? VX_MESH_EDGE_BACK : VX_MESH_EDGE_FRONT;
        cr_assert_eq(edge_of(m, v[0], v[1], v[2], 0), want);
        cr_assert_eq(edge_of(m, v[1], v[0], v[3], 0), want);
        vx_mesh_destroy(m);
    }
}

Test(mesh, a_fold_under_five_degrees_is_flat_whatever_the_winding)
{
    float y = -0.0349f; /* each side 2 degrees down: a fold of 4 */
    vx_vec3 v[4] = {{0, 0, 0}, {0, 0, 1}, {1, y, 0}, {-1, y, 0}};
    uint32_t same[6] = {0, 1, 2, 1, 0, 3};
    uint32_t flipped[6] = {0, 1, 2, 0, 1, 3}; /* the second one wound the other way */
    const uint32_t *cases[2] = {same, flipped};
    for (int c = 0; c < 2; c++) {
        vx_mesh *m = build(v, 4, cases[c], 2);
        cr_assert_eq(edge_of(m, v[0], v[1], v[2], 0), 0u);
        vx_mesh_destroy(m);
    }
    /* 6 degrees is a ridge */
    v[2].y = v[3].y = -0.0524f;
    vx_mesh *m = build(v, 4, same, 2);
    cr_assert_eq(edge_of(m, v[0], v[1], v[2], 0), VX_MESH_EDGE_FRONT);
    vx_mesh_destroy(m);
}

Test(mesh, an_edge_of_three_triangles_is_a_border)
{
    vx_vec3 v[5] = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}};
    uint32_t idx[9] = {0, 1, 2, 1, 0, 3, 0, 1, 4};
    vx_mesh *m = build(v, 5, idx, 3);
    cr_assert_eq(edge_of(m, v[0], v[1], v[2], 0), VX_MESH_EDGE_FRONT | VX_MESH_EDGE_BACK);
    vx_mesh_destroy(m);
}

Test(mesh, bad_input_is_refused_with_the_triangle_named)
{
    vx_vec3 v[4] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 0, 1}};
    vx_mesh *m = NULL;
    vx_error err;
    uint32_t out_of_range[6] = {0, 3, 1, 0, 1, 4};
    cr_assert_eq(vx_mesh_build(v, 4, out_of_range, 2, &m, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "mesh: triangle 1: index 4 out of range (4 vertices)");
    cr_assert_null(m);
    uint32_t on_a_line[6] = {0, 3, 1, 0, 1, 2};
    cr_assert_eq(vx_mesh_build(v, 4, on_a_line, 2, &m, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "mesh: triangle 1: degenerate (its corners are on one line)");
    uint32_t repeated[3] = {0, 3, 3};
    cr_assert_eq(vx_mesh_build(v, 4, repeated, 1, &m, &err), VX_ERR_INVALID);
    cr_assert_eq(vx_mesh_build(v, 4, out_of_range, 0, &m, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "mesh: no triangles");
    v[2].y = NAN;
    cr_assert_eq(vx_mesh_build(v, 4, out_of_range, 1, &m, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "mesh: vertex 2: must be finite");
}

Test(mesh, degenerate_means_thinner_than_a_millionth)
{
    vx_vec3 a = {0, 0, 0}, b = {1, 0, 0};
    cr_assert(vx_triangle_is_degenerate(a, b, vx_vec3_make(0.5f, 0.0f, 0.0f)));
    cr_assert(vx_triangle_is_degenerate(a, b, vx_vec3_make(0.5f, 5e-7f, 0.0f)));
    cr_assert_not(vx_triangle_is_degenerate(a, b, vx_vec3_make(0.5f, 2e-6f, 0.0f)));
    cr_assert(vx_triangle_is_degenerate(a, a, b));
}

/* ---- queries against brute force ---- */

/* A grid of n x n quads with bumpy heights, as a mesh. */
static vx_mesh *bumpy_grid(int n, vx_test_rng *rng)
{
    vx_vec3 *v = malloc((size_t)(n + 1) * (size_t)(n + 1) * sizeof *v);
    uint32_t *idx = malloc((size_t)n * (size_t)n * 6u * sizeof *idx);
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++)
            v[j * (n + 1) + i] = vx_vec3_make((float)i, vx_test_rng_range(rng, -0.3f, 0.3f), (float)j);
    size_t k = 0;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) {
            uint32_t a = (uint32_t)(j * (n + 1) + i), b = a + 1u, c = a + (uint32_t)(n + 1), d = c + 1u;
            uint32_t quad[6] = {a, c, d, a, d, b};
            memcpy(&idx[k], quad, sizeof quad);
            k += 6;
        }
    }
    vx_mesh *m = build(v, (size_t)(n + 1) * (size_t)(n + 1), idx, (size_t)n * (size_t)n * 2u);
    free(v);
    free(idx);
    return m;
}

typedef struct {
    uint8_t *seen;
    int visits;
} visits;

static bool mark(void *context, uint32_t t)
{
    visits *v = context;
    v->seen[t]++;
    v->visits++;
    return true;
}

static vx_aabb bounds_of(const vx_mesh_triangle *tri)
{
    return vx_aabb_new(vx_vec3_min(tri->v[0], vx_vec3_min(tri->v[1], tri->v[2])),
                       vx_vec3_max(tri->v[0], vx_vec3_max(tri->v[1], tri->v[2])));
}

static void check_box_queries(const vx_mesh *m, vx_vec3 lo, vx_vec3 hi, vx_test_rng *rng)
{
    uint8_t *seen = calloc(m->triangle_count, 1);
    for (int q = 0; q < 200; q++) {
        vx_vec3 c = vx_vec3_make(vx_test_rng_range(rng, lo.x, hi.x), vx_test_rng_range(rng, lo.y, hi.y),
                                 vx_test_rng_range(rng, lo.z, hi.z));
        vx_vec3 h = vx_test_rng_vec3(rng, 0.01f, 2.0f);
        vx_aabb box = vx_aabb_from_center_half_extents(c, h);
        memset(seen, 0, m->triangle_count);
        visits v = {seen, 0};
        vx_mesh_query(m, box, mark, &v);
        for (uint32_t t = 0; t < m->triangle_count; t++) {
            vx_mesh_triangle tri;
            vx_mesh_get_triangle(m, t, &tri);
            cr_assert_eq(seen[t], vx_aabb_intersects(bounds_of(&tri), box) ? 1 : 0, "query %d triangle %u", q, t);
        }
    }
    free(seen);
}

Test(mesh, box_queries_find_exactly_the_triangles_whose_bounds_meet_the_box)
{
    vx_test_rng rng = {7u};
    vx_mesh *m = bumpy_grid(30, &rng);
    cr_assert_eq(m->triangle_count, 1800u);
    check_box_queries(m, vx_vec3_make(-2, -1, -2), vx_vec3_make(32, 1, 32), &rng);
    vx_mesh_destroy(m);
}

/* Whether the segment o + t d, t in [0, max_t], meets the box grown by g (a
 * plain slab test, for the reference). */
static bool segment_meets(vx_aabb b, vx_vec3 o, vx_vec3 d, float max_t, float g)
{
    double t0 = 0, t1 = max_t;
    for (int k = 0; k < 3; k++) {
        double lo = (double)vx_vec3_get(b.min, k) - g, hi = (double)vx_vec3_get(b.max, k) + g;
        double ok = vx_vec3_get(o, k), dk = vx_vec3_get(d, k);
        if (dk == 0.0) {
            if (ok < lo || ok > hi) return false;
            continue;
        }
        double ta = (lo - ok) / dk, tb = (hi - ok) / dk;
        if (ta > tb) {
            double s = ta;
            ta = tb;
            tb = s;
        }
        t0 = ta > t0 ? ta : t0;
        t1 = tb < t1 ? tb : t1;
        if (t0 > t1) return false;
    }
    return true;
}

static double mark_ray(void *context, uint32_t t, double max_t)
{
    mark(context, t);
    return max_t;
}

static void check_ray_queries(const vx_mesh *m, vx_test_rng *rng, vx_vec3 lo, vx_vec3 hi)
{
    uint8_t *seen = calloc(m->triangle_count, 1);
    for (int q = 0; q < 300; q++) {
        vx_vec3 o = vx_vec3_make(vx_test_rng_range(rng, lo.x, hi.x), vx_test_rng_range(rng, lo.y, hi.y),
                                 vx_test_rng_range(rng, lo.z, hi.z));
        vx_vec3 d = vx_vec3_normalize(vx_test_rng_vec3(rng, -1.0f, 1.0f));
        if (q % 10 == 0) d = vx_vec3_make(0.0f, -1.0f, 0.0f); /* straight down: one column of cells */
        float max_t = vx_test_rng_range(rng, 0.5f, 40.0f), grow = q % 2 ? 0.0f : vx_test_rng_range(rng, 0.0f, 1.0f);
        memset(seen, 0, m->triangle_count);
        visits v = {seen, 0};
        const double od[3] = {o.x, o.y, o.z}, dd[3] = {d.x, d.y, d.z};
        vx_mesh_ray_query(m, od, dd, max_t, grow, mark_ray, &v);
        for (uint32_t t = 0; t < m->triangle_count; t++) {
            vx_mesh_triangle tri;
            vx_mesh_get_triangle(m, t, &tri);
            if (segment_meets(bounds_of(&tri), o, d, max_t, grow))
                cr_assert_geq(seen[t], 1, "ray %d missed triangle %u", q, t);
        }
    }
    free(seen);
}

Test(mesh, ray_queries_visit_every_triangle_the_segment_reaches)
{
    vx_test_rng rng = {11u};
    vx_mesh *m = bumpy_grid(30, &rng);
    check_ray_queries(m, &rng, vx_vec3_make(-5, -3, -5), vx_vec3_make(35, 3, 35));
    vx_mesh_destroy(m);
}

/* ---- heightfields ---- */

static vx_mesh *build_heightfield(const float *h, size_t rows, size_t columns, float dx, float dz)
{
    vx_mesh *m = NULL;
    vx_error err;
    cr_assert_eq(vx_mesh_build_heightfield(h, rows, columns, dx, dz, &m, &err), VX_OK, "%s", err.message);
    return m;
}

Test(heightfield, cells_split_along_the_diagonal_from_i_j_to_i1_j1)
{
    /* 2 rows x 3 columns: heights h[j][i] = 10 j + i */
    float h[6] = {0, 1, 2, 10, 11, 12};
    vx_mesh *m = build_heightfield(h, 2, 3, 2.0f, 3.0f);
    cr_assert_eq(m->triangle_count, 4u);
    vx_mesh_triangle t0, t1;
    vx_mesh_get_triangle(m, 2, &t0); /* cell (1, 0) */
    vx_mesh_get_triangle(m, 3, &t1);
    VX_ASSERT_VEC3_NEAR(t0.v[0], 2, 1, 0, 0);
    VX_ASSERT_VEC3_NEAR(t0.v[1], 4, 12, 3, 0); /* the diagonal's far end */
    VX_ASSERT_VEC3_NEAR(t0.v[2], 4, 2, 0, 0);
    VX_ASSERT_VEC3_NEAR(t1.v[0], 2, 1, 0, 0);
    VX_ASSERT_VEC3_NEAR(t1.v[1], 2, 11, 3, 0);
    VX_ASSERT_VEC3_NEAR(t1.v[2], 4, 12, 3, 0);
    cr_assert_gt(t0.normal.y, 0.0f);
    cr_assert_gt(t1.normal.y, 0.0f);
    VX_ASSERT_NEAR(m->bounds.min.y, 0.0f, 0);
    VX_ASSERT_NEAR(m->bounds.max.y, 12.0f, 0);
    VX_ASSERT_NEAR(m->bounds.max.x, 4.0f, 0);
    VX_ASSERT_NEAR(m->bounds.max.z, 3.0f, 0);
    vx_mesh_destroy(m);
}

Test(heightfield, a_plane_has_flat_inner_edges_and_an_active_border)
{
    enum { R = 5, C = 6 };
    float h[R * C];
    for (int j = 0; j < R; j++)
        for (int i = 0; i < C; i++) h[j * C + i] = 0.3f * (float)i - 0.2f * (float)j; /* a tilted plane */
    vx_mesh *m = build_heightfield(h, R, C, 1.0f, 1.0f);
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        uint32_t cell = t / 2u, i = cell % (C - 1), j = cell / (C - 1);
        for (int k = 0; k < 3; k++) {
            bool border;
            if (t % 2u == 0u)
                border = (k == 1 && i == C - 2) || (k == 2 && j == 0);
            else
                border = (k == 0 && i == 0) || (k == 1 && j == R - 2);
            cr_assert_eq(VX_MESH_EDGE_BITS(m->edge_flags[t], k), border ? 3u : 0u, "triangle %u edge %d", t, k);
        }
    }
    vx_mesh_destroy(m);
}

Test(heightfield, a_bump_makes_convex_edges_active_from_above)
{
    float h[9] = {0, 0, 0, 0, 1, 0, 0, 0, 0};
    vx_mesh *m = build_heightfield(h, 3, 3, 1.0f, 1.0f);
    /* cell (0, 0): triangle 0 = (p00, p11, p10), p11 the bump: its edge
     * p11-p10 goes down into cell (1, 0), whose triangle 3's third corner
     * (2, 1) is low again: convex from above */
    cr_assert_eq(VX_MESH_EDGE_BITS(m->edge_flags[0], 1), VX_MESH_EDGE_FRONT);
    vx_mesh_destroy(m);
}

Test(heightfield, queries_against_brute_force)
{
    enum { R = 20, C = 25 };
    float h[R * C];
    vx_test_rng rng = {3u};
    for (int k = 0; k < R * C; k++) h[k] = vx_test_rng_range(&rng, -1.0f, 1.0f);
    vx_mesh *m = build_heightfield(h, R, C, 0.5f, 0.75f);
    check_box_queries(m, vx_vec3_make(-2, -2, -2), vx_vec3_make(14, 2, 16), &rng);
    check_ray_queries(m, &rng, vx_vec3_make(-3, -3, -3), vx_vec3_make(15, 3, 17));
    vx_mesh_destroy(m);
}

Test(heightfield, bad_input_is_refused)
{
    float h[4] = {0, 0, 0, 0};
    vx_mesh *m = NULL;
    vx_error err;
    cr_assert_eq(vx_mesh_build_heightfield(h, 1, 4, 1, 1, &m, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "heightfield: needs at least 2 x 2 heights");
    cr_assert_eq(vx_mesh_build_heightfield(h, 2, 2, 0, 1, &m, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "heightfield: spacing must be > 0");
    h[3] = INFINITY;
    cr_assert_eq(vx_mesh_build_heightfield(h, 2, 2, 1, 1, &m, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "heightfield: height 3 (row 1, column 1): must be finite");
    cr_assert_null(m);
}
