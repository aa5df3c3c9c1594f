/* Narrow phase for two axis-aligned boxes: the separating-axis test on the
 * three world axes, one contact on the axis of least overlap.
 *
 * Feature id: axis * 2 + (sign < 0), where axis (0 = x, 1 = y, 2 = z) is the
 * axis of least overlap and sign the direction of the normal along it: 0 for
 * +x, 1 for -x, 2 for +y, ... 5 for -z. */
#include "voltex/reference.h"

#include <string.h>

bool vx_box_vs_box(vx_vec3 pos_a, vx_vec3 half_a, vx_vec3 pos_b, vx_vec3 half_b, vx_contact_geom *out)
{
    int best_axis = -1;
    float best_overlap = 0.0f;
    for (int axis = 0; axis < 3; axis++) {
        float d = vx_vec3_get(pos_b, axis) - vx_vec3_get(pos_a, axis);
        float overlap = (vx_vec3_get(half_a, axis) + vx_vec3_get(half_b, axis)) - fabsf(d);
        if (!(overlap > 0.0f)) return false; /* a separating (or touching) axis */
        if (best_axis < 0 || overlap < best_overlap) {
            best_axis = axis; /* strict <: ties keep the lowest axis */
            best_overlap = overlap;
        }
    }

    float pa = vx_vec3_get(pos_a, best_axis);
    float pb = vx_vec3_get(pos_b, best_axis);
    float sign = pb < pa ? -1.0f : 1.0f; /* equal centres: + by convention */

    /* On the two other axes the point is the middle of the overlap interval;
     * on the normal's axis each point sits on its own box's face. */
    vx_vec3 point = vx_vec3_zero();
    for (int axis = 0; axis < 3; axis++) {
        if (axis == best_axis) continue;
        float lo = fmaxf(vx_vec3_get(pos_a, axis) - vx_vec3_get(half_a, axis),
                         vx_vec3_get(pos_b, axis) - vx_vec3_get(half_b, axis));
        float hi = fminf(vx_vec3_get(pos_a, axis) + vx_vec3_get(half_a, axis),
                         vx_vec3_get(pos_b, axis) + vx_vec3_get(half_b, axis));
        vx_vec3_set(&point, axis, 0.5f * (lo + hi));
    }
    vx_vec3 point_a = point;
    vx_vec3 point_b = point;
    vx_vec3_set(&point_a, best_axis, pa + sign * vx_vec3_get(half_a, best_axis));
    vx_vec3_set(&point_b, best_axis, pb - sign * vx_vec3_get(half_b, best_axis));

    vx_vec3 n = vx_vec3_zero();
    vx_vec3_set(&n, best_axis, sign);

    memset(out, 0, sizeof *out);
    out->normal = n;
    out->depth = best_overlap;
    out->point_a = point_a;
    out->point_b = point_b;
    out->feature = (uint32_t)(best_axis * 2 + (sign < 0.0f ? 1 : 0));
    return true;
}
