/* Private to the trace module: the poses of the frames --format glb writes,
 * kept in an unnamed temporary file as the run goes (memory does not grow
 * with the steps), then read back entity by entity in the order a glTF
 * animation wants them: every translation of entity 0, of entity 1, ...,
 * then every rotation. */
#ifndef VX_TRACE_GLB_SAMPLES_H
#define VX_TRACE_GLB_SAMPLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/trace_out.h"
#include "voltex/world.h"

#define VX_GLB_POSE_FLOATS 7u /* px py pz qx qy qz qw */

typedef enum { VX_GLB_TRANSLATION = 0, VX_GLB_ROTATION = 1 } vx_glb_channel;

typedef struct {
    FILE *file;          /* a record per frame: its time, then the poses of every entity (native floats) */
    size_t entity_count;
    int64_t frame_count;
    float first_time, last_time;
    float *record;       /* one record's room */
    vx_quat *previous;   /* each entity's last rotation written */
    float *block;        /* read-back room: VX_GLB_BLOCK_FLOATS */
} vx_glb_samples;

/* The temporary file is made in $TMPDIR (else /tmp) and unlinked at once:
 * nothing is left behind whatever happens. VX_ERR_IO ("cannot make a
 * temporary file: ...") or VX_ERR_NOMEM. */
vx_status vx_glb_samples_open(vx_glb_samples *s, size_t entity_count, vx_error *err);
/* Adds a frame. Rotations are normalised and their sign chosen to be
 * nearest the entity's previous one (the same rotation), so a linear
 * animation turns the short way; a time not after the previous one (a float
 * too coarse for the step) is moved to the next float up, as an animation's
 * keyframe times must increase. */
vx_status vx_glb_samples_add(vx_glb_samples *s, float time, const vx_body_state *states, vx_error *err);
/* Entity i's pose at the first frame (translation then rotation). */
vx_status vx_glb_samples_first(vx_glb_samples *s, float pose[], vx_error *err);
/* The frames' times, as little-endian floats. */
vx_status vx_glb_samples_write_times(vx_glb_samples *s, vx_trace_out *out, vx_error *err);
/* Every entity's translations (VEC3) or rotations (VEC4), entity by entity,
 * as little-endian floats. */
vx_status vx_glb_samples_write_channel(vx_glb_samples *s, vx_glb_channel channel, vx_trace_out *out, vx_error *err);
/* Closes (and so deletes) the file; no-op when not open. */
void vx_glb_samples_close(vx_glb_samples *s);

/* v as 4 little-endian bytes. */
void vx_glb_put_u32(vx_trace_out *out, uint32_t v);
void vx_glb_put_f32(vx_trace_out *out, float f);

#endif
