/* Islands and sleeping (private to the physics module), when
 * config.sleeping is on; the ideas are Box2D's (b2Island, b2_timeToSleep).
 * Islands are built at the end of every step from the touching contacts
 * between awake dynamic bodies; a sleeping body is skipped by every stage.
 * An island wakes as a whole when an awake or moving body touches it, when
 * the world changed one of its bodies (or any static body) between steps,
 * or when sleeping is switched off. See docs/simulation.md, "Sleeping and islands". */
#ifndef VOLTEX_PHYSICS_SLEEP_H
#define VOLTEX_PHYSICS_SLEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "physics/body/body_set.h"
#include "physics/joint/joint_solver.h"
#include "physics/collision/broadphase.h"
#include "physics/solver/contact_cache.h"
#include "voltex/physics.h"

/* m/s: a body slower than this counts as still (Box2D v3's sleep threshold). */
#define VX_SLEEP_LINEAR_SPEED 0.05f
/* rad/s: 2 degrees/s, turning slower than this counts as still (Box2D's
 * b2_angularSleepTolerance). */
#define VX_SLEEP_ANGULAR_SPEED (2.0f * 3.14159265f / 180.0f)
/* s: an island whose bodies have all been still this long falls asleep
 * (Box2D's b2_timeToSleep). */
#define VX_SLEEP_TIME 0.5f

#define VX_SLEEP_NONE UINT32_MAX

/* What sleeping knows of one entity index, kept from step to step. */
typedef struct {
    uint32_t generation;
    uint32_t seen;    /* the step that last gathered it (0: never) */
    uint32_t slot;    /* its body slot in that step */
    uint32_t island;  /* asleep: entity index of the first body of its island */
    uint32_t next;    /* asleep: the next body of its island, VX_SLEEP_NONE after the last */
    float still_time; /* s */
    bool asleep;
    vx_body_pose pose; /* asleep: the pose it sleeps in */
} vx_sleep_record;

typedef struct {
    vx_sleep_record *records; /* by entity index */
    uint32_t record_capacity;
    uint32_t step;
    size_t asleep_count;   /* records asleep */
    size_t awake_count;    /* dynamic bodies awake after the last step */
    /* union-find of the end of the step, by body slot */
    uint32_t *parent;
    float *island_time;    /* the least still time of the island whose root this is */
    uint32_t *island_tail; /* entity index of the last body linked into the island */
    size_t slot_capacity;
    vx_contact_cache_stash stash; /* frozen pairs' warm-start entries while the cache is rewritten */
    vx_contact_list last_report;  /* the last report's points of pairs with a sleeping body */
    vx_contact_list merged;       /* scratch of the report merge */
} vx_sleep_state;

void vx_sleep_init(vx_sleep_state *s);
void vx_sleep_free(vx_sleep_state *s);

/* After the gather: records of new, changed and gone entities, wakes for
 * changes from outside, then every body's asleep flag (all false when
 * config->sleeping is off, which wakes everything). */
vx_status vx_sleep_begin_step(vx_sleep_state *s, vx_body_set *bodies, const vx_world_def *config);

/* At the start of the step (after vx_sleep_begin_step): every island wakes
 * (a static body they may rest on was moved by the world). */
void vx_sleep_wake_all(vx_sleep_state *s, vx_body_set *bodies);

/* Per substep, between the broad and the narrow phase: the wake pass over
 * pairs (body slots), then pairs loses the frozen pairs. Woken bodies catch
 * up with the substep's velocity stage over h. */
void vx_sleep_wake_touched(vx_sleep_state *s, vx_body_set *bodies, vx_broadphase_pair_list *pairs,
                           float speculative_distance, float h);

/* Around the solver's store of the cache: stash takes the frozen pairs'
 * entries out, unstash merges them back. */
vx_status vx_sleep_stash_cache(vx_sleep_state *s, const vx_body_set *bodies, vx_contact_cache *cache);
vx_status vx_sleep_unstash_cache(vx_sleep_state *s, vx_contact_cache *cache);

/* At the end of the step, before the scatter: the frozen pairs' points of
 * the last report join report (sorted), then still times, islands, and the
 * islands that fall asleep (their velocities set to 0 for the scatter). */
vx_status vx_sleep_end_step(vx_sleep_state *s, vx_body_set *bodies, const vx_world_def *config,
                            vx_contact_list *report, const vx_joint_link *links, size_t link_count);
/* At the start of the step (after vx_sleep_begin_step): a sleeping body
 * linked by a joint to an awake or moving one wakes with its island, until
 * no link joins a sleeper to a mover. */
void vx_sleep_wake_linked(vx_sleep_state *s, vx_body_set *bodies, const vx_joint_link *links, size_t link_count);

#endif
