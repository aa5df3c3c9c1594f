/* Line-by-line CSV reading for the golden comparison. */
#include "trace/csv_reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define VX_CSV_MIN_CELLS 32u /* first allocation of the cell array, then doubling */

void vx_csv_reader_init(vx_csv_reader *r, FILE *file)
{
    memset(r, 0, sizeof *r);
    r->file = file;
}

static int push_cell(vx_csv_reader *r, char *cell)
{
    if (r->cell_count == r->cell_capacity) {
        size_t cap = r->cell_capacity ? r->cell_capacity * 2u : VX_CSV_MIN_CELLS;
        char **cells = realloc(r->cells, cap * sizeof *cells);
        if (!cells) return -1;
        r->cells = cells;
        r->cell_capacity = cap;
    }
    r->cells[r->cell_count++] = cell;
    return 0;
}

vx_csv_result vx_csv_reader_next(vx_csv_reader *r)
{
    for (;;) {
        errno = 0;
        ssize_t n = getline(&r->line, &r->line_capacity, r->file);
        if (n < 0) {
            if (ferror(r->file)) return VX_CSV_READ_ERROR;
            if (errno == ENOMEM) return VX_CSV_NOMEM;
            return VX_CSV_END;
        }
        r->line_number++;
        size_t len = (size_t)n;
        if (len > 0 && r->line[len - 1] == '\n') len--;
        if (len > 0 && r->line[len - 1] == '\r') len--;
        r->line[len] = '\0';
        if (len == 0) continue;

        r->cell_count = 0;
        char *cell = r->line;
        for (;;) {
            char *comma = strchr(cell, ',');
            if (comma) *comma = '\0';
            if (push_cell(r, cell) != 0) return VX_CSV_NOMEM;
            if (!comma) break;
            cell = comma + 1;
        }
        return VX_CSV_ROW;
    }
}

void vx_csv_reader_close(vx_csv_reader *r)
{
    if (r->file) fclose(r->file);
    free(r->line);
    free(r->cells);
    memset(r, 0, sizeof *r);
}
