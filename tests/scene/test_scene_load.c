/* Scene loader: valid scenes load with every value where the file put it and
 * every default where it did not. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_helpers.h"
#include "voltex/scene.h"

/* The example of the interface's "Scene file (JSON)" section. */
static const char example_scene[] =
    "{\n"
    "  \"name\": \"ball_drop\",\n"
    "  \"gravity\": [0, -9.81, 0],\n"
    "  \"dt\": 0.016666668,\n"
    "  \"steps\": 600,\n"
    "  \"solver\": { \"iterations\": 10 },\n"
    "  \"entities\": [\n"
    "    { \"name\": \"floor\",\n"
    "      \"transform\": { \"position\": [0, -1, 0] },\n"
    "      \"collider\": { \"type\": \"box\", \"half_extents\": [10, 1, 10] },\n"
    "      \"rigidbody\": { \"type\": \"static\" } },\n"
    "    { \"name\": \"ball\",\n"
    "      \"transform\": { \"position\": [0, 5, 0] },\n"
    "      \"collider\": { \"type\": \"sphere\", \"radius\": 0.5 },\n"
    "      \"rigidbody\": { \"mass\": 1.0, \"restitution\": 0.5 } }\n"
    "  ]\n"
    "}\n";

static void load_ok(const char *json, const char *display_path, vx_scene *scene)
{
    vx_error err;
    vx_status st = vx_scene_load_string(json, strlen(json), display_path, scene, &err);
    cr_assert_eq(st, VX_OK, "load failed: %s", err.message);
    cr_assert_eq(err.code, VX_OK);
    cr_assert_str_empty(err.message);
}

static const vx_transform *transform_of(vx_scene *s, size_t i)
{
    const vx_transform *t = vx_registry_get_const(vx_world_registry_const(s->world), s->entities[i], VX_COMPONENT_TRANSFORM);
    cr_assert_not_null(t, "entity %zu has no transform", i);
    return t;
}

static const vx_collider *collider_of(vx_scene *s, size_t i)
{
    return vx_registry_get_const(vx_world_registry_const(s->world), s->entities[i], VX_COMPONENT_COLLIDER);
}

static const vx_rigidbody *body_of(vx_scene *s, size_t i)
{
    return vx_registry_get_const(vx_world_registry_const(s->world), s->entities[i], VX_COMPONENT_RIGIDBODY);
}

static void assert_quat_near(vx_quat q, float x, float y, float z, float w)
{
    VX_ASSERT_NEAR(q.x, x, 1e-6);
    VX_ASSERT_NEAR(q.y, y, 1e-6);
    VX_ASSERT_NEAR(q.z, z, 1e-6);
    VX_ASSERT_NEAR(q.w, w, 1e-6);
}

Test(scene_load, interface_example_loads_every_value)
{
    vx_scene s;
    load_ok(example_scene, "scenes/example.json", &s);
    cr_assert_str_eq(s.name, "ball_drop");
    cr_assert_eq(vx_world_get_def(s.world)->gravity.x, 0.0f);
    cr_assert_eq(vx_world_get_def(s.world)->gravity.y, -9.81f);
    cr_assert_eq(vx_world_get_def(s.world)->gravity.z, 0.0f);
    cr_assert_eq(vx_world_get_def(s.world)->fixed_dt, 0.016666668f);
    cr_assert_eq(s.steps, 600);
    cr_assert_eq(vx_world_get_def(s.world)->iterations, 10);
    cr_assert_eq(s.entity_count, 2);
    cr_assert_eq(vx_registry_entity_count(vx_world_registry(s.world)), 2);
    cr_assert_str_eq(s.names[0], "floor");
    cr_assert_str_eq(s.names[1], "ball");
    cr_assert_eq(s.entities[0].index, 0);
    cr_assert_eq(s.entities[1].index, 1);

    const vx_transform *floor_t = transform_of(&s, 0);
    cr_assert_eq(floor_t->position.x, 0.0f);
    cr_assert_eq(floor_t->position.y, -1.0f);
    cr_assert_eq(floor_t->position.z, 0.0f);
    assert_quat_near(floor_t->rotation, 0, 0, 0, 1);
    const vx_collider *floor_c = collider_of(&s, 0);
    cr_assert_not_null(floor_c);
    cr_assert_eq(floor_c->type, VX_SHAPE_BOX);
    cr_assert_eq(floor_c->half_extents.x, 10.0f);
    cr_assert_eq(floor_c->half_extents.y, 1.0f);
    cr_assert_eq(floor_c->half_extents.z, 10.0f);
    cr_assert_not(floor_c->sensor);
    const vx_rigidbody *floor_b = body_of(&s, 0);
    cr_assert_not_null(floor_b);
    cr_assert_eq(floor_b->type, VX_BODY_STATIC);
    cr_assert_eq(floor_b->mass, 0.0f);

    const vx_transform *ball_t = transform_of(&s, 1);
    cr_assert_eq(ball_t->position.y, 5.0f);
    const vx_collider *ball_c = collider_of(&s, 1);
    cr_assert_not_null(ball_c);
    cr_assert_eq(ball_c->type, VX_SHAPE_SPHERE);
    cr_assert_eq(ball_c->radius, 0.5f);
    const vx_rigidbody *ball_b = body_of(&s, 1);
    cr_assert_not_null(ball_b);
    cr_assert_eq(ball_b->type, VX_BODY_DYNAMIC);
    cr_assert_eq(ball_b->mass, 1.0f);
    cr_assert_eq(ball_b->restitution, 0.5f);
    cr_assert_eq(ball_b->gravity_scale, 1.0f);
    VX_ASSERT_VEC3_NEAR(ball_b->velocity, 0, 0, 0, 0);
    cr_assert_not(ball_b->lock_rotation);
    vx_scene_destroy(&s);
    cr_assert_null(s.world);
    cr_assert_null(s.name);
}

Test(scene_load, defaults_fill_what_the_file_leaves_out)
{
    vx_scene s;
    load_ok("{\"entities\": [{}, {\"collider\": {\"type\": \"sphere\", \"radius\": 1}}]}", "dir/sub/my_scene.json",
            &s);
    cr_assert_str_eq(s.name, "my_scene");
    cr_assert_eq(vx_world_get_def(s.world)->gravity.x, 0.0f);
    cr_assert_eq(vx_world_get_def(s.world)->gravity.y, -9.81f);
    cr_assert_eq(vx_world_get_def(s.world)->gravity.z, 0.0f);
    cr_assert_eq(vx_world_get_def(s.world)->fixed_dt, 1.0f / 60.0f);
    cr_assert_eq(s.steps, VX_SCENE_DEFAULT_STEPS);
    cr_assert_eq(s.steps, 600);
    cr_assert_eq(vx_world_get_def(s.world)->iterations, 10);
    cr_assert_eq(vx_world_get_def(s.world)->substeps, 1);
    /* every solver setting the file leaves out is the engine's default */
    vx_world_def d = vx_world_def_default();
    cr_assert_eq(vx_world_get_def(s.world)->position_iterations, d.position_iterations);
    cr_assert_eq(vx_world_get_def(s.world)->warm_starting, d.warm_starting);
    cr_assert_eq(vx_world_get_def(s.world)->sleeping, d.sleeping);
    cr_assert_eq(vx_world_get_def(s.world)->reuse_contacts, d.reuse_contacts);
    cr_assert_eq(vx_world_get_def(s.world)->broadphase, d.broadphase);
    cr_assert_eq(d.broadphase, VX_BROADPHASE_DYNAMIC_TREE);
    cr_assert_eq(vx_world_get_def(s.world)->threads, d.threads);
    cr_assert_eq(vx_world_get_def(s.world)->restitution_threshold, d.restitution_threshold);
    cr_assert_eq(vx_world_get_def(s.world)->baumgarte_slop, d.baumgarte_slop);
    cr_assert_eq(vx_world_get_def(s.world)->baumgarte_percent, d.baumgarte_percent);
    cr_assert_eq(vx_world_get_def(s.world)->max_correction, d.max_correction);
    cr_assert_eq(vx_world_get_def(s.world)->speculative_distance, d.speculative_distance);
    cr_assert_eq(s.entity_count, 2);
    cr_assert_str_eq(s.names[0], "entity0");
    cr_assert_str_eq(s.names[1], "entity1");

    /* no collider, no rigidbody: only a transform, at the origin */
    const vx_transform *t0 = transform_of(&s, 0);
    VX_ASSERT_VEC3_NEAR(t0->position, 0, 0, 0, 0);
    assert_quat_near(t0->rotation, 0, 0, 0, 1);
    cr_assert_null(collider_of(&s, 0));
    cr_assert_null(body_of(&s, 0));

    /* a collider without a rigidbody is a static body */
    cr_assert_not_null(collider_of(&s, 1));
    const vx_rigidbody *b1 = body_of(&s, 1);
    cr_assert_not_null(b1);
    cr_assert_eq(b1->type, VX_BODY_STATIC);
    cr_assert_eq(b1->mass, 0.0f);
    cr_assert_eq(vx_registry_component_count(vx_world_registry(s.world), VX_COMPONENT_TRANSFORM), 2);
    cr_assert_eq(vx_registry_component_count(vx_world_registry(s.world), VX_COMPONENT_COLLIDER), 1);
    cr_assert_eq(vx_registry_component_count(vx_world_registry(s.world), VX_COMPONENT_RIGIDBODY), 1);
    vx_scene_destroy(&s);
}

Test(scene_load, scene_name_defaults_to_the_file_name)
{
    char dir[] = "/tmp/vx_scene_load_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/drop_test.json", dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fputs("{\"steps\": 7, \"entities\": []}", f);
    fclose(f);

    vx_scene s;
    vx_error err;
    vx_status st = vx_scene_load_file(path, &s, &err);
    remove(path);
    rmdir(dir);
    cr_assert_eq(st, VX_OK, "%s", err.message);
    cr_assert_str_eq(s.name, "drop_test");
    cr_assert_eq(s.steps, 7);
    vx_scene_destroy(&s);

    load_ok("{\"entities\": []}", "no_extension", &s);
    cr_assert_str_eq(s.name, "no_extension");
    vx_scene_destroy(&s);
    load_ok("{\"entities\": []}", "a/b.json.bak", &s);
    cr_assert_str_eq(s.name, "b.json.bak");
    vx_scene_destroy(&s);
}

Test(scene_load, rotation_is_normalised)
{
    vx_scene s;
    load_ok("{\"entities\": ["
            "{\"transform\": {\"rotation\": [0, 0, 2, 2]}},"
            "{\"transform\": {\"rotation\": [0, 0, 0, -3]}},"
            "{\"transform\": {\"rotation\": [1, 1, 1, 1]}}]}",
            "r.json", &s);
    assert_quat_near(transform_of(&s, 0)->rotation, 0, 0, 0.70710678f, 0.70710678f);
    assert_quat_near(transform_of(&s, 1)->rotation, 0, 0, 0, -1);
    assert_quat_near(transform_of(&s, 2)->rotation, 0.5f, 0.5f, 0.5f, 0.5f);
    VX_ASSERT_NEAR(vx_quat_length(transform_of(&s, 2)->rotation), 1.0, 1e-7);
    vx_scene_destroy(&s);
}

Test(scene_load, rotation_deg_turns_about_x_then_y_then_z)
{
    vx_scene s;
    load_ok("{\"entities\": ["
            "{\"transform\": {\"rotation_deg\": [90, 90, 0]}},"
            "{\"transform\": {\"rotation_deg\": [0, 0, 90]}},"
            "{\"transform\": {\"rotation_deg\": [0, 0, 0]}}]}",
            "r.json", &s);
    /* 90 about X takes +Y to +Z, then 90 about Y takes +Z to +X. */
    vx_quat q = transform_of(&s, 0)->rotation;
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(q, vx_vec3_make(0, 1, 0)), 1, 0, 0, 1e-6);
    /* +X is unchanged by X, then 90 about Y takes it to -Z. */
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(q, vx_vec3_make(1, 0, 0)), 0, 0, -1, 1e-6);
    /* 90 about Z takes +X to +Y. */
    vx_quat qz = transform_of(&s, 1)->rotation;
    VX_ASSERT_VEC3_NEAR(vx_quat_rotate(qz, vx_vec3_make(1, 0, 0)), 0, 1, 0, 1e-6);
    assert_quat_near(qz, 0, 0, 0.70710678f, 0.70710678f);
    assert_quat_near(transform_of(&s, 2)->rotation, 0, 0, 0, 1);
    vx_scene_destroy(&s);
}

Test(scene_load, solver_keys_are_stored)
{
    vx_scene s;
    load_ok("{\"solver\": {\"iterations\": 25, \"substeps\": 4, \"warm_starting\": false, \"sleeping\": false,"
            " \"threads\": 8, \"restitution_threshold\": 0.5, \"baumgarte_slop\": 0.005,"
            " \"baumgarte_percent\": 0.2, \"position_iterations\": 7, \"max_correction\": 0.05,"
            " \"speculative_distance\": 0.03, \"broadphase\": \"bvh\", \"order\": \"colored\","
            " \"reuse_contacts\": false, \"restitution\": \"simultaneous\"},"
            " \"gravity\": [1, 2, 3], \"dt\": 0.01, \"steps\": 0, \"entities\": []}",
            "solver.json", &s);
    cr_assert_eq(vx_world_get_def(s.world)->broadphase, VX_BROADPHASE_BVH);
    cr_assert_eq(vx_world_get_def(s.world)->order, VX_SOLVER_ORDER_COLORED);
    cr_assert_eq(vx_world_get_def(s.world)->restitution, VX_RESTITUTION_SIMULTANEOUS);
    cr_assert_eq(vx_world_get_def(s.world)->iterations, 25);
    cr_assert_eq(vx_world_get_def(s.world)->substeps, 4);
    cr_assert_not(vx_world_get_def(s.world)->warm_starting);
    cr_assert_not(vx_world_get_def(s.world)->sleeping);
    cr_assert_not(vx_world_get_def(s.world)->reuse_contacts);
    cr_assert_eq(vx_world_get_def(s.world)->threads, 8);
    cr_assert_eq(vx_world_get_def(s.world)->restitution_threshold, 0.5f);
    cr_assert_eq(vx_world_get_def(s.world)->baumgarte_slop, 0.005f);
    cr_assert_eq(vx_world_get_def(s.world)->baumgarte_percent, 0.2f);
    cr_assert_eq(vx_world_get_def(s.world)->position_iterations, 7);
    cr_assert_eq(vx_world_get_def(s.world)->max_correction, 0.05f);
    cr_assert_eq(vx_world_get_def(s.world)->speculative_distance, 0.03f);
    VX_ASSERT_VEC3_NEAR(vx_world_get_def(s.world)->gravity, 1, 2, 3, 0);
    cr_assert_eq(vx_world_get_def(s.world)->fixed_dt, 0.01f);
    cr_assert_eq(s.steps, 0);
    vx_scene_destroy(&s);

    /* the limits themselves are accepted */
    load_ok("{\"solver\": {\"iterations\": 1000, \"substeps\": 1000, \"threads\": 256, \"baumgarte_percent\": 1},"
            " \"steps\": 1000000000, \"entities\": []}",
            "solver.json", &s);
    cr_assert_eq(vx_world_get_def(s.world)->iterations, 1000);
    cr_assert_eq(vx_world_get_def(s.world)->substeps, 1000);
    cr_assert_eq(vx_world_get_def(s.world)->threads, 256);
    cr_assert_eq(s.steps, VX_SCENE_MAX_STEPS);
    vx_scene_destroy(&s);
    load_ok("{\"solver\": {\"position_iterations\": 1000, \"speculative_distance\": 1e30, \"max_correction\": 1e-30},"
            " \"entities\": []}",
            "solver.json", &s);
    cr_assert_eq(vx_world_get_def(s.world)->position_iterations, 1000);
    cr_assert_eq(vx_world_get_def(s.world)->speculative_distance, 1e30f);
    cr_assert_eq(vx_world_get_def(s.world)->max_correction, 1e-30f);
    vx_scene_destroy(&s);
    /* 0 position passes and no speculative margin are settings, not mistakes */
    load_ok("{\"solver\": {\"position_iterations\": 0, \"speculative_distance\": 0}, \"entities\": []}",
            "solver.json", &s);
    cr_assert_eq(vx_world_get_def(s.world)->position_iterations, 0);
    cr_assert_eq(vx_world_get_def(s.world)->speculative_distance, 0.0f);
    vx_scene_destroy(&s);
}

/* vx_scene_set_solver: one key from text, as the file's solver object has
 * it (JSON values, bare words as strings); on a bad key or value the
 * config is untouched and the message names the source and the key. */
Test(scene_load, solver_setting_from_text)
{
    vx_world_def c = vx_world_def_default();
    vx_error err;
    vx_error_clear(&err);
    cr_assert_eq(vx_scene_set_solver(&c, "substeps", "4", "cli", &err), VX_OK);
    cr_assert_eq(vx_scene_set_solver(&c, "baumgarte_percent", "0.25", "cli", &err), VX_OK);
    cr_assert_eq(vx_scene_set_solver(&c, "warm_starting", "false", "cli", &err), VX_OK);
    cr_assert_eq(vx_scene_set_solver(&c, "order", "colored", "cli", &err), VX_OK);
    cr_assert_eq(vx_scene_set_solver(&c, "broadphase", "\"bvh\"", "cli", &err), VX_OK);
    cr_assert_eq(c.substeps, 4);
    cr_assert_eq(c.baumgarte_percent, 0.25f);
    cr_assert_not(c.warm_starting);
    cr_assert_eq(c.order, VX_SOLVER_ORDER_COLORED);
    cr_assert_eq(c.broadphase, VX_BROADPHASE_BVH);

    vx_world_def before = c;
    static const struct {
        const char *key, *value, *message;
    } bad[] = {
        {"substep", "4", "cli: solver.substep: unknown key (did you mean \"substeps\"?)"},
        {"substeps", "0", "cli: solver.substeps: must be between 1 and 1000"},
        {"substeps", "2.5", "cli: solver.substeps: must be an integer"},
        {"baumgarte_percent", "1.5", NULL},
        {"warm_starting", "1", "cli: solver.warm_starting: must be true or false"},
        {"order", "", "cli: solver.order: must be \"sequential\" or \"colored\""},
        {"threads", "[2]", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        vx_error_clear(&err);
        cr_assert_eq(vx_scene_set_solver(&c, bad[i].key, bad[i].value, "cli", &err), VX_ERR_INVALID, "%s=%s",
                     bad[i].key, bad[i].value);
        cr_assert(memcmp(&c, &before, sizeof c) == 0, "%s=%s changed the config", bad[i].key, bad[i].value);
        if (bad[i].message)
            cr_assert_str_eq(err.message, bad[i].message);
        else
            cr_assert_eq(strncmp(err.message, "cli: solver.", 12), 0, "%s", err.message);
    }
    cr_assert_eq(vx_scene_set_solver(NULL, "substeps", "4", "cli", &err), VX_ERR_INVALID);
    cr_assert_eq(vx_scene_set_solver(&c, NULL, "4", "cli", &err), VX_ERR_INVALID);
}

Test(scene_load, sleeping_and_broadphase_are_simulated_settings)
{
    vx_scene s;
    load_ok("{\"solver\": {\"sleeping\": true, \"broadphase\": \"tree\"},"
            " \"entities\": [{\"collider\": {\"type\": \"sphere\", \"radius\": 1},"
            "                 \"rigidbody\": {\"can_sleep\": false}}, {\"rigidbody\": {}}]}",
            "sleep.json", &s);
    cr_assert(vx_world_get_def(s.world)->sleeping);
    cr_assert_eq(vx_world_get_def(s.world)->broadphase, VX_BROADPHASE_DYNAMIC_TREE);
    const vx_rigidbody *b0 = vx_registry_get(vx_world_registry(s.world), s.entities[0], VX_COMPONENT_RIGIDBODY);
    const vx_rigidbody *b1 = vx_registry_get(vx_world_registry(s.world), s.entities[1], VX_COMPONENT_RIGIDBODY);
    cr_assert(b0 && b1);
    cr_assert_not(b0->can_sleep);
    cr_assert(b1->can_sleep, "can_sleep defaults to true");
    vx_scene_destroy(&s);
}

Test(scene_load, kinematic_bodies_and_sensors_are_accepted)
{
    vx_scene s;
    load_ok("{\"entities\": [{\"name\": \"pusher\","
            " \"collider\": {\"type\": \"sphere\", \"radius\": 2, \"sensor\": true},"
            " \"rigidbody\": {\"type\": \"kinematic\", \"velocity\": [1, 2, 3]}},"
            " {\"name\": \"trigger\", \"collider\": {\"sensor\": false, \"type\": \"box\", \"half_extents\": [1, 2, 3]}}]}",
            "k.json", &s);
    const vx_collider *c = collider_of(&s, 0);
    cr_assert_not_null(c);
    cr_assert(c->sensor);
    cr_assert_eq(c->radius, 2.0f);
    const vx_rigidbody *b = body_of(&s, 0);
    cr_assert_not_null(b);
    cr_assert_eq(b->type, VX_BODY_KINEMATIC);
    cr_assert_eq(b->mass, 0.0f);
    VX_ASSERT_VEC3_NEAR(b->velocity, 1, 2, 3, 0);
    cr_assert_not(collider_of(&s, 1)->sensor);
    VX_ASSERT_VEC3_NEAR(collider_of(&s, 1)->half_extents, 1, 2, 3, 0);
    vx_scene_destroy(&s);
}

/* bullet: true (continuous collision against dynamic bodies too) is read
 * onto the body (it was once rejected as not supported). */
Test(scene_load, bullet_is_accepted)
{
    vx_scene s;
    load_ok("{\"entities\": [{\"collider\": {\"type\": \"sphere\", \"radius\": 0.1},"
            " \"rigidbody\": {\"mass\": 1, \"bullet\": true, \"velocity\": [200, 0, 0]}},"
            " {\"collider\": {\"type\": \"sphere\", \"radius\": 0.1}, \"rigidbody\": {\"mass\": 1}}]}",
            "bullet.json", &s);
    cr_assert(body_of(&s, 0)->bullet);
    cr_assert_eq(body_of(&s, 0)->type, VX_BODY_DYNAMIC);
    cr_assert_not(body_of(&s, 1)->bullet);
    vx_scene_destroy(&s);
}

Test(scene_load, rigidbody_fields_override_the_constructor)
{
    vx_scene s;
    load_ok("{\"entities\": ["
            "{\"rigidbody\": {}},"
            "{\"rigidbody\": {\"mass\": 0}},"
            "{\"rigidbody\": {\"mass\": 2.5, \"restitution\": 1, \"friction\": 0, \"gravity_scale\": -0.5,"
            "  \"velocity\": [4, 5, 6], \"angular_velocity\": [0, 0, 0], \"lock_rotation\": true,"
            "  \"linear_damping\": 0.1, \"angular_damping\": 0.2, \"can_sleep\": false, \"bullet\": false}},"
            "{\"rigidbody\": {\"type\": \"static\", \"mass\": 0, \"gravity_scale\": 3}},"
            "{\"collider\": {\"type\": \"box\", \"half_extents\": [1, 1, 1]},"
            "  \"rigidbody\": {\"type\": \"dynamic\", \"lock_rotation\": true}}]}",
            "b.json", &s);
    /* an empty rigidbody: dynamic, mass 1, the constructor's defaults; no collider */
    const vx_rigidbody *b0 = body_of(&s, 0);
    vx_rigidbody d = vx_rigidbody_dynamic(1.0f);
    cr_assert_not_null(b0);
    cr_assert_eq(memcmp(b0, &d, sizeof d), 0);
    cr_assert_null(collider_of(&s, 0));
    /* mass 0 alone means static */
    cr_assert_eq(body_of(&s, 1)->type, VX_BODY_STATIC);
    const vx_rigidbody *b2 = body_of(&s, 2);
    cr_assert_eq(b2->type, VX_BODY_DYNAMIC);
    cr_assert_eq(b2->mass, 2.5f);
    cr_assert_eq(b2->restitution, 1.0f);
    cr_assert_eq(b2->friction, 0.0f);
    cr_assert_eq(b2->gravity_scale, -0.5f);
    VX_ASSERT_VEC3_NEAR(b2->velocity, 4, 5, 6, 0);
    VX_ASSERT_VEC3_NEAR(b2->angular_velocity, 0, 0, 0, 0);
    cr_assert(b2->lock_rotation);
    cr_assert_eq(b2->linear_damping, 0.1f);
    cr_assert_eq(b2->angular_damping, 0.2f);
    cr_assert_not(b2->can_sleep);
    cr_assert_not(b2->bullet);
    /* a static body keeps what it is given */
    cr_assert_eq(body_of(&s, 3)->type, VX_BODY_STATIC);
    cr_assert_eq(body_of(&s, 3)->gravity_scale, 3.0f);
    /* a dynamic box that cannot turn is supported */
    cr_assert_eq(body_of(&s, 4)->type, VX_BODY_DYNAMIC);
    cr_assert(body_of(&s, 4)->lock_rotation);
    vx_scene_destroy(&s);
}

Test(scene_load, boxes_keep_their_rotation)
{
    vx_scene s;
    load_ok("{\"entities\": ["
            "{\"transform\": {\"rotation\": [0, 0, 0, -2]}, \"collider\": {\"type\": \"box\", \"half_extents\": [1, 1, 1]}},"
            "{\"transform\": {\"rotation_deg\": [0, 0, 20]}, \"collider\": {\"type\": \"box\", \"half_extents\": [4, 0.25, 2]}},"
            "{\"transform\": {\"rotation\": [0, 1, 0, 1]}, \"collider\": {\"type\": \"box\", \"half_extents\": [1, 2, 3]},"
            " \"rigidbody\": {\"mass\": 2}}]}",
            "boxes.json", &s);
    cr_assert_eq(s.entity_count, 3);
    assert_quat_near(transform_of(&s, 0)->rotation, 0, 0, 0, -1);
    /* a 20 degree ramp: its top face normal tilts from +Y towards -X */
    vx_quat ramp = transform_of(&s, 1)->rotation;
    double half = 20.0 * 3.14159265358979323846 / 360.0;
    assert_quat_near(ramp, 0, 0, (float)sin(half), (float)cos(half));
    vx_vec3 up = vx_quat_rotate(ramp, vx_vec3_make(0, 1, 0));
    VX_ASSERT_VEC3_NEAR(up, -sin(2 * half), cos(2 * half), 0, 1e-6);
    VX_ASSERT_VEC3_NEAR(collider_of(&s, 1)->half_extents, 4, 0.25f, 2, 0);
    cr_assert_eq(body_of(&s, 1)->type, VX_BODY_STATIC);
    /* a dynamic box, turned 90 degrees about Y, free to rotate */
    assert_quat_near(transform_of(&s, 2)->rotation, 0, 0.70710678f, 0, 0.70710678f);
    cr_assert_eq(body_of(&s, 2)->type, VX_BODY_DYNAMIC);
    cr_assert_not(body_of(&s, 2)->lock_rotation);
    vx_scene_destroy(&s);
}

Test(scene_load, capsules_are_stored)
{
    vx_scene s;
    load_ok("{\"entities\": ["
            "{\"name\": \"pill\", \"transform\": {\"position\": [0, 2, 0], \"rotation_deg\": [0, 0, 90]},"
            " \"collider\": {\"type\": \"capsule\", \"radius\": 0.25, \"half_height\": 0.75},"
            " \"rigidbody\": {\"mass\": 3}},"
            "{\"collider\": {\"half_height\": 2, \"sensor\": true, \"radius\": 1.5, \"type\": \"capsule\"}}]}",
            "caps.json", &s);
    const vx_collider *c0 = collider_of(&s, 0);
    cr_assert_not_null(c0);
    cr_assert_eq(c0->type, VX_SHAPE_CAPSULE);
    cr_assert_eq(c0->radius, 0.25f);
    cr_assert_eq(c0->half_height, 0.75f);
    cr_assert_not(c0->sensor);
    cr_assert_eq(body_of(&s, 0)->type, VX_BODY_DYNAMIC);
    cr_assert_eq(body_of(&s, 0)->mass, 3.0f);
    assert_quat_near(transform_of(&s, 0)->rotation, 0, 0, 0.70710678f, 0.70710678f);
    const vx_collider *c1 = collider_of(&s, 1);
    cr_assert_eq(c1->type, VX_SHAPE_CAPSULE);
    cr_assert_eq(c1->radius, 1.5f);
    cr_assert_eq(c1->half_height, 2.0f);
    cr_assert(c1->sensor);
    cr_assert_eq(body_of(&s, 1)->type, VX_BODY_STATIC);
    vx_scene_destroy(&s);
}

Test(scene_load, friction_and_angular_velocity_are_stored)
{
    vx_scene s;
    load_ok("{\"entities\": ["
            "{\"collider\": {\"type\": \"box\", \"half_extents\": [0.5, 0.25, 0.125]},"
            " \"rigidbody\": {\"friction\": 0.6, \"angular_velocity\": [0.1, 5, -2.5]}},"
            "{\"collider\": {\"type\": \"sphere\", \"radius\": 0.5}, \"rigidbody\": {\"friction\": 2.5}},"
            "{\"collider\": {\"type\": \"box\", \"half_extents\": [10, 1, 10]}, \"rigidbody\": {\"type\": \"static\","
            " \"friction\": 0}},"
            "{\"rigidbody\": {\"type\": \"kinematic\", \"angular_velocity\": [0, 3, 0]}}]}",
            "spin.json", &s);
    const vx_rigidbody *b0 = body_of(&s, 0);
    cr_assert_eq(b0->type, VX_BODY_DYNAMIC);
    cr_assert_eq(b0->friction, 0.6f);
    VX_ASSERT_VEC3_NEAR(b0->angular_velocity, 0.1f, 5, -2.5f, 0);
    cr_assert_not(b0->lock_rotation);
    cr_assert_eq(body_of(&s, 1)->friction, 2.5f);
    VX_ASSERT_VEC3_NEAR(body_of(&s, 1)->angular_velocity, 0, 0, 0, 0);
    cr_assert_eq(body_of(&s, 2)->friction, 0.0f);
    cr_assert_eq(body_of(&s, 3)->type, VX_BODY_KINEMATIC);
    VX_ASSERT_VEC3_NEAR(body_of(&s, 3)->angular_velocity, 0, 3, 0, 0);
    /* left out, friction is the constructor's 0.5 */
    cr_assert_eq(body_of(&s, 3)->friction, vx_rigidbody_kinematic().friction);
    cr_assert_eq(vx_rigidbody_dynamic(1.0f).friction, 0.5f);
    vx_scene_destroy(&s);
}

Test(scene_load, empty_entities_array)
{
    vx_scene s;
    load_ok("{\"name\": \"nothing\", \"entities\": []}", "e.json", &s);
    cr_assert_str_eq(s.name, "nothing");
    cr_assert_eq(s.entity_count, 0);
    cr_assert_null(s.entities);
    cr_assert_null(s.names);
    cr_assert_not_null(s.world);
    cr_assert(vx_registry_has_component_type(vx_world_registry(s.world), VX_COMPONENT_TRANSFORM));
    cr_assert(vx_registry_has_component_type(vx_world_registry(s.world), VX_COMPONENT_RIGIDBODY));
    cr_assert_eq(vx_registry_entity_count(vx_world_registry(s.world)), 0);
    vx_scene_destroy(&s);
}

Test(scene_load, destroy_is_safe_on_an_empty_scene)
{
    vx_scene s;
    memset(&s, 0, sizeof s);
    vx_scene_destroy(&s);
    vx_scene_destroy(&s);
    cr_assert_null(s.world);
    cr_assert_eq(s.entity_count, 0);
}

Test(scene_load, byte_order_mark_and_whitespace_are_accepted)
{
    vx_scene s;
    load_ok("\xEF\xBB\xBF \r\n\t{\"entities\" : [ ] }\r\n", "bom.json", &s);
    cr_assert_eq(s.entity_count, 0);
    vx_scene_destroy(&s);
}

Test(scene_load, many_entities_keep_their_order_and_names)
{
    enum { count = 5000 };
    size_t cap = (size_t)count * 96 + 64;
    char *json = malloc(cap);
    cr_assert_not_null(json);
    size_t used = (size_t)snprintf(json, cap, "{\"entities\": [");
    for (int i = 0; i < count; i++)
        used += (size_t)snprintf(json + used, cap - used, "%s{\"name\": \"b%d\", \"transform\": {\"position\": [%d, 0, 0]}}",
                                 i ? "," : "", count - i, i);
    snprintf(json + used, cap - used, "]}");
    vx_scene s;
    load_ok(json, "many.json", &s);
    free(json);
    cr_assert_eq(s.entity_count, (size_t)count);
    for (size_t i = 0; i < s.entity_count; i++) {
        char name[32];
        snprintf(name, sizeof name, "b%d", count - (int)i);
        cr_assert_str_eq(s.names[i], name);
        cr_assert_eq(s.entities[i].index, i);
        cr_assert_eq(transform_of(&s, i)->position.x, (float)i);
    }
    vx_scene_destroy(&s);
}

Test(scene_load, loading_twice_gives_identical_components)
{
    vx_scene a, b;
    load_ok(example_scene, "x.json", &a);
    load_ok(example_scene, "x.json", &b);
    for (size_t i = 0; i < a.entity_count; i++) {
        cr_assert_eq(memcmp(transform_of(&a, i), transform_of(&b, i), sizeof(vx_transform)), 0);
        cr_assert_eq(memcmp(collider_of(&a, i), collider_of(&b, i), sizeof(vx_collider)), 0);
        cr_assert_eq(memcmp(body_of(&a, i), body_of(&b, i), sizeof(vx_rigidbody)), 0);
    }
    vx_scene_destroy(&a);
    vx_scene_destroy(&b);
}

/* The "queries" array: each type's keys, the defaults, names, and entity
 * names resolved to the entities. */
Test(scene_load, queries_are_read_with_their_defaults)
{
    const char *text =
        "{\"entities\": [{\"name\": \"floor\", \"collider\": {\"type\": \"box\", \"half_extents\": [5, 1, 5]}},"
        "                {\"name\": \"car\", \"rigidbody\": {\"mass\": 2}}],"
        " \"queries\": ["
        "  {\"type\": \"ray\", \"origin\": [0, 5, 0], \"direction\": [0, -2, 0]},"
        "  {\"name\": \"probe\", \"type\": \"sphere_cast\", \"origin\": [1, 2, 3], \"direction\": [1, 0, 0],"
        "   \"radius\": 0.25, \"max_distance\": 7.5, \"attached_to\": \"car\", \"ignore\": [\"floor\"],"
        "   \"sensors\": true, \"all_hits\": true},"
        "  {\"type\": \"overlap\", \"shape\": {\"type\": \"box\", \"half_extents\": [1, 2, 3],"
        "   \"position\": [4, 5, 6], \"rotation_deg\": [0, 90, 0]}}"
        " ]}";
    vx_scene s;
    vx_error err;
    cr_assert_eq(vx_scene_load_string(text, strlen(text), "q.json", &s, &err), VX_OK, "%s", err.message);
    cr_assert_eq(s.query_count, 3u);
    cr_assert_str_eq(s.query_names[0], "query0");
    cr_assert_str_eq(s.query_names[1], "probe");
    cr_assert_str_eq(s.query_names[2], "query2");

    const vx_query_def *ray = &s.queries[0];
    cr_assert_eq(ray->type, VX_QUERY_RAY);
    cr_assert(ray->origin.y == 5.0f && ray->direction.y == -2.0f, "the direction as given");
    cr_assert_eq(ray->max_distance, 1000.0f);
    cr_assert(vx_entity_equal(ray->attached_to, VX_ENTITY_NULL));
    cr_assert_not(ray->filter.sensors);
    cr_assert_not(ray->all_hits);
    cr_assert_eq(ray->filter.ignore_count, 0u);

    const vx_query_def *probe = &s.queries[1];
    cr_assert_eq(probe->type, VX_QUERY_SPHERE_CAST);
    cr_assert(probe->origin.x == 1.0f && probe->origin.z == 3.0f);
    cr_assert_eq(probe->radius, 0.25f);
    cr_assert_eq(probe->max_distance, 7.5f);
    cr_assert(vx_entity_equal(probe->attached_to, s.entities[1]));
    cr_assert_eq(probe->filter.ignore_count, 1u);
    cr_assert(vx_entity_equal(probe->filter.ignore[0], s.entities[0]));
    cr_assert(probe->filter.sensors && probe->all_hits);

    const vx_query_def *overlap = &s.queries[2];
    cr_assert_eq(overlap->type, VX_QUERY_OVERLAP);
    cr_assert_eq(overlap->shape.type, VX_SHAPE_BOX);
    cr_assert_eq(overlap->shape.half_extents.z, 3.0f);
    cr_assert_eq(overlap->shape_pose.position.y, 5.0f);
    /* 90 degrees about Y */
    cr_assert_float_eq(overlap->shape_pose.rotation.y, 0.70710678f, 1e-7);
    cr_assert_float_eq(overlap->shape_pose.rotation.w, 0.70710678f, 1e-7);
    vx_scene_destroy(&s);
}

Test(scene_load, collision_filter_bits_and_their_defaults)
{
    const char *text = "{\"entities\": [{\"collider\": {\"type\": \"sphere\", \"radius\": 1}},"
                       " {\"collider\": {\"type\": \"box\", \"half_extents\": [1, 1, 1], \"category\": 6,"
                       " \"mask\": 4294967293}}]}";
    vx_scene s;
    vx_error err;
    cr_assert_eq(vx_scene_load_string(text, strlen(text), "f.json", &s, &err), VX_OK, "%s", err.message);
    const vx_collider *a = collider_of(&s, 0), *b = collider_of(&s, 1);
    cr_assert_eq(a->category, 1u);
    cr_assert_eq(a->mask, 0xFFFFFFFFu);
    cr_assert_eq(b->category, 6u);
    cr_assert_eq(b->mask, 0xFFFFFFFDu);
    cr_assert(vx_collider_filter_pass(a, b), "1 & ...FD and 6 & ...FF");
    vx_scene_destroy(&s);
}

/* density instead of mass: the mass is density times the collider's volume. */
Test(scene_load, density_gives_the_mass_from_the_volume)
{
    const char *text =
        "{\"entities\": ["
        " {\"collider\": {\"type\": \"sphere\", \"radius\": 0.5}, \"rigidbody\": {\"density\": 1000}},"
        " {\"collider\": {\"type\": \"box\", \"half_extents\": [1, 0.5, 0.25]}, \"rigidbody\": {\"density\": 2}},"
        " {\"collider\": {\"type\": \"capsule\", \"radius\": 0.5, \"half_height\": 1}, \"rigidbody\": {\"density\": 3}}]}";
    vx_scene s;
    vx_error err;
    cr_assert_eq(vx_scene_load_string(text, strlen(text), "d.json", &s, &err), VX_OK, "%s", err.message);
    const double pi = 3.14159265358979323846;
    cr_assert_float_eq(body_of(&s, 0)->mass, 1000.0 * 4.0 / 3.0 * pi * 0.125, 1e-3);
    cr_assert_eq(body_of(&s, 0)->type, VX_BODY_DYNAMIC);
    cr_assert_float_eq(body_of(&s, 1)->mass, 2.0 * 2.0 * 1.0 * 0.5, 1e-6);
    cr_assert_float_eq(body_of(&s, 2)->mass, 3.0 * (4.0 / 3.0 * pi * 0.125 + pi * 0.25 * 2.0), 1e-5);
    vx_scene_destroy(&s);
}

/* Shared shapes: written once under "shapes", named by any number of
 * entities. */
Test(scene_load, entities_name_shared_shapes)
{
    const char *text =
        "{\"shapes\": {\"rock\": {\"type\": \"box\", \"half_extents\": [1, 2, 3], \"category\": 4},"
        "            \"pebble\": {\"type\": \"sphere\", \"radius\": 0.1}},"
        " \"entities\": [{\"collider\": \"rock\"}, {\"collider\": \"pebble\", \"rigidbody\": {\"density\": 100}},"
        "                {\"collider\": \"rock\", \"transform\": {\"position\": [5, 0, 0]}}]}";
    vx_scene s;
    vx_error err;
    cr_assert_eq(vx_scene_load_string(text, strlen(text), "sh.json", &s, &err), VX_OK, "%s", err.message);
    const vx_collider *a = collider_of(&s, 0), *b = collider_of(&s, 1), *c = collider_of(&s, 2);
    cr_assert(a && b && c);
    cr_assert_eq(a->type, VX_SHAPE_BOX);
    cr_assert_eq(a->half_extents.z, 3.0f);
    cr_assert_eq(a->category, 4u);
    cr_assert(memcmp(a, c, sizeof *a) == 0, "the same shape, byte for byte");
    cr_assert_eq(b->type, VX_SHAPE_SPHERE);
    cr_assert_float_eq(body_of(&s, 1)->mass, 100.0 * 4.0 / 3.0 * 3.14159265358979 * 0.001, 1e-6);
    vx_scene_destroy(&s);
}

/* vx_scene_load with sets: a key of an entity is replaced, a bare word is a
 * string, sets apply in order (the last gravity wins), and a failed set
 * leaves the scene empty (tests/cli/test_cli.c makes a missing object). */
Test(scene_load, sets_override_keys_before_the_checks)
{
    const char *path = VOLTEX_SOURCE_DIR "/scenes/ball_drop.json";
    vx_scene_set sets[] = {{"entities[0].rigidbody.restitution", "0.9"},
                           {"name", "moon"},
                           {"gravity", "[0, -1, 0]"},
                           {"gravity", "[0, -1.62, 0]"}};
    vx_scene_source source = {path, -1, NULL, sets, 4};
    vx_scene s;
    vx_error err;
    cr_assert_eq(vx_scene_load(&source, &s, &err), VX_OK, "%s", err.message);
    cr_assert_str_eq(s.name, "moon");
    cr_assert_float_eq(vx_world_get_def(s.world)->gravity.y, -1.62f, 1e-7f);
    const vx_rigidbody *floor =
        vx_registry_get_const(vx_world_registry_const(s.world), s.entities[0], VX_COMPONENT_RIGIDBODY);
    cr_assert_not_null(floor);
    cr_assert_float_eq(floor->restitution, 0.9f, 1e-7f);
    vx_scene_destroy(&s);

    vx_scene_set wrong[] = {{"entities[7].mass", "1"}};
    vx_scene_source bad = {path, -1, NULL, wrong, 1};
    cr_assert_eq(vx_scene_load(&bad, &s, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "--set entities[7].mass: no such item (it has 2)");
    cr_assert_null(s.world);
}
