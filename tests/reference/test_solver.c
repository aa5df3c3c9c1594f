/* The reference pipeline's contact response (reference/solver.c;
 * docs/simulation.md, "Where the engine started") and the
 * sequential-impulse rules around it, against closed-form collision results. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "test_helpers.h"
#include "voltex/physics.h"
#include "voltex/reference.h"

/* A body with no gravity, so only the solver changes it. */
static vx_rigidbody floating_body(float mass, vx_vec3 velocity, float restitution)
{
    vx_rigidbody rb = vx_rigidbody_dynamic(mass);
    rb.velocity = velocity;
    rb.restitution = restitution;
    rb.gravity_scale = 0.0f;
    return rb;
}

/* A contact written by hand (normal from a to b), as the narrow phase would. */
static vx_contact make_contact(vx_entity a, vx_entity b, vx_vec3 normal, float depth)
{
    vx_contact c;
    memset(&c, 0, sizeof c);
    c.entity_a = a;
    c.entity_b = b;
    c.normal = normal;
    c.depth = depth;
    return c;
}

/* Resolves the one contact c with the default config; returns it after. */
static vx_contact resolve_one(vx_registry *w, vx_contact c)
{
    vx_contact_list list;
    vx_contact_list_init(&list);
    cr_assert_eq(vx_contact_list_push(&list, &c), VX_OK);
    vx_world_def cfg = vx_world_def_default();
    vx_resolve_collisions(w, &list, &cfg);
    vx_contact out = list.items[0];
    vx_contact_list_free(&list);
    return out;
}

static const vx_vec3 X = {1.0f, 0.0f, 0.0f};

/* ---- the reference's own cases ---- */

Test(solver, two_dynamic_spheres_head_on_swap_velocities)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider s = vx_collider_sphere(1.0f);
    vx_rigidbody ra = floating_body(1.0f, vx_vec3_make(1.0f, 0.0f, 0.0f), 1.0f);
    vx_rigidbody rb = floating_body(1.0f, vx_vec3_make(-1.0f, 0.0f, 0.0f), 1.0f);
    vx_entity a = vx_test_spawn_body(w, vx_vec3_make(-0.5f, 0.0f, 0.0f), &s, &ra);
    vx_entity b = vx_test_spawn_body(w, vx_vec3_make(0.5f, 0.0f, 0.0f), &s, &rb);

    vx_contact_list contacts;
    vx_contact_list_init(&contacts);
    cr_assert_eq(vx_detect_collisions(w, &contacts), VX_OK);
    cr_assert_eq(contacts.count, 1);
    vx_world_def cfg = vx_world_def_default();
    vx_resolve_collisions(w, &contacts, &cfg);

    /* Equal masses, e = 1: the velocities swap. */
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, a)->velocity, -1.0f, 0.0f, 0.0f, 1e-6);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, b)->velocity, 1.0f, 0.0f, 0.0f, 1e-6);
    /* Impulse m |dv| = 1 kg * 2 m/s. */
    VX_ASSERT_NEAR(contacts.items[0].impulse, 2.0, 1e-6);
    vx_contact_list_free(&contacts);
    vx_registry_destroy(w);
}

Test(solver, dynamic_ball_vs_static_floor_only_ball_bounces)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider ball_shape = vx_collider_sphere(1.0f);
    vx_collider floor_shape = vx_collider_box(vx_vec3_make(10.0f, 1.0f, 10.0f));
    vx_rigidbody ball_rb = floating_body(1.0f, vx_vec3_make(0.0f, -2.0f, 0.0f), 1.0f);
    vx_rigidbody floor_rb = vx_rigidbody_static();
    vx_entity ball = vx_test_spawn_body(w, vx_vec3_make(0.0f, 0.5f, 0.0f), &ball_shape, &ball_rb);
    vx_entity floor = vx_test_spawn_body(w, vx_vec3_make(0.0f, -1.0f, 0.0f), &floor_shape, &floor_rb);

    vx_contact_list contacts;
    vx_contact_list_init(&contacts);
    cr_assert_eq(vx_detect_collisions(w, &contacts), VX_OK);
    cr_assert_eq(contacts.count, 1);
    float depth = contacts.items[0].depth;
    VX_ASSERT_NEAR(depth, 0.5, 1e-6); /* bottom of the ball at -0.5, floor top at 0 */
    vx_world_def cfg = vx_world_def_default();
    vx_resolve_collisions(w, &contacts, &cfg);

    /* e = min(1, 0.3): up at 0.3 * 2 m/s; the floor neither moves nor changes. */
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, ball)->velocity, 0.0f, 0.6f, 0.0f, 1e-6);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, floor)->velocity, 0.0f, 0.0f, 0.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, floor)->position, 0.0f, -1.0f, 0.0f, 0.0);
    /* Baumgarte moves only the ball, by (depth - slop) * percent. */
    VX_ASSERT_NEAR(vx_test_transform(w, ball)->position.y, 0.5 + (0.5 - 0.01) * 0.4, 1e-6);
    vx_contact_list_free(&contacts);
    vx_registry_destroy(w);
}

Test(solver, position_correction_separates_by_the_spec_amount)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider s = vx_collider_sphere(1.0f);
    vx_rigidbody r1 = floating_body(1.0f, vx_vec3_zero(), 0.3f);
    vx_entity a = vx_test_spawn_body(w, vx_vec3_zero(), &s, &r1);
    vx_entity b = vx_test_spawn_body(w, vx_vec3_make(1.0f, 0.0f, 0.0f), &s, &r1);

    vx_contact_list contacts;
    vx_contact_list_init(&contacts);
    cr_assert_eq(vx_detect_collisions(w, &contacts), VX_OK);
    cr_assert_eq(contacts.count, 1);
    vx_world_def cfg = vx_world_def_default();
    cr_assert_gt(contacts.items[0].depth, cfg.baumgarte_slop);
    VX_ASSERT_NEAR(contacts.items[0].depth, 1.0, 1e-6);
    vx_resolve_collisions(w, &contacts, &cfg);

    /* correction = (1 - 0.01) * 0.4 / (1 + 1) = 0.198 m each way. */
    vx_vec3 pa = vx_test_transform(w, a)->position;
    vx_vec3 pb = vx_test_transform(w, b)->position;
    VX_ASSERT_VEC3_NEAR(pa, -0.198f, 0.0f, 0.0f, 1e-6);
    VX_ASSERT_VEC3_NEAR(pb, 1.198f, 0.0f, 0.0f, 1e-6);
    VX_ASSERT_NEAR(vx_vec3_length(vx_vec3_sub(pb, pa)), 1.0 + 0.99 * 0.4, 1e-6);
    /* At rest and not approaching: no impulse, velocities stay 0. */
    cr_assert_eq(contacts.items[0].impulse, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, a)->velocity, 0.0f, 0.0f, 0.0f, 0.0);
    vx_contact_list_free(&contacts);
    vx_registry_destroy(w);
}

Test(solver, both_static_nothing_moves)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider s = vx_collider_sphere(1.0f);
    vx_rigidbody st = vx_rigidbody_static();
    vx_entity a = vx_test_spawn_body(w, vx_vec3_zero(), &s, &st);
    vx_entity b = vx_test_spawn_body(w, vx_vec3_make(0.5f, 0.0f, 0.0f), &s, &st);

    /* Detection skips the pair; resolve must also leave a given one alone. */
    vx_contact_list contacts;
    vx_contact_list_init(&contacts);
    cr_assert_eq(vx_detect_collisions(w, &contacts), VX_OK);
    cr_assert_eq(contacts.count, 0);
    vx_contact c = resolve_one(w, make_contact(a, b, X, 1.5f));

    cr_assert_eq(c.impulse, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, a)->position, 0.0f, 0.0f, 0.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, b)->position, 0.5f, 0.0f, 0.0f, 0.0);
    vx_contact_list_free(&contacts);
    vx_registry_destroy(w);
}

/* ---- beyond them ---- */

Test(solver, separating_pair_gets_no_impulse)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody ra = floating_body(1.0f, vx_vec3_make(-1.0f, 0.0f, 0.0f), 1.0f);
    vx_rigidbody rb = floating_body(1.0f, vx_vec3_make(1.0f, 0.0f, 0.0f), 1.0f);
    vx_entity a = vx_test_spawn_body(w, vx_vec3_zero(), NULL, &ra);
    vx_entity b = vx_test_spawn_body(w, vx_vec3_make(1.0f, 0.0f, 0.0f), NULL, &rb);
    vx_contact c = resolve_one(w, make_contact(a, b, X, 0.005f)); /* within the slop */

    cr_assert_eq(c.impulse, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, a)->velocity, -1.0f, 0.0f, 0.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, b)->velocity, 1.0f, 0.0f, 0.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, a)->position, 0.0f, 0.0f, 0.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, b)->position, 1.0f, 0.0f, 0.0f, 0.0);
    vx_registry_destroy(w);
}

Test(solver, slow_approach_below_threshold_does_not_bounce)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody ra = floating_body(2.0f, vx_vec3_make(0.5f, 0.0f, 0.0f), 1.0f); /* 0.5 < 1 m/s */
    vx_rigidbody wall = vx_rigidbody_static();
    wall.restitution = 1.0f;
    vx_entity a = vx_test_spawn_body(w, vx_vec3_zero(), NULL, &ra);
    vx_entity b = vx_test_spawn_body(w, vx_vec3_make(1.0f, 0.0f, 0.0f), NULL, &wall);
    vx_contact c = resolve_one(w, make_contact(a, b, X, 0.0f));

    /* Perfectly elastic, yet too slow to bounce: the approach just stops. */
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, a)->velocity, 0.0f, 0.0f, 0.0f, 1e-7);
    VX_ASSERT_NEAR(c.impulse, 2.0 * 0.5, 1e-6);
    vx_registry_destroy(w);
}

Test(solver, recorded_impulse_is_mass_times_velocity_change)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody ball = floating_body(2.0f, vx_vec3_make(0.0f, -3.0f, 0.0f), 0.5f);
    vx_rigidbody floor = vx_rigidbody_static();
    floor.restitution = 0.9f;
    vx_entity a = vx_test_spawn_body(w, vx_vec3_zero(), NULL, &ball);
    vx_entity b = vx_test_spawn_body(w, vx_vec3_make(0.0f, -1.0f, 0.0f), NULL, &floor);
    vx_contact c = resolve_one(w, make_contact(a, b, vx_vec3_make(0.0f, -1.0f, 0.0f), 0.0f));

    /* e = 0.5: -3 -> +1.5 m/s, so J = 2 kg * 4.5 m/s = 9 N*s. */
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, a)->velocity, 0.0f, 1.5f, 0.0f, 1e-6);
    VX_ASSERT_NEAR(c.impulse, 9.0, 1e-5);
    vx_registry_destroy(w);
}

/* Newton's law of restitution with momentum conservation:
 * v1' = ((m1 - e m2) u1 + (1 + e) m2 u2) / (m1 + m2),
 * v2' = ((m2 - e m1) u2 + (1 + e) m1 u1) / (m1 + m2). */
Test(solver, unequal_masses_match_the_analytic_collision)
{
    const double m1 = 1.0, m2 = 3.0, u1 = 2.0, u2 = -1.0, e = 0.5;
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody r1 = floating_body((float)m1, vx_vec3_make((float)u1, 0.0f, 0.0f), (float)e);
    vx_rigidbody r2 = floating_body((float)m2, vx_vec3_make((float)u2, 0.0f, 0.0f), (float)e);
    vx_entity a = vx_test_spawn_body(w, vx_vec3_zero(), NULL, &r1);
    vx_entity b = vx_test_spawn_body(w, vx_vec3_make(1.0f, 0.0f, 0.0f), NULL, &r2);
    vx_contact c = resolve_one(w, make_contact(a, b, X, 0.0f));

    double v1 = ((m1 - e * m2) * u1 + (1.0 + e) * m2 * u2) / (m1 + m2); /* -1.375 */
    double v2 = ((m2 - e * m1) * u2 + (1.0 + e) * m1 * u1) / (m1 + m2); /* 0.125 */
    vx_vec3 va = vx_test_body(w, a)->velocity;
    vx_vec3 vb = vx_test_body(w, b)->velocity;
    VX_ASSERT_VEC3_NEAR(va, v1, 0.0, 0.0, 4.0 * FLT_EPSILON * 2.0);
    VX_ASSERT_VEC3_NEAR(vb, v2, 0.0, 0.0, 4.0 * FLT_EPSILON * 2.0);
    /* momentum m1 u1 + m2 u2 = -1 kg m/s before and after, to float precision */
    VX_ASSERT_NEAR(m1 * (double)va.x + m2 * (double)vb.x, m1 * u1 + m2 * u2, 8.0 * FLT_EPSILON);
    VX_ASSERT_NEAR(c.impulse, m1 * fabs(v1 - u1), 8.0 * FLT_EPSILON * 4.0);
    vx_registry_destroy(w);
}

Test(solver, sensor_contact_changes_nothing)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody ra = floating_body(1.0f, vx_vec3_make(3.0f, 0.0f, 0.0f), 1.0f);
    vx_rigidbody rb = floating_body(1.0f, vx_vec3_make(-3.0f, 0.0f, 0.0f), 1.0f);
    vx_entity a = vx_test_spawn_body(w, vx_vec3_zero(), NULL, &ra);
    vx_entity b = vx_test_spawn_body(w, vx_vec3_make(1.0f, 0.0f, 0.0f), NULL, &rb);
    vx_contact in = make_contact(a, b, X, 0.5f);
    in.sensor = true;
    vx_contact c = resolve_one(w, in);

    cr_assert_eq(c.impulse, 0.0f);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, a)->velocity, 3.0f, 0.0f, 0.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, b)->velocity, -3.0f, 0.0f, 0.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, a)->position, 0.0f, 0.0f, 0.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, b)->position, 1.0f, 0.0f, 0.0f, 0.0);
    vx_registry_destroy(w);
}

Test(solver, kinematic_pushes_dynamic_and_is_not_changed)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody k = vx_rigidbody_kinematic();
    k.velocity = vx_vec3_make(2.0f, 0.0f, 0.0f);
    k.restitution = 0.5f;
    vx_rigidbody d = floating_body(4.0f, vx_vec3_zero(), 0.5f);
    vx_entity a = vx_test_spawn_body(w, vx_vec3_zero(), NULL, &k);
    vx_entity b = vx_test_spawn_body(w, vx_vec3_make(1.0f, 0.0f, 0.0f), NULL, &d);
    vx_contact c = resolve_one(w, make_contact(a, b, X, 0.1f));

    /* Infinite mass pusher at 2 m/s, e = 0.5: B leaves at 2 + 0.5 * 2 m/s. */
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, b)->velocity, 3.0f, 0.0f, 0.0f, 1e-6);
    VX_ASSERT_NEAR(c.impulse, 4.0 * 3.0, 1e-5);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, a)->velocity, 2.0f, 0.0f, 0.0f, 0.0);
    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, a)->position, 0.0f, 0.0f, 0.0f, 0.0);
    /* B alone takes the whole correction: (0.1 - 0.01) * 0.4 / (1/4) * (1/4). */
    VX_ASSERT_NEAR(vx_test_transform(w, b)->position.x, 1.0 + 0.09 * 0.4, 1e-6);
    vx_registry_destroy(w);
}

Test(solver, body_without_rigidbody_acts_static)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody ball = floating_body(1.0f, vx_vec3_make(0.0f, -3.0f, 0.0f), 0.2f);
    vx_collider box = vx_collider_box(vx_vec3_make(5.0f, 1.0f, 5.0f));
    vx_entity a = vx_test_spawn_body(w, vx_vec3_zero(), NULL, &ball);
    vx_entity ground = vx_test_spawn_body(w, vx_vec3_make(0.0f, -1.5f, 0.0f), &box, NULL);
    vx_contact c = resolve_one(w, make_contact(a, ground, vx_vec3_make(0.0f, -1.0f, 0.0f), 0.11f));

    VX_ASSERT_VEC3_NEAR(vx_test_body(w, a)->velocity, 0.0f, 0.6f, 0.0f, 1e-6);
    VX_ASSERT_NEAR(c.impulse, 3.6, 1e-6);
    VX_ASSERT_NEAR(vx_test_transform(w, a)->position.y, (0.11 - 0.01) * 0.4, 1e-6);
    VX_ASSERT_VEC3_NEAR(vx_test_transform(w, ground)->position, 0.0f, -1.5f, 0.0f, 0.0);
    cr_assert_null(vx_registry_get(w, ground, VX_COMPONENT_RIGIDBODY));
    vx_registry_destroy(w);
}

/* A box resting on four coplanar contact points: the accumulated impulses,
 * whatever their split, sum to m |dv| and the box stops without bouncing. */
Test(solver, several_contacts_share_one_stop)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody box = floating_body(3.0f, vx_vec3_make(0.0f, -0.5f, 0.0f), 0.0f);
    vx_entity a = vx_test_spawn_body(w, vx_vec3_make(0.0f, 0.5f, 0.0f), NULL, &box);
    vx_rigidbody floor = vx_rigidbody_static();
    vx_entity b = vx_test_spawn_body(w, vx_vec3_zero(), NULL, &floor);
    vx_contact_list list;
    vx_contact_list_init(&list);
    for (uint32_t i = 0; i < 4; i++) {
        vx_contact c = make_contact(a, b, vx_vec3_make(0.0f, -1.0f, 0.0f), 0.0f);
        c.feature = i;
        cr_assert_eq(vx_contact_list_push(&list, &c), VX_OK);
    }
    vx_world_def cfg = vx_world_def_default();
    vx_resolve_collisions(w, &list, &cfg);

    double total = 0.0;
    for (size_t i = 0; i < list.count; i++) {
        cr_assert_geq(list.items[i].impulse, 0.0f);
        total += list.items[i].impulse;
    }
    VX_ASSERT_NEAR(total, 3.0 * 0.5, 1e-6);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, a)->velocity, 0.0f, 0.0f, 0.0f, 1e-7);
    vx_contact_list_free(&list);
    vx_registry_destroy(w);
}

/* Impulses add to what a contact already carries (a step sums substeps). */
Test(solver, impulse_adds_to_the_contact)
{
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody ball = floating_body(1.0f, vx_vec3_make(0.0f, -2.0f, 0.0f), 0.0f);
    vx_entity a = vx_test_spawn_body(w, vx_vec3_zero(), NULL, &ball);
    vx_rigidbody floor = vx_rigidbody_static();
    vx_entity b = vx_test_spawn_body(w, vx_vec3_make(0.0f, -1.0f, 0.0f), NULL, &floor);
    vx_contact in = make_contact(a, b, vx_vec3_make(0.0f, -1.0f, 0.0f), 0.0f);
    in.impulse = 0.25f;
    vx_contact c = resolve_one(w, in);
    VX_ASSERT_NEAR(c.impulse, 0.25 + 2.0, 1e-6);
    vx_registry_destroy(w);
}

/* More contacts than the solver's stack buffer: a row of boxes each resting
 * on the static floor through its own contact, all stopped. */
Test(solver, many_contacts_all_resolved)
{
    enum { N = 300 };
    vx_registry *w = vx_test_physics_world();
    vx_rigidbody floor = vx_rigidbody_static();
    floor.restitution = 1.0f; /* the bodies' 0.5 decides */
    vx_entity ground = vx_test_spawn_body(w, vx_vec3_zero(), NULL, &floor);
    vx_entity bodies[N];
    vx_contact_list list;
    vx_contact_list_init(&list);
    for (int i = 0; i < N; i++) {
        vx_rigidbody rb = floating_body(1.0f + (float)(i % 3), vx_vec3_make(0.0f, -3.0f, 0.0f), 0.5f);
        bodies[i] = vx_test_spawn_body(w, vx_vec3_make((float)i, 1.0f, 0.0f), NULL, &rb);
        vx_contact c = make_contact(bodies[i], ground, vx_vec3_make(0.0f, -1.0f, 0.0f), 0.0f);
        cr_assert_eq(vx_contact_list_push(&list, &c), VX_OK);
    }
    vx_world_def cfg = vx_world_def_default();
    vx_resolve_collisions(w, &list, &cfg);
    for (int i = 0; i < N; i++) {
        VX_ASSERT_VEC3_NEAR(vx_test_body(w, bodies[i])->velocity, 0.0f, 1.5f, 0.0f, 1e-6);
        VX_ASSERT_NEAR(list.items[i].impulse, (1.0 + (double)(i % 3)) * 4.5, 1e-5);
    }
    vx_contact_list_free(&list);
    vx_registry_destroy(w);
}

/* Two 1 kg boxes stacked on a static floor, both moving down at 1 m/s, e = 0:
 * the floor contact (first in the list) stops the lower box, then the box-box
 * contact splits the upper box's momentum between the two, pushing the lower
 * one down again, so each pass halves what is left. After n passes both move
 * at -2^-n m/s (exact in binary), the box-box impulse is 1 - 2^-n and the floor
 * impulse 2 - 2^-(n-1); the limit is the static answer (2 N*s and 1 N*s),
 * which 60 passes reach to float precision. */
Test(solver, stacked_contacts_converge_with_iterations)
{
    const int passes[4] = {1, 2, 10, 60};
    for (int p = 0; p < 4; p++) {
        int n = passes[p];
        vx_registry *w = vx_test_physics_world();
        vx_rigidbody floor = vx_rigidbody_static();
        vx_entity ground = vx_test_spawn_body(w, vx_vec3_zero(), NULL, &floor);
        vx_rigidbody box = floating_body(1.0f, vx_vec3_make(0.0f, -1.0f, 0.0f), 0.0f);
        vx_entity lower = vx_test_spawn_body(w, vx_vec3_make(0.0f, 0.5f, 0.0f), NULL, &box);
        vx_entity upper = vx_test_spawn_body(w, vx_vec3_make(0.0f, 1.5f, 0.0f), NULL, &box);
        vx_contact_list list;
        vx_contact_list_init(&list);
        vx_contact c1 = make_contact(ground, lower, vx_vec3_make(0.0f, 1.0f, 0.0f), 0.0f);
        vx_contact c2 = make_contact(lower, upper, vx_vec3_make(0.0f, 1.0f, 0.0f), 0.0f);
        cr_assert_eq(vx_contact_list_push(&list, &c1), VX_OK);
        cr_assert_eq(vx_contact_list_push(&list, &c2), VX_OK);
        vx_world_def cfg = vx_world_def_default();
        cfg.iterations = n;
        vx_resolve_collisions(w, &list, &cfg);

        /* Exact while the halving is above the accumulated impulse's float
         * resolution (~2^-23 of 2 N*s); beyond that, converged to float. */
        double left = n <= 20 ? ldexp(1.0, -n) : 0.0;
        double tol = n <= 20 ? 0.0 : 1e-6;
        VX_ASSERT_NEAR(vx_test_body(w, lower)->velocity.y, -left, tol);
        VX_ASSERT_NEAR(vx_test_body(w, upper)->velocity.y, -left, tol);
        VX_ASSERT_NEAR(list.items[0].impulse, 2.0 - 2.0 * left, 1e-7);
        VX_ASSERT_NEAR(list.items[1].impulse, 1.0 - left, 1e-7);
        vx_contact_list_free(&list);
        vx_registry_destroy(w);
    }
}

/* Restitution set on a body: the value set is the one the solver uses. A
 * 1 kg ball at 4 m/s onto a perfectly elastic static body bounces back at
 * e * 4 m/s with e = min(0.8, 1) = 0.8. */
Test(solver, restitution_set_on_the_body_is_used)
{
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    rb.restitution = 0.8f;
    cr_assert_eq(rb.restitution, 0.8f);
    cr_assert_eq(rb.mass, 1.0f); /* nothing else changed */
    cr_assert_eq(rb.gravity_scale, 1.0f);

    vx_registry *w = vx_test_physics_world();
    rb.velocity = vx_vec3_make(0.0f, -4.0f, 0.0f);
    vx_entity ball = vx_test_spawn_body(w, vx_vec3_make(0.0f, 0.0f, 0.0f), NULL, &rb);
    vx_rigidbody wall = vx_rigidbody_static();
    wall.restitution = 1.0f;
    vx_entity floor = vx_test_spawn_body(w, vx_vec3_make(0.0f, -1.0f, 0.0f), NULL, &wall);

    vx_contact c;
    memset(&c, 0, sizeof c);
    c.entity_a = ball;
    c.entity_b = floor;
    c.normal = vx_vec3_make(0.0f, -1.0f, 0.0f);
    c.depth = 0.0f;
    vx_contact_list list;
    vx_contact_list_init(&list);
    cr_assert_eq(vx_contact_list_push(&list, &c), VX_OK);
    vx_world_def cfg = vx_world_def_default();
    vx_resolve_collisions(w, &list, &cfg);
    VX_ASSERT_NEAR(vx_test_body(w, ball)->velocity.y, 3.2f, 1e-6);
    vx_contact_list_free(&list);
    vx_registry_destroy(w);
}
