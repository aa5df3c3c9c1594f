/* Joints: constraints between two bodies, or a body and the world, solved
 * with the contacts in the same passes (docs/simulation.md, "Joints").
 * Made from a def (one defaults function per type, then change what
 * matters), addressed by an id, read back as forces and coordinates. */
#ifndef VOLTEX_JOINT_H
#define VOLTEX_JOINT_H

#include <stdbool.h>
#include <stdint.h>

#include "voltex/ecs.h"
#include "voltex/error.h"
#include "voltex/math.h"

typedef enum {
    VX_JOINT_BALL = 0,    /* a point shared: 3 rotations free (an optional cone limit) */
    VX_JOINT_HINGE = 1,   /* a point and an axis shared: 1 rotation free */
    VX_JOINT_SLIDER = 2,  /* rotation locked, 1 translation free along the axis */
    VX_JOINT_FIXED = 3,   /* welded */
    VX_JOINT_DISTANCE = 4 /* two points held at a length (or within limits, or on a spring) */
} vx_joint_type;

/* Drives the free coordinate at speed (hinge rad/s, slider m/s) with at
 * most max_effort (hinge N m, slider N). */
typedef struct {
    bool enabled;
    float speed;
    float max_effort;
} vx_joint_motor;

/* The free coordinate pulled to rest (hinge rad, slider m, distance m;
 * distance: a negative rest is the length at creation) like a damped
 * spring of natural frequency `frequency` (Hz > 0): the stiffness is the
 * pair's effective mass along that coordinate times (2 pi f)^2. */
typedef struct {
    bool enabled;
    float frequency;
    float damping_ratio; /* >= 0 */
    float rest;
} vx_joint_spring;

typedef struct {
    vx_joint_type type;
    vx_entity a, b;   /* bodies; VX_ENTITY_NULL is the world (at most one side) */
    vx_vec3 anchor;   /* ball, hinge, slider, fixed: the shared point, world, at creation */
    vx_vec3 axis;     /* hinge, slider, ball with a cone: world direction at creation (non-zero) */
    vx_vec3 anchor_a; /* distance: the point on A, world, at creation */
    vx_vec3 anchor_b; /* distance: the point on B */
    /* hinge: B's turn about the axis relative to A, rad; slider: offset
     * along the axis, m (both 0 at creation, lower <= 0 <= upper);
     * distance: the length's [min, max], m (0 <= min <= max) */
    bool limit_enabled;
    float lower, upper;
    bool cone_enabled; /* ball: the most B's axis tilts from A's, rad in (0, pi) */
    float cone_angle;
    vx_joint_motor motor;   /* hinge, slider */
    vx_joint_spring spring; /* hinge, slider, distance */
    float length;           /* distance, rigid (no limit, no spring): m > 0; 0: the length at creation */
    bool collide_connected; /* A and B still collide with each other */
    float break_force;      /* N > 0: breaks for good in the first step its |force| exceeds this; INFINITY: never */
} vx_joint_def;

/* Each: that type, between two null entities (set a and b), anchors and
 * axis zero (set them), no limit, motor or spring, length 0 (the length at
 * creation), no collision between the pair, never breaks. */
vx_joint_def vx_ball_joint_def_default(void);
vx_joint_def vx_hinge_joint_def_default(void);
vx_joint_def vx_slider_joint_def_default(void);
vx_joint_def vx_fixed_joint_def_default(void);
vx_joint_def vx_distance_joint_def_default(void);

typedef struct {
    uint32_t index;
    uint32_t generation; /* 0: no joint */
} vx_joint_id;

/* What the last step did: f and t the force and torque on B (on A, negated,
 * when B is the world), N and N m, world frame, torque about B's anchor;
 * position the hinge angle (rad, since creation, whole turns counted), the
 * slider offset (m) or the distance (m), 0 for ball and fixed; speed its
 * rate. */
typedef struct {
    vx_vec3 force;
    vx_vec3 torque;
    float position;
    float speed;
    bool broken;
} vx_joint_state;

typedef struct vx_world vx_world;

/* A new joint of def (checked: the bodies are the world's and differ, at
 * least one is dynamic, the axis is non-zero where the type needs one, limits
 * contain the coordinate at creation, efforts and damping >= 0, frequencies
 * > 0, every number finite); its frames are taken from the bodies' poses
 * now. VX_ERR_INVALID with a message naming the field; VX_ERR_NOMEM. */
vx_status vx_world_create_joint(vx_world *world, const vx_joint_def *def, vx_joint_id *out, vx_error *err);
/* Removes the joint; false if it is not in the world. A joint whose body
 * is destroyed stays in the world and acts no more. */
bool vx_world_destroy_joint(vx_world *world, vx_joint_id joint);
/* The joint's last step (zero before the first). VX_ERR_INVALID when the
 * id is not one of the world's joints. */
vx_status vx_joint_get_state(const vx_world *world, vx_joint_id joint, vx_joint_state *out, vx_error *err);
/* The def the joint was made from. */
vx_status vx_joint_get_def(const vx_world *world, vx_joint_id joint, vx_joint_def *out, vx_error *err);

#endif
