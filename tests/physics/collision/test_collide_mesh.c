/* Convex shapes against meshes and heightfields
 * (src/physics/collision/collide_mesh.c). The oracle for a flat floor of
 * many triangles is one box: a box, a hull cube, a sphere and a capsule
 * resting or sliding anywhere on a floor of 20 x 20 quads (800 triangles)
 * get one manifold along +Y with the points and depths the box floor gives
 * (corners on triangle edges and vertices included), under every yaw; the
 * part stays the same across triangles. Then what a flat floor cannot
 * show: a ridge's active edge pushes along its own normal, a valley and a
 * box in a corner get one manifold per face, triangles are two-sided, a
 * heightfield is a mesh of its cells, and nothing is found beyond the
 * margin. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "physics/body/hull.h"
#include "physics/body/mesh.h"
#include "physics/collision/collide_internal.h"
#include "physics/collision/collide_mesh.h"
#include "physics/collision/collide_shapes.h"
#include "test_helpers.h"
#include "test_hull_helpers.h"
#include "test_mesh_helpers.h"

#define PI_F 3.14159265358979f

static vx_mesh *floor_mesh(int n, float size)
{
    vx_test_grid g = vx_test_grid_make(n, size, NULL);
    vx_mesh *m = NULL;
    vx_error err;
    cr_assert_eq(vx_mesh_build(g.vertices, g.vertex_count, g.indices, g.triangle_count, &m, &err), VX_OK, "%s",
                 err.message);
    vx_test_grid_free(&g);
    return m;
}

static vx_transform identity_pose(void) { return vx_test_pose(vx_vec3_zero(), vx_quat_identity()); }

/* Whether the point sets of a and b agree within eps (a point each way). */
static bool same_points(const vx_manifold *a, const vx_manifold *b, float eps)
{
    if (a->count != b->count) return false;
    for (int i = 0; i < a->count; i++) {
        bool found = false;
        for (int j = 0; j < b->count && !found; j++) {
            const vx_manifold_point *p = &a->points[i], *q = &b->points[j];
            found = vx_vec3_length(vx_vec3_sub(p->point_a, q->point_a)) <= eps &&
                    vx_vec3_length(vx_vec3_sub(p->point_b, q->point_b)) <= eps && fabsf(p->depth - q->depth) <= eps;
        }
        if (!found) return false;
    }
    return true;
}

static int collide(const vx_mesh *m, const vx_collider *shape, const vx_transform *pose, float margin,
                   vx_mesh_manifold *out)
{
    vx_collider mc = vx_collider_mesh(m);
    vx_transform pm = identity_pose();
    return vx_collide_mesh(&mc, &pm, shape, pose, margin, out);
}

Test(collide_mesh, a_box_on_800_triangles_touches_as_on_one_box)
{
    vx_mesh *m = floor_mesh(20, 1.0f);
    cr_assert_eq(m->triangle_count, 800u);
    vx_collider floor_box = vx_collider_box(vx_vec3_make(10.0f, 1.0f, 10.0f));
    vx_transform floor_pose = vx_test_pose(vx_vec3_make(0.0f, -1.0f, 0.0f), vx_quat_identity());
    vx_test_rng rng = {21u};
    uint32_t part = 0;
    for (int i = 0; i < 600; i++) {
        vx_vec3 half = vx_vec3_make(vx_test_rng_range(&rng, 0.1f, 1.5f), vx_test_rng_range(&rng, 0.1f, 1.0f),
                                    vx_test_rng_range(&rng, 0.1f, 1.5f));
        /* a third exactly on the grid's lines and corners */
        float x = vx_test_rng_range(&rng, -7.0f, 7.0f), z = vx_test_rng_range(&rng, -7.0f, 7.0f);
        if (i % 3 == 0) {
            x = floorf(x) + (i % 2 ? 0.0f : 0.5f) - half.x;
            z = floorf(z) - half.z;
        }
        float yaw = i % 4 == 0 ? 0.0f : vx_test_rng_range(&rng, -PI_F, PI_F);
        float sink = vx_test_rng_range(&rng, -0.015f, 0.01f); /* above (speculative) to 1 cm deep */
        vx_transform pose = vx_test_pose(vx_vec3_make(x, half.y - sink, z),
                                         vx_quat_from_axis_angle(vx_vec3_make(0, 1, 0), yaw));
        vx_collider box = vx_collider_box(half);
        vx_mesh_manifold out[VX_MESH_MAX_MANIFOLDS];
        int n = collide(m, &box, &pose, 0.02f, out);
        vx_manifold want;
        cr_assert(vx_collide_box_box(&floor_pose, floor_box.half_extents, &pose, half, 0.02f, &want));
        cr_assert_eq(n, 1, "case %d: %d manifolds", i, n);
        VX_ASSERT_VEC3_NEAR(out[0].manifold.normal, 0, 1, 0, 1e-6);
        cr_assert(same_points(&out[0].manifold, &want, 2e-5f), "case %d: points differ from the box floor's", i);
        if (i == 0) part = out[0].part;
        cr_assert_eq(out[0].part, part, "case %d: the part follows the normal, not the triangles", i);
    }
    vx_mesh_destroy(m);
}

Test(collide_mesh, a_hull_cube_a_sphere_and_a_capsule_on_the_floor)
{
    vx_mesh *m = floor_mesh(20, 1.0f);
    vx_hull *cube = vx_test_box_hull(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_collider hull = vx_collider_hull(cube);
    vx_test_rng rng = {5u};
    for (int i = 0; i < 200; i++) {
        float x = vx_test_rng_range(&rng, -5.0f, 5.0f), z = vx_test_rng_range(&rng, -5.0f, 5.0f);
        if (i % 2 == 0) { /* on a vertex of the grid, and on a diagonal */
            x = floorf(x) + (i % 4 == 0 ? 0.0f : 0.25f);
            z = floorf(z) + (i % 4 == 0 ? 0.0f : 0.25f);
        }
        vx_quat yaw = vx_quat_from_axis_angle(vx_vec3_make(0, 1, 0), vx_test_rng_range(&rng, -PI_F, PI_F));
        vx_mesh_manifold out[VX_MESH_MAX_MANIFOLDS];

        vx_transform pose = vx_test_pose(vx_vec3_make(x, 0.499f, z), yaw);
        cr_assert_eq(collide(m, &hull, &pose, 0.0f, out), 1);
        cr_assert_eq(out[0].manifold.count, 4);
        VX_ASSERT_VEC3_NEAR(out[0].manifold.normal, 0, 1, 0, 1e-6);
        for (int k = 0; k < 4; k++) VX_ASSERT_NEAR(out[0].manifold.points[k].depth, 0.001f, 2e-6);

        vx_collider ball = vx_collider_sphere(0.5f);
        cr_assert_eq(collide(m, &ball, &pose, 0.0f, out), 1);
        cr_assert_eq(out[0].manifold.count, 1);
        VX_ASSERT_VEC3_NEAR(out[0].manifold.normal, 0, 1, 0, 1e-6);
        VX_ASSERT_NEAR(out[0].manifold.points[0].depth, 0.001f, 2e-6);
        VX_ASSERT_VEC3_NEAR(out[0].manifold.points[0].point_a, x, 0, z, 1e-5);

        /* a capsule lying flat: its two ends */
        vx_collider capsule = vx_collider_capsule(0.25f, 0.8f);
        vx_quat lying = vx_quat_mul(yaw, vx_quat_from_axis_angle(vx_vec3_make(0, 0, 1), 0.5f * PI_F));
        vx_transform cp = vx_test_pose(vx_vec3_make(x, 0.249f, z), lying);
        cr_assert_eq(collide(m, &capsule, &cp, 0.0f, out), 1);
        cr_assert_eq(out[0].manifold.count, 2, "case %d", i);
        VX_ASSERT_VEC3_NEAR(out[0].manifold.normal, 0, 1, 0, 1e-6);
        float span = vx_vec3_length(vx_vec3_sub(out[0].manifold.points[0].point_a, out[0].manifold.points[1].point_a));
        VX_ASSERT_NEAR(span, 1.6f, 1e-4);
        for (int k = 0; k < 2; k++) VX_ASSERT_NEAR(out[0].manifold.points[k].depth, 0.001f, 2e-6);
    }
    vx_hull_destroy(cube);
    vx_mesh_destroy(m);
}

Test(collide_mesh, triangles_are_two_sided)
{
    vx_mesh *m = floor_mesh(4, 1.0f);
    vx_collider ball = vx_collider_sphere(0.5f);
    vx_transform under = vx_test_pose(vx_vec3_make(0.3f, -0.45f, 0.2f), vx_quat_identity());
    vx_mesh_manifold out[VX_MESH_MAX_MANIFOLDS];
    cr_assert_eq(collide(m, &ball, &under, 0.0f, out), 1);
    VX_ASSERT_VEC3_NEAR(out[0].manifold.normal, 0, -1, 0, 1e-6);
    VX_ASSERT_NEAR(out[0].manifold.points[0].depth, 0.05f, 1e-6);
    vx_collider box = vx_collider_box(vx_vec3_make(0.3f, 0.2f, 0.3f));
    vx_transform below = vx_test_pose(vx_vec3_make(-0.2f, -0.19f, 0.1f), vx_quat_identity());
    cr_assert_eq(collide(m, &box, &below, 0.0f, out), 1);
    VX_ASSERT_VEC3_NEAR(out[0].manifold.normal, 0, -1, 0, 1e-6);
    cr_assert_eq(out[0].manifold.count, 4);
    vx_mesh_destroy(m);
}

Test(collide_mesh, nothing_beyond_the_margin_and_speculative_points_within_it)
{
    vx_mesh *m = floor_mesh(4, 1.0f);
    vx_collider box = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_transform pose = vx_test_pose(vx_vec3_make(0.1f, 0.51f, 0.1f), vx_quat_identity());
    vx_mesh_manifold out[VX_MESH_MAX_MANIFOLDS];
    cr_assert_eq(collide(m, &box, &pose, 0.005f, out), 0);
    cr_assert_eq(collide(m, &box, &pose, 0.02f, out), 1);
    for (int k = 0; k < out[0].manifold.count; k++) VX_ASSERT_NEAR(out[0].manifold.points[k].depth, -0.01f, 1e-6);
    vx_mesh_destroy(m);
}

/* Two triangles folded along the Z axis: a ridge (up) or a valley. */
static vx_mesh *fold(float rise)
{
    vx_vec3 v[4] = {{0, 0, -2}, {0, 0, 2}, {2, rise, 0}, {-2, rise, 0}};
    uint32_t idx[6] = {0, 1, 2, 1, 0, 3};
    vx_mesh *m = NULL;
    vx_error err;
    cr_assert_eq(vx_mesh_build(v, 4, idx, 2, &m, &err), VX_OK, "%s", err.message);
    return m;
}

Test(collide_mesh, a_ridge_pushes_along_its_edge_a_valley_along_both_faces)
{
    vx_mesh *ridge = fold(-1.0f);
    vx_collider ball = vx_collider_sphere(0.5f);
    vx_transform top = vx_test_pose(vx_vec3_make(0.0f, 0.49f, 0.0f), vx_quat_identity());
    vx_mesh_manifold out[VX_MESH_MAX_MANIFOLDS];
    cr_assert_eq(collide(ridge, &ball, &top, 0.0f, out), 1);
    VX_ASSERT_VEC3_NEAR(out[0].manifold.normal, 0, 1, 0, 1e-6); /* straight up from the edge */
    VX_ASSERT_NEAR(out[0].manifold.points[0].depth, 0.01f, 1e-6);
    vx_mesh_destroy(ridge);

    vx_mesh *valley = fold(2.0f);
    /* a ball resting in the valley touches both faces: two manifolds */
    float r = 0.5f, s = sqrtf(0.5f); /* the faces lean 45 degrees */
    vx_transform in = vx_test_pose(vx_vec3_make(0.0f, r / s - 0.001f, 0.0f), vx_quat_identity());
    int n = collide(valley, &ball, &in, 0.0f, out);
    cr_assert_eq(n, 2);
    cr_assert_neq(out[0].part, out[1].part);
    for (int i = 0; i < 2; i++) {
        VX_ASSERT_NEAR(fabsf(out[i].manifold.normal.x), s, 1e-5);
        VX_ASSERT_NEAR(out[i].manifold.normal.y, s, 1e-5);
    }
    vx_mesh_destroy(valley);
}

Test(collide_mesh, a_box_in_a_corner_has_a_manifold_per_wall)
{
    /* a floor (y = 0, x in [-2, 0]) and a wall (x = 0, y in [0, 2]) */
    vx_vec3 v[6] = {{-2, 0, -2}, {-2, 0, 2}, {0, 0, 2}, {0, 0, -2}, {0, 2, 2}, {0, 2, -2}};
    uint32_t idx[12] = {0, 1, 2, 0, 2, 3, 3, 2, 4, 3, 4, 5};
    vx_mesh *m = NULL;
    vx_error err;
    cr_assert_eq(vx_mesh_build(v, 6, idx, 4, &m, &err), VX_OK, "%s", err.message);
    vx_collider box = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_transform pose = vx_test_pose(vx_vec3_make(-0.499f, 0.499f, 0.0f), vx_quat_identity());
    vx_mesh_manifold out[VX_MESH_MAX_MANIFOLDS];
    int n = collide(m, &box, &pose, 0.0f, out);
    cr_assert_eq(n, 2);
    cr_assert_lt(out[0].part, out[1].part);
    bool up = false, side = false;
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(out[i].manifold.count, 4);
        up = up || out[i].manifold.normal.y > 0.999999f;
        side = side || out[i].manifold.normal.x < -0.999999f;
    }
    cr_assert(up && side);
    vx_mesh_destroy(m);
}

Test(collide_mesh, the_shape_table_takes_either_order)
{
    vx_mesh *m = floor_mesh(4, 1.0f);
    vx_collider mc = vx_collider_mesh(m), ball = vx_collider_sphere(0.5f);
    vx_transform pm = identity_pose(), pb = vx_test_pose(vx_vec3_make(0.2f, 0.4f, 0.3f), vx_quat_identity());
    vx_manifold ab, ba;
    cr_assert(vx_collide_shapes(&mc, &pm, &ball, &pb, 0.0f, &ab));
    cr_assert(vx_collide_shapes(&ball, &pb, &mc, &pm, 0.0f, &ba));
    VX_ASSERT_VEC3_NEAR(ab.normal, 0, 1, 0, 1e-6);
    VX_ASSERT_VEC3_NEAR(ba.normal, 0, -1, 0, 1e-6);
    VX_ASSERT_VEC3_NEAR(ba.points[0].point_b, 0.2f, 0.0f, 0.3f, 1e-6);
    vx_mesh_destroy(m);
}

Test(collide_mesh, a_heightfield_is_its_triangles)
{
    /* a heightfield and the same surface as a mesh give the same contacts */
    enum { R = 9, C = 9 };
    float h[R * C];
    vx_test_rng rng = {17u};
    for (int k = 0; k < R * C; k++) h[k] = vx_test_rng_range(&rng, -0.2f, 0.2f);
    vx_mesh *field = NULL, *mesh = NULL;
    vx_error err;
    cr_assert_eq(vx_mesh_build_heightfield(h, R, C, 1.0f, 1.0f, &field, &err), VX_OK);
    vx_vec3 v[R * C];
    uint32_t idx[6 * (R - 1) * (C - 1)];
    size_t k = 0;
    for (int j = 0; j < R; j++)
        for (int i = 0; i < C; i++) v[j * C + i] = vx_vec3_make((float)i, h[j * C + i], (float)j);
    for (int j = 0; j + 1 < R; j++) {
        for (int i = 0; i + 1 < C; i++) {
            uint32_t p00 = (uint32_t)(j * C + i), p10 = p00 + 1u, p01 = p00 + C, p11 = p01 + 1u;
            uint32_t quad[6] = {p00, p11, p10, p00, p01, p11};
            memcpy(&idx[k], quad, sizeof quad);
            k += 6;
        }
    }
    cr_assert_eq(vx_mesh_build(v, R * C, idx, k / 3u, &mesh, &err), VX_OK, "%s", err.message);
    vx_collider box = vx_collider_box(vx_vec3_make(0.6f, 0.3f, 0.4f));
    for (int i = 0; i < 200; i++) {
        vx_vec3 at = vx_vec3_make(vx_test_rng_range(&rng, 1, 7), vx_test_rng_range(&rng, 0.0f, 0.5f),
                                  vx_test_rng_range(&rng, 1, 7));
        vx_transform pose = vx_test_pose(at, vx_test_random_rotation(&rng));
        vx_mesh_manifold a[VX_MESH_MAX_MANIFOLDS], b[VX_MESH_MAX_MANIFOLDS];
        int na = collide(field, &box, &pose, 0.01f, a), nb = collide(mesh, &box, &pose, 0.01f, b);
        /* the same normals and depths (which of equally good points a
         * reduction keeps follows the triangles' numbers, and so does which
         * of two points closer than the merge distance, 1e-5 m here, a
         * group keeps: the deepest depth may differ by that much) */
        cr_assert_eq(na, nb, "case %d", i);
        for (int g = 0; g < na; g++) {
            cr_assert_eq(a[g].part, b[g].part);
            VX_ASSERT_VEC3_NEAR(a[g].manifold.normal, b[g].manifold.normal.x, b[g].manifold.normal.y,
                                b[g].manifold.normal.z, 0);
            float da = -INFINITY, db = -INFINITY;
            for (int p = 0; p < a[g].manifold.count; p++) da = fmaxf(da, a[g].manifold.points[p].depth);
            for (int p = 0; p < b[g].manifold.count; p++) db = fmaxf(db, b[g].manifold.points[p].depth);
            VX_ASSERT_NEAR(da, db, 1e-5);
        }
    }
    vx_mesh_destroy(field);
    vx_mesh_destroy(mesh);
}
