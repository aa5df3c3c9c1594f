/* The fixed step over a registry of physics components (private to the
 * physics module; the library's users step a vx_world, voltex/world.h). */
#ifndef VOLTEX_PHYSICS_STEP_H
#define VOLTEX_PHYSICS_STEP_H

#include <stdbool.h>
#include <stddef.h>

#include "voltex/ecs.h"
#include "voltex/error.h"
#include "voltex/physics.h"

/* What one step hands the next: the gathered bodies, the broad phase's
 * trees, the narrow phase's kept manifolds, the warm-start cache, islands
 * and sleep, the solver's arrays and the threads (step.c). */
struct vx_step_stages;

/* Keep one per registry for the whole run. */
typedef struct {
    struct vx_step_stages *stages; /* made by the first step (or vx_step_tuning_of) */
    bool profile;                  /* vx_step_profile: time the stages of every step */
    struct vx_joint_set *joints;   /* the world's joints, not owned (NULL: none) */
} vx_step_state;

struct vx_joint_set;

void vx_step_state_init(vx_step_state *state);
void vx_step_state_free(vx_step_state *state);

/* One fixed step of def->fixed_dt: the bodies are gathered from the
 * registry once, then per substep: velocities (gravity, damping), detection
 * (speculative manifolds), the contact solver (warm started, friction,
 * restitution), positions and orientations, position correction; the
 * result is written back at the end. report (cleared first) receives the
 * contact points of the step with the end-of-step geometry, those with
 * depth > 0 or a normal impulse > 0 (sensors: impulse 0), impulses summed
 * over substeps, sorted. VX_ERR_INVALID if def->substeps < 1 or fixed_dt
 * is not a positive number, VX_ERR_NOMEM if a buffer cannot grow (the
 * registry is then left as it was). */
vx_status vx_step(vx_registry *registry, const vx_world_def *def, vx_step_state *state, vx_contact_list *report);

/* Profiling on or off (off after vx_step_state_init): when on, every step
 * reads CLOCK_MONOTONIC between its stages. Results never depend on it. */
void vx_step_profile(vx_step_state *state, bool on);
/* The stage times of the last step (zero before the first or when off). */
vx_stage_times vx_step_stage_times(const vx_step_state *state);

/* Dynamic bodies that were awake at the end of the last step (every dynamic
 * body when sleeping is off; 0 before the first step). */
size_t vx_step_awake_count(const vx_step_state *state);

#endif
