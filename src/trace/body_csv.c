/* Body trace as CSV: VX_BODY_CSV_HEADER, then one row per entity per frame. */
#include "trace/body_formats.h"
#include "trace/trace_out.h"

#include <inttypes.h>

vx_status vx_body_csv_begin(vx_body_writer *w, vx_error *err)
{
    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    vx_trace_out_str(&o, VX_BODY_CSV_HEADER "\n");
    return vx_trace_out_flush(&o, false, err);
}

/* A row is built in a few local pieces and handed over in three appends
 * (head, name, numbers): far fewer calls than one per field. */
#define VX_CSV_NUMBER_ROOM 32 /* vx_format_float writes straight in with 32 bytes */

/* ",f" at row + at; returns the new length. */
static size_t put_float(char *row, size_t at, float f)
{
    row[at] = ',';
    return at + 1u + (size_t)vx_format_float(row + at + 1u, VX_CSV_NUMBER_ROOM, f);
}

/* The decimal digits of v at row + at; returns the new length. */
static size_t put_index(char *row, size_t at, size_t v)
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

vx_status vx_body_csv_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states, vx_error *err)
{
    const vx_trace_info *info = w->info;
    /* "frame,time," is the same on every row of the frame: format it once. */
    char head[96];
    int n = snprintf(head, sizeof head, "%" PRId64 ",", frame);
    n += vx_format_float(head + n, sizeof head - (size_t)n, vx_trace_frame_time(frame, info->dt));
    head[n++] = ',';
    size_t prefix_length = (size_t)n;

    /* 13 numbers of at most 15 characters, their commas, the newline, and
     * the formatter's room after the last one. */
    char numbers[13 * 16 + VX_CSV_NUMBER_ROOM];
    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    for (size_t i = 0; i < info->entity_count; i++) {
        const vx_body_state *s = &states[i];
        size_t head_length = put_index(head, prefix_length, i);
        head[head_length++] = ',';
        vx_trace_out_bytes(&o, head, head_length);
        vx_trace_out_str(&o, info->names[i]);
        size_t len = 0;
        len = put_float(numbers, len, s->p.x);
        len = put_float(numbers, len, s->p.y);
        len = put_float(numbers, len, s->p.z);
        len = put_float(numbers, len, s->q.x);
        len = put_float(numbers, len, s->q.y);
        len = put_float(numbers, len, s->q.z);
        len = put_float(numbers, len, s->q.w);
        len = put_float(numbers, len, s->v.x);
        len = put_float(numbers, len, s->v.y);
        len = put_float(numbers, len, s->v.z);
        len = put_float(numbers, len, s->w.x);
        len = put_float(numbers, len, s->w.y);
        len = put_float(numbers, len, s->w.z);
        numbers[len++] = '\n';
        vx_trace_out_bytes(&o, numbers, len);
    }
    return vx_trace_out_flush(&o, false, err);
}
