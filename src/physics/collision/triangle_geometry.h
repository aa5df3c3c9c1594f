/* One triangle of a mesh in double, and its exact distances (private to the
 * physics module): what the casts (cast_mesh.c) and the overlap tests
 * (overlap_mesh.c) work with, in the mesh's frame. */
#ifndef VOLTEX_PHYSICS_COLLISION_TRIANGLE_GEOMETRY_H
#define VOLTEX_PHYSICS_COLLISION_TRIANGLE_GEOMETRY_H

#include <stdint.h>

#include "physics/body/mesh.h"

typedef struct {
    double v[3][3];
    double n[3]; /* unit normal */
} vx_dtriangle;

static inline void vx_tri_sub(const double a[3], const double b[3], double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = a[i] - b[i];
}

static inline void vx_tri_cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static inline double vx_tri_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Triangle t of the mesh, its corners and unit normal in double. */
void vx_tri_load(const vx_mesh *mesh, uint32_t t, vx_dtriangle *out);

/* The squared distance from p to the triangle. */
double vx_tri_distance_sq(const vx_dtriangle *tr, const double p[3]);

/* The squared distance from the segment p0-p1 to the triangle (0 when it
 * crosses it). */
double vx_tri_segment_distance_sq(const vx_dtriangle *tr, const double p0[3], const double p1[3]);

#endif
