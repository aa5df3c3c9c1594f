/* The joint defs' defaults, one per type, and their checks (voltex/joint.h). */
#include <math.h>
#include <string.h>

#include "physics/joint/joint_set.h"

static vx_joint_def joint_def(vx_joint_type type)
{
    vx_joint_def d;
    memset(&d, 0, sizeof d);
    d.type = type;
    d.a = VX_ENTITY_NULL;
    d.b = VX_ENTITY_NULL;
    d.anchor = vx_vec3_zero();
    d.axis = vx_vec3_zero();
    d.anchor_a = vx_vec3_zero();
    d.anchor_b = vx_vec3_zero();
    d.spring.rest = type == VX_JOINT_DISTANCE ? -1.0f : 0.0f;
    d.break_force = INFINITY;
    return d;
}

vx_joint_def vx_ball_joint_def_default(void) { return joint_def(VX_JOINT_BALL); }
vx_joint_def vx_hinge_joint_def_default(void) { return joint_def(VX_JOINT_HINGE); }
vx_joint_def vx_slider_joint_def_default(void) { return joint_def(VX_JOINT_SLIDER); }
vx_joint_def vx_fixed_joint_def_default(void) { return joint_def(VX_JOINT_FIXED); }
vx_joint_def vx_distance_joint_def_default(void) { return joint_def(VX_JOINT_DISTANCE); }

static bool finite3(vx_vec3 v) { return vx_vec3_is_finite(v); }

static bool needs_axis(const vx_joint_def *d)
{
    return d->type == VX_JOINT_HINGE || d->type == VX_JOINT_SLIDER || (d->type == VX_JOINT_BALL && d->cone_enabled);
}

static vx_status check_limits(const vx_joint_def *d, vx_error *err)
{
    if (!d->limit_enabled) return VX_OK;
    if (d->type != VX_JOINT_HINGE && d->type != VX_JOINT_SLIDER && d->type != VX_JOINT_DISTANCE)
        return vx_error_set(err, VX_ERR_INVALID, "joint: limits: only a hinge, slider or distance joint has limits");
    if (!isfinite(d->lower) || !isfinite(d->upper))
        return vx_error_set(err, VX_ERR_INVALID, "joint: limits: must be finite");
    if (d->type == VX_JOINT_DISTANCE) {
        if (!(d->lower >= 0.0f && d->lower <= d->upper))
            return vx_error_set(err, VX_ERR_INVALID, "joint: limits: need 0 <= min <= max (got [%g, %g])",
                                (double)d->lower, (double)d->upper);
        if (!(d->upper > 0.0f)) return vx_error_set(err, VX_ERR_INVALID, "joint: limits: max must be > 0");
        return VX_OK;
    }
    if (!(d->lower <= 0.0f && 0.0f <= d->upper))
        return vx_error_set(err, VX_ERR_INVALID,
                            "joint: limits: must contain 0, the position at creation (got [%g, %g])",
                            (double)d->lower, (double)d->upper);
    return VX_OK;
}

static vx_status check_drives(const vx_joint_def *d, vx_error *err)
{
    if (d->motor.enabled) {
        if (d->type != VX_JOINT_HINGE && d->type != VX_JOINT_SLIDER)
            return vx_error_set(err, VX_ERR_INVALID, "joint: motor: only a hinge or slider joint has a motor");
        if (!isfinite(d->motor.speed)) return vx_error_set(err, VX_ERR_INVALID, "joint: motor: speed must be finite");
        if (!(d->motor.max_effort >= 0.0f) || !isfinite(d->motor.max_effort))
            return vx_error_set(err, VX_ERR_INVALID, "joint: motor: the effort must be finite and >= 0");
    }
    if (d->spring.enabled) {
        if (d->type != VX_JOINT_HINGE && d->type != VX_JOINT_SLIDER && d->type != VX_JOINT_DISTANCE)
            return vx_error_set(err, VX_ERR_INVALID,
                                "joint: spring: only a hinge, slider or distance joint has a spring");
        if (!(d->spring.frequency > 0.0f) || !isfinite(d->spring.frequency))
            return vx_error_set(err, VX_ERR_INVALID, "joint: spring: frequency must be finite and > 0");
        if (!(d->spring.damping_ratio >= 0.0f) || !isfinite(d->spring.damping_ratio))
            return vx_error_set(err, VX_ERR_INVALID, "joint: spring: damping_ratio must be finite and >= 0");
        if (!isfinite(d->spring.rest)) return vx_error_set(err, VX_ERR_INVALID, "joint: spring: rest must be finite");
    }
    return VX_OK;
}

vx_status vx_joint_def_check(const vx_joint_def *d, bool a_dynamic, bool b_dynamic, vx_error *err)
{
    if ((unsigned)d->type > (unsigned)VX_JOINT_DISTANCE)
        return vx_error_set(err, VX_ERR_INVALID, "joint: type: unknown (%d)", (int)d->type);
    if (!a_dynamic && !b_dynamic)
        return vx_error_set(err, VX_ERR_INVALID, "joint: a, b: at least one must be a dynamic body");
    if (!finite3(d->anchor) || !finite3(d->axis) || !finite3(d->anchor_a) || !finite3(d->anchor_b))
        return vx_error_set(err, VX_ERR_INVALID, "joint: anchor, axis: must be finite");
    if (needs_axis(d) && !(vx_vec3_length_sq(d->axis) > 0.0f))
        return vx_error_set(err, VX_ERR_INVALID, "joint: axis: must be a non-zero vector");
    if (d->cone_enabled) {
        if (d->type != VX_JOINT_BALL)
            return vx_error_set(err, VX_ERR_INVALID, "joint: cone: only a ball joint has a cone");
        if (!(d->cone_angle > 0.0f && d->cone_angle < 3.14159265f))
            return vx_error_set(err, VX_ERR_INVALID, "joint: cone: the angle must be in (0, 180) degrees");
    }
    vx_status st = check_limits(d, err);
    if (st == VX_OK) st = check_drives(d, err);
    if (st != VX_OK) return st;
    if (d->type == VX_JOINT_DISTANCE) {
        if (!(d->length >= 0.0f) || !isfinite(d->length))
            return vx_error_set(err, VX_ERR_INVALID, "joint: length: must be finite and >= 0 (0: the length now)");
        if (d->length > 0.0f && d->limit_enabled)
            return vx_error_set(err, VX_ERR_INVALID, "joint: length: not with limits (the length is free within them)");
    }
    if (!(d->break_force > 0.0f))
        return vx_error_set(err, VX_ERR_INVALID, "joint: break_force: must be > 0 (INFINITY: never)");
    return VX_OK;
}
