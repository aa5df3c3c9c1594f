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

Test(joints, defaults_per_type)
{
    vx_joint_def (*make[5])(void) = {vx_ball_joint_def_default, vx_hinge_joint_def_default,
                                     vx_slider_joint_def_default, vx_fixed_joint_def_default,
                                     vx_distance_joint_def_default};
    for (int t = 0; t < 5; t++) {
        vx_joint_def d = make[t]();
        cr_assert_eq((int)d.type, t);
        cr_assert_eq(d.a.index, VX_ENTITY_NULL.index);
        cr_assert_eq(d.b.index, VX_ENTITY_NULL.index);
        cr_assert_not(d.limit_enabled || d.cone_enabled || d.motor.enabled || d.spring.enabled || d.collide_connected);
        cr_assert(isinf(d.break_force));
        cr_assert_eq(d.length, 0.0f);
    }
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
