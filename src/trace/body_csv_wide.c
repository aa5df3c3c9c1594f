/* Body trace as wide CSV: one row per frame, "frame,time" then the 13
 * numbers of every entity in scene order, under columns NAME.px ... NAME.wz,
 * so gnuplot and spreadsheets plot a column straight away. */
#include "trace/body_formats.h"
#include "trace/csv_row.h"

static const char *const state_columns[13] = {"px", "py", "pz", "qx", "qy", "qz", "qw",
                                              "vx", "vy", "vz", "wx", "wy", "wz"};

vx_status vx_body_csv_wide_begin(vx_body_writer *w, vx_error *err)
{
    const vx_trace_info *info = w->info;
    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    vx_trace_out_str(&o, "frame,time");
    for (size_t i = 0; i < info->entity_count; i++) {
        for (size_t c = 0; c < 13; c++) {
            vx_trace_out_char(&o, ',');
            vx_trace_out_str(&o, info->names[i]);
            vx_trace_out_char(&o, '.');
            vx_trace_out_str(&o, state_columns[c]);
        }
    }
    vx_trace_out_char(&o, '\n');
    return vx_trace_out_flush(&o, false, err);
}

vx_status vx_body_csv_wide_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states, vx_error *err)
{
    const vx_trace_info *info = w->info;
    char head[96];
    size_t head_length = vx_csv_frame_head(head, sizeof head, frame, info->dt) - 1; /* without its comma */
    char numbers[VX_CSV_STATE_ROOM];
    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    vx_trace_out_bytes(&o, head, head_length);
    for (size_t i = 0; i < info->entity_count; i++)
        vx_trace_out_bytes(&o, numbers, vx_csv_put_state(numbers, 0, &states[i]));
    vx_trace_out_char(&o, '\n');
    return vx_trace_out_flush(&o, false, err);
}
