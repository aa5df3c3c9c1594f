/* Contacts through vx_step against closed-form mechanics:
 * Coulomb friction, skidding into rolling, resting impulses and the report,
 * warm starting, speculative contacts (no tunnelling, bounces from the
 * surface), and capsules toppling without sinking. The validation scenes
 * (tests/test_validation_*.c) cover stacks, pyramids, ramps, spin, rebound
 * and momentum; these are the smaller laws around them. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "test_helpers.h"
#include "voltex/physics.h"

#define G 9.81 /* the default gravity's magnitude */

/* A static floor box with its top face at y = 0. */
static vx_entity spawn_floor(vx_registry *w, float friction, float restitution)
{
    vx_collider shape = vx_collider_box(vx_vec3_make(50.0f, 1.0f, 50.0f));
    vx_rigidbody rb = vx_rigidbody_static();
    rb.friction = friction;
    rb.restitution = restitution;
    return vx_test_spawn_body(w, vx_vec3_make(0.0f, -1.0f, 0.0f), &shape, &rb);
}

static vx_rigidbody body(float mass, float friction, float restitution)
{
    vx_rigidbody rb = vx_rigidbody_dynamic(mass);
    rb.friction = friction;
    rb.restitution = restitution;
    return rb;
}

/* A box sliding on the floor decelerates at mu g: it stops after
 * v0^2 / (2 mu g), without tipping. */
Test(physics_contacts, sliding_box_stops_after_v_squared_over_two_mu_g)
{
    vx_registry *w = vx_test_physics_world();
    spawn_floor(w, 0.5f, 0.0f);
    vx_collider cube = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_rigidbody rb = body(2.0f, 0.5f, 0.0f);
    rb.velocity = vx_vec3_make(3.0f, 0.0f, 0.0f);
    vx_entity e = vx_test_spawn_body(w, vx_vec3_make(0.0f, 0.5f, 0.0f), &cube, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    const double mu = 0.5, v0 = 3.0;
    int stop_step = -1;
    for (int k = 1; k <= 120; k++) {
        vx_test_step(w, &s);
        const vx_rigidbody *b = vx_test_body(w, e);
        if (stop_step < 0 && b->velocity.x <= 1e-4f) stop_step = k;
        if (k == 15) /* mid-slide: v = v0 - mu g t */
            VX_ASSERT_NEAR(b->velocity.x, v0 - mu * G * 15.0 / 60.0, 0.02 * v0);
        cr_assert_lt(fabsf(vx_test_transform(w, e)->rotation.z), 0.01f, "step %d: tipping", k);
    }
    double distance = (double)vx_test_transform(w, e)->position.x;
    VX_ASSERT_NEAR(distance, v0 * v0 / (2.0 * mu * G), 0.03 * v0 * v0 / (2.0 * mu * G));
    VX_ASSERT_NEAR(stop_step / 60.0, v0 / (mu * G), 2.0 / 60.0);
    VX_ASSERT_NEAR(vx_test_transform(w, e)->position.y, 0.5, 0.011);
    cr_assert_lt(vx_vec3_length(vx_test_body(w, e)->velocity), 1e-3f);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* A solid sphere thrown along the floor without spin skids, friction slows
 * it and spins it up, and it rolls on at 5/7 of the throw, with w r = v. */
Test(physics_contacts, skidding_sphere_rolls_on_at_five_sevenths)
{
    vx_registry *w = vx_test_physics_world();
    spawn_floor(w, 0.4f, 0.0f);
    const float r = 0.5f;
    vx_collider ball = vx_collider_sphere(r);
    vx_rigidbody rb = body(1.5f, 0.4f, 0.0f);
    rb.velocity = vx_vec3_make(5.0f, 0.0f, 0.0f);
    vx_entity e = vx_test_spawn_body(w, vx_vec3_make(0.0f, r, 0.0f), &ball, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    for (int k = 0; k < 90; k++) vx_test_step(w, &s); /* skidding ends after 2 v0 / (7 mu g) = 0.36 s */
    const vx_rigidbody *b = vx_test_body(w, e);
    double v = b->velocity.x;
    VX_ASSERT_NEAR(v, 5.0 * 5.0 / 7.0, 0.01 * 5.0);
    VX_ASSERT_NEAR(-(double)b->angular_velocity.z * r, v, 1e-3 * v);
    VX_ASSERT_NEAR(b->velocity.y, 0.0, 1e-3);
    VX_ASSERT_NEAR(vx_test_transform(w, e)->position.y, r, 0.011);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* A box at rest on the floor: four points a step, in feature order, within
 * the slop, whose impulses add up to one step's weight, m g dt; the report
 * shows the end of the step: point_a - point_b = normal * depth. */
Test(physics_contacts, resting_box_report_carries_its_weight)
{
    vx_registry *w = vx_test_physics_world();
    vx_entity floor = spawn_floor(w, 0.5f, 0.0f);
    vx_collider cube = vx_collider_box(vx_vec3_make(0.4f, 0.3f, 0.6f));
    vx_rigidbody rb = body(3.0f, 0.5f, 0.0f);
    vx_entity e = vx_test_spawn_body(w, vx_vec3_make(1.0f, 0.3f, -2.0f), &cube, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    for (int k = 1; k <= 60; k++) {
        vx_test_step(w, &s);
        int points = 0;
        float sum = vx_test_pair_impulse(&s, floor, e, &points);
        cr_assert_eq(points, 4, "step %d: %d points", k, points);
        cr_assert_eq(s.report.count, 4);
        VX_ASSERT_NEAR(sum, 3.0 * G * (double)s.cfg.fixed_dt, 1e-4);
        for (size_t i = 0; i < s.report.count; i++) {
            const vx_contact *c = &s.report.items[i];
            cr_assert(vx_entity_equal(c->entity_a, floor));
            if (i > 0) cr_assert_lt(s.report.items[i - 1].feature, c->feature);
            VX_ASSERT_VEC3_NEAR(c->normal, 0.0f, 1.0f, 0.0f, 0.0);
            cr_assert_leq(c->depth, s.cfg.baumgarte_slop);
            cr_assert_geq(c->impulse, 0.0f);
            vx_vec3 gap = vx_vec3_sub(c->point_on_a, c->point_on_b);
            VX_ASSERT_VEC3_NEAR(gap, 0.0f, c->depth, 0.0f, 1e-5);
            VX_ASSERT_NEAR(fabsf(c->point_on_b.x - 1.0f), 0.4, 1e-4); /* the box's bottom corners */
            VX_ASSERT_NEAR(fabsf(c->point_on_b.z + 2.0f), 0.6, 1e-4);
        }
    }
    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, e)->position, 1.0f, 0.3f, -2.0f, 1e-4);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* The top of a stack of `n` boxes after `steps` steps, its start height minus
 * where it ends. */
static float stack_sink(int n, bool warm_starting, int steps)
{
    vx_registry *w = vx_test_physics_world();
    spawn_floor(w, 0.5f, 0.0f);
    vx_collider cube = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_rigidbody rb = body(1.0f, 0.5f, 0.0f);
    vx_entity top = VX_ENTITY_NULL;
    for (int i = 0; i < n; i++) top = vx_test_spawn_body(w, vx_vec3_make(0.0f, 0.5f + (float)i, 0.0f), &cube, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    s.cfg.warm_starting = warm_starting;
    for (int k = 0; k < steps; k++) vx_test_step(w, &s);
    float sink = (0.5f + (float)(n - 1)) - vx_test_transform(w, top)->position.y;
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
    return sink;
}

/* Warm starting carries last step's impulses over by entity pair and
 * feature: a 6-box stack then holds within the slop per contact, while
 * without it the 10 velocity passes never catch up with the weight above. */
Test(physics_contacts, warm_starting_holds_a_stack)
{
    float warm = stack_sink(6, true, 120);
    float cold = stack_sink(6, false, 120);
    cr_assert_lt(warm, 6.0f * 0.01f, "warm started: the top sank %g m", (double)warm);
    cr_assert_gt(cold, 2.0f * warm, "cold: %g m, warm: %g m", (double)cold, (double)warm);
}

/* Speculative contacts: a 200 m/s ball (3.3 m per step) stops at the surface
 * of a 10 cm wall instead of passing through it. */
Test(physics_contacts, fast_ball_stops_at_a_thin_wall)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider wall_shape = vx_collider_box(vx_vec3_make(0.05f, 2.0f, 2.0f));
    vx_entity wall = vx_test_spawn_body(w, vx_vec3_make(0.0f, 0.0f, 0.0f), &wall_shape, NULL);
    vx_collider ball_shape = vx_collider_sphere(0.1f);
    vx_rigidbody rb = body(1.0f, 0.5f, 0.0f);
    rb.gravity_scale = 0.0f;
    rb.velocity = vx_vec3_make(200.0f, 0.0f, 0.0f);
    vx_entity e = vx_test_spawn_body(w, vx_vec3_make(-5.0f, 0.3f, 0.0f), &ball_shape, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    float stopped_by = 0.0f;
    for (int k = 1; k <= 30; k++) {
        vx_test_step(w, &s);
        stopped_by += vx_test_pair_impulse(&s, wall, e, NULL);
        cr_assert_leq(vx_test_transform(w, e)->position.x, -0.15f + 1e-4f, "step %d: x = %g", k,
                      (double)vx_test_transform(w, e)->position.x);
    }
    VX_ASSERT_NEAR(stopped_by, 200.0, 1e-3); /* m v, restitution 0 */
    VX_ASSERT_NEAR(vx_test_transform(w, e)->position.x, -0.15, 1e-4);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, e)->velocity, 0.0f, 0.0f, 0.0f, 1e-4);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* e = 1 on both sides: the ball keeps bouncing back to its drop height. A
 * speculative contact first lets it land exactly on the surface, and the
 * bounce follows from there; gravity acts on the rising ball in the bounce
 * step too, so no step's worth of speed is gained per bounce. What is left
 * is the impact's phase within the step (v h = 13 cm here), which moves
 * each apex a little either way without a trend. */
Test(physics_contacts, elastic_ball_keeps_its_height)
{
    vx_registry *w = vx_test_physics_world();
    spawn_floor(w, 0.0f, 1.0f);
    vx_collider ball = vx_collider_sphere(0.5f);
    vx_rigidbody rb = body(1.0f, 0.0f, 1.0f);
    vx_entity e = vx_test_spawn_body(w, vx_vec3_make(0.0f, 3.5f, 0.0f), &ball, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    int apexes = 0;
    float prev_vy = 0.0f, lowest = INFINITY;
    for (int k = 1; k <= 600; k++) {
        vx_test_step(w, &s);
        float vy = vx_test_body(w, e)->velocity.y, y = vx_test_transform(w, e)->position.y;
        lowest = fminf(lowest, y);
        if (prev_vy > 0.0f && vy <= 0.0f) {
            apexes++;
            VX_ASSERT_NEAR(y - 0.5, 3.0, 0.08 * 3.0);
        }
        prev_vy = vy;
    }
    cr_assert_geq(apexes, 5);
    cr_assert_geq(lowest, 0.5f - 1e-3f);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* A capsule standing on one end, tipped by 10 degrees, falls over: its far
 * end swings down fast, and must not sink into the floor on landing. */
Test(physics_contacts, toppling_capsule_lands_on_the_surface)
{
    vx_registry *w = vx_test_physics_world();
    spawn_floor(w, 0.5f, 0.0f);
    const float radius = 0.05f, half_height = 1.0f; /* the far end lands at about 4 m/s */
    vx_collider shape = vx_collider_capsule(radius, half_height);
    vx_rigidbody rb = body(1.0f, 0.5f, 0.0f);
    const float tip = 10.0f * 3.14159265f / 180.0f;
    vx_quat q = vx_quat_from_axis_angle(vx_vec3_make(0.0f, 0.0f, 1.0f), tip);
    vx_vec3 centre = vx_vec3_make(-sinf(tip) * half_height, cosf(tip) * half_height + radius, 0.0f);
    vx_entity e = vx_test_spawn_rotated(w, centre, q, &shape, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    float lowest = INFINITY;
    for (int k = 1; k <= 180; k++) {
        vx_test_step(w, &s);
        const vx_transform *t = vx_test_transform(w, e);
        vx_aabb box = vx_collider_aabb(&shape, t->position, t->rotation);
        lowest = fminf(lowest, box.min.y);
    }
    /* lying on its side at rest */
    const vx_transform *t = vx_test_transform(w, e);
    vx_vec3 axis = vx_quat_rotate(t->rotation, vx_vec3_make(0.0f, 1.0f, 0.0f));
    cr_assert_lt(fabsf(axis.y), 0.01f);
    VX_ASSERT_NEAR(t->position.y, radius, 0.011);
    /* with the landing end's point made only once it is the nearer end,
     * it sank 4 cm in one step */
    cr_assert_gt(lowest, -0.005f, "the capsule sank %g m into the floor", (double)-lowest);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* A kinematic body sweeping through a static one: nothing can respond, so
 * the overlap is reported with impulse 0 and everything stays finite. */
Test(physics_contacts, kinematic_through_static_is_reported_not_solved)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider slab = vx_collider_box(vx_vec3_make(1.0f, 1.0f, 1.0f));
    vx_entity wall = vx_test_spawn_body(w, vx_vec3_zero(), &slab, NULL);
    vx_rigidbody k = vx_rigidbody_kinematic();
    k.velocity = vx_vec3_make(3.0f, 0.0f, 0.0f);
    vx_collider ball = vx_collider_sphere(0.5f);
    vx_entity e = vx_test_spawn_body(w, vx_vec3_make(-3.0f, 0.0f, 0.0f), &ball, &k);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    int overlaps = 0;
    for (int n = 1; n <= 120; n++) {
        vx_test_step(w, &s);
        for (size_t i = 0; i < s.report.count; i++) {
            const vx_contact *c = &s.report.items[i];
            cr_assert(vx_entity_equal(c->entity_a, wall) && vx_entity_equal(c->entity_b, e));
            cr_assert_eq(c->impulse, 0.0f);
            cr_assert_gt(c->depth, 0.0f);
            cr_assert(vx_vec3_is_finite(c->normal) && vx_vec3_is_finite(c->point_on_a));
            overlaps++;
        }
    }
    cr_assert_gt(overlaps, 10);
    VX_ASSERT_NEAR(vx_test_transform(w, e)->position.x, -3.0 + 3.0 * 2.0, 1e-4);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}
