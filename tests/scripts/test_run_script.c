/* scripts/run.sh on a first build says on stderr what it is doing (one
 * line), then the build's progress, then where the binary is, and runs it;
 * once built it says nothing. The script runs with its set-up
 * (scripts/lib/setup.sh) in a copy of the repository's layout whose
 * CMakeLists.txt builds a small stand-in voltex-sim (a few C files), so
 * cmake and make are the real ones and the test takes seconds, not the
 * minutes of the real build. */
#include <criterion/criterion.h>

#include "test_scripts.h"

static char dir[64];

static void setup(void) { vx_scratch_make(dir); }
static void teardown(void) { vx_scratch_remove(dir); }

TestSuite(run_script, .init = setup, .fini = teardown, .timeout = 120);

/* The repository's layout around the real scripts: a stand-in voltex-sim
 * that prints its arguments, made of four files so that make reports
 * progress in several steps. */
static void make_fake_root(void)
{
    vx_script_result r = vx_script_run(dir,
                                       "mkdir -p '%s/root/scripts/lib' '%s/root/src' '%s/root/include' '%s/root/tests' && "
                                       "cp '%s/run.sh' '%s/root/scripts/' && cp '%s/lib/setup.sh' '%s/root/scripts/lib/'",
                                       dir, dir, dir, dir, VX_SCRIPTS, dir, VX_SCRIPTS, dir);
    cr_assert_eq(r.code, 0, "%s", r.err);
    vx_script_free(&r);
    char path[256];
    snprintf(path, sizeof path, "%s/root/CMakeLists.txt", dir);
    vx_write_file(path, "cmake_minimum_required(VERSION 3.18)\n"
                        "project(stand_in C)\n"
                        "add_executable(voltex-sim src/main.c src/a.c src/b.c src/c.c)\n");
    const char *parts[] = {"a", "b", "c"};
    for (int i = 0; i < 3; i++) {
        char text[128];
        snprintf(path, sizeof path, "%s/root/src/%s.c", dir, parts[i]);
        snprintf(text, sizeof text, "int part_%s(void);\nint part_%s(void) { return %d; }\n", parts[i], parts[i], i);
        vx_write_file(path, text);
    }
    snprintf(path, sizeof path, "%s/root/src/main.c", dir);
    vx_write_file(path, "#include <stdio.h>\n"
                        "int part_a(void); int part_b(void); int part_c(void);\n"
                        "int main(int argc, char **argv)\n"
                        "{\n"
                        "    printf(\"stand-in %d:\", part_a() + part_b() + part_c());\n"
                        "    for (int i = 1; i < argc; i++) printf(\" %s\", argv[i]);\n"
                        "    printf(\"\\n\");\n"
                        "    return 0;\n"
                        "}\n");
}

/* The lines of text, at most max, each without its '\n'. */
static int lines_of(char *text, char **lines, int max)
{
    int n = 0;
    for (char *line = strtok(text, "\n"); line && n < max; line = strtok(NULL, "\n")) lines[n++] = line;
    return n;
}

Test(run_script, first_build_says_what_it_does_then_progress_then_where)
{
    make_fake_root();
    char build[128];
    snprintf(build, sizeof build, "%s/fresh build", dir); /* a space: the paths are quoted */
    vx_script_result r = vx_script_run(dir, "VOLTEX_BUILD_DIR='%s' bash '%s/root/scripts/run.sh' scenes/x.json --steps 3",
                                       build, dir);
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert_str_eq(r.out, "stand-in 3: scenes/x.json --steps 3\n", "stdout is the program's alone");

    char *lines[64];
    int n = lines_of(r.err, lines, 64);
    cr_assert_geq(n, 3, "%s", r.err);
    char want[256];
    snprintf(want, sizeof want,
             "voltex: building voltex-sim (Release) in %s: on the first run and after the sources change", build);
    cr_assert_str_eq(lines[0], want, "the first line says what is going on");
    /* then progress lines, rising, ending at 100% */
    int progress = 0, last = -1;
    for (int i = 1; i < n - 1; i++) {
        int percent;
        cr_assert_eq(sscanf(lines[i], "voltex:   built %d%%", &percent), 1, "not a progress line: %s", lines[i]);
        cr_assert_gt(percent, last, "progress goes up: %s", r.err);
        last = percent;
        progress++;
    }
    cr_assert_geq(progress, 2, "progress in steps: %s", r.err);
    cr_assert_eq(last, 100, "%s", r.err);
    snprintf(want, sizeof want, "voltex: built %s/voltex-sim", build);
    cr_assert_str_eq(lines[n - 1], want, "the last line says where the binary is");
    vx_script_free(&r);

    /* built: nothing on stderr, only the run */
    r = vx_script_run(dir, "VOLTEX_BUILD_DIR='%s' bash '%s/root/scripts/run.sh' --version", build, dir);
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert_str_eq(r.err, "");
    cr_assert_str_eq(r.out, "stand-in 3: --version\n");
    vx_script_free(&r);

    /* a source newer than the binary: built again, announced again */
    r = vx_script_run(dir, "sleep 1; touch '%s/root/src/b.c' && VOLTEX_BUILD_DIR='%s' bash '%s/root/scripts/run.sh'",
                      dir, build, dir);
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert(vx_starts_with(r.err, "voltex: building voltex-sim (Release) in "), "%s", r.err);
    vx_script_free(&r);
}
