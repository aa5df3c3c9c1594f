/* The manifold's friction (patch friction: tangents at the centre of the
 * points, a twist about the normal) against physics a wrong twist or a
 * wrong limit would break: a unit cube spinning flat on the floor stops at
 * the angular deceleration its four corners' friction gives, mu m g r / I
 * with r the corners' distance from the face's centre (sqrt(1/2) m) and
 * I = m / 6: 6 sqrt(1/2) mu g; and one sliding while it spins keeps
 * sliding straight (the twist pushes no sideways force). */
#include <criterion/criterion.h>
#include <math.h>

#include "test_world_helpers.h"

#define G 9.81f
#define MU 0.5f

static vx_world *cube_on_floor(vx_vec3 v, vx_vec3 w, vx_entity *cube)
{
    vx_world_def def = vx_world_def_default();
    vx_error err;
    vx_world *world = vx_world_create(&def, &err);
    cr_assert_not_null(world, "%s", err.message);
    vx_body_def floor = vx_body_def_default();
    floor.type = VX_BODY_STATIC;
    floor.position = vx_vec3_make(0, -1, 0);
    floor.friction = MU;
    vx_test_add_body(world, &floor, vx_collider_box(vx_vec3_make(20, 1, 20)));
    vx_body_def d = vx_body_def_default();
    d.position = vx_vec3_make(0, 0.5f, 0);
    d.velocity = v;
    d.angular_velocity = w;
    d.mass = 1.0f;
    d.friction = MU;
    *cube = vx_test_add_body(world, &d, vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f)));
    return world;
}

Test(patch_friction, a_spinning_cube_stops_at_the_corners_friction_torque)
{
    vx_entity cube;
    vx_world *w = cube_on_floor(vx_vec3_zero(), vx_vec3_make(0, 8, 0), &cube);
    vx_error err;
    /* settle the contact (the first steps make the manifold and its load) */
    for (int k = 0; k < 3; k++) cr_assert_eq(vx_world_step(w, &err), VX_OK, "%s", err.message);
    float w0 = vx_test_state_of(w, cube).w.y;
    int steps = 0;
    float w1 = w0;
    while (steps < 10) { /* 10 steps = 1/6 s, about 3.5 of the 8 rad/s: it still spins */
        cr_assert_eq(vx_world_step(w, &err), VX_OK, "%s", err.message);
        w1 = vx_test_state_of(w, cube).w.y;
        steps++;
    }
    cr_assert_gt(w1, 1.0f, "still spinning at the end of the window: %g", (double)w1);
    double alpha = (double)(w0 - w1) / (steps / 60.0);
    double expected = 6.0 * sqrt(0.5) * MU * G;
    cr_log_info("spin deceleration %.4f rad/s^2, corners' friction %.4f", alpha, expected);
    cr_assert(fabs(alpha - expected) < 0.02 * expected, "spin decelerates at %g rad/s^2, expected %g", alpha,
              expected);
    for (int k = 0; k < 60; k++) cr_assert_eq(vx_world_step(w, &err), VX_OK, "%s", err.message);
    vx_body_state s = vx_test_state_of(w, cube);
    cr_assert_lt(fabsf(s.w.y), 1e-3f, "then it stops: %g rad/s", (double)s.w.y);
    cr_assert_lt(vx_vec3_length(vx_vec3_make(s.p.x, 0, s.p.z)), 1e-3f, "on the spot");
    vx_world_destroy(w);
}

Test(patch_friction, a_cube_sliding_and_spinning_slides_straight)
{
    vx_entity cube;
    vx_world *w = cube_on_floor(vx_vec3_make(3, 0, 0), vx_vec3_make(0, 4, 0), &cube);
    vx_error err;
    for (int k = 0; k < 30; k++) cr_assert_eq(vx_world_step(w, &err), VX_OK, "%s", err.message);
    vx_body_state s = vx_test_state_of(w, cube);
    cr_assert_lt(fabsf(s.p.z), 1e-3f * fabsf(s.p.x), "slides along x: z %g after x %g", (double)s.p.z,
                 (double)s.p.x);
    cr_assert_lt(fabsf(s.v.z), 1e-3f, "no sideways speed: %g", (double)s.v.z);
    vx_world_destroy(w);
}
