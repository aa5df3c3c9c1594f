/* Semi-implicit (symplectic) Euler, the reference pipeline's integrator:
 * velocity first, then position with the new velocity (docs/simulation.md,
 * "Where the engine started"). */
#include "voltex/reference.h"

/* v / (1 + dt * c): a stable implicit damping factor for any dt and c >= 0.
 * Only applied when c > 0, so the undamped step stays bit-exact with the reference. */
static float damping_factor(float dt, float c) { return 1.0f / (1.0f + dt * c); }

/* q' = normalize(q + dt/2 * (w, 0) * q): first-order update for a world-frame
 * angular velocity w. Never called with w == 0, so a body that does not spin
 * keeps its orientation bit for bit. */
static vx_quat integrate_rotation(vx_quat q, vx_vec3 w, float dt)
{
    vx_quat spin = vx_quat_mul(vx_quat_make(w.x, w.y, w.z, 0.0f), q);
    float h = 0.5f * dt;
    return vx_quat_normalize(
        vx_quat_make(q.x + h * spin.x, q.y + h * spin.y, q.z + h * spin.z, q.w + h * spin.w));
}

static bool is_zero(vx_vec3 v) { return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f; }

static void integrate_dynamic(vx_transform *t, vx_rigidbody *rb, vx_vec3 gravity, float dt)
{
    /* The reference step: v += g * gravity_scale * dt; x += v * dt. */
    rb->velocity = vx_vec3_add(rb->velocity, vx_vec3_scale(vx_vec3_scale(gravity, rb->gravity_scale), dt));
    if (rb->linear_damping > 0.0f) rb->velocity = vx_vec3_scale(rb->velocity, damping_factor(dt, rb->linear_damping));
    t->position = vx_vec3_add(t->position, vx_vec3_scale(rb->velocity, dt));

    if (rb->lock_rotation) return;
    if (rb->angular_damping > 0.0f)
        rb->angular_velocity = vx_vec3_scale(rb->angular_velocity, damping_factor(dt, rb->angular_damping));
    if (!is_zero(rb->angular_velocity)) t->rotation = integrate_rotation(t->rotation, rb->angular_velocity, dt);
}

/* Moves at its own velocity: no gravity, no damping, pushed by nothing. */
static void integrate_kinematic(vx_transform *t, const vx_rigidbody *rb, float dt)
{
    t->position = vx_vec3_add(t->position, vx_vec3_scale(rb->velocity, dt));
    if (!rb->lock_rotation && !is_zero(rb->angular_velocity))
        t->rotation = integrate_rotation(t->rotation, rb->angular_velocity, dt);
}

void vx_integrate(vx_registry *registry, const vx_world_def *config, float dt)
{
    const vx_component_type types[2] = {VX_COMPONENT_TRANSFORM, VX_COMPONENT_RIGIDBODY};
    vx_view q;
    if (vx_view_begin(&q, registry, types, 2) != VX_OK) return; /* components not registered: no bodies */
    while (vx_view_next(&q)) {
        vx_transform *t = vx_view_get(&q, 0);
        vx_rigidbody *rb = vx_view_get(&q, 1);
        if (vx_rigidbody_is_static(rb)) continue;
        if (rb->type == VX_BODY_KINEMATIC)
            integrate_kinematic(t, rb, dt);
        else
            integrate_dynamic(t, rb, config->gravity, dt);
    }
}
