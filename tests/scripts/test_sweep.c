/* scripts/sweep on this machine: a grid and a points file become one CSV row
 * per point, with trace values that free fall predicts, --stats=json fields,
 * failing points kept with their message, the same CSV through GNU parallel
 * and xargs, a plot, and bad input refused before any run (docs/runs.md). */
#include "test_scripts.h"

#include <math.h>

#define SWEEP "cd '%s' && " VX_SCRIPTS "/sweep --sim '" VOLTEX_SIM_PATH "' '" VX_SCENES "/ball_drop.json'"

/* Field `index` of a CSV line (quotes removed; no quote inside a field). */
static void csv_field(const char *line, int index, char *out, size_t size)
{
    const char *p = line;
    for (int i = 0; i < index; i++) {
        bool quoted = false;
        while (*p && *p != '\n' && (quoted || *p != ',')) quoted ^= *p++ == '"';
        cr_assert_eq(*p, ',', "no field %d in %s", index, line);
        p++;
    }
    size_t n = 0;
    for (bool quoted = false; *p && *p != '\n' && (quoted || *p != ','); p++) {
        if (*p == '"') quoted = !quoted;
        else if (n + 1 < size) out[n++] = *p;
    }
    out[n] = '\0';
}

static double csv_number(const char *line, int index)
{
    char cell[128], *end;
    csv_field(line, index, cell, sizeof cell);
    double x = strtod(cell, &end);
    cr_assert(*cell && *end == '\0', "field %d of %s is not a number", index, line);
    return x;
}

/* Line n (0 = header) of text. */
static const char *line_at(const char *text, int n)
{
    for (int i = 0; i < n && text; i++) text = strchr(text, '\n') ? strchr(text, '\n') + 1 : NULL;
    cr_assert(text && *text, "no line %d", n);
    return text;
}

Test(sweep, a_grid_runs_every_point_and_keeps_the_free_fall_of_each, .timeout = 120)
{
    char dir[64];
    vx_scratch_make(dir);
    vx_script_result r = vx_script_run(dir, SWEEP " --grid 'entities[1].rigidbody.gravity_scale=1,0.5' "
                                            "--grid 'dt=0.01:0.02:0.005' -m ball.py@10 -m vy=ball.vy@10 -j 2 "
                                            "-o out.csv -- --steps 12", dir);
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert(strstr(r.err, "sweep: 6 points in ") && strstr(r.err, ": 6 ran, 0 failed, written to out.csv\n"),
              "%s", r.err);
    vx_script_free(&r);
    char path[96];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    char *csv = vx_read_file(path);
    cr_assert_not_null(csv);
    cr_assert(vx_starts_with(csv, "point,entities[1].rigidbody.gravity_scale,dt,ball.py@10,vy,exit,error\n"),
                 "%s", csv);
    const double scales[] = {1, 1, 1, 0.5, 0.5, 0.5}, dts[] = {0.01, 0.015, 0.02, 0.01, 0.015, 0.02};
    for (int i = 0; i < 6; i++) {
        const char *row = line_at(csv, i + 1);
        cr_assert_eq(csv_number(row, 0), i);
        cr_assert_eq(csv_number(row, 1), scales[i]);
        cr_assert_eq(csv_number(row, 2), dts[i]);
        /* semi-implicit Euler from rest: v_k = -g k dt, y_k = y_0 - g dt^2 k (k + 1) / 2 */
        double g = 9.81 * scales[i], dt = dts[i];
        cr_assert_float_eq(csv_number(row, 3), 5.0 - g * dt * dt * 55.0, 2e-6, "%s", row);
        cr_assert_float_eq(csv_number(row, 4), -g * dt * 10.0, 2e-6, "%s", row);
        cr_assert_eq(csv_number(row, 5), 0);
    }
    cr_assert_eq(vx_count_lines(csv, ""), 7, "a header and a row per point: %s", csv);
    free(csv);
    vx_scratch_remove(dir);
}

/* The floor's restitution swept with the ball's at 1 (a pair takes the smaller):
 * the bounce rises to about e^2 of the 4.5 m drop; --stats=json fields. */
Test(sweep, stats_fields_and_values_over_frames, .timeout = 120)
{
    char dir[64];
    vx_scratch_make(dir);
    vx_script_result r = vx_script_run(
        dir, SWEEP " --runner xargs --grid 'entities[0].rigidbody.restitution=0,0.5' -m 'bounce=max(ball.py@60:)' "
                   "-m 'min(ball.py@0:0)' -m 'mean(ball.vy@0:10)' -m steps -m solver.iterations -m moved "
                   "-- --set 'entities[1].rigidbody.restitution=1' --steps 200 --solver iterations=8",
        dir);
    cr_assert_eq(r.code, 0, "%s", r.err);
    cr_assert(vx_starts_with(r.out, "point,entities[0].rigidbody.restitution,bounce,min(ball.py@0:0),mean(ball.vy@0:10),"
                                "steps,solver.iterations,moved,exit,error\n"), "%s", r.out);
    const char *still = line_at(r.out, 1), *bouncy = line_at(r.out, 2);
    cr_assert_lt(csv_number(still, 2) - 0.5, 0.05, "e = 0 does not bounce: %s", still);
    double rise = csv_number(bouncy, 2) - 0.5;
    cr_assert(rise > 0.9 * 1.125 && rise < 1.125, "e = 0.5 comes back near e^2 4.5 m = 1.125 m: %s", bouncy);
    for (int i = 1; i <= 2; i++) {
        const char *row = line_at(r.out, i);
        cr_assert_eq(csv_number(row, 3), 5.0);
        cr_assert_float_eq(csv_number(row, 4), -9.81 * 0.016666668 * 5.0, 1e-5, "the mean of -g k dt, k = 0..10");
        cr_assert_eq(csv_number(row, 5), 200);
        cr_assert_eq(csv_number(row, 6), 8);
        char moved[32];
        csv_field(row, 7, moved, sizeof moved);
        cr_assert_str_eq(moved, "ball");
    }
    vx_script_free(&r);
    vx_scratch_remove(dir);
}

Test(sweep, a_point_that_fails_keeps_its_row_and_the_sweep_exits_1, .timeout = 120)
{
    char dir[64];
    vx_scratch_make(dir);
    vx_script_result r = vx_script_run(
        dir, SWEEP " --runner xargs --grid 'entities[1].rigidbody.restitution=0.5,1.5' -m ball.py@5 -- --steps 5",
        dir);
    cr_assert_eq(r.code, 1, "%s", r.err);
    const char *bad = line_at(r.out, 2);
    cr_assert(strstr(bad, "1,1.5,,2,") == bad, "%s", bad);
    cr_assert(strstr(bad, "entities[1].rigidbody.restitution: must be between 0 and 1\n"), "%s", bad);
    cr_assert(strstr(line_at(r.out, 1), ",0,\n"), "point 0 ran: %s", r.out);
    cr_assert(strstr(r.err, ": 1 ran, 1 failed\n"), "%s", r.err);
    cr_assert(strstr(r.err, "sweep: point 1 (entities[1].rigidbody.restitution=1.5): exit 2: "), "%s", r.err);
    vx_script_free(&r);
    vx_scratch_remove(dir);
}

Test(sweep, gnu_parallel_and_xargs_give_the_same_csv_from_a_grid_and_a_points_file, .timeout = 120)
{
    char dir[64];
    vx_scratch_make(dir);
    char path[96];
    snprintf(path, sizeof path, "%s/points.csv", dir);
    vx_write_file(path, "gravity,entities[1].rigidbody.restitution\n\"[0,-9.81,0]\",0.5\n\"[0,-1.62,0]\",0.25\n");
    const char *args = "--grid 'dt=0.01,0.02' --points points.csv -m ball.py@20 -m max_displacement_m -- --steps 20";
    vx_script_result a = vx_script_run(dir, SWEEP " --runner parallel -j 2 %s", dir, args);
    vx_script_result b = vx_script_run(dir, SWEEP " --runner xargs -j 2 %s", dir, args);
    cr_assert_eq(a.code, 0, "%s", a.err);
    cr_assert_eq(b.code, 0, "%s", b.err);
    cr_assert(strstr(a.err, "(GNU parallel)") && strstr(b.err, "(xargs -P)"));
    cr_assert_str_eq(a.out, b.out);
    cr_assert(vx_starts_with(a.out, "point,dt,gravity,entities[1].rigidbody.restitution,ball.py@20,max_displacement_m,"
                                    "exit,error\n0,0.01,\"[0,-9.81,0]\",0.5,"), "%s", a.out);
    /* the moon's free fall after 20 steps of 0.02 s: 1.62 * 0.0004 * 210 */
    cr_assert_float_eq(csv_number(line_at(a.out, 4), 4), 5.0 - 1.62 * 0.0004 * 210.0, 2e-6, "%s", a.out);
    vx_script_free(&a);
    vx_script_free(&b);
    vx_scratch_remove(dir);
}

Test(sweep, plot_writes_a_png, .timeout = 120)
{
    char dir[64];
    vx_scratch_make(dir);
    vx_script_result r = vx_script_run(dir, SWEEP " --runner xargs --grid 'dt=0.01,0.02' --grid 'solver.substeps=1,2' "
                                            "-m ball.py@5 -m ms_per_step -o s.csv --plot s.png -- --steps 5", dir);
    cr_assert_eq(r.code, 0, "%s", r.err);
    vx_script_free(&r);
    char path[96];
    snprintf(path, sizeof path, "%s/s.png", dir);
    char *png = vx_read_file(path);
    cr_assert(png && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0, "no PNG");
    free(png);
    vx_scratch_remove(dir);
}

static void expect_refused(const char *dir, const char *args, const char *message)
{
    vx_script_result r = vx_script_run(dir, SWEEP " --runner xargs %s -o out.csv", dir, args);
    cr_assert_eq(r.code, 2, "sweep %s: exit %d: %s", args, r.code, r.err);
    char want[1024];
    snprintf(want, sizeof want, "sweep: %s\n", message);
    cr_assert_str_eq(r.err, want, "sweep %s", args);
    char path[96];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    cr_assert(access(path, F_OK) != 0, "sweep %s wrote a CSV", args);
    vx_script_free(&r);
}

Test(sweep, bad_input_is_one_line_with_exit_2_before_any_run, .timeout = 120)
{
    char dir[64];
    vx_scratch_make(dir);
#define GRID "--grid 'entities[1].rigidbody.restitution=0,1' "
    static const char *const cases[][2] = {
        {"--grid 'entities[1].rigidbody.restitutoin=0,1' -m ball.py@1",
         "point 0 (entities[1].rigidbody.restitutoin=0): voltex-sim exit 2: " VX_SCENES
         "/ball_drop.json: entities[1].rigidbody.restitutoin: unknown key (did you mean \"restitution\"?)"},
        {GRID "-m bal.py@last", "--metric bal.py@last: no rows for entity 'bal' in the trace"},
        {GRID "-m ball.pyy@3",
         "--metric ball.pyy@3: no column 'pyy' in the trace (columns: px, py, pz, qx, qy, qz, qw, vx, vy, vz, wx, wy, wz)"},
        {GRID "-m step_ms.medain",
         "--metric step_ms.medain: no field 'medain' in --stats=json step_ms (fields: median, p95, mean, max)"},
        {GRID "-m ball.py@soon", "--metric ball.py@soon: the frame is a number or 'last', like ball.py@300"},
        {GRID "-m 'top=peak(ball.py)'", "--metric top=peak(ball.py): unknown function 'peak' (min, max, mean)"},
        {"--grid 'dt=0.02:0.01:0.005' -m steps",
         "--grid dt=0.02:0.01:0.005: STEP must be non-zero and go from FIRST towards LAST"},
        {"--grid 'dt=0.01,,0.02' -m steps", "--grid dt=0.01,,0.02: an empty value"},
        {"--grid dt -m steps", "--grid dt: expected PATH=FIRST:LAST:STEP or PATH=V1,V2,..."},
        {"-m steps", "give at least one --grid PATH=SPEC or --points FILE"},
        {GRID, "give at least one --metric (a --stats=json field like ms_per_step, or a trace value like ball.py@last)"},
        {GRID "-m steps --tasks 2", "--tasks and --sbatch go with --slurm DIR"},
        {GRID "-m steps -j 0", "expected a whole number >= 1, got '0'"},
        {GRID "-m steps --tasks", "argument --tasks: expected one argument (--help says more)"},
    };
#undef GRID
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) expect_refused(dir, cases[i][0], cases[i][1]);
    vx_scratch_remove(dir);
}
