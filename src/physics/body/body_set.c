/* The step's bodies (body_set.h): gathered from the registry and scattered back,
 * and integrated with semi-implicit Euler, velocities first (before the
 * contact solver), positions after it. */
#include "physics/body/body_set.h"

#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/assert.h"
#include "common/parallel.h"
#include "physics/body/shape.h"
#include "voltex/rotation.h"

/* One entity found by the gather's view, before ordering. */
typedef struct {
    vx_entity entity;
    vx_transform *transform;
    const vx_collider *collider;
    vx_rigidbody *rigidbody;
} gather_record;

void vx_body_set_init(vx_body_set *b) { memset(b, 0, sizeof *b); }

void vx_body_set_free(vx_body_set *b)
{
    free(b->velocity);
    free(b->pose);
    free(b->mass);
    free(b->info);
    free(b->frame_memo);
    free(b->records);
    vx_body_set_init(b);
}

static vx_status reserve_bodies(vx_body_set *b, size_t n)
{
    if (n <= b->capacity) return VX_OK;
    size_t cap;
    vx_status s = vx_grow_capacity(b->capacity, n, 16u, sizeof(vx_body_info), &cap);
    VX_GROW_ARRAY(s, b->velocity, cap);
    VX_GROW_ARRAY(s, b->pose, cap);
    VX_GROW_ARRAY(s, b->mass, cap);
    VX_GROW_ARRAY(s, b->info, cap);
    size_t old = b->capacity;
    VX_GROW_ARRAY(s, b->frame_memo, cap);
    if (s == VX_OK) {
        memset(b->frame_memo + old, 0, (cap - old) * sizeof *b->frame_memo); /* not valid */
        b->capacity = cap;
    }
    return s;
}

static vx_status push_record(vx_body_set *b, size_t count, const gather_record *r)
{
    if (count == b->record_capacity) {
        size_t cap = b->record_capacity ? b->record_capacity * 2u : 16u;
        if (cap > SIZE_MAX / sizeof(gather_record)) return VX_ERR_NOMEM;
        gather_record *items = realloc(b->records, cap * sizeof *items);
        if (!items) return VX_ERR_NOMEM;
        b->records = items;
        b->record_capacity = cap;
    }
    ((gather_record *)b->records)[count] = *r;
    return VX_OK;
}

/* Entity indices of live entities are unique: a total order. */
static int compare_records(const void *pa, const void *pb)
{
    uint32_t a = ((const gather_record *)pa)->entity.index;
    uint32_t b = ((const gather_record *)pb)->entity.index;
    return (a > b) - (a < b);
}

static float safe_inverse(float x) { return x > 0.0f ? 1.0f / x : 0.0f; }

static bool same_vec3(vx_vec3 a, vx_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

/* The entity's pose and origin velocity (in slot's pose and velocity) to
 * the body frame's: from the memo when the entity holds what the last
 * scatter wrote. */
static void gather_framed(vx_body_set *b, size_t slot, const gather_record *r)
{
    const vx_body_frame_memo *memo = &b->frame_memo[slot];
    const vx_transform *t = r->transform;
    VX_ASSERT(r->collider != NULL);
    vx_vec3 v_origin = b->velocity[slot].v;
    if (memo->valid && vx_entity_equal(memo->entity, r->entity) && same_vec3(memo->written.position, t->position) &&
        memo->written.rotation.x == t->rotation.x && memo->written.rotation.y == t->rotation.y &&
        memo->written.rotation.z == t->rotation.z && memo->written.rotation.w == t->rotation.w &&
        same_vec3(memo->written_v, v_origin) && same_vec3(memo->w, b->velocity[slot].w)) {
        b->pose[slot] = memo->pose;
        b->velocity[slot].v = memo->v;
        return;
    }
    vx_transform body = vx_shape_pose(r->collider, t);
    b->pose[slot].x = body.position;
    b->pose[slot].q = body.rotation;
    /* the centre of mass moves at v + w x (c - origin) */
    b->velocity[slot].v =
        vx_vec3_add(v_origin, vx_vec3_cross(b->velocity[slot].w, vx_vec3_sub(body.position, t->position)));
    /* a body the step leaves where it is gets these bits back */
    vx_body_frame_memo *m = &b->frame_memo[slot];
    m->entity = r->entity;
    m->written = *t;
    m->written_v = v_origin;
    m->w = b->velocity[slot].w;
    m->pose = b->pose[slot];
    m->v = b->velocity[slot].v;
    m->valid = true;
}

static void fill_body(vx_body_set *b, size_t slot, const gather_record *r, vx_vec3 gravity)
{
    VX_ASSERT(slot < b->capacity && r->transform != NULL);
    vx_body_info *info = &b->info[slot];
    memset(info, 0, sizeof *info);
    info->entity = r->entity;
    info->transform = r->transform;
    info->rigidbody = r->rigidbody;
    info->has_collider = r->collider != NULL;
    if (r->collider) info->collider = *r->collider;
    info->sweep_radius = r->collider ? vx_shape_sweep_radius(r->collider) : 0.0f;
    info->framed = r->collider && vx_shape_has_frame(r->collider);

    const vx_rigidbody *rb = r->rigidbody;
    if (!rb || vx_rigidbody_is_static(rb))
        info->motion = VX_MOTION_STATIC;
    else
        info->motion = rb->type == VX_BODY_KINEMATIC ? VX_MOTION_KINEMATIC : VX_MOTION_DYNAMIC;

    /* A collider without a rigid body has the default static body's material. */
    vx_rigidbody material = rb ? *rb : vx_rigidbody_static();
    info->friction = material.friction;
    info->restitution = material.restitution;

    b->pose[slot].x = r->transform->position;
    b->pose[slot].q = r->transform->rotation;
    b->velocity[slot].v = vx_vec3_zero();
    b->velocity[slot].w = vx_vec3_zero();
    memset(&b->mass[slot], 0, sizeof b->mass[slot]);
    if (info->motion != VX_MOTION_STATIC) {
        info->rotates = !rb->lock_rotation;
        b->velocity[slot].v = rb->velocity;
        if (info->rotates) b->velocity[slot].w = rb->angular_velocity; /* locked: w stays 0 */
    }
    if (info->framed) gather_framed(b, slot, r);
    if (info->motion != VX_MOTION_DYNAMIC) return;

    b->mass[slot].inv_mass = vx_rigidbody_inv_mass(rb);
    info->gravity = vx_vec3_scale(gravity, rb->gravity_scale);
    info->linear_damping = rb->linear_damping;
    info->angular_damping = rb->angular_damping;
    if (r->collider && info->rotates) {
        info->inertia = vx_shape_inertia(r->collider, rb->mass);
        info->inv_inertia = vx_vec3_make(safe_inverse(info->inertia.x), safe_inverse(info->inertia.y),
                                         safe_inverse(info->inertia.z));
    }
}

typedef struct {
    vx_body_set *b;
    vx_vec3 gravity;
} fill_job;

static void fill_range(void *arg, size_t begin, size_t end)
{
    fill_job *job = arg;
    const gather_record *records = job->b->records;
    for (size_t i = begin; i < end; i++) fill_body(job->b, i, &records[i], job->gravity);
}

/* The view over the registry: the records of every entity with a transform
 * and a collider or a rigid body, sorted by entity index. */
static vx_status find_records(vx_body_set *b, vx_registry *registry)
{
    b->record_count = 0;
    b->records_layout = 0;
    if (!vx_registry_has_component_type(registry, VX_COMPONENT_TRANSFORM)) return VX_OK;
    const vx_component_type types[1] = {VX_COMPONENT_TRANSFORM};
    vx_view q;
    vx_status st = vx_view_begin(&q, registry, types, 1);
    if (st != VX_OK) return st;
    bool has_colliders = vx_registry_has_component_type(registry, VX_COMPONENT_COLLIDER);
    bool has_bodies = vx_registry_has_component_type(registry, VX_COMPONENT_RIGIDBODY);

    size_t n = 0;
    bool sorted = true;
    while (vx_view_next(&q)) {
        gather_record r;
        memset(&r, 0, sizeof r);
        r.entity = q.entity;
        r.transform = vx_view_get(&q, 0);
        r.collider = has_colliders ? vx_registry_get(registry, q.entity, VX_COMPONENT_COLLIDER) : NULL;
        r.rigidbody = has_bodies ? vx_registry_get(registry, q.entity, VX_COMPONENT_RIGIDBODY) : NULL;
        if (!r.collider && !r.rigidbody) continue;
        if (n > 0 && ((gather_record *)b->records)[n - 1].entity.index > r.entity.index) sorted = false;
        st = push_record(b, n, &r);
        if (st != VX_OK) return st;
        n++;
    }
    /* The view walks insertion order, which is entity order unless
     * components were removed and added again. */
    if (!sorted) qsort(b->records, n, sizeof(gather_record), compare_records);
    b->record_count = n;
    b->records_layout = vx_registry_layout(registry);
    const gather_record *records = b->records;
    for (size_t i = 1; i < n; i++) VX_ASSERT(compare_records(&records[i - 1], &records[i]) < 0);
    (void)records;
    return VX_OK;
}

vx_status vx_body_set_gather(vx_body_set *b, vx_registry *registry, vx_vec3 gravity, vx_thread_pool *pool)
{
    b->count = 0;
    vx_status st = VX_OK;
    if (b->records_layout == 0u || b->records_layout != vx_registry_layout(registry)) st = find_records(b, registry);
    if (st != VX_OK) return st;
    size_t n = b->record_count;
    st = reserve_bodies(b, n);
    if (st != VX_OK) return st;
    fill_job job = {b, gravity};
    vx_parallel_for(pool, n, fill_range, &job); /* each slot from its own record */
    b->count = n;
    b->filtered = 0;
    for (size_t i = 0; i < n; i++) {
        const vx_body_info *info = &b->info[i];
        if (info->has_collider &&
            (info->collider.category != VX_DEFAULT_CATEGORY || info->collider.mask != VX_DEFAULT_MASK))
            b->filtered++;
    }
    return VX_OK;
}

/* The body frame's pose and velocity back to the entity's origin, and the
 * memo of what was written. */
static void scatter_framed(const vx_body_set *b, size_t i)
{
    const vx_body_info *info = &b->info[i];
    vx_body_frame_memo *memo = &b->frame_memo[i];
    VX_ASSERT(memo->valid && vx_entity_equal(memo->entity, info->entity));
    if (vx_body_pose_equal(&memo->pose, &b->pose[i]) && same_vec3(memo->v, b->velocity[i].v) &&
        same_vec3(memo->w, b->velocity[i].w)) {
        /* not moved since the gather or the last scatter: the same bits */
        *info->transform = memo->written;
        if (info->motion == VX_MOTION_DYNAMIC) {
            info->rigidbody->velocity = memo->written_v;
            info->rigidbody->angular_velocity = b->velocity[i].w;
        }
        return;
    }
    vx_transform body = {b->pose[i].x, b->pose[i].q};
    vx_transform entity = vx_shape_entity_pose(&info->collider, &body);
    *info->transform = entity;
    if (info->motion == VX_MOTION_DYNAMIC) {
        /* the origin moves at v + w x (origin - c) */
        info->rigidbody->velocity = vx_vec3_add(
            b->velocity[i].v, vx_vec3_cross(b->velocity[i].w, vx_vec3_sub(entity.position, body.position)));
        info->rigidbody->angular_velocity = b->velocity[i].w;
    }
    memo->entity = info->entity;
    memo->written = entity;
    memo->written_v = info->rigidbody->velocity;
    memo->w = b->velocity[i].w;
    memo->pose = b->pose[i];
    memo->v = b->velocity[i].v;
    memo->valid = true;
}

typedef struct {
    const vx_body_set *b;
} scatter_job;

static void scatter_range(void *arg, size_t begin, size_t end)
{
    const vx_body_set *b = ((const scatter_job *)arg)->b;
    for (size_t i = begin; i < end; i++) {
        const vx_body_info *info = &b->info[i];
        if (info->motion == VX_MOTION_STATIC || info->asleep) continue;
        if (info->framed) {
            scatter_framed(b, i);
            continue;
        }
        info->transform->position = b->pose[i].x;
        info->transform->rotation = b->pose[i].q;
        if (info->motion != VX_MOTION_DYNAMIC) continue;
        info->rigidbody->velocity = b->velocity[i].v;
        info->rigidbody->angular_velocity = b->velocity[i].w;
    }
}

/* Every body writes only its own components: split between the threads. */
void vx_body_set_scatter(const vx_body_set *b, vx_thread_pool *pool)
{
    scatter_job job = {b};
    vx_parallel_for(pool, b->count, scatter_range, &job);
}

void vx_body_set_update_mass_of(vx_body_set *b, size_t i)
{
    const vx_body_info *info = &b->info[i];
    if (info->motion != VX_MOTION_DYNAMIC || !info->rotates || !info->has_collider) return;
    b->mass[i].inv_inertia = vx_inertia_world_inverse(b->pose[i].q, info->inv_inertia);
}

/* 1 / (1 + h c): implicit damping, stable for any h and c >= 0 (Box2D). */
static float damping_factor(float h, float c) { return 1.0f / (1.0f + h * c); }

static void integrate_velocity(const vx_body_info *info, vx_body_velocity *vel, float h)
{
    /* The reference integrator's step, operation for operation:
     * v += (g * gravity_scale) * h. */
    vel->v = vx_vec3_add(vel->v, vx_vec3_scale(info->gravity, h));
    if (info->linear_damping > 0.0f) vel->v = vx_vec3_scale(vel->v, damping_factor(h, info->linear_damping));
    if (info->angular_damping > 0.0f) vel->w = vx_vec3_scale(vel->w, damping_factor(h, info->angular_damping));
}

typedef struct {
    vx_body_set *b;
    float h;
} integrate_job;

/* Each body on its own: the split between threads changes nothing. */
static void velocities_range(void *arg, size_t begin, size_t end)
{
    integrate_job *job = arg;
    vx_body_set *b = job->b;
    for (size_t i = begin; i < end; i++) {
        const vx_body_info *info = &b->info[i];
        if (info->motion != VX_MOTION_DYNAMIC || info->asleep) continue;
        /* the world inverse inertia from this substep's orientation */
        vx_body_set_update_mass_of(b, i);
        integrate_velocity(info, &b->velocity[i], job->h);
    }
}

void vx_body_set_integrate_velocities(vx_body_set *b, float h, vx_thread_pool *pool)
{
    integrate_job job = {b, h};
    vx_parallel_for(pool, b->count, velocities_range, &job);
}

void vx_body_set_wake(vx_body_set *b, size_t i, float h)
{
    vx_body_info *info = &b->info[i];
    if (!info->asleep) return;
    info->asleep = false;
    vx_body_set_update_mass_of(b, i);
    if (info->motion == VX_MOTION_DYNAMIC) integrate_velocity(info, &b->velocity[i], h);
}

static void positions_range(void *arg, size_t begin, size_t end)
{
    integrate_job *job = arg;
    vx_body_set *b = job->b;
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

void vx_body_set_integrate_positions(vx_body_set *b, float h, vx_thread_pool *pool)
{
    integrate_job job = {b, h};
    vx_parallel_for(pool, b->count, positions_range, &job);
}
