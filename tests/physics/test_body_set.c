/* The step's body kinds through vx_step: free rigid bodies
 * (semi-implicit Euler and torque-free rotation, bit for bit), damping,
 * rotation-locked, static, kinematic and collider-only bodies, and sensors. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "physics/body/body_set.h"
#include "test_helpers.h"
#include "voltex/physics.h"
#include "voltex/rotation.h"

static bool vec3_same(vx_vec3 a, vx_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
static bool quat_same(vx_quat a, vx_quat b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }

/* With one substep and no contacts an asymmetric box follows v += g h,
 * x += v h, and vx_rotation_integrate, bit for bit; |L| and the rotational
 * energy stay put. */
Test(physics_bodies, free_asymmetric_body_is_semi_implicit_euler_and_torque_free)
{
    vx_registry *w = vx_test_physics_world();
    const vx_vec3 half = {0.1f, 0.25f, 0.4f};
    vx_collider shape = vx_collider_box(half);
    vx_rigidbody rb = vx_rigidbody_dynamic(2.0f);
    rb.velocity = vx_vec3_make(1.0f, 2.0f, -0.5f);
    rb.angular_velocity = vx_vec3_make(0.3f, 5.0f, 0.2f);
    vx_quat q0 = vx_quat_normalize(vx_quat_make(0.1f, 0.2f, -0.3f, 0.9f));
    vx_entity e = vx_test_spawn_rotated(w, vx_vec3_make(0.0f, 50.0f, 0.0f), q0, &shape, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);

    const float h = s.cfg.fixed_dt;
    const vx_vec3 inertia = vx_inertia_box(2.0f, half);
    vx_vec3 x = vx_vec3_make(0.0f, 50.0f, 0.0f), v = rb.velocity, om = rb.angular_velocity;
    vx_quat q = q0;
    float l0 = vx_vec3_length(vx_angular_momentum(q, om, inertia));
    float e0 = vx_rotational_energy(q, om, inertia);
    for (int k = 1; k <= 300; k++) {
        vx_test_step(w, &s);
        v = vx_vec3_add(v, vx_vec3_scale(vx_vec3_scale(s.cfg.gravity, 1.0f), h));
        x = vx_vec3_add(x, vx_vec3_scale(v, h));
        vx_rotation_integrate(&q, &om, inertia, h);
        const vx_transform *t = vx_test_transform(w, e);
        const vx_rigidbody *b = vx_test_body(w, e);
        cr_assert(vec3_same(t->position, x) && vec3_same(b->velocity, v), "step %d: linear state differs", k);
        cr_assert(quat_same(t->rotation, q) && vec3_same(b->angular_velocity, om), "step %d: rotation differs", k);
        cr_assert_eq(s.report.count, 0);
    }
    const vx_transform *t = vx_test_transform(w, e);
    const vx_rigidbody *b = vx_test_body(w, e);
    VX_ASSERT_NEAR(vx_vec3_length(vx_angular_momentum(t->rotation, b->angular_velocity, inertia)), l0, 1e-4 * l0);
    VX_ASSERT_NEAR(vx_rotational_energy(t->rotation, b->angular_velocity, inertia), e0, 1e-4 * e0);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* Box2D-style damping: v = (v + g h) / (1 + h c), w / (1 + h c_w). */
Test(physics_bodies, damping_divides_by_one_plus_h_c)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider shape = vx_collider_sphere(0.5f);
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    rb.velocity = vx_vec3_make(4.0f, 0.0f, 0.0f);
    rb.angular_velocity = vx_vec3_make(0.0f, 0.0f, 3.0f);
    rb.linear_damping = 0.5f;
    rb.angular_damping = 0.3f;
    vx_entity e = vx_test_spawn_body(w, vx_vec3_make(0.0f, 100.0f, 0.0f), &shape, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    const float h = s.cfg.fixed_dt;
    vx_vec3 v = rb.velocity;
    double wz = 3.0;
    for (int k = 1; k <= 120; k++) {
        vx_test_step(w, &s);
        v = vx_vec3_scale(vx_vec3_add(v, vx_vec3_scale(s.cfg.gravity, h)), 1.0f / (1.0f + h * 0.5f));
        wz /= 1.0 + (double)h * 0.3;
        cr_assert(vec3_same(vx_test_body(w, e)->velocity, v), "step %d: velocity differs", k);
        VX_ASSERT_NEAR(vx_test_body(w, e)->angular_velocity.z, wz, 1e-5 * wz);
    }
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* A rotation-locked box landing half over the edge of a static box is pushed
 * off-centre, yet never turns: its orientation stays the identity and w 0. */
Test(physics_bodies, locked_rotation_never_turns)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider table_shape = vx_collider_box(vx_vec3_make(1.0f, 0.5f, 1.0f));
    vx_rigidbody table = vx_rigidbody_static();
    vx_entity t = vx_test_spawn_body(w, vx_vec3_zero(), &table_shape, &table);
    vx_collider shape = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    rb.lock_rotation = true;
    vx_entity e = vx_test_spawn_body(w, vx_vec3_make(1.2f, 1.5f, 0.3f), &shape, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    float pushed = 0.0f;
    for (int k = 1; k <= 120; k++) {
        vx_test_step(w, &s);
        pushed += vx_test_pair_impulse(&s, t, e, NULL);
        cr_assert(quat_same(vx_test_transform(w, e)->rotation, vx_quat_identity()), "step %d: turned", k);
        cr_assert(vec3_same(vx_test_body(w, e)->angular_velocity, vx_vec3_zero()), "step %d: spins", k);
    }
    cr_assert_gt(pushed, 1.0f, "the box never rested on the table (%g N s)", (double)pushed);
    /* It rests on the table's corner region like a particle would. */
    VX_ASSERT_NEAR(vx_test_transform(w, e)->position.y, 1.0, 0.011);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* A static body (even one given a velocity) and a collider without a rigid
 * body never move, however hard they are hit; the hit body rests on them. */
Test(physics_bodies, static_bodies_and_bare_colliders_never_move)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider slab = vx_collider_box(vx_vec3_make(2.0f, 0.5f, 2.0f));
    vx_rigidbody st = vx_rigidbody_static();
    st.velocity = vx_vec3_make(1.0f, 0.0f, 0.0f); /* ignored: static */
    st.angular_velocity = vx_vec3_make(0.0f, 1.0f, 0.0f);
    vx_quat tilt = vx_quat_from_axis_angle(vx_vec3_make(0.0f, 0.0f, 1.0f), 0.05f);
    vx_entity a = vx_test_spawn_rotated(w, vx_vec3_make(-3.0f, 0.0f, 0.0f), tilt, &slab, &st);
    vx_entity b = vx_test_spawn_rotated(w, vx_vec3_make(3.0f, 0.0f, 0.0f), tilt, &slab, NULL);
    vx_collider cube = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_rigidbody heavy = vx_rigidbody_dynamic(50.0f);
    heavy.velocity = vx_vec3_make(0.0f, -10.0f, 0.0f);
    vx_entity ha = vx_test_spawn_body(w, vx_vec3_make(-3.0f, 2.0f, 0.0f), &cube, &heavy);
    vx_entity hb = vx_test_spawn_body(w, vx_vec3_make(3.0f, 2.0f, 0.0f), &cube, &heavy);
    vx_transform ta0 = *vx_test_transform(w, a), tb0 = *vx_test_transform(w, b);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    float ia = 0.0f, ib = 0.0f;
    for (int k = 1; k <= 180; k++) {
        vx_test_step(w, &s);
        ia += vx_test_pair_impulse(&s, a, ha, NULL);
        ib += vx_test_pair_impulse(&s, b, hb, NULL);
        cr_assert(memcmp(vx_test_transform(w, a), &ta0, sizeof ta0) == 0, "step %d: the static body moved", k);
        cr_assert(memcmp(vx_test_transform(w, b), &tb0, sizeof tb0) == 0, "step %d: the bare collider moved", k);
    }
    cr_assert_gt(ia, 100.0f);
    cr_assert_gt(ib, 100.0f);
    /* the static body keeps the velocity it was given, the solver never used it */
    VX_ASSERT_VEC3_NEAR(vx_test_body(w, a)->velocity, 1.0f, 0.0f, 0.0f, 0.0);
    /* both cubes came to rest on their slabs, the same way */
    for (int i = 0; i < 2; i++) {
        vx_entity h = i == 0 ? ha : hb;
        cr_assert_lt(vx_vec3_length(vx_test_body(w, h)->velocity), 0.05f);
        cr_assert_gt(vx_test_transform(w, h)->position.y, 0.9f);
    }
    VX_ASSERT_NEAR(vx_test_transform(w, ha)->position.y, vx_test_transform(w, hb)->position.y, 1e-5);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* A kinematic box moves at its own velocity and angular velocity (no
 * gravity), pushes a dynamic sphere out of its way as an infinite mass, and
 * is not changed by the contact. */
Test(physics_bodies, kinematic_moves_on_its_own_and_pushes)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider pusher_shape = vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f));
    vx_rigidbody k = vx_rigidbody_kinematic();
    k.velocity = vx_vec3_make(2.0f, 0.0f, 0.0f);
    k.angular_velocity = vx_vec3_make(0.0f, 0.5f, 0.0f);
    vx_entity pusher = vx_test_spawn_body(w, vx_vec3_zero(), &pusher_shape, &k);
    vx_collider ball_shape = vx_collider_sphere(0.25f);
    vx_rigidbody ball = vx_rigidbody_dynamic(3.0f);
    ball.gravity_scale = 0.0f;
    vx_entity e = vx_test_spawn_body(w, vx_vec3_make(2.0f, 0.0f, 0.0f), &ball_shape, &ball);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    const float h = s.cfg.fixed_dt;
    vx_vec3 x = vx_vec3_zero();
    float pushed = 0.0f;
    for (int n = 1; n <= 60; n++) {
        vx_test_step(w, &s);
        x = vx_vec3_add(x, vx_vec3_scale(k.velocity, h));
        pushed += vx_test_pair_impulse(&s, pusher, e, NULL);
        const vx_rigidbody *kb = vx_test_body(w, pusher);
        cr_assert(vec3_same(vx_test_transform(w, pusher)->position, x), "step %d: the pusher was pushed", n);
        cr_assert(vec3_same(kb->velocity, k.velocity) && vec3_same(kb->angular_velocity, k.angular_velocity));
    }
    /* turned by 0.5 rad/s for 1 s about Y */
    vx_quat expected = vx_quat_from_axis_angle(vx_vec3_make(0.0f, 1.0f, 0.0f), 0.5f * 60.0f * h);
    vx_quat q = vx_test_transform(w, pusher)->rotation;
    VX_ASSERT_NEAR(fabsf(q.x * expected.x + q.y * expected.y + q.z * expected.z + q.w * expected.w), 1.0, 1e-6);
    /* the ball was hit and now runs ahead at least as fast as the pusher */
    cr_assert_gt(pushed, 0.0f);
    cr_assert_geq(vx_test_body(w, e)->velocity.x, 2.0f - 1e-4f);
    cr_assert_gt(vx_test_transform(w, e)->position.x, x.x + 0.5f);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* A ball falling through a static sensor box: reported while they overlap,
 * with impulse 0 and the sensor flag, and never pushed (its fall stays the
 * free fall bit for bit). */
Test(physics_bodies, sensor_reports_overlap_and_never_pushes)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider zone = vx_collider_box(vx_vec3_make(1.0f, 1.0f, 1.0f));
    zone.sensor = true;
    vx_entity sensor = vx_test_spawn_body(w, vx_vec3_zero(), &zone, NULL);
    vx_collider ball_shape = vx_collider_sphere(0.25f);
    vx_rigidbody ball = vx_rigidbody_dynamic(1.0f);
    vx_entity e = vx_test_spawn_body(w, vx_vec3_make(0.0f, 3.0f, 0.0f), &ball_shape, &ball);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    const float h = s.cfg.fixed_dt;
    vx_vec3 x = vx_vec3_make(0.0f, 3.0f, 0.0f), v = vx_vec3_zero();
    int overlapping = 0, reported = 0;
    for (int k = 1; k <= 90; k++) {
        vx_test_step(w, &s);
        v = vx_vec3_add(v, vx_vec3_scale(s.cfg.gravity, h));
        x = vx_vec3_add(x, vx_vec3_scale(v, h));
        cr_assert(vec3_same(vx_test_transform(w, e)->position, x), "step %d: the ball was pushed", k);
        bool inside = fabsf(x.y) < 1.0f + 0.25f;
        overlapping += inside;
        cr_assert_leq(s.report.count, 1);
        if (s.report.count == 1) {
            const vx_contact *c = &s.report.items[0];
            reported++;
            cr_assert(c->sensor);
            cr_assert_eq(c->impulse, 0.0f);
            cr_assert(vx_entity_equal(c->entity_a, sensor) && vx_entity_equal(c->entity_b, e));
            cr_assert_gt(c->depth, 0.0f);
        }
        cr_assert_eq(s.report.count == 1, inside, "step %d: y = %g, reported %zu", k, (double)x.y, s.report.count);
    }
    cr_assert_gt(overlapping, 3);
    cr_assert_eq(reported, overlapping);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w);
}

/* The pose transforms on 4-float registers (body_set.h) are the bits of
 * the vx_vec3 formulas they replace: x + rotate(q, local) and
 * rotate(conj(q), world - x), with the pad lane +0, for random poses. */
Test(physics_bodies, register_pose_transforms_are_the_bits_of_the_vec3_formulas)
{
    vx_test_rng rng = {0x5eedu};
    for (int i = 0; i < 100000; i++) {
        vx_body_pose p;
        p.x = vx_test_rng_vec3(&rng, -50.0f, 50.0f);
        vx_vec3 axis = vx_test_rng_vec3(&rng, -1.0f, 1.0f); /* drawn in turn, not as one call's arguments */
        float w = vx_test_rng_range(&rng, -1.0f, 1.0f);
        p.q = vx_quat_normalize(vx_quat_make(axis.x, axis.y, axis.z, w));
        vx_vec3 local = vx_test_rng_vec3(&rng, -2.0f, 2.0f);
        vx_vec3 world = vx_test_rng_vec3(&rng, -60.0f, 60.0f);
        vx_vec3 to_world = vx_vec3_add(p.x, vx_quat_rotate(p.q, local));
        vx_vec3 to_body = vx_quat_rotate(vx_quat_conjugate(p.q), vx_vec3_sub(world, p.x));
        _Alignas(16) float got_world[4], got_body[4];
        vx_v4_store3(got_world, vx_pose_to_world4(&p, &local));
        vx_v4_store3(got_body, vx_pose_to_body4(&p, vx_v4_load3(&world)));
        cr_assert(memcmp(got_world, &to_world, sizeof to_world) == 0 && got_world[3] == 0.0f &&
                      !signbit(got_world[3]),
                  "pose %d: to world (%a %a %a) vs (%a %a %a)", i, (double)got_world[0], (double)got_world[1],
                  (double)got_world[2], (double)to_world.x, (double)to_world.y, (double)to_world.z);
        cr_assert(memcmp(got_body, &to_body, sizeof to_body) == 0, "pose %d: to body (%a %a %a) vs (%a %a %a)", i,
                  (double)got_body[0], (double)got_body[1], (double)got_body[2], (double)to_body.x,
                  (double)to_body.y, (double)to_body.z);
    }
}

/* The step finds the world's bodies again after every change of what
 * exists (vx_registry_layout), and only reads them through the pointers it has
 * otherwise: a body spawned between steps falls from the next step on (also
 * when the spawns move the component arrays), one that loses its rigid body
 * stops, a despawned one is gone from the contacts, and a scratch moved to
 * another world simulates that world's bodies. */
Test(physics_bodies, bodies_added_and_removed_between_steps_are_found)
{
    vx_registry *w = vx_test_physics_world();
    vx_collider floor_shape = vx_collider_box(vx_vec3_make(50.0f, 0.5f, 50.0f));
    vx_entity floor = vx_test_spawn_body(w, vx_vec3_make(0.0f, -0.5f, 0.0f), &floor_shape, NULL);
    vx_collider ball = vx_collider_sphere(0.25f);
    vx_rigidbody rb = vx_rigidbody_dynamic(1.0f);
    vx_entity first = vx_test_spawn_body(w, vx_vec3_make(0.0f, 5.0f, 0.0f), &ball, &rb);
    vx_test_stepper s;
    vx_test_stepper_init(&s);
    vx_test_step(w, &s);
    cr_assert_lt(vx_test_transform(w, first)->position.y, 5.0f);

    /* many new bodies: the component arrays grow and move */
    vx_entity added[200];
    for (int i = 0; i < 200; i++)
        added[i] = vx_test_spawn_body(w, vx_vec3_make((float)(i % 20) - 10.0f, 10.0f, (float)(i / 20) * 2.0f - 10.0f),
                                      &ball, &rb);
    float y_first = vx_test_transform(w, first)->position.y;
    vx_test_step(w, &s);
    cr_assert_lt(vx_test_transform(w, first)->position.y, y_first, "the first body still falls");
    for (int i = 0; i < 200; i++) {
        /* one step of free fall from rest: y = 10 + g h^2 */
        float expect = 10.0f + s.cfg.gravity.y * s.cfg.fixed_dt * s.cfg.fixed_dt;
        cr_assert_eq(vx_test_transform(w, added[i])->position.y, expect, "body %d did not move as spawned", i);
    }

    /* the first body loses its rigid body: a bare collider, it stays put */
    for (int k = 0; k < 60; k++) vx_test_step(w, &s);
    cr_assert(vx_registry_remove(w, first, VX_COMPONENT_RIGIDBODY));
    vx_transform frozen = *vx_test_transform(w, first);
    for (int k = 0; k < 5; k++) vx_test_step(w, &s);
    cr_assert(memcmp(vx_test_transform(w, first), &frozen, sizeof frozen) == 0, "a bare collider moved");

    /* the added bodies land on the floor; despawned, they leave no contact */
    for (int k = 0; k < 120; k++) vx_test_step(w, &s);
    cr_assert_gt(vx_test_pair_impulse(&s, floor, added[0], NULL), 0.0f, "the ball does not rest on the floor");
    for (int i = 0; i < 200; i++) cr_assert(vx_registry_despawn(w, added[i]));
    vx_test_step(w, &s);
    for (size_t i = 0; i < s.report.count; i++)
        for (int j = 0; j < 200; j++)
            cr_assert(!vx_entity_equal(s.report.items[i].entity_a, added[j]) &&
                          !vx_entity_equal(s.report.items[i].entity_b, added[j]),
                      "a despawned body is still in contact");
    vx_registry_destroy(w);

    /* the same scratch on a new world */
    vx_registry *w2 = vx_test_physics_world();
    vx_entity other = vx_test_spawn_body(w2, vx_vec3_make(3.0f, 2.0f, 1.0f), &ball, &rb);
    vx_test_step(w2, &s);
    VX_ASSERT_NEAR(vx_test_transform(w2, other)->position.y,
                   2.0f + s.cfg.gravity.y * s.cfg.fixed_dt * s.cfg.fixed_dt, 1e-6);
    vx_test_stepper_free(&s);
    vx_registry_destroy(w2);
}
