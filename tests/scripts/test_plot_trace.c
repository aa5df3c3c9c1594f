/* scripts/plot_trace.py turns a body or joint trace into a PNG of the chosen columns,
 * and rejects a column that is not in the trace with a clear message. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PLOT VOLTEX_SOURCE_DIR "/scripts/plot_trace.py"
#define BALL_DROP VOLTEX_SOURCE_DIR "/scenes/ball_drop.json"

static int run(const char *cmd)
{
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Test(plot_script, ball_drop_trace_becomes_a_png, .timeout = 120)
{
    char png[64], cmd[1024];
    snprintf(png, sizeof png, "/tmp/vx_plot_%d.png", (int)getpid());
    snprintf(cmd, sizeof cmd, "'%s' '%s' --steps 120 -q | /usr/bin/python3 '%s' --entity ball --y py --y vy -o %s",
             VOLTEX_SIM_PATH, BALL_DROP, PLOT, png);
    cr_assert_eq(run(cmd), 0, "plot_trace.py failed: %s", cmd);
    FILE *f = fopen(png, "rb");
    cr_assert_not_null(f, "no PNG written");
    unsigned char magic[8] = {0};
    size_t got = fread(magic, 1, sizeof magic, f);
    fclose(f);
    remove(png);
    cr_assert_eq(got, 8);
    cr_assert(memcmp(magic, "\x89PNG\r\n\x1a\n", 8) == 0, "the output is not a PNG");
}

Test(plot_script, unknown_column_is_an_error, .timeout = 120)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'%s' '%s' --steps 2 -q | /usr/bin/python3 '%s' --entity ball --y nosuch -o /tmp/vx_never.png "
             "2>/dev/null",
             VOLTEX_SIM_PATH, BALL_DROP, PLOT);
    cr_assert_neq(run(cmd), 0, "a missing column must fail");
    cr_assert(access("/tmp/vx_never.png", F_OK) != 0, "no PNG may be written on error");
}

/* A joint trace plots by joint name, with an analytic curve beside it; a
 * bad expression is an error that names it, and writes nothing. */
Test(plot_script, joint_trace_and_analytic_curve, .timeout = 120)
{
    char png[64], cmd[1024];
    snprintf(png, sizeof png, "/tmp/vx_plot_joint_%d.png", (int)getpid());
    snprintf(cmd, sizeof cmd,
             "'%s' '" VOLTEX_SOURCE_DIR "/scenes/pendulum.json' --steps 60 -q -o /dev/null --joints - | "
             "/usr/bin/python3 '%s' --entity string --y fy --analytic '9.81*cos(0.1745*cos(2*pi*t/2.0099))' -o %s",
             VOLTEX_SIM_PATH, PLOT, png);
    cr_assert_eq(run(cmd), 0, "plot_trace.py failed: %s", cmd);
    cr_assert_eq(access(png, F_OK), 0, "no PNG written");
    remove(png);
    snprintf(cmd, sizeof cmd,
             "'%s' '" VOLTEX_SOURCE_DIR "/scenes/pendulum.json' --steps 2 -q -o /dev/null --joints - | "
             "/usr/bin/python3 '%s' --entity string --y fy --analytic 'cos(' -o %s 2>/tmp/vx_plot_err_%d",
             VOLTEX_SIM_PATH, PLOT, png, (int)getpid());
    cr_assert_neq(run(cmd), 0, "a bad expression must fail");
    cr_assert(access(png, F_OK) != 0, "no PNG may be written on error");
    char err_path[64], line[256] = "";
    snprintf(err_path, sizeof err_path, "/tmp/vx_plot_err_%d", (int)getpid());
    FILE *f = fopen(err_path, "r");
    cr_assert_not_null(f);
    cr_assert_not_null(fgets(line, sizeof line, f));
    fclose(f);
    remove(err_path);
    cr_assert_not_null(strstr(line, "plot_trace.py: --analytic 'cos('"), "%s", line);
}
