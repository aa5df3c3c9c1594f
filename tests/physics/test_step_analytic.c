/* Whole-step physics against conservation laws and closed-form collisions,
 * through vx_step with gravity off. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>

#include "test_helpers.h"
#include "voltex/physics.h"

typedef struct {
    vx_world_def cfg;
    vx_step_state state;
    vx_contact_list report;
} stepper;

static stepper make_stepper(void)
{
    stepper s;
    s.cfg = vx_world_def_default();
    s.cfg.gravity = vx_vec3_zero();
    vx_step_state_init(&s.state);
    vx_contact_list_init(&s.report);
    return s;
}

static void free_stepper(stepper *s)
{
    vx_contact_list_free(&s->report);
    vx_step_state_free(&s->state);
}

static void step(vx_registry *w, stepper *s) { cr_assert_eq(vx_step(w, &s->cfg, &s->state, &s->report), VX_OK); }

static vx_entity spawn_ball(vx_registry *w, vx_vec3 position, float radius, float mass, vx_vec3 velocity,
                            float restitution)
{
    vx_collider shape = vx_collider_sphere(radius);
    vx_rigidbody rb = vx_rigidbody_dynamic(mass);
    rb.velocity = velocity;
    rb.restitution = restitution;
    return vx_test_spawn_body(w, position, &shape, &rb);
}

Test(analytic, equal_masses_elastic_head_on_swap)
{
    vx_registry *w = vx_test_physics_world();
    stepper s = make_stepper();
    vx_entity a = spawn_ball(w, vx_vec3_make(-2.0f, 0.0f, 0.0f), 0.5f, 1.0f, vx_vec3_make(1.0f, 0.0f, 0.0f), 1.0f);
    vx_entity b = spawn_ball(w, vx_vec3_make(2.0f, 0.0f, 0.0f), 0.5f, 1.0f, vx_vec3_make(-1.5f, 0.0f, 0.0f), 1.0f);
    int contact_steps = 0;
    for (int k = 0; k < 120; k++) {
        step(w, &s);
        if (s.report.count > 0) contact_steps++;
    }
    cr_assert_geq(contact_steps, 1);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, a)->velocity, -1.5f, 0.0f, 0.0f, 1e-6);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, b)->velocity, 1.0f, 0.0f, 0.0f, 1e-6);
    /* moving apart on the line, never sideways */
    cr_assert_lt(vx_test_transform(w, a)->position.x, vx_test_transform(w, b)->position.x - 1.0f);
    cr_assert_eq(vx_test_transform(w, a)->position.y, 0.0f);
    cr_assert_eq(vx_test_transform(w, b)->position.z, 0.0f);
    free_stepper(&s);
    vx_registry_destroy(w);
}

/* Several spheres of different masses, off-axis so the normals are oblique,
 * colliding in a row: no external force, so the total linear momentum is the
 * same after every step. Each impulse changes the two momenta by +-n*delta up
 * to one rounding of delta * inv_mass * mass, so the drift stays within a few
 * float epsilons of the momentum scale sum |m v| per contact solved. */
Test(analytic, momentum_conserved_in_a_row_of_spheres)
{
    enum { N = 6 };
    vx_registry *w = vx_test_physics_world();
    stepper s = make_stepper();
    vx_entity e[N];
    const float masses[N] = {1.0f, 2.5f, 0.5f, 4.0f, 1.5f, 3.0f};
    const float vx[N] = {3.0f, 0.0f, -1.0f, 0.5f, -2.0f, -4.0f};
    const float rest[N] = {0.9f, 0.3f, 1.0f, 0.5f, 0.7f, 0.2f};
    for (int i = 0; i < N; i++) {
        vx_vec3 p = vx_vec3_make(1.5f * (float)i, 0.1f * (float)(i % 3), -0.05f * (float)(i % 2));
        vx_vec3 v = vx_vec3_make(vx[i], 0.2f * (float)(i % 2) - 0.1f, 0.0f);
        e[i] = spawn_ball(w, p, 0.5f, masses[i], v, rest[i]);
    }
    double p0[3] = {0.0, 0.0, 0.0}, scale = 0.0;
    for (int i = 0; i < N; i++) {
        vx_vec3 v = vx_test_body(w, e[i])->velocity;
        p0[0] += masses[i] * (double)v.x;
        p0[1] += masses[i] * (double)v.y;
        p0[2] += masses[i] * (double)v.z;
        scale += masses[i] * (double)vx_vec3_length(v);
    }
    size_t contacts_seen = 0;
    for (int k = 1; k <= 300; k++) {
        step(w, &s);
        contacts_seen += s.report.count;
        double p[3] = {0.0, 0.0, 0.0};
        for (int i = 0; i < N; i++) {
            vx_vec3 v = vx_test_body(w, e[i])->velocity;
            p[0] += masses[i] * (double)v.x;
            p[1] += masses[i] * (double)v.y;
            p[2] += masses[i] * (double)v.z;
        }
        double tol = 4.0 * FLT_EPSILON * scale * (double)(contacts_seen + 1);
        for (int c = 0; c < 3; c++)
            cr_assert(fabs(p[c] - p0[c]) <= tol, "step %d axis %d: momentum %.9g vs %.9g (+- %g)", k, c, p[c], p0[c],
                      tol);
    }
    cr_assert_gt(contacts_seen, 5, "the spheres should have collided (%zu contacts)", contacts_seen);
    free_stepper(&s);
    vx_registry_destroy(w);
}

/* e = 1 with unequal masses: kinetic energy before equals after (within 1 %),
 * and the velocities are the closed-form elastic ones. */
Test(analytic, elastic_collision_conserves_energy)
{
    vx_registry *w = vx_test_physics_world();
    stepper s = make_stepper();
    const double m1 = 1.0, m2 = 2.0, u1 = 2.0, u2 = -1.0;
    vx_entity a =
        spawn_ball(w, vx_vec3_make(-1.5f, 0.0f, 0.0f), 0.5f, (float)m1, vx_vec3_make((float)u1, 0.0f, 0.0f), 1.0f);
    vx_entity b =
        spawn_ball(w, vx_vec3_make(1.5f, 0.0f, 0.0f), 0.5f, (float)m2, vx_vec3_make((float)u2, 0.0f, 0.0f), 1.0f);
    for (int k = 0; k < 90; k++) step(w, &s);
    double v1 = vx_test_body(w, a)->velocity.x, v2 = vx_test_body(w, b)->velocity.x;
    double ke0 = 0.5 * m1 * u1 * u1 + 0.5 * m2 * u2 * u2;
    double ke1 = 0.5 * m1 * v1 * v1 + 0.5 * m2 * v2 * v2;
    VX_ASSERT_NEAR(ke1, ke0, 0.01 * ke0);
    VX_ASSERT_NEAR(v1, ((m1 - m2) * u1 + 2.0 * m2 * u2) / (m1 + m2), 1e-5); /* -2 */
    VX_ASSERT_NEAR(v2, ((m2 - m1) * u2 + 2.0 * m1 * u1) / (m1 + m2), 1e-5); /* 1 */
    free_stepper(&s);
    vx_registry_destroy(w);
}

/* A 3-ball chain of equal elastic balls with gaps: the first hits the second,
 * which then hits the third; each collision swaps velocities, so the motion is
 * handed down the chain: (v, 0, 0) -> (0, 0, v). */
Test(analytic, three_ball_chain_hands_motion_down)
{
    vx_registry *w = vx_test_physics_world();
    stepper s = make_stepper();
    const float v = 2.0f;
    vx_entity b1 = spawn_ball(w, vx_vec3_make(0.0f, 0.0f, 0.0f), 0.5f, 1.0f, vx_vec3_make(v, 0.0f, 0.0f), 1.0f);
    vx_entity b2 = spawn_ball(w, vx_vec3_make(1.5f, 0.0f, 0.0f), 0.5f, 1.0f, vx_vec3_zero(), 1.0f);
    vx_entity b3 = spawn_ball(w, vx_vec3_make(3.0f, 0.0f, 0.0f), 0.5f, 1.0f, vx_vec3_zero(), 1.0f);
    int first_12 = -1, first_23 = -1;
    for (int k = 1; k <= 120; k++) {
        step(w, &s);
        for (size_t i = 0; i < s.report.count; i++) {
            const vx_contact *c = &s.report.items[i];
            if (c->impulse <= 0.0f) continue;
            if (vx_entity_equal(c->entity_a, b1) && vx_entity_equal(c->entity_b, b2) && first_12 < 0) first_12 = k;
            if (vx_entity_equal(c->entity_a, b2) && vx_entity_equal(c->entity_b, b3) && first_23 < 0) first_23 = k;
            cr_assert_not(vx_entity_equal(c->entity_a, b1) && vx_entity_equal(c->entity_b, b3));
        }
    }
    cr_assert_gt(first_12, 0);
    cr_assert_gt(first_23, first_12, "1-2 at step %d, 2-3 at step %d", first_12, first_23);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, b1)->velocity, 0.0f, 0.0f, 0.0f, 1e-6);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, b2)->velocity, 0.0f, 0.0f, 0.0f, 1e-6);
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, b3)->velocity, v, 0.0f, 0.0f, 1e-6);
    free_stepper(&s);
    vx_registry_destroy(w);
}
