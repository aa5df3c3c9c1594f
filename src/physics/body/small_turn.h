/* A pose's orientation turned by a small rotation vector (private to the
 * physics module): what the position passes of contacts and joints move
 * orientations by. */
#ifndef VOLTEX_PHYSICS_BODY_SMALL_TURN_H
#define VOLTEX_PHYSICS_BODY_SMALL_TURN_H

#include "voltex/math.h"

/* q turned by theta (radians): first order, then normalised; exact enough
 * for corrections of a few millimetres. */
static inline vx_quat vx_small_turn(vx_quat q, vx_vec3 theta)
{
    vx_quat dq = vx_quat_mul(vx_quat_make(theta.x, theta.y, theta.z, 0.0f), q);
    return vx_quat_normalize(
        vx_quat_make(q.x + 0.5f * dq.x, q.y + 0.5f * dq.y, q.z + 0.5f * dq.z, q.w + 0.5f * dq.w));
}

#endif
