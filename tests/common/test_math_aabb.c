/* Axis-aligned boxes (voltex/math.h): construction,
 * center and half extents, point containment, intersection, merge, area. */
#include <criterion/criterion.h>

#include "test_helpers.h"
#include "voltex/math.h"

static vx_aabb box(float x0, float y0, float z0, float x1, float y1, float z1)
{
    return vx_aabb_new(vx_vec3_make(x0, y0, z0), vx_vec3_make(x1, y1, z1));
}

/* b moved by d along axis `axis`. */
static vx_aabb shifted(vx_aabb b, int axis, float d)
{
    vx_vec3 off = vx_vec3_zero();
    vx_vec3_set(&off, axis, d);
    return vx_aabb_new(vx_vec3_add(b.min, off), vx_vec3_add(b.max, off));
}

Test(aabb, new_keeps_min_and_max)
{
    vx_aabb b = box(-1.0f, 2.0f, -3.0f, 4.0f, 5.0f, 6.0f);
    VX_ASSERT_VEC3_NEAR(b.min, -1.0f, 2.0f, -3.0f, 0.0f);
    VX_ASSERT_VEC3_NEAR(b.max, 4.0f, 5.0f, 6.0f, 0.0f);
}

Test(aabb, from_center_half_extents)
{
    vx_aabb b = vx_aabb_from_center_half_extents(vx_vec3_make(1.0f, -2.0f, 3.0f), vx_vec3_make(0.5f, 1.0f, 2.0f));
    VX_ASSERT_VEC3_NEAR(b.min, 0.5f, -3.0f, 1.0f, 0.0f);
    VX_ASSERT_VEC3_NEAR(b.max, 1.5f, -1.0f, 5.0f, 0.0f);
    /* Zero half extents give a point box. */
    vx_aabb p = vx_aabb_from_center_half_extents(vx_vec3_make(7, 8, 9), vx_vec3_zero());
    VX_ASSERT_VEC3_NEAR(p.min, 7, 8, 9, 0.0f);
    VX_ASSERT_VEC3_NEAR(p.max, 7, 8, 9, 0.0f);
}

Test(aabb, center_and_half_extents)
{
    vx_aabb b = box(-1.0f, 2.0f, -3.0f, 4.0f, 5.0f, 6.0f);
    VX_ASSERT_VEC3_NEAR(vx_aabb_center(b), 1.5f, 3.5f, 1.5f, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_aabb_half_extents(b), 2.5f, 1.5f, 4.5f, 0.0f);
    /* Round trip through center and half extents. */
    vx_aabb r = vx_aabb_from_center_half_extents(vx_aabb_center(b), vx_aabb_half_extents(b));
    VX_ASSERT_VEC3_NEAR(r.min, -1.0f, 2.0f, -3.0f, 0.0f);
    VX_ASSERT_VEC3_NEAR(r.max, 4.0f, 5.0f, 6.0f, 0.0f);
}

Test(aabb, contains_point_inside_outside_boundary)
{
    vx_aabb b = box(0, 0, 0, 2, 4, 6);
    cr_assert(vx_aabb_contains_point(b, vx_vec3_make(1, 2, 3)), "center");
    cr_assert(vx_aabb_contains_point(b, vx_vec3_make(0.1f, 3.9f, 5.9f)), "inside near a corner");
    for (int axis = 0; axis < 3; axis++) {
        vx_vec3 lo = vx_vec3_make(1, 2, 3), hi = lo, below = lo, above = lo;
        vx_vec3_set(&lo, axis, vx_vec3_get(b.min, axis));
        vx_vec3_set(&hi, axis, vx_vec3_get(b.max, axis));
        vx_vec3_set(&below, axis, vx_vec3_get(b.min, axis) - 0.01f);
        vx_vec3_set(&above, axis, vx_vec3_get(b.max, axis) + 0.01f);
        cr_assert(vx_aabb_contains_point(b, lo), "on the min face of axis %d counts as inside", axis);
        cr_assert(vx_aabb_contains_point(b, hi), "on the max face of axis %d counts as inside", axis);
        cr_assert(!vx_aabb_contains_point(b, below), "below axis %d is outside", axis);
        cr_assert(!vx_aabb_contains_point(b, above), "above axis %d is outside", axis);
    }
    cr_assert(vx_aabb_contains_point(b, b.min), "corner");
    cr_assert(vx_aabb_contains_point(b, b.max), "corner");
    cr_assert(!vx_aabb_contains_point(b, vx_vec3_make(-5, 20, 3)));
}

Test(aabb, intersects_overlap_separated_touching_on_each_axis)
{
    vx_aabb a = box(0, 0, 0, 1, 2, 3);
    cr_assert(vx_aabb_intersects(a, a), "a box intersects itself");
    vx_aabb inner = box(0.25f, 0.5f, 1.0f, 0.75f, 1.5f, 2.0f);
    cr_assert(vx_aabb_intersects(a, inner) && vx_aabb_intersects(inner, a), "containment");
    for (int axis = 0; axis < 3; axis++) {
        float size = vx_vec3_get(a.max, axis) - vx_vec3_get(a.min, axis);
        vx_aabb overlap = shifted(a, axis, 0.5f * size);
        vx_aabb touch_hi = shifted(a, axis, size);
        vx_aabb touch_lo = shifted(a, axis, -size);
        vx_aabb apart_hi = shifted(a, axis, size + 0.01f);
        vx_aabb apart_lo = shifted(a, axis, -size - 0.01f);
        cr_assert(vx_aabb_intersects(a, overlap) && vx_aabb_intersects(overlap, a), "overlap on axis %d", axis);
        cr_assert(vx_aabb_intersects(a, touch_hi) && vx_aabb_intersects(touch_hi, a),
                  "touching max face on axis %d counts", axis);
        cr_assert(vx_aabb_intersects(a, touch_lo) && vx_aabb_intersects(touch_lo, a),
                  "touching min face on axis %d counts", axis);
        cr_assert(!vx_aabb_intersects(a, apart_hi) && !vx_aabb_intersects(apart_hi, a),
                  "separated above on axis %d", axis);
        cr_assert(!vx_aabb_intersects(a, apart_lo) && !vx_aabb_intersects(apart_lo, a),
                  "separated below on axis %d", axis);
    }
    /* Overlapping on two axes but apart on the third is apart. */
    vx_aabb diag = box(0.5f, 1.0f, 3.5f, 2.0f, 3.0f, 4.0f);
    cr_assert(!vx_aabb_intersects(a, diag));
}

Test(aabb, merged_is_the_smallest_enclosing_box)
{
    vx_aabb a = box(0, 0, 0, 1, 2, 3);
    vx_aabb b = box(-1, 1, 2, 0.5f, 5, 4);
    vx_aabb m = vx_aabb_merged(a, b);
    VX_ASSERT_VEC3_NEAR(m.min, -1, 0, 0, 0.0f);
    VX_ASSERT_VEC3_NEAR(m.max, 1, 5, 4, 0.0f);
    vx_aabb n = vx_aabb_merged(b, a);
    VX_ASSERT_VEC3_NEAR(n.min, -1, 0, 0, 0.0f);
    VX_ASSERT_VEC3_NEAR(n.max, 1, 5, 4, 0.0f);
    /* Disjoint boxes: the merge spans the gap. */
    vx_aabb far = box(10, 10, 10, 11, 11, 11);
    vx_aabb g = vx_aabb_merged(a, far);
    VX_ASSERT_VEC3_NEAR(g.min, 0, 0, 0, 0.0f);
    VX_ASSERT_VEC3_NEAR(g.max, 11, 11, 11, 0.0f);
    /* Merging with a box inside changes nothing. */
    vx_aabb inner = box(0.25f, 0.5f, 1.0f, 0.75f, 1.5f, 2.0f);
    vx_aabb same = vx_aabb_merged(a, inner);
    VX_ASSERT_VEC3_NEAR(same.min, 0, 0, 0, 0.0f);
    VX_ASSERT_VEC3_NEAR(same.max, 1, 2, 3, 0.0f);
}

Test(aabb, surface_area)
{
    /* 1 x 2 x 3: 2 * (1*2 + 2*3 + 3*1) = 22. */
    VX_ASSERT_NEAR(vx_aabb_surface_area(box(0, 0, 0, 1, 2, 3)), 22.0f, 0.0f);
    /* Position does not matter. */
    VX_ASSERT_NEAR(vx_aabb_surface_area(box(-5, 10, 2.5f, -4, 12, 5.5f)), 22.0f, 0.0f);
    VX_ASSERT_NEAR(vx_aabb_surface_area(box(0, 0, 0, 1, 1, 1)), 6.0f, 0.0f);
    VX_ASSERT_NEAR(vx_aabb_surface_area(box(0, 0, 0, 4, 0, 5)), 40.0f, 0.0f);
    VX_ASSERT_NEAR(vx_aabb_surface_area(box(1, 2, 3, 1, 2, 3)), 0.0f, 0.0f);
}
