/* The fixed step end to end: a ball
 * falls onto a static floor, bounces with the pair's restitution and comes to
 * rest on it; the step's contact report. */
#include <criterion/criterion.h>
#include <math.h>

#include "test_helpers.h"
#include "voltex/physics.h"

#define BALL_RADIUS 0.5f
#define DROP_Y 5.0f /* ball centre at the start; the floor top is at y = 0 */

typedef struct {
    vx_registry *world;
    vx_entity ball;
    vx_entity floor;
} drop_scene;

/* The interface's ball_drop scene: floor box top at y = 0, ball restitution
 * 0.5 against the floor's 0.3, so the pair uses e = 0.3. */
static drop_scene make_drop_scene(void)
{
    drop_scene s;
    s.world = vx_test_physics_world();
    vx_collider floor_shape = vx_collider_box(vx_vec3_make(10.0f, 1.0f, 10.0f));
    vx_rigidbody floor_rb = vx_rigidbody_static();
    s.floor = vx_test_spawn_body(s.world, vx_vec3_make(0.0f, -1.0f, 0.0f), &floor_shape, &floor_rb);
    vx_collider ball_shape = vx_collider_sphere(BALL_RADIUS);
    vx_rigidbody ball_rb = vx_rigidbody_dynamic(1.0f);
    ball_rb.restitution = 0.5f;
    s.ball = vx_test_spawn_body(s.world, vx_vec3_make(0.0f, DROP_Y, 0.0f), &ball_shape, &ball_rb);
    return s;
}

/* The report's contact between the ball and the floor, or NULL. */
static const vx_contact *find_floor_contact(const vx_contact_list *report, const drop_scene *s)
{
    for (size_t i = 0; i < report->count; i++) {
        const vx_contact *c = &report->items[i];
        bool ab = vx_entity_equal(c->entity_a, s->ball) && vx_entity_equal(c->entity_b, s->floor);
        bool ba = vx_entity_equal(c->entity_a, s->floor) && vx_entity_equal(c->entity_b, s->ball);
        if (ab || ba) return c;
    }
    return NULL;
}

Test(step, spec_ball_falls_and_stays_above_floor)
{
    drop_scene s = make_drop_scene();
    vx_world_def cfg = vx_world_def_default();
    vx_step_state state;
    vx_step_state_init(&state);
    vx_contact_list report;
    vx_contact_list_init(&report);
    for (int i = 0; i < 10; i++) cr_assert_eq(vx_step(s.world, &cfg, &state, &report), VX_OK);
    float y = vx_test_transform(s.world, s.ball)->position.y;
    cr_assert_lt(y, DROP_Y);
    cr_assert_gt(y, -1.0f);
    cr_assert_eq(report.count, 0); /* still in the air */
    vx_contact_list_free(&report);
    vx_step_state_free(&state);
    vx_registry_destroy(s.world);
}

/* Drops the ball for 10 s with `substeps` per step and checks the bounce,
 * the rebound height, the report at impact and the final rest. */
static void check_ball_drop(int substeps)
{
    drop_scene s = make_drop_scene();
    vx_world_def cfg = vx_world_def_default();
    cfg.substeps = substeps;
    vx_step_state state;
    vx_step_state_init(&state);
    vx_contact_list report;
    vx_contact_list_init(&report);

    const float g = -cfg.gravity.y;
    const double e = 0.3; /* min(0.5, 0.3) */
    int impact_step = -1;
    bool rising = false, apex_done = false;
    float apex = -INFINITY, lowest = INFINITY;
    for (int k = 1; k <= 600; k++) {
        float vy_before = vx_test_body(s.world, s.ball)->velocity.y;
        cr_assert_eq(vx_step(s.world, &cfg, &state, &report), VX_OK);
        const vx_rigidbody *rb = vx_test_body(s.world, s.ball);
        const vx_transform *t = vx_test_transform(s.world, s.ball);
        lowest = fminf(lowest, t->position.y);
        const vx_contact *c = find_floor_contact(&report, &s);
        cr_assert_leq(report.count, 1, "step %d: %zu contacts for one sphere on one face", k, report.count);

        if (impact_step < 0 && c) {
            impact_step = k;
            /* The first contact is made ahead of time (speculative): it lets
             * the ball fall exactly onto the floor's surface, no further ... */
            cr_assert_geq(t->position.y, BALL_RADIUS - 1e-4f, "step %d: y = %g", k, (double)t->position.y);
            cr_assert_gt(c->impulse, 0.0f);
            cr_assert_not(c->sensor);
            /* ... with an impulse of m * dv: the velocity before the solver
             * is what gravity made of vy_before (impact in the last
             * substep or not, the sum over substeps is m * total dv). */
            double dv = (double)rb->velocity.y - ((double)vy_before - (double)g * (double)cfg.fixed_dt);
            VX_ASSERT_NEAR(c->impulse, 1.0 * dv, 1e-4 * dv);
        }
        if (impact_step > 0 && !rising) {
            /* ... and the bounce, from the surface, follows within a step. */
            cr_assert_leq(k, impact_step + 1, "step %d: no bounce since the contact at step %d", k, impact_step);
            if (rb->velocity.y > 0.0f) {
                cr_assert_not_null(c, "step %d: the ball bounced without a contact", k);
                cr_assert_gt(c->impulse, 0.0f);
                rising = true;
            }
        }
        if (rising && !apex_done) {
            apex = fmaxf(apex, t->position.y);
            if (rb->velocity.y < 0.0f) apex_done = true;
            if (apex_done) cr_assert_eq(report.count, 0, "step %d: the ball left the floor", k);
        }
    }
    cr_assert_gt(impact_step, 0, "the ball never reached the floor");
    /* Free fall of 4.5 m takes about 0.96 s = 57 steps. */
    cr_assert(impact_step >= 55 && impact_step <= 60, "impact at step %d", impact_step);
    cr_assert(apex_done);

    /* The rebound: speed e v, height e^2 of the 4.5 m drop (within 15 %:
     * impact and apex fall between steps). */
    double drop = (double)(DROP_Y - BALL_RADIUS);
    double rebound = (double)apex - (double)BALL_RADIUS;
    VX_ASSERT_NEAR(rebound, e * e * drop, 0.15 * e * e * drop);
    cr_assert_gt(lowest, BALL_RADIUS - 1e-3f, "fell %g into the floor", (double)(BALL_RADIUS - lowest));

    /* At rest after 10 s: still, on the floor within 2 cm, no sideways drift. */
    const vx_rigidbody *rb = vx_test_body(s.world, s.ball);
    const vx_transform *t = vx_test_transform(s.world, s.ball);
    cr_assert_lt(fabsf(rb->velocity.y), 1e-3f, "vy = %g", (double)rb->velocity.y);
    VX_ASSERT_NEAR(t->position.y, BALL_RADIUS, 0.02);
    cr_assert_eq(t->position.x, 0.0f);
    cr_assert_eq(t->position.z, 0.0f);
    cr_assert_eq(rb->velocity.x, 0.0f);
    cr_assert_eq(rb->velocity.z, 0.0f);
    /* Resting means in contact, pushed by the floor just enough each step:
     * the impulse of one step's gravity, m g dt. */
    const vx_contact *c = find_floor_contact(&report, &s);
    cr_assert_not_null(c);
    VX_ASSERT_NEAR(c->impulse, (double)g * (double)cfg.fixed_dt, 1e-3);
    /* and the floor never moved */
    VX_ASSERT_VEC3_NEAR(vx_test_transform(s.world, s.floor)->position, 0.0f, -1.0f, 0.0f, 0.0);

    vx_contact_list_free(&report);
    vx_step_state_free(&state);
    vx_registry_destroy(s.world);
}

Test(step, ball_drop_bounces_and_rests) { check_ball_drop(1); }

Test(step, ball_drop_with_four_substeps) { check_ball_drop(4); }

/* With one substep a free body follows the reference integrator bit for bit. */
Test(step, one_substep_is_the_reference_step)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider shape = vx_collider_sphere(0.5f);
    vx_rigidbody rb = vx_rigidbody_dynamic(2.0f);
    rb.velocity = vx_vec3_make(1.5f, 2.0f, -0.5f);
    vx_entity e = vx_test_spawn_body(w, vx_vec3_make(0.25f, 3.0f, 1.0f), &shape, &rb);
    vx_world_def cfg = vx_world_def_default();
    vx_step_state state;
    vx_step_state_init(&state);
    vx_contact_list report;
    vx_contact_list_init(&report);

    vx_vec3 v = rb.velocity, x = vx_vec3_make(0.25f, 3.0f, 1.0f);
    for (int k = 0; k < 120; k++) {
        cr_assert_eq(vx_step(w, &cfg, &state, &report), VX_OK);
        v = vx_vec3_add(v, vx_vec3_scale(vx_vec3_scale(cfg.gravity, 1.0f), cfg.fixed_dt));
        x = vx_vec3_add(x, vx_vec3_scale(v, cfg.fixed_dt));
        vx_vec3 pv = vx_test_body(w, e)->velocity, px = vx_test_transform(w, e)->position;
        cr_assert(pv.x == v.x && pv.y == v.y && pv.z == v.z, "step %d velocity", k);
        cr_assert(px.x == x.x && px.y == x.y && px.z == x.z, "step %d position", k);
    }
    vx_contact_list_free(&report);
    vx_step_state_free(&state);
    vx_registry_destroy(w);
}

/* Substeps divide the step: a free fall with 4 substeps of dt/4 is the
 * discrete fall of 4k substeps: v = -g t, y = y0 - g t^2 (1 + 1/n) / 2 with
 * n = 4k substeps at time t. */
Test(step, substeps_divide_the_step)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    vx_entity e = vx_test_spawn_body(w, vx_vec3_make(0.0f, 10.0f, 0.0f), NULL, &rb);
    vx_world_def cfg = vx_world_def_default();
    cfg.substeps = 4;
    vx_step_state state;
    vx_step_state_init(&state);
    vx_contact_list report;
    vx_contact_list_init(&report);
    for (int k = 0; k < 60; k++) cr_assert_eq(vx_step(w, &cfg, &state, &report), VX_OK);
    double g = 9.81, t = 60.0 * (double)cfg.fixed_dt, n = 240.0;
    VX_ASSERT_NEAR(vx_test_body(w, e)->velocity.y, -g * t, 1e-4);
    VX_ASSERT_NEAR(vx_test_transform(w, e)->position.y, 10.0 - g * t * t * (1.0 + 1.0 / n) / 2.0, 1e-4);
    vx_contact_list_free(&report);
    vx_step_state_free(&state);
    vx_registry_destroy(w);
}

Test(step, invalid_substeps_rejected)
{
    vx_registry *w = vx_test_physics_world();
    vx_world_def cfg = vx_world_def_default();
    cfg.substeps = 0;
    vx_step_state state;
    vx_step_state_init(&state);
    vx_contact_list report;
    vx_contact_list_init(&report);
    cr_assert_eq(vx_step(w, &cfg, &state, &report), VX_ERR_INVALID);
    /* a step of no time, negative or NaN time is no step either */
    const float bad_dt[3] = {0.0f, -0.01f, NAN};
    cfg.substeps = 1;
    for (int i = 0; i < 3; i++) {
        cfg.fixed_dt = bad_dt[i];
        cr_assert_eq(vx_step(w, &cfg, &state, &report), VX_ERR_INVALID);
    }
    vx_contact_list_free(&report);
    vx_step_state_free(&state);
    vx_registry_destroy(w);
}

/* The report is sorted by (entity_a, entity_b, feature), holds each point
 * once even when several substeps find it, and is cleared every step. */
Test(step, report_sorted_merged_and_cleared)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider floor_shape = vx_collider_box(vx_vec3_make(20.0f, 1.0f, 20.0f));
    vx_rigidbody floor_rb = vx_rigidbody_static();
    vx_entity floor = vx_test_spawn_body(w, vx_vec3_make(0.0f, -1.0f, 0.0f), &floor_shape, &floor_rb);
    vx_collider ball_shape = vx_collider_sphere(0.5f);
    vx_entity balls[3];
    for (int i = 0; i < 3; i++) {
        vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
        /* resting slightly inside the floor */
        balls[i] = vx_test_spawn_body(w, vx_vec3_make(3.0f * (float)i, 0.49f, 0.0f), &ball_shape, &rb);
    }
    vx_world_def cfg = vx_world_def_default();
    cfg.substeps = 4;
    vx_step_state state;
    vx_step_state_init(&state);
    vx_contact_list report;
    vx_contact_list_init(&report);
    cr_assert_eq(vx_step(w, &cfg, &state, &report), VX_OK);
    cr_assert_eq(report.count, 3);
    for (size_t i = 0; i < 3; i++) {
        const vx_contact *c = &report.items[i];
        cr_assert(vx_entity_equal(c->entity_a, floor));
        cr_assert(vx_entity_equal(c->entity_b, balls[i]));
        /* each of the 4 substeps stopped the fall of its dt/4: m g dt in sum */
        VX_ASSERT_NEAR(c->impulse, 9.81 / 60.0, 1e-5);
    }

    /* Launched upwards, the balls leave the floor: the next report is empty. */
    for (int i = 0; i < 3; i++) vx_test_body(w, balls[i])->velocity = vx_vec3_make(0.0f, 5.0f, 0.0f);
    cr_assert_eq(vx_step(w, &cfg, &state, &report), VX_OK);
    cr_assert_eq(report.count, 0);
    vx_contact_list_free(&report);
    vx_step_state_free(&state);
    vx_registry_destroy(w);
}
