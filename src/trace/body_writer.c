/* The body trace writer: shared bookkeeping, then the chosen format. */
#include <string.h>

#include "trace/body_formats.h"

vx_status vx_body_writer_begin(vx_body_writer *w, FILE *out, vx_trace_format format, const vx_trace_info *info,
                               vx_error *err)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->format = format;
    w->info = info;
    switch (format) {
    case VX_TRACE_JSON: return vx_body_json_begin(w, err);
    case VX_TRACE_JSONL: return vx_body_jsonl_begin(w, err);
    case VX_TRACE_CSV_WIDE: return vx_body_csv_wide_begin(w, err);
    case VX_TRACE_GLB: return vx_body_glb_begin(w, err);
    case VX_TRACE_CSV:
    default: return vx_body_csv_begin(w, err);
    }
}

vx_status vx_body_writer_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states,
                               const vx_contact_list *contacts, const vx_query_frame *queries,
                               const vx_joint_state *joints, vx_error *err)
{
    vx_status st;
    switch (w->format) {
    case VX_TRACE_JSON: st = vx_body_json_frame(w, frame, states, contacts, queries, joints, err); break;
    case VX_TRACE_JSONL: st = vx_body_jsonl_frame(w, frame, states, contacts, queries, joints, err); break;
    case VX_TRACE_CSV_WIDE: st = vx_body_csv_wide_frame(w, frame, states, err); break;
    case VX_TRACE_GLB: st = vx_body_glb_frame(w, frame, states, err); break;
    case VX_TRACE_CSV:
    default: st = vx_body_csv_frame(w, frame, states, err); break;
    }
    if (st == VX_OK) w->frames_written++;
    return st;
}

vx_status vx_body_writer_end(vx_body_writer *w, vx_error *err)
{
    if (w->format == VX_TRACE_JSON) return vx_body_json_end(w, err);
    if (w->format == VX_TRACE_GLB) return vx_body_glb_end(w, err);
    return vx_trace_file_flush(w->out, err);
}
