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

/* The contact and query traces: a curve per contact pair (the impulses of a
 * step summed) and per query (its nearest hit, gaps where it hits nothing),
 * checked against physics: the floor's impulse on the bouncing ball is its
 * change of momentum (m dv + m g dt per step, momentum conservation), and
 * the car's forward ray measures the gap to the wall (11.5 - px - 1 m). An
 * unknown column is a one-line error naming the trace's columns. */
Test(plot_script, contact_and_query_traces, .timeout = 120)
{
    char dir[] = "/tmp/vx_plot_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char cmd[6144];
    snprintf(cmd, sizeof cmd,
             "cd %s && '%s' '%s' --steps 120 -q -o body.csv --contacts contacts.csv && "
             "'%s' '" VOLTEX_SOURCE_DIR "/scenes/probes.json' --steps 240 -q -o car.csv --queries queries.csv && "
             "/usr/bin/python3 - <<'EOF'\n"
             "import math, sys\n"
             "sys.path.insert(0, '" VOLTEX_SOURCE_DIR "/scripts')\n"
             "import plot_trace as p\n"
             "c = p.read_series(open('contacts.csv'), ['ball'], 'frame', ['impulse', 'depth'])\n"
             "assert sorted(c) == [('floor/ball', 'depth'), ('floor/ball', 'impulse')], sorted(c)\n"
             "assert c == p.read_series(open('contacts.csv'), ['floor/ball'], 'frame', ['impulse', 'depth'])\n"
             "frames, impulses = c[('floor/ball', 'impulse')]\n"
             "b = p.read_series(open('body.csv'), ['ball'], 'frame', ['vy'])\n"
             "vy = dict(zip(*b[('ball', 'vy')]))\n"
             "dt, g = 1 / 60, 9.81\n"
             "# the first bounce: the steps with contacts from the first on, while the ball goes down or turns\n"
             "first = [(f, j) for f, j in zip(frames, impulses) if f <= frames[0] + 3]\n"
             "total = sum(j for _, j in first)\n"
             "f0, f1 = first[0][0], first[-1][0]\n"
             "expected = (vy[f1] - vy[f0 - 1]) + g * dt * (f1 - f0 + 1)\n"
             "assert total > 10 and abs(total - expected) < 1e-3 * total, (total, expected)\n"
             "q = p.read_series(open('queries.csv'), ['ahead', 'zone'], 'frame', ['distance'])\n"
             "car = dict(zip(*p.read_series(open('car.csv'), ['car'], 'frame', ['px'])[('car', 'px')]))\n"
             "fs, ds = q[('ahead', 'distance')]\n"
             "assert len(fs) == 241, len(fs)\n"
             "hits = [(f, d) for f, d in zip(fs, ds) if not math.isnan(d)]\n"
             "assert len(hits) > 100\n"
             "for f, d in hits[:100]:\n"
             "    assert abs(d - (11.5 - car[f] - 1)) < 1e-3, (f, d, car[f])\n"
             "zone = q[('zone', 'distance')][1]\n"
             "assert any(math.isnan(d) for d in zone), 'the zone is empty at times: gaps'\n"
             "EOF\n"
             "/usr/bin/python3 '%s' contacts.csv -e ball --y nosuch -o never.png 2>err.txt; test $? = 1 && "
             "test ! -e never.png && test $(wc -l < err.txt) = 1 && grep -q \"^plot_trace.py: no column 'nosuch' "
             "in the trace (columns: frame, time, entity_a\" err.txt && "
             "/usr/bin/python3 '%s' queries.csv -e ahead --y nosuch -o never.png 2>err.txt; test $? = 1 && "
             "test $(wc -l < err.txt) = 1 && grep -q \"^plot_trace.py: no column 'nosuch' in the trace "
             "(columns: frame, time, query\" err.txt && "
             "/usr/bin/python3 '%s' contacts.csv -e ball --y impulse --y depth -o contacts.png && test -s contacts.png",
             dir, VOLTEX_SIM_PATH, BALL_DROP, VOLTEX_SIM_PATH, PLOT, PLOT, PLOT);
    cr_assert_eq(run(cmd), 0, "the contact or query check failed: %s", cmd);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(run(cmd), 0);
}
