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

static void csv_float(vx_trace_out *o, float f)
{
    vx_trace_out_char(o, ',');
    vx_trace_out_float(o, f);
}

vx_status vx_body_csv_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states, vx_error *err)
{
    const vx_trace_info *info = w->info;
    /* "frame,time," is the same on every row of the frame: format it once. */
    char prefix[64];
    int n = snprintf(prefix, sizeof prefix, "%" PRId64 ",", frame);
    n += vx_format_float(prefix + n, sizeof prefix - (size_t)n, vx_trace_frame_time(frame, info->dt));
    size_t prefix_length = (size_t)n;

    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    for (size_t i = 0; i < info->entity_count; i++) {
        const vx_body_state *s = &states[i];
        vx_trace_out_bytes(&o, prefix, prefix_length);
        vx_trace_out_char(&o, ',');
        vx_trace_out_int(&o, (int64_t)i);
        vx_trace_out_char(&o, ',');
        vx_trace_out_str(&o, info->names[i]);
        csv_float(&o, s->p.x);
        csv_float(&o, s->p.y);
        csv_float(&o, s->p.z);
        csv_float(&o, s->q.x);
        csv_float(&o, s->q.y);
        csv_float(&o, s->q.z);
        csv_float(&o, s->q.w);
        csv_float(&o, s->v.x);
        csv_float(&o, s->v.y);
        csv_float(&o, s->v.z);
        csv_float(&o, s->w.x);
        csv_float(&o, s->w.y);
        csv_float(&o, s->w.z);
        vx_trace_out_char(&o, '\n');
    }
    return vx_trace_out_flush(&o, false, err);
}
