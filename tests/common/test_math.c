/* vec3, quaternion and mat3 against values worked out by hand. */
#include <criterion/criterion.h>
#include <math.h>

#include "test_helpers.h"
#include "voltex/math.h"

#define EPS 1e-6f
#define HALF_PI 1.57079632679489661923f

/* ---- vec3 ---- */

Test(math_vec3, add_sub_scale_neg_mul)
{
    vx_vec3 a = vx_vec3_make(1.0f, -2.0f, 3.5f);
    vx_vec3 b = vx_vec3_make(0.5f, 4.0f, -1.5f);
    VX_ASSERT_VEC3_NEAR(vx_vec3_add(a, b), 1.5f, 2.0f, 2.0f, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_vec3_sub(a, b), 0.5f, -6.0f, 5.0f, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_vec3_sub(b, a), -0.5f, 6.0f, -5.0f, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_vec3_scale(a, -2.0f), -2.0f, 4.0f, -7.0f, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_vec3_scale(a, 0.0f), 0.0f, 0.0f, 0.0f, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_vec3_neg(a), -1.0f, 2.0f, -3.5f, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_vec3_mul(a, b), 0.5f, -8.0f, -5.25f, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_vec3_zero(), 0.0f, 0.0f, 0.0f, 0.0f);
}

Test(math_vec3, dot)
{
    vx_vec3 a = vx_vec3_make(1.0f, 2.0f, 3.0f);
    vx_vec3 b = vx_vec3_make(4.0f, -5.0f, 6.0f);
    VX_ASSERT_NEAR(vx_vec3_dot(a, b), 12.0f, 0.0f); /* 4 - 10 + 18 */
    VX_ASSERT_NEAR(vx_vec3_dot(b, a), 12.0f, 0.0f);
    VX_ASSERT_NEAR(vx_vec3_dot(vx_vec3_make(1, 0, 0), vx_vec3_make(0, 1, 0)), 0.0f, 0.0f);
    VX_ASSERT_NEAR(vx_vec3_length_sq(a), 14.0f, 0.0f);
}

Test(math_vec3, cross_is_right_handed)
{
    vx_vec3 x = vx_vec3_make(1, 0, 0), y = vx_vec3_make(0, 1, 0), z = vx_vec3_make(0, 0, 1);
    VX_ASSERT_VEC3_NEAR(vx_vec3_cross(x, y), 0, 0, 1, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_vec3_cross(y, z), 1, 0, 0, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_vec3_cross(z, x), 0, 1, 0, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_vec3_cross(y, x), 0, 0, -1, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_vec3_cross(x, x), 0, 0, 0, 0.0f);

    vx_vec3 a = vx_vec3_make(1.0f, 2.0f, 3.0f);
    vx_vec3 b = vx_vec3_make(4.0f, 5.0f, 6.0f);
    vx_vec3 c = vx_vec3_cross(a, b);
    VX_ASSERT_VEC3_NEAR(c, -3.0f, 6.0f, -3.0f, 0.0f);
    /* Perpendicular to both factors. */
    VX_ASSERT_NEAR(vx_vec3_dot(c, a), 0.0f, 0.0f);
    VX_ASSERT_NEAR(vx_vec3_dot(c, b), 0.0f, 0.0f);
}

Test(math_vec3, length_and_normalize)
{
    vx_vec3 a = vx_vec3_make(3.0f, 0.0f, -4.0f);
    VX_ASSERT_NEAR(vx_vec3_length(a), 5.0f, 0.0f);
    VX_ASSERT_NEAR(vx_vec3_length(vx_vec3_make(1, 2, 2)), 3.0f, 0.0f);
    vx_vec3 n = vx_vec3_normalize(a);
    VX_ASSERT_VEC3_NEAR(n, 0.6f, 0.0f, -0.8f, EPS);
    VX_ASSERT_NEAR(vx_vec3_length(n), 1.0f, EPS);
    vx_vec3 tiny = vx_vec3_normalize(vx_vec3_make(0.0f, 1e-5f, 0.0f));
    VX_ASSERT_VEC3_NEAR(tiny, 0.0f, 1.0f, 0.0f, EPS);
    /* The zero vector has no direction: it stays zero, never NaN. */
    vx_vec3 z = vx_vec3_normalize(vx_vec3_zero());
    cr_assert(vx_vec3_is_finite(z));
    VX_ASSERT_VEC3_NEAR(z, 0.0f, 0.0f, 0.0f, 0.0f);
}

Test(math_vec3, min_max_abs_get_set_finite)
{
    vx_vec3 a = vx_vec3_make(1.0f, -5.0f, 3.0f);
    vx_vec3 b = vx_vec3_make(2.0f, -6.0f, 3.0f);
    VX_ASSERT_VEC3_NEAR(vx_vec3_min(a, b), 1.0f, -6.0f, 3.0f, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_vec3_max(a, b), 2.0f, -5.0f, 3.0f, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_vec3_abs(a), 1.0f, 5.0f, 3.0f, 0.0f);
    cr_assert_eq(vx_vec3_get(a, 0), 1.0f);
    cr_assert_eq(vx_vec3_get(a, 1), -5.0f);
    cr_assert_eq(vx_vec3_get(a, 2), 3.0f);
    vx_vec3_set(&a, 1, 9.0f);
    VX_ASSERT_VEC3_NEAR(a, 1.0f, 9.0f, 3.0f, 0.0f);
    cr_assert(vx_vec3_is_finite(a));
    cr_assert(!vx_vec3_is_finite(vx_vec3_make(0.0f, NAN, 0.0f)));
    cr_assert(!vx_vec3_is_finite(vx_vec3_make(0.0f, 0.0f, -INFINITY)));
}

/* ---- quaternion ---- */

Test(math_quat, identity_leaves_vectors_alone)
{
    vx_quat q = vx_quat_identity();
    cr_assert(q.x == 0.0f && q.y == 0.0f && q.z == 0.0f && q.w == 1.0f);
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(q, vx_vec3_make(1.5f, -2.0f, 7.0f)), 1.5f, -2.0f, 7.0f, 0.0f);
    VX_ASSERT_NEAR(vx_quat_length(q), 1.0f, 0.0f);
}

Test(math_quat, quarter_turn_about_each_axis)
{
    /* Right-handed, counter-clockwise seen from the tip of the axis. */
    vx_quat rx = vx_quat_from_axis_angle(vx_vec3_make(1, 0, 0), HALF_PI);
    vx_quat ry = vx_quat_from_axis_angle(vx_vec3_make(0, 1, 0), HALF_PI);
    vx_quat rz = vx_quat_from_axis_angle(vx_vec3_make(0, 0, 1), HALF_PI);
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(rx, vx_vec3_make(0, 1, 0)), 0, 0, 1, EPS);
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(rx, vx_vec3_make(0, 0, 1)), 0, -1, 0, EPS);
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(rx, vx_vec3_make(1, 0, 0)), 1, 0, 0, EPS);
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(ry, vx_vec3_make(0, 0, 1)), 1, 0, 0, EPS);
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(ry, vx_vec3_make(1, 0, 0)), 0, 0, -1, EPS);
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(ry, vx_vec3_make(0, 1, 0)), 0, 1, 0, EPS);
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(rz, vx_vec3_make(1, 0, 0)), 0, 1, 0, EPS);
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(rz, vx_vec3_make(0, 1, 0)), -1, 0, 0, EPS);
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(rz, vx_vec3_make(0, 0, 1)), 0, 0, 1, EPS);
    /* Lengths are kept. */
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(rz, vx_vec3_make(2.0f, 0.0f, 3.0f)), 0.0f, 2.0f, 3.0f, 4.0f * EPS);
    /* A half turn about z negates x and y. */
    vx_quat half = vx_quat_from_axis_angle(vx_vec3_make(0, 0, 1), 2.0f * HALF_PI);
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(half, vx_vec3_make(1, 2, 3)), -1, -2, 3, 4.0f * EPS);
}

Test(math_quat, axis_angle_components)
{
    /* 120 degrees about (1,1,1)/sqrt(3): sin 60 = sqrt(3)/2, so x = y = z = 1/2. */
    float s = 1.0f / sqrtf(3.0f);
    vx_quat q = vx_quat_from_axis_angle(vx_vec3_make(s, s, s), 2.0943951f);
    VX_ASSERT_NEAR(q.x, 0.5f, EPS);
    VX_ASSERT_NEAR(q.y, 0.5f, EPS);
    VX_ASSERT_NEAR(q.z, 0.5f, EPS);
    VX_ASSERT_NEAR(q.w, 0.5f, EPS);
    /* That rotation cycles the axes: x -> y -> z -> x. */
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(q, vx_vec3_make(1, 0, 0)), 0, 1, 0, EPS);
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(q, vx_vec3_make(0, 1, 0)), 0, 0, 1, EPS);
}

Test(math_quat, mul_applies_right_factor_first)
{
    vx_quat rx = vx_quat_from_axis_angle(vx_vec3_make(1, 0, 0), HALF_PI);
    vx_quat rz = vx_quat_from_axis_angle(vx_vec3_make(0, 0, 1), HALF_PI);
    vx_vec3 v = vx_vec3_make(0, 1, 0);
    /* rz first: y -> -x, then rx: -x stays -x. */
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(vx_quat_mul(rx, rz), v), -1, 0, 0, EPS);
    /* rx first: y -> z, then rz: z stays z. */
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(vx_quat_mul(rz, rx), v), 0, 0, 1, EPS);
    /* And mul agrees with rotating twice, on a general vector. */
    vx_quat a = vx_quat_normalize(vx_quat_make(0.3f, -0.2f, 0.5f, 0.8f));
    vx_quat b = vx_quat_normalize(vx_quat_make(-0.6f, 0.1f, 0.2f, 0.4f));
    vx_vec3 w = vx_vec3_make(1.0f, -2.0f, 0.5f);
    vx_vec3 twice = vx_quat_rotate(a, vx_quat_rotate(b, w));
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(vx_quat_mul(a, b), w), twice.x, twice.y, twice.z, 1e-5f);
    /* Identity is neutral on both sides. */
    vx_quat ia = vx_quat_mul(vx_quat_identity(), a), ai = vx_quat_mul(a, vx_quat_identity());
    cr_assert(ia.x == a.x && ia.y == a.y && ia.z == a.z && ia.w == a.w);
    cr_assert(ai.x == a.x && ai.y == a.y && ai.z == a.z && ai.w == a.w);
}

Test(math_quat, normalize)
{
    vx_quat q = vx_quat_normalize(vx_quat_make(0.0f, 3.0f, 0.0f, 4.0f));
    VX_ASSERT_NEAR(q.x, 0.0f, EPS);
    VX_ASSERT_NEAR(q.y, 0.6f, EPS);
    VX_ASSERT_NEAR(q.z, 0.0f, EPS);
    VX_ASSERT_NEAR(q.w, 0.8f, EPS);
    VX_ASSERT_NEAR(vx_quat_length(q), 1.0f, EPS);
    VX_ASSERT_NEAR(vx_quat_length(vx_quat_make(1, 1, 1, 1)), 2.0f, 0.0f);
    /* A zero quaternion has no rotation to keep: it becomes the identity. */
    vx_quat z = vx_quat_normalize(vx_quat_make(0, 0, 0, 0));
    cr_assert(z.x == 0.0f && z.y == 0.0f && z.z == 0.0f && z.w == 1.0f);
    cr_assert(vx_quat_is_finite(z));
    cr_assert(!vx_quat_is_finite(vx_quat_make(0, NAN, 0, 1)));
}

Test(math_quat, conjugate_inverts_a_unit_rotation)
{
    vx_quat q = vx_quat_normalize(vx_quat_make(0.3f, -0.2f, 0.5f, 0.8f));
    vx_quat c = vx_quat_conjugate(q);
    cr_assert(c.x == -q.x && c.y == -q.y && c.z == -q.z && c.w == q.w);
    vx_vec3 v = vx_vec3_make(2.0f, -1.0f, 0.25f);
    vx_vec3 there = vx_quat_rotate(q, v);
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(c, there), v.x, v.y, v.z, 1e-5f);
    vx_quat p = vx_quat_mul(q, c);
    VX_ASSERT_NEAR(p.x, 0.0f, EPS);
    VX_ASSERT_NEAR(p.y, 0.0f, EPS);
    VX_ASSERT_NEAR(p.z, 0.0f, EPS);
    VX_ASSERT_NEAR(p.w, 1.0f, EPS);
}

/* ---- mat3 ---- */

static void assert_mat3_near(const vx_mat3 *a, const float e[3][3], float eps)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            cr_assert(fabsf(a->m[i][j] - e[i][j]) <= eps, "m[%d][%d] = %.9g, expected %.9g", i, j,
                      (double)a->m[i][j], (double)e[i][j]);
}

Test(math_mat3, identity_and_diagonal)
{
    vx_mat3 i = vx_mat3_identity();
    const float e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    assert_mat3_near(&i, e, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_mat3_mul_vec3(&i, vx_vec3_make(3, -4, 5)), 3, -4, 5, 0.0f);
    vx_mat3 d = vx_mat3_diagonal(vx_vec3_make(2, 3, 4));
    const float ed[3][3] = {{2, 0, 0}, {0, 3, 0}, {0, 0, 4}};
    assert_mat3_near(&d, ed, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_mat3_mul_vec3(&d, vx_vec3_make(1, 1, -1)), 2, 3, -4, 0.0f);
}

Test(math_mat3, mul_vec3_rows_times_column)
{
    vx_mat3 a = {{{1, 2, 3}, {4, 5, 6}, {7, 8, 10}}};
    VX_ASSERT_VEC3_NEAR(vx_mat3_mul_vec3(&a, vx_vec3_make(1, 0, -1)), -2, -2, -3, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_mat3_mul_vec3(&a, vx_vec3_make(0, 1, 0)), 2, 5, 8, 0.0f);
}

Test(math_mat3, mul_and_transpose)
{
    vx_mat3 a = {{{1, 2, 3}, {4, 5, 6}, {7, 8, 10}}};
    vx_mat3 b = {{{0, 1, 0}, {2, 0, 1}, {1, -1, 3}}};
    vx_mat3 ab = vx_mat3_mul(&a, &b);
    /* Worked by hand: row i of a dotted with column j of b. */
    const float e_ab[3][3] = {{7, -2, 11}, {16, -2, 23}, {26, -3, 38}};
    assert_mat3_near(&ab, e_ab, 0.0f);
    vx_mat3 ba = vx_mat3_mul(&b, &a);
    const float e_ba[3][3] = {{4, 5, 6}, {9, 12, 16}, {18, 21, 27}};
    assert_mat3_near(&ba, e_ba, 0.0f);

    vx_mat3 at = vx_mat3_transpose(&a);
    const float e_at[3][3] = {{1, 4, 7}, {2, 5, 8}, {3, 6, 10}};
    assert_mat3_near(&at, e_at, 0.0f);
    /* (AB)^T = B^T A^T */
    vx_mat3 abt = vx_mat3_transpose(&ab), bt = vx_mat3_transpose(&b);
    vx_mat3 btat = vx_mat3_mul(&bt, &at);
    assert_mat3_near(&abt, (const float(*)[3])btat.m, 0.0f);
    vx_mat3 i = vx_mat3_identity();
    vx_mat3 ai = vx_mat3_mul(&a, &i), ia = vx_mat3_mul(&i, &a);
    assert_mat3_near(&ai, (const float(*)[3])a.m, 0.0f);
    assert_mat3_near(&ia, (const float(*)[3])a.m, 0.0f);
}

Test(math_mat3, from_quat_agrees_with_quat_rotate)
{
    vx_quat qs[4] = {
        vx_quat_identity(),
        vx_quat_from_axis_angle(vx_vec3_make(0, 0, 1), HALF_PI),
        vx_quat_normalize(vx_quat_make(0.3f, -0.2f, 0.5f, 0.8f)),
        vx_quat_normalize(vx_quat_make(-0.7f, 0.1f, 0.4f, -0.2f)),
    };
    vx_vec3 vs[4] = {vx_vec3_make(1, 0, 0), vx_vec3_make(0, 1, 0), vx_vec3_make(0, 0, 1),
                     vx_vec3_make(1.5f, -2.0f, 0.75f)};
    for (int k = 0; k < 4; k++) {
        vx_mat3 r = vx_mat3_from_quat(qs[k]);
        for (int j = 0; j < 4; j++) {
            vx_vec3 want = vx_quat_rotate(qs[k], vs[j]);
            VX_ASSERT_VEC3_NEAR(vx_mat3_mul_vec3(&r, vs[j]), want.x, want.y, want.z, 1e-5f);
        }
        /* A rotation matrix is orthonormal: R^T R = I. */
        vx_mat3 rt = vx_mat3_transpose(&r);
        vx_mat3 rtr = vx_mat3_mul(&rt, &r);
        const float e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        assert_mat3_near(&rtr, e, 1e-5f);
    }
    /* Quarter turn about z, exactly: columns are the images of the axes. */
    vx_mat3 rz = vx_mat3_from_quat(qs[1]);
    const float e_rz[3][3] = {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}};
    assert_mat3_near(&rz, e_rz, EPS);
}
