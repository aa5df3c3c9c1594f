/* Private to the trace module: the layout of a --format glb file, worked
 * out once the run has ended (body_glb.c), and its JSON chunk (glb_json.c).
 *
 * The binary chunk holds, in order and each 4-byte aligned: every distinct
 * shape's positions, normals (when it has them) and indices; the frames'
 * times; every entity's translations, entity by entity; then their
 * rotations. Entity i is node i; equal colliders share one mesh. */
#ifndef VX_TRACE_GLB_DOCUMENT_H
#define VX_TRACE_GLB_DOCUMENT_H

#include <stddef.h>
#include <stdint.h>

#include "trace/glb_mesh.h"
#include "trace/glb_samples.h"
#include "voltex/trace.h"

typedef struct {
    vx_glb_mesh mesh;
    vx_collider collider;        /* what it was made from, to find equal ones */
    uint64_t positions, normals, indices; /* byte offsets in the binary chunk */
} vx_glb_shape;

typedef struct {
    const vx_trace_info *info;
    vx_glb_samples *samples;
    vx_glb_shape *shapes;
    size_t shape_count;
    int64_t *node_shape;   /* per entity: its shape, -1 without a collider */
    float *first_pose;     /* per entity: VX_GLB_POSE_FLOATS at the first frame */
    uint64_t times, translations, rotations; /* byte offsets in the binary chunk */
    uint64_t binary_length;
} vx_glb_document;

/* The JSON chunk's text (without its padding). */
void vx_glb_write_json(const vx_glb_document *d, vx_trace_out *o);

#endif
