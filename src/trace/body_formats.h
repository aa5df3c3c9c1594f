/* Private to the trace module: the two body trace formats behind
 * vx_body_writer (body_writer.c dispatches on w->format). */
#ifndef VX_BODY_FORMATS_H
#define VX_BODY_FORMATS_H

#include "voltex/trace.h"

vx_status vx_body_csv_begin(vx_body_writer *w, vx_error *err);
vx_status vx_body_csv_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states, vx_error *err);

vx_status vx_body_json_begin(vx_body_writer *w, vx_error *err);
vx_status vx_body_json_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states,
                             const vx_contact_list *contacts, const vx_query_frame *queries,
                             const vx_joint_state *joints, vx_error *err);
vx_status vx_body_json_end(vx_body_writer *w, vx_error *err);

#endif
