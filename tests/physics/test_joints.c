/* Joints through the library (voltex/joint.h): the defs and their checks,
 * destroying a joint, pairs that do not collide, islands that sleep and wake
 * through joints, and the hinge angle counting whole turns. */
#include <criterion/criterion.h>
#include <math.h>

#include "test_world_helpers.h"
#include "voltex/joint.h"

#define G 9.81f

static vx_world *world_with(bool sleeping)
{
    vx_world_def def = vx_world_def_default();
    def.sleeping = sleeping;
    vx_error err;
    vx_world *w = vx_world_create(&def, &err);
    cr_assert_not_null(w, "%s", err.message);
    return w;
}

static vx_entity sphere_at(vx_world *w, vx_vec3 p, vx_body_type type)
{
    vx_body_def d = vx_body_def_default();
    d.type = type;
    d.position = p;
    return vx_test_add_body(w, &d, vx_collider_sphere(0.1f));
}

static vx_joint_id make_joint(vx_world *w, const vx_joint_def *def)
{
    vx_joint_id id;
    vx_error err;
    cr_assert_eq(vx_world_create_joint(w, def, &id, &err), VX_OK, "%s", err.message);
    return id;
}

static void expect_refused(vx_world *w, const vx_joint_def *def, const char *message)
{
    vx_joint_id id;
    vx_error err;
    cr_assert_eq(vx_world_create_joint(w, def, &id, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, message);
    cr_assert_eq(id.generation, 0u);
}

static vx_entity moving_sphere(vx_world *w, vx_vec3 p, vx_vec3 v, vx_vec3 spin, float mass)
{
    vx_body_def d = vx_body_def_default();
    d.position = p;
    d.velocity = v;
    d.angular_velocity = spin;
    d.mass = mass;
    return vx_test_add_body(w, &d, vx_collider_sphere(0.1f));
}

static void step_world(vx_world *w, int steps)
{
    vx_error err;
    for (int k = 0; k < steps; k++) cr_assert_eq(vx_world_step(w, &err), VX_OK, "%s", err.message);
}

/* What a default def of each type leaves out shows in what its joint does:
 * no limit, motor or spring (a hinge spins on, a slider slides on, a
 * ball's body turns freely), the distance held at the length of creation,
 * a fixed joint holding its body, and none ever breaks (a 1000 kg body
 * hung from each). */
Test(joints, default_defs_make_free_unbreakable_joints)
{
    vx_world_def wd = vx_world_def_default();
    wd.gravity = vx_vec3_zero();
    vx_error err;
    vx_world *w = vx_world_create(&wd, &err);
    cr_assert_not_null(w, "%s", err.message);
    vx_entity hinged = moving_sphere(w, vx_vec3_make(0, 0, 0), vx_vec3_zero(), vx_vec3_make(0, 0, 2), 1.0f);
    vx_entity sliding = moving_sphere(w, vx_vec3_make(0, 5, 0), vx_vec3_make(1, 0, 0), vx_vec3_zero(), 1.0f);
    vx_entity turning = moving_sphere(w, vx_vec3_make(0, 10, 0), vx_vec3_zero(), vx_vec3_make(1, 2, 3), 1.0f);
    vx_joint_def h = vx_hinge_joint_def_default(), sl = vx_slider_joint_def_default(), b = vx_ball_joint_def_default();
    h.b = hinged;
    h.axis = vx_vec3_make(0, 0, 1);
    sl.b = sliding;
    sl.anchor = vx_vec3_make(0, 5, 0);
    sl.axis = vx_vec3_make(1, 0, 0);
    b.b = turning;
    b.anchor = vx_vec3_make(0, 10, 0);
    vx_joint_id hid = make_joint(w, &h), sid = make_joint(w, &sl);
    make_joint(w, &b);
    step_world(w, 120); /* 2 s */
    vx_joint_state hs, ss;
    cr_assert_eq(vx_joint_get_state(w, hid, &hs, &err), VX_OK);
    cr_assert_eq(vx_joint_get_state(w, sid, &ss, &err), VX_OK);
    cr_assert_float_eq(hs.speed, 2.0f, 1e-4f, "the hinge turns on at 2 rad/s: %g", (double)hs.speed);
    cr_assert_float_eq(hs.position, 4.0f, 1e-3f, "no limit: 4 rad in 2 s, %g", (double)hs.position);
    cr_assert_float_eq(ss.speed, 1.0f, 1e-4f, "the slider slides on at 1 m/s: %g", (double)ss.speed);
    cr_assert_float_eq(ss.position, 2.0f, 1e-3f, "no spring or limit: 2 m in 2 s, %g", (double)ss.position);
    vx_body_state ts;
    cr_assert_eq(vx_body_get_state(w, turning, &ts, &err), VX_OK);
    cr_assert_float_eq(vx_vec3_length(ts.w), sqrtf(14.0f), 1e-3f, "the ball joint's body turns freely");
    cr_assert_lt(vx_vec3_length(vx_vec3_sub(ts.p, vx_vec3_make(0, 10, 0))), 1e-4f, "and stays on its anchor");
    vx_world_destroy(w);

    /* in gravity: heavy bodies on a distance joint (length of creation) and a fixed joint */
    w = world_with(false);
    vx_entity swinging = moving_sphere(w, vx_vec3_make(1, 0, 0), vx_vec3_zero(), vx_vec3_zero(), 1000.0f);
    vx_entity welded = moving_sphere(w, vx_vec3_make(0, -3, 0), vx_vec3_zero(), vx_vec3_zero(), 1000.0f);
    vx_joint_def d = vx_distance_joint_def_default(), f = vx_fixed_joint_def_default();
    d.b = swinging;
    d.anchor_a = vx_vec3_zero();
    d.anchor_b = vx_vec3_make(1, 0, 0);
    f.b = welded;
    f.anchor = vx_vec3_make(0, -3, 0);
    vx_joint_id did = make_joint(w, &d), fid = make_joint(w, &f);
    float longest = 0.0f, shortest = 2.0f;
    for (int k = 0; k < 120; k++) {
        step_world(w, 1);
        vx_body_state st;
        cr_assert_eq(vx_body_get_state(w, swinging, &st, &err), VX_OK);
        longest = fmaxf(longest, vx_vec3_length(st.p));
        shortest = fminf(shortest, vx_vec3_length(st.p));
    }
    cr_assert(longest < 1.001f && shortest > 0.999f, "the distance held at 1 m: %g .. %g", (double)shortest,
              (double)longest);
    vx_body_state ws;
    cr_assert_eq(vx_body_get_state(w, welded, &ws, &err), VX_OK);
    cr_assert_lt(vx_vec3_length(vx_vec3_sub(ws.p, vx_vec3_make(0, -3, 0))), 1e-3f, "the fixed joint holds it");
    vx_joint_state ds, fs;
    cr_assert_eq(vx_joint_get_state(w, did, &ds, &err), VX_OK);
    cr_assert_eq(vx_joint_get_state(w, fid, &fs, &err), VX_OK);
    cr_assert(!ds.broken && !fs.broken, "no default joint breaks");
    cr_assert_float_eq(vx_vec3_length(fs.force), 1000.0f * G, 0.01f * 1000.0f * G, "the weld carries m g: %g N",
                       (double)vx_vec3_length(fs.force));
    vx_world_destroy(w);
}

Test(joints, bad_defs_are_refused_with_the_field)
{
    vx_world *w = world_with(false);
    vx_entity a = sphere_at(w, vx_vec3_make(0, 0, 0), VX_BODY_DYNAMIC);
    vx_entity wall = sphere_at(w, vx_vec3_make(2, 0, 0), VX_BODY_STATIC);
    vx_joint_def d = vx_hinge_joint_def_default();
    d.a = a;
    d.b = a;
    expect_refused(w, &d, "joint: a, b: the same body on both sides");
    d.a = d.b = VX_ENTITY_NULL;
    expect_refused(w, &d, "joint: a, b: both are the world; at least one must be a body");
    d.a = wall;
    expect_refused(w, &d, "joint: a, b: at least one must be a dynamic body");
    d.b = a;
    expect_refused(w, &d, "joint: axis: must be a non-zero vector");
    d.axis = vx_vec3_make(0, 0, 2);
    d.limit_enabled = true;
    d.lower = 0.1f;
    d.upper = 1.0f;
    expect_refused(w, &d, "joint: limits: must contain 0, the position at creation (got [0.1, 1])");
    d.limit_enabled = false;
    d.motor.enabled = true;
    d.motor.max_effort = -1.0f;
    expect_refused(w, &d, "joint: motor: the effort must be finite and >= 0");
    d.motor.enabled = false;
    d.spring.enabled = true;
    expect_refused(w, &d, "joint: spring: frequency must be finite and > 0");
    d.spring.enabled = false;
    d.break_force = 0.0f;
    expect_refused(w, &d, "joint: break_force: must be > 0 (INFINITY: never)");
    d.break_force = INFINITY;
    vx_joint_id id = make_joint(w, &d);
    vx_joint_def back;
    cr_assert_eq(vx_joint_get_def(w, id, &back, NULL), VX_OK);
    cr_assert_float_eq(back.axis.z, 1.0f, 1e-7f, "the axis is kept unit");
    vx_world_destroy(w);
}

/* A ball on a string: destroyed, the string lets go and the ball falls as
 * a free body does; the id then names nothing. */
Test(joints, a_destroyed_joint_acts_no_more)
{
    vx_world *w = world_with(false);
    vx_entity ball = sphere_at(w, vx_vec3_make(0, 1, 0), VX_BODY_DYNAMIC);
    vx_joint_def d = vx_distance_joint_def_default();
    d.b = ball;
    d.anchor_a = vx_vec3_make(0, 2, 0);
    d.anchor_b = vx_vec3_make(0, 1, 0);
    vx_joint_id id = make_joint(w, &d);
    for (int n = 0; n < 30; n++) cr_assert_eq(vx_world_step(w, NULL), VX_OK);
    cr_assert_float_eq(vx_test_state_of(w, ball).p.y, 1.0f, 1e-4f, "the string holds");
    vx_joint_state s;
    cr_assert_eq(vx_joint_get_state(w, id, &s, NULL), VX_OK);
    cr_assert_float_eq(s.force.y, 9.81f, 1e-3f, "it carries the ball's weight (1 kg)");
    cr_assert(vx_world_destroy_joint(w, id));
    cr_assert_not(vx_world_destroy_joint(w, id));
    vx_error err;
    cr_assert_eq(vx_joint_get_state(w, id, &s, &err), VX_ERR_INVALID);
    float y0 = vx_test_state_of(w, ball).p.y;
    for (int n = 1; n <= 30; n++) cr_assert_eq(vx_world_step(w, NULL), VX_OK);
    float h = vx_world_get_def(w)->fixed_dt;
    cr_assert_float_eq(y0 - vx_test_state_of(w, ball).p.y, G * h * h * 0.5f * 30.0f * 31.0f, 1e-4f);
    vx_world_destroy(w);
}

/* Two spheres overlapping, joined: no contact between them unless
 * collide_connected says so. */
Test(joints, joined_bodies_do_not_collide_unless_asked)
{
    for (int ask = 0; ask < 2; ask++) {
        vx_world_def wd = vx_world_def_default();
        wd.gravity = vx_vec3_zero();
        vx_world *w = vx_world_create(&wd, NULL);
        vx_entity a = sphere_at(w, vx_vec3_make(0, 0, 0), VX_BODY_DYNAMIC);
        vx_entity b = sphere_at(w, vx_vec3_make(0.15f, 0, 0), VX_BODY_DYNAMIC);
        vx_joint_def d = vx_ball_joint_def_default();
        d.a = a;
        d.b = b;
        d.anchor = vx_vec3_make(0.075f, 0, 0);
        d.collide_connected = ask == 1;
        make_joint(w, &d);
        cr_assert_eq(vx_world_step(w, NULL), VX_OK);
        cr_assert_eq(vx_world_contacts(w)->count > 0, ask == 1, "collide_connected %d: %zu contacts", ask,
                     vx_world_contacts(w)->count);
        vx_world_destroy(w);
    }
}

/* A chain of 5 spheres hanging from a static body: it comes to rest and
 * falls asleep as one island; a push on the bottom link wakes every link. */
Test(joints, a_chain_sleeps_and_wakes_as_one)
{
    vx_world *w = world_with(true);
    vx_entity top = sphere_at(w, vx_vec3_make(0, 5, 0), VX_BODY_STATIC);
    vx_entity link[5];
    vx_entity prev = top;
    for (int i = 0; i < 5; i++) {
        link[i] = sphere_at(w, vx_vec3_make(0, 4.5f - 0.5f * (float)i, 0), VX_BODY_DYNAMIC);
        vx_joint_def d = vx_ball_joint_def_default();
        d.a = prev;
        d.b = link[i];
        d.anchor = vx_vec3_make(0, 4.75f - 0.5f * (float)i, 0);
        make_joint(w, &d);
        prev = link[i];
    }
    int n = 0;
    while (vx_world_awake_count(w) > 0 && n < 600) {
        cr_assert_eq(vx_world_step(w, NULL), VX_OK);
        n++;
    }
    cr_assert_eq(vx_world_awake_count(w), 0, "the chain never slept");
    cr_assert_eq(vx_body_set_velocity(w, link[4], vx_vec3_make(1, 0, 0), vx_vec3_zero(), NULL), VX_OK);
    cr_assert_eq(vx_world_step(w, NULL), VX_OK);
    cr_assert_eq(vx_world_awake_count(w), 5, "a push on the bottom link wakes the chain");
    cr_assert_gt(vx_vec3_length(vx_test_state_of(w, link[0]).v), 0.0f, "the top link moves with it");
    vx_world_destroy(w);
}

/* A wheel driven by a hinge motor for several turns: the hinge angle counts
 * the whole turns (speed * time), not an angle wrapped to one turn. */
Test(joints, hinge_angle_counts_whole_turns)
{
    vx_world_def wd = vx_world_def_default();
    wd.gravity = vx_vec3_zero();
    vx_world *w = vx_world_create(&wd, NULL);
    vx_entity wheel = sphere_at(w, vx_vec3_zero(), VX_BODY_DYNAMIC);
    vx_joint_def d = vx_hinge_joint_def_default();
    d.b = wheel;
    d.axis = vx_vec3_make(0, 1, 0);
    d.motor.enabled = true;
    d.motor.speed = 10.0f;
    d.motor.max_effort = 1000.0f;
    vx_joint_id id = make_joint(w, &d);
    for (int n = 0; n < 240; n++) cr_assert_eq(vx_world_step(w, NULL), VX_OK); /* 4 s at 10 rad/s */
    vx_joint_state s;
    cr_assert_eq(vx_joint_get_state(w, id, &s, NULL), VX_OK);
    cr_assert_float_eq(s.speed, 10.0f, 1e-3f);
    cr_assert_float_eq(s.position, 40.0f, 0.02f, "6.4 turns");
    vx_world_destroy(w);
}
