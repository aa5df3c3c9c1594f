/* Query trace as CSV: VX_QUERY_CSV_HEADER, then per written frame and query
 * a row per hit (in the frame's order: by distance, overlaps by entity), or
 * one row with hit 0, entity -1, no name and zeros when nothing was hit. */
#include <string.h>

#include "trace/csv_row.h"
#include "trace/trace_out.h"
#include "voltex/trace.h"

vx_status vx_query_writer_begin(vx_query_writer *w, FILE *out, const vx_trace_info *info, vx_error *err)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->info = info;
    vx_trace_out o;
    vx_trace_out_init(&o, out);
    vx_trace_out_str(&o, VX_QUERY_CSV_HEADER "\n");
    return vx_trace_out_flush(&o, false, err);
}

/* "FRAME,TIME,QUERY,NAME," then the hit's columns. */
static void put_row(vx_trace_out *o, const char *head, size_t head_length, size_t query, const char *name,
                    const vx_trace_info *info, const vx_query_hit *hit)
{
    char row[2 * 24 + 8];
    vx_trace_out_bytes(o, head, head_length);
    size_t len = vx_csv_put_index(row, 0, query);
    row[len++] = ',';
    vx_trace_out_bytes(o, row, len);
    vx_trace_out_str(o, name);
    if (!hit) {
        vx_trace_out_str(o, ",0,-1,,0,0,0,0,0,0,0\n");
        return;
    }
    vx_trace_out_str(o, ",1,");
    len = vx_csv_put_index(row, 0, hit->entity.index);
    row[len++] = ',';
    vx_trace_out_bytes(o, row, len);
    vx_trace_out_str(o, hit->entity.index < info->entity_count ? info->names[hit->entity.index] : "");
    /* 7 numbers of at most 15 characters, their commas, the newline, and the
     * formatter's room after the last one */
    char numbers[7 * 16 + VX_CSV_NUMBER_ROOM];
    len = vx_csv_put_float(numbers, 0, hit->distance);
    len = vx_csv_put_vec3(numbers, len, hit->point);
    len = vx_csv_put_vec3(numbers, len, hit->normal);
    numbers[len++] = '\n';
    vx_trace_out_bytes(o, numbers, len);
}

vx_status vx_query_writer_frame(vx_query_writer *w, int64_t frame, const vx_query_frame *queries, vx_error *err)
{
    const vx_trace_info *info = w->info;
    char head[96];
    size_t head_length = vx_csv_frame_head(head, sizeof head, frame, info->dt);
    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    for (size_t i = 0; i < info->query_count; i++) {
        size_t first = queries && i < queries->query_count ? queries->first[i] : 0;
        size_t end = queries && i < queries->query_count ? queries->first[i + 1] : 0;
        const char *name = info->query_names ? info->query_names[i] : "";
        if (first == end) put_row(&o, head, head_length, i, name, info, NULL);
        for (size_t k = first; k < end; k++) put_row(&o, head, head_length, i, name, info, &queries->hits[k]);
    }
    return vx_trace_out_flush(&o, false, err);
}

vx_status vx_query_writer_end(vx_query_writer *w, vx_error *err) { return vx_trace_file_flush(w->out, err); }
