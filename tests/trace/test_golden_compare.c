/* Golden-trace comparison (voltex-sim --compare): columns found by name, an
 * absolute and a relative tolerance per number, exact messages for the first
 * difference or a bad golden file, the summary of every difference, goldens
 * in each format the writers make, and thinned runs against full goldens. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "voltex/voltex.h"

static const char *const names[] = {"floor", "ball"};

static vx_trace_info test_info(void)
{
    vx_trace_info info;
    memset(&info, 0, sizeof info);
    info.scene_name = "t";
    info.dt = 0.5f;
    info.steps = 2;
    info.entity_count = 2;
    info.names = names;
    return info;
}

/* States of frame k: the ball falls, everything else is fixed. */
static void frame_states(int64_t k, vx_body_state s[2])
{
    memset(s, 0, 2 * sizeof *s);
    s[0].p = vx_vec3_make(0.0f, -1.0f, 0.0f);
    s[0].q = vx_quat_identity();
    s[1].p = vx_vec3_make(0.0f, 5.0f - 0.25f * (float)k, 0.0f);
    s[1].q = vx_quat_identity();
    s[1].v = vx_vec3_make(0.0f, -0.5f * (float)k, 0.0f);
}

/* A temporary file holding text; the caller removes it. */
static void write_file(char *path, size_t size, const char *text)
{
    snprintf(path, size, "/tmp/vx_golden_test_XXXXXX");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    cr_assert_eq(fputs(text, f) >= 0, 1);
    cr_assert_eq(fclose(f), 0);
}

/* A golden written by the body writer in format for frames 0..last. */
static void write_golden_as(char *path, size_t size, int64_t last, vx_trace_format format)
{
    snprintf(path, size, "/tmp/vx_golden_test_XXXXXX");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    vx_trace_info info = test_info();
    vx_body_writer w;
    vx_error err;
    vx_body_state s[2];
    cr_assert_eq(vx_body_writer_begin(&w, f, format, &info, &err), VX_OK);
    for (int64_t k = 0; k <= last; k++) {
        frame_states(k, s);
        cr_assert_eq(vx_body_writer_frame(&w, k, s, NULL, NULL, NULL, &err), VX_OK);
    }
    cr_assert_eq(vx_body_writer_end(&w, &err), VX_OK);
    cr_assert_eq(fclose(f), 0);
}

static void write_golden(char *path, size_t size, int64_t last) { write_golden_as(path, size, last, VX_TRACE_CSV); }

/* Checks frames 0..last with the states of frame_states; returns the first
 * status that is not OK (or the finish status) with err filled. */
static vx_golden_tolerance absolute(double tolerance) { return (vx_golden_tolerance){tolerance, 0.0}; }

static vx_status check_run(const char *path, int64_t last, double tolerance, vx_error *err)
{
    vx_golden *g = NULL;
    vx_status st = vx_golden_open(&g, path, absolute(tolerance), err);
    if (st != VX_OK) return st;
    vx_trace_info info = test_info();
    vx_body_state s[2];
    for (int64_t k = 0; k <= last && st == VX_OK; k++) {
        frame_states(k, s);
        st = vx_golden_check_frame(g, k, &info, s, err);
    }
    if (st == VX_OK) st = vx_golden_finish(g, err);
    vx_golden_close(g);
    return st;
}

Test(golden, identical_trace_passes)
{
    char path[64];
    write_golden(path, sizeof path, 2);
    vx_error err;
    vx_error_clear(&err);
    cr_assert_eq(check_run(path, 2, 1e-5, &err), VX_OK, "%s", err.message);
    cr_assert_eq(check_run(path, 2, 0.0, &err), VX_OK, "zero tolerance: exact digits read back exactly");
    remove(path);
}

Test(golden, difference_beyond_tolerance_names_frame_entity_column)
{
    char path[64];
    write_file(path, sizeof path,
               "frame,time,entity,name,px,py,pz,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz\n"
               "120,60,0,floor,0,-1,0,0,0,0,1,0,0,0,0,0,0\n"
               "120,60,1,ball,0,0.5123,0,0,0,0,1,0,0,0,0,0,0\n");
    vx_golden *g = NULL;
    vx_error err;
    cr_assert_eq(vx_golden_open(&g, path, absolute(1e-5), &err), VX_OK, "%s", err.message);
    vx_trace_info info = test_info();
    vx_body_state s[2];
    frame_states(0, s);
    s[1].p.y = 0.4981f;
    cr_assert_eq(vx_golden_check_frame(g, 120, &info, s, &err), VX_ERR_DIFFERENT);
    cr_assert_eq(err.code, VX_ERR_DIFFERENT);
    cr_assert_str_eq(err.message, "frame 120 entity 1 (ball) py: 0.4981 vs golden 0.5123 (diff 0.0142 > 1e-05)");
    vx_golden_close(g);
    remove(path);
}

Test(golden, difference_within_tolerance_passes)
{
    char path[64];
    write_file(path, sizeof path,
               "frame,time,entity,name,px,py,pz,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz\n"
               "0,0,0,floor,0,-1,0,0,0,0,1,0,0,0,0,0,0\n"
               "0,0,1,ball,0,5.000004,0,0,0,0,1,0,0,0,0,0,0\n");
    vx_error err;
    vx_error_clear(&err);
    cr_assert_eq(check_run(path, 0, 1e-5, &err), VX_OK, "%s", err.message);
    cr_assert_eq(check_run(path, 0, 1e-6, &err), VX_ERR_DIFFERENT, "a tighter tolerance sees it");
    cr_assert_str_eq(err.message, "frame 0 entity 1 (ball) py: 5 vs golden 5 (diff 4e-06 > 1e-06)");
    remove(path);
}

Test(golden, golden_shorter_than_the_run)
{
    char path[64];
    write_golden(path, sizeof path, 1);
    vx_error err;
    cr_assert_eq(check_run(path, 2, 1e-5, &err), VX_ERR_DIFFERENT);
    cr_assert_str_eq(err.message, "frame 2: golden trace ends here");
    remove(path);
}

Test(golden, golden_longer_than_the_run)
{
    char path[64];
    write_golden(path, sizeof path, 2);
    vx_error err;
    cr_assert_eq(check_run(path, 1, 1e-5, &err), VX_ERR_DIFFERENT);
    cr_assert_str_eq(err.message, "golden trace has more rows after frame 1");
    remove(path);
}

Test(golden, golden_with_other_frames_is_a_difference)
{
    /* A golden written with --every 2 against a run that writes every frame. */
    char path[64];
    write_file(path, sizeof path,
               "frame,time,entity,name,py\n"
               "0,0,0,floor,-1\n0,0,1,ball,5\n"
               "2,1,0,floor,-1\n2,1,1,ball,4.5\n");
    vx_error err;
    cr_assert_eq(check_run(path, 2, 1e-5, &err), VX_ERR_DIFFERENT);
    char expected[256];
    snprintf(expected, sizeof expected,
             "frame 1: golden has no frame 1 (its next is frame 2, %s:4: written with another --every?)", path);
    cr_assert_str_eq(err.message, expected);
    remove(path);
}

Test(golden, different_name_is_a_difference)
{
    char path[64];
    write_file(path, sizeof path, "frame,time,entity,name\n0,0,0,floor\n0,0,1,box\n");
    vx_error err;
    cr_assert_eq(check_run(path, 0, 1e-5, &err), VX_ERR_DIFFERENT);
    cr_assert_str_eq(err.message, "frame 0 entity 1 (ball) name: ball vs golden box");
    remove(path);
}

Test(golden, bad_header_is_not_a_body_trace)
{
    char path[64];
    write_file(path, sizeof path, "x,y,z\n1,2,3\n");
    vx_golden *g = (vx_golden *)1;
    vx_error err;
    cr_assert_eq(vx_golden_open(&g, path, absolute(1e-5), &err), VX_ERR_INVALID);
    cr_assert_null(g);
    char expected[256];
    snprintf(expected, sizeof expected, "%s:1: not a body trace (missing column \"frame\")", path);
    cr_assert_str_eq(err.message, expected);
    remove(path);

    /* The contact trace is a CSV too, but not a body trace. */
    write_file(path, sizeof path, VX_CONTACT_CSV_HEADER "\n");
    cr_assert_eq(vx_golden_open(&g, path, absolute(1e-5), &err), VX_ERR_INVALID);
    snprintf(expected, sizeof expected, "%s:1: not a body trace (missing column \"entity\")", path);
    cr_assert_str_eq(err.message, expected);
    remove(path);

    write_file(path, sizeof path, "");
    cr_assert_eq(vx_golden_open(&g, path, absolute(1e-5), &err), VX_ERR_INVALID);
    remove(path);
}

Test(golden, missing_file_cannot_be_read)
{
    vx_golden *g = NULL;
    vx_error err;
    cr_assert_eq(vx_golden_open(&g, "/nonexistent-dir/golden.csv", absolute(1e-5), &err), VX_ERR_IO);
    cr_assert_null(g);
    cr_assert_str_eq(err.message, "/nonexistent-dir/golden.csv: cannot read: No such file or directory");
}

Test(golden, a_subset_of_columns_in_any_order_with_extras)
{
    /* Only py (and time) are compared: px is far off and nobody cares; the
     * unknown column "note" is ignored. */
    char path[64];
    write_file(path, sizeof path,
               "note,name,entity,py,time,frame\n"
               "x,floor,0,-1,0,0\nyy,ball,1,5,0,0\n"
               "x,floor,0,-1,0.5,1\nyy,ball,1,4.75,0.5,1\n");
    vx_error err;
    vx_error_clear(&err);
    vx_golden *g = NULL;
    cr_assert_eq(vx_golden_open(&g, path, absolute(1e-5), &err), VX_OK, "%s", err.message);
    vx_trace_info info = test_info();
    vx_body_state s[2];
    frame_states(0, s);
    s[1].p.x = 1000.0f;
    cr_assert_eq(vx_golden_check_frame(g, 0, &info, s, &err), VX_OK, "%s", err.message);
    frame_states(1, s);
    s[1].p.y = 4.5f;
    cr_assert_eq(vx_golden_check_frame(g, 1, &info, s, &err), VX_ERR_DIFFERENT);
    cr_assert_str_eq(err.message, "frame 1 entity 1 (ball) py: 4.5 vs golden 4.75 (diff 0.25 > 1e-05)");
    vx_golden_close(g);
    remove(path);
}

Test(golden, time_is_compared_too)
{
    char path[64];
    write_file(path, sizeof path, "frame,time,entity,name\n0,0,0,floor\n0,0,1,ball\n1,0.25,0,floor\n1,0.25,1,ball\n");
    vx_error err;
    cr_assert_eq(check_run(path, 1, 1e-5, &err), VX_ERR_DIFFERENT);
    cr_assert_str_eq(err.message, "frame 1 entity 0 (floor) time: 0.5 vs golden 0.25 (diff 0.25 > 1e-05)");
    remove(path);
}

Test(golden, nan_in_the_golden_never_matches)
{
    char path[64];
    write_file(path, sizeof path, "frame,time,entity,name,px\n0,0,0,floor,nan\n0,0,1,ball,0\n");
    vx_error err;
    cr_assert_eq(check_run(path, 0, 1e30, &err), VX_ERR_DIFFERENT);
    cr_assert_str_eq(err.message, "frame 0 entity 0 (floor) px: 0 vs golden nan (diff nan > 1e+30)");
    remove(path);
}

Test(golden, a_cell_that_is_not_a_number)
{
    char path[64];
    write_file(path, sizeof path, "frame,time,entity,name,py\n0,0,0,floor,-1\n0,0,1,ball,5x\n");
    vx_error err;
    cr_assert_eq(check_run(path, 0, 1e-5, &err), VX_ERR_INVALID);
    char expected[256];
    snprintf(expected, sizeof expected, "%s:3: column py: not a number", path);
    cr_assert_str_eq(err.message, expected);
    remove(path);

    write_file(path, sizeof path, "frame,time,entity,name,py\n0,0,0,floor,\n");
    cr_assert_eq(check_run(path, 0, 1e-5, &err), VX_ERR_INVALID, "an empty cell is not a number");
    snprintf(expected, sizeof expected, "%s:2: column py: not a number", path);
    cr_assert_str_eq(err.message, expected);
    remove(path);
}

Test(golden, a_row_with_missing_cells)
{
    char path[64];
    write_file(path, sizeof path, "frame,time,entity,name,py\n0,0,0,floor\n");
    vx_error err;
    cr_assert_eq(check_run(path, 0, 1e-5, &err), VX_ERR_INVALID);
    char expected[256];
    snprintf(expected, sizeof expected, "%s:2: expected 5 columns, got 4", path);
    cr_assert_str_eq(err.message, expected);
    remove(path);
}

Test(golden, long_lines_and_crlf_line_ends)
{
    /* An extra column of 200000 characters, and Windows line ends. */
    size_t pad = 200000;
    size_t cap = 3 * pad + 512;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    char *big = malloc(pad + 1);
    cr_assert_not_null(big);
    memset(big, 'z', pad);
    big[pad] = '\0';
    snprintf(text, cap, "frame,time,entity,name,extra,py\r\n0,0,0,floor,%s,-1\r\n0,0,1,ball,%s,5\r\n", big, big);
    char path[64];
    write_file(path, sizeof path, text);
    vx_error err;
    vx_error_clear(&err);
    cr_assert_eq(check_run(path, 0, 1e-5, &err), VX_OK, "%s", err.message);
    remove(path);
    free(big);
    free(text);
}

Test(golden, every_format_the_writers_make_is_a_golden)
{
    const vx_trace_format formats[] = {VX_TRACE_CSV, VX_TRACE_CSV_WIDE, VX_TRACE_JSON, VX_TRACE_JSONL};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        char path[64];
        write_golden_as(path, sizeof path, 4, formats[i]);
        vx_error err;
        vx_error_clear(&err);
        cr_assert_eq(check_run(path, 4, 0.0, &err), VX_OK, "format %d: %s", (int)formats[i], err.message);

        /* the same difference, named the same way, whatever the format */
        vx_golden *g = NULL;
        cr_assert_eq(vx_golden_open(&g, path, absolute(1e-5), &err), VX_OK, "%s", err.message);
        vx_trace_info info = test_info();
        vx_body_state st[2];
        for (int64_t k = 0; k <= 2; k++) {
            frame_states(k, st);
            if (k == 2) st[1].v.y = -0.75f;
            vx_status status = vx_golden_check_frame(g, k, &info, st, &err);
            cr_assert_eq(status, k == 2 ? VX_ERR_DIFFERENT : VX_OK, "format %d frame %d", (int)formats[i], (int)k);
        }
        cr_assert_str_eq(err.message, "frame 2 entity 1 (ball) vy: -0.75 vs golden -1 (diff 0.25 > 1e-05)");
        vx_golden_close(g);
        remove(path);

        /* too short a run: the golden has rows left over */
        write_golden_as(path, sizeof path, 4, formats[i]);
        cr_assert_eq(check_run(path, 3, 0.0, &err), VX_ERR_DIFFERENT);
        cr_assert_str_eq(err.message, "golden trace has more rows after frame 3");
        remove(path);
    }
}

Test(golden, a_thinned_run_against_a_full_golden)
{
    /* voltex-sim --every 3 --steps 7 writes frames 0, 3, 6 and 7 */
    const vx_trace_format formats[] = {VX_TRACE_CSV, VX_TRACE_JSONL};
    for (size_t i = 0; i < 2; i++) {
        char path[64];
        write_golden_as(path, sizeof path, 7, formats[i]);
        vx_golden *g = NULL;
        vx_error err;
        vx_error_clear(&err);
        cr_assert_eq(vx_golden_open(&g, path, absolute(0.0), &err), VX_OK, "%s", err.message);
        vx_trace_info info = test_info();
        vx_body_state st[2];
        const int64_t written[] = {0, 3, 6, 7};
        for (size_t k = 0; k < 4; k++) {
            frame_states(written[k], st);
            cr_assert_eq(vx_golden_check_frame(g, written[k], &info, st, &err), VX_OK, "%s", err.message);
        }
        cr_assert_eq(vx_golden_finish(g, &err), VX_OK, "%s", err.message);
        vx_golden_summary summary = vx_golden_get_summary(g);
        cr_assert_eq(summary.frames, 4);
        cr_assert_eq(summary.numbers, 4u * 2u * VX_GOLDEN_COLUMNS);
        cr_assert_eq(summary.different, 0u);
        vx_golden_close(g);
        remove(path);
    }
}

Test(golden, differences_are_summed_up_and_the_comparison_goes_on)
{
    char path[64];
    write_golden(path, sizeof path, 4);
    vx_golden *g = NULL;
    vx_error err;
    vx_error_clear(&err);
    cr_assert_eq(vx_golden_open(&g, path, absolute(1e-5), &err), VX_OK, "%s", err.message);
    vx_trace_info info = test_info();
    vx_body_state st[2];
    /* the ball is 0.125 m too high from frame 2 on (0.25 at frame 3), and 1 m/s
     * too fast at frame 4 */
    for (int64_t k = 0; k <= 4; k++) {
        frame_states(k, st);
        if (k >= 2) st[1].p.y += k == 3 ? 0.25f : 0.125f;
        if (k == 4) st[1].v.y -= 1.0f;
        vx_status status = vx_golden_check_frame(g, k, &info, st, &err);
        cr_assert_eq(status, k >= 2 ? VX_ERR_DIFFERENT : VX_OK, "frame %d: %s", (int)k, err.message);
        cr_assert(vx_golden_in_step(g), "a difference in the numbers keeps the comparison going");
    }
    cr_assert_str_eq(err.message, "frame 4 entity 1 (ball) py: 4.125 vs golden 4 (diff 0.125 > 1e-05)",
                     "each frame names its own first difference");
    cr_assert_eq(vx_golden_finish(g, &err), VX_OK);
    vx_golden_summary summary = vx_golden_get_summary(g);
    cr_assert_eq(summary.numbers, 5u * 2u * VX_GOLDEN_COLUMNS);
    cr_assert_eq(summary.different, 4u);
    cr_assert_eq(summary.first_frame, 2);
    cr_assert_eq(summary.last_frame, 4);
    cr_assert_eq(summary.entity_count, 2u);
    size_t py = 1 * VX_GOLDEN_COLUMNS + 2, vy = 1 * VX_GOLDEN_COLUMNS + 9;
    cr_assert_float_eq(summary.max_difference[py], 0.25, 1e-12);
    cr_assert_eq(summary.max_frame[py], 3);
    cr_assert_float_eq(summary.max_difference[vy], 1.0, 1e-12);
    cr_assert_eq(summary.max_frame[vy], 4);
    for (size_t c = 0; c < 2 * VX_GOLDEN_COLUMNS; c++) {
        if (c == py || c == vy) continue;
        cr_assert_eq(summary.max_frame[c], -1, "column %zu had no difference", c);
        cr_assert_eq(summary.max_difference[c], 0.0);
    }
    vx_golden_close(g);
    remove(path);
}

Test(golden, rows_out_of_step_end_the_comparison)
{
    char path[64];
    write_file(path, sizeof path, "frame,time,entity,name\n0,0,0,floor\n0,0,1,box\n1,0.5,0,floor\n1,0.5,1,ball\n");
    vx_golden *g = NULL;
    vx_error err;
    cr_assert_eq(vx_golden_open(&g, path, absolute(1e-5), &err), VX_OK, "%s", err.message);
    vx_trace_info info = test_info();
    vx_body_state st[2];
    frame_states(0, st);
    cr_assert_eq(vx_golden_check_frame(g, 0, &info, st, &err), VX_ERR_DIFFERENT);
    cr_assert_not(vx_golden_in_step(g));
    frame_states(1, st);
    cr_assert_eq(vx_golden_check_frame(g, 1, &info, st, &err), VX_ERR_DIFFERENT);
    cr_assert_str_eq(err.message, "frame 0 entity 1 (ball) name: ball vs golden box", "the first message stays");
    cr_assert_eq(vx_golden_finish(g, &err), VX_ERR_DIFFERENT);
    vx_golden_close(g);
    remove(path);
}

Test(golden, relative_tolerance)
{
    char path[64];
    write_file(path, sizeof path, "frame,time,entity,name,py\n0,0,0,floor,1000\n0,0,1,ball,1\n");
    vx_trace_info info = test_info();
    vx_body_state st[2];
    frame_states(0, st);
    st[0].p.y = 1000.5f;
    st[1].p.y = 1.0005f;
    vx_error err;
    vx_golden *g = NULL;
    /* 1e-5 + 1e-3 * 1000 = 1.00001 and 1e-5 + 1e-3 * 1 = 0.00101 */
    cr_assert_eq(vx_golden_open(&g, path, (vx_golden_tolerance){1e-5, 1e-3}, &err), VX_OK);
    cr_assert_eq(vx_golden_check_frame(g, 0, &info, st, &err), VX_OK, "%s", err.message);
    vx_golden_close(g);
    cr_assert_eq(vx_golden_open(&g, path, (vx_golden_tolerance){1e-5, 1e-4}, &err), VX_OK);
    cr_assert_eq(vx_golden_check_frame(g, 0, &info, st, &err), VX_ERR_DIFFERENT);
    cr_assert_str_eq(err.message, "frame 0 entity 0 (floor) py: 1000.5 vs golden 1000 (diff 0.5 > 1e-05 + 0.0001 * |1000|)");
    vx_golden_summary summary = vx_golden_get_summary(g);
    cr_assert_eq(summary.different, 2u, "the ball's 0.0005 is beyond 1e-05 + 1e-4 * 1 too");
    vx_golden_close(g);
    remove(path);
}

Test(golden, a_json_golden_may_be_pretty_printed_and_carry_some_numbers)
{
    char path[64];
    write_file(path, sizeof path,
               "{\n  \"scene\": \"t\",\n  \"entities\": [\n    {\"entity\": 0, \"name\": \"floor\"},\n"
               "    {\"entity\": 1, \"name\": \"ball\"}\n  ],\n  \"frames\": [\n"
               "    {\"frame\": 0, \"bodies\": [{\"entity\": 0, \"p\": [0, -1, 0]}, {\"entity\": 1, \"v\": [0, 0, 0]}]},\n"
               "    {\"frame\": 1, \"time\": 0.5, \"bodies\": [{\"entity\": 0}, {\"entity\": 1, \"p\": [0, 4.5, 0]}]}\n"
               "  ]\n}\n");
    vx_error err;
    vx_error_clear(&err);
    /* frame 0 matches; frame 1 is where the ball differs */
    cr_assert_eq(check_run(path, 1, 0.0, &err), VX_ERR_DIFFERENT);
    cr_assert_str_eq(err.message, "frame 1 entity 1 (ball) py: 4.75 vs golden 4.5 (diff 0.25 > 0)");
    remove(path);
}

/* The message of opening path and checking frames 0 and 1 of it. */
static void json_golden_fails(const char *text, const char *expected_after_path)
{
    char path[64];
    write_file(path, sizeof path, text);
    vx_error err;
    vx_error_clear(&err);
    cr_assert_eq(check_run(path, 1, 1e-5, &err), VX_ERR_INVALID, "%s", text);
    char expected[512];
    snprintf(expected, sizeof expected, "%s%s", path, expected_after_path);
    cr_assert_str_eq(err.message, expected);
    remove(path);
}

Test(golden, a_json_file_that_is_not_a_body_trace)
{
    json_golden_fails("{\"a\": 1}\n", ":1: not a body trace (no \"entities\" array)");
    json_golden_fails("{\"frames\": [\n", ": not a body trace (invalid JSON)");
    json_golden_fails("{\"entities\": [], \"frames\": {}}", ": not a body trace (no \"frames\" array)");
    json_golden_fails("{\"entities\": [{\"entity\": 0, \"name\": \"floor\"}]}\n{\"frame\": 0, \"bodies\": [{\"entity\": 0, "
                      "\"p\": [1, 2]}]}\n",
                      ":2: not a body trace (\"p\" is not an array of 3 numbers)");
    json_golden_fails("{\"entities\": [{\"entity\": 0, \"name\": \"floor\"}]}\n{\"frame\": 0, \"bodies\": [}\n",
                      ":2: not a body trace (invalid JSON)");
    json_golden_fails("{\"entities\": [], \"frames\": [{\"frame\": 0.5, \"bodies\": []}]}",
                      ": frames[0]: not a body trace (a frame without a whole \"frame\" number)");
}

Test(golden, a_wide_golden_names_its_entities_by_column)
{
    char path[64];
    write_file(path, sizeof path, "frame,time,floor.py,ball.py,ball.vy\n0,0,-1,5,0\n1,0.5,-1,4.75,-0.5\n");
    vx_error err;
    vx_error_clear(&err);
    cr_assert_eq(check_run(path, 1, 0.0, &err), VX_OK, "%s", err.message);
    remove(path);
    write_file(path, sizeof path, "frame,time,ball.py,floor.py\n0,0,5,-1\n");
    cr_assert_eq(check_run(path, 0, 0.0, &err), VX_ERR_DIFFERENT);
    cr_assert_str_eq(err.message, "frame 0 entity 0 (floor) name: floor vs golden ball");
    remove(path);
}
