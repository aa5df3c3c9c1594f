/* Integration of the step's bodies: semi-implicit Euler, velocities first
 * (before the contact solver), positions after it. See solver_body.h. */
#include "physics/solver_body.h"

#include "common/parallel.h"

#include "voltex/rotation.h"

/* 1 / (1 + h c): implicit damping, stable for any h and c >= 0 (Box2D). */
static float damping_factor(float h, float c) { return 1.0f / (1.0f + h * c); }

static void integrate_velocity(const vx_body_info *info, vx_body_velocity *vel, float h)
{
    /* The spec's step, operation for operation: v += (g * gravity_scale) * h. */
    vel->v = vx_vec3_add(vel->v, vx_vec3_scale(info->gravity, h));
    if (info->linear_damping > 0.0f) vel->v = vx_vec3_scale(vel->v, damping_factor(h, info->linear_damping));
    if (info->angular_damping > 0.0f) vel->w = vx_vec3_scale(vel->w, damping_factor(h, info->angular_damping));
}

typedef struct {
    vx_solver_bodies *b;
    float h;
} integrate_job;

/* Each body on its own: the split between threads changes nothing. */
static void velocities_range(void *arg, size_t begin, size_t end)
{
    integrate_job *job = arg;
    vx_solver_bodies *b = job->b;
    for (size_t i = begin; i < end; i++) {
        const vx_body_info *info = &b->info[i];
        if (info->motion != VX_MOTION_DYNAMIC || info->asleep) continue;
        /* the world inverse inertia from this substep's orientation */
        vx_solver_bodies_update_mass_of(b, i);
        integrate_velocity(info, &b->velocity[i], job->h);
    }
}

void vx_solver_bodies_integrate_velocities(vx_solver_bodies *b, float h, vx_thread_pool *pool)
{
    integrate_job job = {b, h};
    vx_parallel_for(pool, b->count, velocities_range, &job);
}

void vx_solver_bodies_wake(vx_solver_bodies *b, size_t i, float h)
{
    vx_body_info *info = &b->info[i];
    if (!info->asleep) return;
    info->asleep = false;
    vx_solver_bodies_update_mass_of(b, i);
    if (info->motion == VX_MOTION_DYNAMIC) integrate_velocity(info, &b->velocity[i], h);
}

static void positions_range(void *arg, size_t begin, size_t end)
{
    integrate_job *job = arg;
    vx_solver_bodies *b = job->b;
    float h = job->h;
    for (size_t i = begin; i < end; i++) {
        const vx_body_info *info = &b->info[i];
        if (info->motion == VX_MOTION_STATIC || info->asleep) continue;
        vx_body_pose *pose = &b->pose[i];
        vx_body_velocity *vel = &b->velocity[i];
        pose->x = vx_vec3_add(pose->x, vx_vec3_scale(vel->v, h));
        if (!info->rotates) continue;
        /* Torque-free rotation with the gyroscopic term, conserving |L| and
         * energy. A kinematic body, or a dynamic one without a collider,
         * has no inertia here: vx_rotation_integrate then turns it rigidly
         * at w and leaves w as it is. Zero w leaves q bit for bit. */
        vx_rotation_integrate(&pose->q, &vel->w, info->inertia, h);
    }
}

void vx_solver_bodies_integrate_positions(vx_solver_bodies *b, float h, vx_thread_pool *pool)
{
    integrate_job job = {b, h};
    vx_parallel_for(pool, b->count, positions_range, &job);
}
