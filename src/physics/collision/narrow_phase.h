/* Collision detection over the step's bodies (private to the physics
 * module): the bounds the broad phase works on (grown by the speculative
 * distance and the motion of one substep; body_broadphase.h keeps them in a
 * vx_broadphase across steps), then the oriented narrow phase (collide.h) on
 * each pair of the broad phase where at least one body can move. */
#ifndef VOLTEX_PHYSICS_NARROW_PHASE_H
#define VOLTEX_PHYSICS_NARROW_PHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/thread_pool.h"
#include "physics/body/body_set.h"
#include "physics/collision/broadphase.h"
#include "physics/collision/collide_internal.h"
#include "physics/collision/manifold_reuse.h"
#include "voltex/collide.h"
#include "voltex/physics.h"

/* One touching (or speculative) manifold of a pair: a is the body with the
 * lower entity index, the manifold's normal points from a to b and its
 * points are sorted by feature id. A pair of convex shapes has one, part 0;
 * a body on a mesh or heightfield one per contact normal, a pair with a
 * compound one per touching pair of parts, in increasing part order
 * (collide_mesh.h, collide_compound.h). */
typedef struct {
    uint32_t a;  /* body slots in vx_body_set */
    uint32_t b;
    uint32_t part;
    bool sensor; /* either collider is a sensor: reported, never pushed */
    vx_manifold manifold;
} vx_pair_manifold;

typedef struct {
    vx_manifold_memo *items;
    size_t count, capacity;
} vx_manifold_memo_list;

/* The separating axis (collide_internal.h) kept for a pair of entity indices. */
typedef struct {
    uint32_t a, b;
    vx_sat_axis axis;
} vx_sat_axis_memo;

typedef struct {
    vx_sat_axis_memo *items;
    size_t count, capacity;
} vx_sat_axis_memo_list;

typedef struct {
    vx_pair_manifold *items; /* sorted by (entity a, entity b) */
    size_t count;
    size_t capacity;
    bool *hit; /* scratch: per broad-phase pair, a manifold was found */
    size_t hit_capacity;
    /* the manifolds kept for the next step (manifold_reuse.h), by pair */
    vx_manifold_memo_list memos;
    vx_manifold_memo_list spare; /* the next step's memos are written here, then the two swap */
    /* scratch, per broad-phase pair: the memo of a new manifold, and
     * MEMO_* of narrow_phase.c (none, new, reused) */
    vx_manifold_memo *memo_next;
    uint8_t *memo_state;
    size_t memo_next_capacity, memo_state_capacity;
    size_t *memo_source; /* scratch, per pair: the kept memo it reused */
    size_t memo_source_capacity;
    size_t reused; /* the last detection's manifolds that were reused */
    /* the axes of the last detection's pairs of polyhedra, sorted by (a, b), tried
     * first by the next (a hint: results do not depend on it), the next
     * detection's written to axes_spare, then the two swap; axis_next:
     * scratch, per pair, the axis found (kind none: none kept) */
    vx_sat_axis_memo_list axes, axes_spare;
    vx_sat_axis *axis_next;
    size_t axis_next_capacity;
    /* scratch, per body slot: the rotation matrix of a box or hull
     * (vx_collide_rotation_matrix), made once for all its pairs */
    vx_mat3 *rotations;
    size_t rotation_capacity;
    /* pairs of a body and a mesh (collide_mesh.h) have up to
     * VX_MESH_MAX_MANIFOLDS manifolds, pairs with a compound up to
     * vx_compound_pair_capacity (collide_compound.h): scratch, per
     * broad-phase pair, its place among these pairs (UINT32_MAX: none), and
     * per such pair where its manifolds start in mesh_items and their
     * number; the result is gathered in spare_items, which then trades
     * places with items */
    uint32_t *mesh_slot;
    size_t mesh_slot_capacity;
    size_t *mesh_first;
    size_t mesh_first_capacity;
    vx_pair_manifold *mesh_items;
    size_t mesh_item_capacity;
    uint8_t *mesh_counts;
    size_t mesh_count_capacity;
    vx_pair_manifold *spare_items;
    size_t spare_capacity;
} vx_narrow_phase;

void vx_narrow_phase_init(vx_narrow_phase *d);
void vx_narrow_phase_free(vx_narrow_phase *d);

/* The box body slot i (which has a collider) is entered into the broad phase
 * with for a substep of h: its bounds grown so that every pair the narrow
 * phase below could find is a pair of overlapping boxes. */
vx_aabb vx_narrow_phase_bounds(const vx_body_set *bodies, size_t i, float speculative_distance, float h);

/* The narrow phase of body slots a and b (a's entity index the lower): true
 * and *out filled (a, b, sensor, manifold sorted by feature) when their
 * shapes are closer than speculative_distance plus what their relative
 * motion can close in h (so bodies up to that fast are stopped at the
 * surface); a body on a mesh: its first manifold. */
bool vx_narrow_phase_pair(const vx_body_set *bodies, uint32_t a, uint32_t b, float speculative_distance,
                             float h, vx_pair_manifold *out);

/* Finds the manifolds of the bodies' current poses for the broad phase's
 * pairs (body slots, sorted by (a, b), a < b), skipping pairs where neither
 * body can move; d->items is replaced. With reuse, a pair whose manifold of
 * an earlier detection was kept and still serves (manifold_reuse.h) gets
 * it again without a narrow phase, and the manifolds found that can serve
 * later are kept; without, nothing is kept. The pairs are split between
 * the pool's threads (NULL: one); the result does not depend on the split. */
vx_status vx_narrow_phase_detect(vx_narrow_phase *d, const vx_body_set *bodies,
                             const vx_broadphase_pair_list *pairs, float speculative_distance, float h, bool reuse,
                             vx_thread_pool *pool);

#endif
