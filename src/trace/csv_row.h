/* Private to the trace module: the pieces both CSV writers build rows from.
 * A row is assembled in local buffers and handed over in a few appends, far
 * fewer calls than one per field. */
#ifndef VX_CSV_ROW_H
#define VX_CSV_ROW_H

#include <inttypes.h>
#include <stdio.h>

#include "voltex/trace.h"

#define VX_CSV_NUMBER_ROOM 32 /* vx_format_float writes straight in with 32 bytes */

/* ",f" at row + at; returns the new length. */
static inline size_t vx_csv_put_float(char *row, size_t at, float f)
{
    row[at] = ',';
    return at + 1u + (size_t)vx_format_float(row + at + 1u, VX_CSV_NUMBER_ROOM, f);
}

static inline size_t vx_csv_put_vec3(char *row, size_t at, vx_vec3 v)
{
    at = vx_csv_put_float(row, at, v.x);
    at = vx_csv_put_float(row, at, v.y);
    return vx_csv_put_float(row, at, v.z);
}

/* The 13 numbers of a body state (p, q, v, w), each after a comma. */
#define VX_CSV_STATE_ROOM (13 * 16 + VX_CSV_NUMBER_ROOM) /* the room they take, and the formatter's */
static inline size_t vx_csv_put_state(char *row, size_t at, const vx_body_state *s)
{
    at = vx_csv_put_vec3(row, at, s->p);
    at = vx_csv_put_float(row, at, s->q.x);
    at = vx_csv_put_float(row, at, s->q.y);
    at = vx_csv_put_float(row, at, s->q.z);
    at = vx_csv_put_float(row, at, s->q.w);
    at = vx_csv_put_vec3(row, at, s->v);
    return vx_csv_put_vec3(row, at, s->w);
}

/* The decimal digits of v at row + at; returns the new length. */
static inline size_t vx_csv_put_index(char *row, size_t at, size_t v)
{
    char digits[24];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    while (n > 0) row[at++] = digits[--n];
    return at;
}

/* "frame,time," (the same on every row of a frame) into head; returns its
 * length. head must hold 96 bytes. */
static inline size_t vx_csv_frame_head(char *head, size_t size, int64_t frame, float dt)
{
    int n = snprintf(head, size, "%" PRId64 ",", frame);
    n += vx_format_float(head + n, size - (size_t)n, vx_trace_frame_time(frame, dt));
    head[n++] = ',';
    return (size_t)n;
}

#endif
