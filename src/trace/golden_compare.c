/* Compares a run's body states with a golden body trace, frame by frame, as
 * the run goes: the golden's rows (golden_csv.c, golden_json.c) lined up
 * with the run's entities, every number within tolerance + rtol * |golden|.
 * After a difference in the numbers the comparison goes on, counting, so the
 * caller can sum the differences up; rows that do not line up end it. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/golden_source.h"

static const char *const column_names[VX_GOLDEN_COLUMNS] = {
    "time", "px", "py", "pz", "qx", "qy", "qz", "qw", "vx", "vy", "vz", "wx", "wy", "wz",
};

const char *vx_golden_column_name(int column)
{
    return column >= 0 && column < VX_GOLDEN_COLUMNS ? column_names[column] : "?";
}

struct vx_golden {
    char *path;
    vx_golden_source *source;
    vx_golden_tolerance tolerance;
    vx_golden_row row;     /* the row read ahead, when have_row */
    bool have_row;
    bool ended;            /* the source said VX_GOLDEN_END */
    bool out_of_step;
    vx_error stuck;        /* the error every call repeats once out of step or failed */
    int64_t last_frame;    /* last frame checked, -1 before the first */
    vx_golden_summary summary;
    double *max_difference;
    int64_t *max_frame;
};

void vx_golden_row_place(const vx_golden_source *s, const vx_golden_row *row, char *buf, size_t size)
{
    if (row->line > 0) snprintf(buf, size, "%s:%ld", s->path, row->line);
    else snprintf(buf, size, "%s: frames[%ld]", s->path, row->item);
}

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

/* The first character that is not white space, or EOF; the file is rewound. */
static int first_character(FILE *f)
{
    int c;
    do c = getc(f);
    while (c == ' ' || c == '\t' || c == '\r' || c == '\n');
    rewind(f);
    return c;
}

vx_status vx_golden_open(vx_golden **out, const char *path, vx_golden_tolerance tolerance, vx_error *err)
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
    g->tolerance = tolerance;
    g->last_frame = -1;
    g->summary.first_frame = -1;
    g->summary.last_frame = -1;
    FILE *f = fopen(path, "r");
    if (!f) {
        vx_status st = vx_error_set(err, VX_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
        vx_golden_close(g);
        return st;
    }
    vx_status st = first_character(f) == '{' ? vx_golden_json_open(&g->source, g->path, f, err)
                                             : vx_golden_csv_open(&g->source, g->path, f, err);
    if (st != VX_OK) {
        vx_golden_close(g);
        return st;
    }
    *out = g;
    return VX_OK;
}

/* Ends the comparison with err's message, repeated by every later call. */
static vx_status stick(vx_golden *g, vx_status st, vx_error *err)
{
    g->out_of_step = true;
    g->stuck.code = st;
    memcpy(g->stuck.message, err->message, sizeof g->stuck.message);
    return st;
}

static vx_status repeat_stuck(const vx_golden *g, vx_error *err)
{
    return vx_error_set(err, g->stuck.code, "%s", g->stuck.message);
}

/* Makes the golden's next row g->row (read ahead); false at its end or on
 * failure (then err is filled and the comparison stuck). */
static bool peek(vx_golden *g, vx_status *st, vx_error *err)
{
    *st = VX_OK;
    if (g->have_row) return true;
    if (g->ended) return false;
    vx_golden_next n = g->source->next(g->source, &g->row, err);
    if (n == VX_GOLDEN_ROW) {
        g->have_row = true;
        return true;
    }
    if (n == VX_GOLDEN_END) {
        g->ended = true;
        return false;
    }
    *st = stick(g, err->code, err);
    return false;
}

static vx_status ensure_summary(vx_golden *g, size_t entity_count, vx_error *err)
{
    if (g->max_difference && g->summary.entity_count >= entity_count) return VX_OK;
    size_t n = (entity_count ? entity_count : 1u) * VX_GOLDEN_COLUMNS;
    double *d = realloc(g->max_difference, n * sizeof *d);
    if (d) g->max_difference = d;
    int64_t *f = realloc(g->max_frame, n * sizeof *f);
    if (f) g->max_frame = f;
    if (!d || !f) return vx_error_set(err, VX_ERR_NOMEM, "%s: out of memory", g->path);
    for (size_t i = g->summary.entity_count * VX_GOLDEN_COLUMNS; i < n; i++) {
        d[i] = 0.0;
        f[i] = -1;
    }
    g->summary.entity_count = entity_count;
    g->summary.max_difference = d;
    g->summary.max_frame = f;
    return VX_OK;
}

static float state_value(const vx_body_state *s, int column, float time)
{
    switch (column) {
    case 0: return time;
    case 1: return s->p.x;
    case 2: return s->p.y;
    case 3: return s->p.z;
    case 4: return s->q.x;
    case 5: return s->q.y;
    case 6: return s->q.z;
    case 7: return s->q.w;
    case 8: return s->v.x;
    case 9: return s->v.y;
    case 10: return s->v.z;
    case 11: return s->w.x;
    case 12: return s->w.y;
    default: return s->w.z;
    }
}

/* Compares the numbers of row with entity i's; the first difference of the
 * frame (when *found is still false) goes to err. */
static void compare_numbers(vx_golden *g, int64_t frame, size_t i, const char *name, const vx_body_state *s,
                            float time, bool *found, vx_error *err)
{
    const vx_golden_row *row = &g->row;
    for (int c = 0; c < VX_GOLDEN_COLUMNS; c++) {
        if (!(row->present & (1u << c))) continue;
        double golden = row->values[c];
        double ours = (double)state_value(s, c, time);
        double diff = fabs(ours - golden);
        double allowed = g->tolerance.tolerance + g->tolerance.rtol * fabs(golden);
        g->summary.numbers++;
        if (diff <= allowed) continue; /* NaN anywhere is a difference */
        g->summary.different++;
        if (g->summary.first_frame < 0) g->summary.first_frame = frame;
        g->summary.last_frame = frame;
        double size = isnan(diff) ? INFINITY : diff;
        size_t at = i * VX_GOLDEN_COLUMNS + (size_t)c;
        if (size > g->max_difference[at]) {
            g->max_difference[at] = size;
            g->max_frame[at] = frame;
        }
        if (*found) continue;
        *found = true;
        char limit[96];
        if (g->tolerance.rtol == 0.0) snprintf(limit, sizeof limit, "%g", g->tolerance.tolerance);
        else snprintf(limit, sizeof limit, "%g + %g * |%g|", g->tolerance.tolerance, g->tolerance.rtol, golden);
        vx_error_set(err, VX_ERR_DIFFERENT, "frame %" PRId64 " entity %zu (%s) %s: %g vs golden %g (diff %g > %s)",
                     frame, i, name, column_names[c], ours, golden, diff, limit);
    }
}

/* Skips the golden's frames that the run does not write (a run with --every
 * against a golden of every frame), up to frame; false when the golden has
 * no frame there (err filled). */
static bool skip_to(vx_golden *g, int64_t frame, vx_status *st, vx_error *err)
{
    char at[600];
    while (peek(g, st, err)) {
        if (g->row.frame >= frame) break;
        if (g->row.frame <= g->last_frame) {
            vx_golden_row_place(g->source, &g->row, at, sizeof at);
            vx_error_set(err, VX_ERR_DIFFERENT, "frame %" PRId64 ": golden has another row of frame %" PRId64
                         " here (entity %" PRId64 ", %s)", g->last_frame, g->row.frame, g->row.entity, at);
            *st = stick(g, VX_ERR_DIFFERENT, err);
            return false;
        }
        g->have_row = false;
    }
    if (*st != VX_OK) return false;
    if (!g->have_row) {
        vx_error_set(err, VX_ERR_DIFFERENT, "frame %" PRId64 ": golden trace ends here", frame);
        *st = stick(g, VX_ERR_DIFFERENT, err);
        return false;
    }
    if (g->row.frame > frame) {
        vx_golden_row_place(g->source, &g->row, at, sizeof at);
        vx_error_set(err, VX_ERR_DIFFERENT,
                     "frame %" PRId64 ": golden has no frame %" PRId64 " (its next is frame %" PRId64
                     ", %s: written with another --every?)",
                     frame, frame, g->row.frame, at);
        *st = stick(g, VX_ERR_DIFFERENT, err);
        return false;
    }
    return true;
}

vx_status vx_golden_check_frame(vx_golden *g, int64_t frame, const vx_trace_info *info,
                                const vx_body_state *states, vx_error *err)
{
    if (g->out_of_step) return repeat_stuck(g, err);
    vx_status st = ensure_summary(g, info->entity_count, err);
    if (st != VX_OK) return st;
    if (info->entity_count > 0 && !skip_to(g, frame, &st, err)) return st;
    float time = vx_trace_frame_time(frame, info->dt);
    bool found = false;
    vx_error first;
    vx_error_clear(&first);
    char at[600];
    for (size_t i = 0; i < info->entity_count; i++) {
        if (!peek(g, &st, err)) {
            if (st != VX_OK) return st;
            vx_error_set(err, VX_ERR_DIFFERENT, "frame %" PRId64 ": golden trace ends here", frame);
            return stick(g, VX_ERR_DIFFERENT, err);
        }
        const vx_golden_row *row = &g->row;
        const char *name = info->names[i];
        if (row->frame != frame || row->entity != (int64_t)i) {
            vx_golden_row_place(g->source, row, at, sizeof at);
            vx_error_set(err, VX_ERR_DIFFERENT,
                         "frame %" PRId64 " entity %zu (%s): golden has frame %" PRId64 " entity %" PRId64 " here (%s)",
                         frame, i, name, row->frame, row->entity, at);
            return stick(g, VX_ERR_DIFFERENT, err);
        }
        if (strcmp(row->name, name) != 0) {
            vx_error_set(err, VX_ERR_DIFFERENT, "frame %" PRId64 " entity %zu (%s) name: %s vs golden %s", frame, i,
                         name, name, row->name);
            return stick(g, VX_ERR_DIFFERENT, err);
        }
        compare_numbers(g, frame, i, name, &states[i], time, &found, &first);
        g->have_row = false;
    }
    g->last_frame = frame;
    g->summary.frames++;
    if (!found) return VX_OK;
    return vx_error_set(err, VX_ERR_DIFFERENT, "%s", first.message);
}

bool vx_golden_in_step(const vx_golden *g) { return !g->out_of_step; }

vx_status vx_golden_finish(vx_golden *g, vx_error *err)
{
    if (g->out_of_step) return repeat_stuck(g, err);
    vx_status st;
    if (!peek(g, &st, err)) return st;
    vx_error_set(err, VX_ERR_DIFFERENT, "golden trace has more rows after frame %" PRId64, g->last_frame);
    return stick(g, VX_ERR_DIFFERENT, err);
}

vx_golden_summary vx_golden_get_summary(const vx_golden *g) { return g->summary; }

void vx_golden_close(vx_golden *g)
{
    if (!g) return;
    if (g->source) g->source->close(g->source);
    free(g->max_difference);
    free(g->max_frame);
    free(g->path);
    free(g);
}
