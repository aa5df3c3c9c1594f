/* A world's joints (private to the physics module): each joint's def, the
 * frames it was made with, the impulses kept from step to step for warm
 * starting, what its last step did, and the step's working values
 * (joint_solver.h). */
#ifndef VOLTEX_PHYSICS_JOINT_JOINT_SET_H
#define VOLTEX_PHYSICS_JOINT_JOINT_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "voltex/ecs.h"
#include "voltex/joint.h"
#include "voltex/math.h"

/* A side of a joint that is the world, not a body slot. */
#define VX_JOINT_WORLD UINT32_MAX

/* The step's view of one side: its body slot's pose, mass and velocity
 * (the world: identity pose, no mass, at rest). */
typedef struct {
    uint32_t slot;    /* body slot, or VX_JOINT_WORLD */
    vx_vec3 x;        /* centre of mass (the world: origin) */
    vx_quat q;
    float inv_mass;
    vx_mat3 inv_inertia; /* world frame */
    bool moves;       /* dynamic: impulses change it */
    /* the joint's frames in this body's frame (the centre of mass's) */
    vx_vec3 anchor;   /* the anchor point */
    vx_vec3 axis;     /* the axis fixed in this body */
} vx_joint_side;

typedef struct {
    vx_joint_def def;      /* as made: axis unit, length and spring rest resolved */
    uint32_t generation;   /* 0: a free slot */
    /* from creation, in each entity's own frame (the world's for the world) */
    vx_vec3 entity_anchor[2];
    vx_vec3 entity_axis[2];
    vx_quat reference;     /* conj(qA) qB at creation, entity frames */
    bool broken;

    /* kept from step to step (warm starting): the impulses of the last
     * substep; locked rows as world vectors */
    vx_vec3 linear_impulse;  /* point rows, slider's perpendicular rows, distance row (along its line) */
    vx_vec3 angular_impulse; /* hinge's two rows, the rotation lock of fixed and slider */
    float axial_impulse;     /* distance: the rigid length row */
    float spring_impulse, motor_impulse, lower_impulse, upper_impulse;
    float angle;             /* hinge: the unwrapped angle of the last step */

    /* what the last step did (vx_joint_get_state) */
    vx_joint_state state;

    /* the step's work (joint_solver.c) */
    bool active;          /* bound to its bodies and solved this step */
    vx_joint_side side[2];
    vx_quat body_reference; /* conj(qA) qB at creation, body frames */
    vx_vec3 step_linear, step_angular; /* impulses summed over the substeps */
} vx_joint;

typedef struct vx_joint_set {
    vx_joint *items;
    size_t count;    /* slots in use or freed: ids index items */
    size_t capacity;
    size_t live;     /* joints in the world */
    uint32_t generations; /* the last generation handed out */
    uint64_t version; /* one more for every create, destroy and break (joint_solver.c keeps derived lists) */
} vx_joint_set;

void vx_joint_set_init(vx_joint_set *set);
void vx_joint_set_free(vx_joint_set *set);

/* The live joint of id, else NULL. */
vx_joint *vx_joint_set_get(vx_joint_set *set, vx_joint_id id);
const vx_joint *vx_joint_set_get_const(const vx_joint_set *set, vx_joint_id id);

/* Checks def (the message names the field: "joint: FIELD: ...") with the
 * entities' motions already known: a_dynamic / b_dynamic (false for the
 * world). */
vx_status vx_joint_def_check(const vx_joint_def *def, bool a_dynamic, bool b_dynamic, vx_error *err);

/* Adds a checked def; ta, tb the entities' transforms now (NULL: the world).
 * The frames, the length at creation and the reference rotation are
 * taken from them. */
vx_status vx_joint_set_add(vx_joint_set *set, const vx_joint_def *def, const vx_transform *ta,
                           const vx_transform *tb, vx_joint_id *out);
bool vx_joint_set_remove(vx_joint_set *set, vx_joint_id id);

#endif
