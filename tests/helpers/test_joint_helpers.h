/* Joint measurements for the validation tests: where a joint's two anchors
 * are now, from the anchors it was made with and the bodies' motion since
 * the start (no engine internals). */
#ifndef VOLTEX_TEST_JOINT_HELPERS_H
#define VOLTEX_TEST_JOINT_HELPERS_H

#include "test_validation.h"
#include "voltex/joint.h"

/* Side s (0: a, 1: b) of scene joint k: its anchor point now. */
static inline vx_vec3 vx_test_joint_anchor(const vx_validation *v, size_t k, int s)
{
    vx_joint_def def;
    vx_error err;
    cr_assert_eq(vx_joint_get_def(v->scene.world, v->scene.joints[k].id, &def, &err), VX_OK, "%s", err.message);
    vx_vec3 at = def.type == VX_JOINT_DISTANCE ? (s == 0 ? def.anchor_a : def.anchor_b) : def.anchor;
    int64_t e = s == 0 ? v->scene.joints[k].entity_a : v->scene.joints[k].entity_b;
    if (e < 0) return at; /* the world */
    const vx_body_state *p0 = &v->start[e], *p = &v->now[e];
    vx_vec3 local = vx_quat_rotate(vx_quat_conjugate(p0->q), vx_vec3_sub(at, p0->p));
    return vx_vec3_add(p->p, vx_quat_rotate(p->q, local));
}

/* How far apart joint k's two anchors are now (0 for a joint that holds). */
static inline double vx_test_joint_gap(const vx_validation *v, size_t k)
{
    return vx_validation_distance(vx_test_joint_anchor(v, k, 1), vx_test_joint_anchor(v, k, 0));
}

static inline double vx_test_worst_joint_gap(const vx_validation *v)
{
    double worst = 0.0;
    for (size_t k = 0; k < v->scene.joint_count; k++) {
        double g = vx_test_joint_gap(v, k);
        worst = g > worst ? g : worst;
    }
    return worst;
}

static inline vx_joint_state vx_test_joint_state(const vx_validation *v, size_t k)
{
    vx_joint_state s;
    vx_error err;
    cr_assert_eq(vx_joint_get_state(v->scene.world, v->scene.joints[k].id, &s, &err), VX_OK, "%s", err.message);
    return s;
}

#endif
