/* Body trace as one JSON document, streamed: the opening (scene, dt, steps,
 * entities) at begin, one object per frame, the closing at end. Memory does
 * not grow with the number of frames. */
#include <string.h>

#include "trace/body_formats.h"

/* "{"scene":...,"dt":...,"steps":...,<sep>"entities":[...]" (not closed):
 * the opening both JSON formats share; with_colliders adds each entity's
 * collider (JSONL's header). */
void vx_body_json_head(vx_trace_out *o, const vx_trace_info *info, const char *separator, bool with_colliders)
{
    vx_trace_out_str(o, "{\"scene\":");
    vx_trace_out_json_string(o, info->scene_name ? info->scene_name : "");
    vx_trace_out_str(o, ",\"dt\":");
    vx_trace_out_json_float(o, info->dt);
    vx_trace_out_str(o, ",\"steps\":");
    vx_trace_out_int(o, info->steps);
    vx_trace_out_char(o, ',');
    vx_trace_out_str(o, separator);
    vx_trace_out_str(o, "\"entities\":[");
    for (size_t i = 0; i < info->entity_count; i++) {
        if (i > 0) vx_trace_out_char(o, ',');
        vx_trace_out_str(o, "{\"entity\":");
        vx_trace_out_int(o, (int64_t)i);
        vx_trace_out_str(o, ",\"name\":");
        vx_trace_out_json_string(o, info->names[i]);
        if (with_colliders) {
            vx_trace_out_str(o, ",\"collider\":");
            vx_trace_json_entity_collider(o, info, i);
        }
        vx_trace_out_char(o, '}');
    }
    vx_trace_out_char(o, ']');
}

vx_status vx_body_json_begin(vx_body_writer *w, vx_error *err)
{
    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    vx_body_json_head(&o, w->info, "\n", false);
    vx_trace_out_str(&o, ",\n\"frames\":[\n");
    return vx_trace_out_flush(&o, false, err);
}

static void json_quat(vx_trace_out *o, vx_quat q)
{
    vx_trace_out_char(o, '[');
    vx_trace_out_json_float(o, q.x);
    vx_trace_out_char(o, ',');
    vx_trace_out_json_float(o, q.y);
    vx_trace_out_char(o, ',');
    vx_trace_out_json_float(o, q.z);
    vx_trace_out_char(o, ',');
    vx_trace_out_json_float(o, q.w);
    vx_trace_out_char(o, ']');
}

static void json_contact(vx_trace_out *o, const vx_contact *c)
{
    vx_trace_out_str(o, "{\"entity_a\":");
    vx_trace_out_int(o, (int64_t)c->entity_a.index);
    vx_trace_out_str(o, ",\"entity_b\":");
    vx_trace_out_int(o, (int64_t)c->entity_b.index);
    vx_trace_out_str(o, ",\"normal\":");
    vx_trace_out_json_vec3(o, c->normal);
    vx_trace_out_str(o, ",\"depth\":");
    vx_trace_out_json_float(o, c->depth);
    vx_trace_out_str(o, ",\"point_a\":");
    vx_trace_out_json_vec3(o, c->point_on_a);
    vx_trace_out_str(o, ",\"point_b\":");
    vx_trace_out_json_vec3(o, c->point_on_b);
    vx_trace_out_str(o, ",\"impulse\":");
    vx_trace_out_json_float(o, c->impulse);
    vx_trace_out_char(o, '}');
}

/* {"query": i, "hits": [{"entity", "name", "distance", "p", "n"}, ...]} */
static void json_queries(vx_trace_out *o, const vx_trace_info *info, const vx_query_frame *queries)
{
    vx_trace_out_str(o, ",\"queries\":[");
    for (size_t i = 0; i < info->query_count; i++) {
        if (i > 0) vx_trace_out_char(o, ',');
        vx_trace_out_str(o, "{\"query\":");
        vx_trace_out_int(o, (int64_t)i);
        vx_trace_out_str(o, ",\"hits\":[");
        size_t first = queries && i < queries->query_count ? queries->first[i] : 0;
        size_t end = queries && i < queries->query_count ? queries->first[i + 1] : 0;
        for (size_t k = first; k < end; k++) {
            const vx_query_hit *h = &queries->hits[k];
            if (k > first) vx_trace_out_char(o, ',');
            vx_trace_out_str(o, "{\"entity\":");
            vx_trace_out_int(o, (int64_t)h->entity.index);
            vx_trace_out_str(o, ",\"name\":");
            vx_trace_out_json_string(o, h->entity.index < info->entity_count ? info->names[h->entity.index] : "");
            vx_trace_out_str(o, ",\"distance\":");
            vx_trace_out_json_float(o, h->distance);
            vx_trace_out_str(o, ",\"p\":");
            vx_trace_out_json_vec3(o, h->point);
            vx_trace_out_str(o, ",\"n\":");
            vx_trace_out_json_vec3(o, h->normal);
            vx_trace_out_char(o, '}');
        }
        vx_trace_out_str(o, "]}");
    }
    vx_trace_out_char(o, ']');
}

/* {"joint": i, "force", "torque", "position", "speed", "broken"} */
static void json_joints(vx_trace_out *o, const vx_trace_info *info, const vx_joint_state *joints)
{
    vx_trace_out_str(o, ",\"joints\":[");
    for (size_t i = 0; i < info->joint_count; i++) {
        vx_joint_state zero;
        memset(&zero, 0, sizeof zero);
        const vx_joint_state *s = joints ? &joints[i] : &zero;
        if (i > 0) vx_trace_out_char(o, ',');
        vx_trace_out_str(o, "{\"joint\":");
        vx_trace_out_int(o, (int64_t)i);
        vx_trace_out_str(o, ",\"force\":");
        vx_trace_out_json_vec3(o, s->force);
        vx_trace_out_str(o, ",\"torque\":");
        vx_trace_out_json_vec3(o, s->torque);
        vx_trace_out_str(o, ",\"position\":");
        vx_trace_out_json_float(o, s->position);
        vx_trace_out_str(o, ",\"speed\":");
        vx_trace_out_json_float(o, s->speed);
        vx_trace_out_str(o, s->broken ? ",\"broken\":true}" : ",\"broken\":false}");
    }
    vx_trace_out_char(o, ']');
}

/* {"frame":k,"time":t,"bodies":[...],"contacts":[...],"queries":[...],"joints":[...]}:
 * a frame of the JSON document, and a line of JSONL. */
void vx_body_json_frame_object(vx_trace_out *o, const vx_trace_info *info, int64_t frame,
                               const vx_body_state *states, const vx_contact_list *contacts,
                               const vx_query_frame *queries, const vx_joint_state *joints)
{
    vx_trace_out_str(o, "{\"frame\":");
    vx_trace_out_int(o, frame);
    vx_trace_out_str(o, ",\"time\":");
    vx_trace_out_json_float(o, vx_trace_frame_time(frame, info->dt));
    vx_trace_out_str(o, ",\"bodies\":[");
    for (size_t i = 0; i < info->entity_count; i++) {
        const vx_body_state *s = &states[i];
        if (i > 0) vx_trace_out_char(o, ',');
        vx_trace_out_str(o, "{\"entity\":");
        vx_trace_out_int(o, (int64_t)i);
        vx_trace_out_str(o, ",\"p\":");
        vx_trace_out_json_vec3(o, s->p);
        vx_trace_out_str(o, ",\"q\":");
        json_quat(o, s->q);
        vx_trace_out_str(o, ",\"v\":");
        vx_trace_out_json_vec3(o, s->v);
        vx_trace_out_str(o, ",\"w\":");
        vx_trace_out_json_vec3(o, s->w);
        vx_trace_out_char(o, '}');
    }
    vx_trace_out_str(o, "],\"contacts\":[");
    size_t count = contacts ? contacts->count : 0;
    for (size_t i = 0; i < count; i++) {
        if (i > 0) vx_trace_out_char(o, ',');
        json_contact(o, &contacts->items[i]);
    }
    vx_trace_out_char(o, ']');
    if (info->query_count > 0) json_queries(o, info, queries);
    if (info->joint_count > 0) json_joints(o, info, joints);
    vx_trace_out_char(o, '}');
}

vx_status vx_body_json_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states,
                             const vx_contact_list *contacts, const vx_query_frame *queries,
                             const vx_joint_state *joints, vx_error *err)
{
    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    if (w->frames_written > 0) vx_trace_out_str(&o, ",\n");
    vx_body_json_frame_object(&o, w->info, frame, states, contacts, queries, joints);
    return vx_trace_out_flush(&o, false, err);
}

vx_status vx_body_json_end(vx_body_writer *w, vx_error *err)
{
    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    vx_trace_out_str(&o, w->frames_written > 0 ? "\n]}\n" : "]}\n");
    return vx_trace_out_flush(&o, true, err);
}
