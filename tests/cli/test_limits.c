/* The limits of what voltex-sim takes in, each with one clear line and its
 * exit code (docs/cli.md, docs/scene_format.md): the size of the scene
 * text, its strings as UTF-8, the size of shapes, the longest step, and
 * the memory budget that pairs of bodies close together may take. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_cli_run.h"
#include "voltex/limits.h"
#include "voltex/scene.h"

TestSuite(limits, .init = work_dir_make, .fini = work_dir_remove, .timeout = 60);

/* ---- the scene text ---- */

Test(limits, dev_zero_ends_at_once_with_the_place)
{
    double start = now_seconds();
    sim_result r = run_sim("/dev/zero");
    assert_failure(&r, 2, "voltex-sim: /dev/zero:1:1: invalid JSON (unexpected NUL byte)\n");
    sim_free(&r);
    cr_assert_lt(now_seconds() - start, 10.0, "it read on");
}

Test(limits, a_scene_file_over_the_cap_is_refused_unread)
{
    const char *path = wpath("huge.json");
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fclose(f);
    cr_assert_eq(truncate(path, (off_t)VX_SCENE_MAX_BYTES + 1), 0);
    sim_result r = run_sim(path);
    char want[600];
    snprintf(want, sizeof want, "voltex-sim: %s: larger than a scene may be (64 MiB)\n", path);
    assert_failure(&r, 2, want);
    sim_free(&r);
}

Test(limits, a_stream_over_the_cap_is_refused)
{
    /* 1 byte more than the cap of valid JSON whitespace, through a pipe */
    const char *err_path = wpath("err.txt");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "head -c %u /dev/zero | tr '\\0' ' ' | '%s' - > /dev/null 2> '%s'",
             VX_SCENE_MAX_BYTES + 1u, VOLTEX_SIM_PATH, err_path);
    int status = system(cmd);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 2, "status %d", status);
    char *err = read_whole_file(err_path, NULL);
    cr_assert_str_eq(err, "voltex-sim: <stdin>: larger than a scene may be (64 MiB)\n");
    free(err);
}

/* ---- UTF-8 ---- */

Test(limits, strings_that_are_not_utf8_are_refused_with_their_path)
{
    static const struct {
        const char *scene;
        const char *where;
    } cases[] = {
        {"{\"name\": \"a\xff\", \"entities\": []}", "name: not valid UTF-8 (byte 2 of the string)"},
        /* overlong '/', a surrogate, past U+10FFFF, a cut sequence */
        {"{\"name\": \"\xc0\xaf\", \"entities\": []}", "name: not valid UTF-8 (byte 1 of the string)"},
        {"{\"name\": \"x\xed\xa0\x80\", \"entities\": []}", "name: not valid UTF-8 (byte 2 of the string)"},
        {"{\"name\": \"\xf4\x90\x80\x80\", \"entities\": []}", "name: not valid UTF-8 (byte 1 of the string)"},
        {"{\"entities\": [{}, {\"name\": \"b\xe2\x82\"}]}", "entities[1].name: not valid UTF-8 (byte 2 of the string)"},
        {"{\"entities\": [], \"shapes\": {\"r\xc3\x28\": {\"type\": \"sphere\", \"radius\": 1}}}",
         "shapes.r?(: not valid UTF-8 (byte 2 of the key)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *scene = scene_file("bad.json", cases[i].scene);
        sim_result r = run_sim(scene);
        char want[600];
        snprintf(want, sizeof want, "voltex-sim: %s: %s\n", scene, cases[i].where);
        assert_failure(&r, 2, want);
        sim_free(&r);
    }
    /* a value given with --set is checked the same way */
    const char *scene = scene_file("ok.json", "{\"entities\": []}");
    sim_result r = run_sim(scene, "--set", "name=caf\xe9");
    char want[600];
    snprintf(want, sizeof want, "voltex-sim: %s: name: not valid UTF-8 (byte 4 of the string)\n", scene);
    assert_failure(&r, 2, want);
    sim_free(&r);
}

Test(limits, utf8_names_reach_a_valid_json_trace)
{
    const char *scene = scene_file("ok.json", "{\"name\": \"caf\xc3\xa9 \xf0\x9f\x8e\xb2\", \"steps\": 1, \"entities\": []}");
    sim_result r = run_sim(scene, "-f", "json");
    cr_assert_eq(r.code, 0, "%s", r.err);
    cJSON *doc = cJSON_Parse(r.out);
    cr_assert_not_null(doc, "%s", r.out);
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(doc, "scene")->valuestring, "caf\xc3\xa9 \xf0\x9f\x8e\xb2");
    cJSON_Delete(doc);
    sim_free(&r);
}

/* ---- shape sizes ---- */

Test(limits, shapes_larger_than_the_limit_are_refused)
{
    static const struct {
        const char *collider;
        const char *where;
    } cases[] = {
        {"{\"type\": \"sphere\", \"radius\": 3e38}", "collider.radius: must be at most 1e+06 (m)"},
        {"{\"type\": \"box\", \"half_extents\": [1, 2e6, 1]}",
         "collider.half_extents[1]: must be at most 1e+06 (m)"},
        {"{\"type\": \"capsule\", \"radius\": 1, \"half_height\": 1e7}",
         "collider.half_height: must be at most 1e+06 (m)"},
        {"{\"type\": \"convex\", \"points\": [[0,0,0], [1,0,0], [0,1,0], [0,0,-1.5e6]]}",
         "collider.points[3][2]: must be between -1e+06 and 1e+06 (m)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "{\"entities\": [{\"collider\": %s, \"rigidbody\": {\"mass\": 1}}]}",
                 cases[i].collider);
        const char *scene = scene_file("big.json", text);
        sim_result r = run_sim(scene, "--contacts", wpath("c.csv"));
        char want[600];
        snprintf(want, sizeof want, "voltex-sim: %s: entities[0].%s\n", scene, cases[i].where);
        assert_failure(&r, 2, want);
        sim_free(&r);
    }
    /* the limit itself is a size */
    const char *scene = scene_file("edge.json", "{\"steps\": 1, \"entities\": [{\"collider\": {\"type\": \"sphere\", "
                                                "\"radius\": 1e6}, \"rigidbody\": {\"mass\": 1}}]}");
    sim_result r = run_sim(scene, "-o", "/dev/null");
    cr_assert_eq(r.code, 0, "%s", r.err);
    sim_free(&r);
}

/* ---- messages ---- */

/* Found by tests/fuzz/fuzz_cli: an argument holding a newline made a
 * message of two lines. */
Test(limits, an_argument_or_path_with_a_newline_still_gives_one_line)
{
    const char *scene = scene_file("ok.json", "{\"steps\": 1, \"entities\": []}");
    char want[600];
    sim_result r = run_sim(scene, "b\nc");
    assert_failure(&r, 2, "voltex-sim: unexpected argument 'b?c' (one scene file)\n");
    sim_free(&r);
    r = run_sim(scene, "--steps", "1\n");
    assert_failure(&r, 2, "voltex-sim: --steps: expected an integer >= 0, got '1?'\n");
    sim_free(&r);
    r = run_sim(scene, "-o", "/nonexistent\n/x.csv");
    assert_failure(&r, 4, "voltex-sim: /nonexistent?/x.csv: cannot open: No such file or directory\n");
    sim_free(&r);
    const char *bad = scene_file("bad\nname.json", "{}");
    r = run_sim(bad);
    snprintf(want, sizeof want, "voltex-sim: %s/bad?name.json: entities: missing (required)\n", work_dir);
    assert_failure(&r, 2, want);
    sim_free(&r);
}

/* ---- the longest step ---- */

Test(limits, a_step_longer_than_the_limit_is_refused)
{
    const char *scene = scene_file("pile.json", "{\"dt\": 1000, \"entities\": []}");
    sim_result r = run_sim(scene, "--contacts", wpath("c.csv"));
    char want[600];
    snprintf(want, sizeof want,
             "voltex-sim: %s: dt: must be at most 1/30 (s): longer steps let piles sink through static bodies "
             "(write fewer frames with --every)\n",
             scene);
    assert_failure(&r, 2, want);
    sim_free(&r);
    scene = scene_file("ok.json", "{\"steps\": 1, \"entities\": []}");
    r = run_sim(scene, "--dt", "1000");
    assert_failure(&r, 2,
                   "voltex-sim: --dt: must be at most 1/30 (s), got '1000': longer steps let piles sink through static "
                   "bodies (write fewer frames with --every)\n");
    sim_free(&r);
    r = run_sim(scene, "--set", "dt=0.034");
    assert_failure(&r, 2, NULL);
    sim_free(&r);
    /* the limit itself is a step */
    r = run_sim(scene, "--dt", "0.0333333333", "-o", "/dev/null");
    cr_assert_eq(r.code, 0, "%s", r.err);
    sim_free(&r);
}

/* ---- the memory budget ---- */

/* n spheres at one point: n (n - 1) / 2 pairs. */
static const char *pile_at_one_point(size_t n)
{
    size_t size = 64 + n * 96;
    char *text = malloc(size);
    cr_assert_not_null(text);
    size_t k = (size_t)snprintf(text, size, "{\"steps\": 2, \"entities\": [");
    for (size_t i = 0; i < n; i++)
        k += (size_t)snprintf(text + k, size - k,
                              "%s{\"collider\": {\"type\": \"sphere\", \"radius\": 0.5}, \"rigidbody\": {\"mass\": 1}}",
                              i ? ", " : "");
    snprintf(text + k, size - k, "]}");
    const char *path = scene_file("pile.json", text);
    free(text);
    return path;
}

Test(limits, pairs_over_the_memory_budget_end_the_run_with_exit_5)
{
    /* 10 000 bodies at one point: 49 995 000 pairs, some 200 GB at 4096 bytes
     * a pair; the budget stops the broad phase at 2441 */
    const char *scene = pile_at_one_point(10000);
    const char *out = wpath("t.csv");
    double start = now_seconds();
    sim_result r = run_sim(scene, "--memory-budget", "10", "-o", out);
    assert_failure(&r, 5,
                   "voltex-sim: step 1: more than 2441 pairs of bodies close together, over the memory budget of 10 MB "
                   "(4096 bytes a pair; --memory-budget)\n");
    sim_free(&r);
    cr_assert_neq(access(out, F_OK), 0, "no trace is kept");
    cr_assert_lt(now_seconds() - start, 30.0);

    /* within the budget: the same trace as without one */
    scene = pile_at_one_point(60); /* 1770 pairs */
    sim_result within = run_sim(scene, "--memory-budget", "10");
    cr_assert_eq(within.code, 0, "%s", within.err);
    r = run_sim(scene);
    cr_assert_eq(r.code, 0);
    cr_assert_str_eq(within.out, r.out);
    sim_free(&r);
    sim_free(&within);
    /* and the broad phase kind that lists every pair at once stops too */
    r = run_sim(pile_at_one_point(100), "--memory-budget", "1", "--solver", "broadphase=bvh", "-o", "/dev/null");
    assert_failure(&r, 5, NULL);
    sim_free(&r);

    r = run_sim(scene, "--memory-budget", "0");
    assert_failure(&r, 2, "voltex-sim: --memory-budget: expected a number of MB > 0, got '0'\n");
    sim_free(&r);
}
