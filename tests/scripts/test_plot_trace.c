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

/* The figure as a reader sees it: position and velocity on axes of their
 * own with their units, time in seconds, the entity's name in the legend
 * though it was asked for by index; a wide trace gives the same curves. */
Test(plot_script, axes_units_and_legend, .timeout = 120)
{
    char dir[] = "/tmp/vx_plot_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "cd %s && '%s' '%s' --steps 30 -q -o long.csv && '%s' '%s' --steps 30 -q --layout wide -o wide.csv && "
             "/usr/bin/python3 - <<'EOF'\n"
             "import sys\n"
             "sys.path.insert(0, '" VOLTEX_SOURCE_DIR "/scripts')\n"
             "import plot_trace as p\n"
             "series = p.read_series(open('long.csv'), ['1'], 'time', ['py', 'vy', 'wz'])\n"
             "wide = p.read_series(open('wide.csv'), ['1'], 'time', ['py', 'vy', 'wz'])\n"
             "assert series == wide, 'the wide trace gives other curves'\n"
             "assert sorted(series) == [('ball', 'py'), ('ball', 'vy'), ('ball', 'wz')], sorted(series)\n"
             "assert len(series[('ball', 'py')][0]) == 31\n"
             "fig = p.make_figure(p.load_pyplot(), series, 'time', ['py', 'vy', 'wz'], 't')\n"
             "labels = [ax.get_ylabel() for ax in fig.axes]\n"
             "assert labels == ['position (m)', 'velocity (m/s)', 'angular velocity (rad/s)'], labels\n"
             "assert fig.axes[-1].get_xlabel() == 'time (s)', fig.axes[-1].get_xlabel()\n"
             "legends = [[t.get_text() for t in ax.get_legend().get_texts()] for ax in fig.axes]\n"
             "assert legends == [['ball py'], ['ball vy'], ['ball wz']], legends\n"
             "EOF\n",
             dir, VOLTEX_SIM_PATH, BALL_DROP, VOLTEX_SIM_PATH, BALL_DROP);
    cr_assert_eq(run(cmd), 0, "the figure's check failed: %s", cmd);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(run(cmd), 0);
}

/* Without matplotlib (python3 -S leaves out Debian's packages): one line
 * that names the package, no traceback, no PNG. */
Test(plot_script, a_missing_package_is_one_line, .timeout = 120)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'%s' '%s' --steps 2 -q | /usr/bin/python3 -S '%s' --entity ball --y py -o /tmp/vx_never.png "
             "2>/tmp/vx_plot_err_%d.txt",
             VOLTEX_SIM_PATH, BALL_DROP, PLOT, (int)getpid());
    cr_assert_eq(run(cmd), 1);
    char path[64], text[512] = "";
    snprintf(path, sizeof path, "/tmp/vx_plot_err_%d.txt", (int)getpid());
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    remove(path);
    cr_assert_str_eq(text,
                     "plot_trace.py: needs the Python package matplotlib (Debian: apt-get install python3-matplotlib)\n");
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
