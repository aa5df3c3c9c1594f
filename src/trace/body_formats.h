/* Private to the trace module: the body trace formats behind vx_body_writer
 * (body_writer.c dispatches on w->format), and the JSON pieces the two JSON
 * formats share. */
#ifndef VX_BODY_FORMATS_H
#define VX_BODY_FORMATS_H

#include <stdbool.h>

#include "trace/trace_out.h"
#include "voltex/trace.h"

vx_status vx_body_csv_begin(vx_body_writer *w, vx_error *err);
vx_status vx_body_csv_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states, vx_error *err);

vx_status vx_body_csv_wide_begin(vx_body_writer *w, vx_error *err);
vx_status vx_body_csv_wide_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states, vx_error *err);

vx_status vx_body_json_begin(vx_body_writer *w, vx_error *err);
vx_status vx_body_json_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states,
                             const vx_contact_list *contacts, const vx_query_frame *queries,
                             const vx_joint_state *joints, vx_error *err);
vx_status vx_body_json_end(vx_body_writer *w, vx_error *err);

/* --format glb (body_glb.c): end writes the whole file. */
vx_status vx_body_glb_begin(vx_body_writer *w, vx_error *err);
vx_status vx_body_glb_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states, vx_error *err);
vx_status vx_body_glb_end(vx_body_writer *w, vx_error *err);

vx_status vx_body_jsonl_begin(vx_body_writer *w, vx_error *err);
vx_status vx_body_jsonl_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states,
                              const vx_contact_list *contacts, const vx_query_frame *queries,
                              const vx_joint_state *joints, vx_error *err);

/* {"scene":..,"dt":..,"steps":..,SEPARATOR"entities":[..] without the closing
 * brace; with_colliders gives each entity its "collider". */
void vx_body_json_head(vx_trace_out *o, const vx_trace_info *info, const char *separator, bool with_colliders);
/* One frame's object: {"frame","time","bodies","contacts"[,"queries"][,"joints"]}. */
void vx_body_json_frame_object(vx_trace_out *o, const vx_trace_info *info, int64_t frame,
                               const vx_body_state *states, const vx_contact_list *contacts,
                               const vx_query_frame *queries, const vx_joint_state *joints);
/* Entity i's collider as JSON, in the scene format's terms ({"type":"sphere",
 * "radius":0.5}, a convex hull's corners as "points"), or null without one
 * (or when info has no world). */
void vx_trace_json_entity_collider(vx_trace_out *o, const vx_trace_info *info, size_t i);

#endif
