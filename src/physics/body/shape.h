/* What the step needs of a collider's shape, whatever its type (private to
 * the physics module). A body is simulated in its shape's frame: the
 * entity's frame for spheres, boxes and capsules, the principal frame for a
 * hull (centre of mass at the origin, inertia diagonal), whose geometry is
 * stored in that frame. The entity's pose and the body's pose convert
 * through vx_shape_frame. */
#ifndef VOLTEX_PHYSICS_BODY_SHAPE_H
#define VOLTEX_PHYSICS_BODY_SHAPE_H

#include <stdbool.h>

#include "physics/body/hull.h"
#include "voltex/physics.h"

/* Whether the shape's frame differs from its entity's (a hull whose
 * principal frame is not the identity). */
bool vx_shape_has_frame(const vx_collider *c);
/* The body frame in the entity's frame (identity when it has none). */
vx_transform vx_shape_frame(const vx_collider *c);
/* The body's pose from its entity's pose, and back. */
vx_transform vx_shape_pose(const vx_collider *c, const vx_transform *entity);
vx_transform vx_shape_entity_pose(const vx_collider *c, const vx_transform *body);

/* World bounds of the shape with its body frame at (x, q). */
vx_aabb vx_shape_aabb(const vx_collider *c, vx_vec3 x, vx_quat q);
/* Principal moments (body frame) of the solid of this mass. */
vx_vec3 vx_shape_inertia(const vx_collider *c, float mass);
/* How far a surface point can be from the body frame's origin, for the
 * angular sweep (0 for a sphere: its spin moves no surface). */
float vx_shape_sweep_radius(const vx_collider *c);
/* Half the shape's thinnest dimension, about: how deep a body can go into
 * it before the contact normal may flip. */
float vx_shape_inner_radius(const vx_collider *c);

#endif
