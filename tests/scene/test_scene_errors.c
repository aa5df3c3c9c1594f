/* Scene loader: every kind of bad input gets its exact status and message,
 * and leaves nothing behind (run under ASan for the leaks). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "invalid_scene_record.h"
#include "voltex/scene.h"

/* One entity (or several, comma-separated) in an otherwise empty scene. */
#define ENTITIES(...) "{\"entities\": [" __VA_ARGS__ "]}"
#define SPHERE "\"collider\": {\"type\": \"sphere\", \"radius\": 1}"
#define BOX "\"collider\": {\"type\": \"box\", \"half_extents\": [1, 1, 1]}"

static void assert_scene_empty(const vx_scene *s)
{
    cr_assert_null(s->name);
    cr_assert_null(s->world);
    cr_assert_null(s->entities);
    cr_assert_null(s->names);
    cr_assert_eq(s->entity_count, 0);
    cr_assert_eq(s->steps, 0);
    cr_assert_null(s->queries);
    cr_assert_null(s->query_names);
    cr_assert_eq(s->query_count, 0);
    cr_assert_null(s->joints);
    cr_assert_null(s->joint_names);
    cr_assert_eq(s->joint_count, 0);
}

/* Loads `length` bytes of text as "s.json" and expects exactly this failure. */
static void expect_error_n(const char *text, size_t length, vx_status code, const char *message)
{
    vx_scene s;
    vx_error err;
    vx_status st = vx_scene_load_string(text, length, "s.json", &s, &err);
    cr_assert_eq(st, code, "status %d, expected %d, for: %s\nmessage: %s", (int)st, (int)code, text, err.message);
    cr_assert_eq(err.code, code);
    cr_assert_str_eq(err.message, message, "for: %s\nactual:   %s\nexpected: %s", text, err.message, message);
    if (code == VX_ERR_INVALID) vx_test_record_invalid_scene(text, length, message);
    assert_scene_empty(&s);
    vx_scene_destroy(&s); /* harmless on the emptied scene */
}

static void expect_error(const char *json, vx_status code, const char *message)
{
    expect_error_n(json, strlen(json), code, message);
}

static void expect_invalid(const char *json, const char *message) { expect_error(json, VX_ERR_INVALID, message); }


/* ---- reading the file ---- */

Test(scene_errors, missing_file)
{
    vx_scene s;
    vx_error err;
    vx_status st = vx_scene_load_file("/nonexistent-voltex-dir/scene.json", &s, &err);
    cr_assert_eq(st, VX_ERR_IO);
    cr_assert_eq(err.code, VX_ERR_IO);
    cr_assert_str_eq(err.message, "/nonexistent-voltex-dir/scene.json: cannot read: No such file or directory");
    assert_scene_empty(&s);
}

Test(scene_errors, directory)
{
    char dir[] = "/tmp/vx_scene_errors_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    vx_scene s;
    vx_error err;
    vx_status st = vx_scene_load_file(dir, &s, &err);
    rmdir(dir);
    char expected[128];
    snprintf(expected, sizeof expected, "%s: cannot read: Is a directory", dir);
    cr_assert_eq(st, VX_ERR_IO);
    cr_assert_str_eq(err.message, expected);
    assert_scene_empty(&s);
}

Test(scene_errors, empty_file)
{
    expect_error("", VX_ERR_SYNTAX, "s.json:1:1: empty file, expected a JSON object");
    expect_error(" \n\t ", VX_ERR_SYNTAX, "s.json:2:3: empty file, expected a JSON object");

    char dir[] = "/tmp/vx_scene_errors_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/empty.json", dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fclose(f);
    vx_scene s;
    vx_error err;
    vx_status st = vx_scene_load_file(path, &s, &err);
    remove(path);
    rmdir(dir);
    char expected[256];
    snprintf(expected, sizeof expected, "%s:1:1: empty file, expected a JSON object", path);
    cr_assert_eq(st, VX_ERR_SYNTAX);
    cr_assert_str_eq(err.message, expected);
    assert_scene_empty(&s);
}

/* ---- JSON syntax: FILE:LINE:COLUMN ---- */

Test(scene_errors, syntax_error_names_line_and_column)
{
    /* the trailing comma of line 3 leaves the '}' in column 18 where a key belongs */
    expect_error("{\n"
                 "  \"entities\": [\n"
                 "    {\"name\": \"a\",}\n"
                 "  ]\n"
                 "}\n",
                 VX_ERR_SYNTAX, "s.json:3:18: invalid JSON (unexpected character '}', expected a key in double quotes)");
    expect_error("{\n  \"steps\": 5\n  \"entities\": []\n}", VX_ERR_SYNTAX,
                 "s.json:3:3: invalid JSON (unexpected character '\"', expected ',' or '}')");
    expect_error("{\"entities\" []}", VX_ERR_SYNTAX, "s.json:1:13: invalid JSON (unexpected character '[', expected ':')");
    expect_error("{\"entities\": [1 2]}", VX_ERR_SYNTAX,
                 "s.json:1:17: invalid JSON (unexpected character '2', expected ',' or ']')");
}

Test(scene_errors, syntax_error_in_a_value)
{
    expect_error("{\"entities\": [], \"dt\": tru}", VX_ERR_SYNTAX, "s.json:1:27: invalid JSON (unexpected character '}')");
    expect_error("{\"entities\": [], \"dt\": .5}", VX_ERR_SYNTAX, "s.json:1:24: invalid JSON (unexpected character '.')");
    expect_error("{\"entities\": [], \"dt\": 01}", VX_ERR_SYNTAX,
                 "s.json:1:25: invalid JSON (unexpected character '1', expected ',' or '}')");
    expect_error("{\"entities\": [], \"dt\": 1.}", VX_ERR_SYNTAX, "s.json:1:26: invalid JSON (unexpected character '}')");
    expect_error("{\"entities\": [], 'dt': 1}", VX_ERR_SYNTAX,
                 "s.json:1:18: invalid JSON (unexpected character ''', expected a key in double quotes)");
    expect_error("{\"name\": \"a\\qb\", \"entities\": []}", VX_ERR_SYNTAX, "s.json:1:13: invalid JSON (invalid escape '\\q')");
    expect_error("{\"name\": \"a\\u12G4\", \"entities\": []}", VX_ERR_SYNTAX,
                 "s.json:1:16: invalid JSON (invalid \\u escape, expected 4 hex digits)");
    expect_error("{\"name\": \"\\uD800x\", \"entities\": []}", VX_ERR_SYNTAX,
                 "s.json:1:11: invalid JSON (unpaired surrogate in \\u escape)");
    /* C strings end at NUL: "a\u0000b" would silently become "a" */
    expect_error(ENTITIES("{\"name\": \"a\\u0000b\"}"), VX_ERR_SYNTAX,
                 "s.json:1:26: invalid JSON (\\u0000 is not allowed in strings)");
    expect_error("{\"name\": \"a\tb\", \"entities\": []}", VX_ERR_SYNTAX,
                 "s.json:1:12: invalid JSON (control character in string (escape it))");
    expect_error("{\"name\": \"ab,\n \"entities\": []}", VX_ERR_SYNTAX,
                 "s.json:1:14: invalid JSON (unterminated string (line break inside it))");
}

Test(scene_errors, unexpected_end_of_input)
{
    expect_error("{\n  \"entities\": [", VX_ERR_SYNTAX, "s.json:2:16: invalid JSON (unexpected end of input)");
    expect_error("{\"name\": \"ab", VX_ERR_SYNTAX, "s.json:1:13: invalid JSON (unterminated string)");
}

Test(scene_errors, trailing_garbage)
{
    expect_error("{\"entities\": []}\n  x", VX_ERR_SYNTAX,
                 "s.json:2:3: invalid JSON (unexpected character 'x' after the end of the JSON value)");
    expect_error("{\"entities\": []}{}", VX_ERR_SYNTAX,
                 "s.json:1:17: invalid JSON (unexpected character '{' after the end of the JSON value)");
}

Test(scene_errors, embedded_nul_byte)
{
    static const char after[] = "{\"entities\": []}\0{\"x\": 1}";
    expect_error_n(after, sizeof after - 1, VX_ERR_SYNTAX,
                   "s.json:1:17: invalid JSON (unexpected NUL byte after the end of the JSON value)");
    static const char inside[] = "{\"enti\0ties\": []}";
    expect_error_n(inside, sizeof inside - 1, VX_ERR_SYNTAX, "s.json:1:7: invalid JSON (unexpected NUL byte)");
    static const char between[] = "{\"entities\":\0 []}";
    expect_error_n(between, sizeof between - 1, VX_ERR_SYNTAX, "s.json:1:13: invalid JSON (unexpected NUL byte)");
}

Test(scene_errors, nesting_too_deep)
{
    char json[200];
    memset(json, '[', 100);
    memset(json + 100, ']', 100);
    expect_error_n(json, sizeof json, VX_ERR_SYNTAX, "s.json:1:65: invalid JSON (nested deeper than 64 levels)");
}

/* ---- the document's shape ---- */

Test(scene_errors, root_not_an_object)
{
    expect_invalid("[1, 2]", "s.json: (root): must be a JSON object");
    expect_invalid("\"scene\"", "s.json: (root): must be a JSON object");
}

Test(scene_errors, missing_entities)
{
    expect_invalid("{\"name\": \"x\"}", "s.json: entities: missing (required)");
}

Test(scene_errors, unknown_top_level_key)
{
    expect_invalid("{\"entites\": []}", "s.json: entites: unknown key (did you mean \"entities\"?)");
    expect_invalid("{\"colour\": 1, \"entities\": []}",
                   "s.json: colour: unknown key (expected one of: name, gravity, dt, steps, solver, shapes, entities, "
                   "queries, joints, $schema)");
    /* a one-letter key is not "close" to a two-letter one */
    expect_invalid("{\"x\": 1, \"entities\": []}",
                   "s.json: x: unknown key (expected one of: name, gravity, dt, steps, solver, shapes, entities, "
                   "queries, joints, $schema)");
    expect_invalid("{\"DT\": 1, \"entities\": []}", "s.json: DT: unknown key (did you mean \"dt\"?)");
}

Test(scene_errors, unknown_entity_key)
{
    expect_invalid(ENTITIES("{\"colider\": {}}"), "s.json: entities[0].colider: unknown key (did you mean \"collider\"?)");
    expect_invalid(ENTITIES("{}, {\"Name\": \"a\"}"), "s.json: entities[1].Name: unknown key (did you mean \"name\"?)");
    expect_invalid(ENTITIES("{\"mass\": 1}"),
                   "s.json: entities[0].mass: unknown key (expected one of: name, transform, collider, rigidbody)");
}

Test(scene_errors, unknown_transform_key)
{
    expect_invalid(ENTITIES("{\"transform\": {\"postion\": [0, 0, 0]}}"),
                   "s.json: entities[0].transform.postion: unknown key (did you mean \"position\"?)");
    expect_invalid(ENTITIES("{\"transform\": {\"scale\": 2}}"),
                   "s.json: entities[0].transform.scale: unknown key (expected one of: position, rotation, rotation_deg)");
}

Test(scene_errors, unknown_collider_key)
{
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"sphere\", \"radus\": 1}}"),
                   "s.json: entities[0].collider.radus: unknown key (did you mean \"radius\"?)");
    /* a key of another shape is unknown for this one */
    expect_invalid(ENTITIES("{\"collider\": {\"radius\": 1, \"type\": \"box\", \"half_extents\": [1, 1, 1]}}"),
                   "s.json: entities[0].collider.radius: unknown key (expected one of: type, half_extents, sensor, "
                   "category, mask)");
    /* without a type, a misspelt "type" is named first */
    expect_invalid(ENTITIES("{\"collider\": {\"tpye\": \"box\"}}"),
                   "s.json: entities[0].collider.tpye: unknown key (did you mean \"type\"?)");
}

Test(scene_errors, unknown_rigidbody_key)
{
    expect_invalid(ENTITIES("{\"rigidbody\": {\"restitusion\": 0.5}}"),
                   "s.json: entities[0].rigidbody.restitusion: unknown key (did you mean \"restitution\"?)");
    expect_invalid(ENTITIES("{\"rigidbody\": {\"inertia\": 1}}"),
                   "s.json: entities[0].rigidbody.inertia: unknown key (expected one of: type, mass, density, restitution, "
                   "friction, gravity_scale, velocity, angular_velocity, lock_rotation, linear_damping, "
                   "angular_damping, can_sleep, bullet)");
}

Test(scene_errors, unknown_solver_key)
{
    expect_invalid("{\"solver\": {\"iteration\": 5}, \"entities\": []}",
                   "s.json: solver.iteration: unknown key (did you mean \"iterations\"?)");
    expect_invalid("{\"solver\": {\"gravity\": 5}, \"entities\": []}",
                   "s.json: solver.gravity: unknown key (expected one of: iterations, position_iterations, substeps, "
                   "warm_starting, sleeping, threads, restitution_threshold, baumgarte_slop, baumgarte_percent, "
                   "max_correction, speculative_distance, broadphase, order, reuse_contacts, restitution)");
    expect_invalid("{\"solver\": {\"position_iteration\": 5}, \"entities\": []}",
                   "s.json: solver.position_iteration: unknown key (did you mean \"position_iterations\"?)");
    expect_invalid("{\"solver\": {\"max_corection\": 0.1}, \"entities\": []}",
                   "s.json: solver.max_corection: unknown key (did you mean \"max_correction\"?)");
}

Test(scene_errors, long_unknown_key_is_shortened)
{
    expect_invalid("{\"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz\": 1, \"entities\": []}",
                   "s.json: abcdefghijklmnopqrstuvwxyzabcdefghijklmn...: unknown key (expected one of: name, gravity, "
                   "dt, steps, solver, shapes, entities, queries, joints, $schema)");
    expect_invalid("{\"a\\nb\": 1, \"entities\": []}",
                   "s.json: a?b: unknown key (expected one of: name, gravity, dt, steps, solver, shapes, entities, "
                   "queries, joints, $schema)");
}

Test(scene_errors, duplicate_key)
{
    expect_invalid(ENTITIES("{\"transform\": {\"position\": [0, 0, 0], \"position\": [1, 1, 1]}}"),
                   "s.json: entities[0].transform.position: duplicate key");
    expect_invalid("{\"dt\": 0.01, \"entities\": [], \"dt\": 0.02}", "s.json: dt: duplicate key");
    expect_invalid(ENTITIES("{" SPHERE ", " SPHERE "}"), "s.json: entities[0].collider: duplicate key");
}

Test(scene_errors, duplicate_entity_name)
{
    expect_invalid(ENTITIES("{\"name\": \"box\"}, {\"name\": \"ball\"}, {}, {\"name\": \"box\"}"),
                   "s.json: entities[3].name: duplicate name \"box\" (also entities[0])");
}

Test(scene_errors, explicit_name_clashes_with_a_default_name)
{
    expect_invalid(ENTITIES("{\"name\": \"entity1\"}, {}"),
                   "s.json: entities[1].name: duplicate name \"entity1\" (also entities[0])");
    expect_invalid(ENTITIES("{}, {\"name\": \"entity0\"}"),
                   "s.json: entities[1].name: duplicate name \"entity0\" (also entities[0])");
}

Test(scene_errors, bad_name_characters)
{
    const char *msg = "s.json: entities[0].name: must be 1-64 letters, digits, '_', '.' or '-'";
    expect_invalid(ENTITIES("{\"name\": \"a b\"}"), msg);
    expect_invalid(ENTITIES("{\"name\": \"\"}"), msg);
    expect_invalid(ENTITIES("{\"name\": \"caf\xC3\xA9\"}"), msg);
    /* 64 characters are fine, 65 are not */
    char json[128];
    char name[66];
    memset(name, 'n', 65);
    name[65] = '\0';
    snprintf(json, sizeof json, ENTITIES("{\"name\": \"%s\"}"), name);
    expect_invalid(json, msg);
    name[64] = '\0';
    snprintf(json, sizeof json, ENTITIES("{\"name\": \"%s\"}"), name);
    vx_scene s;
    vx_error err;
    cr_assert_eq(vx_scene_load_string(json, strlen(json), "s.json", &s, &err), VX_OK, "%s", err.message);
    cr_assert_eq(strlen(s.names[0]), 64);
    vx_scene_destroy(&s);
    const char *ok = ENTITIES("{\"name\": \"A-z_0.9\"}");
    cr_assert_eq(vx_scene_load_string(ok, strlen(ok), "s.json", &s, &err), VX_OK, "%s", err.message);
    cr_assert_str_eq(s.names[0], "A-z_0.9");
    vx_scene_destroy(&s);
}

/* ---- types ---- */

Test(scene_errors, must_be_a_number)
{
    expect_invalid("{\"dt\": \"0.1\", \"entities\": []}", "s.json: dt: must be a number");
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"sphere\", \"radius\": null}}"),
                   "s.json: entities[0].collider.radius: must be a number");
    expect_invalid(ENTITIES("{\"transform\": {\"position\": [0, \"1\", 0]}}"),
                   "s.json: entities[0].transform.position[1]: must be a number");
}

Test(scene_errors, must_be_an_integer)
{
    expect_invalid("{\"steps\": \"10\", \"entities\": []}", "s.json: steps: must be an integer");
    expect_invalid("{\"steps\": 1.5, \"entities\": []}", "s.json: steps: must be an integer");
    expect_invalid("{\"solver\": {\"threads\": 2.5}, \"entities\": []}", "s.json: solver.threads: must be an integer");
    expect_invalid("{\"solver\": {\"position_iterations\": 0.5}, \"entities\": []}",
                   "s.json: solver.position_iterations: must be an integer");
}

Test(scene_errors, must_be_an_array_of_3_numbers)
{
    expect_invalid("{\"gravity\": [0, -9.81], \"entities\": []}", "s.json: gravity: must be an array of 3 numbers");
    expect_invalid("{\"gravity\": -9.81, \"entities\": []}", "s.json: gravity: must be an array of 3 numbers");
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"box\", \"half_extents\": [1, 1, 1, 1]}}"),
                   "s.json: entities[0].collider.half_extents: must be an array of 3 numbers");
    expect_invalid(ENTITIES("{\"rigidbody\": {\"velocity\": {\"x\": 1}}}"),
                   "s.json: entities[0].rigidbody.velocity: must be an array of 3 numbers");
}

Test(scene_errors, must_be_an_array_of_4_numbers)
{
    expect_invalid(ENTITIES("{\"transform\": {\"rotation\": [0, 0, 1]}}"),
                   "s.json: entities[0].transform.rotation: must be an array of 4 numbers");
}

Test(scene_errors, must_be_a_string)
{
    expect_invalid("{\"name\": 5, \"entities\": []}", "s.json: name: must be a string");
    expect_invalid(ENTITIES("{\"name\": [\"a\"]}"), "s.json: entities[0].name: must be a string");
    expect_invalid(ENTITIES("{\"collider\": {\"type\": 1}}"), "s.json: entities[0].collider.type: must be a string");
    expect_invalid(ENTITIES("{\"rigidbody\": {\"type\": true}}"), "s.json: entities[0].rigidbody.type: must be a string");
}

Test(scene_errors, must_be_true_or_false)
{
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"sphere\", \"radius\": 1, \"sensor\": 1}}"),
                   "s.json: entities[0].collider.sensor: must be true or false");
    expect_invalid("{\"solver\": {\"warm_starting\": \"yes\"}, \"entities\": []}",
                   "s.json: solver.warm_starting: must be true or false");
    expect_invalid(ENTITIES("{\"rigidbody\": {\"lock_rotation\": null}}"),
                   "s.json: entities[0].rigidbody.lock_rotation: must be true or false");
}

Test(scene_errors, must_be_an_object)
{
    expect_invalid("{\"solver\": [], \"entities\": []}", "s.json: solver: must be an object");
    expect_invalid(ENTITIES("{}, 3"), "s.json: entities[1]: must be an object");
    expect_invalid(ENTITIES("{\"transform\": [0, 0, 0]}"), "s.json: entities[0].transform: must be an object");
    expect_invalid(ENTITIES("{\"collider\": \"sphere\"}"),
                   "s.json: entities[0].collider: no shape named \"sphere\" (a collider is an object, or the name of "
                   "one of the scene's \"shapes\")");
    expect_invalid(ENTITIES("{\"rigidbody\": true}"), "s.json: entities[0].rigidbody: must be an object");
}

Test(scene_errors, must_be_an_array)
{
    expect_invalid("{\"entities\": {}}", "s.json: entities: must be an array");
}

/* ---- ranges ---- */

Test(scene_errors, dt_must_be_positive)
{
    expect_invalid("{\"dt\": 0, \"entities\": []}", "s.json: dt: must be > 0");
    expect_invalid("{\"dt\": -0.01, \"entities\": []}", "s.json: dt: must be > 0");
    /* positive, but 0 as a float */
    expect_invalid("{\"dt\": 1e-50, \"entities\": []}", "s.json: dt: must be > 0");
}

Test(scene_errors, steps_out_of_range)
{
    expect_invalid("{\"steps\": -1, \"entities\": []}", "s.json: steps: must be between 0 and 1000000000");
    expect_invalid("{\"steps\": 1000000001, \"entities\": []}", "s.json: steps: must be between 0 and 1000000000");
    expect_invalid("{\"steps\": 1e30, \"entities\": []}", "s.json: steps: must be between 0 and 1000000000");
}

Test(scene_errors, radius_must_be_positive)
{
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"sphere\", \"radius\": 0}}"),
                   "s.json: entities[0].collider.radius: must be > 0");
    expect_invalid(ENTITIES("{}, {}, {\"collider\": {\"type\": \"capsule\", \"radius\": -1, \"half_height\": 1}}"),
                   "s.json: entities[2].collider.radius: must be > 0");
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"capsule\", \"radius\": 1, \"half_height\": 0}}"),
                   "s.json: entities[0].collider.half_height: must be > 0");
}

Test(scene_errors, half_extents_must_be_positive)
{
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"box\", \"half_extents\": [1, -2, 1]}}"),
                   "s.json: entities[0].collider.half_extents[1]: must be > 0");
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"box\", \"half_extents\": [1, 1, 0]}}"),
                   "s.json: entities[0].collider.half_extents[2]: must be > 0");
}

Test(scene_errors, mass_must_not_be_negative)
{
    expect_invalid(ENTITIES("{\"rigidbody\": {\"mass\": -1}}"), "s.json: entities[0].rigidbody.mass: must be >= 0");
}

Test(scene_errors, restitution_out_of_range)
{
    expect_invalid(ENTITIES("{\"rigidbody\": {\"restitution\": 1.5}}"),
                   "s.json: entities[0].rigidbody.restitution: must be between 0 and 1");
    expect_invalid(ENTITIES("{\"rigidbody\": {\"restitution\": -0.1}}"),
                   "s.json: entities[0].rigidbody.restitution: must be between 0 and 1");
    expect_invalid("{\"solver\": {\"baumgarte_percent\": 2}, \"entities\": []}",
                   "s.json: solver.baumgarte_percent: must be between 0 and 1");
}

Test(scene_errors, friction_must_not_be_negative)
{
    expect_invalid(ENTITIES("{\"rigidbody\": {\"friction\": -1}}"),
                   "s.json: entities[0].rigidbody.friction: must be >= 0");
}

Test(scene_errors, damping_must_not_be_negative)
{
    expect_invalid(ENTITIES("{\"rigidbody\": {\"linear_damping\": -1}}"),
                   "s.json: entities[0].rigidbody.linear_damping: must be >= 0");
    expect_invalid(ENTITIES("{\"rigidbody\": {\"angular_damping\": -1}}"),
                   "s.json: entities[0].rigidbody.angular_damping: must be >= 0");
    expect_invalid("{\"solver\": {\"baumgarte_slop\": -0.01}, \"entities\": []}",
                   "s.json: solver.baumgarte_slop: must be >= 0");
    expect_invalid("{\"solver\": {\"restitution_threshold\": -1}, \"entities\": []}",
                   "s.json: solver.restitution_threshold: must be >= 0");
}

Test(scene_errors, solver_counts_out_of_range)
{
    expect_invalid("{\"solver\": {\"iterations\": 0}, \"entities\": []}",
                   "s.json: solver.iterations: must be between 1 and 1000");
    expect_invalid("{\"solver\": {\"iterations\": 1001}, \"entities\": []}",
                   "s.json: solver.iterations: must be between 1 and 1000");
    expect_invalid("{\"solver\": {\"substeps\": 0}, \"entities\": []}",
                   "s.json: solver.substeps: must be between 1 and 1000");
    expect_invalid("{\"solver\": {\"threads\": 0}, \"entities\": []}", "s.json: solver.threads: must be between 1 and 256");
    expect_invalid("{\"solver\": {\"threads\": 257}, \"entities\": []}",
                   "s.json: solver.threads: must be between 1 and 256");
    expect_invalid("{\"solver\": {\"position_iterations\": -1}, \"entities\": []}",
                   "s.json: solver.position_iterations: must be between 0 and 1000");
    expect_invalid("{\"solver\": {\"position_iterations\": 1001}, \"entities\": []}",
                   "s.json: solver.position_iterations: must be between 0 and 1000");
}

Test(scene_errors, position_correction_settings_out_of_range)
{
    expect_invalid("{\"solver\": {\"max_correction\": 0}, \"entities\": []}",
                   "s.json: solver.max_correction: must be > 0");
    expect_invalid("{\"solver\": {\"max_correction\": -0.2}, \"entities\": []}",
                   "s.json: solver.max_correction: must be > 0");
    expect_invalid("{\"solver\": {\"speculative_distance\": -0.01}, \"entities\": []}",
                   "s.json: solver.speculative_distance: must be >= 0");
    expect_invalid("{\"solver\": {\"speculative_distance\": 1e39}, \"entities\": []}",
                   "s.json: solver.speculative_distance: must be a finite number that fits a 32-bit float");
}

Test(scene_errors, number_too_big_for_a_float)
{
    expect_invalid("{\"gravity\": [0, 1e39, 0], \"entities\": []}",
                   "s.json: gravity[1]: must be a finite number that fits a 32-bit float");
    expect_invalid(ENTITIES("{\"rigidbody\": {\"gravity_scale\": -3.5e38}}"),
                   "s.json: entities[0].rigidbody.gravity_scale: must be a finite number that fits a 32-bit float");
}

Test(scene_errors, huge_exponent)
{
    expect_invalid("{\"dt\": 1e999, \"entities\": []}", "s.json: dt: must be a finite number that fits a 32-bit float");
    expect_invalid("{\"steps\": -1e999, \"entities\": []}",
                   "s.json: steps: must be a finite number that fits a 32-bit float");
}

/* ---- transform ---- */

Test(scene_errors, rotation_all_zero)
{
    expect_invalid(ENTITIES("{\"transform\": {\"rotation\": [0, 0, 0, 0]}}"),
                   "s.json: entities[0].transform.rotation: must not be all zero");
}

Test(scene_errors, rotation_with_rotation_deg)
{
    expect_invalid(ENTITIES("{\"transform\": {\"rotation\": [0, 0, 0, 1], \"rotation_deg\": [0, 0, 0]}}"),
                   "s.json: entities[0].transform.rotation_deg: not together with rotation");
    expect_invalid(ENTITIES("{\"transform\": {\"rotation_deg\": [0, 0, 0], \"rotation\": [0, 0, 0, 1]}}"),
                   "s.json: entities[0].transform.rotation: not together with rotation_deg");
}

/* ---- collider ---- */

Test(scene_errors, missing_collider_type)
{
    expect_invalid(ENTITIES("{\"collider\": {\"radius\": 1}}"), "s.json: entities[0].collider.type: missing (required)");
}

Test(scene_errors, missing_shape_size)
{
    expect_invalid(ENTITIES("{}, {\"collider\": {\"type\": \"sphere\"}}"),
                   "s.json: entities[1].collider.radius: missing (required for a sphere)");
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"box\", \"sensor\": true}}"),
                   "s.json: entities[0].collider.half_extents: missing (required for a box)");
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"capsule\", \"radius\": 1}}"),
                   "s.json: entities[0].collider.half_height: missing (required for a capsule)");
}

Test(scene_errors, bad_collider_type)
{
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"cube\"}}"),
                   "s.json: entities[0].collider.type: must be \"sphere\", \"box\", \"capsule\", \"convex\", \"mesh\", "
                   "\"heightfield\" or \"compound\"");
}

#define PART_SPHERE "{\"type\": \"sphere\", \"radius\": 1}"
#define COMPOUND(parts) "{\"collider\": {\"type\": \"compound\", \"parts\": " parts "}}"

Test(scene_errors, compound_parts)
{
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"compound\"}}"),
                   "s.json: entities[0].collider.parts: missing (required for a compound)");
    expect_invalid(ENTITIES(COMPOUND("[]")), "s.json: entities[0].collider.parts: must have 1 to 256 parts (0 given)");
    expect_invalid(ENTITIES(COMPOUND("{}")), "s.json: entities[0].collider.parts: must be an array");
    /* 257 parts */
    char text[16384];
    size_t n = (size_t)snprintf(text, sizeof text, "{\"entities\": [{\"collider\": {\"type\": \"compound\", \"parts\": [");
    for (int i = 0; i < 257; i++) n += (size_t)snprintf(text + n, sizeof text - n, "%s" PART_SPHERE, i ? "," : "");
    snprintf(text + n, sizeof text - n, "]}}]}");
    expect_invalid(text, "s.json: entities[0].collider.parts: must have 1 to 256 parts (257 given)");
    expect_invalid(ENTITIES(COMPOUND("[" PART_SPHERE ", {\"type\": \"compound\", \"parts\": [" PART_SPHERE "]}]")),
                   "s.json: entities[0].collider.parts[1].type: must be \"sphere\", \"box\", \"capsule\" or \"convex\" "
                   "(compounds do not nest)");
    expect_invalid(ENTITIES(COMPOUND("[{\"type\": \"mesh\"}]")),
                   "s.json: entities[0].collider.parts[0].type: must be \"sphere\", \"box\", \"capsule\" or \"convex\"");
    expect_invalid(ENTITIES(COMPOUND("[{\"type\": \"heightfield\"}]")),
                   "s.json: entities[0].collider.parts[0].type: must be \"sphere\", \"box\", \"capsule\" or \"convex\"");
    expect_invalid(ENTITIES(COMPOUND("[{\"type\": \"cone\"}]")),
                   "s.json: entities[0].collider.parts[0].type: must be \"sphere\", \"box\", \"capsule\" or \"convex\"");
    expect_invalid(ENTITIES(COMPOUND("[{\"radius\": 1}]")), "s.json: entities[0].collider.parts[0].type: missing (required)");
    expect_invalid(ENTITIES(COMPOUND("[{\"type\": \"sphere\", \"radius\": -1}]")),
                   "s.json: entities[0].collider.parts[0].radius: must be > 0");
    expect_invalid(ENTITIES(COMPOUND("[{\"type\": \"box\", \"half_extents\": [1, 1, 1], \"rotation\": [0, 0, 0, 0]}]")),
                   "s.json: entities[0].collider.parts[0].rotation: must not be all zero");
    expect_invalid(ENTITIES(COMPOUND("[{\"type\": \"box\", \"half_extents\": [1, 1, 1], \"rotation\": [0, 0, 1], "
                                     "\"position\": [0, 0, 0]}]")),
                   "s.json: entities[0].collider.parts[0].rotation: must be an array of 4 numbers");
    expect_invalid(ENTITIES(COMPOUND("[{\"type\": \"box\", \"half_extents\": [1, 1, 1], \"rotation\": [0, 0, 0, 1], "
                                     "\"rotation_deg\": [0, 0, 0]}]")),
                   "s.json: entities[0].collider.parts[0].rotation_deg: not together with rotation");
    expect_invalid(ENTITIES(COMPOUND("[{\"type\": \"sphere\", \"radius\": 1, \"sensor\": true}]")),
                   "s.json: entities[0].collider.parts[0].sensor: unknown key (expected one of: type, radius, position, "
                   "rotation, rotation_deg)");
    expect_invalid(ENTITIES(COMPOUND("[{\"type\": \"convex\", \"points\": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]}]")),
                   "s.json: entities[0].collider.parts[0].points: all points lie on one plane (within 1e-05)");
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"compound\", \"parts\": [" PART_SPHERE "], \"radius\": 1}}"),
                   "s.json: entities[0].collider.radius: unknown key (expected one of: type, parts, sensor, category, mask)");
}

/* ---- rigidbody ---- */

Test(scene_errors, bad_body_type)
{
    expect_invalid(ENTITIES("{\"rigidbody\": {\"type\": \"Dynamic\"}}"),
                   "s.json: entities[0].rigidbody.type: must be \"dynamic\", \"static\" or \"kinematic\"");
}

Test(scene_errors, dynamic_body_with_mass_0)
{
    expect_invalid(ENTITIES("{\"rigidbody\": {\"mass\": 0, \"type\": \"dynamic\"}}"),
                   "s.json: entities[0].rigidbody.mass: a dynamic body needs mass > 0");
}

Test(scene_errors, static_or_kinematic_body_with_mass)
{
    expect_invalid(ENTITIES("{\"rigidbody\": {\"type\": \"static\", \"mass\": 2}}"),
                   "s.json: entities[0].rigidbody.mass: a static body has no mass (leave it out)");
    expect_invalid(ENTITIES("{\"rigidbody\": {\"mass\": 1, \"type\": \"kinematic\"}}"),
                   "s.json: entities[0].rigidbody.mass: a kinematic body has no mass (leave it out)");
}

/* ---- bullet, sleeping, threads and the other later keys ---- */

Test(scene_errors, bullet_must_be_true_or_false)
{
    expect_invalid(ENTITIES("{" SPHERE ", \"rigidbody\": {\"bullet\": 1}}"),
                   "s.json: entities[0].rigidbody.bullet: must be true or false");
    expect_invalid(ENTITIES("{" SPHERE ", \"rigidbody\": {\"bulet\": true}}"),
                   "s.json: entities[0].rigidbody.bulet: unknown key (did you mean \"bullet\"?)");
}

Test(scene_errors, broadphase_must_be_tree_or_bvh)
{
    expect_invalid("{\"solver\": {\"broadphase\": \"sap\"}, \"entities\": []}",
                   "s.json: solver.broadphase: must be \"tree\" or \"bvh\"");
    expect_invalid("{\"solver\": {\"broadphase\": \"Tree\"}, \"entities\": []}",
                   "s.json: solver.broadphase: must be \"tree\" or \"bvh\"");
    expect_invalid("{\"solver\": {\"broadphase\": 1}, \"entities\": []}",
                   "s.json: solver.broadphase: must be a string");
    expect_invalid("{\"solver\": {\"broadfase\": \"bvh\"}, \"entities\": []}",
                   "s.json: solver.broadfase: unknown key (did you mean \"broadphase\"?)");
}

Test(scene_errors, restitution_must_be_sequential_or_simultaneous)
{
    expect_invalid("{\"solver\": {\"restitution\": \"together\"}, \"entities\": []}",
                   "s.json: solver.restitution: must be \"sequential\" or \"simultaneous\"");
    expect_invalid("{\"solver\": {\"restitution\": 1}, \"entities\": []}",
                   "s.json: solver.restitution: must be a string");
}

Test(scene_errors, order_must_be_sequential_or_colored)
{
    expect_invalid("{\"solver\": {\"order\": \"random\"}, \"entities\": []}",
                   "s.json: solver.order: must be \"sequential\" or \"colored\"");
    expect_invalid("{\"solver\": {\"order\": 2}, \"entities\": []}", "s.json: solver.order: must be a string");
    expect_invalid("{\"solver\": {\"oder\": \"colored\"}, \"entities\": []}",
                   "s.json: solver.oder: unknown key (did you mean \"order\"?)");
}

Test(scene_errors, bullet_and_sleeping_are_ordinary_settings_errors_elsewhere_still_found)
{
    /* bullet and sleeping are settings like any other: the error after them is reported */
    expect_invalid(ENTITIES("{" SPHERE ", \"rigidbody\": {\"bullet\": true}}, {\"colider\": {}}"),
                   "s.json: entities[1].colider: unknown key (did you mean \"collider\"?)");
    expect_invalid("{\"solver\": {\"sleeping\": true}, \"entities\": [{\"rigidbody\": {\"mass\": -1}}]}",
                   "s.json: entities[0].rigidbody.mass: must be >= 0");
}

Test(scene_errors, what_issue_3_simulates_is_no_longer_rejected)
{
    /* capsules, friction, spin, rotated and rotating boxes, with bullet and sleeping spelt out as false */
    const char *json = "{\"solver\": {\"sleeping\": false}, \"entities\": ["
                       "{\"collider\": {\"type\": \"capsule\", \"radius\": 0.5, \"half_height\": 1}},"
                       "{" BOX ", \"transform\": {\"rotation_deg\": [0, 0, 45]},"
                       " \"rigidbody\": {\"friction\": 0.8, \"angular_velocity\": [0, 1, 0], \"bullet\": false}},"
                       "{" BOX ", \"transform\": {\"rotation\": [0, 0, 1, 1]}, \"rigidbody\": {\"lock_rotation\": false}}]}";
    vx_scene s;
    vx_error err;
    cr_assert_eq(vx_scene_load_string(json, strlen(json), "s.json", &s, &err), VX_OK, "%s", err.message);
    cr_assert_eq(s.entity_count, 3);
    vx_scene_destroy(&s);
}

/* ---- robustness ---- */

static const char full_scene[] =
    "{\n"
    "  \"name\": \"fuzz \\u00e9\\\"\\\\x\", \"gravity\": [0, -9.81, 0], \"dt\": 0.02, \"steps\": 12,\n"
    "  \"solver\": {\"iterations\": 4, \"substeps\": 2, \"warm_starting\": true, \"threads\": 2},\n"
    "  \"entities\": [\n"
    "    {\"name\": \"floor\", \"transform\": {\"position\": [0, -1, 0]},\n"
    "     \"collider\": {\"type\": \"box\", \"half_extents\": [10, 1, 10]}, \"rigidbody\": {\"type\": \"static\"}},\n"
    "    {\"name\": \"ball\", \"transform\": {\"position\": [0, 5, 0], \"rotation_deg\": [10, 20, 30]},\n"
    "     \"collider\": {\"type\": \"sphere\", \"radius\": 0.5, \"sensor\": false},\n"
    "     \"rigidbody\": {\"mass\": 1.5, \"restitution\": 0.25, \"velocity\": [1e-3, -2.5E+1, 0],\n"
    "                   \"can_sleep\": false, \"linear_damping\": 0.1}},\n"
    "    {\"transform\": {\"rotation\": [0, 0, 0, 1]}}, {}\n"
    "  ]\n"
    "}\n";

Test(scene_errors, every_truncation_fails_where_it_ends)
{
    size_t full = sizeof full_scene - 1;
    size_t last_brace = (size_t)(strrchr(full_scene, '}') - full_scene);
    for (size_t n = 0; n <= full; n++) {
        vx_scene s;
        vx_error err;
        vx_status st = vx_scene_load_string(full_scene, n, "t.json", &s, &err);
        if (n > last_brace) { /* the whole document, maybe short of trailing whitespace */
            cr_assert_eq(st, VX_OK, "length %zu: %s", n, err.message);
            cr_assert_str_eq(s.name, "fuzz \xC3\xA9\"\\x");
            cr_assert_eq(s.entity_count, 4);
            cr_assert_eq(s.steps, 12);
            vx_scene_destroy(&s);
            continue;
        }
        cr_assert_eq(st, VX_ERR_SYNTAX, "length %zu: %s", n, err.message);
        /* a prefix of a valid document is only wrong where it ends */
        size_t line = 1, column = 1;
        for (size_t i = 0; i < n; i++) {
            if (full_scene[i] == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        char where[64];
        snprintf(where, sizeof where, "t.json:%zu:%zu: ", line, column);
        cr_assert(strncmp(err.message, where, strlen(where)) == 0, "length %zu: %s", n, err.message);
        const char *hint = err.message + strlen(where);
        cr_assert(strcmp(hint, "invalid JSON (unexpected end of input)") == 0 ||
                      strcmp(hint, "invalid JSON (unterminated string)") == 0 ||
                      strcmp(hint, "empty file, expected a JSON object") == 0,
                  "length %zu: %s", n, err.message);
        assert_scene_empty(&s);
    }
}

Test(scene_errors, every_byte_replaced)
{
    /* no crash, no leak, and a definite answer for each one-byte change */
    static const char replacements[] = {'"', '}', ']', ',', '0', '-', 'x', '\\', '\0', '\n'};
    char text[sizeof full_scene];
    size_t full = sizeof full_scene - 1;
    for (size_t i = 0; i < full; i++) {
        for (size_t k = 0; k < sizeof replacements; k++) {
            memcpy(text, full_scene, sizeof full_scene);
            text[i] = replacements[k];
            vx_scene s;
            vx_error err;
            vx_status st = vx_scene_load_string(text, full, "m.json", &s, &err);
            cr_assert(st == VX_OK || st == VX_ERR_SYNTAX || st == VX_ERR_INVALID || st == VX_ERR_UNSUPPORTED,
                      "byte %zu -> %d: status %d", i, replacements[k], (int)st);
            cr_assert_eq(err.code, st);
            cr_assert(strncmp(err.message, "m.json", 6) == 0 || st == VX_OK, "%s", err.message);
            if (st == VX_OK)
                vx_scene_destroy(&s);
            else
                assert_scene_empty(&s);
        }
    }
}

/* ---- queries ---- */

/* A scene with entities "floor" and "ball" and these queries. */
#define QUERIES(...) \
    "{\"entities\": [{\"name\": \"floor\", " BOX "}, {\"name\": \"ball\", " SPHERE "}], \"queries\": [" __VA_ARGS__ "]}"
#define RAY "\"type\": \"ray\", \"origin\": [0, 5, 0], \"direction\": [0, -1, 0]"

Test(scene_errors, query_type_and_required_keys)
{
    expect_invalid(QUERIES("{}"), "s.json: queries[0].type: missing (required)");
    expect_invalid(QUERIES("{\"tpye\": \"ray\"}"), "s.json: queries[0].tpye: unknown key (did you mean \"type\"?)");
    expect_invalid(QUERIES("{\"type\": \"laser\"}"),
                   "s.json: queries[0].type: must be \"ray\", \"sphere_cast\" or \"overlap\"");
    expect_invalid(QUERIES("{\"type\": \"ray\", \"direction\": [0, -1, 0]}"),
                   "s.json: queries[0].origin: missing (required for a ray)");
    expect_invalid(QUERIES("{\"type\": \"ray\", \"origin\": [0, 1, 0]}"),
                   "s.json: queries[0].direction: missing (required for a ray)");
    expect_invalid(QUERIES("{\"type\": \"sphere_cast\", \"origin\": [0, 1, 0], \"direction\": [1, 0, 0]}"),
                   "s.json: queries[0].radius: missing (required for a sphere_cast)");
    expect_invalid(QUERIES("{\"type\": \"overlap\"}"), "s.json: queries[0].shape: missing (required for an overlap)");
    expect_invalid("{\"entities\": [], \"queries\": {}}", "s.json: queries: must be an array");
}

Test(scene_errors, query_values)
{
    expect_invalid(QUERIES("{\"type\": \"ray\", \"origin\": [0, 1, 0], \"direction\": [0, 0, 0]}"),
                   "s.json: queries[0].direction: must not be zero");
    expect_invalid(QUERIES("{" RAY ", \"max_distance\": 0}"), "s.json: queries[0].max_distance: must be > 0");
    expect_invalid(QUERIES("{\"type\": \"sphere_cast\", \"origin\": [0, 1, 0], \"direction\": [1, 0, 0], "
                           "\"radius\": -1}"),
                   "s.json: queries[0].radius: must be > 0");
    expect_invalid(QUERIES("{" RAY ", \"sensors\": 1}"), "s.json: queries[0].sensors: must be true or false");
    expect_invalid(QUERIES("{" RAY ", \"name\": \"a b\"}"),
                   "s.json: queries[0].name: must be 1-64 letters, digits, '_', '.' or '-'");
    expect_invalid(QUERIES("{" RAY ", \"name\": \"q\"}, {" RAY ", \"name\": \"q\"}"),
                   "s.json: queries[1].name: duplicate name \"q\" (also queries[0])");
}

Test(scene_errors, query_keys_belong_to_their_type)
{
    expect_invalid(QUERIES("{" RAY ", \"radius\": 1}"),
                   "s.json: queries[0].radius: unknown key (expected one of: name, type, origin, direction, "
                   "max_distance, attached_to, ignore, sensors, all_hits)");
    expect_invalid(QUERIES("{\"type\": \"overlap\", \"shape\": {\"type\": \"sphere\", \"radius\": 1}, "
                           "\"all_hits\": true}"),
                   "s.json: queries[0].all_hits: unknown key (expected one of: name, type, shape, attached_to, "
                   "ignore, sensors)");
    expect_invalid(QUERIES("{\"type\": \"overlap\", \"shape\": {\"type\": \"sphere\", \"radius\": 1, "
                           "\"sensor\": true}}"),
                   "s.json: queries[0].shape.sensor: unknown key (expected one of: type, radius, position, rotation, "
                   "rotation_deg)");
    expect_invalid(QUERIES("{\"type\": \"overlap\", \"shape\": {\"type\": \"box\", \"half_extents\": [1, 1, 1], "
                           "\"rotation\": [0, 0, 0, 1], \"rotation_deg\": [0, 90, 0]}}"),
                   "s.json: queries[0].shape.rotation_deg: not together with rotation");
    expect_invalid(QUERIES("{\"type\": \"overlap\", \"shape\": {\"type\": \"capsule\", \"radius\": 1}}"),
                   "s.json: queries[0].shape.half_height: missing (required for a capsule)");
}

Test(scene_errors, query_entity_names)
{
    expect_invalid(QUERIES("{" RAY ", \"attached_to\": \"bal\"}"),
                   "s.json: queries[0].attached_to: no entity named \"bal\" (did you mean \"ball\"?)");
    expect_invalid(QUERIES("{" RAY ", \"attached_to\": \"zebra\"}"),
                   "s.json: queries[0].attached_to: no entity named \"zebra\"");
    expect_invalid(QUERIES("{" RAY ", \"ignore\": [\"floor\", \"flor\"]}"),
                   "s.json: queries[0].ignore[1]: no entity named \"flor\" (did you mean \"floor\"?)");
    expect_invalid(QUERIES("{" RAY ", \"ignore\": \"floor\"}"), "s.json: queries[0].ignore: must be an array");
    /* the queries may come before the entities they name */
    vx_scene s;
    vx_error err;
    const char *before =
        "{\"queries\": [{" RAY ", \"ignore\": [\"floor\"]}], \"entities\": [{\"name\": \"floor\", " BOX "}]}";
    cr_assert_eq(vx_scene_load_string(before, strlen(before), "s.json", &s, &err), VX_OK, "%s", err.message);
    cr_assert_eq(s.queries[0].filter.ignore_count, 1u);
    vx_scene_destroy(&s);
}

Test(scene_errors, collision_filter_bits)
{
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"sphere\", \"radius\": 1, \"category\": -1}}"),
                   "s.json: entities[0].collider.category: must be between 0 and 4294967295");
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"sphere\", \"radius\": 1, \"mask\": 4294967296}}"),
                   "s.json: entities[0].collider.mask: must be between 0 and 4294967295");
    expect_invalid(ENTITIES("{\"collider\": {\"type\": \"sphere\", \"radius\": 1, \"mask\": 1.5}}"),
                   "s.json: entities[0].collider.mask: must be an integer");
}

Test(scene_errors, density_rules)
{
    expect_invalid(ENTITIES("{" SPHERE ", \"rigidbody\": {\"density\": 0}}"),
                   "s.json: entities[0].rigidbody.density: must be > 0");
    expect_invalid(ENTITIES("{" SPHERE ", \"rigidbody\": {\"density\": 2, \"mass\": 1}}"),
                   "s.json: entities[0].rigidbody.density: not together with mass");
    expect_invalid(ENTITIES("{" SPHERE ", \"rigidbody\": {\"type\": \"static\", \"density\": 2}}"),
                   "s.json: entities[0].rigidbody.density: a static body has no density (leave it out)");
    expect_invalid(ENTITIES("{\"rigidbody\": {\"density\": 2}}"),
                   "s.json: entities[0].rigidbody.density: needs a collider (the mass is spread over its volume)");
    expect_invalid(ENTITIES("{" BOX ", \"rigidbody\": {\"density\": 1e38}}"),
                   "s.json: entities[0].rigidbody.density: gives a mass of 8e+38 kg, out of range");
}

Test(scene_errors, shared_shapes)
{
    expect_invalid("{\"shapes\": [], \"entities\": []}", "s.json: shapes: must be an object");
    expect_invalid("{\"shapes\": {\"rock\": {\"type\": \"box\"}}, \"entities\": []}",
                   "s.json: shapes.rock.half_extents: missing (required for a box)");
    expect_invalid("{\"shapes\": {\"a rock\": {\"type\": \"sphere\", \"radius\": 1}}, \"entities\": []}",
                   "s.json: shapes.a rock: a shape's name must be 1-64 letters, digits, '_', '.' or '-'");
    expect_invalid("{\"shapes\": {\"rock\": {\"type\": \"sphere\", \"radius\": 1}, \"rock\": {}}, \"entities\": []}",
                   "s.json: shapes.rock: duplicate key");
    expect_invalid("{\"shapes\": {\"rock\": {\"type\": \"sphere\", \"radius\": 1}}, \"entities\": [{\"collider\": \"rok\"}]}",
                   "s.json: entities[0].collider: no shape named \"rok\" (did you mean \"rock\"?)");
    expect_invalid(ENTITIES("{\"collider\": \"rock\"}"),
                   "s.json: entities[0].collider: no shape named \"rock\" (a collider is an object, or the name of one "
                   "of the scene's \"shapes\")");
    expect_invalid(ENTITIES("{\"collider\": 3}"), "s.json: entities[0].collider: must be an object");
}

Test(scene_errors, schema_key_is_a_string_and_nothing_else)
{
    /* "$schema" tells an editor where the scene's JSON Schema is: any string */
    const char *ok = "{\"$schema\": \"../schema/scene.schema.json\", \"entities\": []}";
    vx_scene s;
    vx_error err;
    cr_assert_eq(vx_scene_load_string(ok, strlen(ok), "s.json", &s, &err), VX_OK, "%s", err.message);
    vx_scene_destroy(&s);
    expect_invalid("{\"$schema\": 1, \"entities\": []}", "s.json: $schema: must be a string");
    expect_invalid("{\"$schema\": \"a\", \"$schema\": \"b\", \"entities\": []}", "s.json: $schema: duplicate key");
}

/* ---- joints ---- */

/* A scene with dynamic "arm" and "hand", a static "wall" and these joints. */
#define JOINTS(...)                                                                                               \
    "{\"entities\": [{\"name\": \"arm\", " SPHERE ", \"rigidbody\": {\"mass\": 1}},"                           \
    " {\"name\": \"hand\", \"transform\": {\"position\": [3, 0, 0]}, " SPHERE ", \"rigidbody\": {\"mass\": 1}}," \
    " {\"name\": \"wall\", \"transform\": {\"position\": [0, 5, 0]}, " BOX ", \"rigidbody\": {\"type\": \"static\"}}]," \
    " \"joints\": [" __VA_ARGS__ "]}"

Test(scene_errors, joint_type_bodies_and_names)
{
    expect_invalid(JOINTS("{\"a\": \"arm\"}"), "s.json: joints[0].type: missing (required)");
    expect_invalid(JOINTS("{\"type\": \"weld\", \"a\": \"arm\"}"),
                   "s.json: joints[0].type: must be \"ball\", \"hinge\", \"slider\", \"fixed\" or \"distance\"");
    expect_invalid(JOINTS("{\"type\": \"ball\", \"a\": \"amr\"}"),
                   "s.json: joints[0].a: no entity named \"amr\" (did you mean \"arm\"?)");
    expect_invalid(JOINTS("{\"type\": \"ball\", \"a\": \"arm\", \"b\": \"arm\"}"),
                   "s.json: joints[0].b: the same entity as a (a joint connects two different bodies)");
    expect_invalid(JOINTS("{\"type\": \"ball\", \"a\": \"wall\"}"),
                   "s.json: joints[0]: neither a nor b is a dynamic body");
    expect_invalid(JOINTS("{\"type\": \"ball\"}"), "s.json: joints[0].a: missing (required (or b): the bodies the joint connects)");
    expect_invalid(JOINTS("{\"type\": \"ball\", \"a\": null, \"b\": null}"),
                   "s.json: joints[0]: a and b are both the world: at least one must be a body");
    expect_invalid(JOINTS("{\"type\": \"ball\", \"a\": \"arm\", \"axle\": [0, 0, 1]}"),
                   "s.json: joints[0].axle: unknown key (did you mean \"axis\"?)");
    expect_invalid(JOINTS("{\"type\": \"fixed\", \"a\": \"arm\", \"axis\": [0, 0, 1]}"),
                   "s.json: joints[0].axis: unknown key (expected one of: name, type, a, b, anchor, collide_connected, break_force)");
    expect_invalid(JOINTS("{\"name\": \"j\", \"type\": \"ball\", \"a\": \"arm\"}, {\"name\": \"j\", \"type\": \"ball\", \"a\": \"hand\"}"),
                   "s.json: joints[1].name: duplicate name \"j\" (also joints[0])");
    expect_invalid("{\"entities\": [], \"joints\": {}}", "s.json: joints: must be an array");
}

Test(scene_errors, joint_axes_limits_and_drives)
{
    expect_invalid(JOINTS("{\"type\": \"hinge\", \"a\": \"arm\"}"), "s.json: joints[0].axis: missing (required for a hinge)");
    expect_invalid(JOINTS("{\"type\": \"slider\", \"a\": \"arm\", \"axis\": [0, 0, 0]}"),
                   "s.json: joints[0].axis: must not be zero");
    expect_invalid(JOINTS("{\"type\": \"ball\", \"a\": \"arm\", \"cone_deg\": 30}"),
                   "s.json: joints[0].axis: missing (required for a ball joint with cone_deg)");
    expect_invalid(JOINTS("{\"type\": \"hinge\", \"a\": \"arm\", \"axis\": [0, 0, 1], \"limits_deg\": [10, 90]}"),
                   "s.json: joints[0].limits_deg: must contain 0, the position at load (lower <= 0 <= upper)");
    expect_invalid(JOINTS("{\"type\": \"slider\", \"a\": \"arm\", \"axis\": [1, 0, 0], \"limits\": [0.5]}"),
                   "s.json: joints[0].limits: must be [lower, upper]");
    expect_invalid(JOINTS("{\"type\": \"distance\", \"a\": \"arm\", \"b\": \"hand\", \"limits\": [2, 1]}"),
                   "s.json: joints[0].limits: must be [min, max] with 0 <= min <= max and max > 0");
    expect_invalid(JOINTS("{\"type\": \"distance\", \"a\": \"arm\", \"b\": \"hand\", \"limits\": [0, 4], \"length\": 3}"),
                   "s.json: joints[0].length: not with limits (within them the length is free)");
    expect_invalid(JOINTS("{\"type\": \"hinge\", \"a\": \"arm\", \"axis\": [0, 0, 1], \"motor\": {\"speed_deg\": 90, \"max_torque\": -1}}"),
                   "s.json: joints[0].motor.max_torque: must be >= 0");
    expect_invalid(JOINTS("{\"type\": \"slider\", \"a\": \"arm\", \"axis\": [1, 0, 0], \"motor\": {\"speed\": 1}}"),
                   "s.json: joints[0].motor.max_force: missing (required for a motor)");
    expect_invalid(JOINTS("{\"type\": \"slider\", \"a\": \"arm\", \"axis\": [1, 0, 0], \"spring\": {\"frequency\": 0}}"),
                   "s.json: joints[0].spring.frequency: must be > 0");
    expect_invalid(JOINTS("{\"type\": \"distance\", \"a\": \"arm\", \"spring\": {\"frequency\": 2, \"damping_ratio\": -0.5}}"),
                   "s.json: joints[0].spring.damping_ratio: must be >= 0");
    expect_invalid(JOINTS("{\"type\": \"hinge\", \"a\": \"arm\", \"axis\": [0, 0, 1], \"spring\": {\"frequency\": 2, \"rest\": 1}}"),
                   "s.json: joints[0].spring.rest: unknown key (expected one of: frequency, damping_ratio, rest_deg)");
    expect_invalid(JOINTS("{\"type\": \"fixed\", \"a\": \"arm\", \"break_force\": 0}"),
                   "s.json: joints[0].break_force: must be > 0");
    expect_invalid(JOINTS("{\"type\": \"distance\", \"a\": \"arm\", \"b\": \"hand\", \"anchor_a\": [1, 1, 1], \"anchor_b\": [1, 1, 1]}"),
                   "s.json: joints[0]: length: the anchors coincide, so the length would be 0");
}
