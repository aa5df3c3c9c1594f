/* Contact response of the reference pipeline (docs/simulation.md, "Where
 * the engine started"): sequential impulses on the normal (accumulated and
 * clamped, Gauss-Seidel over the contacts in list order) with its
 * restitution rule (the smaller of the pair), then its Baumgarte position
 * correction.
 *
 * Sign convention. The normal n points from A to B and we use the relative
 * velocity of B with respect to A, vn = dot(v_b - v_a, n): the bodies approach
 * when vn < 0. The reference writes v_rel = v_a - v_b and calls vn > 0
 * separating with that sign; both describe the same physics. For a single
 * contact the first pass applies j = -(1 + e) vn0 / (inv_mass_a + inv_mass_b)
 * and later passes find nothing left to do. */
#include "voltex/reference.h"

#include <stdint.h>
#include <stdlib.h>

/* Contacts solved from a stack buffer; larger lists use one heap buffer. If
 * that allocation fails, the list is solved in blocks of this size (each block
 * converged on its own), so resolve never fails. */
#define VX_SOLVER_STACK_CONTACTS 128u

/* One contact as the solver sees it, gathered once per call. */
typedef struct {
    vx_contact *contact;
    vx_rigidbody *body_a; /* NULL when A cannot move: static or no rigid body (velocity 0) */
    vx_rigidbody *body_b;
    vx_vec3 normal;
    float inv_mass_a;
    float inv_mass_b;
    float inv_mass_sum;
    float target;      /* relative normal velocity wanted after the solve, m/s */
    float accumulated; /* normal impulse applied so far, N*s, never negative */
} solver_contact;

/* How the solver sees one entity of a contact. */
typedef struct {
    vx_rigidbody *moving; /* dynamic or kinematic body, else NULL */
    float inv_mass;
    float restitution;
} body_view;

static body_view view_body(vx_registry *registry, vx_entity e)
{
    body_view v;
    vx_rigidbody *rb = vx_registry_get(registry, e, VX_COMPONENT_RIGIDBODY);
    if (!rb) {
        /* A collider without a rigid body is a static collider
         * (docs/scene_format.md); it bounces like the default static body. */
        v.moving = NULL;
        v.inv_mass = 0.0f;
        v.restitution = vx_rigidbody_static().restitution;
        return v;
    }
    v.moving = vx_rigidbody_is_static(rb) ? NULL : rb;
    v.inv_mass = vx_rigidbody_inv_mass(rb);
    v.restitution = rb->restitution;
    return v;
}

static vx_vec3 velocity_of(const vx_rigidbody *moving) { return moving ? moving->velocity : vx_vec3_zero(); }

static float relative_normal_velocity(const solver_contact *sc)
{
    return vx_vec3_dot(vx_vec3_sub(velocity_of(sc->body_b), velocity_of(sc->body_a)), sc->normal);
}

/* Fills out[0..capacity) from contacts starting at *next, skipping sensors and
 * pairs that cannot move; advances *next past every contact looked at. */
static size_t gather(vx_registry *registry, vx_contact_list *contacts, size_t *next, const vx_world_def *config,
                     solver_contact *out, size_t capacity)
{
    size_t n = 0;
    while (*next < contacts->count && n < capacity) {
        vx_contact *c = &contacts->items[(*next)++];
        if (c->sensor) continue;
        body_view a = view_body(registry, c->entity_a);
        body_view b = view_body(registry, c->entity_b);
        float inv_sum = a.inv_mass + b.inv_mass;
        if (!(inv_sum > 0.0f)) continue;

        solver_contact *sc = &out[n++];
        sc->contact = c;
        sc->body_a = a.moving;
        sc->body_b = b.moving;
        sc->normal = c->normal;
        sc->inv_mass_a = a.inv_mass;
        sc->inv_mass_b = b.inv_mass;
        sc->inv_mass_sum = inv_sum;
        sc->accumulated = 0.0f;
        /* Restitution from the approach speed before any impulse of this call;
         * below the threshold the contact only stops the approach. */
        float vn0 = relative_normal_velocity(sc);
        float e = fminf(a.restitution, b.restitution);
        sc->target = (vn0 < -config->restitution_threshold) ? -e * vn0 : 0.0f;
    }
    return n;
}

static void solve_velocities(solver_contact *scs, size_t n, int iterations)
{
    for (int it = 0; it < iterations; it++) {
        for (size_t i = 0; i < n; i++) {
            solver_contact *sc = &scs[i];
            float vn = relative_normal_velocity(sc);
            float j = (sc->target - vn) / sc->inv_mass_sum;
            /* Clamp the total, not the increment: a later pass may take back
             * part of an earlier push, but contacts never pull. */
            float new_acc = fmaxf(sc->accumulated + j, 0.0f);
            float delta = new_acc - sc->accumulated;
            sc->accumulated = new_acc;
            if (sc->inv_mass_a > 0.0f)
                sc->body_a->velocity =
                    vx_vec3_sub(sc->body_a->velocity, vx_vec3_scale(sc->normal, delta * sc->inv_mass_a));
            if (sc->inv_mass_b > 0.0f)
                sc->body_b->velocity =
                    vx_vec3_add(sc->body_b->velocity, vx_vec3_scale(sc->normal, delta * sc->inv_mass_b));
        }
    }
    for (size_t i = 0; i < n; i++) scs[i].contact->impulse += scs[i].accumulated;
}

/* Solves contacts in rounds of at most `capacity` (one round when the buffer
 * holds them all). */
static void solve_in_rounds(vx_registry *registry, vx_contact_list *contacts, const vx_world_def *config,
                            solver_contact *buffer, size_t capacity)
{
    size_t next = 0;
    while (next < contacts->count) {
        size_t n = gather(registry, contacts, &next, config, buffer, capacity);
        solve_velocities(buffer, n, config->iterations);
    }
}

/* The reference Baumgarte step, once per call: push the pair apart along the
 * normal by a fraction of the overlap beyond the slop, split by inverse mass.
 * Changes positions only, never velocities. */
static void correct_positions(vx_registry *registry, const vx_contact_list *contacts, const vx_world_def *config)
{
    for (size_t i = 0; i < contacts->count; i++) {
        const vx_contact *c = &contacts->items[i];
        if (c->sensor) continue;
        body_view a = view_body(registry, c->entity_a);
        body_view b = view_body(registry, c->entity_b);
        float inv_sum = a.inv_mass + b.inv_mass;
        if (!(inv_sum > 0.0f)) continue;
        float corr = fmaxf(c->depth - config->baumgarte_slop, 0.0f) * config->baumgarte_percent / inv_sum;
        if (!(corr > 0.0f)) continue;
        vx_vec3 push = vx_vec3_scale(c->normal, corr);
        if (a.inv_mass > 0.0f) {
            vx_transform *ta = vx_registry_get(registry, c->entity_a, VX_COMPONENT_TRANSFORM);
            if (ta) ta->position = vx_vec3_sub(ta->position, vx_vec3_scale(push, a.inv_mass));
        }
        if (b.inv_mass > 0.0f) {
            vx_transform *tb = vx_registry_get(registry, c->entity_b, VX_COMPONENT_TRANSFORM);
            if (tb) tb->position = vx_vec3_add(tb->position, vx_vec3_scale(push, b.inv_mass));
        }
    }
}

void vx_resolve_collisions(vx_registry *registry, vx_contact_list *contacts, const vx_world_def *config)
{
    solver_contact stack_buffer[VX_SOLVER_STACK_CONTACTS];
    size_t n = contacts->count;
    if (n <= VX_SOLVER_STACK_CONTACTS) {
        solve_in_rounds(registry, contacts, config, stack_buffer, VX_SOLVER_STACK_CONTACTS);
    } else {
        solver_contact *heap = n <= SIZE_MAX / sizeof *heap ? malloc(n * sizeof *heap) : NULL;
        if (heap) {
            solve_in_rounds(registry, contacts, config, heap, n);
            free(heap);
        } else {
            solve_in_rounds(registry, contacts, config, stack_buffer, VX_SOLVER_STACK_CONTACTS);
        }
    }
    correct_positions(registry, contacts, config);
}
