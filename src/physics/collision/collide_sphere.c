/* Oriented narrow phase for spheres: sphere against sphere and against an
 * oriented box, as one-point manifolds with a speculative margin.
 *
 * Feature ids:
 *   sphere-sphere: 0 (a sphere has no features).
 *   sphere-box: the box region the sphere touches, in the box's own frame, with
 *     the reference pipeline's code (narrow_sphere.c): (rx + 1) + 3 * (ry + 1) +
 *     9 * (rz + 1), where r_i is -1 / 0 / +1 when the centre lies below /
 *     within / above the box along box axis i. One nonzero r_i is a face, two
 *     an edge, three a corner. A centre inside the box gets the code of the
 *     face it is pushed out through, the same code as just outside that face,
 *     so the id does not change as the sphere sinks in. */
#include "physics/collision/collide_internal.h"

#include <float.h>

#define VX_SPHERE_FEATURE 0u

bool vx_collide_sphere_sphere(vx_vec3 pos_a, float radius_a, vx_vec3 pos_b, float radius_b, float margin,
                              vx_manifold *out)
{
    vx_manifold_reset(out);
    margin = vx_collide_sanitize_margin(margin);

    vx_vec3 d = vx_vec3_sub(pos_b, pos_a);
    float dist_sq = vx_vec3_length_sq(d);
    /* Below FLT_MIN the squared distance has lost its precision (or
     * underflowed): the centres coincide as far as a direction goes. */
    float dist = dist_sq >= FLT_MIN ? sqrtf(dist_sq) : 0.0f;
    float depth = (radius_a + radius_b) - dist;
    if (!(depth > -margin)) return false;

    vx_vec3 n = dist > 0.0f ? vx_vec3_scale(d, 1.0f / dist) : VX_COLLIDE_FALLBACK_NORMAL;
    out->normal = n;
    vx_manifold_push(out, vx_vec3_add(pos_a, vx_vec3_scale(n, radius_a)), vx_vec3_sub(pos_b, vx_vec3_scale(n, radius_b)),
                     depth, VX_SPHERE_FEATURE);
    return true;
}

static uint32_t region_code(const int r[3]) { return (uint32_t)((r[0] + 1) + 3 * (r[1] + 1) + 9 * (r[2] + 1)); }

bool vx_collide_sphere_box(vx_vec3 sphere_pos, float radius, const vx_transform *box, vx_vec3 half_extents,
                           float margin, vx_manifold *out)
{
    vx_manifold_reset(out);
    margin = vx_collide_sanitize_margin(margin);

    vx_obb obb;
    vx_obb_init(&obb, box, half_extents);
    vx_vec3 c = vx_obb_to_local(&obb, sphere_pos);

    /* Closest point of the box to the centre, and the region of the centre. */
    vx_vec3 closest = c;
    int r[3];
    bool outside = false;
    for (int axis = 0; axis < 3; axis++) {
        float ci = vx_vec3_get(c, axis);
        float h = obb.half[axis];
        r[axis] = ci < -h ? -1 : (ci > h ? 1 : 0);
        if (r[axis] != 0) {
            vx_vec3_set(&closest, axis, (float)r[axis] * h);
            outside = true;
        }
    }

    vx_vec3 delta = vx_vec3_sub(closest, c);
    float dist_sq = vx_vec3_length_sq(delta);
    vx_vec3 n_local;
    vx_vec3 on_box;
    float depth;
    if (outside && dist_sq >= FLT_MIN) {
        float dist = sqrtf(dist_sq);
        depth = radius - dist;
        if (!(depth > -margin)) return false;
        n_local = vx_vec3_scale(delta, 1.0f / dist);
        on_box = closest;
    } else {
        /* Centre inside (or on the surface): push out through the face of
         * least penetration; ties go to the lowest axis, then to the + face. */
        int best_axis = 0;
        int best_sign = 1;
        float best_dist = obb.half[0] - c.x;
        for (int axis = 0; axis < 3; axis++) {
            float ci = vx_vec3_get(c, axis);
            float to_plus = obb.half[axis] - ci;
            float to_minus = ci + obb.half[axis];
            if (to_plus < best_dist) {
                best_axis = axis;
                best_sign = 1;
                best_dist = to_plus;
            }
            if (to_minus < best_dist) {
                best_axis = axis;
                best_sign = -1;
                best_dist = to_minus;
            }
        }
        /* Rounding can leave a centre that is "outside" by less than a
         * FLT_MIN-sized gap here: it is on the surface, distance 0. */
        best_dist = vx_collide_maxf(best_dist, 0.0f);
        depth = radius + best_dist;
        if (!(depth > -margin)) return false;
        /* The sphere leaves through the face's outward normal, so the normal
         * from the sphere (A) to the box (B) is the opposite. */
        n_local = vx_vec3_zero();
        vx_vec3_set(&n_local, best_axis, (float)-best_sign);
        on_box = c;
        vx_vec3_set(&on_box, best_axis, (float)best_sign * obb.half[best_axis]);
        r[0] = r[1] = r[2] = 0;
        r[best_axis] = best_sign;
    }

    vx_vec3 n = vx_vec3_zero();
    for (int axis = 0; axis < 3; axis++) n = vx_vec3_add(n, vx_vec3_scale(obb.axis[axis], vx_vec3_get(n_local, axis)));
    out->normal = n;
    vx_manifold_push(out, vx_vec3_add(sphere_pos, vx_vec3_scale(n, radius)), vx_obb_to_world(&obb, on_box), depth,
                     region_code(r));
    return true;
}
