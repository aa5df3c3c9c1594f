/* Ray casts and sphere casts against one collider (cast.h).
 *
 * A sphere cast of radius r is a ray cast of its centre against the shape
 * grown by r: a sphere or capsule of radius R + r, a box rounded by r. A ray
 * cast is the same with r = 0. Everything runs in double in the shape's own
 * frame and is rounded to float once, at the end, so the result is the
 * analytic answer for the float inputs to float precision.
 *
 * Choices where the geometry leaves one (shapes are closed sets):
 * - starting inside, on the surface or touching: distance 0, point = origin,
 *   normal = -direction;
 * - tangent: a ray that grazes a sphere, a capsule's end or its side (the
 *   discriminant is exactly 0 in double) hits at the tangent point;
 * - a ray parallel to a box face (a zero direction component in the box's
 *   frame) is inside that slab when |o| <= half extent: a ray in the plane
 *   of a face touches the box and hits where it enters the other slabs;
 *   just outside the plane it misses;
 * - a ray entering a box through an edge or a corner (equal entry times of
 *   several slabs) gets the face normal of the lowest of those axes;
 * - a hit exactly at max_distance counts (compared in double, before
 *   rounding).
 * The rotation is the pose's quaternion normalised in double; a zero or
 * non-finite one counts as the identity, as vx_collide_rotation does.
 * cast_hull.c casts against convex hulls the same way, through the frame and
 * the hit's way back to the world here (cast_internal.h). */
#include "physics/collision/cast.h"

#include <math.h>

#include "common/assert.h"
#include "physics/collision/cast_internal.h"

bool vx_cast_begin(const vx_transform *pose, bool rotated, vx_vec3 origin, vx_vec3 direction, float max_distance,
                   vx_cast_local *local)
{
    if (!(max_distance > 0.0f) || !vx_vec3_is_finite(origin) || !vx_vec3_is_finite(direction)) return false;
    local->pos[0] = pose->position.x;
    local->pos[1] = pose->position.y;
    local->pos[2] = pose->position.z;
    double x = pose->rotation.x, y = pose->rotation.y, z = pose->rotation.z, w = pose->rotation.w;
    double len_sq = x * x + y * y + z * z + w * w;
    if (!rotated || !(len_sq > 0.0) || !isfinite(len_sq)) {
        x = y = z = 0.0;
        w = 1.0;
    } else {
        double inv = 1.0 / sqrt(len_sq);
        x *= inv;
        y *= inv;
        z *= inv;
        w *= inv;
    }
    /* The columns of the rotation matrix of (x, y, z, w). */
    double(*axis)[3] = local->axis;
    axis[0][0] = 1.0 - 2.0 * (y * y + z * z);
    axis[0][1] = 2.0 * (x * y + w * z);
    axis[0][2] = 2.0 * (x * z - w * y);
    axis[1][0] = 2.0 * (x * y - w * z);
    axis[1][1] = 1.0 - 2.0 * (x * x + z * z);
    axis[1][2] = 2.0 * (y * z + w * x);
    axis[2][0] = 2.0 * (x * z + w * y);
    axis[2][1] = 2.0 * (y * z - w * x);
    axis[2][2] = 1.0 - 2.0 * (x * x + y * y);

    double rel[3] = {origin.x - local->pos[0], origin.y - local->pos[1], origin.z - local->pos[2]};
    double dw[3] = {direction.x, direction.y, direction.z};
    for (int i = 0; i < 3; i++) {
        local->o[i] = vx_cast_dot3(axis[i], rel);
        local->d[i] = vx_cast_dot3(axis[i], dw);
    }
    return true;
}

bool vx_cast_end(const vx_cast_local *local, vx_cast_result result, double t, const double n[3], double r,
                 vx_vec3 origin, vx_vec3 direction, float max_distance, vx_cast_hit *hit)
{
    if (result == VX_CAST_MISS) return false;
    if (result == VX_CAST_INSIDE) {
        hit->distance = 0.0f;
        hit->point = origin;
        hit->normal = vx_vec3_neg(direction);
        return true;
    }
    if (!(t <= (double)max_distance)) return false;

    double ow[3] = {origin.x, origin.y, origin.z};
    double dw[3] = {direction.x, direction.y, direction.z};
    double nw[3], len_sq = 0.0;
    for (int w = 0; w < 3; w++) {
        nw[w] = local->axis[0][w] * n[0] + local->axis[1][w] * n[1] + local->axis[2][w] * n[2];
        len_sq += nw[w] * nw[w];
    }
    /* A zero-radius shape hit dead centre has no normal: face the ray. */
    double inv = len_sq > 0.0 ? 1.0 / sqrt(len_sq) : 0.0;
    double p[3];
    for (int w = 0; w < 3; w++) {
        nw[w] = len_sq > 0.0 ? nw[w] * inv : -dw[w];
        p[w] = ow[w] + t * dw[w] - nw[w] * r;
    }
    hit->distance = (float)t;
    hit->point = vx_vec3_make((float)p[0], (float)p[1], (float)p[2]);
    hit->normal = vx_vec3_make((float)nw[0], (float)nw[1], (float)nw[2]);
    return true;
}

/* Entry of the ray o + t d into the capsule around the segment centred at c
 * along local axis k with half length half, radius r; o is outside it. The
 * capsule is the union of its finite cylinder and its two end balls, so the
 * first hit is the earliest of theirs; the cylinder's flat ends lie inside
 * the balls and never come first, so only its side counts. n (unnormalised)
 * points from the segment to the hit. */
static bool capsule_entry(const double o[3], const double d[3], const double c[3], int k, double half, double r,
                          double *t, double n[3])
{
    double m[3] = {o[0] - c[0], o[1] - c[1], o[2] - c[2]};
    bool found = false;

    double m_side[3] = {m[0], m[1], m[2]};
    double d_side[3] = {d[0], d[1], d[2]};
    m_side[k] = 0.0;
    d_side[k] = 0.0;
    double ts;
    if (vx_cast_ball_entry(m_side, d_side, r, &ts) && fabs(m[k] + ts * d[k]) <= half) {
        *t = ts;
        for (int i = 0; i < 3; i++) n[i] = m_side[i] + ts * d_side[i];
        found = true;
    }
    for (int end = -1; end <= 1; end += 2) {
        double m_end[3] = {m[0], m[1], m[2]};
        m_end[k] -= (double)end * half;
        double te;
        if (vx_cast_ball_entry(m_end, d, r, &te) && (!found || te < *t)) {
            *t = te;
            for (int i = 0; i < 3; i++) n[i] = m_end[i] + te * d[i];
            found = true;
        }
    }
    return found;
}

/* Entry of the ray o + t d (t >= 0) into the box |x_i| <= g_i: false when it
 * misses; *axis is -1 when o is inside or on the box, else the axis of the
 * slab entered last (ties: the lowest axis), at *t. A zero direction
 * component leaves the closed slab in or out for good. */
static bool slab_entry(const double o[3], const double d[3], const double g[3], double *t, int *axis)
{
    double t_in = 0.0, t_out = INFINITY;
    int entered = -1;
    for (int i = 0; i < 3; i++) {
        if (d[i] == 0.0) {
            if (o[i] < -g[i] || o[i] > g[i]) return false;
            continue;
        }
        double near_face = d[i] > 0.0 ? -g[i] : g[i];
        double t_near = (near_face - o[i]) / d[i];
        double t_far = (-near_face - o[i]) / d[i];
        if (t_near > t_in) {
            t_in = t_near;
            entered = i;
        }
        if (t_far < t_out) t_out = t_far;
    }
    if (t_in > t_out) return false;
    *t = t_in;
    *axis = entered;
    return true;
}

static vx_cast_result cast_sphere(const double o[3], const double d[3], double radius, double *t, double n[3])
{
    if (vx_cast_dot3(o, o) <= radius * radius) return VX_CAST_INSIDE;
    if (!vx_cast_ball_entry(o, d, radius, t)) return VX_CAST_MISS;
    for (int i = 0; i < 3; i++) n[i] = o[i] + *t * d[i];
    return VX_CAST_HIT;
}

static vx_cast_result cast_capsule(const double o[3], const double d[3], double half_height, double radius, double *t,
                                double n[3])
{
    double y = fmin(fmax(o[1], -half_height), half_height);
    double dy = o[1] - y;
    if (o[0] * o[0] + dy * dy + o[2] * o[2] <= radius * radius) return VX_CAST_INSIDE;
    static const double centre[3] = {0.0, 0.0, 0.0};
    return capsule_entry(o, d, centre, 1, half_height, radius, t, n) ? VX_CAST_HIT : VX_CAST_MISS;
}

/* The box of half extents h rounded by r >= 0 (Ericson, Real-Time Collision
 * Detection 5.5.7): first the box grown by r on every side, which holds the
 * rounded box. Where the ray enters it through a face region (within the
 * box's extent along the other two axes) the two coincide and that is the
 * hit. Elsewhere, until it hits, the ray stays where two or three
 * coordinates are beyond the box's extent (crossing back into a face region
 * inside the grown box means being inside the rounded box), and there the
 * rounded box is the union of the capsules of radius r around the edges: the
 * earliest of the twelve is the hit. */
static vx_cast_result cast_box(const double o[3], const double d[3], const double h[3], double r, double *t,
                            double n[3])
{
    double dist_sq = 0.0;
    for (int i = 0; i < 3; i++) {
        double out = fabs(o[i]) - h[i];
        if (out > 0.0) dist_sq += out * out;
    }
    if (dist_sq <= r * r) return VX_CAST_INSIDE;

    double g[3] = {h[0] + r, h[1] + r, h[2] + r};
    double t_in;
    int axis;
    if (!slab_entry(o, d, g, &t_in, &axis)) return VX_CAST_MISS;
    /* For a ray (r = 0) the grown box is the box and its entry is the hit: no
     * regions to look at. The origin is outside by the distance test, so no
     * slab can hold it; should rounding ever say so, it starts inside (not in
     * capsules of radius 0). */
    if (r == 0.0 && axis < 0) return VX_CAST_INSIDE;
    if (axis >= 0) {
        bool face = true;
        if (r > 0.0)
            for (int j = 0; j < 3; j++)
                if (j != axis && fabs(o[j] + t_in * d[j]) > h[j]) face = false;
        if (face) {
            *t = t_in;
            n[0] = n[1] = n[2] = 0.0;
            n[axis] = d[axis] > 0.0 ? -1.0 : 1.0;
            return VX_CAST_HIT;
        }
    }

    bool found = false;
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        for (int corner = 0; corner < 4; corner++) {
            double c[3];
            c[k] = 0.0;
            c[i] = (corner & 1) ? h[i] : -h[i];
            c[j] = (corner & 2) ? h[j] : -h[j];
            double te, ne[3];
            if (capsule_entry(o, d, c, k, h[k], r, &te, ne) && (!found || te < *t)) {
                *t = te;
                for (int w = 0; w < 3; w++) n[w] = ne[w];
                found = true;
            }
        }
    }
    return found ? VX_CAST_HIT : VX_CAST_MISS;
}

/* The cast of a sphere of radius r >= 0 (a ray for 0) against shape. */
static bool cast_shape(const vx_collider *shape, const vx_transform *pose, vx_vec3 origin, double r,
                       vx_vec3 direction, float max_distance, vx_cast_hit *hit)
{
    vx_cast_local local;
    if (!vx_cast_begin(pose, shape->type != VX_SHAPE_SPHERE, origin, direction, max_distance, &local)) return false;
    const double *o = local.o, *d = local.d;
    double t = 0.0, n[3] = {0.0, 0.0, 0.0};
    vx_cast_result result = VX_CAST_MISS;
    switch (shape->type) {
    case VX_SHAPE_SPHERE: result = cast_sphere(o, d, (double)shape->radius + r, &t, n); break;
    case VX_SHAPE_CAPSULE:
        result = cast_capsule(o, d, (double)shape->half_height, (double)shape->radius + r, &t, n);
        break;
    case VX_SHAPE_BOX: {
        double h[3] = {shape->half_extents.x, shape->half_extents.y, shape->half_extents.z};
        result = cast_box(o, d, h, r, &t, n);
        break;
    }
    default: VX_ASSERT(false); break; /* hulls have their own cast */
    }
    return vx_cast_end(&local, result, t, n, r, origin, direction, max_distance, hit);
}

bool vx_ray_cast_shape(const vx_collider *shape, const vx_transform *pose, vx_vec3 origin, vx_vec3 direction,
                       float max_distance, vx_cast_hit *hit)
{
    if (shape->type == VX_SHAPE_HULL) return vx_ray_cast_hull(shape->hull, pose, origin, direction, max_distance, hit);
    if (shape->type == VX_SHAPE_COMPOUND)
        return vx_cast_compound(shape->compound, pose, origin, 0.0f, false, direction, max_distance, hit);
    if (shape->type == VX_SHAPE_MESH || shape->type == VX_SHAPE_HEIGHTFIELD)
        return vx_ray_cast_mesh(shape->mesh, pose, origin, direction, max_distance, hit);
    return cast_shape(shape, pose, origin, 0.0, direction, max_distance, hit);
}

bool vx_sphere_cast_shape(const vx_collider *shape, const vx_transform *pose, vx_vec3 origin, float radius,
                          vx_vec3 direction, float max_distance, vx_cast_hit *hit)
{
    /* A radius of 0 is a ray; a negative or NaN one meets nothing. */
    if (!(radius >= 0.0f)) return false;
    if (shape->type == VX_SHAPE_HULL)
        return vx_sphere_cast_hull(shape->hull, pose, origin, radius, direction, max_distance, hit);
    if (shape->type == VX_SHAPE_COMPOUND)
        return vx_cast_compound(shape->compound, pose, origin, radius, true, direction, max_distance, hit);
    if (shape->type == VX_SHAPE_MESH || shape->type == VX_SHAPE_HEIGHTFIELD)
        return vx_sphere_cast_mesh(shape->mesh, pose, origin, radius, direction, max_distance, hit);
    return cast_shape(shape, pose, origin, (double)radius, direction, max_distance, hit);
}
