/* Islands and sleeping through vx_step (docs/simulation.md;
 * src/physics/sleep.h): resting islands fall asleep after about 0.5 s and
 * stay frozen at no narrow-phase cost, wake when an awake body, a moving
 * kinematic body or the caller touches them, never sleep with a can_sleep
 * false body, and with sleeping on a scene runs bit for bit as with sleeping
 * off until the first island falls asleep. The step counts come from the
 * physics module's private header (physics/step_counts.h). */
#include <criterion/criterion.h>
#include <string.h>

#include "physics/step_counts.h"
#include "test_helpers.h"
#include "voltex/physics.h"

#define DT (1.0f / 60.0f)

/* A static floor with its top face at y = 0. */
static vx_entity spawn_floor(vx_registry *w)
{
    vx_collider shape = vx_collider_box(vx_vec3_make(50.0f, 1.0f, 50.0f));
    vx_rigidbody rb = vx_rigidbody_static();
    return vx_test_spawn_body(w, vx_vec3_make(0.0f, -1.0f, 0.0f), &shape, &rb);
}

/* n unit boxes of 1 kg standing on each other at (x, 0, 0), the first on the
 * floor; entities into out. */
static void spawn_stack(vx_registry *w, float x, int n, vx_entity *out)
{
    vx_collider cube = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    for (int i = 0; i < n; i++) out[i] = vx_test_spawn_body(w, vx_vec3_make(x, 0.5f + (float)i, 0.0f), &cube, &rb);
}

static vx_entity spawn_ball(vx_registry *w, vx_vec3 at, float mass)
{
    vx_collider ball = vx_collider_sphere(0.5f);
    vx_rigidbody rb = vx_rigidbody_dynamic(mass);
    return vx_test_spawn_body(w, at, &ball, &rb);
}

static void sleeping_stepper(vx_test_stepper *s)
{
    vx_test_stepper_init(s);
    s->cfg.sleeping = true;
}

/* Steps until no dynamic body is awake; the number of steps taken, or -1
 * after max_steps. */
static int steps_until_asleep(vx_registry *w, vx_test_stepper *s, int max_steps)
{
    for (int k = 1; k <= max_steps; k++) {
        vx_test_step(w, s);
        if (vx_step_awake_count(&s->state) == 0) return k;
    }
    return -1;
}

/* The whole state of an entity, to compare bit for bit. */
typedef struct {
    vx_transform t;
    vx_vec3 v, w;
} body_state;

static body_state state_of(vx_registry *w, vx_entity e)
{
    body_state b;
    memset(&b, 0, sizeof b);
    b.t = *vx_test_transform(w, e);
    const vx_rigidbody *rb = vx_registry_get(w, e, VX_COMPONENT_RIGIDBODY);
    if (rb) {
        b.v = rb->velocity;
        b.w = rb->angular_velocity;
    }
    return b;
}

static bool same_state(body_state a, body_state b) { return memcmp(&a, &b, sizeof a) == 0; }

Test(physics_sleep, stack_and_ball_fall_asleep_after_half_a_second_and_freeze)
{
    vx_registry *w = vx_test_physics_world();
    spawn_floor(w);
    vx_entity stack[10];
    spawn_stack(w, 0.0f, 10, stack);
    vx_entity ball = spawn_ball(w, vx_vec3_make(5.0f, 0.5f, 0.0f), 1.0f);
    vx_test_stepper s;
    sleeping_stepper(&s);

    vx_test_step(w, &s);
    cr_assert_eq(vx_step_awake_count(&s.state), 11, "every dynamic body starts awake");
    int k = 1 + steps_until_asleep(w, &s, 300);
    /* Still from the first steps on: asleep once 0.5 s (30 steps) have
     * passed, plus the few the stack takes to settle. */
    cr_assert(k >= 30 && k <= 60, "fell asleep after %d steps", k);
    vx_step_counts c = vx_step_counts_last(&s.state);
    cr_assert_eq(c.awake, 0);
    cr_assert_eq(c.asleep, 11);

    /* Asleep: velocities 0 in the world, the state frozen bit for bit, the
     * contacts still reported (as in the step the island fell asleep) and
     * no pair given to the narrow phase. */
    body_state before[11];
    for (int i = 0; i < 10; i++) before[i] = state_of(w, stack[i]);
    before[10] = state_of(w, ball);
    for (int i = 0; i < 11; i++) {
        VX_ASSERT_VEC3_NEAR(before[i].v, 0, 0, 0, 0);
        VX_ASSERT_VEC3_NEAR(before[i].w, 0, 0, 0, 0);
    }
    VX_ASSERT_NEAR(before[9].t.position.y, 9.5f, 0.02f);
    size_t reported = s.report.count;
    cr_assert_gt(reported, 40); /* 4 points per box face and ball on the floor */
    float weight = vx_test_pair_impulse(&s, stack[8], stack[9], NULL);
    for (int step = 0; step < 120; step++) {
        vx_test_step(w, &s);
        c = vx_step_counts_last(&s.state);
        cr_assert_eq(c.narrow_pairs, 0, "a sleeping scene collides nothing");
        cr_assert_eq(c.manifolds, 0);
        cr_assert_gt(c.broadphase_pairs, 0);
        cr_assert_eq(s.report.count, reported);
    }
    for (int i = 0; i < 10; i++) cr_assert(same_state(state_of(w, stack[i]), before[i]), "box %d moved", i);
    cr_assert(same_state(state_of(w, ball), before[10]));
    /* The top box's contact still carries its weight, m g dt. */
    VX_ASSERT_NEAR(vx_test_pair_impulse(&s, stack[8], stack[9], NULL), weight, 0);
    VX_ASSERT_NEAR(weight, 9.81 * DT, 0.1 * 9.81 * DT);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

Test(physics_sleep, ball_dropped_on_a_sleeping_stack_wakes_it_and_the_stack_reacts)
{
    vx_registry *w = vx_test_physics_world();
    spawn_floor(w);
    vx_entity stack[10];
    spawn_stack(w, 0.0f, 10, stack);
    vx_test_stepper s;
    sleeping_stepper(&s);
    cr_assert_neq(steps_until_asleep(w, &s, 300), -1);
    body_state top = state_of(w, stack[9]);

    /* A heavy ball arrives (an entity added during the run), falling onto
     * the top box near its edge. */
    vx_entity ball = spawn_ball(w, vx_vec3_make(0.4f, 12.0f, 0.0f), 20.0f);
    vx_test_body(w, ball)->velocity = vx_vec3_make(0.0f, -5.0f, 0.0f);
    size_t most_awake = 0;
    bool top_moved = false;
    for (int step = 0; step < 60; step++) {
        vx_test_step(w, &s);
        size_t awake = vx_step_awake_count(&s.state);
        most_awake = awake > most_awake ? awake : most_awake;
        body_state now = state_of(w, stack[9]);
        if (fabsf(now.t.position.x - top.t.position.x) > 1e-3f || fabsf(now.t.position.y - top.t.position.y) > 1e-3f)
            top_moved = true;
    }
    cr_assert_eq(most_awake, 11, "the ball woke the whole stack (%zu awake)", most_awake);
    cr_assert(top_moved, "the top box reacted to the hit");
    /* The ball did not pass through a frozen box. */
    cr_assert_gt(vx_test_transform(w, ball)->position.y, 0.0f);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

Test(physics_sleep, kinematic_body_moving_into_a_sleeping_box_wakes_and_pushes_it)
{
    vx_registry *w = vx_test_physics_world();
    spawn_floor(w);
    vx_entity box;
    spawn_stack(w, 0.0f, 1, &box);
    vx_collider pusher_shape = vx_collider_box(vx_vec3_make(0.25f, 0.25f, 0.5f));
    vx_rigidbody still = vx_rigidbody_kinematic();
    vx_entity pusher = vx_test_spawn_body(w, vx_vec3_make(-3.0f, 0.5f, 0.0f), &pusher_shape, &still);
    vx_test_stepper s;
    sleeping_stepper(&s);
    cr_assert_neq(steps_until_asleep(w, &s, 300), -1, "a still kinematic body keeps nothing awake");
    float x0 = vx_test_transform(w, box)->position.x;

    vx_test_body(w, pusher)->velocity = vx_vec3_make(1.0f, 0.0f, 0.0f);
    int woke_at = -1;
    for (int step = 1; step <= 180; step++) {
        vx_test_step(w, &s);
        if (woke_at < 0 && vx_step_awake_count(&s.state) == 1) woke_at = step;
    }
    /* Faces 2.25 m apart at 1 m/s: the box sleeps through the approach and
     * wakes at the contact (made a speculative distance ahead). */
    cr_assert(woke_at >= 130 && woke_at <= 136, "woke at step %d", woke_at);
    float pushed = vx_test_transform(w, box)->position.x - x0;
    cr_assert_gt(pushed, 0.5f, "pushed %g m", (double)pushed);
    cr_assert_eq(vx_step_awake_count(&s.state), 1, "being pushed keeps it awake");
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

Test(physics_sleep, can_sleep_false_keeps_its_island_awake)
{
    vx_registry *w = vx_test_physics_world();
    spawn_floor(w);
    vx_entity stack[3];
    spawn_stack(w, 0.0f, 3, stack);
    vx_test_body(w, stack[1])->can_sleep = false;
    vx_entity ball = spawn_ball(w, vx_vec3_make(5.0f, 0.5f, 0.0f), 1.0f);
    vx_test_stepper s;
    sleeping_stepper(&s);
    for (int step = 0; step < 180; step++) {
        vx_test_step(w, &s);
        cr_assert_geq(vx_step_awake_count(&s.state), 3, "step %d: the stack slept", step);
    }
    /* The ball is an island of its own: it sleeps. */
    cr_assert_eq(vx_step_awake_count(&s.state), 3);
    cr_assert_eq(vx_step_counts_last(&s.state).asleep, 1);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, ball)->velocity, 0, 0, 0, 0);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

Test(physics_sleep, velocity_set_from_outside_wakes_the_island)
{
    vx_registry *w = vx_test_physics_world();
    spawn_floor(w);
    vx_entity stack[2];
    spawn_stack(w, 0.0f, 2, stack);
    vx_test_stepper s;
    sleeping_stepper(&s);
    cr_assert_neq(steps_until_asleep(w, &s, 300), -1);
    float x0 = vx_test_transform(w, stack[1])->position.x;

    vx_test_body(w, stack[1])->velocity = vx_vec3_make(1.0f, 0.0f, 0.0f);
    vx_test_step(w, &s);
    cr_assert_eq(vx_step_awake_count(&s.state), 2, "the whole island wakes");
    cr_assert_gt(vx_test_transform(w, stack[1])->position.x, x0 + 0.005f);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* A sleeping island keeps its contacts' warm-start impulses: woken with
 * nothing to react to (can_sleep switched off from outside), a 10-box stack
 * carries its weight from the first step, as if it had never slept. From an
 * empty cache the same step lets every box drop at about 0.15 m/s. */
Test(physics_sleep, waking_is_smooth_with_the_kept_impulses)
{
    vx_registry *w = vx_test_physics_world();
    spawn_floor(w);
    vx_entity stack[10];
    spawn_stack(w, 0.0f, 10, stack);
    vx_test_stepper s;
    sleeping_stepper(&s);
    cr_assert_neq(steps_until_asleep(w, &s, 300), -1);
    for (int step = 0; step < 30; step++) vx_test_step(w, &s); /* asleep for a while */
    cr_assert_eq(vx_step_awake_count(&s.state), 0);
    float top = vx_test_transform(w, stack[9])->position.y;

    vx_test_body(w, stack[0])->can_sleep = false;
    for (int step = 0; step < 3; step++) {
        vx_test_step(w, &s);
        cr_assert_eq(vx_step_awake_count(&s.state), 10);
        for (int i = 0; i < 10; i++)
            cr_assert_lt(vx_vec3_length(vx_test_body(w, stack[i])->velocity), 0.01f, "step %d box %d", step, i);
    }
    VX_ASSERT_NEAR(vx_test_transform(w, stack[9])->position.y, top, 1e-3);
    VX_ASSERT_NEAR(vx_test_pair_impulse(&s, stack[8], stack[9], NULL), 9.81 * DT, 0.05 * 9.81 * DT);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

Test(physics_sleep, removing_the_support_of_a_sleeping_box_wakes_it_and_it_falls)
{
    vx_registry *w = vx_test_physics_world();
    spawn_floor(w);
    vx_entity stack[2];
    spawn_stack(w, 0.0f, 2, stack);
    vx_test_stepper s;
    sleeping_stepper(&s);
    cr_assert_neq(steps_until_asleep(w, &s, 300), -1);

    cr_assert(vx_registry_despawn(w, stack[0]));
    vx_test_step(w, &s);
    cr_assert_eq(vx_step_awake_count(&s.state), 1);
    /* Free fall from rest, 1 m in 0.45 s, then it lands on the floor. */
    VX_ASSERT_NEAR(vx_test_body(w, stack[1])->velocity.y, -9.81 * DT, 1e-6);
    for (int step = 0; step < 90; step++) vx_test_step(w, &s);
    VX_ASSERT_NEAR(vx_test_transform(w, stack[1])->position.y, 0.5f, 0.02f);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

Test(physics_sleep, moving_the_floor_from_outside_wakes_what_rests_on_it)
{
    vx_registry *w = vx_test_physics_world();
    vx_entity floor = spawn_floor(w);
    vx_entity ball = spawn_ball(w, vx_vec3_make(0.0f, 0.5f, 0.0f), 1.0f);
    vx_test_stepper s;
    sleeping_stepper(&s);
    cr_assert_neq(steps_until_asleep(w, &s, 300), -1);

    vx_test_transform(w, floor)->position.y -= 1.0f;
    vx_test_step(w, &s);
    cr_assert_eq(vx_step_awake_count(&s.state), 1);
    cr_assert_lt(vx_test_body(w, ball)->velocity.y, 0.0f, "falling");
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* Sleeping changes nothing while everything is awake: a pile with sleeping
 * on runs bit for bit as with sleeping off (bodies and reports) up to the
 * step the first island falls asleep. */
Test(physics_sleep, until_an_island_sleeps_the_run_is_the_same_as_with_sleeping_off)
{
    vx_registry *worlds[2];
    vx_test_stepper steppers[2];
    vx_entity ids[2][12];
    for (int run = 0; run < 2; run++) {
        vx_registry *w = worlds[run] = vx_test_physics_world();
        spawn_floor(w);
        spawn_stack(w, 0.0f, 5, ids[run]);
        for (int i = 0; i < 6; i++) /* balls falling onto the stack one after the other, bouncing off */
            ids[run][5 + i] = spawn_ball(w, vx_vec3_make(0.1f * (float)i - 0.2f, 5.6f + 1.5f * (float)i, 0.05f), 1.0f);
        vx_collider capsule = vx_collider_capsule(0.2f, 0.5f);
        vx_rigidbody rb = vx_rigidbody_dynamic(2.0f);
        ids[run][11] = vx_test_spawn_body(w, vx_vec3_make(2.0f, 3.0f, 0.0f), &capsule, &rb);
        vx_test_stepper_init(&steppers[run]);
        steppers[run].cfg.sleeping = run == 1;
    }
    int compared = 0;
    for (int step = 0; step < 600; step++) {
        vx_test_step(worlds[0], &steppers[0]);
        vx_test_step(worlds[1], &steppers[1]);
        if (vx_step_counts_last(&steppers[1].state).asleep > 0) break;
        for (int i = 0; i < 12; i++)
            cr_assert(same_state(state_of(worlds[0], ids[0][i]), state_of(worlds[1], ids[1][i])), "step %d body %d",
                      step, i);
        cr_assert_eq(steppers[0].report.count, steppers[1].report.count);
        cr_assert_eq(memcmp(steppers[0].report.items, steppers[1].report.items,
                            steppers[0].report.count * sizeof(vx_contact)),
                     0, "step %d report", step);
        compared++;
    }
    cr_assert_gt(compared, 60, "compared %d steps before the first island slept", compared);
    cr_assert_lt(compared, 600, "something fell asleep");
    for (int run = 0; run < 2; run++) {
        vx_test_stepper_free(&steppers[run]);
        vx_registry_destroy(worlds[run]);
    }
}

/* A pyramid with a base of 10 (55 boxes): asleep, it gives the narrow phase
 * nothing; awake (sleeping off) every step collides all its pairs. */
Test(physics_sleep, a_sleeping_pyramid_has_no_narrow_phase_work)
{
    vx_test_stepper awake_s, sleep_s;
    vx_registry *worlds[2];
    for (int run = 0; run < 2; run++) {
        vx_registry *w = worlds[run] = vx_test_physics_world();
        spawn_floor(w);
        vx_collider cube = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
        vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
        for (int row = 0; row < 10; row++)
            for (int i = 0; i < 10 - row; i++)
                vx_test_spawn_body(w, vx_vec3_make((float)i * 1.05f + 0.525f * (float)row, 0.5f + (float)row, 0.0f),
                                   &cube, &rb);
    }
    vx_test_stepper_init(&awake_s);
    sleeping_stepper(&sleep_s);
    int k = steps_until_asleep(worlds[1], &sleep_s, 600);
    cr_assert(k > 30 && k < 240, "the pyramid slept after %d steps", k);
    size_t points_at_sleep = sleep_s.report.count;
    for (int step = 0; step < k + 10; step++) vx_test_step(worlds[0], &awake_s);
    vx_test_step(worlds[1], &sleep_s);
    vx_step_counts awake = vx_step_counts_last(&awake_s.state);
    vx_step_counts asleep = vx_step_counts_last(&sleep_s.state);
    cr_assert_eq(awake.awake, 55);
    cr_assert_eq(asleep.asleep, 55);
    /* the 10 base boxes on the floor, every other box on the two below it */
    cr_assert_eq(awake.narrow_pairs, 10 + 2 * 45, "%zu pairs", awake.narrow_pairs);
    cr_assert_eq(awake.narrow_pairs, awake.broadphase_pairs);
    cr_assert_eq(asleep.narrow_pairs, 0);
    cr_assert_eq(asleep.broadphase_pairs, awake.broadphase_pairs, "the same pairs, not collided");
    cr_assert_eq(sleep_s.report.count, points_at_sleep, "a sleeping pyramid still reports its contacts");
    cr_assert_geq(points_at_sleep, 300, "at least 3 points per supporting pair: %zu", points_at_sleep);
    for (int run = 0; run < 2; run++) vx_registry_destroy(worlds[run]);
    vx_test_stepper_free(&awake_s);
    vx_test_stepper_free(&sleep_s);
}

Test(physics_sleep, sleeping_off_never_sleeps_and_switching_it_off_wakes_everything)
{
    vx_registry *w = vx_test_physics_world();
    spawn_floor(w);
    vx_entity ball = spawn_ball(w, vx_vec3_make(0.0f, 0.5f, 0.0f), 1.0f);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    cr_assert_eq(vx_step_awake_count(&s.state), 0, "0 before the first step");
    for (int step = 0; step < 120; step++) vx_test_step(w, &s);
    cr_assert_eq(vx_step_awake_count(&s.state), 1);
    cr_assert_eq(vx_step_counts_last(&s.state).asleep, 0);

    s.cfg.sleeping = true;
    cr_assert_neq(steps_until_asleep(w, &s, 120), -1);
    s.cfg.sleeping = false;
    vx_test_step(w, &s);
    cr_assert_eq(vx_step_awake_count(&s.state), 1);
    cr_assert_gt(vx_step_counts_last(&s.state).narrow_pairs, 0);
    VX_ASSERT_NEAR(vx_test_transform(w, ball)->position.y, 0.5f, 0.01f);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}
