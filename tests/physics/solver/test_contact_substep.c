/* The substepped step (substeps > 1: contacts found once per step, the
 * solver per substep) against analytic results: free fall, a bounce of
 * restitution e rising to e^2 of the drop, a resting stack that stays put,
 * and the report's impulses summed over the substeps; and the separations a
 * relax found, reused by the next substep, give the bytes of finding them
 * again. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "physics/solver/contact_solver.h"
#include "test_helpers.h"
#include "voltex/physics.h"

static vx_entity spawn_floor(vx_registry *w)
{
    vx_collider shape = vx_collider_box(vx_vec3_make(20.0f, 1.0f, 20.0f));
    vx_rigidbody rb = vx_rigidbody_static();
    return vx_test_spawn_body(w, vx_vec3_make(0.0f, -1.0f, 0.0f), &shape, &rb); /* top at y = 0 */
}

/* No contact: 4 substeps of dt/4 are the discrete fall of 4k substeps,
 * v = -g t exactly in the limit of rounding, y = y0 - g t^2 (1 + 1/n) / 2. */
Test(physics_substeps, free_fall_matches_analytic)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider shape = vx_collider_sphere(0.5f);
    vx_rigidbody rb = vx_rigidbody_dynamic(2.0f);
    vx_entity ball = vx_test_spawn_body(w, vx_vec3_make(0.0f, 100.0f, 0.0f), &shape, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    s.cfg.substeps = 4;
    const double g = -(double)s.cfg.gravity.y, dt = (double)s.cfg.fixed_dt;
    for (int k = 1; k <= 60; k++) {
        vx_test_step(w, &s);
        double t = k * dt, n = 4.0 * k;
        VX_ASSERT_NEAR(vx_test_body(w, ball)->velocity.y, -g * t, 1e-4);
        VX_ASSERT_NEAR(vx_test_transform(w, ball)->position.y, 100.0 - 0.5 * g * t * t * (1.0 + 1.0 / n), 1e-3);
        cr_assert_eq(s.report.count, 0);
    }
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* A ball dropped 4.5 m with e = min(0.5, floor's) bounces once to e^2 of the
 * drop (within 15 %: impact and apex fall between steps), never sinks into
 * the floor, and comes to rest on it, pushed by m g dt per step. */
Test(physics_substeps, ball_drop_rebounds_to_e_squared)
{
    vx_registry *w = vx_test_physics_world();
    vx_entity floor = spawn_floor(w);
    vx_collider shape = vx_collider_sphere(0.5f);
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    rb.restitution = 0.5f;
    vx_entity ball = vx_test_spawn_body(w, vx_vec3_make(0.0f, 5.0f, 0.0f), &shape, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    s.cfg.substeps = 4;
    const double e = fmin(0.5, (double)vx_test_body(w, floor)->restitution);
    cr_assert_gt(e, 0.0);
    bool rising = false, apex_done = false;
    float apex = -INFINITY, lowest = INFINITY;
    for (int k = 0; k < 600; k++) {
        vx_test_step(w, &s);
        float y = vx_test_transform(w, ball)->position.y, vy = vx_test_body(w, ball)->velocity.y;
        lowest = fminf(lowest, y);
        if (!rising && vy > 0.0f) rising = true;
        if (rising && !apex_done) {
            apex = fmaxf(apex, y);
            if (vy < 0.0f) apex_done = true;
        }
    }
    cr_assert(apex_done, "the ball never bounced");
    VX_ASSERT_NEAR((double)apex - 0.5, e * e * 4.5, 0.15 * e * e * 4.5);
    cr_assert_gt(lowest, 0.5f - 2e-3f, "sank %g into the floor", (double)(0.5f - lowest));
    VX_ASSERT_NEAR(vx_test_transform(w, ball)->position.y, 0.5, 0.01);
    cr_assert_lt(fabsf(vx_test_body(w, ball)->velocity.y), 1e-3f);
    int points = 0;
    float impulse = vx_test_pair_impulse(&s, floor, ball, &points);
    cr_assert_eq(points, 1);
    VX_ASSERT_NEAR(impulse, -(double)s.cfg.gravity.y * (double)s.cfg.fixed_dt, 1e-3);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* Ten unit boxes of 1 kg stacked on the floor stand for 5 s: every box stays
 * within 2 cm of its place and its orientation, and the floor carries the
 * whole stack's weight, 10 m g dt per step, summed over the substeps. */
Test(physics_substeps, ten_box_stack_stands)
{
    vx_registry *w = vx_test_physics_world();
    vx_entity floor = spawn_floor(w);
    vx_collider shape = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_entity boxes[10];
    for (int i = 0; i < 10; i++) {
        vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
        boxes[i] = vx_test_spawn_body(w, vx_vec3_make(0.0f, 0.5f + (float)i, 0.0f), &shape, &rb);
    }
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    s.cfg.substeps = 4;
    s.cfg.iterations = 2;
    s.cfg.position_iterations = 0;
    for (int k = 0; k < 300; k++) vx_test_step(w, &s);
    for (int i = 0; i < 10; i++) {
        const vx_transform *t = vx_test_transform(w, boxes[i]);
        VX_ASSERT_VEC3_NEAR(t->position, 0.0f, 0.5f + (float)i, 0.0f, 0.02);
        cr_assert_gt(fabsf(t->rotation.w), 0.9999f, "box %d turned", i);
        cr_assert_lt(vx_vec3_length(vx_test_body(w, boxes[i])->velocity), 1e-2f, "box %d moves", i);
    }
    int points = 0;
    float impulse = vx_test_pair_impulse(&s, floor, boxes[0], &points);
    cr_assert_eq(points, 4);
    double weight = 10.0 * -(double)s.cfg.gravity.y * (double)s.cfg.fixed_dt;
    VX_ASSERT_NEAR(impulse, weight, 0.02 * weight);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* Two substep counts agree on a resting box's support: the report sums the
 * substeps' impulses to m g dt either way. */
Test(physics_substeps, resting_impulse_independent_of_substeps)
{
    for (int n = 2; n <= 8; n *= 2) {
        vx_registry *w = vx_test_physics_world();
        vx_entity floor = spawn_floor(w);
        vx_collider shape = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
        vx_rigidbody rb = vx_rigidbody_dynamic(3.0f);
        vx_entity box = vx_test_spawn_body(w, vx_vec3_make(0.0f, 0.5f, 0.0f), &shape, &rb);
        vx_test_stepper s;
        vx_test_stepper_init(&s);
        s.cfg.substeps = n;
        for (int k = 0; k < 60; k++) vx_test_step(w, &s);
        int points = 0;
        float impulse = vx_test_pair_impulse(&s, floor, box, &points);
        cr_assert_eq(points, 4, "substeps %d", n);
        VX_ASSERT_NEAR(impulse, 3.0 * -(double)s.cfg.gravity.y * (double)s.cfg.fixed_dt, 1e-3);
        VX_ASSERT_VEC3_NEAR(vx_test_transform(w, box)->position, 0.0f, 0.5f, 0.0f, 2e-3);
        vx_test_stepper_free(&s);
        vx_registry_destroy(w);
    }
}

/* ---- the relax's separations reused by the next substep ---- */

/* A pyramid of 6 boxes and three boxes tumbling onto it: poses that move
 * and turn between substeps. */
static void spawn_tumbling_pile(vx_registry *w, vx_entity *e, int *n)
{
    *n = 0;
    e[(*n)++] = spawn_floor(w);
    vx_collider shape = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    for (int row = 0; row < 3; row++)
        for (int i = 0; i < 3 - row; i++) {
            vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
            float x = (float)i * 1.02f - 1.02f + (float)row * 0.51f;
            e[(*n)++] = vx_test_spawn_body(w, vx_vec3_make(x, 0.5f + (float)row, 0.0f), &shape, &rb);
        }
    for (int k = 0; k < 3; k++) {
        vx_rigidbody rb = vx_rigidbody_dynamic(2.0f);
        rb.velocity = vx_vec3_make(0.5f * (float)(k - 1), -2.0f, 0.3f);
        rb.angular_velocity = vx_vec3_make(3.0f, (float)k, -2.0f);
        e[(*n)++] = vx_test_spawn_body(w, vx_vec3_make(0.3f * (float)k - 0.3f, 4.0f + 1.2f * (float)k, 0.2f),
                                       &shape, &rb);
    }
}

/* With no position pass between substeps, a substep's targets use the
 * separations its previous relax found from the same poses; finding them
 * again must give the same bytes, step after step. */
Test(physics_substeps, reusing_the_relax_separations_changes_no_byte)
{
    vx_registry *w[2];
    vx_entity e[2][16];
    vx_test_stepper s[2];
    int n = 0;
    for (int r = 0; r < 2; r++) {
        w[r] = vx_test_physics_world();
        spawn_tumbling_pile(w[r], e[r], &n);
        vx_test_stepper_init(&s[r]);
        s[r].cfg.substeps = 4;
        s[r].cfg.iterations = 1;
        s[r].cfg.position_iterations = 0;
    }
    vx_step_tuning_of(&s[0].state)->reuse_separations = false;
    size_t contacts = 0;
    for (int k = 0; k < 120; k++) {
        vx_test_step(w[0], &s[0]);
        vx_test_step(w[1], &s[1]);
        contacts += s[0].report.count;
        for (int i = 0; i < n; i++) {
            cr_assert(memcmp(vx_test_transform(w[0], e[0][i]), vx_test_transform(w[1], e[1][i]),
                             sizeof(vx_transform)) == 0,
                      "step %d: entity %d's pose differs", k, i);
            const vx_rigidbody *a = vx_registry_get(w[0], e[0][i], VX_COMPONENT_RIGIDBODY);
            const vx_rigidbody *b = vx_registry_get(w[1], e[1][i], VX_COMPONENT_RIGIDBODY);
            cr_assert(memcmp(a, b, sizeof *a) == 0, "step %d: entity %d's velocity differs", k, i);
        }
        cr_assert_eq(s[0].report.count, s[1].report.count, "step %d", k);
        for (size_t c = 0; c < s[0].report.count; c++)
            cr_assert(memcmp(&s[0].report.items[c], &s[1].report.items[c], sizeof(vx_contact)) == 0,
                      "step %d: contact %zu differs", k, c);
    }
    cr_assert_gt(contacts, (size_t)120 * 8u, "the pile should be in contact most of the run");
    for (int r = 0; r < 2; r++) {
        vx_test_stepper_free(&s[r]);
        vx_registry_destroy(w[r]);
    }
}
