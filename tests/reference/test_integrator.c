/* The reference pipeline's semi-implicit Euler (reference/integrator.c),
 * checked against the analytic solution of the discrete scheme. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>

#include "test_helpers.h"
#include "voltex/physics.h"
#include "voltex/reference.h"

static const double PI = 3.14159265358979323846;

/* One body with only a transform and a rigid body (no collider). */
static vx_entity spawn(vx_registry *w, vx_vec3 position, vx_rigidbody rb)
{
    return vx_test_spawn_body(w, position, NULL, &rb);
}

Test(integrator, gravity_fall_one_frame)
{
    vx_registry *w = vx_test_physics_world();
    vx_entity e = spawn(w, vx_vec3_make(0.0f, 10.0f, 0.0f), vx_rigidbody_dynamic(1.0f));
    vx_world_def cfg = vx_world_def_default();
    vx_integrate(w, &cfg, cfg.fixed_dt);

    const vx_rigidbody *rb = vx_test_body(w, e);
    const vx_transform *t = vx_test_transform(w, e);
    /* v = -9.81/60, y = 10 + v/60 (to float precision) */
    VX_ASSERT_NEAR(rb->velocity.y, -9.81 / 60.0, 1e-6);
    VX_ASSERT_NEAR(t->position.y, 10.0 - 9.81 / 3600.0, 1e-6);
    /* and bit for bit the float step: v += g*scale*dt; y += v*dt */
    float v = 0.0f + (-9.81f * 1.0f) * cfg.fixed_dt;
    cr_assert_eq(rb->velocity.y, v);
    cr_assert_eq(t->position.y, 10.0f + v * cfg.fixed_dt);
    cr_assert_eq(rb->velocity.x, 0.0f);
    cr_assert_eq(rb->velocity.z, 0.0f);
    cr_assert_eq(t->position.x, 0.0f);
    cr_assert_eq(t->position.z, 0.0f);
    vx_registry_destroy(w);
}

Test(integrator, static_body_unchanged)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody s = vx_rigidbody_static();
    s.gravity_scale = 1.0f; /* even with gravity enabled, static never moves */
    vx_entity e = spawn(w, vx_vec3_make(0.0f, 5.0f, 0.0f), s);
    vx_entity zero_mass = spawn(w, vx_vec3_make(1.0f, 2.0f, 3.0f), vx_rigidbody_dynamic(0.0f));
    vx_world_def cfg = vx_world_def_default();
    for (int i = 0; i < 10; i++) vx_integrate(w, &cfg, cfg.fixed_dt);

    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, e)->position, 0.0f, 5.0f, 0.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, e)->velocity, 0.0f, 0.0f, 0.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, zero_mass)->position, 1.0f, 2.0f, 3.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, zero_mass)->velocity, 0.0f, 0.0f, 0.0f, 0.0);
    vx_registry_destroy(w);
}

Test(integrator, initial_velocity_without_gravity)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    rb.velocity = vx_vec3_make(5.0f, 0.0f, 0.0f);
    rb.gravity_scale = 0.0f;
    vx_entity e = spawn(w, vx_vec3_zero(), rb);
    vx_world_def cfg = vx_world_def_default();
    vx_integrate(w, &cfg, cfg.fixed_dt);

    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, e)->position, 5.0 / 60.0, 0.0f, 0.0f, 1e-7);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, e)->velocity, 5.0f, 0.0f, 0.0f, 0.0);
    vx_registry_destroy(w);
}

Test(integrator, kinematic_moves_at_its_velocity_without_gravity)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody rb = vx_rigidbody_kinematic();
    rb.velocity = vx_vec3_make(1.0f, 2.0f, -3.0f);
    rb.gravity_scale = 1.0f; /* ignored: kinematic bodies feel no gravity */
    vx_entity e = spawn(w, vx_vec3_make(0.0f, 1.0f, 0.0f), rb);
    vx_world_def cfg = vx_world_def_default();
    for (int i = 0; i < 60; i++) vx_integrate(w, &cfg, cfg.fixed_dt);

    VX_ASSERT_VEC3_NEAR(vx_test_body(w, e)->velocity, 1.0f, 2.0f, -3.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, e)->position, 1.0, 3.0, -3.0, 1e-5); /* one second */
    vx_registry_destroy(w);
}

Test(integrator, gravity_scale_zero_and_two)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody floating = vx_rigidbody_dynamic(1.0f);
    floating.gravity_scale = 0.0f;
    vx_rigidbody heavy = vx_rigidbody_dynamic(1.0f);
    heavy.gravity_scale = 2.0f;
    vx_entity a = spawn(w, vx_vec3_make(0.0f, 3.0f, 0.0f), floating);
    vx_entity b = spawn(w, vx_vec3_make(0.0f, 3.0f, 0.0f), heavy);
    vx_world_def cfg = vx_world_def_default();
    vx_integrate(w, &cfg, cfg.fixed_dt);

    VX_ASSERT_VEC3_NEAR(vx_test_body(w, a)->velocity, 0.0f, 0.0f, 0.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, a)->position, 0.0f, 3.0f, 0.0f, 0.0);
    VX_ASSERT_NEAR(vx_test_body(w, b)->velocity.y, -2.0 * 9.81 / 60.0, 1e-6);
    VX_ASSERT_NEAR(vx_test_transform(w, b)->position.y, 3.0 - 2.0 * 9.81 / 3600.0, 1e-6);
    vx_registry_destroy(w);
}

/* Implicit linear damping: v_k = v_0 / (1 + c dt)^k, x advances by each new v. */
Test(integrator, linear_damping_formula)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    rb.velocity = vx_vec3_make(4.0f, 0.0f, 0.0f);
    rb.gravity_scale = 0.0f;
    rb.linear_damping = 2.0f;
    vx_entity e = spawn(w, vx_vec3_zero(), rb);
    vx_world_def cfg = vx_world_def_default();
    double dt = cfg.fixed_dt, v = 4.0, x = 0.0;
    for (int k = 1; k <= 120; k++) {
        vx_integrate(w, &cfg, cfg.fixed_dt);
        v /= 1.0 + 2.0 * dt;
        x += v * dt;
        VX_ASSERT_NEAR(vx_test_body(w, e)->velocity.x, v, 1e-5 * v);
        VX_ASSERT_NEAR(vx_test_transform(w, e)->position.x, x, 1e-5 * x);
    }
    /* Two seconds at c = 2/s: (1 + 1/30)^-120 of the start, about e^-3.9 */
    VX_ASSERT_NEAR(vx_test_body(w, e)->velocity.x, 4.0 * pow(1.0 + 2.0 / 60.0, -120.0), 1e-5);
    vx_registry_destroy(w);
}

/* The discrete free fall has a closed form: v_k = -g k dt and
 * y_k = y0 - g dt^2 k (k + 1) / 2 (each step adds the new velocity).
 * Tolerance: v_k is the sum of k equal float increments, each addition
 * rounding by at most eps/2 relative, plus the increment's own rounding, so
 * |error| <= (k + 1) eps |v_k|; y_k carries one rounding of y per step plus
 * the velocity error times dt, so |error| <= 2 (k + 1) eps (|y0| + |y_k - y0|).
 * The reference is computed in double from the float values of g and dt. */
Test(integrator, analytic_free_fall_600_steps)
{
    vx_registry *w = vx_test_physics_world();
    const float y0f = 100.0f;
    vx_entity e = spawn(w, vx_vec3_make(0.0f, y0f, 0.0f), vx_rigidbody_dynamic(1.0f));
    vx_world_def cfg = vx_world_def_default();
    const double g = -(double)cfg.gravity.y; /* 9.81 as stored */
    const double dt = (double)cfg.fixed_dt;
    const double eps = FLT_EPSILON;
    for (int k = 1; k <= 600; k++) {
        vx_integrate(w, &cfg, cfg.fixed_dt);
        double v = -g * (double)k * dt;
        double fall = g * dt * dt * (double)k * (double)(k + 1) / 2.0;
        double y = (double)y0f - fall;
        double tol_v = (double)(k + 1) * eps * fabs(v);
        double tol_y = 2.0 * (double)(k + 1) * eps * ((double)y0f + fall);
        const vx_rigidbody *rb = vx_test_body(w, e);
        const vx_transform *t = vx_test_transform(w, e);
        cr_assert(fabs((double)rb->velocity.y - v) <= tol_v, "step %d: vy = %.9g, expected %.9g +- %g", k,
                  (double)rb->velocity.y, v, tol_v);
        cr_assert(fabs((double)t->position.y - y) <= tol_y, "step %d: y = %.9g, expected %.9g +- %g", k,
                  (double)t->position.y, y, tol_y);
        cr_assert_eq(t->position.x, 0.0f);
        cr_assert_eq(t->position.z, 0.0f);
    }
    /* After 10 s: v = -98.1 m/s, y = 100 - 9.81 * 600 * 601 / 7200 = -391.2 m */
    VX_ASSERT_NEAR(vx_test_body(w, e)->velocity.y, -98.1, 1e-3);
    VX_ASSERT_NEAR(vx_test_transform(w, e)->position.y, 100.0 - 9.81 * 600.0 * 601.0 / 7200.0, 1e-2);
    vx_registry_destroy(w);
}

/* Rotation about a fixed axis: each step multiplies q by the normalised
 * (dt/2 w, 1), a rotation of exactly 2 atan(|w| dt / 2), so after k steps the
 * angle is 2 k atan(|w| dt / 2) (slightly less than |w| k dt). */
Test(integrator, angular_velocity_rotates_about_its_axis)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    rb.gravity_scale = 0.0f;
    rb.angular_velocity = vx_vec3_make(0.0f, 0.0f, (float)PI);
    vx_entity e = spawn(w, vx_vec3_zero(), rb);
    vx_world_def cfg = vx_world_def_default();
    for (int i = 0; i < 60; i++) vx_integrate(w, &cfg, cfg.fixed_dt);

    double angle = 2.0 * 60.0 * atan(PI * (double)cfg.fixed_dt / 2.0);
    const vx_quat q = vx_test_transform(w, e)->rotation;
    VX_ASSERT_NEAR(q.x, 0.0, 1e-6);
    VX_ASSERT_NEAR(q.y, 0.0, 1e-6);
    VX_ASSERT_NEAR(q.z, sin(angle / 2.0), 1e-5);
    VX_ASSERT_NEAR(q.w, cos(angle / 2.0), 1e-5);
    VX_ASSERT_NEAR(vx_quat_length(q), 1.0, 1e-6);
    VX_ASSERT_NEAR(angle, PI, 2e-3); /* close to half a turn after one second */
    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, e)->position, 0.0f, 0.0f, 0.0f, 0.0);
    vx_registry_destroy(w);
}

Test(integrator, orientation_bit_identical_without_spin)
{
    vx_registry *w = vx_test_physics_world();
    vx_quat q0 = vx_quat_normalize(vx_quat_make(0.1f, 0.2f, 0.3f, 0.9f));
    vx_rigidbody still = vx_rigidbody_dynamic(1.0f);
    vx_rigidbody locked = vx_rigidbody_dynamic(1.0f);
    locked.angular_velocity = vx_vec3_make(1.0f, 2.0f, 3.0f);
    locked.lock_rotation = true;
    vx_rigidbody fixed = vx_rigidbody_static();
    fixed.angular_velocity = vx_vec3_make(1.0f, 0.0f, 0.0f);
    vx_entity es[3] = {spawn(w, vx_vec3_zero(), still), spawn(w, vx_vec3_zero(), locked),
                       spawn(w, vx_vec3_zero(), fixed)};
    for (int i = 0; i < 3; i++) vx_test_transform(w, es[i])->rotation = q0;
    vx_world_def cfg = vx_world_def_default();
    for (int i = 0; i < 30; i++) vx_integrate(w, &cfg, cfg.fixed_dt);

    for (int i = 0; i < 3; i++) {
        vx_quat q = vx_test_transform(w, es[i])->rotation;
        cr_assert(q.x == q0.x && q.y == q0.y && q.z == q0.z && q.w == q0.w, "body %d rotated", i);
    }
    vx_registry_destroy(w);
}

Test(integrator, kinematic_rotates_and_angular_damping_slows_dynamic)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody k = vx_rigidbody_kinematic();
    k.angular_velocity = vx_vec3_make(0.0f, 1.0f, 0.0f);
    vx_rigidbody d = vx_rigidbody_dynamic(1.0f);
    d.gravity_scale = 0.0f;
    d.angular_velocity = vx_vec3_make(0.0f, 1.0f, 0.0f);
    d.angular_damping = 3.0f;
    vx_entity ek = spawn(w, vx_vec3_zero(), k);
    vx_entity ed = spawn(w, vx_vec3_zero(), d);
    vx_world_def cfg = vx_world_def_default();
    vx_integrate(w, &cfg, cfg.fixed_dt);

    double dt = (double)cfg.fixed_dt;
    VX_ASSERT_NEAR(vx_test_body(w, ek)->angular_velocity.y, 1.0, 0.0); /* kinematic: undamped, unchanged */
    VX_ASSERT_NEAR(vx_test_transform(w, ek)->rotation.y, sin(atan(dt / 2.0)), 1e-7);
    double wd = 1.0 / (1.0 + 3.0 * dt);
    VX_ASSERT_NEAR(vx_test_body(w, ed)->angular_velocity.y, wd, 1e-7);
    VX_ASSERT_NEAR(vx_test_transform(w, ed)->rotation.y, sin(atan(wd * dt / 2.0)), 1e-7);
    vx_registry_destroy(w);
}
