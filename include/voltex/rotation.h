/* Rotational dynamics: inertia of solid shapes, world-frame inverse inertia,
 * and torque-free rotation that conserves angular momentum and energy. */
#ifndef VOLTEX_ROTATION_H
#define VOLTEX_ROTATION_H

#include "voltex/math.h"

/* Principal moments (body frame, about the centre; shape axes are principal)
 * of solid shapes of the given mass. Capsule: axis local Y, a cylinder of
 * length 2*half_height plus two hemispherical caps, uniform density. */
vx_vec3 vx_inertia_sphere(float mass, float radius);
vx_vec3 vx_inertia_box(float mass, vx_vec3 half_extents);
vx_vec3 vx_inertia_capsule(float mass, float radius, float half_height);

/* R diag(inv_inertia_body) R^T for orientation q. */
vx_mat3 vx_inertia_world_inverse(vx_quat q, vx_vec3 inv_inertia_body);

/* Advances a freely rotating body by dt: orientation *q and world angular
 * velocity *w, including the gyroscopic term. Implicit midpoint on the
 * body-frame angular momentum with a Cayley rotation update, so |L| and the
 * kinetic energy are conserved up to the iteration tolerance and it never
 * blows up. inertia_body: principal moments (all > 0). */
void vx_rotation_integrate(vx_quat *q, vx_vec3 *w, vx_vec3 inertia_body, float dt);

/* Angular momentum I w in the world frame, and rotational kinetic energy. */
vx_vec3 vx_angular_momentum(vx_quat q, vx_vec3 w, vx_vec3 inertia_body);
float vx_rotational_energy(vx_quat q, vx_vec3 w, vx_vec3 inertia_body);

#endif
