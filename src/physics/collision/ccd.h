/* Continuous collision (private to the physics module), in three parts:
 * which pairs get contacts ahead of time (vx_ccd_pair_margin, used by
 * narrow_phase.c), the ghost check that drops speculative contacts a
 * time-of-impact sweep does not confirm (vx_ccd_confirm), and, after the
 * solve, fast bodies moved back to where they first touch
 * (vx_ccd_limit_motion, ccd_clamp.c).
 * See docs/simulation.md, "Continuous collision". */
#ifndef VOLTEX_PHYSICS_CCD_H
#define VOLTEX_PHYSICS_CCD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/thread_pool.h"
#include "physics/body/body_set.h"
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
 * |wB| RB), the latter capped at the sum of the two bodies' inner radii
 * (half thicknesses) for two dynamic bodies without a bullet. */
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
 * Once positions are integrated, each dynamic body of a continuous pair
 * that moved fast is swept again with its solved velocities from where the
 * substep began, as a core (its shape shrunk by VX_CCD_CORE_INSET plus
 * however deep it already was) against the other body's whole shape; when
 * the core touches at a time t inside the substep, the body is moved back to
 * its pose at t, velocities kept. Against another dynamic body only a bullet
 * is moved back. */

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
