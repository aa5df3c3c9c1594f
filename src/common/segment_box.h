/* Where a segment enters a box, in double (shared by the broad-phase tree's
 * and the meshes' ray walks). */
#ifndef VOLTEX_COMMON_SEGMENT_BOX_H
#define VOLTEX_COMMON_SEGMENT_BOX_H

#include <math.h>
#include <stdbool.h>

#include "voltex/math.h"

/* Whether the segment origin + t d, t in [0, max_t], meets box, and the t at
 * which it enters (0 when it starts inside): the slab test in double, each
 * slab widened by a relative 1e-6 so that a segment grazing a face is never
 * lost to rounding (the exact shape test decides). */
static inline bool vx_segment_box_entry(vx_aabb box, const double origin[3], const double d[3], double max_t,
                                        double *t_enter)
{
    const double lo[3] = {box.min.x, box.min.y, box.min.z}, hi[3] = {box.max.x, box.max.y, box.max.z};
    double t0 = 0.0, t1 = max_t;
    for (int k = 0; k < 3; k++) {
        double pad = 1e-6 * (1.0 + fabs(lo[k]) + fabs(hi[k]));
        double a = lo[k] - pad, b = hi[k] + pad;
        if (d[k] == 0.0) {
            if (origin[k] < a || origin[k] > b) return false;
            continue;
        }
        double ta = (a - origin[k]) / d[k], tb = (b - origin[k]) / d[k];
        if (ta > tb) {
            double swap = ta;
            ta = tb;
            tb = swap;
        }
        if (ta > t0) t0 = ta;
        if (tb < t1) t1 = tb;
        if (t0 > t1) return false;
    }
    *t_enter = t0;
    return true;
}

#endif
