/* Private helpers shared by the casts against one shape (cast.c: spheres,
 * boxes, capsules; cast_hull.c: convex hulls): the cast moved into the
 * shape's frame in double, the entry into a ball, and the hit back in the
 * world, rounded once. */
#ifndef VOLTEX_PHYSICS_COLLISION_CAST_INTERNAL_H
#define VOLTEX_PHYSICS_COLLISION_CAST_INTERNAL_H

#include <math.h>
#include <stdbool.h>

#include "physics/collision/cast.h"

typedef enum { VX_CAST_MISS, VX_CAST_INSIDE, VX_CAST_HIT } vx_cast_result;

/* A cast in a shape's frame: the frame's centre and the world coordinates of
 * its axes (axis[i] is local axis i), the origin and direction in it. */
typedef struct {
    double pos[3];
    double axis[3][3];
    double o[3], d[3];
} vx_cast_local;

static inline double vx_cast_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Entry of the ray m + t d (t >= 0) into the ball |x| <= r from outside it:
 * false when the origin is inside or on the ball (the callers have ruled
 * that out already), when the ray moves away or misses. Works in any
 * dimension the caller zeroes components for (a cylinder is a disc in the
 * plane across its axis). */
static inline bool vx_cast_ball_entry(const double m[3], const double d[3], double r, double *t)
{
    double a = vx_cast_dot3(d, d);
    double b = vx_cast_dot3(m, d);
    double c = vx_cast_dot3(m, m) - r * r;
    if (!(c > 0.0) || !(b < 0.0)) return false; /* b < 0 also means a > 0 */
    /* The discriminant b^2 - a c as a (r^2 - |l|^2), l the point of the line
     * closest to the centre: no cancellation between two large squares when
     * the ray passes far away. Exactly 0 is a tangent: a hit. */
    double s = b / a;
    double l[3] = {m[0] - s * d[0], m[1] - s * d[1], m[2] - s * d[2]};
    double disc = r * r - vx_cast_dot3(l, l);
    if (disc < 0.0) return false;
    /* The nearer root c / q rather than (-b - sqrt) / a: no cancellation when
     * the origin is close to the surface. */
    double q = sqrt(a * disc) - b;
    *t = c / q;
    return true;
}

/* Entry of the ray o + t d into the cylinder of radius r around the segment
 * a-b, through its side between the ends: everything across the axis, as a
 * disc (vx_cast_ball_entry in the plane across it). n (unnormalised) points
 * from the axis to the hit. False when the origin is inside or the ray
 * misses the side (cast_hull.c). */
bool vx_cast_cylinder_entry(const double o[3], const double d[3], const double a[3], const double b[3], double r,
                            double *t, double n[3]);

/* The cast from origin along direction in the frame of pose (its rotation
 * left out unless `rotated`: a sphere's changes nothing). False for
 * arguments that meet nothing: max_distance not > 0, a non-finite origin or
 * direction. */
bool vx_cast_begin(const vx_transform *pose, bool rotated, vx_vec3 origin, vx_vec3 direction, float max_distance,
                   vx_cast_local *local);

/* The hit of a sphere of radius r >= 0 (a ray for 0) from the answer in the
 * shape's frame: a miss, a start inside (distance 0, point = origin, normal
 * = -direction), or the centre's distance t along the ray with n, the
 * shape's outward normal there, not necessarily unit. False for a miss or a
 * hit beyond max_distance. */
bool vx_cast_end(const vx_cast_local *local, vx_cast_result result, double t, const double n[3], double r,
                 vx_vec3 origin, vx_vec3 direction, float max_distance, vx_cast_hit *hit);

#endif
