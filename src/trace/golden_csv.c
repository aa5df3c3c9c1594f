/* Golden rows from a CSV body trace. Columns are found by name. The long
 * layout needs frame, time, entity and name and may carry any subset of the
 * numeric columns (unknown columns are ignored); the wide layout (--layout
 * wide) needs frame and time and gives each entity the columns NAME.px ...
 * NAME.wz it has, the entities numbered in the order they first appear. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/parse_number.h"
#include "trace/csv_reader.h"
#include "trace/golden_source.h"

#define VX_NO_COLUMN ((size_t)-1)

typedef struct {
    char *name;
    size_t cells[VX_GOLDEN_COLUMNS]; /* the header cell of each column, VX_NO_COLUMN when absent */
} wide_entity;

typedef struct {
    vx_golden_source base;
    vx_csv_reader reader;
    size_t column_count;                   /* cells in the header */
    size_t col_frame, col_entity, col_name; /* col_entity VX_NO_COLUMN: the wide layout */
    size_t col_numeric[VX_GOLDEN_COLUMNS];  /* long layout */
    wide_entity *wide;                      /* wide layout: its entities */
    size_t wide_count;
    size_t wide_next;                       /* the next entity of the current line to hand out */
    int64_t line_frame;
    double line_time;
} csv_source;

static size_t find_column(const vx_csv_reader *r, const char *name)
{
    for (size_t i = 0; i < r->cell_count; i++)
        if (strcmp(r->cells[i], name) == 0) return i;
    return VX_NO_COLUMN;
}

static vx_status read_failure(const csv_source *c, vx_csv_result result, vx_error *err)
{
    if (result == VX_CSV_NOMEM) return vx_error_set(err, VX_ERR_NOMEM, "%s: out of memory", c->base.path);
    return vx_error_set(err, VX_ERR_IO, "%s: cannot read: %s", c->base.path, strerror(errno ? errno : EIO));
}

static vx_golden_next not_a(const csv_source *c, const char *column, const char *what, vx_error *err)
{
    vx_error_set(err, VX_ERR_INVALID, "%s:%ld: column %s: not %s", c->base.path, c->reader.line_number, column,
                 what);
    return VX_GOLDEN_FAILED;
}

/* Whole cell as a number (nan and inf read, and never compare equal). */
static bool parse_number(const char *s, double *out)
{
    bool out_of_range; /* a denormal golden number underflows: still the number */
    return vx_parse_double(s, out, &out_of_range);
}

/* The wide layout's column "NAME.COLUMN": the entity's slot (added when
 * new) and the column; false for any other cell. */
static bool wide_cell(csv_source *c, size_t cell, bool *nomem)
{
    const char *text = c->reader.cells[cell];
    const char *dot = strrchr(text, '.');
    if (!dot || dot == text) return false;
    int column = -1;
    for (int k = 1; k < VX_GOLDEN_COLUMNS; k++) /* not time: that is the frame's */
        if (strcmp(dot + 1, vx_golden_column_name(k)) == 0) column = k;
    if (column < 0) return false;
    size_t name_length = (size_t)(dot - text);
    size_t slot = 0;
    while (slot < c->wide_count &&
           !(strlen(c->wide[slot].name) == name_length && memcmp(c->wide[slot].name, text, name_length) == 0))
        slot++;
    if (slot == c->wide_count) {
        wide_entity *grown = realloc(c->wide, (c->wide_count + 1) * sizeof *grown);
        char *name = malloc(name_length + 1);
        if (grown) c->wide = grown;
        if (!grown || !name) {
            free(name);
            *nomem = true;
            return false;
        }
        memcpy(name, text, name_length);
        name[name_length] = '\0';
        c->wide[slot].name = name;
        for (int k = 0; k < VX_GOLDEN_COLUMNS; k++) c->wide[slot].cells[k] = VX_NO_COLUMN;
        c->wide_count++;
    }
    c->wide[slot].cells[column] = cell;
    return true;
}

static vx_status read_header(csv_source *c, vx_error *err)
{
    vx_csv_reader *r = &c->reader;
    vx_csv_result res = vx_csv_reader_next(r);
    if (res == VX_CSV_END) return vx_error_set(err, VX_ERR_INVALID, "%s:1: not a body trace (empty file)", c->base.path);
    if (res != VX_CSV_ROW) return read_failure(c, res, err);
    c->column_count = r->cell_count;
    c->col_frame = find_column(r, "frame");
    c->col_entity = find_column(r, "entity");
    c->col_name = find_column(r, "name");
    for (int k = 0; k < VX_GOLDEN_COLUMNS; k++) c->col_numeric[k] = find_column(r, vx_golden_column_name(k));

    bool wide = false, nomem = false;
    if (c->col_entity == VX_NO_COLUMN && c->col_name == VX_NO_COLUMN)
        for (size_t i = 0; i < r->cell_count && !nomem; i++) wide = wide_cell(c, i, &nomem) || wide;
    if (nomem) return vx_error_set(err, VX_ERR_NOMEM, "%s: out of memory", c->base.path);

    static const char *const required[] = {"frame", "time", "entity", "name"};
    size_t required_count = wide ? 2 : 4;
    for (size_t i = 0; i < required_count; i++) {
        if (find_column(r, required[i]) == VX_NO_COLUMN)
            return vx_error_set(err, VX_ERR_INVALID, "%s:%ld: not a body trace (missing column \"%s\")", c->base.path,
                                r->line_number, required[i]);
    }
    return VX_OK;
}

/* Reads the next line's cells: VX_GOLDEN_ROW when there is one. */
static vx_golden_next next_line(csv_source *c, vx_error *err)
{
    vx_csv_reader *r = &c->reader;
    vx_csv_result res = vx_csv_reader_next(r);
    if (res == VX_CSV_END) return VX_GOLDEN_END;
    if (res != VX_CSV_ROW) {
        read_failure(c, res, err);
        return VX_GOLDEN_FAILED;
    }
    if (r->cell_count != c->column_count) {
        vx_error_set(err, VX_ERR_INVALID, "%s:%ld: expected %zu columns, got %zu", c->base.path, r->line_number,
                     c->column_count, r->cell_count);
        return VX_GOLDEN_FAILED;
    }
    if (!vx_parse_int64(r->cells[c->col_frame], &c->line_frame)) return not_a(c, "frame", "an integer", err);
    return VX_GOLDEN_ROW;
}

/* Fills row's values from the cells named by cells[] (VX_NO_COLUMN: absent). */
static vx_golden_next read_values(csv_source *c, const size_t *cells, vx_golden_row *row, vx_error *err)
{
    row->present = 0;
    for (int k = 0; k < VX_GOLDEN_COLUMNS; k++) {
        if (cells[k] == VX_NO_COLUMN) continue;
        if (!parse_number(c->reader.cells[cells[k]], &row->values[k]))
            return not_a(c, vx_golden_column_name(k), "a number", err);
        row->present |= 1u << k;
    }
    return VX_GOLDEN_ROW;
}

static vx_golden_next next_long(csv_source *c, vx_golden_row *row, vx_error *err)
{
    vx_golden_next n = next_line(c, err);
    if (n != VX_GOLDEN_ROW) return n;
    row->frame = c->line_frame;
    row->line = c->reader.line_number;
    row->item = 0;
    if (!vx_parse_int64(c->reader.cells[c->col_entity], &row->entity)) return not_a(c, "entity", "an integer", err);
    row->name = c->reader.cells[c->col_name];
    return read_values(c, c->col_numeric, row, err);
}

static vx_golden_next next_wide(csv_source *c, vx_golden_row *row, vx_error *err)
{
    if (c->wide_next == 0 || c->wide_next == c->wide_count) {
        vx_golden_next n = next_line(c, err);
        if (n != VX_GOLDEN_ROW) return n;
        if (!parse_number(c->reader.cells[c->col_numeric[0]], &c->line_time)) return not_a(c, "time", "a number", err);
        c->wide_next = 0;
    }
    const wide_entity *e = &c->wide[c->wide_next];
    row->frame = c->line_frame;
    row->entity = (int64_t)c->wide_next;
    row->name = e->name;
    row->line = c->reader.line_number;
    row->item = 0;
    vx_golden_next n = read_values(c, e->cells, row, err);
    row->values[0] = c->line_time;
    row->present |= 1u;
    c->wide_next++;
    return n;
}

static vx_golden_next csv_next(vx_golden_source *s, vx_golden_row *row, vx_error *err)
{
    csv_source *c = (csv_source *)s;
    return c->wide_count > 0 ? next_wide(c, row, err) : next_long(c, row, err);
}

static void csv_close(vx_golden_source *s)
{
    csv_source *c = (csv_source *)s;
    vx_csv_reader_close(&c->reader);
    for (size_t i = 0; i < c->wide_count; i++) free(c->wide[i].name);
    free(c->wide);
    free(c);
}

vx_status vx_golden_csv_open(vx_golden_source **out, const char *path, FILE *f, vx_error *err)
{
    *out = NULL;
    csv_source *c = calloc(1, sizeof *c);
    if (!c) {
        fclose(f);
        return vx_error_set(err, VX_ERR_NOMEM, "%s: out of memory", path);
    }
    c->base.path = path;
    c->base.next = csv_next;
    c->base.close = csv_close;
    vx_csv_reader_init(&c->reader, f);
    vx_status st = read_header(c, err);
    if (st != VX_OK) {
        csv_close(&c->base);
        return st;
    }
    *out = &c->base;
    return VX_OK;
}
