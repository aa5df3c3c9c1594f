/* Body trace as JSON Lines: a header line (the scene, dt, steps, the
 * entities with their colliders, the queries' names, the joints' names,
 * types and entities), then one line per
 * frame, each the object a frame of the JSON document is. Every line is a
 * whole JSON value, for jq and streaming readers. */
#include "trace/body_formats.h"

vx_status vx_body_jsonl_begin(vx_body_writer *w, vx_error *err)
{
    const vx_trace_info *info = w->info;
    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    vx_body_json_head(&o, info, "", true);
    if (info->query_count > 0) {
        vx_trace_out_str(&o, ",\"queries\":[");
        for (size_t i = 0; i < info->query_count; i++) {
            if (i > 0) vx_trace_out_char(&o, ',');
            vx_trace_out_str(&o, "{\"query\":");
            vx_trace_out_int(&o, (int64_t)i);
            vx_trace_out_str(&o, ",\"name\":");
            vx_trace_out_json_string(&o, info->query_names[i]);
            vx_trace_out_char(&o, '}');
        }
        vx_trace_out_char(&o, ']');
    }
    if (info->joint_count > 0) {
        vx_trace_out_str(&o, ",\"joints\":[");
        for (size_t i = 0; i < info->joint_count; i++) {
            const vx_trace_joint *j = &info->joints[i];
            if (i > 0) vx_trace_out_char(&o, ',');
            vx_trace_out_str(&o, "{\"joint\":");
            vx_trace_out_int(&o, (int64_t)i);
            vx_trace_out_str(&o, ",\"name\":");
            vx_trace_out_json_string(&o, j->name);
            vx_trace_out_str(&o, ",\"type\":");
            vx_trace_out_json_string(&o, vx_joint_type_name(j->type));
            vx_trace_out_str(&o, ",\"entity_a\":");
            vx_trace_out_int(&o, j->entity_a);
            vx_trace_out_str(&o, ",\"entity_b\":");
            vx_trace_out_int(&o, j->entity_b);
            vx_trace_out_char(&o, '}');
        }
        vx_trace_out_char(&o, ']');
    }
    vx_trace_out_str(&o, "}\n");
    return vx_trace_out_flush(&o, false, err);
}

vx_status vx_body_jsonl_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states,
                              const vx_contact_list *contacts, const vx_query_frame *queries,
                              const vx_joint_state *joints, vx_error *err)
{
    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    vx_body_json_frame_object(&o, w->info, frame, states, contacts, queries, joints);
    vx_trace_out_char(&o, '\n');
    return vx_trace_out_flush(&o, false, err);
}
