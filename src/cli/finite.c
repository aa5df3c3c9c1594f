#include "cli/finite.h"

#include <math.h>

size_t vx_cli_first_nonfinite_body(const vx_body_state *states, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const vx_body_state *b = &states[i];
        if (!(vx_vec3_is_finite(b->p) && vx_quat_is_finite(b->q) && vx_vec3_is_finite(b->v) &&
              vx_vec3_is_finite(b->w)))
            return i;
    }
    return count;
}

size_t vx_cli_first_nonfinite_contact(const vx_contact_list *contacts)
{
    for (size_t i = 0; i < contacts->count; i++) {
        const vx_contact *c = &contacts->items[i];
        if (!(vx_vec3_is_finite(c->normal) && isfinite(c->depth) && vx_vec3_is_finite(c->point_on_a) &&
              vx_vec3_is_finite(c->point_on_b) && isfinite(c->impulse)))
            return i;
    }
    return contacts->count;
}

size_t vx_cli_first_nonfinite_hit(const vx_query_frame *f)
{
    for (size_t i = 0; i < f->hit_count; i++) {
        const vx_query_hit *h = &f->hits[i];
        if (!(isfinite(h->distance) && vx_vec3_is_finite(h->point) && vx_vec3_is_finite(h->normal))) return i;
    }
    return f->hit_count;
}

size_t vx_cli_query_of_hit(const vx_query_frame *f, size_t i)
{
    size_t q = 0;
    while (q + 1 < f->query_count && f->first[q + 1] <= i) q++;
    return q;
}
