/* scripts/golden_suite: the project's example scenes against their golden
 * traces (body and query traces) with today's build, and what the suite
 * says, writes and exits with when a scene differs, cannot run, has no
 * golden, or is updated; manifests; JUnit XML (docs/runs.md). */
#include "test_scripts.h"

#include <dirent.h>
#include <sys/stat.h>

#define SUITE VX_SCRIPTS "/golden_suite --sim '" VOLTEX_SIM_PATH "'"
#define GOLDEN_DIR VOLTEX_SOURCE_DIR "/tests/golden"

/* The JUnit file's counts and its messages, a line each, as Python's XML parser reads them. */
static char *junit_summary(const char *dir, const char *xml)
{
    vx_script_result r = vx_script_run(
        dir,
        "/usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E\n"
        "s = E.parse(sys.argv[1]).getroot().find(\"testsuite\")\n"
        "print(\"tests=%%s failures=%%s errors=%%s\" %% (s.get(\"tests\"), s.get(\"failures\"), s.get(\"errors\")))\n"
        "for c in s.iter(\"testcase\"):\n"
        "    for k in c:\n"
        "        print(c.get(\"name\"), k.tag, k.get(\"message\"))' '%s'",
        xml);
    cr_assert_eq(r.code, 0, "the JUnit XML does not parse: %s", r.err);
    free(r.err);
    return r.out;
}

/* scenes/queries/ (the lidar) against tests/golden/queries/: bodies and queries */
Test(golden_suite, the_query_scenes_match_their_golden_traces, .timeout = 120)
{
    char dir[64];
    vx_scratch_make(dir);
    vx_script_result r = vx_script_run(dir, SUITE " '" VX_SCENES "/queries' '" GOLDEN_DIR "/queries'");
    cr_assert_eq(r.code, 0, "a query scene differs from its golden trace:\n%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "PASS    lidar"), "%s", r.out);
    free(r.out);
    free(r.err);
}

Test(golden_suite, the_example_scenes_match_their_golden_traces, .timeout = 120)
{
    char dir[64];
    vx_scratch_make(dir);
    /* every scenes/NAME.json has its golden trace, and no golden is left without a scene */
    int scenes = 0;
    DIR *d = opendir(VX_SCENES);
    cr_assert_not_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0) scenes++;
    }
    closedir(d);
    cr_assert_geq(scenes, 5, "expected the example scenes under scenes/");

    vx_script_result r =
        vx_script_run(dir, SUITE " '" VX_SCENES "' '" GOLDEN_DIR "' --junit '%s/junit.xml'", dir);
    cr_assert_eq(r.code, 0, "a scene differs from its golden trace (scripts/update_golden.sh after a change "
                            "meant to alter the physics):\n%s%s", r.out, r.err);
    cr_assert_eq(vx_count_lines(r.out, "PASS "), scenes, "%s", r.out);
    char summary[128];
    snprintf(summary, sizeof summary, "golden_suite: %d passed, 0 failed", scenes);
    cr_assert(vx_count_lines(r.out, summary) == 1, "%s", r.out);
    cr_assert(strstr(r.out, "PASS    probes"), "probes and its query trace");
    char xml[96];
    snprintf(xml, sizeof xml, "%s/junit.xml", dir);
    char *junit = junit_summary(dir, xml);
    char counts[64];
    snprintf(counts, sizeof counts, "tests=%d failures=0 errors=0\n", scenes);
    cr_assert_str_eq(junit, counts);
    free(junit);
    vx_script_free(&r);

    /* the same with xargs -P instead of GNU parallel, one job (the scenes with a b) */
    r = vx_script_run(dir, SUITE " --runner xargs -j 1 -k 'b*' '" VX_SCENES "' '" GOLDEN_DIR "'");
    cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert(strstr(r.out, "PASS    ball_drop ") && strstr(r.out, "PASS    box_tumble "), "%s", r.out);
    cr_assert(strstr(r.out, "golden_suite: 2 scenes in ") && strstr(r.out, "1 job (xargs -P)"), "%s", r.out);
    vx_script_free(&r);
    vx_scratch_remove(dir);
}

/* dir/scenes with ball_drop, probes and a scene with a typo; dir/golden with
 * their traces from tests/golden, ball_drop's changed at frame 100 and a
 * query trace line changed, and a golden without a scene. */
static void broken_suite(const char *dir)
{
    vx_script_result r = vx_script_run(
        dir,
        "cd '%s' && mkdir scenes golden && cp '" VX_SCENES "/ball_drop.json' '" VX_SCENES "/probes.json' scenes/ && "
        "echo '{\"entities\": [{\"colider\": {}}]}' > scenes/typo.json && "
        "cp '" GOLDEN_DIR "/probes.csv' '" GOLDEN_DIR "/probes.queries.csv' golden/ && cp golden/probes.csv golden/typo.csv && "
        "cp golden/probes.csv golden/old.csv && cp golden/probes.csv golden/gone.queries.csv && "
        "awk -F, -v OFS=, '$1 == 100 && $4 == \"ball\" { $6 = $6 + 0.25 } 1' '" GOLDEN_DIR "/ball_drop.csv' > golden/ball_drop.csv && "
        "sed -i '20s/,floor,/,wall,/' golden/probes.queries.csv",
        dir);
    cr_assert_eq(r.code, 0, "%s", r.err);
    vx_script_free(&r);
}

Test(golden_suite, differences_and_failed_runs_are_reported_with_their_first_message, .timeout = 120)
{
    char dir[64];
    vx_scratch_make(dir);
    broken_suite(dir);
    vx_script_result r = vx_script_run(dir, "cd '%s' && " SUITE " --runner xargs scenes golden --junit junit.xml", dir);
    cr_assert_eq(r.code, 1, "%s%s", r.out, r.err);
    char line[1024];
    cr_assert(vx_find_line(r.out, "FAIL    ball_drop", line, sizeof line), "%s", r.out);
    cr_assert(strstr(line, "frame 100 entity 1 (ball) py: ") && strstr(line, " vs golden "), "%s", line);
    cr_assert(vx_find_line(r.out, "FAIL    probes", line, sizeof line), "%s", r.out);
    cr_assert(strstr(line, "queries trace line 20: ") && strstr(line, "wall") && strstr(line, "probes.queries.csv"),
              "%s", line);
    cr_assert(vx_find_line(r.out, "ERROR   typo", line, sizeof line), "%s", r.out);
    cr_assert(strstr(line, "exit 2: scenes/typo.json: entities[0].colider: unknown key (did you mean \"collider\"?)"),
              "%s", line);
    cr_assert(vx_find_line(r.out, "ERROR   old.csv", line, sizeof line), "%s", r.out);
    cr_assert(strstr(line, "golden trace golden/old.csv has no scene old.json in scenes"), "%s", line);
    cr_assert(vx_find_line(r.out, "ERROR   gone.queries.csv", line, sizeof line), "%s", r.out);
    cr_assert(strstr(line, "golden trace golden/gone.queries.csv has no scene gone.json in scenes"), "%s", line);
    cr_assert(vx_count_lines(r.out, "golden_suite: 0 passed, 5 failed") == 1, "%s", r.out);
    cr_assert_str_eq(r.err, "");
    vx_script_free(&r);

    char xml[96];
    snprintf(xml, sizeof xml, "%s/junit.xml", dir);
    char *junit = junit_summary(dir, xml);
    cr_assert(strstr(junit, "tests=5 failures=2 errors=3\n"), "%s", junit);
    cr_assert(strstr(junit, "ball_drop failure frame 100 entity 1 (ball) py: "), "%s", junit);
    cr_assert(strstr(junit, "probes failure queries trace line 20: "), "%s", junit);
    cr_assert(strstr(junit, "typo error exit 2: scenes/typo.json: entities[0].colider: unknown key"), "%s", junit);
    free(junit);
    vx_scratch_remove(dir);
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    cr_assert_eq(stat(path, &st), 0, "%s is missing", path);
    return st.st_mode & 0777;
}

Test(golden_suite, update_writes_the_goldens_the_suite_then_passes, .timeout = 120)
{
    char dir[64];
    vx_scratch_make(dir);
    vx_script_result r = vx_script_run(dir, "cd '%s' && mkdir scenes golden && cp '" VX_SCENES "/ball_drop.json' '"
                                            VX_SCENES "/probes.json' scenes/", dir);
    vx_script_free(&r);

    r = vx_script_run(dir, "cd '%s' && " SUITE " --runner xargs scenes golden", dir);
    cr_assert_eq(r.code, 1);
    cr_assert(strstr(r.out, "no golden trace golden/ball_drop.csv (make it with --update)"), "%s", r.out);
    vx_script_free(&r);

    r = vx_script_run(dir, "cd '%s' && umask 022 && " SUITE " --runner xargs scenes golden --update", dir);
    cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
    cr_assert(vx_count_lines(r.out, "NEW     ") == 2, "%s", r.out);
    cr_assert(strstr(r.out, ": 0 updated, 2 new, 0 unchanged, 0 could not run"), "%s", r.out);
    vx_script_free(&r);
    /* the traces voltex-sim writes: the same bytes as the project's goldens of these scenes */
    const char *files[] = {"ball_drop.csv", "probes.csv", "probes.queries.csv"};
    for (size_t i = 0; i < 3; i++) {
        char made[128], kept[256];
        snprintf(made, sizeof made, "%s/golden/%s", dir, files[i]);
        snprintf(kept, sizeof kept, GOLDEN_DIR "/%s", files[i]);
        char *a = vx_read_file(made), *b = vx_read_file(kept);
        cr_assert(a && b && strcmp(a, b) == 0, "%s is not the trace of the scene", made);
        cr_assert_eq(mode_of(made), 0644, "%s: mode %o", made, mode_of(made));
        free(a);
        free(b);
    }

    r = vx_script_run(dir, "cd '%s' && " SUITE " --runner xargs scenes golden --update -k 'ball*'", dir);
    cr_assert_eq(r.code, 0);
    cr_assert(vx_count_lines(r.out, "SAME    ball_drop") == 1 && !strstr(r.out, "probes"), "%s", r.out);
    vx_script_free(&r);

    r = vx_script_run(dir, "cd '%s' && " SUITE " --runner xargs scenes golden", dir);
    cr_assert_eq(r.code, 0, "%s", r.out);
    cr_assert(strstr(r.out, "golden_suite: 2 passed, 0 failed\n"), "%s", r.out);
    vx_script_free(&r);
    vx_scratch_remove(dir);
}

/* A manifest: per-scene steps, options and tolerance; two names for one scene. */
Test(golden_suite, a_manifest_gives_each_scene_its_steps_options_and_tolerance, .timeout = 120)
{
    char dir[64];
    vx_scratch_make(dir);
    vx_script_result r = vx_script_run(
        dir,
        "cd '%s' && mkdir g && cp '" VX_SCENES "/ball_drop.json' . && "
        "'" VOLTEX_SIM_PATH "' ball_drop.json -q --steps 30 -o g/short.csv && "
        "'" VOLTEX_SIM_PATH "' ball_drop.json -q --steps 30 --solver substeps=4 -o g/substeps.csv && "
        "awk -F, -v OFS=, '$1 == 30 && $4 == \"ball\" { $6 = $6 + 0.0001 } 1' g/short.csv > g/nudged.csv",
        dir);
    cr_assert_eq(r.code, 0, "%s", r.err);
    vx_script_free(&r);
    char manifest[96];
    snprintf(manifest, sizeof manifest, "%s/suite.json", dir);
    vx_write_file(manifest,
                  "{\"steps\": 30, \"scenes\": [\n"
                  " {\"name\": \"short\", \"scene\": \"ball_drop.json\", \"golden\": \"g/short.csv\"},\n"
                  " {\"name\": \"substeps\", \"scene\": \"ball_drop.json\", \"golden\": \"g/substeps.csv\",\n"
                  "  \"options\": [\"--solver\", \"substeps=4\"]},\n"
                  " {\"name\": \"substeps_unset\", \"scene\": \"ball_drop.json\", \"golden\": \"g/substeps.csv\"},\n"
                  " {\"name\": \"loose\", \"scene\": \"ball_drop.json\", \"golden\": \"g/nudged.csv\", \"tolerance\": 1e-3},\n"
                  " {\"name\": \"strict\", \"scene\": \"ball_drop.json\", \"golden\": \"g/nudged.csv\"}\n"
                  "]}\n");
    r = vx_script_run(dir, SUITE " --runner xargs --manifest '%s/suite.json'", dir);
    cr_assert_eq(r.code, 1, "%s%s", r.out, r.err);
    char line[1024];
    cr_assert(vx_find_line(r.out, "PASS    short ", line, sizeof line), "%s", r.out);
    cr_assert(vx_find_line(r.out, "PASS    substeps ", line, sizeof line), "%s", r.out);
    cr_assert(vx_find_line(r.out, "FAIL    substeps_unset ", line, sizeof line), "%s", r.out);
    cr_assert(vx_find_line(r.out, "PASS    loose ", line, sizeof line), "%s", r.out);
    cr_assert(vx_find_line(r.out, "FAIL    strict ", line, sizeof line), "%s", r.out);
    cr_assert(strstr(line, "frame 30 entity 1 (ball) py: ") && strstr(line, "> 1e-05)"), "%s", line);
    cr_assert(strstr(r.out, "golden_suite: 3 passed, 2 failed\n"), "%s", r.out);
    vx_script_free(&r);

    /* -- passes options to every run: --steps 29 ends before the goldens do */
    r = vx_script_run(dir, SUITE " --runner xargs --manifest '%s/suite.json' -k short -- --steps 29", dir);
    cr_assert_eq(r.code, 1, "%s", r.out);
    cr_assert(strstr(r.out, "FAIL    short"), "%s", r.out);
    vx_script_free(&r);
    vx_scratch_remove(dir);
}

static void expect_usage_error(const char *dir, const char *args, const char *message)
{
    vx_script_result r = vx_script_run(dir, "cd '%s' && " SUITE " %s", dir, args);
    cr_assert_eq(r.code, 2, "golden_suite %s: exit %d\n%s%s", args, r.code, r.out, r.err);
    char want[512];
    snprintf(want, sizeof want, "golden_suite: %s\n", message);
    cr_assert_str_eq(r.err, want, "golden_suite %s", args);
    cr_assert_str_eq(r.out, "");
    vx_script_free(&r);
}

Test(golden_suite, bad_arguments_and_manifests_are_one_line_with_exit_2, .timeout = 120)
{
    char dir[64];
    vx_scratch_make(dir);
    char path[128];
    snprintf(path, sizeof path, "%s/typo.json", dir);
    vx_write_file(path, "{\"scenes\": [{\"scene\": \"a.json\", \"tolerence\": 1}]}");
    snprintf(path, sizeof path, "%s/twice.json", dir);
    vx_write_file(path, "{\"scenes\": [{\"scene\": \"a.json\"}, {\"scene\": \"b/a.json\"}]}");
    snprintf(path, sizeof path, "%s/syntax.json", dir);
    vx_write_file(path, "{\"scenes\": [\n  {\"scene\": }]}");
    snprintf(path, sizeof path, "%s/eps.json", dir);
    vx_write_file(path, "{\"tolerance\": -1, \"scenes\": [{\"scene\": \"a.json\"}]}");
    expect_usage_error(dir, "--manifest typo.json",
                       "typo.json: scenes[0].tolerence: unknown key (did you mean \"tolerance\"?)");
    expect_usage_error(dir, "--manifest twice.json", "twice.json: scenes[1].name: 'a' is also scenes[0]'s name");
    expect_usage_error(dir, "--manifest syntax.json", "syntax.json:2:13: invalid JSON (Expecting value)");
    expect_usage_error(dir, "--manifest eps.json", "eps.json: tolerance: the tolerance must be a number >= 0, got -1");
    expect_usage_error(dir, "--manifest nosuch.json", "nosuch.json: No such file or directory");
    expect_usage_error(dir, "nosuch golden", "nosuch: no such folder");
    expect_usage_error(dir, "", "give SCENES_DIR GOLDEN_DIR, or --manifest FILE (--help says more)");
    expect_usage_error(dir, "-j 0 a b", "expected a whole number >= 1, got '0'");
    expect_usage_error(dir, "--nosuch a b", "unrecognized arguments: --nosuch (--help says more)");
    expect_usage_error(dir, "'" VX_SCENES "' '" GOLDEN_DIR "' -k nosuch", "no scene matches nosuch");
    vx_scratch_remove(dir);
}
