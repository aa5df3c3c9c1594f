/* A convex shape against a mesh or heightfield (private to the physics
 * module): each triangle near the shape is a prism-shaped hull facing the
 * shape's side (body/triangle_hull.h) and meets it through the hull code;
 * a contact whose normal leans over an inactive edge or vertex (a flat or
 * concave one, mesh.h) takes the triangle's face normal instead, so a body
 * sliding over the inner edges of a flat surface never catches on them;
 * the triangles' contacts are then merged by normal into manifolds of at
 * most 4 points, one per normal, each keyed by a part number that stays
 * the same while its normal does. docs/simulation.md, "Meshes and
 * heightfields". */
#ifndef VOLTEX_PHYSICS_COLLISION_COLLIDE_MESH_H
#define VOLTEX_PHYSICS_COLLISION_COLLIDE_MESH_H

#include <stdbool.h>
#include <stdint.h>

#include "voltex/collide.h"
#include "voltex/math.h"
#include "voltex/physics.h"

/* Manifolds of one shape on one mesh at most: the deepest are kept. */
#define VX_MESH_MAX_MANIFOLDS 8

typedef struct {
    uint32_t part; /* >= 1: from the normal's direction in the mesh's frame */
    vx_manifold manifold;
} vx_mesh_manifold;

/* Whether c is a mesh or a heightfield. */
static inline bool vx_collider_is_mesh(const vx_collider *c)
{
    return c->type == VX_SHAPE_MESH || c->type == VX_SHAPE_HEIGHTFIELD;
}

/* The contacts of the convex shape b at pb (sphere, box, capsule, hull; its
 * body frame) with the mesh at pm, closer than margin: up to
 * VX_MESH_MAX_MANIFOLDS manifolds into out, normals from the mesh to b,
 * points sorted by feature id, in increasing part order. Returns how many. */
int vx_collide_mesh(const vx_collider *mesh, const vx_transform *pm, const vx_collider *b, const vx_transform *pb,
                    float margin, vx_mesh_manifold *out);

struct vx_triangle_hull_s;

/* Called with each triangle near a box as a hull collider (the prism facing
 * side_point, placed by the mesh's pose), and the prism it is the hull of;
 * return false to stop. */
typedef bool (*vx_mesh_prism_fn)(void *context, const vx_collider *prism, const struct vx_triangle_hull_s *th);

/* fn for each triangle of the mesh at pm whose bounds meet world_box, as the
 * prism facing side_point (world) with the given thickness. With
 * planes_only the prism has only its top vertices and its top and side
 * planes (vx_triangle_hull_init_planes: what a sphere meets) and fn gets no
 * collider (NULL). */
void vx_mesh_for_each_prism(const vx_collider *mesh, const vx_transform *pm, vx_aabb world_box, vx_vec3 side_point,
                            float thickness, bool planes_only, vx_mesh_prism_fn fn, void *context);

/* Whether the convex shape (sphere, box, capsule, hull; its body frame at
 * pose) overlaps the mesh at mesh_pose, exactly: touching is not
 * overlapping (overlap_mesh.c). */
bool vx_overlap_mesh(const vx_collider *shape, const vx_transform *pose, const vx_collider *mesh,
                     const vx_transform *mesh_pose);

/* How far a point of the convex shape c can be from its body frame's
 * origin (the radius of a ball around it that holds the shape). */
float vx_collide_shape_reach(const vx_collider *c);

#endif
