/* voltex-sim as users run it: options, exit codes, messages, the traces it
 * writes, determinism, and a reader that goes away (docs/cli.md,
 * docs/traces.md). */
/* posix_openpt and friends (the progress test runs stderr on a terminal). */
#define _XOPEN_SOURCE 700

#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_cli_run.h"

/* ---- scenes ---- */

/* A floor and a ball resting on it (slightly overlapping: contacts from step
 * 1), 5 steps of 1/64 s unless told otherwise. */
static const char rest_scene[] =
    "{ \"name\": \"rest\", \"dt\": 0.015625, \"steps\": 5,\n"
    "  \"entities\": [\n"
    "    { \"name\": \"floor\", \"transform\": { \"position\": [0, -1, 0] },\n"
    "      \"collider\": { \"type\": \"box\", \"half_extents\": [10, 1, 10] },\n"
    "      \"rigidbody\": { \"type\": \"static\" } },\n"
    "    { \"name\": \"ball\", \"transform\": { \"position\": [0, 0.49, 0] },\n"
    "      \"collider\": { \"type\": \"sphere\", \"radius\": 0.5 },\n"
    "      \"rigidbody\": { \"mass\": 1 } } ] }\n";

/* A ball falling onto a floor, scene defaults for dt and steps. */
static const char drop_scene[] =
    "{ \"name\": \"drop\",\n"
    "  \"entities\": [\n"
    "    { \"name\": \"floor\", \"transform\": { \"position\": [0, -1, 0] },\n"
    "      \"collider\": { \"type\": \"box\", \"half_extents\": [10, 1, 10] } },\n"
    "    { \"name\": \"ball\", \"transform\": { \"position\": [0, 3, 0] },\n"
    "      \"collider\": { \"type\": \"sphere\", \"radius\": 0.5 },\n"
    "      \"rigidbody\": { \"mass\": 1, \"restitution\": 0.5 } },\n"
    "    { \"name\": \"pebble\", \"transform\": { \"position\": [0.2, 5, 0.1] },\n"
    "      \"collider\": { \"type\": \"sphere\", \"radius\": 0.25 },\n"
    "      \"rigidbody\": { \"mass\": 2 } } ] }\n";

/* A body so fast that its position overflows to infinity in step 35
 * (1e37 m a step of 1/32 s). */
static const char blowup_scene[] =
    "{ \"name\": \"blowup\", \"dt\": 0.03125, \"steps\": 40, \"gravity\": [0, 0, 0],\n"
    "  \"entities\": [\n"
    "    { \"name\": \"still\", \"transform\": { \"position\": [0, 0, 0] } },\n"
    "    { \"name\": \"rocket\", \"collider\": { \"type\": \"sphere\", \"radius\": 1 },\n"
    "      \"rigidbody\": { \"mass\": 1, \"velocity\": [3.2e38, 0, 0] } } ] }\n";

/* Many free bodies for a long run (nothing collides). */
static const char long_scene[] =
    "{ \"name\": \"long\", \"steps\": 200000, \"gravity\": [0, 0, 0],\n"
    "  \"entities\": [\n"
    "    { \"name\": \"a\", \"rigidbody\": { \"mass\": 1, \"velocity\": [1, 0, 0] } },\n"
    "    { \"name\": \"b\", \"rigidbody\": { \"mass\": 1, \"velocity\": [0, 1, 0] } },\n"
    "    { \"name\": \"c\", \"rigidbody\": { \"mass\": 1, \"velocity\": [0, 0, 1] } } ] }\n";

/* Line i (0-based) of text, copied into buf. */
static const char *line_at(const char *text, size_t i, char *buf, size_t size)
{
    const char *p = text;
    for (size_t k = 0; k < i && p; k++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    cr_assert(p && *p, "no line %zu", i);
    size_t n = strcspn(p, "\n");
    cr_assert_lt(n, size);
    memcpy(buf, p, n);
    buf[n] = '\0';
    return buf;
}

/* The first cell (up to a comma) of every data line, as numbers. */
static size_t first_column(const char *text, long *values, size_t max)
{
    size_t n = 0;
    const char *p = strchr(text, '\n');
    while (p && p[1] && n < max) {
        p++;
        values[n++] = strtol(p, NULL, 10);
        p = strchr(p, '\n');
    }
    return n;
}

TestSuite(cli, .init = work_dir_make, .fini = work_dir_remove, .timeout = 60);

/* ---- help and version ---- */

Test(cli, help_lists_every_option_on_stdout)
{
    sim_result r = run_sim("--help");
    cr_assert_eq(r.code, 0);
    cr_assert_eq(r.err_size, 0, "stderr: %s", r.err);
    const char *options[] = {"--steps", "--dt", "--format", "--output", "--contacts", "--queries", "--joints", "--every",
                             "--compare",
                             "--tolerance", "--stats", "--threads", "--order", "--quiet", "--help", "--version", "-n,",
                             "-f,", "-o,", "-q,", "-h,", "-V,", "SCENE.json", "default"};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        cr_assert_not_null(strstr(r.out, options[i]), "--help does not mention %s", options[i]);
    sim_free(&r);

    r = run_sim("-h");
    cr_assert_eq(r.code, 0);
    cr_assert_not_null(strstr(r.out, "Usage: voltex-sim"));
    sim_free(&r);
}

Test(cli, version_on_stdout)
{
    sim_result r = run_sim("--version");
    cr_assert_eq(r.code, 0);
    cr_assert_str_eq(r.out, "voltex-sim 0.1.0\n");
    cr_assert_eq(r.err_size, 0);
    sim_free(&r);
    r = run_sim("-V");
    cr_assert_str_eq(r.out, "voltex-sim 0.1.0\n");
    sim_free(&r);
}

/* ---- usage errors: exit 2 ---- */

/* "-": the scene on standard input, the same run as from the file; errors
 * name <stdin> with line and column; a scene without a name is "stdin". */
Test(cli, scene_from_stdin)
{
    const char *scene = VOLTEX_SOURCE_DIR "/scenes/ball_drop.json";
    sim_result from_file = run_sim(scene, "--steps", "120");
    sim_result from_stdin = run_sim_stdin(scene, "-", "--steps", "120");
    cr_assert_eq(from_stdin.code, 0, "%s", from_stdin.err);
    cr_assert_eq(from_stdin.out_size, from_file.out_size);
    cr_assert_eq(memcmp(from_stdin.out, from_file.out, from_file.out_size), 0, "the same trace bytes");
    sim_free(&from_file);
    sim_free(&from_stdin);

    const char *bad = wpath("bad.json");
    write_text(bad, "{\"entities\": [\n  {\"name\": }\n]}\n");
    sim_result r = run_sim_stdin(bad, "-");
    cr_assert_eq(r.code, 2);
    cr_assert_eq(r.out_size, 0u, "no output");
    cr_assert_str_eq(r.err, "voltex-sim: <stdin>:2:12: invalid JSON (unexpected character '}')\n");
    sim_free(&r);

    const char *unnamed = wpath("unnamed.json");
    write_text(unnamed, "{\"entities\": [{\"collider\": {\"type\": \"sphere\", \"radius\": 1}}]}");
    r = run_sim_stdin(unnamed, "-", "--steps", "1", "--format", "json");
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert_not_null(strstr(r.out, "{\"scene\":\"stdin\""), "%s", r.out);
    sim_free(&r);
}

/* --set: the trace of a scene file saying the same; every kind of error in
 * one line with exit 2 and no output; --solver wins over --set solver.KEY. */
Test(cli, set_overrides_scene_keys)
{
    char base[512], said[512]; /* wpath's ring is reused by the runs below */
    snprintf(base, sizeof base, "%s", wpath("base.json"));
    snprintf(said, sizeof said, "%s", wpath("said.json"));
    write_text(base, "{\"name\": \"s\", \"entities\": [\n"
                     " {\"name\": \"floor\", \"collider\": {\"type\": \"box\", \"half_extents\": [5, 1, 5]},"
                     " \"transform\": {\"position\": [0, -1, 0]}},\n"
                     " {\"name\": \"ball\", \"collider\": {\"type\": \"sphere\", \"radius\": 0.5},"
                     " \"transform\": {\"position\": [0, 3, 0]}, \"rigidbody\": {\"mass\": 1}}]}");
    write_text(said, "{\"name\": \"s\", \"gravity\": [0, -1.62, 0], \"entities\": [\n"
                     " {\"name\": \"floor\", \"collider\": {\"type\": \"box\", \"half_extents\": [5, 1, 5]},"
                     " \"transform\": {\"position\": [0, -1, 0]}, \"rigidbody\": {\"restitution\": 1}},\n"
                     " {\"name\": \"ball\", \"collider\": {\"type\": \"sphere\", \"radius\": 0.5},"
                     " \"transform\": {\"position\": [0, 3, 0]}, \"rigidbody\": {\"mass\": 1, \"restitution\": 0.8}}]}");
    sim_result a = run_sim(said, "--steps", "200", "--contacts", wpath("ca.csv"));
    sim_result b = run_sim(base, "--steps", "200", "--contacts", wpath("cb.csv"), "--set", "gravity=[0, -1.62, 0]",
                           "--set", "entities[0].rigidbody.restitution=1", "--set",
                           "entities[1].rigidbody.restitution=0.8");
    cr_assert_eq(a.code, 0, "%s", a.err);
    cr_assert_eq(b.code, 0, "%s", b.err);
    cr_assert(a.out_size == b.out_size && memcmp(a.out, b.out, a.out_size) == 0, "the file's trace");
    sim_free(&a);
    sim_free(&b);

    struct {
        const char *set, *message;
    } bad[] = {
        {"entities[2].mass=1", "voltex-sim: --set entities[2].mass: no such item (it has 2)\n"},
        {"entities.name=x", "voltex-sim: --set entities.name: names a key of something that is not an object\n"},
        {"entities[1]..mass=1",
         "voltex-sim: --set entities[1]..mass: not a JSON path (keys and [index], e.g. entities[1].rigidbody.mass)\n"},
        {"mass", "voltex-sim: --set: expected PATH=VALUE (e.g. entities[1].rigidbody.mass=2), got 'mass'\n"},
        {"entities[1].rigidbody.restitution=2", NULL},
        {"entities[1].rigidbody.colour=red", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sim_result r = run_sim(base, "--set", bad[i].set, "-o", wpath("never.csv"));
        cr_assert_eq(r.code, 2, "--set %s: exit %d", bad[i].set, r.code);
        cr_assert_eq(r.out_size, 0u);
        cr_assert_eq(access(wpath("never.csv"), F_OK), -1, "--set %s: no file written", bad[i].set);
        if (bad[i].message)
            cr_assert_str_eq(r.err, bad[i].message);
        else /* judged by the scene's own checks, at the path of the file */
            cr_assert_not_null(strstr(r.err, "base.json: entities[1].rigidbody."), "%s", r.err);
        sim_free(&r);
    }

    sim_result r = run_sim(base, "--steps", "1", "--stats", "-q", "-o", wpath("o.csv"), "--set",
                           "solver.order=sequential", "--solver", "order=colored");
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert_not_null(strstr(r.err, "order colored"), "%s", r.err);
    sim_free(&r);
}

Test(cli, unknown_options)
{
    const char *scene = scene_file("rest.json", rest_scene);
    sim_result r = run_sim(scene, "--foo");
    assert_failure(&r, 2, "voltex-sim: unknown option '--foo' (try --help)\n");
    sim_free(&r);
    r = run_sim("--foo=3", scene);
    assert_failure(&r, 2, "voltex-sim: unknown option '--foo' (try --help)\n");
    sim_free(&r);
    r = run_sim("-x", scene);
    assert_failure(&r, 2, "voltex-sim: unknown option '-x' (try --help)\n");
    sim_free(&r);
    r = run_sim(scene, "--stats=yes");
    assert_failure(&r, 2, "voltex-sim: --stats: expected --stats or --stats=json, got '--stats=yes'\n");
    sim_free(&r);
}

Test(cli, bad_numbers)
{
    const char *scene = scene_file("rest.json", rest_scene);
    static const struct {
        const char *option, *value, *expected;
    } cases[] = {
        {"--steps", "abc", "voltex-sim: --steps: expected an integer >= 0, got 'abc'\n"},
        {"--steps", "-1", "voltex-sim: --steps: expected an integer >= 0, got '-1'\n"},
        {"--steps", "", "voltex-sim: --steps: expected an integer >= 0, got ''\n"},
        {"--steps", "5x", "voltex-sim: --steps: expected an integer >= 0, got '5x'\n"},
        {"--steps", "1e3", "voltex-sim: --steps: expected an integer >= 0, got '1e3'\n"},
        {"-n", " 5", "voltex-sim: --steps: expected an integer >= 0, got ' 5'\n"},
        {"--steps", "99999999999999999999", "voltex-sim: --steps: expected an integer >= 0, got '99999999999999999999'\n"},
        {"--steps", "1000000001", "voltex-sim: --steps: expected an integer <= 1000000000, got '1000000001'\n"},
        {"--dt", "0", "voltex-sim: --dt: expected a number > 0 that fits a 32-bit float, got '0'\n"},
        {"--dt", "-0.1", "voltex-sim: --dt: expected a number > 0 that fits a 32-bit float, got '-0.1'\n"},
        {"--dt", "nan", "voltex-sim: --dt: expected a number > 0 that fits a 32-bit float, got 'nan'\n"},
        {"--dt", "inf", "voltex-sim: --dt: expected a number > 0 that fits a 32-bit float, got 'inf'\n"},
        {"--dt", "1e39", "voltex-sim: --dt: expected a number > 0 that fits a 32-bit float, got '1e39'\n"},
        {"--dt", "1e-50", "voltex-sim: --dt: expected a number > 0 that fits a 32-bit float, got '1e-50'\n"},
        {"--dt", "0.1s", "voltex-sim: --dt: expected a number > 0 that fits a 32-bit float, got '0.1s'\n"},
        {"--every", "0", "voltex-sim: --every: expected an integer >= 1, got '0'\n"},
        {"--every", "two", "voltex-sim: --every: expected an integer >= 1, got 'two'\n"},
        {"--tolerance", "-1e-5", "voltex-sim: --tolerance: expected a finite number >= 0, got '-1e-5'\n"},
        {"--tolerance", "inf", "voltex-sim: --tolerance: expected a finite number >= 0, got 'inf'\n"},
        {"--threads", "0", "voltex-sim: --threads: expected an integer from 1 to 256, got '0'\n"},
        {"--threads", "257", "voltex-sim: --threads: expected an integer from 1 to 256, got '257'\n"},
        {"--order", "random", "voltex-sim: --order: expected sequential or colored, got 'random'\n"},
        {"--format", "xml", "voltex-sim: --format: expected csv, json, jsonl or glb, got 'xml'\n"},
        {"-f", "CSV", "voltex-sim: --format: expected csv, json, jsonl or glb, got 'CSV'\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sim_result r = run_sim(scene, cases[i].option, cases[i].value);
        assert_failure(&r, 2, cases[i].expected);
        sim_free(&r);
    }
    sim_result r = run_sim(scene, "--steps");
    assert_failure(&r, 2, "voltex-sim: --steps: missing value (try --help)\n");
    sim_free(&r);
}

Test(cli, scene_argument_missing_or_twice)
{
    const char *scene = scene_file("rest.json", rest_scene);
    sim_result r = run_sim("--steps", "3");
    assert_failure(&r, 2, "voltex-sim: missing SCENE.json (try --help)\n");
    sim_free(&r);
    r = run_sim(scene, "b.json");
    assert_failure(&r, 2, "voltex-sim: unexpected argument 'b.json' (one scene file)\n");
    sim_free(&r);
}

Test(cli, conflicting_options_name_both)
{
    const char *scene = scene_file("rest.json", rest_scene);
    const char *golden = wpath("golden.csv");
    write_text(golden, "frame,time,entity,name\n");
    sim_result r = run_sim(scene, "--compare", golden, "-o", wpath("out.csv"));
    assert_failure(&r, 2, NULL);
    cr_assert(strstr(r.err, "--compare") && strstr(r.err, "--output"), "%s", r.err);
    sim_free(&r);
    cr_assert_neq(access(wpath("out.csv"), F_OK), 0, "no output file on a usage error");

    r = run_sim(scene, "--format", "json", "--compare", golden);
    assert_failure(&r, 2, NULL);
    cr_assert(strstr(r.err, "--compare") && strstr(r.err, "--format json"), "%s", r.err);
    sim_free(&r);
}

/* ---- scene and golden problems: exit 2, no output at all ---- */

Test(cli, missing_scene_file)
{
    const char *path = wpath("nosuch.json");
    sim_result r = run_sim(path, "-o", wpath("out.csv"));
    assert_failure(&r, 2, NULL);
    cr_assert_not_null(strstr(r.err, path), "the message names the file: %s", r.err);
    cr_assert_neq(access(wpath("out.csv"), F_OK), 0, "a rejected scene writes no file");
    sim_free(&r);
}

Test(cli, invalid_scene_produces_no_output)
{
    const char *scene = scene_file("bad.json",
                                   "{ \"entities\": [ { \"name\": \"s\", \"collider\": { \"type\": \"sphere\", "
                                   "\"radius\": -1 } } ] }\n");
    sim_result r = run_sim(scene);
    assert_failure(&r, 2, NULL);
    cr_assert_not_null(strstr(r.err, "radius"), "the message names the key: %s", r.err);
    sim_free(&r);

    r = run_sim(scene, "-o", wpath("out.csv"), "--contacts", wpath("contacts.csv"));
    assert_failure(&r, 2, NULL);
    cr_assert_neq(access(wpath("out.csv"), F_OK), 0, "a rejected scene writes no file");
    cr_assert_neq(access(wpath("contacts.csv"), F_OK), 0, "a rejected scene writes no file");
    sim_free(&r);

    const char *broken = scene_file("broken.json", "{ \"entities\": [ }\n");
    r = run_sim(broken);
    assert_failure(&r, 2, NULL);
    sim_free(&r);
}

/* A bad mesh refused in one line naming its place, no file written. */
static void assert_mesh_refused(const char *json, const char *where, const char *what)
{
    const char *scene = scene_file("mesh.json", json);
    sim_result r = run_sim(scene, "-o", wpath("out.csv"));
    assert_failure(&r, 2, NULL);
    cr_assert_not_null(strstr(r.err, where), "the message names %s: %s", where, r.err);
    cr_assert_not_null(strstr(r.err, what), "the message says %s: %s", what, r.err);
    cr_assert_neq(access(wpath("out.csv"), F_OK), 0, "a rejected scene writes no file");
    sim_free(&r);
}

Test(cli, bad_meshes_are_refused_by_their_place)
{
    write_text(wpath("letters.obj"), "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 three\n");
    assert_mesh_refused("{ \"entities\": [ { \"collider\": { \"type\": \"mesh\", \"vertices\": [[0,0,0],[1,0,0],[0,0,1]],"
                        " \"triangles\": [[0,1,2]] }, \"rigidbody\": { \"mass\": 1 } } ] }\n",
                        "mesh.json: entities[0].collider:", "\"convex\" or \"compound\"");
    assert_mesh_refused("{ \"entities\": [ { \"collider\": { \"type\": \"mesh\", \"vertices\": [[0,0,0],[1,0,0],[0,0,1]],"
                        " \"triangles\": [[0,1,5]] } } ] }\n",
                        "mesh.json: entities[0].collider.triangles[0][2]:", "out of range");
    assert_mesh_refused("{ \"entities\": [ { \"collider\": { \"type\": \"mesh\", \"vertices\": [[0,0,0],[1,0,0],[3,0,0]],"
                        " \"triangles\": [[0,1,2]] } } ] }\n",
                        "mesh.json: entities[0].collider.triangles[0]:", "degenerate triangle");
    assert_mesh_refused("{ \"entities\": [ { \"collider\": { \"type\": \"mesh\", \"obj\": \"gone.obj\" } } ] }\n",
                        "gone.obj", "cannot read");
    assert_mesh_refused("{ \"entities\": [ { \"collider\": { \"type\": \"mesh\", \"obj\": \"letters.obj\" } } ] }\n",
                        "letters.obj:4:", "\"three\"");
}

Test(cli, unreadable_golden)
{
    const char *scene = scene_file("rest.json", rest_scene);
    const char *golden = wpath("nosuch.csv");
    char expected[512];
    snprintf(expected, sizeof expected, "voltex-sim: %s: cannot read: No such file or directory\n", golden);
    sim_result r = run_sim(scene, "--compare", golden);
    assert_failure(&r, 2, expected);
    sim_free(&r);

    const char *not_trace = wpath("contacts.csv");
    write_text(not_trace, "frame,time,entity_a\n");
    r = run_sim(scene, "--compare", not_trace, "--contacts", wpath("c.csv"));
    assert_failure(&r, 2, NULL);
    cr_assert_not_null(strstr(r.err, "not a body trace"), "%s", r.err);
    cr_assert_neq(access(wpath("c.csv"), F_OK), 0, "a bad golden writes no file");
    sim_free(&r);
}

/* ---- non-finite: exit 3 ---- */

Test(cli, non_finite_names_frame_and_entity_and_keeps_earlier_frames)
{
    const char *scene = scene_file("blowup.json", blowup_scene);
    sim_result r = run_sim(scene);
    cr_assert_eq(r.code, 3, "exit %d: %s", r.code, r.err);
    cr_assert_str_eq(r.err, "voltex-sim: simulation became non-finite at frame 35, entity 1 (rocket)\n");
    /* header + frames 0 to 34 (2 entities each); frame 35 is not written */
    cr_assert_eq(count_lines(r.out), 71, "%s", r.out);
    char line[512];
    cr_assert_eq(strncmp(line_at(r.out, 70, line, sizeof line), "34,1.0625,1,rocket,3.39999975e+38,", 34), 0, "%s",
                 line);
    sim_free(&r);

    /* --stats still sums up the run, and says the displacement is not a number */
    r = run_sim(scene, "--stats", "-o", "/dev/null");
    cr_assert_eq(r.code, 3);
    cr_assert_not_null(strstr(r.err, "\nvoltex-sim: max displacement non-finite (rocket), peak memory "), "%s", r.err);
    cr_assert_null(strstr(r.err, "nan"), "%s", r.err);
    sim_free(&r);

    /* The JSON document is closed with what was written. */
    r = run_sim(scene, "-f", "json");
    cr_assert_eq(r.code, 3);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc, "not JSON: %s", r.out);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "frames")), 35);
    cJSON_Delete(doc);
    sim_free(&r);
}

/* ---- outputs that fail: exit 4 ---- */

Test(cli, output_to_a_full_disk)
{
    const char *scene = scene_file("rest.json", rest_scene);
    sim_result r = run_sim(scene, "-o", "/dev/full");
    assert_failure(&r, 4, "voltex-sim: /dev/full: write failed: No space left on device\n");
    sim_free(&r);
    r = run_sim(scene, "-o", wpath("out.csv"), "--contacts", "/dev/full");
    assert_failure(&r, 4, "voltex-sim: /dev/full: write failed: No space left on device\n");
    sim_free(&r);
    r = run_sim(scene, "-f", "json", "-o", "/dev/full");
    assert_failure(&r, 4, "voltex-sim: /dev/full: write failed: No space left on device\n");
    sim_free(&r);
}

Test(cli, stdout_to_a_full_disk_is_named_stdout)
{
    const char *scene = scene_file("rest.json", rest_scene);
    const char *err_path = wpath("err.txt");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' '%s' >/dev/full 2>'%s'", VOLTEX_SIM_PATH, scene, err_path);
    int status = system(cmd);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 4, "status %d", status);
    char *err = read_whole_file(err_path, NULL);
    cr_assert_str_eq(err, "voltex-sim: stdout: write failed: No space left on device\n");
    free(err);
}

Test(cli, output_that_cannot_be_opened)
{
    const char *scene = scene_file("rest.json", rest_scene);
    sim_result r = run_sim(scene, "-o", "/nonexistent-dir/x.csv");
    assert_failure(&r, 4, "voltex-sim: /nonexistent-dir/x.csv: cannot open: No such file or directory\n");
    sim_free(&r);
    r = run_sim(scene, "--contacts", "/nonexistent-dir/c.csv");
    assert_failure(&r, 4, "voltex-sim: /nonexistent-dir/c.csv: cannot open: No such file or directory\n");
    sim_free(&r);
}

/* ---- the body trace ---- */

Test(cli, csv_header_and_one_row_per_entity_per_frame)
{
    const char *scene = scene_file("rest.json", rest_scene);
    sim_result r = run_sim(scene, "-q");
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cr_assert_eq(r.err_size, 0, "stderr: %s", r.err);
    char line[512];
    cr_assert_str_eq(line_at(r.out, 0, line, sizeof line),
                     "frame,time,entity,name,px,py,pz,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz");
    /* the scene's 5 steps: frames 0..5, 2 entities */
    cr_assert_eq(count_lines(r.out), 1 + 6 * 2);
    cr_assert_str_eq(line_at(r.out, 1, line, sizeof line), "0,0,0,floor,0,-1,0,0,0,0,1,0,0,0,0,0,0");
    cr_assert_str_eq(line_at(r.out, 2, line, sizeof line), "0,0,1,ball,0,0.49000001,0,0,0,0,1,0,0,0,0,0,0");
    cr_assert_eq(strncmp(line_at(r.out, 12, line, sizeof line), "5,0.078125,1,ball,", 18), 0, "%s", line);
    sim_free(&r);
}

Test(cli, every_k_writes_multiples_and_the_last_frame)
{
    const char *scene = scene_file("rest.json", rest_scene);
    sim_result r = run_sim(scene, "--steps", "10", "--every", "4", "-q");
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    long frames[64];
    size_t n = first_column(r.out, frames, 64);
    const long expected[] = {0, 0, 4, 4, 8, 8, 10, 10};
    cr_assert_eq(n, 8, "rows: %zu\n%s", n, r.out);
    for (size_t i = 0; i < n; i++) cr_assert_eq(frames[i], expected[i], "row %zu is frame %ld", i, frames[i]);
    sim_free(&r);

    r = run_sim(scene, "--steps", "8", "--every", "4", "-q");
    n = first_column(r.out, frames, 64);
    cr_assert_eq(n, 6, "frames 0, 4, 8 (the last is not written twice)");
    sim_free(&r);

    r = run_sim(scene, "--steps", "0");
    cr_assert_eq(r.code, 0);
    cr_assert_eq(count_lines(r.out), 3, "--steps 0: frame 0 only");
    sim_free(&r);
}

Test(cli, steps_and_dt_precedence)
{
    /* drop_scene has neither steps nor dt: 600 steps of 1/60 s. */
    const char *drop = scene_file("drop.json", drop_scene);
    char line[512];
    sim_result r = run_sim(drop, "-q");
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cr_assert_eq(count_lines(r.out), 1 + 601 * 3);
    cr_assert_eq(strncmp(line_at(r.out, 1 + 600 * 3, line, sizeof line), "600,10.000001,0,floor,", 22), 0, "%s", line);
    sim_free(&r);

    /* rest_scene says 5 steps of 1/64 s; the command line wins. */
    const char *rest = scene_file("rest.json", rest_scene);
    r = run_sim(rest, "--steps", "2", "--dt", "0.03125");
    cr_assert_eq(count_lines(r.out), 1 + 3 * 2);
    cr_assert_eq(strncmp(line_at(r.out, 5, line, sizeof line), "2,0.0625,0,floor,", 17), 0, "%s", line);
    sim_free(&r);
}

/* --solver KEY=VALUE sets a key of the scene's solver object as the file
 * would: the traces are the bytes of a scene file that says the same;
 * --order and --threads still win; a bad key or value is one line naming
 * it, exit 2 and no output. */
Test(cli, solver_settings_on_the_command_line)
{
    const char *rest = scene_file("rest.json", rest_scene);
    /* the same scene with its solver object in the file */
    const char *marker = "\"steps\": 5,";
    const char *at = strstr(rest_scene, marker);
    cr_assert_not_null(at);
    char with_solver[4096];
    snprintf(with_solver, sizeof with_solver, "%.*s\"steps\": 40, \"solver\": {\"substeps\": 3, \"iterations\": 2, "
             "\"order\": \"colored\", \"reuse_contacts\": false},%s",
             (int)(at - rest_scene), rest_scene, at + strlen(marker));
    const char *in_file = scene_file("rest_solver.json", with_solver);
    sim_result a = run_sim(in_file, "--contacts", wpath("a.csv"));
    cr_assert_eq(a.code, 0, "stderr: %s", a.err);
    sim_result b = run_sim(rest, "--steps", "40", "--solver", "substeps=3", "--solver", "iterations=2", "--solver",
                           "order=colored", "--solver", "reuse_contacts=false", "--contacts", wpath("b.csv"));
    cr_assert_eq(b.code, 0, "stderr: %s", b.err);
    cr_assert(a.out_size == b.out_size && memcmp(a.out, b.out, a.out_size) == 0, "the body traces differ");
    size_t na, nb;
    char *ca = read_whole_file(wpath("a.csv"), &na), *cb = read_whole_file(wpath("b.csv"), &nb);
    cr_assert(na == nb && memcmp(ca, cb, na) == 0, "the contact traces differ");
    free(ca);
    free(cb);
    sim_result plain = run_sim(rest, "--steps", "40");
    cr_assert(plain.out_size != b.out_size || memcmp(plain.out, b.out, b.out_size) != 0,
              "the settings must change the run");
    sim_free(&plain);
    sim_free(&a);
    sim_free(&b);

    /* the options named for themselves win, in any order */
    sim_result r = run_sim(rest, "--order", "sequential", "--solver", "order=colored", "--solver", "threads=3",
                           "--threads", "2", "--stats", "-q", "-o", "/dev/null");
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cr_assert_not_null(strstr(r.err, "voltex-sim: solver: order sequential, threads 2, "), "%s", r.err);
    sim_free(&r);
    r = run_sim(rest, "--solver", "position_iterations=0", "--solver", "broadphase=\"bvh\"", "--solver",
                "sleeping=true", "--stats", "-q", "-o", "/dev/null");
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cr_assert_not_null(strstr(r.err, "position iterations 0, sleeping on"), "%s", r.err);
    sim_free(&r);

    static const struct {
        const char *setting, *expected;
    } bad[] = {
        {"iteration=4", "voltex-sim: --solver: solver.iteration: unknown key (did you mean \"iterations\"?)\n"},
        {"iterations=0", "voltex-sim: --solver: solver.iterations: must be between 1 and 1000\n"},
        {"substeps=abc", "voltex-sim: --solver: solver.substeps: must be an integer\n"},
        {"order=diagonal", "voltex-sim: --solver: solver.order: must be \"sequential\" or \"colored\"\n"},
        {"reuse_contacts=maybe", "voltex-sim: --solver: solver.reuse_contacts: must be true or false\n"},
        {"iterations", "voltex-sim: --solver: expected KEY=VALUE (e.g. substeps=4), got 'iterations'\n"},
        {"=4", "voltex-sim: --solver: expected KEY=VALUE (e.g. substeps=4), got '=4'\n"},
        {"steps=5", "voltex-sim: --solver: steps is not a solver setting: use --steps\n"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = run_sim(rest, "--solver", bad[i].setting, "-o", wpath("never.csv"));
        assert_failure(&r, 2, bad[i].expected);
        cr_assert_neq(access(wpath("never.csv"), F_OK), 0, "%s: a rejected setting writes no file", bad[i].setting);
        sim_free(&r);
    }
}

Test(cli, json_trace_parses_with_every_frame_written)
{
    const char *scene = scene_file("rest.json", rest_scene);
    sim_result r = run_sim(scene, "--format", "json", "--steps", "5", "--every", "2");
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc, "not JSON: %s", r.out);
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(doc, "scene")->valuestring, "rest");
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(doc, "dt")->valuedouble, 0.015625);
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(doc, "steps")->valuedouble, 5.0);
    const cJSON *entities = cJSON_GetObjectItemCaseSensitive(doc, "entities");
    cr_assert_eq(cJSON_GetArraySize(entities), 2);
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(entities, 1), "name")->valuestring, "ball");
    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(doc, "frames");
    const double expected[] = {0, 2, 4, 5};
    cr_assert_eq(cJSON_GetArraySize(frames), 4);
    for (int i = 0; i < 4; i++) {
        const cJSON *f = cJSON_GetArrayItem(frames, i);
        cr_assert_eq(cJSON_GetObjectItemCaseSensitive(f, "frame")->valuedouble, expected[i]);
        cr_assert_eq(cJSON_GetObjectItemCaseSensitive(f, "time")->valuedouble, expected[i] * 0.015625);
        cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(f, "bodies")), 2);
        const cJSON *contacts = cJSON_GetObjectItemCaseSensitive(f, "contacts");
        cr_assert(cJSON_IsArray(contacts));
        if (i == 0) cr_assert_eq(cJSON_GetArraySize(contacts), 0, "frame 0 has no contacts");
    }
    /* The ball starts inside the floor: step 2 has a contact between them. */
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(frames, 1), "contacts"), 0);
    cr_assert_not_null(c, "frame 2 has contacts");
    double a = cJSON_GetObjectItemCaseSensitive(c, "entity_a")->valuedouble;
    double b = cJSON_GetObjectItemCaseSensitive(c, "entity_b")->valuedouble;
    cr_assert((a == 0 && b == 1) || (a == 1 && b == 0));
    cJSON_Delete(doc);
    sim_free(&r);
}

/* ---- the contact trace ---- */

Test(cli, contacts_file_header_and_rows)
{
    const char *scene = scene_file("rest.json", rest_scene);
    const char *contacts = wpath("contacts.csv");
    sim_result r = run_sim(scene, "--contacts", contacts, "--steps", "4", "--every", "2", "-q");
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cr_assert_eq(count_lines(r.out), 1 + 3 * 2, "the body trace still goes to stdout");
    char *text = read_whole_file(contacts, NULL);
    char line[512];
    cr_assert_str_eq(line_at(text, 0, line, sizeof line),
                     "frame,time,entity_a,entity_b,name_a,name_b,nx,ny,nz,depth,ax,ay,az,bx,by,bz,impulse");
    long frames[64];
    size_t n = first_column(text, frames, 64);
    cr_assert_geq(n, 2, "the resting ball touches the floor at frames 2 and 4:\n%s", text);
    for (size_t i = 0; i < n; i++) cr_assert(frames[i] == 2 || frames[i] == 4, "row of frame %ld", frames[i]);
    /* every row: 17 cells, names that go with the indices */
    for (size_t i = 1; i <= n; i++) {
        line_at(text, i, line, sizeof line);
        size_t commas = 0;
        for (const char *p = line; *p; p++) commas += *p == ',';
        cr_assert_eq(commas, 16, "%s", line);
        cr_assert(strstr(line, ",1,0,ball,floor,") || strstr(line, ",0,1,floor,ball,"), "%s", line);
    }
    free(text);
    sim_free(&r);
}

/* ---- the query trace ---- */

/* The resting ball on the floor, a probe ray straight down from above it,
 * a ray that misses everything, and an overlap around the ball. */
static const char query_scene[] =
    "{ \"name\": \"probe\", \"dt\": 0.015625, \"steps\": 4,\n"
    "  \"entities\": [\n"
    "    { \"name\": \"floor\", \"transform\": { \"position\": [0, -1, 0] },\n"
    "      \"collider\": { \"type\": \"box\", \"half_extents\": [10, 1, 10] } },\n"
    "    { \"name\": \"ball\", \"transform\": { \"position\": [0, 0.5, 0] },\n"
    "      \"collider\": { \"type\": \"sphere\", \"radius\": 0.5 }, \"rigidbody\": { \"mass\": 1 } } ],\n"
    "  \"queries\": [\n"
    "    { \"name\": \"down\", \"type\": \"ray\", \"origin\": [0, 5, 0], \"direction\": [0, -1, 0],\n"
    "      \"all_hits\": true },\n"
    "    { \"name\": \"sky\", \"type\": \"ray\", \"origin\": [0, 5, 0], \"direction\": [0, 1, 0] },\n"
    "    { \"name\": \"near\", \"type\": \"overlap\",\n"
    "      \"shape\": { \"type\": \"sphere\", \"radius\": 1, \"position\": [0, 0.5, 0] } } ] }\n";

Test(cli, queries_file_header_and_rows)
{
    const char *scene = scene_file("probe.json", query_scene);
    const char *queries = wpath("queries.csv");
    sim_result r = run_sim(scene, "--queries", queries, "--every", "4", "-q", "-o", wpath("body.csv"));
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    char *text = read_whole_file(queries, NULL);
    char line[512];
    cr_assert_str_eq(line_at(text, 0, line, sizeof line),
                     "frame,time,query,name,hit,entity,entity_name,distance,px,py,pz,nx,ny,nz");
    /* frame 0: the ray meets the ball's top at 4 m, then the floor's top at
     * 5 m; the sky ray meets nothing; the overlap holds the ball and the
     * floor, by entity index */
    cr_assert_str_eq(line_at(text, 1, line, sizeof line), "0,0,0,down,1,1,ball,4,0,1,0,0,1,0");
    cr_assert_str_eq(line_at(text, 2, line, sizeof line), "0,0,0,down,1,0,floor,5,0,0,0,0,1,0");
    cr_assert_str_eq(line_at(text, 3, line, sizeof line), "0,0,1,sky,0,-1,,0,0,0,0,0,0,0");
    cr_assert_str_eq(line_at(text, 4, line, sizeof line), "0,0,2,near,1,0,floor,0,0,0,0,0,0,0");
    cr_assert_str_eq(line_at(text, 5, line, sizeof line), "0,0,2,near,1,1,ball,0,0,0,0,0,0,0");
    /* and the last frame, 4, the same queries again */
    cr_assert_eq(count_lines(text), 1 + 2 * 5, "%s", text);
    cr_assert_eq(strncmp(line_at(text, 6, line, sizeof line), "4,0.0625,0,down,1,1,ball,", 25), 0, "%s", line);
    free(text);
    sim_free(&r);
}

Test(cli, json_frames_carry_the_queries)
{
    const char *scene = scene_file("probe.json", query_scene);
    sim_result r = run_sim(scene, "--format", "json", "--steps", "1", "-q");
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc, "not JSON: %s", r.out);
    const cJSON *frame = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "frames"), 0);
    const cJSON *queries = cJSON_GetObjectItemCaseSensitive(frame, "queries");
    cr_assert_eq(cJSON_GetArraySize(queries), 3);
    const cJSON *down = cJSON_GetArrayItem(queries, 0);
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(down, "query")->valuedouble, 0.0);
    const cJSON *hits = cJSON_GetObjectItemCaseSensitive(down, "hits");
    cr_assert_eq(cJSON_GetArraySize(hits), 2);
    const cJSON *first = cJSON_GetArrayItem(hits, 0);
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(first, "name")->valuestring, "ball");
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(first, "distance")->valuedouble, 4.0);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(first, "n")), 3);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(queries, 1), "hits")), 0,
                 "the sky ray hits nothing: []");
    cJSON_Delete(doc);
    sim_free(&r);
    /* a scene without queries keeps its frames as they were */
    scene = scene_file("rest.json", rest_scene);
    r = run_sim(scene, "--format", "json", "--steps", "1", "-q");
    cr_assert_eq(r.code, 0);
    cr_assert_null(strstr(r.out, "queries"));
    sim_free(&r);
}

Test(cli, queries_to_stdout_only_when_nothing_else_is_there)
{
    const char *scene = scene_file("probe.json", query_scene);
    sim_result r = run_sim(scene, "--queries", "-");
    assert_failure(&r, 2, "voltex-sim: --queries -: the body trace already goes to stdout\n");
    sim_free(&r);
    r = run_sim(scene, "--queries", "-", "-o", wpath("b.csv"), "--steps", "0");
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cr_assert_eq(strncmp(r.out, "frame,time,query,", 17), 0);
    sim_free(&r);
}

/* ---- compare ---- */

Test(cli, compare_with_own_trace_and_with_a_changed_one)
{
    const char *scene = scene_file("drop.json", drop_scene);
    const char *golden = wpath("golden.csv");
    sim_result r = run_sim(scene, "--steps", "120", "-o", golden, "-q");
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cr_assert_eq(r.out_size, 0, "-o FILE: nothing on stdout");
    sim_free(&r);

    r = run_sim(scene, "--steps", "120", "--compare", golden);
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cr_assert_eq(r.out_size, 0, "--compare writes nothing on stdout");
    cr_assert_eq(r.err_size, 0, "stderr: %s", r.err);
    sim_free(&r);

    /* --every in both, and --contacts alongside --compare. */
    const char *thin = wpath("thin.csv");
    r = run_sim(scene, "--steps", "120", "--every", "7", "-o", thin);
    sim_free(&r);
    r = run_sim("--every", "7", "--compare", thin, scene, "--steps", "120", "--contacts", wpath("c.csv"));
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cr_assert_eq(r.out_size, 0);
    sim_free(&r);

    /* Change frame 60's ball py (line 1 + 60*3 + 1 + 1) in the golden. */
    char *text = read_whole_file(golden, NULL);
    char *p = text;
    for (int i = 0; i < 1 + 60 * 3 + 1; i++) p = strchr(p, '\n') + 1;
    cr_assert_eq(strncmp(p, "60,1,1,ball,", 12), 0, "%.40s", p);
    char *py = strchr(p + 12, ',') + 1; /* after px */
    size_t old_len = strcspn(py, ",");
    size_t size = strlen(text) + 16;
    char *changed = malloc(size);
    cr_assert_not_null(changed);
    snprintf(changed, size, "%.*s9.5%s", (int)(py - text), text, py + old_len);
    write_text(golden, changed);
    free(changed);
    free(text);

    /* The first difference, then the summary: 1 of 121 frames * 3 entities *
     * 14 numbers differs, and where. */
    r = run_sim(scene, "--steps", "120", "--compare", golden);
    cr_assert_eq(r.code, 1, "stderr: %s", r.err);
    cr_assert_eq(r.out_size, 0);
    cr_assert_eq(strncmp(r.err, "voltex-sim: frame 60 entity 1 (ball) py: ", 41), 0, "%s", r.err);
    const char *line2 = strchr(r.err, '\n') + 1;
    cr_assert_not_null(strstr(r.err, " vs golden 9.5 (diff "), "%s", r.err);
    cr_assert_eq(strncmp(line2 - 10, " > 1e-05)\n", 10), 0, "%s", r.err);
    cr_assert_eq(strncmp(line2,
                         "voltex-sim: 1 of 5082 numbers differ (by more than 1e-05), in frames 60 to 60\n"
                         "voltex-sim: largest differences (entity: column difference at frame):\n"
                         "voltex-sim:   ball: py ",
                         strlen("voltex-sim: 1 of 5082 numbers differ (by more than 1e-05), in frames 60 to 60\n"
                                "voltex-sim: largest differences (entity: column difference at frame):\n"
                                "voltex-sim:   ball: py ")),
                 0, "%s", r.err);
    cr_assert_eq(count_lines(r.err), 4, "%s", r.err);
    sim_free(&r);

    /* A big enough tolerance accepts it. */
    r = run_sim(scene, "--steps", "120", "--compare", golden, "--tolerance", "100");
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    sim_free(&r);

    /* A run longer or shorter than the golden. */
    r = run_sim(scene, "--steps", "121", "--compare", golden, "--tolerance", "100");
    assert_failure(&r, 1, "voltex-sim: frame 121: golden trace ends here\n");
    sim_free(&r);
    r = run_sim(scene, "--steps", "119", "--compare", golden, "--tolerance", "100");
    assert_failure(&r, 1, "voltex-sim: golden trace has more rows after frame 119\n");
    sim_free(&r);
}

/* ---- determinism ---- */

Test(cli, two_runs_are_byte_identical_for_any_thread_count)
{
    const char *scene = scene_file("drop.json", drop_scene);
    sim_result a = run_sim(scene, "--steps", "300", "--threads", "1");
    sim_result b = run_sim(scene, "--steps", "300", "--threads", "1");
    sim_result c = run_sim(scene, "--threads", "2", "--steps", "300");
    cr_assert_eq(a.code, 0);
    cr_assert_gt(a.out_size, 1000);
    cr_assert_eq(a.out_size, b.out_size);
    cr_assert(memcmp(a.out, b.out, a.out_size) == 0, "two runs differ");
    cr_assert_eq(a.out_size, c.out_size);
    cr_assert(memcmp(a.out, c.out, a.out_size) == 0, "--threads 2 differs from --threads 1");
    sim_free(&a);
    sim_free(&b);
    sim_free(&c);

    a = run_sim(scene, "--steps", "100", "-f", "json");
    b = run_sim(scene, "--steps", "100", "-f", "json", "--threads", "8");
    cr_assert_eq(a.out_size, b.out_size);
    cr_assert(memcmp(a.out, b.out, a.out_size) == 0, "JSON traces differ");
    sim_free(&a);
    sim_free(&b);
}

/* The coloured order runs the solver on every thread: the body and the
 * contact traces of a pile of boxes, spheres and capsules are still the same
 * bytes for 1, 2 and 3 threads; and --order is what makes the difference. */
Test(cli, colored_order_is_byte_identical_for_any_thread_count)
{
    const char *scene = VOLTEX_SOURCE_DIR "/scenes/validation/mixed_pile.json";
    char contacts[3][512];
    sim_result r[3];
    const char *threads[3] = {"1", "2", "3"};
    for (int k = 0; k < 3; k++) {
        snprintf(contacts[k], sizeof contacts[k], "%s/contacts_%d.csv", work_dir, k);
        r[k] = run_sim(scene, "--steps", "240", "--order", "colored", "--threads", threads[k], "--contacts",
                       contacts[k]);
        cr_assert_eq(r[k].code, 0, "stderr: %s", r[k].err);
    }
    cr_assert_gt(r[0].out_size, 10000);
    for (int k = 1; k < 3; k++) {
        cr_assert_eq(r[0].out_size, r[k].out_size);
        cr_assert(memcmp(r[0].out, r[k].out, r[0].out_size) == 0, "--threads %s differs from 1", threads[k]);
        size_t n0 = 0, nk = 0;
        char *c0 = read_whole_file(contacts[0], &n0), *ck = read_whole_file(contacts[k], &nk);
        cr_assert_gt(n0, 1000, "the pile must touch");
        cr_assert(n0 == nk && memcmp(c0, ck, n0) == 0, "contact traces differ for --threads %s", threads[k]);
        free(c0);
        free(ck);
    }
    sim_result seq = run_sim(scene, "--steps", "240", "--threads", "2");
    cr_assert_eq(seq.code, 0);
    cr_assert(seq.out_size != r[0].out_size || memcmp(seq.out, r[0].out, seq.out_size) != 0,
              "--order colored must change the solve order");
    sim_free(&seq);
    for (int k = 0; k < 3; k++) sim_free(&r[k]);
}

/* ---- options anywhere, stdout as "-", stats ---- */

Test(cli, options_after_the_scene_path)
{
    const char *scene = scene_file("rest.json", rest_scene);
    sim_result a = run_sim(scene, "--steps", "3", "-q", "--every", "3");
    sim_result b = run_sim("-q", "--every=3", "-n3", scene);
    sim_result c = run_sim("--steps", "3", "--every", "3", "-o", "-", "--", scene);
    cr_assert_eq(a.code, 0, "stderr: %s", a.err);
    cr_assert_eq(b.code, 0, "stderr: %s", b.err);
    cr_assert_eq(c.code, 0, "stderr: %s", c.err);
    cr_assert_eq(count_lines(a.out), 1 + 2 * 2);
    cr_assert_str_eq(a.out, b.out);
    cr_assert_str_eq(a.out, c.out);
    sim_free(&a);
    sim_free(&b);
    sim_free(&c);
}

Test(cli, stats_summary_on_stderr)
{
    const char *scene = scene_file("drop.json", drop_scene);
    sim_result r = run_sim(scene, "--steps", "50", "--stats", "-o", wpath("out.csv"));
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cr_assert_eq(r.out_size, 0);
    cr_assert_eq(strncmp(r.err, "voltex-sim: bodies 3 (2 dynamic), steps 50, wall ", 49), 0, "%s", r.err);
    cr_assert(strstr(r.err, " ms/step") && strstr(r.err, " steps/s") && strstr(r.err, " contacts/step"), "%s",
              r.err);
    /* The settings of the run, the command line's included. */
    cr_assert_not_null(strstr(r.err, "\nvoltex-sim: solver: order sequential, threads 1, iterations 10, substeps 1, "
                                     "position iterations 3, sleeping off, contact reuse on\n"),
                       "%s", r.err);
    sim_free(&r);
    r = run_sim(scene, "--steps", "5", "--stats", "-o", "/dev/null", "--order", "colored", "--threads", "3");
    cr_assert_not_null(strstr(r.err, "\nvoltex-sim: solver: order colored, threads 3, "), "%s", r.err);
    sim_free(&r);
    r = run_sim(scene, "--steps", "50", "--stats", "-o", wpath("out.csv"));
    /* The lines scripts/bench.sh reads, each with the prefix. */
    cr_assert_not_null(strstr(r.err, "\nvoltex-sim: step ms: median "), "%s", r.err);
    cr_assert(strstr(r.err, ", p95 ") && strstr(r.err, ", mean ") && strstr(r.err, ", max "), "%s", r.err);
    /* Every stage measured, in this order (scripts/bench.sh reads the first four). */
    const char *stages = strstr(r.err, "\nvoltex-sim: stage ms/step: broad phase ");
    cr_assert_not_null(stages, "%s", r.err);
    const char *at = stages;
    const char *const names[] = {", narrow phase ", ", solver ", ", integration ", ", other ", ", trace "};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *next = strstr(at, names[i]);
        cr_assert(next && next < strchr(stages + 1, '\n'), "%s missing: %s", names[i], r.err);
        at = next;
    }
    cr_assert_null(strstr(r.err, "not measured"), "%s", r.err);
    cr_assert_not_null(strstr(r.err, "\nvoltex-sim: max displacement "), "%s", r.err);
    cr_assert_not_null(strstr(r.err, " m (pebble), peak memory "), "%s", r.err);
    /* The trace went to a regular file: its size and speed are shown. */
    cr_assert_not_null(strstr(r.err, "\nvoltex-sim: trace "), "%s", r.err);
    cr_assert_not_null(strstr(r.err, " MB/s\n"), "%s", r.err);
    sim_free(&r);
}

Test(cli, stats_max_displacement_of_a_free_fall)
{
    /* 10 steps of free fall, no contact yet: semi-implicit Euler moves each
     * body g dt^2 (1 + 2 + ... + 10) = 9.81 * 55 / 3600 = 0.149875 m. */
    const char *scene = scene_file("drop.json", drop_scene);
    sim_result r = run_sim(scene, "--steps", "10", "--stats", "-o", "/dev/null");
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cr_assert_not_null(strstr(r.err, "\nvoltex-sim: max displacement 0.1499 m ("), "%s", r.err);
    cr_assert_null(strstr(r.err, "\nvoltex-sim: trace "), "size of /dev/null is unknown: %s", r.err);
    sim_free(&r);
}

/* --stats=json: the same figures as one JSON object on one line of stderr:
 * the free fall's displacement, the counts and settings; null for what is
 * unknown; any other form is a usage error. */
Test(cli, stats_as_json)
{
    const char *scene = scene_file("drop.json", drop_scene);
    sim_result r = run_sim(scene, "--steps", "10", "--stats=json", "--solver", "substeps=2", "-o", "/dev/null");
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cr_assert_eq(strchr(r.err, '\n'), r.err + r.err_size - 1, "one line: %s", r.err);
    cJSON *doc = cJSON_Parse(r.err);
    cr_assert_not_null(doc, "not JSON: %s", r.err);
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(doc, "steps")->valueint, 10);
    cr_assert_gt(cJSON_GetObjectItemCaseSensitive(doc, "dynamic")->valueint, 0);
    /* 2 substeps of dt/2: g (dt/2)^2 (1 + ... + 20) = 9.81 * 210 / 14400 m */
    cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(doc, "max_displacement_m")->valuedouble, 0.1430625, 1e-5);
    const cJSON *solver = cJSON_GetObjectItemCaseSensitive(doc, "solver");
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(solver, "substeps")->valueint, 2);
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(solver, "order")->valuestring, "sequential");
    const cJSON *stages = cJSON_GetObjectItemCaseSensitive(doc, "stage_ms_per_step");
    cr_assert(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(stages, "narrow_phase")));
    cr_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(doc, "trace_mb")), "the size of /dev/null is unknown");
    cr_assert(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "step_ms"), "p95")));
    cJSON_Delete(doc);
    sim_free(&r);

    r = run_sim(scene, "--stats=yaml");
    cr_assert_eq(r.code, 2);
    cr_assert_str_eq(r.err, "voltex-sim: --stats: expected --stats or --stats=json, got '--stats=yaml'\n");
    cr_assert_eq(r.out_size, 0u);
    sim_free(&r);
}

Test(cli, no_progress_when_stderr_is_not_a_terminal)
{
    const char *scene = scene_file("long.json", long_scene);
    sim_result r = run_sim(scene, "--steps", "20000", "-o", "/dev/null");
    cr_assert_eq(r.code, 0);
    cr_assert_eq(r.err_size, 0, "stderr: %s", r.err);
    sim_free(&r);
}

/* Spawns voltex-sim with args, stdout to out_path and stderr on a new
 * pseudo-terminal; returns the terminal's master side. */
static int spawn_on_terminal(const char *const *args, const char *out_path, pid_t *pid)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    cr_assert_geq(master, 0, "no pseudo-terminal: %s", strerror(errno));
    cr_assert_eq(grantpt(master), 0);
    cr_assert_eq(unlockpt(master), 0);
    const char *slave = ptsname(master);
    cr_assert_not_null(slave);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addclose(&actions, master);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, slave, O_RDWR | O_NOCTTY, 0);
    *pid = spawn_sim(args, &actions);
    posix_spawn_file_actions_destroy(&actions);
    return master;
}

/* Reads what the terminal shows within `seconds` (or until want appears). */
static size_t read_terminal(int master, double seconds, const char *want, char *buf, size_t size)
{
    size_t n = 0;
    double end = now_seconds() + seconds;
    buf[0] = '\0';
    while (n + 1 < size && now_seconds() < end) {
        struct pollfd p = {master, POLLIN, 0};
        if (poll(&p, 1, 50) <= 0) continue;
        ssize_t got = read(master, buf + n, size - n - 1);
        if (got <= 0) break;
        n += (size_t)got;
        buf[n] = '\0';
        if (want && strstr(buf, want)) break;
    }
    return n;
}

static void stop(pid_t pid)
{
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
}

Test(cli, progress_on_a_terminal_unless_quiet)
{
    const char *scene = scene_file("long.json", long_scene);
    const char *out = wpath("out.csv");
    char shown[4096];
    pid_t pid;
    /* A run far longer than the test: progress must show within seconds. */
    int master = spawn_on_terminal((const char *const[]){scene, "--steps", "1000000000", "--every", "100000",
                                                          "-o", "/dev/null", NULL},
                                   out, &pid);
    read_terminal(master, 10.0, "/1000000000", shown, sizeof shown);
    read_terminal(master, 0.3, NULL, shown + strlen(shown), sizeof shown - strlen(shown));
    stop(pid);
    close(master);
    cr_assert_eq(strncmp(shown, "\rvoltex-sim: step ", 18), 0, "terminal shows: %s", shown);
    cr_assert_not_null(strstr(shown, "/1000000000"), "%s", shown);
    cr_assert_null(strchr(shown, '\n'), "progress rewrites one line: %s", shown);

    master = spawn_on_terminal((const char *const[]){scene, "--steps", "1000000000", "-o", "/dev/null", "-q", NULL},
                               out, &pid);
    size_t n = read_terminal(master, 0.6, NULL, shown, sizeof shown);
    stop(pid);
    close(master);
    cr_assert_eq(n, 0, "--quiet: the terminal shows %s", shown);
}

/* ---- a reader that goes away ---- */

Test(cli, closed_pipe_ends_quietly_and_promptly)
{
    const char *scene = scene_file("long.json", long_scene);
    const char *err_path = wpath("err.txt");
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_addclose(&actions, fds[1]);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const char *argv[] = {VOLTEX_SIM_PATH, scene, NULL};
    pid_t pid;
    double start = now_seconds();
    cr_assert_eq(posix_spawn(&pid, VOLTEX_SIM_PATH, &actions, NULL, (char *const *)argv, environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);

    /* Read the header line, then go away like `head -1`. */
    char c;
    char header[128];
    size_t n = 0;
    while (read(fds[0], &c, 1) == 1 && c != '\n' && n < sizeof header - 1) header[n++] = c;
    header[n] = '\0';
    close(fds[0]);
    cr_assert_str_eq(header, "frame,time,entity,name,px,py,pz,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz");

    int status = 0;
    pid_t done = 0;
    const struct timespec tick = {0, 10 * 1000 * 1000};
    while ((done = waitpid(pid, &status, WNOHANG)) == 0 && now_seconds() - start < 20.0) nanosleep(&tick, NULL);
    if (done == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        cr_assert_fail("voltex-sim kept running after its reader went away");
    }
    double elapsed = now_seconds() - start;
    cr_assert(WIFEXITED(status), "killed by signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    cr_assert_eq(WEXITSTATUS(status), 0);
    char *err = read_whole_file(err_path, NULL);
    cr_assert_str_eq(err, "", "a reader that goes away is no error");
    free(err);
    cr_assert_lt(elapsed, 5.0, "took %.1f s", elapsed);
}

/* ---- joints ---- */

/* A ball hanging from the world on a distance joint 1 m long, and a box
 * welded to the ball. */
static const char joint_scene[] =
    "{ \"name\": \"hang\", \"dt\": 0.015625, \"steps\": 4,\n"
    "  \"entities\": [\n"
    "    { \"name\": \"ball\", \"transform\": { \"position\": [0, 1, 0] },\n"
    "      \"collider\": { \"type\": \"sphere\", \"radius\": 0.1 }, \"rigidbody\": { \"mass\": 2 } },\n"
    "    { \"name\": \"tag\", \"transform\": { \"position\": [0, 0.8, 0] },\n"
    "      \"collider\": { \"type\": \"box\", \"half_extents\": [0.05, 0.05, 0.05] }, \"rigidbody\": { \"mass\": 1 } } ],\n"
    "  \"joints\": [\n"
    "    { \"name\": \"string\", \"type\": \"distance\", \"b\": \"ball\", \"anchor_a\": [0, 2, 0] },\n"
    "    { \"type\": \"fixed\", \"a\": \"ball\", \"b\": \"tag\" } ] }\n";

Test(cli, joints_file_header_and_rows)
{
    const char *scene = scene_file("hang.json", joint_scene);
    const char *joints = wpath("joints.csv");
    sim_result r = run_sim(scene, "--joints", joints, "--every", "4", "-q", "-o", wpath("body.csv"));
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    char *text = read_whole_file(joints, NULL);
    char line[512];
    cr_assert_str_eq(line_at(text, 0, line, sizeof line),
                     "frame,time,joint,name,type,entity_a,entity_b,fx,fy,fz,tx,ty,tz,position,speed,broken");
    /* frame 0: no force yet; the distance joint's position is its length */
    cr_assert_str_eq(line_at(text, 1, line, sizeof line), "0,0,0,string,distance,-1,0,0,0,0,0,0,0,1,0,0");
    cr_assert_str_eq(line_at(text, 2, line, sizeof line), "0,0,1,joint1,fixed,0,1,0,0,0,0,0,0,0,0,0");
    cr_assert_eq(count_lines(text), 1 + 2 * 2, "%s", text);
    /* frame 4: the string holds both bodies up (3 kg: 29.43 N on the ball,
     * pulling it up), the weld the box (9.81 N up on the box) */
    double fy_string = 0.0, fy_weld = 0.0;
    cr_assert_eq(sscanf(line_at(text, 3, line, sizeof line), "4,0.0625,0,string,distance,-1,0,%*f,%lf", &fy_string), 1,
                 "%s", line);
    cr_assert_eq(sscanf(line_at(text, 4, line, sizeof line), "4,0.0625,1,joint1,fixed,0,1,%*f,%lf", &fy_weld), 1, "%s",
                 line);
    cr_assert_float_eq(fy_string, 3.0 * 9.81, 1e-3, "%s", text);
    cr_assert_float_eq(fy_weld, 9.81, 1e-3, "%s", text);
    free(text);
    sim_free(&r);
}

Test(cli, json_frames_carry_the_joints)
{
    const char *scene = scene_file("hang.json", joint_scene);
    sim_result r = run_sim(scene, "--format", "json", "--steps", "1", "-q");
    cr_assert_eq(r.code, 0, "stderr: %s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc, "not JSON: %s", r.out);
    const cJSON *frame = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "frames"), 1);
    const cJSON *joints = cJSON_GetObjectItemCaseSensitive(frame, "joints");
    cr_assert_eq(cJSON_GetArraySize(joints), 2);
    const cJSON *string = cJSON_GetArrayItem(joints, 0);
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(string, "joint")->valuedouble, 0.0);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(string, "force")), 3);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(string, "torque")), 3);
    cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(string, "position")->valuedouble, 1.0, 1e-5);
    cr_assert(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(string, "speed")));
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(string, "broken")));
    cJSON_Delete(doc);
    sim_free(&r);
    /* a scene without joints keeps its frames as they were */
    scene = scene_file("rest.json", rest_scene);
    r = run_sim(scene, "--format", "json", "--steps", "1", "-q");
    cr_assert_eq(r.code, 0);
    cr_assert_null(strstr(r.out, "joints"));
    sim_free(&r);
    r = run_sim(scene, "--joints", "-");
    assert_failure(&r, 2, "voltex-sim: --joints -: the body trace already goes to stdout\n");
    sim_free(&r);
}

/* A ragdoll tumbling down stairs (joints and contacts together): the body
 * and joint traces are the same bytes for 1, 2 and 3 threads, in both
 * orders. */
Test(cli, joint_traces_are_byte_identical_for_any_thread_count)
{
    const char *scene = VOLTEX_SOURCE_DIR "/scenes/ragdoll.json";
    const char *orders[2] = {"sequential", "colored"};
    for (int o = 0; o < 2; o++) {
        char joints[3][512];
        sim_result r[3];
        const char *threads[3] = {"1", "2", "3"};
        for (int k = 0; k < 3; k++) {
            snprintf(joints[k], sizeof joints[k], "%s/joints_%d_%d.csv", work_dir, o, k);
            r[k] = run_sim(scene, "--steps", "120", "--order", orders[o], "--threads", threads[k], "--joints",
                           joints[k]);
            cr_assert_eq(r[k].code, 0, "stderr: %s", r[k].err);
        }
        for (int k = 1; k < 3; k++) {
            cr_assert(r[0].out_size == r[k].out_size && memcmp(r[0].out, r[k].out, r[0].out_size) == 0,
                      "%s: --threads %s differs from 1", orders[o], threads[k]);
            size_t n0 = 0, nk = 0;
            char *j0 = read_whole_file(joints[0], &n0), *jk = read_whole_file(joints[k], &nk);
            cr_assert(n0 > 1000 && n0 == nk && memcmp(j0, jk, n0) == 0, "%s: joint traces differ for --threads %s",
                      orders[o], threads[k]);
            free(j0);
            free(jk);
        }
        for (int k = 0; k < 3; k++) sim_free(&r[k]);
    }
}
