/* The step's broad phase (private to the physics module): the bodies that
 * have a collider, as proxies of one vx_broadphase (broadphase.h) under their
 * entity index, kept in the step state from step to step. Statics are added
 * once and compared once per step; moving bodies get a new box every
 * substep. The pairs are body slots sorted by (a, b), the same for either
 * kind and any pool. See docs/simulation.md, "Broad phase". */
#ifndef VOLTEX_PHYSICS_BODY_BROADPHASE_H
#define VOLTEX_PHYSICS_BODY_BROADPHASE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/thread_pool.h"
#include "physics/body/body_set.h"
#include "physics/collision/broadphase.h"
#include "voltex/physics.h"

/* What the broad phase holds of one entity index. */
typedef struct {
    uint32_t generation;
    uint32_t slot;        /* body slot in the current step */
    uint32_t seen;        /* the sync that last found it */
    uint8_t flags;        /* has a proxy; static */
    vx_body_pose pose;    /* static: the pose its box was made from */
    vx_collider collider; /* static: the shape its box was made from */
} vx_body_proxy;

typedef struct {
    vx_broadphase broadphase;
    bool ready;                    /* broadphase is initialised, of kind `kind` */
    vx_broadphase_kind kind;
    vx_body_proxy *proxies;        /* by entity index */
    uint32_t proxy_capacity;
    uint32_t sync_count;
    float static_distance;         /* the speculative distance the static boxes were grown by */
    vx_broadphase_pair_list pairs; /* the last vx_body_broadphase_find_pairs: body slots */
    vx_thread_pool *pool;          /* the step's threads (NULL: the calling thread alone), set by the step */
    /* by body slot, scratch of one call: the new box, and whether the body
     * waits for the calling thread (its tree changes, in body order) */
    vx_aabb *boxes;
    uint8_t *pending;
    size_t body_capacity;
} vx_body_broadphase;

void vx_body_broadphase_init(vx_body_broadphase *bb);
void vx_body_broadphase_free(vx_body_broadphase *bb);

/* Once per step, after the gather: brings the proxies in line with the bodies
 * (a new kind starts a new broad phase). Statics and bare colliders are
 * updated only when the world moved or reshaped them; an entity that is
 * gone, lost its collider, was replaced under its index or switched between
 * static and moving is removed (and added again if still there); a body
 * whose box is not finite has no proxy until it is finite again. The trees
 * change on the calling thread, in body order.
 * *statics_moved tells whether a static body already known was moved,
 * reshaped or removed by the world (sleeping bodies may have lost their
 * support). */
vx_status vx_body_broadphase_sync(vx_body_broadphase *bb, const vx_body_set *bodies, vx_broadphase_kind kind,
                                  float speculative_distance, float h, bool *statics_moved);

/* Once per substep of h: new boxes for the awake moving bodies (grown by the
 * speculative distance and the substep's motion; sleeping bodies keep
 * theirs), then the pairs into bb->pairs: overlapping boxes (the dynamic
 * tree runs with its tight filter), at least one body not static. */
vx_status vx_body_broadphase_find_pairs(vx_body_broadphase *bb, const vx_body_set *bodies,
                                        float speculative_distance, float h);

#endif
