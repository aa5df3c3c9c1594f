/* Continuous collision (private to the physics module), in three parts:
 *
 * 1. Which pairs get contacts ahead of time (vx_ccd_pair_margin, used by the
 *    narrow phase of narrow_phase.c). Interface.md, rigidbody `bullet`:
 *    - a dynamic body against a static or kinematic one: continuous, always:
 *      the margin is speculative_distance plus what the pair's relative
 *      motion can close in the substep, so a fast body meets a speculative
 *      contact before it can pass through;
 *    - two dynamic bodies: the same when one is a `bullet`; otherwise the
 *      motion part is capped at the two bodies' half thicknesses (the sum
 *      of their inner radii), so ordinary collisions still meet at the
 *      surface, and pairs faster than that per substep may pass through
 *      each other (Box2D, Jolt and Bullet do the same without CCD);
 *    - pairs that are never solved (sensors, no dynamic body): as before,
 *      they are only reported.
 *
 * 2. Ghost collisions (vx_ccd_confirm, after the narrow phase). A
 *    speculative point lets the bodies close its gap along the normal
 *    within the substep and no more: a linear prediction that is wrong when
 *    the path passes a corner, an edge or the rim of a plate, where the
 *    closest features of now are not the ones the path would meet. The
 *    contact then slows or deflects a body that would have missed. So a
 *    manifold whose points are all separated, and that would push at the
 *    current velocities, is kept only when a time-of-impact sweep of the
 *    two shapes (time_of_impact.h, at the velocities before the solver)
 *    touches within the substep; a fast impact against a static or
 *    kinematic body also gets the features it meets at (ccd.c). Touching
 *    and resting contacts never pay for a sweep.
 *
 * 3. After the solve (vx_ccd_limit_motion, ccd_clamp.c): bodies that the
 *    solve set spinning are stopped where they first touch (see below). */
#ifndef VOLTEX_PHYSICS_CCD_H
#define VOLTEX_PHYSICS_CCD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/thread_pool.h"
#include "physics/body_set.h"
#include "physics/collision/broadphase.h"
#include "voltex/collide.h"

/* m: a point this close counts as touching (no sweep), and a sweep that
 * comes this close counts as an impact. Well below any near miss worth
 * calling one, well above float rounding of positions. */
#define VX_CCD_TOUCH_DISTANCE 1e-3f

/* A dynamic body with `bullet: true`. */
static inline bool vx_ccd_is_bullet(const vx_body_info *info)
{
    return info->motion == VX_MOTION_DYNAMIC && info->rigidbody && info->rigidbody->bullet;
}

/* The narrow phase margin of the pair for a substep of h:
 * speculative_distance (negative counts as 0) plus h (|vA - vB| + |wA| RA +
 * |wB| RB), the latter capped for two dynamic bodies without a bullet (see
 * above). */
float vx_ccd_pair_margin(const vx_body_set *bodies, uint32_t a, uint32_t b, float speculative_distance,
                         float h);

/* After the narrow phase found manifold m (normal from a to b) for the pair
 * with the given margin, for a substep of h. False when its contact would
 * push the bodies (some separated point closes its gap within h at the
 * current velocities), no point touches, and the swept shapes stay apart
 * for the whole substep: a ghost, to be dropped. True otherwise (always for
 * sensors and pairs without a dynamic body); then, when the sweep found the
 * impact later in the substep, the pair is fast (h times its closing speed
 * beyond speculative_distance), one body is dynamic and the other does not
 * turn, m is replaced by the manifold of the poses at impact carried back
 * to the current ones (see ccd.c). */
bool vx_ccd_confirm(const vx_body_set *bodies, uint32_t a, uint32_t b, float speculative_distance, float h,
                    float margin, vx_manifold *m);

/* ---- after the solve (ccd_clamp.c) ----
 * The speculative contacts are linear: a body that the solve sets spinning
 * (a box hitting a plate corner first turns at up to ~150 rad/s) swings its
 * other corners along arcs the contacts did not see, centimetres deep into
 * a plate a centimetre thick, and out of its far side. So once positions
 * are integrated, each dynamic body of a continuous pair that moved fast is
 * swept again with its solved velocities from where the substep began, as
 * a core: its shape shrunk by VX_CCD_CORE_INSET plus however deep it
 * already was at the start, against the other body's whole shape. When the
 * core touches at a time t inside the substep, the body is moved back to
 * its pose at t, its velocities kept (Box2D v3's continuous step does the
 * same): it has gone at most the inset deeper than it was, and the
 * contacts of the next substep take over. Against another dynamic body
 * only a bullet is moved back. */

/* m: how far inside the surface the core is: penetration the position
 * passes are left to remove. Above any speculative arrival's rounding,
 * well below the slop and the thinnest plate worth simulating. */
#define VX_CCD_CORE_INSET 2e-3f

typedef struct {
    float *time;  /* per body slot: how long into the substep it may move */
    float *reach; /* per body slot: how far its surface can move in the substep */
    uint8_t *kind; /* per body slot: KIND_* flags of ccd_clamp.c */
    size_t capacity;
} vx_ccd_scratch;

void vx_ccd_scratch_init(vx_ccd_scratch *s);
void vx_ccd_scratch_free(vx_ccd_scratch *s);

/* The sweep above, over the broad phase's pairs (body slots, a < b), after
 * vx_body_set_integrate_positions(bodies, h), for fast pairs only: h
 * times their closing speed beyond speculative_distance (slower, what the
 * linear contacts miss is a few millimetres, the position passes' work).
 * Deterministic (pairs in order, the earliest time per body wins).
 * The bodies' reaches are found on pool's threads (NULL: one thread).
 * VX_ERR_NOMEM if the scratch cannot grow (bodies then unchanged). */
vx_status vx_ccd_limit_motion(vx_ccd_scratch *s, vx_body_set *bodies, const vx_broadphase_pair_list *pairs,
                              float speculative_distance, float h, vx_thread_pool *pool);

#endif
