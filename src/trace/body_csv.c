/* Body trace as CSV: VX_BODY_CSV_HEADER, then one row per entity per frame. */
#include <inttypes.h>

#include "trace/body_formats.h"
#include "trace/csv_row.h"
#include "trace/trace_out.h"

vx_status vx_body_csv_begin(vx_body_writer *w, vx_error *err)
{
    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    vx_trace_out_str(&o, VX_BODY_CSV_HEADER "\n");
    return vx_trace_out_flush(&o, false, err);
}

vx_status vx_body_csv_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states, vx_error *err)
{
    const vx_trace_info *info = w->info;
    /* "frame,time," is the same on every row of the frame: format it once. */
    char head[96];
    size_t prefix_length = vx_csv_frame_head(head, sizeof head, frame, info->dt);

    /* the state's numbers and the newline */
    char numbers[VX_CSV_STATE_ROOM + 1];
    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    for (size_t i = 0; i < info->entity_count; i++) {
        const vx_body_state *s = &states[i];
        size_t head_length = vx_csv_put_index(head, prefix_length, i);
        head[head_length++] = ',';
        vx_trace_out_bytes(&o, head, head_length);
        vx_trace_out_str(&o, info->names[i]);
        size_t len = vx_csv_put_state(numbers, 0, s);
        numbers[len++] = '\n';
        vx_trace_out_bytes(&o, numbers, len);
    }
    return vx_trace_out_flush(&o, false, err);
}
