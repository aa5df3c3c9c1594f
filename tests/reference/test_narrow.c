/* The reference pipeline's narrow phase (reference/narrow_*.c): sphere-sphere, sphere-box
 * and axis-aligned box-box, against hand-computed contacts. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "test_helpers.h"
#include "voltex/physics.h"
#include "voltex/reference.h"

#define EPS 1e-5f

static vx_vec3 v3(float x, float y, float z) { return vx_vec3_make(x, y, z); }

/* A contact pre-filled with a pattern, to see that a miss leaves it alone. */
static vx_contact_geom poisoned(void)
{
    vx_contact_geom g;
    memset(&g, 0xAB, sizeof g);
    return g;
}

static void assert_untouched(const vx_contact_geom *g)
{
    vx_contact_geom p = poisoned();
    cr_assert(memcmp(g, &p, sizeof p) == 0, "a miss must not write the contact");
}

/* The invariants of every convex contact: unit normal, positive depth, and
 * point_a - point_b = normal * depth. */
static void assert_consistent(const vx_contact_geom *g)
{
    VX_ASSERT_NEAR(vx_vec3_length(g->normal), 1.0f, EPS);
    cr_assert_gt(g->depth, 0.0f);
    vx_vec3 d = vx_vec3_sub(g->point_a, g->point_b);
    vx_vec3 nd = vx_vec3_scale(g->normal, g->depth);
    VX_ASSERT_VEC3_NEAR(d, nd.x, nd.y, nd.z, 1e-4);
}

/* ---------------- sphere vs sphere ---------------- */

Test(sphere_vs_sphere, overlap_along_x)
{
    vx_contact_geom g = poisoned();
    cr_assert(vx_sphere_vs_sphere(v3(0, 0, 0), 1.0f, v3(1.5f, 0, 0), 1.0f, &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 1, 0, 0, 0);
    VX_ASSERT_NEAR(g.depth, 0.5f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, 1, 0, 0, 0);
    VX_ASSERT_VEC3_NEAR(g.point_b, 0.5f, 0, 0, 0);
    cr_assert_eq(g.feature, 0u);
    assert_consistent(&g);
}

Test(sphere_vs_sphere, overlap_on_a_slant_3_4_5)
{
    /* Centres 5 apart along (0, 0.6, 0.8); radii 2 + 4 = 6: depth 1. */
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_sphere(v3(1, 0, 0), 2.0f, v3(1, 3, 4), 4.0f, &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 0, 0.6f, 0.8f, EPS);
    VX_ASSERT_NEAR(g.depth, 1.0f, EPS);
    VX_ASSERT_VEC3_NEAR(g.point_a, 1, 1.2f, 1.6f, EPS);
    VX_ASSERT_VEC3_NEAR(g.point_b, 1, 0.6f, 0.8f, EPS);
    assert_consistent(&g);
}

Test(sphere_vs_sphere, normal_points_from_a_to_b)
{
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_sphere(v3(0, 5, 0), 1.0f, v3(0, 4, 0), 1.0f, &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 0, -1, 0, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, 0, 4, 0, 0);
    VX_ASSERT_VEC3_NEAR(g.point_b, 0, 5, 0, 0);
}

Test(sphere_vs_sphere, separated)
{
    vx_contact_geom g = poisoned();
    cr_assert_not(vx_sphere_vs_sphere(v3(0, 0, 0), 1.0f, v3(3, 0, 0), 1.0f, &g));
    assert_untouched(&g);
    cr_assert_not(vx_sphere_vs_sphere(v3(0, 0, 0), 1.0f, v3(0, 0, -2.001f), 1.0f, &g));
    assert_untouched(&g);
}

Test(sphere_vs_sphere, tangent_is_not_a_contact)
{
    vx_contact_geom g = poisoned();
    cr_assert_not(vx_sphere_vs_sphere(v3(0, 0, 0), 1.0f, v3(2, 0, 0), 1.0f, &g));
    cr_assert_not(vx_sphere_vs_sphere(v3(0, 1, 0), 0.5f, v3(0, -0.5f, 0), 1.0f, &g));
    /* 3-4-5 triangle: distance exactly 5 = 2 + 3. */
    cr_assert_not(vx_sphere_vs_sphere(v3(0, 0, 0), 2.0f, v3(0, 3, 4), 3.0f, &g));
    assert_untouched(&g);
    /* Just inside tangency is a contact. */
    cr_assert(vx_sphere_vs_sphere(v3(0, 0, 0), 2.0f, v3(0, 3, 4), 3.001f, &g));
}

Test(sphere_vs_sphere, fully_contained)
{
    /* The small sphere is inside the big one: still an overlap, and pushing
     * B along the normal by depth makes them just touch. */
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_sphere(v3(0, 0, 0), 3.0f, v3(0.5f, 0, 0), 1.0f, &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 1, 0, 0, 0);
    VX_ASSERT_NEAR(g.depth, 3.5f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, 3, 0, 0, 0);
    VX_ASSERT_VEC3_NEAR(g.point_b, -0.5f, 0, 0, 0);
    assert_consistent(&g);
}

Test(sphere_vs_sphere, coincident_centres_use_plus_y)
{
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_sphere(v3(2, 3, 4), 1.0f, v3(2, 3, 4), 0.5f, &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 0, 1, 0, 0);
    VX_ASSERT_NEAR(g.depth, 1.5f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, 2, 4, 4, 0);
    VX_ASSERT_VEC3_NEAR(g.point_b, 2, 2.5f, 4, 0);
    assert_consistent(&g);
}

/* ---------------- sphere vs box ---------------- */

/* Feature code of a box region (see narrow_sphere.c): r_i in -1, 0, +1. */
static uint32_t region(int rx, int ry, int rz) { return (uint32_t)((rx + 1) + 3 * (ry + 1) + 9 * (rz + 1)); }

Test(sphere_vs_box, face_plus_x)
{
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_box(v3(1.5f, 0.25f, -0.5f), 1.0f, v3(0, 0, 0), v3(1, 1, 1), &g));
    VX_ASSERT_VEC3_NEAR(g.normal, -1, 0, 0, 0);
    VX_ASSERT_NEAR(g.depth, 0.5f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, 0.5f, 0.25f, -0.5f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_b, 1, 0.25f, -0.5f, 0);
    cr_assert_eq(g.feature, region(1, 0, 0));
    assert_consistent(&g);
}

Test(sphere_vs_box, face_minus_y_resting_on_top_of_nothing)
{
    /* Sphere below the box: the normal from the sphere to the box is +y. */
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_box(v3(0.2f, -1.25f, 0.3f), 0.5f, v3(0, 0, 0), v3(1, 1, 1), &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 0, 1, 0, 0);
    VX_ASSERT_NEAR(g.depth, 0.25f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, 0.2f, -0.75f, 0.3f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_b, 0.2f, -1, 0.3f, 0);
    cr_assert_eq(g.feature, region(0, -1, 0));
    assert_consistent(&g);
}

Test(sphere_vs_box, ball_on_a_floor_face_plus_y)
{
    /* The scene in the interface: floor box at (0,-1,0) with half extents
     * (10,1,10), a ball of radius 0.5 sunk 0.01 into it. */
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_box(v3(3, 0.49f, -2), 0.5f, v3(0, -1, 0), v3(10, 1, 10), &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 0, -1, 0, 0);
    VX_ASSERT_NEAR(g.depth, 0.01f, EPS);
    VX_ASSERT_VEC3_NEAR(g.point_b, 3, 0, -2, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, 3, -0.01f, -2, EPS);
    cr_assert_eq(g.feature, region(0, 1, 0));
}

Test(sphere_vs_box, faces_plus_and_minus_z_of_an_offset_box)
{
    /* Box centred at (2,3,4), half extents (1,2,3): z faces at 1 and 7. */
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_box(v3(2.5f, 4, 7.75f), 1.0f, v3(2, 3, 4), v3(1, 2, 3), &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 0, 0, -1, 0);
    VX_ASSERT_NEAR(g.depth, 0.25f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_b, 2.5f, 4, 7, 0);
    cr_assert_eq(g.feature, region(0, 0, 1));

    cr_assert(vx_sphere_vs_box(v3(1.5f, 2, 0.5f), 1.0f, v3(2, 3, 4), v3(1, 2, 3), &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 0, 0, 1, 0);
    VX_ASSERT_NEAR(g.depth, 0.5f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, 1.5f, 2, 1.5f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_b, 1.5f, 2, 1, 0);
    cr_assert_eq(g.feature, region(0, 0, -1));
}

Test(sphere_vs_box, edge_contact)
{
    /* Beyond the +x and +y faces, within z: the closest point is on the
     * edge (1, 1, z); distance sqrt(0.5) from the centre. */
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_box(v3(1.5f, 1.5f, 0.25f), 1.0f, v3(0, 0, 0), v3(1, 1, 1), &g));
    float s = 1.0f / sqrtf(2.0f);
    VX_ASSERT_VEC3_NEAR(g.normal, -s, -s, 0, EPS);
    VX_ASSERT_NEAR(g.depth, 1.0f - 0.5f * sqrtf(2.0f), EPS);
    VX_ASSERT_VEC3_NEAR(g.point_b, 1, 1, 0.25f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, 1.5f - s, 1.5f - s, 0.25f, EPS);
    cr_assert_eq(g.feature, region(1, 1, 0));
    assert_consistent(&g);
}

Test(sphere_vs_box, corner_contact_normal_along_the_diagonal)
{
    /* Beyond three faces: the closest point is the corner (1,1,1), the
     * normal the diagonal, the depth r - 0.5 * sqrt(3). */
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_box(v3(1.5f, 1.5f, 1.5f), 1.0f, v3(0, 0, 0), v3(1, 1, 1), &g));
    float s = 1.0f / sqrtf(3.0f);
    VX_ASSERT_VEC3_NEAR(g.normal, -s, -s, -s, EPS);
    VX_ASSERT_NEAR(g.depth, 1.0f - 0.5f * sqrtf(3.0f), EPS);
    VX_ASSERT_VEC3_NEAR(g.point_b, 1, 1, 1, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, 1.5f - s, 1.5f - s, 1.5f - s, EPS);
    cr_assert_eq(g.feature, region(1, 1, 1));
    assert_consistent(&g);
}

Test(sphere_vs_box, opposite_corner_contact)
{
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_box(v3(-1.5f, -1.5f, -1.5f), 1.0f, v3(0, 0, 0), v3(1, 1, 1), &g));
    float s = 1.0f / sqrtf(3.0f);
    VX_ASSERT_VEC3_NEAR(g.normal, s, s, s, EPS);
    VX_ASSERT_VEC3_NEAR(g.point_b, -1, -1, -1, 0);
    cr_assert_eq(g.feature, region(-1, -1, -1));
}

Test(sphere_vs_box, separated)
{
    vx_contact_geom g = poisoned();
    cr_assert_not(vx_sphere_vs_box(v3(3, 0, 0), 1.0f, v3(0, 0, 0), v3(1, 1, 1), &g));
    /* The bounding boxes overlap near the corner, the shapes do not:
     * distance 0.8 * sqrt(3) = 1.386 > 1. */
    cr_assert_not(vx_sphere_vs_box(v3(1.8f, 1.8f, 1.8f), 1.0f, v3(0, 0, 0), v3(1, 1, 1), &g));
    /* Near an edge: distance 0.75 * sqrt(2) = 1.06 > 1. */
    cr_assert_not(vx_sphere_vs_box(v3(1.75f, 0, -1.75f), 1.0f, v3(0, 0, 0), v3(1, 1, 1), &g));
    assert_untouched(&g);
}

Test(sphere_vs_box, tangent_is_not_a_contact)
{
    vx_contact_geom g = poisoned();
    cr_assert_not(vx_sphere_vs_box(v3(2, 0, 0), 1.0f, v3(0, 0, 0), v3(1, 1, 1), &g));
    cr_assert_not(vx_sphere_vs_box(v3(0.5f, -1.5f, 0), 0.5f, v3(0, 0, 0), v3(1, 1, 1), &g));
    /* Tangent at an edge: offsets (0.375, 0.5) from the edge (1, 1), distance
     * exactly 0.625 (all exact in float). */
    cr_assert_not(vx_sphere_vs_box(v3(0, 1.375f, 1.5f), 0.625f, v3(0, 0, 0), v3(1, 1, 1), &g));
    /* Tangent at a corner: offsets (0.25, 0.5, 0.5), distance exactly 0.75. */
    cr_assert_not(vx_sphere_vs_box(v3(1.25f, -1.5f, 1.5f), 0.75f, v3(0, 0, 0), v3(1, 1, 1), &g));
    assert_untouched(&g);
}

Test(sphere_vs_box, centre_inside_near_the_top_face)
{
    /* Centre 0.2 below the +y face: the sphere leaves upward, so the normal
     * from the sphere to the box is -y; depth = r + 0.2. */
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_box(v3(0.1f, 0.8f, -0.3f), 0.5f, v3(0, 0, 0), v3(1, 1, 1), &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 0, -1, 0, 0);
    VX_ASSERT_NEAR(g.depth, 0.7f, EPS);
    VX_ASSERT_VEC3_NEAR(g.point_b, 0.1f, 1, -0.3f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, 0.1f, 0.3f, -0.3f, EPS);
    cr_assert_eq(g.feature, region(0, 1, 0));
    assert_consistent(&g);
    /* The normal points from A towards B: the box centre is on its side. */
    cr_assert_gt(vx_vec3_dot(g.normal, vx_vec3_sub(v3(0, 0, 0), v3(0.1f, 0.8f, -0.3f))), 0.0f);

    /* Moving the sphere by depth against the normal resolves the contact. */
    vx_vec3 moved = vx_vec3_sub(v3(0.1f, 0.8f, -0.3f), vx_vec3_scale(g.normal, g.depth + 1e-4f));
    cr_assert_not(vx_sphere_vs_box(moved, 0.5f, v3(0, 0, 0), v3(1, 1, 1), &g));
}

Test(sphere_vs_box, centre_inside_near_the_minus_x_face)
{
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_box(v3(1.5f, 3, 4), 0.25f, v3(2, 3, 4), v3(1, 2, 3), &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 1, 0, 0, 0);
    VX_ASSERT_NEAR(g.depth, 0.75f, EPS);
    VX_ASSERT_VEC3_NEAR(g.point_b, 1, 3, 4, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, 1.75f, 3, 4, 0);
    cr_assert_eq(g.feature, region(-1, 0, 0));
}

Test(sphere_vs_box, centre_on_the_surface_is_pushed_out_through_that_face)
{
    /* Same feature code as when just outside that face: it stays stable. */
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_box(v3(1, 0.5f, 0), 0.5f, v3(0, 0, 0), v3(1, 1, 1), &g));
    VX_ASSERT_VEC3_NEAR(g.normal, -1, 0, 0, 0);
    VX_ASSERT_NEAR(g.depth, 0.5f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_b, 1, 0.5f, 0, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, 0.5f, 0.5f, 0, 0);
    cr_assert_eq(g.feature, region(1, 0, 0));
}

Test(sphere_vs_box, centre_at_the_box_centre_of_a_cube_picks_plus_x)
{
    /* Every face is equally near: lowest axis, then the + face. */
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_box(v3(0, 0, 0), 0.5f, v3(0, 0, 0), v3(1, 1, 1), &g));
    VX_ASSERT_VEC3_NEAR(g.normal, -1, 0, 0, 0);
    VX_ASSERT_NEAR(g.depth, 1.5f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_b, 1, 0, 0, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, -0.5f, 0, 0, 0);
    cr_assert_eq(g.feature, region(1, 0, 0));
}

Test(sphere_vs_box, centre_at_the_box_centre_picks_the_thinnest_axis)
{
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_box(v3(5, 5, 5), 0.5f, v3(5, 5, 5), v3(2, 1, 3), &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 0, -1, 0, 0);
    VX_ASSERT_NEAR(g.depth, 1.5f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_b, 5, 6, 5, 0);
    cr_assert_eq(g.feature, region(0, 1, 0));
}

Test(sphere_vs_box, inside_tie_between_axes_takes_the_lowest_axis)
{
    /* 0.5 from both the -x face and the +y face: x wins. */
    vx_contact_geom g;
    cr_assert(vx_sphere_vs_box(v3(-0.5f, 0.5f, 0), 0.25f, v3(0, 0, 0), v3(1, 1, 1), &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 1, 0, 0, 0);
    VX_ASSERT_NEAR(g.depth, 0.75f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_b, -1, 0.5f, 0, 0);
    cr_assert_eq(g.feature, region(-1, 0, 0));
}

Test(sphere_vs_box, random_contacts_are_consistent)
{
    /* Spheres all around a box: every reported contact has its point on B on
     * the box surface, its point on A on the sphere, and pa - pb = n * depth;
     * every miss is a sphere farther than r from the box. */
    vx_test_rng rng = {12345u};
    vx_vec3 c = v3(0.5f, -1, 2), h = v3(1, 0.5f, 2);
    int hits = 0;
    for (int i = 0; i < 2000; i++) {
        vx_vec3 p = v3(vx_test_rng_range(&rng, -2, 3), vx_test_rng_range(&rng, -3, 1), vx_test_rng_range(&rng, -1, 5));
        float r = vx_test_rng_range(&rng, 0.1f, 1.5f);
        vx_vec3 q = vx_vec3_max(vx_vec3_sub(c, h), vx_vec3_min(p, vx_vec3_add(c, h)));
        float dist = vx_vec3_length(vx_vec3_sub(q, p));
        vx_contact_geom g;
        bool hit = vx_sphere_vs_box(p, r, c, h, &g);
        if (!hit) {
            cr_assert_geq(dist, r - 1e-5f);
            continue;
        }
        hits++;
        assert_consistent(&g);
        VX_ASSERT_NEAR(vx_vec3_length(vx_vec3_sub(g.point_a, p)), r, 1e-4);
        vx_vec3 off = vx_vec3_abs(vx_vec3_sub(g.point_b, c));
        float outside = fmaxf(fmaxf(off.x - h.x, off.y - h.y), off.z - h.z);
        VX_ASSERT_NEAR(outside, 0.0f, 1e-5); /* on the surface */
        cr_assert_neq(g.feature, region(0, 0, 0));
        cr_assert_lt(g.feature, 27u);
    }
    cr_assert_gt(hits, 200);
}

/* ---------------- box vs box ---------------- */

static vx_vec3 axis_vec(int axis, float s)
{
    vx_vec3 v = vx_vec3_zero();
    vx_vec3_set(&v, axis, s);
    return v;
}

Test(box_vs_box, overlap_on_each_axis_and_sign)
{
    /* A unit box at the origin; B (half extents 1) 1.5 away along one axis,
     * slightly offset on the other two: depth 0.5 along that axis. */
    for (int axis = 0; axis < 3; axis++) {
        for (int k = 0; k < 2; k++) {
            float s = k == 0 ? 1.0f : -1.0f;
            vx_vec3 off = v3(0.2f, -0.1f, 0.3f);
            vx_vec3_set(&off, axis, 0.0f);
            vx_vec3 pb = vx_vec3_add(axis_vec(axis, 1.5f * s), off);
            vx_contact_geom g;
            cr_assert(vx_box_vs_box(v3(0, 0, 0), v3(1, 1, 1), pb, v3(1, 1, 1), &g), "axis %d sign %d", axis, k);
            vx_vec3 n = axis_vec(axis, s);
            VX_ASSERT_VEC3_NEAR(g.normal, n.x, n.y, n.z, 0);
            VX_ASSERT_NEAR(g.depth, 0.5f, 0);
            cr_assert_eq(g.feature, (uint32_t)(axis * 2 + k));
            /* Faces: A's at s * 1, B's at s * 0.5; other axes: middle of
             * the overlap [-1 + o, 1] , i.e. o / 2. */
            vx_vec3 mid = vx_vec3_scale(off, 0.5f);
            vx_vec3 ea = vx_vec3_add(mid, axis_vec(axis, s));
            vx_vec3 eb = vx_vec3_add(mid, axis_vec(axis, 0.5f * s));
            VX_ASSERT_VEC3_NEAR(g.point_a, ea.x, ea.y, ea.z, EPS);
            VX_ASSERT_VEC3_NEAR(g.point_b, eb.x, eb.y, eb.z, EPS);
            assert_consistent(&g);
        }
    }
}

Test(box_vs_box, exact_contact_of_unequal_boxes)
{
    /* A: centre (0,0,0), half (2,1,1): [-2,2]x[-1,1]x[-1,1].
     * B: centre (1,1.75,0.5), half (1,1,1): [0,2]x[0.75,2.75]x[-0.5,1.5].
     * Overlaps: x 3-1 = 2, y 2-1.75 = 0.25, z 2-0.5 = 1.5: y wins. */
    vx_contact_geom g;
    cr_assert(vx_box_vs_box(v3(0, 0, 0), v3(2, 1, 1), v3(1, 1.75f, 0.5f), v3(1, 1, 1), &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 0, 1, 0, 0);
    VX_ASSERT_NEAR(g.depth, 0.25f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, 1, 1, 0.25f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_b, 1, 0.75f, 0.25f, 0);
    cr_assert_eq(g.feature, 2u);
}

Test(box_vs_box, separated_along_each_axis)
{
    vx_contact_geom g = poisoned();
    for (int axis = 0; axis < 3; axis++) {
        for (int k = 0; k < 2; k++) {
            float s = k == 0 ? 1.0f : -1.0f;
            /* Overlapping on the two other axes, apart on this one only. */
            vx_vec3 pb = vx_vec3_add(axis_vec(axis, 2.5f * s), v3(0.1f, 0.1f, 0.1f));
            vx_vec3_set(&pb, axis, 2.5f * s);
            cr_assert_not(vx_box_vs_box(v3(0, 0, 0), v3(1, 1, 1), pb, v3(1, 1, 1), &g), "axis %d", axis);
        }
    }
    assert_untouched(&g);
}

Test(box_vs_box, touching_faces_is_not_a_contact)
{
    vx_contact_geom g = poisoned();
    for (int axis = 0; axis < 3; axis++) {
        cr_assert_not(vx_box_vs_box(v3(0, 0, 0), v3(1, 1, 1), axis_vec(axis, 2.0f), v3(1, 1, 1), &g));
        cr_assert_not(vx_box_vs_box(v3(0, 0, 0), v3(1, 1, 1), axis_vec(axis, -1.5f), v3(0.5f, 0.5f, 0.5f), &g));
    }
    /* Touching along an edge only. */
    cr_assert_not(vx_box_vs_box(v3(0, 0, 0), v3(1, 1, 1), v3(2, 2, 0), v3(1, 1, 1), &g));
    assert_untouched(&g);
}

Test(box_vs_box, one_box_inside_another)
{
    /* B is inside A, off-centre along +x: A pushes B out through +x, the
     * nearer side: overlap (3 + 1) - 0.5 = 3.5. */
    vx_contact_geom g;
    cr_assert(vx_box_vs_box(v3(0, 0, 0), v3(3, 3, 3), v3(0.5f, 0, 0), v3(1, 1, 1), &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 1, 0, 0, 0);
    VX_ASSERT_NEAR(g.depth, 3.5f, 0);
    VX_ASSERT_VEC3_NEAR(g.point_a, 3, 0, 0, 0);
    VX_ASSERT_VEC3_NEAR(g.point_b, -0.5f, 0, 0, 0);
    assert_consistent(&g);
}

Test(box_vs_box, equal_centres_use_the_plus_direction_of_the_thinnest_axis)
{
    vx_contact_geom g;
    cr_assert(vx_box_vs_box(v3(1, 1, 1), v3(2, 1, 3), v3(1, 1, 1), v3(2, 1, 3), &g));
    VX_ASSERT_VEC3_NEAR(g.normal, 0, 1, 0, 0);
    VX_ASSERT_NEAR(g.depth, 2.0f, 0);
    cr_assert_eq(g.feature, 2u);
    assert_consistent(&g);
}

Test(box_vs_box, overlap_tie_takes_the_lowest_axis)
{
    vx_contact_geom g;
    cr_assert(vx_box_vs_box(v3(0, 0, 0), v3(1, 1, 1), v3(-1.5f, 1.5f, 0), v3(1, 1, 1), &g));
    VX_ASSERT_VEC3_NEAR(g.normal, -1, 0, 0, 0);
    VX_ASSERT_NEAR(g.depth, 0.5f, 0);
    cr_assert_eq(g.feature, 1u);
}

Test(box_vs_box, random_pairs_agree_with_swapped_order)
{
    /* Swapping A and B mirrors the contact: same depth, negated normal,
     * swapped points (when the centres differ on the chosen axis). Every
     * contact satisfies point_a - point_b = normal * depth and its depth is
     * the least of the three overlaps. */
    vx_test_rng rng = {99u};
    int hits = 0;
    for (int i = 0; i < 2000; i++) {
        vx_vec3 pa = v3(vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2));
        vx_vec3 pb = v3(vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2), vx_test_rng_range(&rng, -2, 2));
        vx_vec3 ha = v3(vx_test_rng_range(&rng, 0.1f, 2), vx_test_rng_range(&rng, 0.1f, 2), vx_test_rng_range(&rng, 0.1f, 2));
        vx_vec3 hb = v3(vx_test_rng_range(&rng, 0.1f, 2), vx_test_rng_range(&rng, 0.1f, 2), vx_test_rng_range(&rng, 0.1f, 2));
        vx_contact_geom ab, ba;
        bool hit = vx_box_vs_box(pa, ha, pb, hb, &ab);
        cr_assert_eq(hit, vx_box_vs_box(pb, hb, pa, ha, &ba));
        vx_vec3 o = vx_vec3_sub(vx_vec3_add(ha, hb), vx_vec3_abs(vx_vec3_sub(pb, pa)));
        cr_assert_eq(hit, o.x > 0 && o.y > 0 && o.z > 0);
        if (!hit) continue;
        hits++;
        assert_consistent(&ab);
        VX_ASSERT_NEAR(ab.depth, fminf(o.x, fminf(o.y, o.z)), 0);
        VX_ASSERT_NEAR(ba.depth, ab.depth, 0);
        VX_ASSERT_VEC3_NEAR(ba.normal, -ab.normal.x, -ab.normal.y, -ab.normal.z, 0);
        VX_ASSERT_VEC3_NEAR(ba.point_a, ab.point_b.x, ab.point_b.y, ab.point_b.z, 1e-5);
        VX_ASSERT_VEC3_NEAR(ba.point_b, ab.point_a.x, ab.point_a.y, ab.point_a.z, 1e-5);
    }
    cr_assert_gt(hits, 300);
}
