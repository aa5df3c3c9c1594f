/* `cmake --install` of this build into a temporary prefix, and
 * docs/examples/ball_drop.c built against what it installed as a user
 * builds it: a CMake project with find_package(voltex), and cc with
 * pkg-config, each with libvoltex.a and with libvoltex.so. Every program
 * must print what tests/docs/test_library_example.c expects of the example
 * built in the tree. Nothing is downloaded; a test takes a second or two. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball_drop_check.h"

#define EXAMPLE VOLTEX_SOURCE_DIR "/docs/examples/ball_drop.c"

typedef struct {
    char dir[256];    /* the test's temporary folder, removed when it passes */
    char prefix[300]; /* dir/prefix: where the build is installed */
    char log[300];    /* dir/log: what the commands printed */
} install_dir;

/* Runs a shell command (printf-style) in dir->dir, its output appended to
 * the log; a failure shows the log's end. */
static void run(const install_dir *d, const char *fmt, ...)
{
    char command[4096], full[8192];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(command, sizeof command, fmt, ap);
    va_end(ap);
    cr_assert(len > 0 && (size_t)len < sizeof command);
    FILE *log = fopen(d->log, "a");
    cr_assert_not_null(log);
    fprintf(log, "$ %s\n", command);
    fclose(log);
    snprintf(full, sizeof full, "cd '%s' && {\n%s\n} >>'%s' 2>&1", d->dir, command, d->log);
    if (system(full) != 0) {
        char tail[600];
        snprintf(tail, sizeof tail, "tail -n 25 '%s' >&2", d->log);
        if (system(tail) != 0) fprintf(stderr, "(no log)\n");
        cr_assert_fail("failed: %s (whole log: %s)", command, d->log);
    }
}

/* A fresh temporary folder with this build installed under dir/prefix. */
static install_dir install(void)
{
    install_dir d;
    const char *tmp = getenv("TMPDIR");
    snprintf(d.dir, sizeof d.dir, "%s/voltex-install-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert_not_null(mkdtemp(d.dir));
    snprintf(d.prefix, sizeof d.prefix, "%s/prefix", d.dir);
    snprintf(d.log, sizeof d.log, "%s/log", d.dir);
    run(&d, "'%s' --install '%s' --prefix '%s'", VOLTEX_CMAKE, VOLTEX_BINARY_DIR, d.prefix);
    return d;
}

static void clean_up(const install_dir *d)
{
    run(d, "rm -rf '%s'", d->dir);
}

/* FOLDER (in the test's folder) has ball_drop_static, linked with
 * libvoltex.a, and ball_drop_shared, with libvoltex.so: both print the
 * example's output. */
static void check_programs(const install_dir *d, const char *folder)
{
    run(d, "! readelf -d %s/ball_drop_static | grep -F libvoltex", folder);
    run(d, "readelf -d %s/ball_drop_shared | grep -F 'Shared library: [%s]'", folder, VOLTEX_SONAME);
    char program[512];
    snprintf(program, sizeof program, "%s/%s/ball_drop_static", d->dir, folder);
    vx_check_ball_drop(program);
    snprintf(program, sizeof program, "%s/%s/ball_drop_shared", d->dir, folder);
    vx_check_ball_drop(program);
}

Test(install, puts_the_libraries_headers_program_package_completion_man_page_and_schema_under_the_prefix)
{
    install_dir d = install();
    run(&d, "test -f prefix/lib/libvoltex.a && test -L prefix/lib/libvoltex.so");
    run(&d, "readelf -d prefix/lib/libvoltex.so | grep -F 'Library soname: [%s]'", VOLTEX_SONAME);
    run(&d, "test -f prefix/lib/%s", VOLTEX_SONAME);
    /* the public headers as they are, and nothing else */
    run(&d, "diff -r '%s/include/voltex' prefix/include/voltex && test \"$(ls prefix/include)\" = voltex",
        VOLTEX_SOURCE_DIR);
    run(&d, "test -f prefix/lib/cmake/voltex/voltexConfig.cmake && test -f prefix/lib/cmake/voltex/voltexConfigVersion.cmake");
    run(&d, "grep -Fx 'prefix=%s' prefix/lib/pkgconfig/voltex.pc", d.prefix);
    run(&d, "prefix/bin/voltex-sim '%s/scenes/ball_drop.json' --steps 2 | grep -q '^2,.*,ball,'", VOLTEX_SOURCE_DIR);
    /* bash completion where bash-completion looks for it */
    run(&d, "cmp '%s/scripts/completion/voltex-sim.bash' prefix/share/bash-completion/completions/voltex-sim",
        VOLTEX_SOURCE_DIR);
    /* the manual page where man finds it under the prefix, and the schema */
    run(&d, "cmp '%s/docs/man/voltex-sim.1' prefix/share/man/man1/voltex-sim.1", VOLTEX_SOURCE_DIR);
    run(&d, "MANPATH=\"$PWD/prefix/share/man\" man -w voltex-sim | grep -Fx \"$PWD/prefix/share/man/man1/voltex-sim.1\"");
    run(&d, "MANPATH=\"$PWD/prefix/share/man\" MANWIDTH=80 man voltex-sim 2>&1 | grep -q -- '--compare'");
    run(&d, "prefix/bin/voltex-sim --schema | cmp - prefix/share/voltex/scene.schema.json");
    clean_up(&d);
}

Test(install, find_package_builds_the_example_static_and_shared)
{
    install_dir d = install();
    run(&d, "mkdir consumer && cat > consumer/CMakeLists.txt <<'EOF'\n"
            "cmake_minimum_required(VERSION 3.18)\n"
            "project(ball_drop C)\n"
            "find_package(voltex %s REQUIRED)\n"
            "add_executable(ball_drop_static %s)\n"
            "target_link_libraries(ball_drop_static PRIVATE voltex::voltex)\n"
            "add_executable(ball_drop_shared %s)\n"
            "target_link_libraries(ball_drop_shared PRIVATE voltex::voltex_shared)\n"
            "EOF",
        VOLTEX_VERSION, EXAMPLE, EXAMPLE);
    run(&d, "'%s' -S consumer -B consumer/build -DCMAKE_PREFIX_PATH='%s' -DCMAKE_C_COMPILER='%s' -DCMAKE_C_FLAGS='%s'",
        VOLTEX_CMAKE, d.prefix, VOLTEX_CC, VOLTEX_CONSUMER_FLAGS);
    run(&d, "grep -Fx 'voltex_DIR:PATH=%s/lib/cmake/voltex' consumer/build/CMakeCache.txt", d.prefix);
    run(&d, "'%s' --build consumer/build --parallel 2", VOLTEX_CMAKE);
    check_programs(&d, "consumer/build");
    clean_up(&d);
}

/* Static: `pkg-config --static` must name everything libvoltex.a needs, so
 * the example is linked with every object of the archive (ball_drop alone
 * pulls in no scene loader, hence no cJSON). ld takes libvoltex.so for
 * -lvoltex when both are there: -l:libvoltex.a asks for the archive. */
Test(install, pkg_config_builds_the_example_static_and_shared)
{
    install_dir d = install();
    const char *pc = "PKG_CONFIG_PATH=prefix/lib/pkgconfig pkg-config";
    run(&d, "%s --modversion voltex | grep -Fx '%s'", pc, VOLTEX_VERSION);
    run(&d, "'%s' %s -std=c11 '%s' -o ball_drop_static $(%s --cflags voltex) "
            "$(%s --static --libs voltex | sed 's/-lvoltex\\b/-Wl,--whole-archive -l:libvoltex.a -Wl,--no-whole-archive/')",
        VOLTEX_CC, VOLTEX_CONSUMER_FLAGS, EXAMPLE, pc, pc);
    run(&d, "'%s' %s -std=c11 '%s' -o ball_drop_shared $(%s --cflags --libs voltex) -Wl,-rpath,$(%s --variable=libdir voltex)",
        VOLTEX_CC, VOLTEX_CONSUMER_FLAGS, EXAMPLE, pc, pc);
    check_programs(&d, ".");
    clean_up(&d);
}
