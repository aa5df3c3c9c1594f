/* A sphere against a triangle's prism facing it (private to the physics
 * module; collide_mesh.c's triangles). */
#ifndef VOLTEX_PHYSICS_COLLISION_COLLIDE_PRISM_SPHERE_H
#define VOLTEX_PHYSICS_COLLISION_COLLIDE_PRISM_SPHERE_H

#include <stdbool.h>

#include "physics/body/triangle_hull.h"
#include "voltex/collide.h"

typedef struct {
    vx_vec3 normal;    /* unit, from the prism to the sphere */
    vx_vec3 on_prism;  /* the prism's point */
    vx_vec3 on_sphere; /* the sphere's deepest point along -normal */
    float depth;       /* > -margin */
} vx_prism_sphere_contact;

/* The sphere (centre in the prism's frame, on the side its top faces)
 * against the prism th (vx_triangle_hull_init_planes is enough): false when
 * they are farther apart than margin. The same contact as the hull code's
 * sphere test gives the prism, found on the triangle alone: a ball on the
 * top's side is nearest to the prism at the top triangle's nearest point
 * (the prism is the triangle swept along its normal), over the top it is
 * the face's, else an edge's or a corner's (a centre on the plane beside
 * the triangle too); a centre on the triangle or under it goes out through
 * the least deep of the top and sides. */
bool vx_collide_prism_sphere(const vx_triangle_hull *th, vx_vec3 centre, float radius, float margin,
                             vx_prism_sphere_contact *out);

/* vx_collide_prism_sphere for the prism placed at pose and the sphere's
 * centre in the world: the contact in the world. */
bool vx_collide_placed_prism_sphere(const vx_triangle_hull *th, const vx_transform *pose, vx_vec3 centre,
                                    float radius, float margin, vx_prism_sphere_contact *out);

/* vx_collide_shapes, where a non-NULL prism_a (prism_b) is the triangle
 * prism whose hull is a's (b's) shape, as vx_mesh_for_each_prism hands it
 * out: a sphere meets it through vx_collide_prism_sphere (one point, no
 * feature ids); every other pair goes to vx_collide_shapes. A prism side
 * may have no collider (NULL: vx_mesh_for_each_prism's planes_only) when
 * the other is a sphere. */
bool vx_collide_shapes_prism(const vx_collider *a, const vx_transform *ta, const vx_triangle_hull *prism_a,
                             const vx_collider *b, const vx_transform *tb, const vx_triangle_hull *prism_b,
                             float margin, vx_manifold *out);

#endif
