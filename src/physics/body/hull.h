/* Convex hulls of point clouds (private to the physics module): the shape
 * convex colliders are built on. A hull is a half-edge mesh with polygonal
 * faces, the data a SAT / clipping narrow phase walks (faces and their
 * planes, edges with their two faces, the support vertex), plus the exact
 * mass properties of the solid.
 *
 * vx_hull_build runs a quickhull in double over the points sorted and
 * without duplicates (so the order of the input never matters), then merges
 * the triangles into planar polygons and drops every vertex that is not a
 * real corner (the details are in hull.c). */
#ifndef VOLTEX_PHYSICS_BODY_HULL_H
#define VOLTEX_PHYSICS_BODY_HULL_H

#include <stddef.h>
#include <stdint.h>

#include "voltex/ecs.h"
#include "voltex/error.h"
#include "voltex/limits.h"
#include "voltex/math.h"

/* Input points at most: indices then fit 16 bits everywhere. A closed
 * polyhedron with V vertices has at most E = 3V - 6 edges and F = 2V - 4
 * faces (Euler, every face at least a triangle), so 256 points give at most
 * 256 vertices, 1524 half-edges and 508 faces: more than 8 bits hold for
 * half-edges and faces, far less than 16. */
#define VX_HULL_MAX_POINTS VX_MAX_HULL_POINTS

/* A half-edge: from vertex `origin` to the origin of `next`, with its face on
 * the left seen from outside. Twins are stored side by side (edges 2k and
 * 2k + 1), so twin == index ^ 1; the field is kept for readers that follow
 * links. */
typedef struct {
    uint16_t origin; /* vertex index */
    uint16_t twin;   /* the opposite half-edge, on the neighbouring face */
    uint16_t next;   /* the next half-edge around the face, counter-clockwise seen from outside */
    uint16_t face;
} vx_hull_edge;

/* A convex polygon: its plane (normal . p = offset, unit normal pointing
 * out) and its edges from first_edge along next, edge_count of them. */
typedef struct {
    vx_vec3 normal;
    float offset;
    uint16_t first_edge;
    uint16_t edge_count; /* its vertices, 3 or more */
} vx_hull_face;

typedef struct vx_hull {
    uint16_t vertex_count, edge_count, face_count; /* edge_count counts half-edges */
    vx_vec3 *vertices;   /* the corners only, input points as given, in the input's frame */
    vx_hull_edge *edges; /* twins side by side: 2k and 2k + 1 */
    vx_hull_face *faces; /* coplanar triangles merged into convex polygons */
    vx_vec3 centroid;    /* centre of mass of the solid, uniform density */
    float volume;        /* m^3 */
    vx_mat3 inertia;     /* about the centroid, density 1 kg/m^3: multiply by the density */
    vx_aabb bounds;      /* of the vertices */
    float inner_radius;  /* distance from the centroid to the nearest face plane */
    float tolerance;     /* points this close to a plane counted as on it (hull.c says how it is chosen) */
    /* Where the data's frame sits in the input's frame: identity from
     * vx_hull_build; vx_hull_to_principal moves the data into the principal
     * frame (origin at the centroid, axes along the principal axes) and
     * records that frame here. */
    vx_transform frame;
    float outer_radius;  /* distance from the data's origin to the farthest vertex */
    const void *owner;   /* the world that made it (vx_world_make_hull), NULL for none */
} vx_hull;

/* Builds the hull of `count` points (4 to VX_HULL_MAX_POINTS, finite). Every
 * input point ends inside the hull or within 2 * tolerance outside a face's
 * plane; every vertex is an input point and a real corner; faces are convex
 * and planar within the tolerance. VX_ERR_INVALID with a message for fewer
 * than 4 distinct points, all of them on one line or one plane (within the
 * tolerance), too many points, a non-finite one; VX_ERR_NOMEM. *out is a new
 * hull (free it with vx_hull_destroy) or NULL on error. The same points give
 * the same bits, in any order. */
vx_status vx_hull_build(const vx_vec3 *points, size_t count, vx_hull **out, vx_error *err);

void vx_hull_destroy(vx_hull *hull);

/* Moves the hull's data into its principal frame: vertices and planes
 * re-expressed there (rounded to float once, planes refitted to the rounded
 * vertices), the centroid at the origin, the inertia diagonal (principal
 * moments), bounds and radii recomputed, and the frame recorded in
 * hull->frame. Deterministic; axes that are already principal (an
 * axis-aligned box's corners) keep the identity rotation, bit for bit. */
void vx_hull_to_principal(vx_hull *hull);

/* Bounds and outer_radius from the vertices as they are now. */
void vx_hull_update_bounds(vx_hull *hull);

/* Points h at arrays of vertices, half-edges and faces someone else keeps
 * (a box's or a triangle's hull made on the stack for one test). */
static inline void vx_hull_view(vx_hull *h, vx_vec3 *vertices, uint16_t vertex_count, vx_hull_edge *edges,
                                uint16_t edge_count, vx_hull_face *faces, uint16_t face_count)
{
    h->vertex_count = vertex_count;
    h->edge_count = edge_count;
    h->face_count = face_count;
    h->vertices = vertices;
    h->edges = edges;
    h->faces = faces;
}

/* The vertex farthest along d (need not be unit), the lowest index on ties. */
uint16_t vx_hull_support(const vx_hull *hull, vx_vec3 d);

#endif
