/* Golden-trace comparison (voltex-sim --compare): columns found by name, an
 * absolute tolerance per number, and exact messages for the first difference
 * or a bad golden file. */
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

/* A golden written by the body writer for frames 0..last. */
static void write_golden(char *path, size_t size, int64_t last)
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
    cr_assert_eq(vx_body_writer_begin(&w, f, VX_TRACE_CSV, &info, &err), VX_OK);
    for (int64_t k = 0; k <= last; k++) {
        frame_states(k, s);
        cr_assert_eq(vx_body_writer_frame(&w, k, s, NULL, NULL, NULL, &err), VX_OK);
    }
    cr_assert_eq(vx_body_writer_end(&w, &err), VX_OK);
    cr_assert_eq(fclose(f), 0);
}

/* Checks frames 0..last with the states of frame_states; returns the first
 * status that is not OK (or the finish status) with err filled. */
static vx_status check_run(const char *path, int64_t last, double tolerance, vx_error *err)
{
    vx_golden *g = NULL;
    vx_status st = vx_golden_open(&g, path, err);
    if (st != VX_OK) return st;
    vx_trace_info info = test_info();
    vx_body_state s[2];
    for (int64_t k = 0; k <= last && st == VX_OK; k++) {
        frame_states(k, s);
        st = vx_golden_check_frame(g, k, &info, s, tolerance, err);
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
    cr_assert_eq(vx_golden_open(&g, path, &err), VX_OK, "%s", err.message);
    vx_trace_info info = test_info();
    vx_body_state s[2];
    frame_states(0, s);
    s[1].p.y = 0.4981f;
    cr_assert_eq(vx_golden_check_frame(g, 120, &info, s, 1e-5, &err), VX_ERR_DIFFERENT);
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
    const char *prefix = "frame 1 entity 0 (floor): golden has frame 2 entity 0 here";
    cr_assert_eq(strncmp(err.message, prefix, strlen(prefix)), 0, "%s", err.message);
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
    cr_assert_eq(vx_golden_open(&g, path, &err), VX_ERR_INVALID);
    cr_assert_null(g);
    char expected[256];
    snprintf(expected, sizeof expected, "%s:1: not a body trace (missing column \"frame\")", path);
    cr_assert_str_eq(err.message, expected);
    remove(path);

    /* The contact trace is a CSV too, but not a body trace. */
    write_file(path, sizeof path, VX_CONTACT_CSV_HEADER "\n");
    cr_assert_eq(vx_golden_open(&g, path, &err), VX_ERR_INVALID);
    snprintf(expected, sizeof expected, "%s:1: not a body trace (missing column \"entity\")", path);
    cr_assert_str_eq(err.message, expected);
    remove(path);

    write_file(path, sizeof path, "");
    cr_assert_eq(vx_golden_open(&g, path, &err), VX_ERR_INVALID);
    remove(path);
}

Test(golden, missing_file_cannot_be_read)
{
    vx_golden *g = NULL;
    vx_error err;
    cr_assert_eq(vx_golden_open(&g, "/nonexistent-dir/golden.csv", &err), VX_ERR_IO);
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
    cr_assert_eq(vx_golden_open(&g, path, &err), VX_OK, "%s", err.message);
    vx_trace_info info = test_info();
    vx_body_state s[2];
    frame_states(0, s);
    s[1].p.x = 1000.0f;
    cr_assert_eq(vx_golden_check_frame(g, 0, &info, s, 1e-5, &err), VX_OK, "%s", err.message);
    frame_states(1, s);
    s[1].p.y = 4.5f;
    cr_assert_eq(vx_golden_check_frame(g, 1, &info, s, 1e-5, &err), VX_ERR_DIFFERENT);
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
