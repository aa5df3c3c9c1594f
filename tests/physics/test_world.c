/* The library API (voltex/world.h): settings and bodies checked with
 * messages that name the field, bodies made from defs behaving as physics
 * says, state read and written between steps, a program's own components. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "test_world_helpers.h"
#include "voltex/voltex.h"

static vx_world *make_world(void)
{
    vx_world_def def = vx_world_def_default();
    vx_error err;
    vx_world *w = vx_world_create(&def, &err);
    cr_assert_not_null(w, "%s", err.message);
    return w;
}

/* ---- settings ---- */

typedef struct {
    void (*spoil)(vx_world_def *d);
    const char *message;
} bad_def;

static void zero_dt(vx_world_def *d) { d->fixed_dt = 0.0f; }
static void nan_gravity(vx_world_def *d) { d->gravity.y = NAN; }
static void no_iterations(vx_world_def *d) { d->iterations = 0; }
static void many_substeps(vx_world_def *d) { d->substeps = VX_MAX_SUBSTEPS + 1; }
static void negative_position_passes(vx_world_def *d) { d->position_iterations = -1; }
static void many_threads(vx_world_def *d) { d->threads = VX_MAX_THREADS + 1; }
static void percent_above_one(vx_world_def *d) { d->baumgarte_percent = 1.5f; }
static void negative_slop(vx_world_def *d) { d->baumgarte_slop = -0.01f; }
static void zero_correction(vx_world_def *d) { d->max_correction = 0.0f; }
static void infinite_margin(vx_world_def *d) { d->speculative_distance = INFINITY; }
static void bad_order(vx_world_def *d) { d->order = (vx_solver_order)7; }
static void bad_restitution(vx_world_def *d) { d->restitution = (vx_restitution_model)2; }

Test(world, a_bad_setting_is_named_and_no_world_is_made)
{
    const bad_def cases[] = {
        {zero_dt, "world def: fixed_dt: must be a positive number"},
        {nan_gravity, "world def: gravity: must be finite"},
        {no_iterations, "world def: iterations: must be 1..1000"},
        {many_substeps, "world def: substeps: must be 1..1000"},
        {negative_position_passes, "world def: position_iterations: must be 0..1000"},
        {many_threads, "world def: threads: must be 1..256"},
        {percent_above_one, "world def: baumgarte_percent: must be 0..1"},
        {negative_slop, "world def: baumgarte_slop: must be >= 0"},
        {zero_correction, "world def: max_correction: must be > 0"},
        {infinite_margin, "world def: speculative_distance: must be >= 0"},
        {bad_order, "world def: order: not a vx_solver_order"},
        {bad_restitution, "world def: restitution: not a vx_restitution_model"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        vx_world_def def = vx_world_def_default();
        cases[i].spoil(&def);
        vx_error err;
        vx_error_clear(&err);
        cr_assert_null(vx_world_create(&def, &err));
        cr_assert_eq(err.code, VX_ERR_INVALID);
        cr_assert_str_eq(err.message, cases[i].message);
    }
}

Test(world, set_def_checks_and_keeps_the_old_settings_on_failure)
{
    vx_world *w = make_world();
    vx_world_def def = *vx_world_get_def(w);
    def.substeps = 4;
    cr_assert_eq(vx_world_set_def(w, &def, NULL), VX_OK);
    cr_assert_eq(vx_world_get_def(w)->substeps, 4);
    def.fixed_dt = -1.0f;
    vx_error err;
    cr_assert_eq(vx_world_set_def(w, &def, &err), VX_ERR_INVALID);
    cr_assert_eq(vx_world_get_def(w)->fixed_dt, 1.0f / 60.0f, "the old dt stays");
    cr_assert_eq(vx_world_get_def(w)->substeps, 4);
    vx_world_destroy(w);
}

/* ---- bodies ---- */

Test(world, a_bad_body_or_shape_is_named_and_nothing_is_added)
{
    vx_world *w = make_world();
    vx_error err;
    vx_entity e;
    vx_body_def def = vx_body_def_default();
    def.mass = 0.0f;
    cr_assert_eq(vx_world_create_body(w, &def, &e, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "body def: mass: a dynamic body needs mass > 0");
    def = vx_body_def_default();
    def.rotation = vx_quat_make(0.0f, 0.0f, 0.0f, 2.0f);
    cr_assert_eq(vx_world_create_body(w, &def, &e, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "body def: rotation: must be a unit quaternion");
    def = vx_body_def_default();
    def.restitution = 1.5f;
    cr_assert_eq(vx_world_create_body(w, &def, &e, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "body def: restitution: must be 0..1");
    cr_assert_eq(vx_registry_entity_count(vx_world_registry(w)), 0u, "no entity was left behind");

    def = vx_body_def_default();
    cr_assert_eq(vx_world_create_body(w, &def, &e, &err), VX_OK);
    vx_collider flat = vx_collider_box(vx_vec3_make(1.0f, 0.0f, 1.0f));
    cr_assert_eq(vx_body_set_shape(w, e, &flat, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "shape: half_extents: must be > 0");
    vx_collider capsule = vx_collider_capsule(0.2f, NAN);
    cr_assert_eq(vx_body_set_shape(w, e, &capsule, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "shape: half_height: must be > 0");
    cr_assert_null(vx_registry_get(vx_world_registry(w), e, VX_COMPONENT_COLLIDER), "no shape was set");
    vx_world_destroy(w);
}

Test(world, meshes_go_on_static_and_kinematic_bodies_heightfields_on_static_ones)
{
    vx_world *w = make_world();
    vx_error err;
    vx_vec3 v[3] = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}};
    uint32_t idx[3] = {0, 1, 2};
    const vx_mesh *mesh = NULL, *field = NULL;
    cr_assert_eq(vx_world_make_mesh(w, v, 3, idx, 1, &mesh, &err), VX_OK, "%s", err.message);
    float heights[4] = {0, 0, 0, 0};
    cr_assert_eq(vx_world_make_heightfield(w, heights, 2, 2, 1.0f, 1.0f, &field, &err), VX_OK, "%s", err.message);
    vx_mesh_info info = vx_mesh_get_info(field);
    cr_assert(info.heightfield);
    cr_assert_eq(info.triangle_count, 2u);
    cr_assert_eq(vx_mesh_get_info(mesh).triangle_count, 1u);
    vx_collider cm = vx_collider_mesh(mesh), ch = vx_collider_mesh(field);
    cr_assert_eq(cm.type, VX_SHAPE_MESH);
    cr_assert_eq(ch.type, VX_SHAPE_HEIGHTFIELD);

    vx_body_def def = vx_body_def_default();
    vx_entity dynamic, kinematic, fixed;
    cr_assert_eq(vx_world_create_body(w, &def, &dynamic, &err), VX_OK);
    cr_assert_eq(vx_body_set_shape(w, dynamic, &cm, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "shape: a mesh needs a static or kinematic body (a dynamic body needs a convex shape)");
    def.type = VX_BODY_KINEMATIC;
    cr_assert_eq(vx_world_create_body(w, &def, &kinematic, &err), VX_OK);
    cr_assert_eq(vx_body_set_shape(w, kinematic, &cm, &err), VX_OK, "%s", err.message);
    cr_assert_eq(vx_body_set_shape(w, kinematic, &ch, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "shape: a heightfield needs a static body (a moving body needs a convex shape)");
    def.type = VX_BODY_STATIC;
    cr_assert_eq(vx_world_create_body(w, &def, &fixed, &err), VX_OK);
    cr_assert_eq(vx_body_set_shape(w, fixed, &ch, &err), VX_OK, "%s", err.message);

    vx_world *other = make_world();
    vx_entity e;
    cr_assert_eq(vx_world_create_body(other, &def, &e, &err), VX_OK);
    cr_assert_eq(vx_body_set_shape(other, e, &cm, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "shape: mesh: not made by this world (vx_world_make_mesh, vx_world_make_heightfield)");
    uint32_t bad[3] = {0, 1, 3};
    cr_assert_eq(vx_world_make_mesh(w, v, 3, bad, 1, &mesh, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "mesh: triangle 0: index 3 out of range (3 vertices)");
    vx_world_destroy(other);
    vx_world_destroy(w);
}

Test(world, a_body_not_in_the_world_is_an_error)
{
    vx_world *w = make_world();
    vx_body_def def = vx_body_def_default();
    vx_entity e = vx_test_add_body(w, &def, vx_collider_sphere(0.5f));
    cr_assert(vx_world_destroy_body(w, e));
    cr_assert_not(vx_world_destroy_body(w, e), "already gone");
    vx_body_state s;
    vx_error err;
    cr_assert_eq(vx_body_get_state(w, e, &s, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "entity 0: not in the world");
    cr_assert_eq(vx_body_set_velocity(w, e, vx_vec3_zero(), vx_vec3_zero(), &err), VX_ERR_INVALID);
    vx_collider ball = vx_collider_sphere(0.5f);
    cr_assert_eq(vx_body_set_shape(w, e, &ball, &err), VX_ERR_INVALID);
    vx_world_destroy(w);
}

Test(world, body_def_defaults_are_documented_values)
{
    vx_body_def d = vx_body_def_default();
    cr_assert_eq(d.type, VX_BODY_DYNAMIC);
    cr_assert_eq(d.mass, 1.0f);
    cr_assert_eq(d.restitution, 0.3f);
    cr_assert_eq(d.friction, 0.5f);
    cr_assert_eq(d.gravity_scale, 1.0f);
    cr_assert(d.can_sleep && !d.bullet && !d.lock_rotation);
    cr_assert(d.rotation.w == 1.0f && d.position.y == 0.0f);
}

/* A body made from the def of a transform and a rigid body (the scene
 * loader's path) holds exactly those components. */
Test(world, body_def_of_components_gives_those_components_back)
{
    vx_world *w = make_world();
    vx_transform t = vx_transform_from_position(vx_vec3_make(1.0f, 2.0f, 3.0f));
    t.rotation = vx_quat_from_axis_angle(vx_vec3_make(0.0f, 0.0f, 1.0f), 0.25f);
    vx_rigidbody rb = vx_rigidbody_dynamic(3.0f);
    rb.friction = 0.9f;
    rb.angular_damping = 0.1f;
    rb.bullet = true;
    vx_body_def def = vx_body_def_of(&t, &rb);
    vx_entity e;
    cr_assert_eq(vx_world_create_body(w, &def, &e, NULL), VX_OK);
    const vx_registry *registry = vx_world_registry_const(w);
    const vx_rigidbody *stored = vx_registry_get_const(registry, e, VX_COMPONENT_RIGIDBODY);
    const vx_transform *pose = vx_registry_get_const(registry, e, VX_COMPONENT_TRANSFORM);
    cr_assert(stored && pose);
    cr_assert(memcmp(stored, &rb, sizeof rb) == 0, "the rigid body's bytes");
    cr_assert(memcmp(&pose->position, &t.position, sizeof t.position) == 0);
    cr_assert(memcmp(&pose->rotation, &t.rotation, sizeof t.rotation) == 0);
    vx_world_destroy(w);
}

/* ---- physics through the API ---- */

/* Two equal spheres, restitution 1, meeting head on without gravity: they
 * exchange velocities; momentum and kinetic energy are kept. */
Test(world, head_on_elastic_spheres_exchange_velocities)
{
    vx_world_def wd = vx_world_def_default();
    wd.gravity = vx_vec3_zero();
    vx_world *w = vx_world_create(&wd, NULL);
    cr_assert_not_null(w);
    vx_body_def a = vx_body_def_default();
    a.position = vx_vec3_make(-2.0f, 0.0f, 0.0f);
    a.velocity = vx_vec3_make(3.0f, 0.0f, 0.0f);
    a.restitution = 1.0f;
    vx_body_def b = a;
    b.position = vx_vec3_make(2.0f, 0.0f, 0.0f);
    b.velocity = vx_vec3_make(-1.0f, 0.0f, 0.0f);
    vx_entity ea = vx_test_add_body(w, &a, vx_collider_sphere(0.5f));
    vx_entity eb = vx_test_add_body(w, &b, vx_collider_sphere(0.5f));
    bool touched = false;
    for (int k = 0; k < 120; k++) {
        cr_assert_eq(vx_world_step(w, NULL), VX_OK);
        touched = touched || vx_world_contacts(w)->count > 0;
    }
    cr_assert(touched);
    vx_body_state sa = vx_test_state_of(w, ea), sb = vx_test_state_of(w, eb);
    cr_assert_float_eq(sa.v.x, -1.0f, 1e-3, "A leaves at B's speed: %g", (double)sa.v.x);
    cr_assert_float_eq(sb.v.x, 3.0f, 1e-3, "B leaves at A's speed: %g", (double)sb.v.x);
    cr_assert_float_eq(sa.v.x + sb.v.x, 2.0f, 1e-4, "momentum kept");
    vx_world_destroy(w);
}

/* A body moved between steps is where it was put, keeps what the step does
 * from there, and a velocity set between steps is the one integrated. */
Test(world, state_written_between_steps_is_what_the_step_starts_from)
{
    vx_world_def wd = vx_world_def_default();
    vx_world *w = vx_world_create(&wd, NULL);
    cr_assert_not_null(w);
    vx_body_def d = vx_body_def_default();
    vx_entity e = vx_test_add_body(w, &d, vx_collider_box(vx_vec3_make(0.5f, 0.5f, 0.5f)));
    cr_assert_eq(vx_world_step(w, NULL), VX_OK);
    vx_quat turn = vx_quat_from_axis_angle(vx_vec3_make(0.0f, 1.0f, 0.0f), 0.5f);
    cr_assert_eq(vx_body_set_transform(w, e, vx_vec3_make(10.0f, 20.0f, 30.0f), turn, NULL), VX_OK);
    cr_assert_eq(vx_body_set_velocity(w, e, vx_vec3_make(1.0f, 0.0f, 0.0f), vx_vec3_zero(), NULL), VX_OK);
    cr_assert_eq(vx_world_step(w, NULL), VX_OK);
    vx_body_state s = vx_test_state_of(w, e);
    float dt = wd.fixed_dt, g = -wd.gravity.y;
    cr_assert_float_eq(s.p.x, 10.0f + dt, 1e-5);
    cr_assert_float_eq(s.v.y, -g * dt, 1e-6, "one step of gravity from rest");
    cr_assert_float_eq(s.p.y, 20.0f - g * dt * dt, 1e-5);
    cr_assert_float_eq(s.q.y, turn.y, 1e-6, "not turning: the orientation stays");
    vx_error err;
    cr_assert_eq(vx_body_set_transform(w, e, vx_vec3_zero(), vx_quat_make(0.0f, 0.0f, 0.0f, 0.5f), &err),
                 VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "rotation: must be a unit quaternion");
    vx_world_destroy(w);
}

/* A program's own component rides along with a body through steps. */
Test(world, own_components_live_beside_the_physics)
{
    vx_world *w = make_world();
    vx_registry *registry = vx_world_registry(w);
    enum { COMPONENT_TAG = VX_COMPONENT_USER };
    cr_assert_eq(vx_registry_register_component(registry, COMPONENT_TAG, sizeof(int)), VX_OK);
    vx_body_def d = vx_body_def_default();
    vx_entity e = vx_test_add_body(w, &d, vx_collider_sphere(0.25f));
    int tag = 42;
    cr_assert_eq(vx_registry_add(registry, e, COMPONENT_TAG, &tag), VX_OK);
    for (int k = 0; k < 10; k++) cr_assert_eq(vx_world_step(w, NULL), VX_OK);
    const int *kept = vx_registry_get(registry, e, COMPONENT_TAG);
    cr_assert_not_null(kept);
    cr_assert_eq(*kept, 42);
    cr_assert_lt(vx_test_state_of(w, e).p.y, 0.0f, "and the body fell meanwhile");
    vx_world_destroy(w);
}

Test(world, profiling_times_the_stages_only_when_on)
{
    vx_world *w = make_world();
    vx_body_def floor = vx_body_def_default();
    floor.type = VX_BODY_STATIC;
    vx_test_add_body(w, &floor, vx_collider_box(vx_vec3_make(5.0f, 0.5f, 5.0f)));
    vx_body_def d = vx_body_def_default();
    d.position = vx_vec3_make(0.0f, 1.0f, 0.0f);
    vx_test_add_body(w, &d, vx_collider_sphere(0.5f));
    cr_assert_eq(vx_world_step(w, NULL), VX_OK);
    vx_stage_times t = vx_world_stage_times(w);
    cr_assert(t.broad == 0.0 && t.narrow == 0.0 && t.solver == 0.0, "off: no times");
    vx_world_set_profiling(w, true);
    cr_assert_eq(vx_world_step(w, NULL), VX_OK);
    t = vx_world_stage_times(w);
    cr_assert_gt(t.broad + t.narrow + t.solver + t.integrate + t.other, 0.0);
    cr_assert_eq(vx_world_awake_count(w), 1u, "one dynamic body, sleeping off");
    vx_world_destroy(w);
}
