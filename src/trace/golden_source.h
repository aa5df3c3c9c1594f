/* Private to the trace module: where a golden comparison gets its rows. A
 * golden body trace, whatever its format (CSV long or wide, a JSON document,
 * JSON Lines), is read as a stream of rows, one per entity per frame, in the
 * file's order; golden_compare.c lines them up with the run. */
#ifndef VX_GOLDEN_SOURCE_H
#define VX_GOLDEN_SOURCE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "voltex/trace.h"

typedef struct {
    int64_t frame;
    int64_t entity;
    const char *name;                 /* valid until the next row is read */
    double values[VX_GOLDEN_COLUMNS]; /* time, px .. wz (vx_golden_column_name) */
    uint32_t present;                 /* bit c: the golden has values[c] */
    long line;                        /* 1-based line of the file, 0 when lines do not place it */
    long item;                        /* JSON document: index in "frames" */
} vx_golden_row;

typedef enum { VX_GOLDEN_ROW = 0, VX_GOLDEN_END, VX_GOLDEN_FAILED } vx_golden_next;

typedef struct vx_golden_source vx_golden_source;
struct vx_golden_source {
    const char *path;
    /* The next row; VX_GOLDEN_FAILED with err filled (VX_ERR_INVALID: not a
     * body trace, VX_ERR_IO, VX_ERR_NOMEM). */
    vx_golden_next (*next)(vx_golden_source *s, vx_golden_row *row, vx_error *err);
    void (*close)(vx_golden_source *s);
};

/* "PATH:LINE" or "PATH: frames[i]": where a row is, for messages. */
void vx_golden_row_place(const vx_golden_source *s, const vx_golden_row *row, char *buf, size_t size);

/* A CSV body trace, long (frame, time, entity, name and any numeric
 * columns) or wide (frame, time and NAME.COLUMN for each entity). Takes f. */
vx_status vx_golden_csv_open(vx_golden_source **out, const char *path, FILE *f, vx_error *err);
/* A JSON body trace document, or JSON Lines (a header line, then a line per
 * frame). Takes f. */
vx_status vx_golden_json_open(vx_golden_source **out, const char *path, FILE *f, vx_error *err);

#endif
