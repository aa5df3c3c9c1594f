/* What each solved joint did in the step (joint_solver.h): force, torque,
 * coordinate and rate, and breaking. */
#include <math.h>

#include "physics/joint/joint_solver.h"

static void side_velocity(const vx_joint *j, int s, const vx_body_set *bodies, vx_vec3 *v, vx_vec3 *w)
{
    uint32_t slot = j->side[s].slot;
    *v = slot == VX_JOINT_WORLD ? vx_vec3_zero() : bodies->velocity[slot].v;
    *w = slot == VX_JOINT_WORLD ? vx_vec3_zero() : bodies->velocity[slot].w;
}

/* The coordinate and its rate from the poses and velocities now. */
static void coordinate(vx_joint *j, const vx_body_set *bodies, float *position, float *speed)
{
    vx_vec3 xa, xb, va, wa, vb, wb;
    vx_quat qa, qb;
    vx_joint_side_pose(j, 0, bodies, &xa, &qa);
    vx_joint_side_pose(j, 1, bodies, &xb, &qb);
    side_velocity(j, 0, bodies, &va, &wa);
    side_velocity(j, 1, bodies, &vb, &wb);
    vx_vec3 ra = vx_quat_rotate(qa, j->side[0].anchor), rb = vx_quat_rotate(qb, j->side[1].anchor);
    vx_vec3 d = vx_vec3_sub(vx_vec3_add(xb, rb), vx_vec3_add(xa, ra));
    /* B's anchor's velocity less that of A's point under it */
    vx_vec3 rel = vx_vec3_sub(vx_vec3_add(vb, vx_vec3_cross(wb, rb)), vx_vec3_add(va, vx_vec3_cross(wa, vx_vec3_add(ra, d))));
    *position = 0.0f;
    *speed = 0.0f;
    switch (j->def.type) {
    case VX_JOINT_HINGE: {
        vx_vec3 axis = vx_quat_rotate(qa, j->side[0].axis);
        *position = vx_joint_hinge_angle(j, qa, qb, j->angle);
        *speed = vx_vec3_dot(axis, vx_vec3_sub(wb, wa));
        j->angle = *position;
        break;
    }
    case VX_JOINT_SLIDER: {
        vx_vec3 axis = vx_quat_rotate(qa, j->side[0].axis);
        *position = vx_vec3_dot(axis, d);
        *speed = vx_vec3_dot(axis, rel);
        break;
    }
    case VX_JOINT_DISTANCE: {
        float len = vx_vec3_length(d);
        *position = len;
        vx_vec3 arel = vx_vec3_sub(vx_vec3_add(vb, vx_vec3_cross(wb, rb)), vx_vec3_add(va, vx_vec3_cross(wa, ra)));
        *speed = len > 0.0f ? vx_vec3_dot(d, arel) / len : 0.0f;
        break;
    }
    case VX_JOINT_BALL:
    case VX_JOINT_FIXED: break;
    }
}

void vx_joint_solver_finish(vx_joint_solver *js, const vx_body_set *bodies, float dt)
{
    if (!js->set) return;
    float inv_dt = 1.0f / dt;
    for (size_t k = 0; k < js->bound_count; k++) {
        vx_joint *j = &js->set->items[js->bound[k]];
        if (!j->active) continue; /* asleep: keeps what it last did */
        vx_joint_state *s = &j->state;
        s->force = vx_vec3_scale(j->step_linear, inv_dt);
        s->torque = vx_vec3_scale(j->step_angular, inv_dt);
        coordinate(j, bodies, &s->position, &s->speed);
        if (isfinite(j->def.break_force) && vx_vec3_length(s->force) > j->def.break_force) {
            j->broken = true;
            s->broken = true;
            j->linear_impulse = j->angular_impulse = vx_vec3_zero();
            j->axial_impulse = j->spring_impulse = j->motor_impulse = j->lower_impulse = j->upper_impulse = 0.0f;
            js->set->version++;
        }
    }
}
