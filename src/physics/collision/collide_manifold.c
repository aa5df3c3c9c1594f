/* Contact manifolds of the oriented narrow phase: flipping A and B, sorting
 * the points, and the closest points of two segments (collide_internal.h;
 * the smallest shared helpers are inline there). */
#include "physics/collision/collide_internal.h"

/* Parallel segments: 1 - cos^2 of the angle between them below this (about
 * 0.03 degrees) has no single closest pair; take the middle of the overlap. */
#define VX_SEGMENT_PARALLEL_SIN_SQ 1e-7f

void vx_manifold_flip(vx_manifold *m)
{
    m->normal = vx_vec3_neg(m->normal);
    for (int i = 0; i < m->count; i++) {
        vx_vec3 tmp = m->points[i].point_a;
        m->points[i].point_a = m->points[i].point_b;
        m->points[i].point_b = tmp;
    }
}

void vx_manifold_sort_by_feature(vx_manifold *m)
{
    /* Insertion sort: at most 4 points, stable, no allocation. */
    for (int i = 1; i < m->count; i++) {
        vx_manifold_point p = m->points[i];
        int j = i - 1;
        while (j >= 0 && m->points[j].feature > p.feature) {
            m->points[j + 1] = m->points[j];
            j--;
        }
        m->points[j + 1] = p;
    }
}

static float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

void vx_closest_segment_params(vx_vec3 center_1, vx_vec3 dir_1, float half_1, vx_vec3 center_2, vx_vec3 dir_2,
                               float half_2, float *s, float *t)
{
    /* Minimise |center_1 + s dir_1 - center_2 - t dir_2|^2 over the box
     * [-half_1, half_1] x [-half_2, half_2] (Ericson, Real-Time Collision
     * Detection 5.1.9, written for centred segments). */
    vx_vec3 r = vx_vec3_sub(center_1, center_2);
    float a = vx_vec3_dot(dir_1, dir_1);
    float e = vx_vec3_dot(dir_2, dir_2);
    float b = vx_vec3_dot(dir_1, dir_2);
    float c = vx_vec3_dot(dir_1, r);
    float f = vx_vec3_dot(dir_2, r);
    if (!(a > 0.0f)) {
        *s = 0.0f;
        *t = e > 0.0f ? clampf(f / e, -half_2, half_2) : 0.0f;
        return;
    }
    if (!(e > 0.0f)) {
        *t = 0.0f;
        *s = clampf(-c / a, -half_1, half_1);
        return;
    }

    float denom = a * e - b * b;
    float s_val;
    if (denom > VX_SEGMENT_PARALLEL_SIN_SQ * a * e) {
        s_val = clampf((b * f - c * e) / denom, -half_1, half_1);
    } else {
        /* Parallel: segment 2 projects onto line 1 as [mid - w, mid + w];
         * take the middle of its overlap with segment 1 (an end of segment
         * 1 when they do not overlap). */
        float mid = -c / a;
        float w = half_2 * fabsf(b) / a;
        float lo = vx_collide_maxf(-half_1, mid - w);
        float hi = vx_collide_minf(half_1, mid + w);
        s_val = clampf(0.5f * (lo + hi), -half_1, half_1);
    }
    float t_val = (b * s_val + f) / e;
    if (t_val < -half_2 || t_val > half_2) {
        t_val = clampf(t_val, -half_2, half_2);
        s_val = clampf((b * t_val - c) / a, -half_1, half_1);
    }
    *s = s_val;
    *t = t_val;
}
