/* Trace writers (body trace as CSV or JSON, contact trace as CSV) and the
 * golden-trace comparison. Writers stream frame by frame; they never change the
 * world. Formats: docs/traces.md. */
#ifndef VOLTEX_TRACE_H
#define VOLTEX_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "voltex/ecs.h"
#include "voltex/error.h"
#include "voltex/joint.h"
#include "voltex/math.h"
#include "voltex/physics.h"
#include "voltex/query.h"
#include "voltex/world.h"

#define VX_BODY_CSV_HEADER "frame,time,entity,name,px,py,pz,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz"
#define VX_CONTACT_CSV_HEADER \
    "frame,time,entity_a,entity_b,name_a,name_b,nx,ny,nz,depth,ax,ay,az,bx,by,bz,impulse"
#define VX_QUERY_CSV_HEADER "frame,time,query,name,hit,entity,entity_name,distance,px,py,pz,nx,ny,nz"
#define VX_JOINT_CSV_HEADER \
    "frame,time,joint,name,type,entity_a,entity_b,fx,fy,fz,tx,ty,tz,position,speed,broken"

/* CSV: one row per entity per frame (the long layout); CSV_WIDE: one row per
 * frame with columns NAME.px ... NAME.wz per entity; JSON: one document;
 * JSONL: a header line (scene, entities and their colliders), then one JSON
 * object per frame and line; GLB: a glTF 2.0 binary file (a node and a mesh
 * per entity, an animation of the frames), written whole at the end, to a
 * seekable file. */
typedef enum {
    VX_TRACE_CSV = 0,
    VX_TRACE_JSON = 1,
    VX_TRACE_JSONL = 2,
    VX_TRACE_CSV_WIDE = 3,
    VX_TRACE_GLB = 4
} vx_trace_format;

/* What every writer needs to know about the run. Entity i of the trace is the
 * entity whose id has index i (the scene loader spawns them in order). */
typedef struct {
    const char *scene_name;
    float dt;
    int64_t steps;              /* steps of this run */
    size_t entity_count;
    const char *const *names;   /* names[i] of entity i */
    size_t query_count;         /* the scene's queries (0: none, and no "queries" in JSON frames) */
    const char *const *query_names;
    size_t joint_count;         /* the scene's joints (0: none, and no "joints" in JSON frames) */
    const struct vx_trace_joint *joints;
    /* Optional (NULL: not known): the world and entities[i] of entity i, from
     * which the JSONL header describes each entity's collider. */
    const vx_world *world;
    const vx_entity *entities;
} vx_trace_info;

/* What the joint trace names of joint i. */
typedef struct vx_trace_joint {
    const char *name;
    vx_joint_type type;
    int64_t entity_a, entity_b; /* entity indices, -1 for the world */
} vx_trace_joint;

/* "ball", "hinge", "slider", "fixed" or "distance". */
const char *vx_joint_type_name(vx_joint_type type);

/* Fills states[i] for entities[i] (vx_body_get_state; an entity not in the
 * world reads as the identity at rest). */
void vx_trace_snapshot(const vx_world *world, const vx_entity *entities, size_t count, vx_body_state *states);

/* time of frame k: k * dt, as the float that is printed. */
float vx_trace_frame_time(int64_t frame, float dt);

/* Prints f so that it reads back to the same float (%.9g); returns length. */
int vx_format_float(char *buf, size_t size, float f);

/* ---- body trace ---- */
typedef struct {
    FILE *out;
    vx_trace_format format;
    const vx_trace_info *info;
    int64_t frames_written;
    struct vx_glb_writer *glb; /* VX_TRACE_GLB's frames so far (private) */
} vx_body_writer;

/* Writes the header (CSV) or the document's opening (JSON). */
vx_status vx_body_writer_begin(vx_body_writer *w, FILE *out, vx_trace_format format, const vx_trace_info *info,
                               vx_error *err);
/* ---- the scene's queries at a frame ---- */
typedef struct {
    vx_query_hit *hits; /* query i's: hits[first[i] .. first[i + 1]), by distance (overlaps: by entity) */
    size_t *first;      /* query_count + 1 entries */
    size_t query_count;
    size_t hit_count, hit_capacity, first_capacity;
} vx_query_frame;

void vx_query_frame_init(vx_query_frame *f);
void vx_query_frame_free(vx_query_frame *f);
/* Asks the world the count queries as it is now (vx_world_query). */
vx_status vx_query_frame_run(vx_query_frame *f, vx_world *world, const vx_query_def *queries, size_t count,
                             vx_error *err);

/* One frame. contacts, queries and joints (the states of the info's joints;
 * any may be NULL) are written inline in JSON (queries and joints only when
 * the info has some), ignored in CSV. */
vx_status vx_body_writer_frame(vx_body_writer *w, int64_t frame, const vx_body_state *states,
                               const vx_contact_list *contacts, const vx_query_frame *queries,
                               const vx_joint_state *joints, vx_error *err);
/* Closes the JSON document (or writes the whole glb file) and flushes; frees
 * what the writer holds, whether or not it succeeds. */
vx_status vx_body_writer_end(vx_body_writer *w, vx_error *err);

/* ---- contact trace (CSV) ---- */
typedef struct {
    FILE *out;
    const vx_trace_info *info;
} vx_contact_writer;

vx_status vx_contact_writer_begin(vx_contact_writer *w, FILE *out, const vx_trace_info *info, vx_error *err);
vx_status vx_contact_writer_frame(vx_contact_writer *w, int64_t frame, const vx_contact_list *contacts,
                                  vx_error *err);
vx_status vx_contact_writer_end(vx_contact_writer *w, vx_error *err);

/* ---- query trace (CSV): a row per hit, one row with hit 0 for a query
 * without one ---- */
typedef struct {
    FILE *out;
    const vx_trace_info *info;
} vx_query_writer;

vx_status vx_query_writer_begin(vx_query_writer *w, FILE *out, const vx_trace_info *info, vx_error *err);
vx_status vx_query_writer_frame(vx_query_writer *w, int64_t frame, const vx_query_frame *queries, vx_error *err);
vx_status vx_query_writer_end(vx_query_writer *w, vx_error *err);

/* ---- joint trace (CSV): a row per joint per written frame ---- */
typedef struct {
    FILE *out;
    const vx_trace_info *info;
} vx_joint_writer;

vx_status vx_joint_writer_begin(vx_joint_writer *w, FILE *out, const vx_trace_info *info, vx_error *err);
vx_status vx_joint_writer_frame(vx_joint_writer *w, int64_t frame, const vx_joint_state *joints, vx_error *err);
vx_status vx_joint_writer_end(vx_joint_writer *w, vx_error *err);

/* ---- golden comparison ---- */
/* A golden body trace in any of the formats the writers make (CSV long or
 * wide, a JSON document, JSON Lines; found from the file's content), its
 * columns found by name (CSV) or key (JSON): a golden may carry any subset
 * of the numbers. Frames of the golden that the run does not write are
 * skipped, so a run with --every K compares with a golden of every frame. */
typedef struct vx_golden vx_golden;

/* The numbers compared: time, then px py pz qx qy qz qw vx vy vz wx wy wz. */
#define VX_GOLDEN_COLUMNS 14
const char *vx_golden_column_name(int column);

typedef struct {
    double tolerance; /* absolute, per number */
    double rtol;      /* relative: a number passes within tolerance + rtol * |golden| */
} vx_golden_tolerance;

/* Opens a golden body trace and reads its header. */
vx_status vx_golden_open(vx_golden **out, const char *path, vx_golden_tolerance tolerance, vx_error *err);
/* Compares one written frame's states with the golden. VX_ERR_DIFFERENT with
 * err = "frame 120 entity 1 (ball) py: 0.4981 vs golden 0.5123 (diff 0.0142 > 1e-05)"
 * when a number of this frame is beyond the tolerance: the comparison stays
 * in step, and the next frames may still be checked (vx_golden_in_step).
 * VX_ERR_DIFFERENT also when the golden's rows do not line up with the run
 * (a missing frame, another entity or name, the golden ends): then it is out
 * of step and every later call says the same. VX_ERR_IO / VX_ERR_INVALID /
 * VX_ERR_NOMEM for a golden that cannot be read or is not a body trace. */
vx_status vx_golden_check_frame(vx_golden *g, int64_t frame, const vx_trace_info *info,
                                const vx_body_state *states, vx_error *err);
/* Whether the golden still lines up with the run. */
bool vx_golden_in_step(const vx_golden *g);
/* After the run's last frame: VX_ERR_DIFFERENT if the golden has rows left
 * over (frames after the run's last). */
vx_status vx_golden_finish(vx_golden *g, vx_error *err);

/* What the comparison found so far. */
typedef struct {
    uint64_t numbers;         /* numbers compared */
    uint64_t different;       /* of them, beyond the tolerance */
    int64_t frames;           /* frames compared */
    int64_t first_frame;      /* the first and last frame with a difference, -1 when none */
    int64_t last_frame;
    size_t entity_count;      /* of the arrays below */
    /* [entity * VX_GOLDEN_COLUMNS + column]: the largest difference beyond
     * the tolerance (infinity for a number that is not finite; 0: none), and
     * the frame where it was */
    const double *max_difference;
    const int64_t *max_frame;
} vx_golden_summary;

vx_golden_summary vx_golden_get_summary(const vx_golden *g);
void vx_golden_close(vx_golden *g);

#endif
