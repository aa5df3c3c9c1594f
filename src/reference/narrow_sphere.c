/* Narrow phase for spheres: sphere against sphere and against an axis-aligned
 * box. Each returns true and fills *out only when the shapes overlap
 * (depth > 0); touching exactly or separated gives false.
 *
 * Feature ids:
 *   sphere-sphere: always 0 (a sphere has no features).
 *   sphere-box: the box region the sphere touches, 0..26 except 13:
 *     (rx + 1) + 3 * (ry + 1) + 9 * (rz + 1), where r_i is -1 / 0 / +1 when
 *     the sphere centre lies below / within / above the box on axis i. One
 *     nonzero r_i is a face, two an edge, three a corner. A centre inside the
 *     box is coded as the face it is pushed out through, the same code as
 *     when it is just outside that face, so the id stays stable as the
 *     sphere sinks in. */
#include "voltex/reference.h"

#include <string.h>

#define VX_SPHERE_FEATURE 0u

bool vx_sphere_vs_sphere(vx_vec3 pos_a, float radius_a, vx_vec3 pos_b, float radius_b, vx_contact_geom *out)
{
    vx_vec3 d = vx_vec3_sub(pos_b, pos_a);
    float dist = vx_vec3_length(d);
    float depth = (radius_a + radius_b) - dist;
    if (!(depth > 0.0f)) return false;

    /* Coincident centres have no direction between them: by convention the
     * normal is +Y (B is pushed up, A down), and depth is the sum of radii. */
    vx_vec3 n = dist > 0.0f ? vx_vec3_scale(d, 1.0f / dist) : vx_vec3_make(0.0f, 1.0f, 0.0f);

    memset(out, 0, sizeof *out);
    out->normal = n;
    out->depth = depth;
    out->point_a = vx_vec3_add(pos_a, vx_vec3_scale(n, radius_a));
    out->point_b = vx_vec3_sub(pos_b, vx_vec3_scale(n, radius_b));
    out->feature = VX_SPHERE_FEATURE;
    return true;
}

static uint32_t region_code(const int r[3]) { return (uint32_t)((r[0] + 1) + 3 * (r[1] + 1) + 9 * (r[2] + 1)); }

/* The centre lies inside the box or on its surface: push the sphere out
 * through the face it is nearest to (least penetration; ties go to the lowest
 * axis, then to the + face). */
static bool sphere_inside_box(vx_vec3 centre, float radius, vx_vec3 box_min, vx_vec3 box_max, vx_contact_geom *out)
{
    int best_axis = 0;
    int best_sign = 1;
    float best_dist = vx_vec3_get(box_max, 0) - vx_vec3_get(centre, 0);
    for (int axis = 0; axis < 3; axis++) {
        float c = vx_vec3_get(centre, axis);
        float to_plus = vx_vec3_get(box_max, axis) - c;
        float to_minus = c - vx_vec3_get(box_min, axis);
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

    /* The face's outward direction is best_sign * e_axis; the sphere leaves
     * that way, so the normal from the sphere (A) to the box (B) is opposite. */
    vx_vec3 n = vx_vec3_zero();
    vx_vec3_set(&n, best_axis, (float)-best_sign);
    vx_vec3 on_face = centre;
    vx_vec3_set(&on_face, best_axis, vx_vec3_get(best_sign > 0 ? box_max : box_min, best_axis));

    int r[3] = {0, 0, 0};
    r[best_axis] = best_sign;

    float depth = radius + best_dist;
    if (!(depth > 0.0f)) return false; /* only a sphere of radius 0 on the surface */
    memset(out, 0, sizeof *out);
    out->normal = n;
    out->depth = depth;
    out->point_a = vx_vec3_add(centre, vx_vec3_scale(n, radius));
    out->point_b = on_face;
    out->feature = region_code(r);
    return true;
}

bool vx_sphere_vs_box(vx_vec3 sphere_pos, float radius, vx_vec3 box_pos, vx_vec3 half_extents,
                      vx_contact_geom *out)
{
    vx_vec3 box_min = vx_vec3_sub(box_pos, half_extents);
    vx_vec3 box_max = vx_vec3_add(box_pos, half_extents);

    /* Closest point of the box to the centre, and the region of the centre. */
    vx_vec3 closest = sphere_pos;
    int r[3];
    bool outside = false;
    for (int axis = 0; axis < 3; axis++) {
        float c = vx_vec3_get(sphere_pos, axis);
        float lo = vx_vec3_get(box_min, axis);
        float hi = vx_vec3_get(box_max, axis);
        r[axis] = c < lo ? -1 : (c > hi ? 1 : 0);
        if (r[axis] != 0) {
            vx_vec3_set(&closest, axis, r[axis] < 0 ? lo : hi);
            outside = true;
        }
    }

    vx_vec3 delta = vx_vec3_sub(closest, sphere_pos);
    float dist = vx_vec3_length(delta);
    /* dist can only be 0 outside the box if the offset underflows; treat that
     * as a centre on the surface. */
    if (!outside || !(dist > 0.0f)) return sphere_inside_box(sphere_pos, radius, box_min, box_max, out);

    float depth = radius - dist;
    if (!(depth > 0.0f)) return false;

    vx_vec3 n = vx_vec3_scale(delta, 1.0f / dist);
    memset(out, 0, sizeof *out);
    out->normal = n;
    out->depth = depth;
    out->point_a = vx_vec3_add(sphere_pos, vx_vec3_scale(n, radius));
    out->point_b = closest;
    out->feature = region_code(r);
    return true;
}
