/* Compares a run's body states with a golden body trace (CSV), frame by
 * frame, as the run goes. Columns are found by name: a golden needs frame,
 * time, entity and name, and may carry any subset of the numeric columns;
 * unknown columns are ignored. */
#include "trace/csv_reader.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "voltex/trace.h"

#define VX_NO_COLUMN ((size_t)-1)

/* The numeric columns a golden may have, in the order they are compared. */
enum {
    COL_TIME,
    COL_PX, COL_PY, COL_PZ,
    COL_QX, COL_QY, COL_QZ, COL_QW,
    COL_VX, COL_VY, COL_VZ,
    COL_WX, COL_WY, COL_WZ,
    COL_NUMERIC_COUNT
};

static const char *const numeric_names[COL_NUMERIC_COUNT] = {
    "time", "px", "py", "pz", "qx", "qy", "qz", "qw", "vx", "vy", "vz", "wx", "wy", "wz",
};

struct vx_golden {
    char *path;
    vx_csv_reader reader;
    size_t column_count;              /* cells in the header */
    size_t col_frame, col_entity, col_name;
    size_t col_numeric[COL_NUMERIC_COUNT]; /* VX_NO_COLUMN when absent */
    int64_t last_frame;               /* last frame checked, -1 before the first */
};

static size_t find_column(const vx_csv_reader *r, const char *name)
{
    for (size_t i = 0; i < r->cell_count; i++)
        if (strcmp(r->cells[i], name) == 0) return i;
    return VX_NO_COLUMN;
}

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

static vx_status read_error(const vx_golden *g, vx_csv_result result, vx_error *err)
{
    if (result == VX_CSV_NOMEM) return vx_error_set(err, VX_ERR_NOMEM, "%s: out of memory", g->path);
    return vx_error_set(err, VX_ERR_IO, "%s: cannot read: %s", g->path, strerror(errno ? errno : EIO));
}

static vx_status read_header(vx_golden *g, vx_error *err)
{
    vx_csv_result res = vx_csv_reader_next(&g->reader);
    if (res == VX_CSV_END) return vx_error_set(err, VX_ERR_INVALID, "%s:1: not a body trace (empty file)", g->path);
    if (res != VX_CSV_ROW) return read_error(g, res, err);

    static const char *const required[] = {"frame", "time", "entity", "name"};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        if (find_column(&g->reader, required[i]) == VX_NO_COLUMN)
            return vx_error_set(err, VX_ERR_INVALID, "%s:%ld: not a body trace (missing column \"%s\")", g->path,
                                g->reader.line_number, required[i]);
    }
    g->column_count = g->reader.cell_count;
    g->col_frame = find_column(&g->reader, "frame");
    g->col_entity = find_column(&g->reader, "entity");
    g->col_name = find_column(&g->reader, "name");
    for (size_t c = 0; c < COL_NUMERIC_COUNT; c++) g->col_numeric[c] = find_column(&g->reader, numeric_names[c]);
    return VX_OK;
}

vx_status vx_golden_open(vx_golden **out, const char *path, vx_error *err)
{
    *out = NULL;
    vx_golden *g = calloc(1, sizeof *g);
    char *path_copy = copy_string(path);
    if (!g || !path_copy) {
        free(g);
        free(path_copy);
        return vx_error_set(err, VX_ERR_NOMEM, "%s: out of memory", path);
    }
    g->path = path_copy;
    g->last_frame = -1;
    FILE *f = fopen(path, "r");
    if (!f) {
        vx_status st = vx_error_set(err, VX_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
        vx_golden_close(g);
        return st;
    }
    vx_csv_reader_init(&g->reader, f);
    vx_status st = read_header(g, err);
    if (st != VX_OK) {
        vx_golden_close(g);
        return st;
    }
    *out = g;
    return VX_OK;
}

/* Whole cell as a decimal integer. */
static bool parse_integer(const char *s, int64_t *out)
{
    if (*s == '\0') return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end != '\0' || errno != 0 || s[0] == ' ' || s[0] == '\t') return false;
    *out = (int64_t)v;
    return true;
}

/* Whole cell as a number (nan and inf read, and never compare equal). */
static bool parse_number(const char *s, double *out)
{
    if (*s == '\0' || s[0] == ' ' || s[0] == '\t') return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end != '\0') return false;
    *out = v;
    return true;
}

static float state_value(const vx_body_state *s, int column, float time)
{
    switch (column) {
    case COL_TIME: return time;
    case COL_PX: return s->p.x;
    case COL_PY: return s->p.y;
    case COL_PZ: return s->p.z;
    case COL_QX: return s->q.x;
    case COL_QY: return s->q.y;
    case COL_QZ: return s->q.z;
    case COL_QW: return s->q.w;
    case COL_VX: return s->v.x;
    case COL_VY: return s->v.y;
    case COL_VZ: return s->v.z;
    case COL_WX: return s->w.x;
    case COL_WY: return s->w.y;
    default: return s->w.z;
    }
}

static vx_status not_a_number(const vx_golden *g, const char *column, const char *what, vx_error *err)
{
    return vx_error_set(err, VX_ERR_INVALID, "%s:%ld: column %s: not %s", g->path, g->reader.line_number, column,
                        what);
}

/* Compares the golden's current row with entity i of frame. */
static vx_status check_row(vx_golden *g, int64_t frame, size_t i, const char *name, const vx_body_state *s,
                           float time, double tolerance, vx_error *err)
{
    const vx_csv_reader *r = &g->reader;
    if (r->cell_count != g->column_count)
        return vx_error_set(err, VX_ERR_INVALID, "%s:%ld: expected %zu columns, got %zu", g->path, r->line_number,
                            g->column_count, r->cell_count);
    int64_t golden_frame, golden_entity;
    if (!parse_integer(r->cells[g->col_frame], &golden_frame)) return not_a_number(g, "frame", "an integer", err);
    if (!parse_integer(r->cells[g->col_entity], &golden_entity))
        return not_a_number(g, "entity", "an integer", err);
    if (golden_frame != frame || golden_entity != (int64_t)i)
        return vx_error_set(err, VX_ERR_DIFFERENT,
                            "frame %" PRId64 " entity %zu (%s): golden has frame %" PRId64 " entity %" PRId64
                            " here (%s:%ld)",
                            frame, i, name, golden_frame, golden_entity, g->path, r->line_number);
    const char *golden_name = r->cells[g->col_name];
    if (strcmp(golden_name, name) != 0)
        return vx_error_set(err, VX_ERR_DIFFERENT, "frame %" PRId64 " entity %zu (%s) name: %s vs golden %s", frame,
                            i, name, name, golden_name);

    for (int c = 0; c < COL_NUMERIC_COUNT; c++) {
        size_t col = g->col_numeric[c];
        if (col == VX_NO_COLUMN) continue;
        double golden;
        if (!parse_number(r->cells[col], &golden)) return not_a_number(g, numeric_names[c], "a number", err);
        double ours = (double)state_value(s, c, time);
        double diff = fabs(ours - golden);
        if (!(diff <= tolerance)) /* NaN anywhere is a difference */
            return vx_error_set(err, VX_ERR_DIFFERENT, "frame %" PRId64 " entity %zu (%s) %s: %g vs golden %g (diff %g > %g)",
                                frame, i, name, numeric_names[c], ours, golden, diff, tolerance);
    }
    return VX_OK;
}

vx_status vx_golden_check_frame(vx_golden *g, int64_t frame, const vx_trace_info *info,
                                const vx_body_state *states, double tolerance, vx_error *err)
{
    float time = vx_trace_frame_time(frame, info->dt);
    for (size_t i = 0; i < info->entity_count; i++) {
        vx_csv_result res = vx_csv_reader_next(&g->reader);
        if (res == VX_CSV_END)
            return vx_error_set(err, VX_ERR_DIFFERENT, "frame %" PRId64 ": golden trace ends here", frame);
        if (res != VX_CSV_ROW) return read_error(g, res, err);
        vx_status st = check_row(g, frame, i, info->names[i], &states[i], time, tolerance, err);
        if (st != VX_OK) return st;
    }
    g->last_frame = frame;
    return VX_OK;
}

vx_status vx_golden_finish(vx_golden *g, vx_error *err)
{
    vx_csv_result res = vx_csv_reader_next(&g->reader);
    if (res == VX_CSV_END) return VX_OK;
    if (res != VX_CSV_ROW) return read_error(g, res, err);
    return vx_error_set(err, VX_ERR_DIFFERENT, "golden trace has more rows after frame %" PRId64, g->last_frame);
}

void vx_golden_close(vx_golden *g)
{
    if (!g) return;
    vx_csv_reader_close(&g->reader);
    free(g->path);
    free(g);
}
