/* Contact trace as CSV: VX_CONTACT_CSV_HEADER, then one row per contact of
 * each written frame, in the list's order (sorted by the step). */
#include <inttypes.h>
#include <string.h>

#include "trace/csv_row.h"
#include "trace/trace_out.h"
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

vx_status vx_contact_writer_frame(vx_contact_writer *w, int64_t frame, const vx_contact_list *contacts,
                                  vx_error *err)
{
    if (!contacts || contacts->count == 0) return VX_OK;
    const vx_trace_info *info = w->info;
    /* "frame,time," is the same on every row of the frame: format it once. */
    char head[96];
    size_t prefix_length = vx_csv_frame_head(head, sizeof head, frame, info->dt);

    /* 11 numbers of at most 15 characters, their commas, the newline, and
     * the formatter's room after the last one. */
    char numbers[11 * 16 + VX_CSV_NUMBER_ROOM];
    vx_trace_out o;
    vx_trace_out_init(&o, w->out);
    for (size_t i = 0; i < contacts->count; i++) {
        const vx_contact *c = &contacts->items[i];
        size_t head_length = vx_csv_put_index(head, prefix_length, c->entity_a.index);
        head[head_length++] = ',';
        head_length = vx_csv_put_index(head, head_length, c->entity_b.index);
        head[head_length++] = ',';
        vx_trace_out_bytes(&o, head, head_length);
        vx_trace_out_str(&o, entity_name(info, c->entity_a));
        vx_trace_out_char(&o, ',');
        vx_trace_out_str(&o, entity_name(info, c->entity_b));
        size_t len = vx_csv_put_vec3(numbers, 0, c->normal);
        len = vx_csv_put_float(numbers, len, c->depth);
        len = vx_csv_put_vec3(numbers, len, c->point_on_a);
        len = vx_csv_put_vec3(numbers, len, c->point_on_b);
        len = vx_csv_put_float(numbers, len, c->impulse);
        numbers[len++] = '\n';
        vx_trace_out_bytes(&o, numbers, len);
    }
    return vx_trace_out_flush(&o, false, err);
}

vx_status vx_contact_writer_end(vx_contact_writer *w, vx_error *err) { return vx_trace_file_flush(w->out, err); }
