/* Ray casts and sphere casts against one collider or convex hull placed in
 * the world (private to the physics module; the world's queries,
 * voltex/world.h, run them on the bodies the broad-phase tree finds along
 * the way). Exact: the distance, point and normal are the analytic answer to
 * float precision. */
#ifndef VOLTEX_PHYSICS_COLLISION_CAST_H
#define VOLTEX_PHYSICS_COLLISION_CAST_H

#include <stdbool.h>

#include "physics/body/hull.h"
#include "voltex/ecs.h"
#include "voltex/math.h"
#include "voltex/physics.h"

typedef struct {
    float distance; /* how far the origin travelled along the unit direction (0: it started inside) */
    vx_vec3 point;  /* on the shape's surface (a sphere cast: where the sphere touches it) */
    vx_vec3 normal; /* unit, the shape's surface normal at point, pointing back towards the caster */
} vx_cast_hit;

/* A ray from origin along the unit direction, up to max_distance (> 0),
 * against shape with its body frame at pose (shape.h: a hull's principal
 * frame, the entity's for the other shapes): true and *hit filled when it meets the
 * shape's surface, the first point along the ray. A ray that starts inside
 * the shape or on its surface hits at distance 0 with point = origin and
 * normal = -direction. */
bool vx_ray_cast_shape(const vx_collider *shape, const vx_transform *pose, vx_vec3 origin, vx_vec3 direction,
                       float max_distance, vx_cast_hit *hit);

/* A sphere of radius (> 0) swept from origin along the unit direction, up
 * to max_distance: the first contact with shape placed at pose; point is on
 * the shape's surface. A sphere that starts overlapping or touching the
 * shape hits at distance 0 with point = origin and normal = -direction. */
bool vx_sphere_cast_shape(const vx_collider *shape, const vx_transform *pose, vx_vec3 origin, float radius,
                          vx_vec3 direction, float max_distance, vx_cast_hit *hit);

/* The same against a convex hull placed at pose (its vertices are in the
 * frame pose places in the world), with the same conventions: the hull is
 * the intersection of its faces' planes, its edges the segments between its
 * vertices; the normal is the entered face's (through an edge or a vertex:
 * the lowest index of the faces entered at the same distance) or, for a
 * sphere meeting an edge or a vertex, the direction from the hull's point
 * closest to the centre to the centre. Exact as far as the vertices lie on
 * their faces' planes (cast_hull.c says how far that is). */
bool vx_ray_cast_hull(const vx_hull *hull, const vx_transform *pose, vx_vec3 origin, vx_vec3 direction,
                      float max_distance, vx_cast_hit *hit);
bool vx_sphere_cast_hull(const vx_hull *hull, const vx_transform *pose, vx_vec3 origin, float radius,
                         vx_vec3 direction, float max_distance, vx_cast_hit *hit);

/* The same against a mesh or heightfield placed at pose (cast_mesh.c):
 * its triangles are two-sided surfaces with nothing inside. A ray hits a
 * triangle where it crosses it (a ray that starts on one hits it at 0); a
 * sphere hits the triangle's face (normal: the face's, towards the caster),
 * an edge or a corner (normal: from the nearest point of the triangle to
 * the centre), and one that starts within radius of a triangle hits at 0.
 * The triangles come from the mesh's tree along the cast; of equal
 * distances the lowest triangle wins. */
bool vx_ray_cast_mesh(const vx_mesh *mesh, const vx_transform *pose, vx_vec3 origin, vx_vec3 direction,
                      float max_distance, vx_cast_hit *hit);
bool vx_sphere_cast_mesh(const vx_mesh *mesh, const vx_transform *pose, vx_vec3 origin, float radius,
                         vx_vec3 direction, float max_distance, vx_cast_hit *hit);

/* The same against a compound placed at pose (cast_compound.c): the
 * nearest hit of its parts, of equal distances the lowest part's; a ray
 * (sphere false) or a sphere cast of radius. */
bool vx_cast_compound(const vx_compound *compound, const vx_transform *pose, vx_vec3 origin, float radius,
                      bool sphere, vx_vec3 direction, float max_distance, vx_cast_hit *hit);

#endif
