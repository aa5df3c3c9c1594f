/* Convex hulls (src/physics/body/hull.c): boxes, tetrahedra, the icosahedron
 * and a d20 against closed forms; a cube given with duplicates, inner points,
 * points on its faces and noise; lattices, spheres, cylinders, slabs and
 * random clouds of 4 to 256 points checked for every property of the mesh
 * (links, Euler, planar convex faces with outward normals, every point
 * inside, every vertex an input point and a corner), mass properties against
 * Tonon's closed form for tetrahedra and a Monte Carlo estimate, the errors,
 * the support function, and the same bits in any order and run to run. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "physics/body/hull.h"
#include "test_helpers.h"

static vx_vec3 v3(float x, float y, float z) { return vx_vec3_make(x, y, z); }

static vx_hull *build(const vx_vec3 *pts, size_t n)
{
    vx_hull *h = NULL;
    vx_error err;
    vx_status st = vx_hull_build(pts, n, &h, &err);
    cr_assert_eq(st, VX_OK, "build failed: %s", err.message);
    cr_assert_not_null(h);
    return h;
}

static double dot_d(vx_vec3 a, vx_vec3 b) { return (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z; }

/* Signed distance of p above face f's plane, in double. */
static double above(const vx_hull *h, int f, vx_vec3 p) { return dot_d(h->faces[f].normal, p) - h->faces[f].offset; }

static void sub_d(const vx_vec3 a, const vx_vec3 b, double out[3])
{
    out[0] = (double)a.x - b.x;
    out[1] = (double)a.y - b.y;
    out[2] = (double)a.z - b.z;
}

static void cross_d(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Every property the narrow phase will rely on, and every input point inside. */
static void check_hull(const vx_hull *h, const vx_vec3 *pts, size_t n)
{
    int V = h->vertex_count, E = h->edge_count, F = h->face_count;
    double tol = h->tolerance;
    cr_assert(V >= 4 && F >= 4 && E >= 12 && E % 2 == 0, "V %d E %d F %d", V, E, F);
    cr_assert_eq(V - E / 2 + F, 2, "Euler: V %d, E %d, F %d", V, E / 2, F);

    /* links */
    int *seen = calloc((size_t)E, sizeof *seen);
    int *degree = calloc((size_t)V, sizeof *degree);
    for (int e = 0; e < E; e++) {
        const vx_hull_edge *ed = &h->edges[e];
        cr_assert_eq(ed->twin, e ^ 1, "edge %d: twin %d", e, ed->twin);
        cr_assert_eq(h->edges[ed->twin].twin, e);
        cr_assert_lt(ed->origin, V);
        cr_assert_lt(ed->next, E);
        cr_assert_lt(ed->face, F);
        /* the twin starts where this edge ends */
        cr_assert_eq(h->edges[ed->twin].origin, h->edges[ed->next].origin, "edge %d", e);
        cr_assert_neq(h->edges[ed->twin].face, ed->face, "edge %d: both sides on one face", e);
        degree[ed->origin]++;
    }
    for (int f = 0; f < F; f++) {
        const vx_hull_face *face = &h->faces[f];
        cr_assert_geq(face->edge_count, 3);
        int e = face->first_edge;
        for (int i = 0; i < face->edge_count; i++) {
            cr_assert_eq(h->edges[e].face, f, "face %d, edge %d", f, e);
            cr_assert_eq(seen[e], 0, "edge %d twice", e);
            seen[e] = 1;
            e = h->edges[e].next;
        }
        cr_assert_eq(e, face->first_edge, "face %d: next does not cycle in %d edges", f, face->edge_count);
    }
    for (int e = 0; e < E; e++) cr_assert_eq(seen[e], 1, "edge %d on no face", e);
    for (int v = 0; v < V; v++) cr_assert_geq(degree[v], 3, "vertex %d on %d faces: no corner", v, degree[v]);
    free(seen);
    free(degree);

    /* every vertex an input point, once */
    for (int v = 0; v < V; v++) {
        bool found = false;
        for (size_t i = 0; i < n && !found; i++) found = memcmp(&h->vertices[v], &pts[i], sizeof(vx_vec3)) == 0;
        cr_assert(found, "vertex %d (%g %g %g) is no input point", v, h->vertices[v].x, h->vertices[v].y,
                  h->vertices[v].z);
        for (int w = 0; w < v; w++)
            cr_assert(memcmp(&h->vertices[v], &h->vertices[w], sizeof(vx_vec3)) != 0, "vertices %d %d equal", v, w);
    }

    /* faces: unit normals pointing out, planar, convex, every corner a corner */
    for (int f = 0; f < F; f++) {
        const vx_hull_face *face = &h->faces[f];
        double len = sqrt(dot_d(face->normal, face->normal));
        cr_assert(fabs(len - 1.0) < 1e-6, "face %d: |normal| %g", f, len);
        cr_assert_gt(-above(h, f, h->centroid), 0.0, "face %d: the centroid is not inside", f);
        int e = face->first_edge;
        for (int i = 0; i < face->edge_count; i++) {
            const vx_hull_edge *ed = &h->edges[e];
            const vx_hull_edge *nx = &h->edges[ed->next];
            vx_vec3 u = h->vertices[ed->origin], v = h->vertices[nx->origin];
            vx_vec3 w = h->vertices[h->edges[nx->next].origin];
            double dist = above(h, f, v);
            cr_assert(fabs(dist) <= tol, "face %d: vertex %d off its plane by %g (tolerance %g)", f, nx->origin,
                      dist, tol);
            double uv[3], vw[3], uw[3], c[3], nd[3] = {face->normal.x, face->normal.y, face->normal.z};
            sub_d(v, u, uv);
            sub_d(w, v, vw);
            sub_d(w, u, uw);
            cross_d(uv, vw, c);
            cr_assert_gt(c[0] * nd[0] + c[1] * nd[1] + c[2] * nd[2], 0.0, "face %d: not convex at vertex %d", f,
                         nx->origin);
            /* out of the chord u-w by more than the tolerance: a real corner */
            double out[3];
            cross_d(uw, nd, out);
            double dev = (uv[0] * out[0] + uv[1] * out[1] + uv[2] * out[2]) /
                         sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
            cr_assert_gt(dev, 0.5 * tol, "face %d: vertex %d only %g off the line of its neighbours", f,
                         nx->origin, dev);
            e = ed->next;
        }
    }

    /* every input point inside, within the tolerance */
    for (size_t i = 0; i < n; i++)
        for (int f = 0; f < F; f++) {
            double d = above(h, f, pts[i]);
            cr_assert_leq(d, 2.0 * tol, "point %zu is %g above face %d (tolerance %g)", i, d, f, tol);
        }

    /* bounds, volume, inner radius */
    cr_assert_gt(h->volume, 0.0f);
    cr_assert_gt(h->inner_radius, 0.0f);
    for (int v = 0; v < V; v++) cr_assert(vx_aabb_contains_point(h->bounds, h->vertices[v]));
}

/* The 8 corners of the box centre +- half. */
static void box_corners(vx_vec3 centre, vx_vec3 half, vx_vec3 out[8])
{
    for (int i = 0; i < 8; i++)
        out[i] = v3(centre.x + ((i & 1) ? half.x : -half.x), centre.y + ((i & 2) ? half.y : -half.y),
                    centre.z + ((i & 4) ? half.z : -half.z));
}

static void shuffle(vx_vec3 *pts, size_t n, vx_test_rng *rng)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = vx_test_rng_next(rng) % i;
        vx_vec3 t = pts[i - 1];
        pts[i - 1] = pts[j];
        pts[j] = t;
    }
}

static void assert_box(const vx_hull *h, vx_vec3 centre, vx_vec3 half, double rel)
{
    cr_assert_eq(h->vertex_count, 8, "V %d F %d", h->vertex_count, h->face_count);
    cr_assert_eq(h->edge_count, 24);
    cr_assert_eq(h->face_count, 6);
    for (int f = 0; f < 6; f++)
        cr_assert_eq(h->faces[f].edge_count, 4, "face %d has %d edges", f, h->faces[f].edge_count);
    double a = 2.0 * half.x, b = 2.0 * half.y, c = 2.0 * half.z;
    double m = a * b * c;
    VX_ASSERT_NEAR(h->volume, m, rel * m);
    VX_ASSERT_VEC3_NEAR(h->centroid, centre.x, centre.y, centre.z, rel * (a + b + c));
    VX_ASSERT_NEAR(h->inertia.m[0][0], m * (b * b + c * c) / 12.0, rel * m * (a * a + b * b + c * c));
    VX_ASSERT_NEAR(h->inertia.m[1][1], m * (a * a + c * c) / 12.0, rel * m * (a * a + b * b + c * c));
    VX_ASSERT_NEAR(h->inertia.m[2][2], m * (a * a + b * b) / 12.0, rel * m * (a * a + b * b + c * c));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (i != j) VX_ASSERT_NEAR(h->inertia.m[i][j], 0.0, rel * m * (a * a + b * b + c * c));
    VX_ASSERT_NEAR(h->inner_radius, fmin(half.x, fmin(half.y, half.z)), rel * (a + b + c));
}

/* ---- boxes ---- */

Test(hull, cube_from_its_corners)
{
    vx_vec3 pts[8];
    box_corners(v3(0, 0, 0), v3(1, 1, 1), pts);
    vx_hull *h = build(pts, 8);
    check_hull(h, pts, 8);
    assert_box(h, v3(0, 0, 0), v3(1, 1, 1), 1e-6);
    VX_ASSERT_NEAR(h->volume, 8.0, 1e-6);
    VX_ASSERT_NEAR(h->inertia.m[0][0], 8.0 * 8.0 / 12.0, 1e-5);
    VX_ASSERT_VEC3_NEAR(h->bounds.min, -1, -1, -1, 0);
    VX_ASSERT_VEC3_NEAR(h->bounds.max, 1, 1, 1, 0);
    /* axis-aligned normals, offsets 1 */
    for (int f = 0; f < 6; f++) {
        vx_vec3 n = vx_vec3_abs(h->faces[f].normal);
        cr_assert_eq(n.x + n.y + n.z, 1.0f, "face %d normal not axial", f);
        cr_assert_eq(h->faces[f].offset, 1.0f);
    }
    vx_hull_destroy(h);
}

Test(hull, box_off_centre_with_unequal_sides)
{
    vx_vec3 pts[8], centre = v3(3.0f, -2.0f, 0.5f), half = v3(0.5f, 1.5f, 2.5f);
    box_corners(centre, half, pts);
    vx_hull *h = build(pts, 8);
    check_hull(h, pts, 8);
    assert_box(h, centre, half, 1e-6);
    vx_hull_destroy(h);
}

Test(hull, cube_with_inner_points_duplicates_face_points_and_noise)
{
    enum { N = 8 + 8 + 40 + 600 };
    static vx_vec3 pts[N];
    vx_test_rng rng = {12345u};
    size_t n = 0;
    box_corners(v3(0, 0, 0), v3(1, 1, 1), pts);
    n = 8;
    for (int i = 0; i < 8; i++) pts[n++] = pts[i]; /* duplicates */
    for (int i = 0; i < 40; i++) pts[n++] = vx_test_rng_vec3(&rng, -0.99f, 0.99f);
    /* 100 points on each face, anywhere on it, edges included, every
     * coordinate moved by up to 1e-6 of the side */
    for (int face = 0; face < 6; face++)
        for (int i = 0; i < 100; i++) {
            vx_vec3 p = vx_test_rng_vec3(&rng, -1.0f, 1.0f);
            vx_vec3_set(&p, face / 2, face % 2 ? 1.0f : -1.0f);
            vx_vec3 noise = vx_test_rng_vec3(&rng, -2e-6f, 2e-6f);
            pts[n++] = vx_vec3_add(p, noise);
        }
    cr_assert_eq(n, (size_t)N);
    /* more than 256 in all: the cube is given in pieces of 256 that hold every corner */
    for (int round = 0; round < 8; round++) {
        vx_vec3 sub[256];
        memcpy(sub, pts, 8 * sizeof *sub);
        for (int i = 8; i < 256; i++) sub[i] = pts[8 + (size_t)(round * 248 + i - 8) % (N - 8)];
        shuffle(sub, 256, &rng);
        vx_hull *h = build(sub, 256);
        check_hull(h, sub, 256);
        assert_box(h, v3(0, 0, 0), v3(1, 1, 1), 1e-5);
        vx_hull_destroy(h);
    }
}

Test(hull, noisy_cube_without_its_corners_gives_quads)
{
    /* The corners are not given: the faces' points, noisy, make 6 quads whose
     * corners are the points nearest the cube's corners. */
    vx_vec3 pts[256];
    vx_test_rng rng = {777u};
    size_t n = 0;
    for (int face = 0; face < 6; face++)
        for (int i = 0; i < 42; i++) {
            vx_vec3 p = vx_test_rng_vec3(&rng, -1.0f, 1.0f);
            vx_vec3_set(&p, face / 2, face % 2 ? 1.0f : -1.0f);
            pts[n++] = vx_vec3_add(p, vx_test_rng_vec3(&rng, -2e-6f, 2e-6f));
        }
    vx_hull *h = build(pts, n);
    check_hull(h, pts, n);
    vx_hull_destroy(h);
}

Test(hull, lattice_of_points_is_a_box)
{
    vx_vec3 pts[216];
    size_t n = 0;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            for (int k = 0; k < 6; k++) pts[n++] = v3(0.2f * (float)i, 0.3f * (float)j - 1.0f, 0.5f * (float)k + 7.0f);
    vx_hull *h = build(pts, n);
    check_hull(h, pts, n);
    assert_box(h, v3(0.5f, -0.25f, 8.25f), v3(0.5f, 0.75f, 1.25f), 1e-5);
    vx_hull_destroy(h);
}

Test(hull, far_from_the_origin)
{
    vx_vec3 pts[64];
    vx_test_rng rng = {99u};
    box_corners(v3(1000.0f, -500.0f, 250.0f), v3(0.5f, 0.25f, 1.0f), pts);
    for (int i = 8; i < 64; i++)
        pts[i] = vx_vec3_add(v3(1000.0f, -500.0f, 250.0f), vx_test_rng_vec3(&rng, -0.25f, 0.25f));
    vx_hull *h = build(pts, 64);
    check_hull(h, pts, 64);
    assert_box(h, v3(1000.0f, -500.0f, 250.0f), v3(0.5f, 0.25f, 1.0f), 1e-4);
    vx_hull_destroy(h);
}

Test(hull, thin_slab)
{
    /* 1 x 1 x 0.001: a hundred times the tolerance thick */
    vx_vec3 pts[200];
    vx_test_rng rng = {4242u};
    box_corners(v3(0, 0, 0), v3(0.5f, 0.5f, 0.0005f), pts);
    for (int i = 8; i < 200; i++) {
        pts[i] = vx_test_rng_vec3(&rng, -0.5f, 0.5f);
        pts[i].z = vx_test_rng_range(&rng, -0.0005f, 0.0005f);
    }
    vx_hull *h = build(pts, 200);
    check_hull(h, pts, 200);
    assert_box(h, v3(0, 0, 0), v3(0.5f, 0.5f, 0.0005f), 1e-4);
    VX_ASSERT_NEAR(h->inner_radius, 0.0005, 1e-7);
    vx_hull_destroy(h);

    /* random points only, in a slab ten times the tolerance thick: some hull */
    for (int i = 0; i < 200; i++) {
        pts[i] = vx_test_rng_vec3(&rng, -0.5f, 0.5f);
        pts[i].z = vx_test_rng_range(&rng, -5e-5f, 5e-5f);
    }
    h = build(pts, 200);
    check_hull(h, pts, 200);
    vx_hull_destroy(h);
}

Test(hull, random_thin_slabs)
{
    /* random points in slabs 1000 and 100 times thinner than wide: shallow
     * creases along the rim, where a face plane fitted to a narrow strip of
     * triangles could tilt enough to cut the hull far away */
    vx_vec3 pts[256];
    for (int seed = 0; seed < 2; seed++) {
        /* slab 941 of seed 12 (found by a search over 39000 slabs) has a
         * sliver on its rim facing down with its corners near the top plane */
        vx_test_rng rng = {seed ? 12u : 9001u};
        int first = seed ? 940 : 0, last = seed ? 940 : 199;
        for (int rep = 0; rep <= last; rep++) {
            size_t n = 16 + vx_test_rng_next(&rng) % 241u;
            float thickness = rep % 2 ? 1e-3f : 1e-4f;
            for (size_t i = 0; i < n; i++) {
                pts[i] = vx_test_rng_vec3(&rng, -1.0f, 1.0f);
                pts[i].z *= thickness;
            }
            if (rep < first) continue;
            vx_hull *h = build(pts, n);
            check_hull(h, pts, n);
            vx_hull_destroy(h);
        }
    }
}

/* ---- tetrahedra ---- */

/* Tonon 2004, "Explicit exact formulas for the 3-D tetrahedron inertia
 * tensor in terms of its vertex coordinates": the tensor about the centroid,
 * density 1, from the vertices relative to the centroid. */
static void tonon(const vx_vec3 p[4], double *volume, double centroid[3], double inertia[3][3])
{
    double c[3] = {0, 0, 0};
    for (int i = 0; i < 4; i++) {
        c[0] += p[i].x / 4.0;
        c[1] += p[i].y / 4.0;
        c[2] += p[i].z / 4.0;
    }
    double q[4][3];
    for (int i = 0; i < 4; i++) {
        q[i][0] = p[i].x - c[0];
        q[i][1] = p[i].y - c[1];
        q[i][2] = p[i].z - c[2];
    }
    double a[3], b[3], d[3], x[3];
    for (int k = 0; k < 3; k++) {
        a[k] = q[1][k] - q[0][k];
        b[k] = q[2][k] - q[0][k];
        d[k] = q[3][k] - q[0][k];
    }
    cross_d(b, d, x);
    double J = fabs(a[0] * x[0] + a[1] * x[1] + a[2] * x[2]);
    /* s2[k][l] = sum over i <= j of (y_i z_j + y_j z_i) / 2, the products Tonon writes out */
    double s[3][3];
    for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++) {
            double sum = 0.0;
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++) sum += (i == j ? 2.0 : 1.0) * q[i][k] * q[j][l];
            s[k][l] = sum; /* 2 sum_i y_i z_i + sum_{i != j} y_i z_j */
        }
    double ia = J * (s[1][1] + s[2][2]) / 120.0; /* sum_{i<=j} y_i y_j = s/2, over 60 */
    double ib = J * (s[0][0] + s[2][2]) / 120.0;
    double ic = J * (s[0][0] + s[1][1]) / 120.0;
    double ap = J * s[1][2] / 120.0, bp = J * s[0][2] / 120.0, cp = J * s[0][1] / 120.0;
    double t[3][3] = {{ia, -cp, -bp}, {-cp, ib, -ap}, {-bp, -ap, ic}};
    memcpy(inertia, t, sizeof t);
    memcpy(centroid, c, sizeof c);
    *volume = J / 6.0;
}

static void assert_tetrahedron(const vx_vec3 p[4])
{
    vx_hull *h = build(p, 4);
    check_hull(h, p, 4);
    cr_assert_eq(h->vertex_count, 4);
    cr_assert_eq(h->edge_count, 12);
    cr_assert_eq(h->face_count, 4);
    double volume, c[3], inertia[3][3];
    tonon(p, &volume, c, inertia);
    VX_ASSERT_NEAR(h->volume, volume, 1e-6 * volume);
    double scale = 0.0;
    for (int i = 0; i < 3; i++) scale = fmax(scale, fabs(inertia[i][i]));
    VX_ASSERT_VEC3_NEAR(h->centroid, c[0], c[1], c[2], 1e-6);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) VX_ASSERT_NEAR(h->inertia.m[i][j], inertia[i][j], 1e-5 * scale);
    vx_hull_destroy(h);
}

Test(hull, tetrahedra_against_tonon)
{
    /* Tonon's worked example (his section 4): the tensor he prints */
    vx_vec3 example[4] = {v3(8.33220f, -11.86875f, 0.93355f), v3(0.75523f, 5.00000f, 16.37072f),
                          v3(52.61236f, 5.00000f, -5.38580f), v3(2.00000f, 5.00000f, 3.00000f)};
    vx_hull *h = build(example, 4);
    /* a = 43520.33257, b = 194711.28938, c = 191168.76173, a' = 4417.66150,
     * b' = -46343.16662, c' = 11996.20119 (density 1) */
    VX_ASSERT_NEAR(h->inertia.m[0][0], 43520.33257, 0.5);
    VX_ASSERT_NEAR(h->inertia.m[1][1], 194711.28938, 2.0);
    VX_ASSERT_NEAR(h->inertia.m[2][2], 191168.76173, 2.0);
    VX_ASSERT_NEAR(h->inertia.m[1][2], -4417.66150, 0.5);
    VX_ASSERT_NEAR(h->inertia.m[0][2], 46343.16662, 0.5);
    VX_ASSERT_NEAR(h->inertia.m[0][1], -11996.20119, 0.5);
    VX_ASSERT_VEC3_NEAR(h->centroid, 15.92492, 0.78281, 3.72962, 1e-4);
    vx_hull_destroy(h);

    assert_tetrahedron(example);
    vx_vec3 corner[4] = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0), v3(0, 0, 1)};
    assert_tetrahedron(corner);
    vx_hull *c = build(corner, 4);
    VX_ASSERT_NEAR(c->volume, 1.0 / 6.0, 1e-7);
    VX_ASSERT_VEC3_NEAR(c->centroid, 0.25, 0.25, 0.25, 1e-7);
    /* about the origin: int (y^2 + z^2) = 2/60, int xy = 1/120; shifted to the centroid */
    double m = 1.0 / 6.0;
    VX_ASSERT_NEAR(c->inertia.m[0][0], 2.0 / 60.0 - m * 2.0 / 16.0, 1e-7);
    VX_ASSERT_NEAR(c->inertia.m[0][1], -(1.0 / 120.0 - m / 16.0), 1e-7);
    vx_hull_destroy(c);
    vx_test_rng rng = {31337u};
    for (int k = 0; k < 50; k++) {
        vx_vec3 p[4];
        for (int i = 0; i < 4; i++) p[i] = vx_test_rng_vec3(&rng, -3.0f, 5.0f);
        assert_tetrahedron(p);
    }
}

/* ---- the icosahedron and a d20 ---- */

#define PHI 1.6180339887498949

static size_t icosahedron(vx_vec3 out[12], float scale)
{
    size_t n = 0;
    for (int s1 = -1; s1 <= 1; s1 += 2)
        for (int s2 = -1; s2 <= 1; s2 += 2) {
            float a = (float)s1 * scale, b = (float)(s2 * PHI) * scale;
            out[n++] = v3(0, a, b);
            out[n++] = v3(a, b, 0);
            out[n++] = v3(b, 0, a);
        }
    return n;
}

static void assert_icosahedron(const vx_hull *h, double edge, double rel)
{
    cr_assert_eq(h->vertex_count, 12, "V %d F %d", h->vertex_count, h->face_count);
    cr_assert_eq(h->face_count, 20);
    cr_assert_eq(h->edge_count, 60);
    for (int f = 0; f < 20; f++) cr_assert_eq(h->faces[f].edge_count, 3);
    double volume = 5.0 / 12.0 * (3.0 + sqrt(5.0)) * edge * edge * edge;
    VX_ASSERT_NEAR(h->volume, volume, rel * volume);
    VX_ASSERT_VEC3_NEAR(h->centroid, 0, 0, 0, rel * edge);
    /* solid regular icosahedron: I = phi^2 m a^2 / 10 about any axis */
    double inertia = PHI * PHI * volume * edge * edge / 10.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) VX_ASSERT_NEAR(h->inertia.m[i][j], i == j ? inertia : 0.0, rel * inertia);
    /* inradius: phi^2 a / (2 sqrt 3) */
    VX_ASSERT_NEAR(h->inner_radius, PHI * PHI * edge / (2.0 * sqrt(3.0)), rel * edge);
}

Test(hull, regular_icosahedron)
{
    vx_vec3 pts[12];
    icosahedron(pts, 1.0f);
    vx_hull *h = build(pts, 12);
    check_hull(h, pts, 12);
    assert_icosahedron(h, 2.0, 1e-6);
    vx_hull_destroy(h);
}

Test(hull, d20_point_set)
{
    /* A die: its 12 corners, the midpoints of its 30 edges and points along
     * them (on the hull, no corners), 20 engraved numbers (points a little
     * inside each face) and points on the faces: still 12 corners, 20 faces. */
    vx_vec3 corners[12];
    icosahedron(corners, 0.01f); /* a 2 cm die */
    vx_vec3 pts[256];
    size_t n = 0;
    for (int i = 0; i < 12; i++) pts[n++] = corners[i];
    vx_test_rng rng = {2020u};
    double edge = 0.02;
    for (int i = 0; i < 12; i++)
        for (int j = i + 1; j < 12; j++) {
            vx_vec3 d = vx_vec3_sub(corners[j], corners[i]);
            if (fabs(vx_vec3_length(d) - edge) > 1e-4) continue;
            pts[n++] = vx_vec3_add(corners[i], vx_vec3_scale(d, 0.5f));
            pts[n++] = vx_vec3_add(corners[i], vx_vec3_scale(d, vx_test_rng_range(&rng, 0.1f, 0.9f)));
        }
    cr_assert_eq(n, 72u);
    for (int i = 0; i < 12; i++)
        for (int j = i + 1; j < 12; j++)
            for (int k = j + 1; k < 12; k++) {
                vx_vec3 a = corners[i], b = corners[j], c = corners[k];
                if (fabs(vx_vec3_length(vx_vec3_sub(a, b)) - edge) > 1e-4 ||
                    fabs(vx_vec3_length(vx_vec3_sub(b, c)) - edge) > 1e-4 ||
                    fabs(vx_vec3_length(vx_vec3_sub(a, c)) - edge) > 1e-4)
                    continue;
                vx_vec3 centre = vx_vec3_scale(vx_vec3_add(vx_vec3_add(a, b), c), 1.0f / 3.0f);
                pts[n++] = vx_vec3_scale(centre, 0.98f); /* the number, engraved */
                for (int s = 0; s < 8; s++) {
                    float u = vx_test_rng_range(&rng, 0.0f, 1.0f), v = vx_test_rng_range(&rng, 0.0f, 1.0f);
                    if (u + v > 1.0f) {
                        u = 1.0f - u;
                        v = 1.0f - v;
                    }
                    vx_vec3 p = vx_vec3_add(a, vx_vec3_add(vx_vec3_scale(vx_vec3_sub(b, a), u),
                                                           vx_vec3_scale(vx_vec3_sub(c, a), v)));
                    pts[n++] = p;
                }
            }
    cr_assert_eq(n, 72u + 20u * 9u);
    vx_hull *h = build(pts, n);
    check_hull(h, pts, n);
    assert_icosahedron(h, edge, 1e-5);
    for (int v = 0; v < 12; v++) {
        bool corner = false;
        for (int i = 0; i < 12; i++) corner = corner || memcmp(&h->vertices[v], &corners[i], sizeof(vx_vec3)) == 0;
        cr_assert(corner, "vertex %d is no corner of the die", v);
    }
    vx_hull_destroy(h);
}

/* ---- random clouds ---- */

typedef enum {
    CLOUD_CUBE,
    CLOUD_SPHERE,
    CLOUD_BALL,
    CLOUD_CYLINDER,
    CLOUD_GRID,
    CLOUD_NOISY_BOX,
    CLOUD_SLAB,
    CLOUD_KINDS
} cloud_kind;

static size_t make_cloud(cloud_kind kind, size_t n, vx_test_rng *rng, vx_vec3 *pts)
{
    for (size_t i = 0; i < n; i++) {
        vx_vec3 p;
        switch (kind) {
        case CLOUD_CUBE:
            p = vx_test_rng_vec3(rng, -1.0f, 1.0f);
            break;
        case CLOUD_SPHERE:
        case CLOUD_BALL:
            do p = vx_test_rng_vec3(rng, -1.0f, 1.0f);
            while (vx_vec3_length(p) > 1.0f || vx_vec3_length(p) < 0.1f);
            if (kind == CLOUD_SPHERE) p = vx_vec3_normalize(p);
            break;
        case CLOUD_CYLINDER: {
            /* rims of two discs and their faces: many coplanar points */
            float a = vx_test_rng_range(rng, 0.0f, 6.2831853f);
            float r = (vx_test_rng_next(rng) & 1u) ? 1.0f : vx_test_rng_range(rng, 0.0f, 1.0f);
            float z = (vx_test_rng_next(rng) & 1u) ? 2.0f : -2.0f;
            p = v3(r * cosf(a), r * sinf(a), z);
            break;
        }
        case CLOUD_NOISY_BOX: {
            /* on the faces of a box, 1e-6 of its size off them */
            p = vx_test_rng_vec3(rng, -1.0f, 1.0f);
            uint32_t face = vx_test_rng_next(rng) % 6u;
            vx_vec3_set(&p, (int)(face / 2u), face % 2u ? 1.0f : -1.0f);
            p = vx_vec3_add(vx_vec3_mul(p, v3(1.0f, 2.0f, 0.5f)), vx_test_rng_vec3(rng, -2e-6f, 2e-6f));
            break;
        }
        case CLOUD_SLAB:
            p = vx_test_rng_vec3(rng, -1.0f, 1.0f);
            p.z *= 1e-3f;
            break;
        default: /* coarse grid: coplanar and collinear points, duplicates */
            p = v3((float)(vx_test_rng_next(rng) % 4u), (float)(vx_test_rng_next(rng) % 3u),
                   (float)(vx_test_rng_next(rng) % 5u) * 0.5f);
            break;
        }
        pts[i] = p;
    }
    return n;
}

/* Volume, centroid and inertia of the hull by sampling its box. */
static void monte_carlo(const vx_hull *h, int samples, vx_test_rng *rng, double *volume, double c[3], double I[3][3])
{
    double inside = 0.0, s1[3] = {0, 0, 0}, s2[3][3] = {{0}};
    vx_aabb b = h->bounds;
    for (int k = 0; k < samples; k++) {
        vx_vec3 p = v3(vx_test_rng_range(rng, b.min.x, b.max.x), vx_test_rng_range(rng, b.min.y, b.max.y),
                       vx_test_rng_range(rng, b.min.z, b.max.z));
        bool in = true;
        for (int f = 0; f < h->face_count && in; f++) in = above(h, f, p) <= 0.0;
        if (!in) continue;
        double q[3] = {p.x, p.y, p.z};
        inside += 1.0;
        for (int i = 0; i < 3; i++) {
            s1[i] += q[i];
            for (int j = 0; j < 3; j++) s2[i][j] += q[i] * q[j];
        }
    }
    vx_vec3 size = vx_vec3_sub(b.max, b.min);
    *volume = (double)size.x * size.y * size.z * inside / samples;
    double cov[3][3];
    for (int i = 0; i < 3; i++) c[i] = s1[i] / inside;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) cov[i][j] = (s2[i][j] / inside - c[i] * c[j]) * *volume;
    double tr = cov[0][0] + cov[1][1] + cov[2][2];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) I[i][j] = (i == j ? tr : 0.0) - cov[i][j];
}

Test(hull, random_clouds)
{
    vx_test_rng rng = {2024u};
    static vx_vec3 pts[256];
    int built = 0;
    for (int kind = 0; kind < CLOUD_KINDS; kind++)
        for (size_t n = 4; n <= 256; n += (n < 20 ? 1 : 13)) {
            for (int rep = 0; rep < 3; rep++) {
                make_cloud((cloud_kind)kind, n, &rng, pts);
                vx_hull *h = NULL;
                vx_error err;
                vx_status st = vx_hull_build(pts, n, &h, &err);
                if (st != VX_OK) {
                    /* small clouds may be flat: only that is an excuse */
                    cr_assert_eq(st, VX_ERR_INVALID, "%s", err.message);
                    cr_assert(kind == CLOUD_GRID || kind == CLOUD_CYLINDER || n < 8, "kind %d n %zu: %s", kind, n,
                              err.message);
                    cr_assert(strstr(err.message, "plane") || strstr(err.message, "line") ||
                                  strstr(err.message, "distinct"),
                              "%s", err.message);
                    continue;
                }
                check_hull(h, pts, n);
                vx_hull_destroy(h);
                built++;
            }
        }
    cr_assert_gt(built, 300);
}

Test(hull, random_mass_properties_against_monte_carlo)
{
    vx_test_rng rng = {555u};
    vx_vec3 pts[64];
    for (int rep = 0; rep < 4; rep++) {
        make_cloud(CLOUD_CUBE, 64, &rng, pts);
        for (int i = 0; i < 64; i++) pts[i] = v3(pts[i].x * 2.0f + 1.0f, pts[i].y, pts[i].z * 0.5f - 3.0f);
        vx_hull *h = build(pts, 64);
        double volume, c[3], I[3][3];
        monte_carlo(h, 400000, &rng, &volume, c, I);
        VX_ASSERT_NEAR(h->volume, volume, 0.01 * volume);
        VX_ASSERT_VEC3_NEAR(h->centroid, c[0], c[1], c[2], 0.01);
        double scale = fmax(I[0][0], fmax(I[1][1], I[2][2]));
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) VX_ASSERT_NEAR(h->inertia.m[i][j], I[i][j], 0.02 * scale);
        vx_hull_destroy(h);
    }
}

/* ---- order and determinism ---- */

static void assert_same_bits(const vx_hull *a, const vx_hull *b)
{
    cr_assert_eq(a->vertex_count, b->vertex_count);
    cr_assert_eq(a->edge_count, b->edge_count);
    cr_assert_eq(a->face_count, b->face_count);
    cr_assert_eq(memcmp(a->vertices, b->vertices, a->vertex_count * sizeof *a->vertices), 0);
    cr_assert_eq(memcmp(a->edges, b->edges, a->edge_count * sizeof *a->edges), 0);
    cr_assert_eq(memcmp(a->faces, b->faces, a->face_count * sizeof *a->faces), 0);
    cr_assert_eq(memcmp(&a->centroid, &b->centroid, sizeof a->centroid), 0);
    cr_assert_eq(memcmp(&a->volume, &b->volume, sizeof a->volume), 0);
    cr_assert_eq(memcmp(&a->inertia, &b->inertia, sizeof a->inertia), 0);
    cr_assert_eq(memcmp(&a->bounds, &b->bounds, sizeof a->bounds), 0);
    cr_assert_eq(memcmp(&a->inner_radius, &b->inner_radius, sizeof a->inner_radius), 0);
}

Test(hull, same_hull_in_any_order_and_run_to_run)
{
    vx_test_rng rng = {8080u};
    vx_vec3 pts[256];
    for (int kind = 0; kind < CLOUD_KINDS; kind++) {
        make_cloud((cloud_kind)kind, 256, &rng, pts);
        vx_hull *first = build(pts, 256);
        vx_hull *again = build(pts, 256);
        assert_same_bits(first, again);
        for (int rep = 0; rep < 5; rep++) {
            shuffle(pts, 256, &rng);
            vx_hull *h = build(pts, 256);
            assert_same_bits(first, h);
            vx_hull_destroy(h);
        }
        vx_hull_destroy(first);
        vx_hull_destroy(again);
    }
    /* -0 and +0 are one point */
    vx_vec3 a[5] = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0), v3(0, 0, 1), v3(-0.0f, 0, 0)};
    vx_vec3 b[5] = {v3(-0.0f, -0.0f, -0.0f), v3(1, 0, 0), v3(0, 1, 0), v3(0, 0, 1), v3(0, 0, 0)};
    vx_hull *ha = build(a, 5), *hb = build(b, 5);
    assert_same_bits(ha, hb);
    vx_hull_destroy(ha);
    vx_hull_destroy(hb);
}

/* ---- support ---- */

Test(hull, support_against_brute_force)
{
    vx_test_rng rng = {17u};
    vx_vec3 pts[200];
    make_cloud(CLOUD_BALL, 200, &rng, pts);
    vx_hull *h = build(pts, 200);
    for (int k = 0; k < 5000; k++) {
        vx_vec3 d = vx_test_rng_vec3(&rng, -1.0f, 1.0f);
        if (k % 10 == 0) d = v3(k % 20 ? 1.0f : 0.0f, 0.0f, k % 20 ? 0.0f : -1.0f); /* axes: ties likely */
        uint16_t s = vx_hull_support(h, d);
        uint16_t best = 0;
        for (uint16_t i = 1; i < h->vertex_count; i++)
            if (vx_vec3_dot(h->vertices[i], d) > vx_vec3_dot(h->vertices[best], d)) best = i;
        cr_assert_eq(s, best, "direction %d", k);
        /* and as far as any input point, within the tolerance */
        double ds = dot_d(h->vertices[s], d), len = sqrt(dot_d(d, d));
        for (int i = 0; i < 200; i++) cr_assert_leq(dot_d(pts[i], d), ds + 2.0 * h->tolerance * len + 1e-6);
    }
    /* ties: the lowest index */
    vx_vec3 box[8];
    box_corners(v3(0, 0, 0), v3(1, 1, 1), box);
    vx_hull *c = build(box, 8);
    uint16_t s = vx_hull_support(c, v3(1, 0, 0));
    for (uint16_t i = 0; i < s; i++) cr_assert_lt(c->vertices[i].x, 1.0f);
    vx_hull_destroy(c);
    vx_hull_destroy(h);
}

/* ---- errors ---- */

static void assert_refused(const vx_vec3 *pts, size_t n, const char *message)
{
    vx_hull *h = (vx_hull *)&n; /* set to NULL on error */
    vx_error err;
    cr_assert_eq(vx_hull_build(pts, n, &h, &err), VX_ERR_INVALID);
    cr_assert_null(h);
    cr_assert_eq(err.code, VX_ERR_INVALID);
    cr_assert(strstr(err.message, message), "message \"%s\" lacks \"%s\"", err.message, message);
}

Test(hull, refuses_degenerate_input)
{
    vx_vec3 three[3] = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0)};
    assert_refused(three, 3, "fewer than 4 distinct points");
    vx_vec3 copies[6] = {v3(1, 2, 3), v3(1, 2, 3), v3(0, 0, 0), v3(1, 2, 3), v3(0, 0, 0), v3(5, 5, 5)};
    assert_refused(copies, 6, "fewer than 4 distinct points");
    vx_vec3 plane[5] = {v3(0, 0, 1), v3(1, 0, 1), v3(0, 1, 1), v3(1, 1, 1), v3(0.3f, 0.7f, 1)};
    assert_refused(plane, 5, "all points lie on one plane");
    vx_vec3 tilted[5];
    for (int i = 0; i < 5; i++) tilted[i] = v3(plane[i].x, plane[i].y, 0.3f * plane[i].x - 0.2f * plane[i].y);
    assert_refused(tilted, 5, "all points lie on one plane");
    vx_vec3 line[10];
    for (int i = 0; i < 10; i++) line[i] = v3(1.0f + (float)i, 2.0f - 0.5f * (float)i, 0.25f * (float)i);
    assert_refused(line, 10, "all points lie on one line");
    /* thinner than the tolerance: flat */
    vx_vec3 film[8];
    box_corners(v3(0, 0, 0), v3(1, 1, 1e-6f), film);
    assert_refused(film, 8, "all points lie on one plane");
    static vx_vec3 many[257];
    vx_test_rng rng = {3u};
    for (int i = 0; i < 257; i++) many[i] = vx_test_rng_vec3(&rng, -1.0f, 1.0f);
    assert_refused(many, 257, "257 points, at most 256");
    vx_vec3 bad[4] = {v3(0, 0, 0), v3(1, 0, 0), v3(0, NAN, 0), v3(0, 0, 1)};
    assert_refused(bad, 4, "point 2 is not finite");
    assert_refused(NULL, 4, "no points");
    /* 256 is fine */
    vx_hull *h = build(many, 256);
    check_hull(h, many, 256);
    vx_hull_destroy(h);
}
