/* What a body is (body.c): collider constructors and their world-space
 * bounds, including rotated boxes and capsules; rigid-body constructors and
 * mass rules. */
#include <criterion/criterion.h>
#include <math.h>

#include "test_helpers.h"
#include "voltex/physics.h"

#define EPS 1e-5f

static const float pi_f = 3.14159265358979f;

Test(collider, sphere_constructor_sets_only_the_radius)
{
    vx_collider c = vx_collider_sphere(0.75f);
    cr_assert_eq(c.type, VX_SHAPE_SPHERE);
    cr_assert_eq(c.radius, 0.75f);
    cr_assert_not(c.sensor);
    cr_assert_eq(c.half_height, 0.0f);
}

Test(collider, box_constructor_sets_only_the_half_extents)
{
    vx_collider c = vx_collider_box(vx_vec3_make(1.0f, 2.0f, 3.0f));
    cr_assert_eq(c.type, VX_SHAPE_BOX);
    VX_ASSERT_VEC3_NEAR(c.half_extents, 1.0f, 2.0f, 3.0f, 0.0f);
    cr_assert_not(c.sensor);
    cr_assert_eq(c.radius, 0.0f);
}

Test(collider, sphere_aabb_is_centre_plus_minus_radius)
{
    vx_collider c = vx_collider_sphere(0.5f);
    vx_aabb b = vx_collider_aabb(&c, vx_vec3_make(1.0f, -2.0f, 3.0f), vx_quat_identity());
    VX_ASSERT_VEC3_NEAR(b.min, 0.5f, -2.5f, 2.5f, 0.0f);
    VX_ASSERT_VEC3_NEAR(b.max, 1.5f, -1.5f, 3.5f, 0.0f);
}

Test(collider, sphere_aabb_ignores_rotation)
{
    vx_collider c = vx_collider_sphere(2.0f);
    vx_quat q = vx_quat_from_axis_angle(vx_vec3_normalize(vx_vec3_make(1.0f, 1.0f, 0.0f)), 0.7f);
    vx_aabb b = vx_collider_aabb(&c, vx_vec3_zero(), q);
    VX_ASSERT_VEC3_NEAR(b.min, -2.0f, -2.0f, -2.0f, 0.0f);
    VX_ASSERT_VEC3_NEAR(b.max, 2.0f, 2.0f, 2.0f, 0.0f);
}

Test(collider, box_aabb_unrotated_is_centre_plus_minus_half_extents)
{
    vx_collider c = vx_collider_box(vx_vec3_make(1.0f, 2.0f, 3.0f));
    vx_aabb b = vx_collider_aabb(&c, vx_vec3_make(10.0f, 0.0f, -5.0f), vx_quat_identity());
    VX_ASSERT_VEC3_NEAR(b.min, 9.0f, -2.0f, -8.0f, 0.0f);
    VX_ASSERT_VEC3_NEAR(b.max, 11.0f, 2.0f, -2.0f, 0.0f);
}

Test(collider, box_rotated_45_degrees_about_y)
{
    /* Seen from above, a 2hx by 2hz rectangle turned by 45 degrees spans
     * (hx + hz) / sqrt(2) each way in x and in z; y is unchanged. */
    const float hx = 1.0f, hy = 2.0f, hz = 3.0f;
    vx_collider c = vx_collider_box(vx_vec3_make(hx, hy, hz));
    vx_quat q = vx_quat_from_axis_angle(vx_vec3_make(0.0f, 1.0f, 0.0f), pi_f / 4.0f);
    vx_aabb b = vx_collider_aabb(&c, vx_vec3_make(1.0f, 1.0f, 1.0f), q);
    float e = (hx + hz) / sqrtf(2.0f);
    VX_ASSERT_VEC3_NEAR(b.min, 1.0f - e, 1.0f - hy, 1.0f - e, EPS);
    VX_ASSERT_VEC3_NEAR(b.max, 1.0f + e, 1.0f + hy, 1.0f + e, EPS);
}

Test(collider, box_rotated_90_degrees_about_z_swaps_x_and_y)
{
    vx_collider c = vx_collider_box(vx_vec3_make(1.0f, 2.0f, 3.0f));
    vx_quat q = vx_quat_from_axis_angle(vx_vec3_make(0.0f, 0.0f, 1.0f), pi_f / 2.0f);
    vx_aabb b = vx_collider_aabb(&c, vx_vec3_zero(), q);
    VX_ASSERT_VEC3_NEAR(b.min, -2.0f, -1.0f, -3.0f, EPS);
    VX_ASSERT_VEC3_NEAR(b.max, 2.0f, 1.0f, 3.0f, EPS);
}

Test(collider, rotated_box_aabb_contains_every_corner_tightly)
{
    /* For an arbitrary rotation the bounds must be exactly the extremes of
     * the eight rotated corners. */
    vx_vec3 h = vx_vec3_make(0.5f, 1.5f, 2.5f);
    vx_vec3 p = vx_vec3_make(-1.0f, 4.0f, 2.0f);
    vx_collider c = vx_collider_box(h);
    vx_quat q = vx_quat_normalize(vx_quat_make(0.3f, -0.5f, 0.2f, 0.8f));
    vx_aabb b = vx_collider_aabb(&c, p, q);
    vx_vec3 lo = vx_vec3_make(INFINITY, INFINITY, INFINITY);
    vx_vec3 hi = vx_vec3_make(-INFINITY, -INFINITY, -INFINITY);
    for (int i = 0; i < 8; i++) {
        vx_vec3 corner = vx_vec3_make((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z);
        vx_vec3 w = vx_vec3_add(p, vx_quat_rotate(q, corner));
        lo = vx_vec3_min(lo, w);
        hi = vx_vec3_max(hi, w);
    }
    VX_ASSERT_VEC3_NEAR(b.min, lo.x, lo.y, lo.z, 1e-4);
    VX_ASSERT_VEC3_NEAR(b.max, hi.x, hi.y, hi.z, 1e-4);
}

Test(collider, capsule_constructor_sets_every_field)
{
    vx_collider c = vx_collider_capsule(0.25f, 1.5f);
    cr_assert_eq(c.type, VX_SHAPE_CAPSULE);
    cr_assert_eq(c.radius, 0.25f);
    cr_assert_eq(c.half_height, 1.5f);
    cr_assert_not(c.sensor);
    vx_collider zero;
    memset(&zero, 0, sizeof zero);
    cr_assert(memcmp(&c.half_extents, &zero.half_extents, sizeof zero.half_extents) == 0);
}

Test(collider, capsule_upright_aabb)
{
    vx_collider c = vx_collider_capsule(0.5f, 1.0f);
    vx_aabb b = vx_collider_aabb(&c, vx_vec3_make(0.0f, 2.0f, 0.0f), vx_quat_identity());
    VX_ASSERT_VEC3_NEAR(b.min, -0.5f, 0.5f, -0.5f, 0.0f);
    VX_ASSERT_VEC3_NEAR(b.max, 0.5f, 3.5f, 0.5f, 0.0f);
}

Test(collider, capsule_lying_along_x_aabb)
{
    /* 90 degrees about Z turns local Y into -X: the segment lies along X. */
    vx_collider c = vx_collider_capsule(0.25f, 2.0f);
    vx_quat q = vx_quat_from_axis_angle(vx_vec3_make(0.0f, 0.0f, 1.0f), pi_f / 2.0f);
    vx_aabb b = vx_collider_aabb(&c, vx_vec3_zero(), q);
    VX_ASSERT_VEC3_NEAR(b.min, -2.25f, -0.25f, -0.25f, EPS);
    VX_ASSERT_VEC3_NEAR(b.max, 2.25f, 0.25f, 0.25f, EPS);
}

Test(collider, capsule_tilted_45_degrees_aabb)
{
    /* 45 degrees about X: the segment end sits at (0, h, h)/sqrt(2). */
    vx_collider c = vx_collider_capsule(0.5f, 1.0f);
    vx_quat q = vx_quat_from_axis_angle(vx_vec3_make(1.0f, 0.0f, 0.0f), pi_f / 4.0f);
    vx_aabb b = vx_collider_aabb(&c, vx_vec3_zero(), q);
    float s = 1.0f / sqrtf(2.0f);
    VX_ASSERT_VEC3_NEAR(b.min, -0.5f, -(s + 0.5f), -(s + 0.5f), EPS);
    VX_ASSERT_VEC3_NEAR(b.max, 0.5f, s + 0.5f, s + 0.5f, EPS);
}

/* ---- rigid bodies: constructors and mass rules ---- */

Test(rigidbody, dynamic_defaults_and_inv_mass)
{
    vx_rigidbody rb = vx_rigidbody_dynamic(2.0f);
    cr_assert_eq(rb.type, VX_BODY_DYNAMIC);
    cr_assert_eq(rb.mass, 2.0f);
    cr_assert_not(vx_rigidbody_is_static(&rb));
    cr_assert_eq(vx_rigidbody_inv_mass(&rb), 0.5f); /* 1/2 is exact in binary */
    VX_ASSERT_VEC3_NEAR(rb.velocity, 0.0f, 0.0f, 0.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(rb.angular_velocity, 0.0f, 0.0f, 0.0f, 0.0);
    cr_assert_eq(rb.restitution, 0.3f);
    cr_assert_eq(rb.friction, 0.5f);
    cr_assert_eq(rb.gravity_scale, 1.0f);
    cr_assert_eq(rb.linear_damping, 0.0f);
    cr_assert_eq(rb.angular_damping, 0.0f);
    cr_assert_not(rb.lock_rotation);
    cr_assert(rb.can_sleep);
    cr_assert_not(rb.bullet);
}

Test(rigidbody, inv_mass_is_reciprocal)
{
    vx_rigidbody rb = vx_rigidbody_dynamic(3.0f);
    VX_ASSERT_NEAR(vx_rigidbody_inv_mass(&rb), 1.0 / 3.0, 1e-7);
    rb = vx_rigidbody_dynamic(0.25f);
    cr_assert_eq(vx_rigidbody_inv_mass(&rb), 4.0f);
}

Test(rigidbody, static_body)
{
    vx_rigidbody rb = vx_rigidbody_static();
    cr_assert_eq(rb.type, VX_BODY_STATIC);
    cr_assert_eq(rb.mass, 0.0f);
    cr_assert_eq(vx_rigidbody_inv_mass(&rb), 0.0f);
    cr_assert(vx_rigidbody_is_static(&rb));
    cr_assert_eq(rb.gravity_scale, 0.0f);
    cr_assert_eq(rb.restitution, 0.3f);
    cr_assert_eq(rb.friction, 0.5f);
    VX_ASSERT_VEC3_NEAR(rb.velocity, 0.0f, 0.0f, 0.0f, 0.0);
}

Test(rigidbody, zero_mass_dynamic_is_static)
{
    /* The reference pipeline's rule: mass == 0 means static, infinite mass. */
    vx_rigidbody rb = vx_rigidbody_dynamic(0.0f);
    cr_assert(vx_rigidbody_is_static(&rb));
    cr_assert_eq(vx_rigidbody_inv_mass(&rb), 0.0f);
}

Test(rigidbody, kinematic_body)
{
    vx_rigidbody rb = vx_rigidbody_kinematic();
    cr_assert_eq(rb.type, VX_BODY_KINEMATIC);
    cr_assert_eq(rb.mass, 0.0f);
    cr_assert_eq(rb.gravity_scale, 0.0f);
    /* Infinite mass (pushed by nothing) but it moves, so it is not static. */
    cr_assert_eq(vx_rigidbody_inv_mass(&rb), 0.0f);
    cr_assert_not(vx_rigidbody_is_static(&rb));
    /* Even with a mass set, a kinematic body is never pushed. */
    rb.mass = 5.0f;
    cr_assert_eq(vx_rigidbody_inv_mass(&rb), 0.0f);
}

Test(collider, volume_of_each_shape)
{
    const double pi = 3.14159265358979323846;
    cr_assert_float_eq(vx_collider_volume(&(vx_collider){.type = VX_SHAPE_SPHERE, .radius = 2.0f}),
                       4.0 / 3.0 * pi * 8.0, 1e-5);
    vx_collider box = vx_collider_box(vx_vec3_make(1.0f, 2.0f, 3.0f));
    cr_assert_float_eq(vx_collider_volume(&box), 48.0, 1e-6);
    vx_collider capsule = vx_collider_capsule(0.5f, 2.0f);
    cr_assert_float_eq(vx_collider_volume(&capsule), pi * 0.25 * 4.0 + 4.0 / 3.0 * pi * 0.125, 1e-6);
}
