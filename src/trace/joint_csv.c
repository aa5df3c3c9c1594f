/* Joint trace as CSV: VX_JOINT_CSV_HEADER, then per written frame a row per
 * joint in the scene's order (docs/traces.md, "Joint trace"). */
#include <string.h>

#include "trace/csv_row.h"
#include "trace/trace_out.h"
#include "voltex/trace.h"

const char *vx_joint_type_name(vx_joint_type type)
{
    switch (type) {
    case VX_JOINT_BALL: return "ball";
    case VX_JOINT_HINGE: return "hinge";
    case VX_JOINT_SLIDER: return "slider";
    case VX_JOINT_FIXED: return "fixed";
    case VX_JOINT_DISTANCE: return "distance";
    }
    return "";
}

vx_status vx_joint_writer_begin(vx_joint_writer *w, FILE *out, const vx_trace_info *info, vx_error *err)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->info = info;
    vx_trace_out o;
    vx_trace_out_init(&o, out);
    vx_trace_out_str(&o, VX_JOINT_CSV_HEADER "\n");
    return vx_trace_out_flush(&o, false, err);
}

/* An entity index or -1. */
static size_t put_entity(char *row, size_t at, int64_t entity)
{
    row[at++] = ',';
    if (entity < 0) {
        row[at++] = '-';
        row[at++] = '1';
        return at;
    }
    return vx_csv_put_index(row, at, (size_t)entity);
}

vx_status vx_joint_writer_frame(vx_joint_writer *w, int64_t frame, const vx_joint_state *joints, vx_error *err)
{
    const vx_trace_info *info = w->info;
    char head[96];
    size_t head_length = vx_csv_frame_head(head, sizeof head, frame, info->dt);
    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    for (size_t i = 0; i < info->joint_count; i++) {
        const vx_trace_joint *tj = &info->joints[i];
        vx_joint_state zero;
        memset(&zero, 0, sizeof zero);
        const vx_joint_state *s = joints ? &joints[i] : &zero;
        char row[64];
        vx_trace_out_bytes(&o, head, head_length);
        size_t len = vx_csv_put_index(row, 0, i);
        row[len++] = ',';
        vx_trace_out_bytes(&o, row, len);
        vx_trace_out_str(&o, tj->name);
        vx_trace_out_char(&o, ',');
        vx_trace_out_str(&o, vx_joint_type_name(tj->type));
        len = put_entity(row, 0, tj->entity_a);
        len = put_entity(row, len, tj->entity_b);
        vx_trace_out_bytes(&o, row, len);
        /* 8 numbers of at most 15 characters with their commas, the broken
         * flag, the newline, and the formatter's room after the last one */
        char numbers[8 * 16 + 4 + VX_CSV_NUMBER_ROOM];
        len = vx_csv_put_vec3(numbers, 0, s->force);
        len = vx_csv_put_vec3(numbers, len, s->torque);
        len = vx_csv_put_float(numbers, len, s->position);
        len = vx_csv_put_float(numbers, len, s->speed);
        numbers[len++] = ',';
        numbers[len++] = s->broken ? '1' : '0';
        numbers[len++] = '\n';
        vx_trace_out_bytes(&o, numbers, len);
    }
    return vx_trace_out_flush(&o, false, err);
}

vx_status vx_joint_writer_end(vx_joint_writer *w, vx_error *err) { return vx_trace_file_flush(w->out, err); }
