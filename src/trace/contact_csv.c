/* Contact trace as CSV: VX_CONTACT_CSV_HEADER, then one row per contact of
 * each written frame, in the list's order (sorted by the step). */
#include "trace/trace_out.h"

#include <inttypes.h>
#include <string.h>

#include "voltex/trace.h"

vx_status vx_contact_writer_begin(vx_contact_writer *w, FILE *out, const vx_trace_info *info, vx_error *err)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->info = info;
    vx_trace_out o;
    vx_trace_out_init(&o, out);
    vx_trace_out_str(&o, VX_CONTACT_CSV_HEADER "\n");
    return vx_trace_out_flush(&o, false, err);
}

static const char *entity_name(const vx_trace_info *info, vx_entity e)
{
    return e.index < info->entity_count ? info->names[e.index] : "";
}

static void csv_float(vx_trace_out *o, float f)
{
    vx_trace_out_char(o, ',');
    vx_trace_out_float(o, f);
}

static void csv_vec3(vx_trace_out *o, vx_vec3 v)
{
    csv_float(o, v.x);
    csv_float(o, v.y);
    csv_float(o, v.z);
}

vx_status vx_contact_writer_frame(vx_contact_writer *w, int64_t frame, const vx_contact_list *contacts,
                                  vx_error *err)
{
    if (!contacts || contacts->count == 0) return VX_OK;
    const vx_trace_info *info = w->info;
    char prefix[64];
    int n = snprintf(prefix, sizeof prefix, "%" PRId64 ",", frame);
    n += vx_format_float(prefix + n, sizeof prefix - (size_t)n, vx_trace_frame_time(frame, info->dt));
    size_t prefix_length = (size_t)n;

    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    for (size_t i = 0; i < contacts->count; i++) {
        const vx_contact *c = &contacts->items[i];
        vx_trace_out_bytes(&o, prefix, prefix_length);
        vx_trace_out_char(&o, ',');
        vx_trace_out_int(&o, (int64_t)c->entity_a.index);
        vx_trace_out_char(&o, ',');
        vx_trace_out_int(&o, (int64_t)c->entity_b.index);
        vx_trace_out_char(&o, ',');
        vx_trace_out_str(&o, entity_name(info, c->entity_a));
        vx_trace_out_char(&o, ',');
        vx_trace_out_str(&o, entity_name(info, c->entity_b));
        csv_vec3(&o, c->normal);
        csv_float(&o, c->depth);
        csv_vec3(&o, c->point_on_a);
        csv_vec3(&o, c->point_on_b);
        csv_float(&o, c->impulse);
        vx_trace_out_char(&o, '\n');
    }
    return vx_trace_out_flush(&o, false, err);
}

vx_status vx_contact_writer_end(vx_contact_writer *w, vx_error *err) { return vx_trace_file_flush(w->out, err); }
