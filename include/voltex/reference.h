/* The reference pipeline the engine started from, stage by stage: the
 * axis-aligned narrow phase, detection over a registry of components,
 * semi-implicit Euler and impulse response with Baumgarte correction
 * (docs/simulation.md, "Where the engine started"). vx_step is the engine's
 * step; these functions are kept and tested as the reference, and are not
 * included by voltex.h. */
#ifndef VOLTEX_REFERENCE_H
#define VOLTEX_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "voltex/ecs.h"
#include "voltex/error.h"
#include "voltex/math.h"
#include "voltex/physics.h"

/* Geometry of one contact as the narrow phase finds it. */
typedef struct {
    vx_vec3 normal;  /* unit, from A to B */
    float depth;     /* > 0: overlap */
    vx_vec3 point_a; /* on A's surface */
    vx_vec3 point_b; /* on B's surface */
    uint32_t feature; /* which features of A and B touch; stable from step to step */
} vx_contact_geom;

/* ---- narrow phase: true and *out filled when the shapes overlap (depth > 0);
 * touching or separated shapes give false. Boxes are axis-aligned here. ---- */
bool vx_sphere_vs_sphere(vx_vec3 pos_a, float radius_a, vx_vec3 pos_b, float radius_b, vx_contact_geom *out);
/* A is the sphere, B the box. */
bool vx_sphere_vs_box(vx_vec3 sphere_pos, float radius, vx_vec3 box_pos, vx_vec3 half_extents,
                      vx_contact_geom *out);
/* Separating-axis test of two axis-aligned boxes: one contact on the axis of
 * least overlap. */
bool vx_box_vs_box(vx_vec3 pos_a, vx_vec3 half_a, vx_vec3 pos_b, vx_vec3 half_b, vx_contact_geom *out);

/* ---- the stages ---- */
/* Broad and narrow phase over every entity with transform and collider
 * (no rigidbody = static). Static-static pairs are skipped. out is cleared,
 * then filled in (entity_a, entity_b, feature) order with impulse 0. */
vx_status vx_detect_collisions(vx_registry *registry, vx_contact_list *out);
/* Semi-implicit Euler over dt: v += g * gravity_scale * dt, then x += v * dt.
 * Static bodies are untouched; kinematic bodies move at their velocity. */
void vx_integrate(vx_registry *registry, const vx_world_def *config, float dt);
/* Impulse response with restitution (smaller of the pair) and Baumgarte
 * position correction; adds the applied normal impulse to each contact. */
void vx_resolve_collisions(vx_registry *registry, vx_contact_list *contacts, const vx_world_def *config);

#endif
