/* Private to the trace module: a collider as triangles for --format glb, in
 * its entity's frame, counter-clockwise seen from outside. Round shapes are
 * tessellated (VX_GLB_SEGMENTS around, VX_GLB_RINGS from pole to pole) with
 * smooth normals; boxes and hulls get a flat normal per face; meshes and
 * heightfields keep their own triangles, without normals (a glTF viewer then
 * shades them flat) and two-sided, as they collide. */
#ifndef VX_TRACE_GLB_MESH_H
#define VX_TRACE_GLB_MESH_H

#include <stdbool.h>
#include <stdint.h>

#include "voltex/error.h"
#include "voltex/physics.h"

#define VX_GLB_SEGMENTS 32u /* around a sphere's or capsule's axis */
#define VX_GLB_RINGS 16u    /* from pole to pole (even: a capsule splits at the middle) */

typedef struct {
    float *positions;  /* 3 per vertex */
    float *normals;    /* 3 per vertex; NULL for a mesh or heightfield */
    uint32_t *indices; /* 3 per triangle */
    uint32_t vertex_count, triangle_count;
    bool two_sided;    /* a mesh or heightfield: seen from both sides */
} vx_glb_mesh;

/* The triangles of c. VX_ERR_NOMEM (nothing to free then). */
vx_status vx_glb_mesh_make(const vx_collider *c, vx_glb_mesh *out);
void vx_glb_mesh_free(vx_glb_mesh *m);

#endif
