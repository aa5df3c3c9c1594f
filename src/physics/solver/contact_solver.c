/* The contact solver (contact_solver.h): constraints from the narrow phase's
 * manifolds, warm started from the cache, packed in the solve order, and
 * what a solved substep leaves behind (the cache and the report). */
#include "physics/solver/contact_solver.h"

#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/assert.h"
#include "common/parallel.h"
#include "common/simd4.h"
#include "physics/solver/contact_wide.h"

/* Contact constraints: setup, warm start and the velocity iterations.
 * See contact_solver.h.
 *
 * Conventions. n points from A to B; the relative normal velocity of the
 * contact point is vn = n . (vB + wB x rB - vA - wA x rA) = n . (vB - vA)
 * + wB . (rB x n) - wA . (rA x n), negative when the bodies approach. An
 * impulse lambda along n acts on B and -lambda on A:
 *     vA -= mA n lambda,  wA -= IA^-1 (rA x n) lambda,  and + for B,
 * and K = mA + mB + (rA x n) . IA^-1 (rA x n) + (rB x n) . IB^-1 (rB x n) is
 * the effective inverse mass, so lambda = -(vn - bias) / K brings vn to bias.
 * The same holds for the tangents t1, t2.
 *
 * Targets (bias) of the normal row, from vn0 (before any impulse of the
 * substep) and the separation sep = -depth of the point:
 *   - sep > 0 (speculative): vn >= -sep / h, the bodies may close the gap
 *     within the substep but not more: fast bodies stop at the surface;
 *   - sep <= 0: vn >= 0 (the position passes remove the overlap);
 *   - restitution, e = min(eA, eB): when the point touches (sep within
 *     VX_CONTACT_TOUCH_TOLERANCE) and the approach was faster than the
 *     threshold, vn >= -e * approach. A speculative point stopping a fast
 *     approach remembers it (contact cache, pending_velocity) and the bounce
 *     comes in the next substep, when the point touches: the body bounces
 *     from the surface, not from wherever the substep began. With
 *     restitution "sequential", a pair of dynamic bodies gets no such target
 *     (but a pending bounce): the collision pass bounces it before the solve
 *     (contact_collide.c). */

/* m: a point this close counts as touching for restitution: it bounces from
 * where it is. Farther points stop at the surface first. Far above float
 * rounding of positions, far below any visible gap. */
#define VX_CONTACT_TOUCH_TOLERANCE 1e-3f
/* Of a substep: points of a stopped approach that would reach the surface
 * within this much of the substep at that speed count as touching it. */
#define VX_CONTACT_SIMULTANEOUS 0.01f
/* m: a point whose feature id changed still warm starts from an old point
 * this close to it (in A's body frame), as Jolt and Bullet match points by
 * position: well above the motion of a resting contact in one step, well
 * below the spacing of a manifold's points. */
#define VX_WARM_MATCH_DISTANCE 0.01f
/* 1/sqrt(3): a normal with |n.x| at least this is not close to the YZ plane,
 * so (n.y, -n.x, 0) is long enough to normalise (Box2D/Bullet's choice). */
#define VX_TANGENT_SPLIT 0.57735027f

void vx_contact_solver_init(vx_contact_solver *s)
{
    memset(s, 0, sizeof *s);
    vx_solve_order_init(&s->order);
    s->reuse_separations = true;
}

void vx_contact_solver_free(vx_contact_solver *s)
{
    free(s->constraints);
    free(s->rows);
    free(s->anchors);
    free(s->hot);
    free(s->hot_velocity);
    free(s->block_arena);
    free(s->block_offset);
    free(s->substep_points);
    free(s->start_x);
    free(s->collided);
    vx_solve_order_free(&s->order);
    vx_solve_flow_free(&s->flow);
    vx_contact_solver_init(s);
}

static vx_status reserve(vx_contact_solver *s, size_t constraints, size_t points)
{
    size_t cap;
    vx_status st = VX_OK;
    if (constraints > s->capacity) {
        st = vx_grow_capacity(s->capacity, constraints, 64u, sizeof *s->constraints, &cap);
        VX_GROW_ARRAY(st, s->constraints, cap);
        if (st == VX_OK) s->capacity = cap;
    }
    if (st == VX_OK && points > s->point_capacity) {
        st = vx_grow_capacity(s->point_capacity, points, 256u, sizeof *s->anchors, &cap);
        VX_GROW_ARRAY(st, s->anchors, cap);
        if (st == VX_OK) s->point_capacity = cap;
    }
    VX_RESERVE_ALIGNED(st, s->rows, s->row_capacity, points, 64u);
    return st;
}

/* A fixed orthonormal pair perpendicular to n: the same n always gives the
 * same tangents, so friction impulses warm start along the same axes. */
static void tangent_basis(vx_vec3 n, vx_vec3 *t1, vx_vec3 *t2)
{
    if (fabsf(n.x) >= VX_TANGENT_SPLIT)
        *t1 = vx_vec3_normalize(vx_vec3_make(n.y, 0.0f - n.x, 0.0f));
    else
        *t1 = vx_vec3_normalize(vx_vec3_make(0.0f, n.z, 0.0f - n.y));
    *t2 = vx_vec3_cross(n, *t1);
}

/* World point -> body frame of a pose. */
static vx_vec3 to_body(const vx_body_pose *p, const vx_vec3 *world)
{
    return vx_v4_to_vec3(vx_pose_to_body4(p, vx_v4_load3(world)));
}

/* Each point of m takes the old entry with its own feature id; a point
 * without one takes the nearest unclaimed entry whose point on A (in A's
 * frame) lies within VX_WARM_MATCH_DISTANCE. The second rule keeps the warm
 * start where clipping renames a point that has not moved: the corners of
 * equal boxes stacked on each other switch between "incident vertex",
 * "clipped edge" and "reference corner" with every micrometre of offset. */
static void match_points(const vx_manifold *m, const vx_body_pose *pa, const vx_contact_cache_entry *old,
                         size_t n_old, const vx_contact_cache_entry *match[VX_MANIFOLD_MAX_POINTS])
{
    bool used[VX_MANIFOLD_MAX_POINTS] = {false, false, false, false};
    if (n_old > VX_MANIFOLD_MAX_POINTS) n_old = VX_MANIFOLD_MAX_POINTS; /* one manifold's worth */
    for (int k = 0; k < m->count; k++) {
        match[k] = NULL;
        for (size_t j = 0; j < n_old; j++) {
            if (used[j] || old[j].feature != m->points[k].feature) continue;
            match[k] = &old[j];
            used[j] = true;
            break;
        }
    }
    for (int k = 0; k < m->count; k++) {
        if (match[k]) continue;
        vx_vec3 local = to_body(pa, &m->points[k].point_a);
        float best = VX_WARM_MATCH_DISTANCE * VX_WARM_MATCH_DISTANCE;
        size_t best_j = n_old;
        for (size_t j = 0; j < n_old; j++) {
            if (used[j]) continue;
            float d = vx_vec3_length_sq(vx_vec3_sub(old[j].local_a, local));
            if (d < best) {
                best = d;
                best_j = j;
            }
        }
        if (best_j < n_old) {
            match[k] = &old[best_j];
            used[best_j] = true;
        }
    }
}

static float inverse_or_zero(float k) { return k > 0.0f ? 1.0f / k : 0.0f; }

/* A body's world inverse inertia as three column vectors (simd4.h). */
static void inertia_columns(const vx_body_mass *m, vx_v4 c[3])
{
    for (int j = 0; j < 3; j++)
        c[j] = vx_v4_make3(m->inv_inertia.m[0][j], m->inv_inertia.m[1][j], m->inv_inertia.m[2][j]);
}


/* The angular parts of one row along direction d and its effective mass,
 * in 4-float registers: the same operations in the same order as
 * vx_vec3_cross, vx_mat3_mul_vec3 and vx_vec3_dot, so the same bits. */
static inline float setup_row(const vx_contact_constraint *c, const vx_v4 ia[3], const vx_v4 ib[3], vx_v4 ra,
                              vx_v4 rb, vx_v4 dv, float ra_d[4], float rb_d[4], float ia_d[4], float ib_d[4])
{
    vx_v4 rad = vx_v4_cross3(ra, dv), rbd = vx_v4_cross3(rb, dv);
    vx_v4 iad = vx_v4_mat3_columns_mul(ia, rad), ibd = vx_v4_mat3_columns_mul(ib, rbd);
    vx_v4_store3(ra_d, rad);
    vx_v4_store3(rb_d, rbd);
    vx_v4_store3(ia_d, iad);
    vx_v4_store3(ib_d, ibd);
    float k = c->inv_mass_a + c->inv_mass_b + vx_v4_dot3(rad, iad) + vx_v4_dot3(rbd, ibd);
    return inverse_or_zero(k);
}

static inline float point_velocity_along(const vx_body_velocity *va, const vx_body_velocity *vb, vx_vec3 d,
                                         const float ra_d[4], const float rb_d[4])
{
    return vx_vec3_dot(vx_vec3_sub(vb->v, va->v), d) + vx_vec3_dot(vb->w, vx_contact_get3(rb_d)) -
           vx_vec3_dot(va->w, vx_contact_get3(ra_d));
}

/* What prepare_point needs of its constraint in registers, loaded once per
 * manifold: the bodies' world inverse inertias as columns, and the normal
 * and tangents. */
typedef struct {
    vx_v4 ia[3], ib[3];
    vx_v4 dir[3]; /* n, t1, t2 */
} constraint_registers;

static void load_constraint_registers(const vx_contact_constraint *c, const vx_body_set *bodies,
                                      constraint_registers *r)
{
    inertia_columns(&bodies->mass[c->a], r->ia);
    inertia_columns(&bodies->mass[c->b], r->ib);
    r->dir[0] = vx_v4_load3(&c->n);
    r->dir[1] = vx_v4_load3(&c->t1);
    r->dir[2] = vx_v4_load3(&c->t2);
}

static void prepare_point(vx_contact_constraint *c, const constraint_registers *cr, const vx_manifold_point *mp,
                          const vx_body_set *bodies,
                          const vx_contact_cache_entry *cached, float restitution, bool by_pass,
                          const vx_world_def *config, float h, vx_contact_hot_row *row, vx_contact_anchor *anchor)
{
    const vx_body_pose *pa = &bodies->pose[c->a];
    const vx_body_pose *pb = &bodies->pose[c->b];
    memset(anchor, 0, sizeof *anchor);
    anchor->local_a = to_body(pa, &mp->point_a);
    anchor->local_b = to_body(pb, &mp->point_b);
    anchor->feature = mp->feature;
    if (!c->solve) {
        memset(row, 0, sizeof *row);
        return;
    }
    /* every other field of the row is written below (a memset of the whole
     * row first was a tenth of prepare) */
    row->normal_impulse = 0.0f;
    row->pad = 0.0f;

    const vx_body_velocity *va = &bodies->velocity[c->a];
    const vx_body_velocity *vb = &bodies->velocity[c->b];
    /* Both bodies push at the middle of the two surface points. */
    vx_vec3 mid = vx_vec3_scale(vx_vec3_add(mp->point_a, mp->point_b), 0.5f);
    vx_vec3 ra = vx_vec3_sub(mid, pa->x);
    vx_vec3 rb = vx_vec3_sub(mid, pb->x);
    vx_v4 ra4 = vx_v4_make3(ra.x, ra.y, ra.z), rb4 = vx_v4_make3(rb.x, rb.y, rb.z);
    row->normal_mass = setup_row(c, cr->ia, cr->ib, ra4, rb4, cr->dir[0], row->ra_n, row->rb_n, row->ia_n, row->ib_n);

    float vn0 = point_velocity_along(va, vb, c->n, row->ra_n, row->rb_n);
    float sep = 0.0f - mp->depth;
    anchor->separation = sep;
    /* the collision pass bounces it first (contact_collide.c) */
    if (by_pass && restitution > 0.0f && vn0 < -config->restitution_threshold &&
        sep < (0.0f - vn0) * vx_contact_collide_lookahead(config))
        c->collide = true;
    /* A stopped approach is measured along today's normal: a glancing
     * contact turns its normal between the stop and the bounce. */
    float pending = cached ? fminf(vx_vec3_dot(cached->pending_velocity, c->n), 0.0f) : 0.0f;
    float approach = fminf(vn0, pending);
    bool fast = restitution > 0.0f && approach < -config->restitution_threshold;
    anchor->approach = approach;
    /* Points stopped at the surface together last substep bounce together:
     * the solver leaves them a tilt that grows with the speed it stopped
     * (its iterations' residual), and a face whose near corners bounce while
     * its far ones wait would be set spinning. */
    float touch = VX_CONTACT_TOUCH_TOLERANCE;
    if (cached && pending < vn0) touch += VX_CONTACT_SIMULTANEOUS * (0.0f - pending) * h;
    /* Between two dynamic bodies the collision pass makes the bounce (and
     * takes this point's restitution back if it does); only a bounce due
     * from a stopped approach is the solve's. */
    if (fast && sep <= touch && !(by_pass && !(cached && pending < vn0))) {
        row->bias = (0.0f - restitution) * approach;
        if (cached && pending < vn0) {
            /* The bounce of an approach stopped at the surface last
             * substep: it happened at the start of this one, so what has
             * pulled the bodies together since (gravity) acts after it. */
            row->bias += fminf(vn0 - cached->pending_after, 0.0f);
        }
        anchor->bounced = true;
    } else {
        row->bias = sep > 0.0f ? (0.0f - sep) / h : 0.0f;
        anchor->may_pend = fast;
        if (fast) {
            vx_vec3 at_b = vx_vec3_add(vb->v, vx_vec3_cross(vb->w, rb));
            vx_vec3 at_a = vx_vec3_add(va->v, vx_vec3_cross(va->w, ra));
            anchor->velocity = vx_vec3_sub(at_b, at_a);
            /* Already stopped once: keep the original approach. */
            if (cached && pending < vn0) anchor->velocity = cached->pending_velocity;
        }
    }

    if (cached && config->warm_starting) row->normal_impulse = cached->normal_impulse;
}

/* The manifold's friction rows (vx_contact_friction): the tangents at the
 * centre of the points (each the middle of its two surface points, as the
 * normal rows push), the twist about the normal, the points' distances from
 * the centre, and the warm start from the first point the cache matched. */
static void prepare_patch(vx_contact_constraint *c, const constraint_registers *cr, const vx_manifold *m,
                          const vx_body_set *bodies, const vx_contact_cache_entry *const cached[],
                          const vx_world_def *config)
{
    vx_contact_friction *f = &c->patch;
    memset(f, 0, sizeof *f);
    if (!c->solve || !(c->friction > 0.0f) || m->count < 1) return;
    vx_vec3 mid[VX_MANIFOLD_MAX_POINTS];
    vx_vec3 centre = vx_vec3_zero();
    for (int k = 0; k < m->count; k++) {
        mid[k] = vx_vec3_scale(vx_vec3_add(m->points[k].point_a, m->points[k].point_b), 0.5f);
        centre = vx_vec3_add(centre, mid[k]);
    }
    centre = vx_vec3_scale(centre, 1.0f / (float)m->count);
    for (int k = 0; k < m->count; k++) f->lever[k] = vx_vec3_length(vx_vec3_sub(mid[k], centre));
    vx_vec3 ra = vx_vec3_sub(centre, bodies->pose[c->a].x);
    vx_vec3 rb = vx_vec3_sub(centre, bodies->pose[c->b].x);
    vx_v4 ra4 = vx_v4_make3(ra.x, ra.y, ra.z), rb4 = vx_v4_make3(rb.x, rb.y, rb.z);
    for (int j = 0; j < 2; j++)
        f->tangent_mass[j] =
            setup_row(c, cr->ia, cr->ib, ra4, rb4, cr->dir[1 + j], f->ra_t[j], f->rb_t[j], f->ia_t[j], f->ib_t[j]);
    vx_v4 iat = vx_v4_mat3_columns_mul(cr->ia, cr->dir[0]), ibt = vx_v4_mat3_columns_mul(cr->ib, cr->dir[0]);
    vx_v4_store3(f->ia_twist, iat);
    vx_v4_store3(f->ib_twist, ibt);
    f->twist_mass = inverse_or_zero(vx_v4_dot3(cr->dir[0], iat) + vx_v4_dot3(cr->dir[0], ibt));
    if (!config->warm_starting) return;
    for (int k = 0; k < m->count; k++) {
        if (!cached[k]) continue;
        /* projected on this step's tangents, which may have turned */
        f->tangent_impulse[0] = vx_vec3_dot(cached[k]->friction_impulse, c->t1);
        f->tangent_impulse[1] = vx_vec3_dot(cached[k]->friction_impulse, c->t2);
        f->twist_impulse = cached[k]->twist_impulse;
        break;
    }
}

typedef struct {
    vx_contact_solver *s;
    const vx_narrow_phase *d;
    const vx_body_set *bodies;
    const vx_contact_cache *cache;
    const vx_world_def *config;
    float h;
} prepare_job;

/* Constraints [begin, end) from their manifolds (their first rows are set);
 * the cache walk starts where the range's first pair would be. */
static void prepare_range(void *arg, size_t begin, size_t end)
{
    prepare_job *job = arg;
    vx_contact_solver *s = job->s;
    const vx_body_set *bodies = job->bodies;
    const vx_contact_cache *cache = job->cache;
    const vx_narrow_phase *d = job->d;
    size_t cursor = vx_contact_cache_lower_bound(cache, bodies->info[d->items[begin].a].entity,
                                                 bodies->info[d->items[begin].b].entity, d->items[begin].part);
    for (size_t i = begin; i < end; i++) {
        const vx_pair_manifold *pm = &d->items[i];
        const vx_body_info *ia = &bodies->info[pm->a];
        const vx_body_info *ib = &bodies->info[pm->b];
        vx_contact_constraint *c = &s->constraints[i];
        uint32_t first = c->first;
        memset(c, 0, sizeof *c);
        c->a = pm->a;
        c->b = pm->b;
        c->first = first;
        c->part = pm->part;
        c->count = pm->manifold.count;
        c->sensor = pm->sensor;
        c->solve = !pm->sensor && (ia->motion == VX_MOTION_DYNAMIC || ib->motion == VX_MOTION_DYNAMIC);
        c->n = pm->manifold.normal;
        tangent_basis(c->n, &c->t1, &c->t2);
        c->inv_mass_a = bodies->mass[pm->a].inv_mass;
        c->inv_mass_b = bodies->mass[pm->b].inv_mass;
        c->friction = sqrtf(ia->friction * ib->friction);
        float restitution = fminf(ia->restitution, ib->restitution);

        const vx_contact_cache_entry *cached[VX_MANIFOLD_MAX_POINTS] = {NULL, NULL, NULL, NULL};
        if (c->solve) {
            size_t at = 0;
            size_t n_old = vx_contact_cache_find(cache, &cursor, ia->entity, ib->entity, pm->part, &at);
            match_points(&pm->manifold, &bodies->pose[pm->a], n_old ? cache->items + at : NULL, n_old, cached);
        }
        constraint_registers cr;
        load_constraint_registers(c, bodies, &cr);
        /* between two dynamic bodies the collision pass makes the bounces */
        bool by_pass = job->config->restitution == VX_RESTITUTION_SEQUENTIAL && c->inv_mass_a > 0.0f &&
                       c->inv_mass_b > 0.0f;
        for (int k = 0; k < pm->manifold.count; k++)
            prepare_point(c, &cr, &pm->manifold.points[k], bodies, cached[k], restitution, by_pass, job->config,
                          job->h, &s->rows[first + (uint32_t)k], &s->anchors[first + (uint32_t)k]);
        prepare_patch(c, &cr, &pm->manifold, bodies, cached, job->config);
    }
}

typedef struct {
    vx_contact_solver *s;
    const vx_narrow_phase *d;
} first_job;

static uint32_t manifold_points(const void *arg, size_t i)
{
    return (uint32_t)((const first_job *)arg)->d->items[i].manifold.count;
}

static void set_first(void *arg, size_t i, size_t offset)
{
    ((first_job *)arg)->s->constraints[i].first = (uint32_t)offset;
}

vx_status vx_contact_solver_prepare(vx_contact_solver *s, const vx_narrow_phase *d,
                                    const vx_body_set *bodies, const vx_contact_cache *cache,
                                    const vx_world_def *config, float h)
{
    s->count = 0;
    s->point_count = 0;
    vx_status st = reserve(s, d->count, 0u);
    if (st != VX_OK) return st;
    first_job fj = {s, d};
    size_t points = vx_parallel_offsets(s->pool, d->count, manifold_points, set_first, &fj);
    st = reserve(s, d->count, points);
    if (st != VX_OK) return st;
    s->point_count = points;
    s->count = d->count;
    prepare_job job = {s, d, bodies, cache, config, h};
    vx_parallel_for(s->pool, d->count, prepare_range, &job);
    return VX_OK;
}

/* The packed arrays of the contact solver (see contact_solver.h): the solve
 * order (solve_order.h), the constraints copied in that order into aligned
 * 4-float vectors (contact_velocity.c iterates over them, and over the rows
 * where prepare wrote them), the velocities copied there and back, and the
 * SIMD blocks of an order in lanes (contact_wide.h). */

/* The solve order: every solved constraint, coloured by the bodies the
 * solver moves (inv_mass > 0). */
static vx_status color_constraints(vx_contact_solver *s, size_t body_count, bool colored)
{
    vx_status st = vx_solve_order_begin(&s->order, s->count, body_count);
    if (st != VX_OK) return st;
    for (size_t i = 0; i < s->count; i++) {
        const vx_contact_constraint *c = &s->constraints[i];
        if (c->solve)
            vx_solve_order_add(&s->order, (uint32_t)i, c->a, c->inv_mass_a > 0.0f, c->b, c->inv_mass_b > 0.0f);
        VX_ASSERT(c->a < body_count && c->b < body_count && c->a != c->b);
    }
    return vx_solve_order_end(&s->order, colored);
}

typedef struct {
    vx_contact_solver *s;
    const vx_body_set *bodies;
} pack_job;

/* hot[j] from constraint order[j]. */
static void pack_range(void *arg, size_t begin, size_t end)
{
    pack_job *job = arg;
    vx_contact_solver *s = job->s;
    for (size_t j = begin; j < end; j++) {
        vx_contact_constraint *c = &s->constraints[s->order.sequence[j]];
        c->hot = (uint32_t)j;
        vx_contact_hot_constraint *h = &s->hot[j];
        memset(h, 0, sizeof *h);
        vx_contact_put3(h->n, c->n);
        vx_contact_put3(h->t1, c->t1);
        vx_contact_put3(h->t2, c->t2);
        h->inv_mass_a = c->inv_mass_a;
        h->inv_mass_b = c->inv_mass_b;
        h->friction = c->friction;
        h->a = c->a;
        h->b = c->b;
        h->first = c->first;
        h->count = (uint32_t)c->count;
        h->patch = c->patch;
    }
}

static void pack_velocity_range(void *arg, size_t begin, size_t end)
{
    pack_job *job = arg;
    for (size_t i = begin; i < end; i++) {
        vx_contact_put3(job->s->hot_velocity[i].v, job->bodies->velocity[i].v);
        vx_contact_put3(job->s->hot_velocity[i].w, job->bodies->velocity[i].w);
    }
}

/* Colours the constraints and packs them and the velocities in colour order. */
vx_status vx_contact_solver_pack(vx_contact_solver *s, const vx_body_set *bodies)
{
    vx_status st = color_constraints(s, bodies->count, s->colored);
    VX_RESERVE_ALIGNED(st, s->hot, s->hot_capacity, s->count, 64u);
    VX_RESERVE_ALIGNED(st, s->hot_velocity, s->hot_velocity_capacity, bodies->count, 64u);
    if (st != VX_OK) return st;
    pack_job job = {s, bodies};
    vx_parallel_for(s->pool, s->order.count, pack_range, &job);
    vx_parallel_for(s->pool, bodies->count, pack_velocity_range, &job);
    return VX_OK;
}

typedef struct {
    const vx_contact_solver *s;
    vx_body_set *bodies;
} unpack_job;

/* Only dynamic bodies are pushed (the others have zero inverse mass). */
static void unpack_velocity_range(void *arg, size_t begin, size_t end)
{
    unpack_job *job = arg;
    vx_body_set *bodies = job->bodies;
    for (size_t i = begin; i < end; i++) {
        if (!(bodies->mass[i].inv_mass > 0.0f)) continue;
        bodies->velocity[i].v = vx_contact_get3(job->s->hot_velocity[i].v);
        bodies->velocity[i].w = vx_contact_get3(job->s->hot_velocity[i].w);
    }
}

void vx_contact_solver_unpack(const vx_contact_solver *s, vx_body_set *bodies)
{
    unpack_job job = {s, bodies};
    vx_parallel_for(s->pool, bodies->count, unpack_velocity_range, &job);
}

/* ---- the SIMD blocks of an order in lanes: unit u of two or more
 * constraints is blocks[u], its constraints one per lane (contact_wide.h) ---- */

vx_status vx_contact_solver_reserve_blocks(vx_contact_solver *s)
{
    size_t units = s->order.unit_count;
    vx_status st = VX_OK;
    VX_RESERVE(st, s->block_offset, s->block_offset_capacity, units + 1u, 64u);
    if (st != VX_OK) return st;
    /* each block sized for the largest manifold of its unit */
    size_t bytes = 0;
    for (size_t u = 0; u < units; u++) {
        s->block_offset[u] = bytes;
        if (vx_contact_solver_unit_single(s, u)) continue;
        uint32_t points = 0;
        for (size_t j = s->order.unit_start[u]; j < s->order.unit_start[u + 1u]; j++)
            if (s->hot[j].count > points) points = s->hot[j].count;
        if (points > VX_MANIFOLD_MAX_POINTS) points = VX_MANIFOLD_MAX_POINTS;
        bytes += vx_contact_wide_block_size(points);
    }
    s->block_offset[units] = bytes;
    VX_RESERVE_ALIGNED(st, s->block_arena, s->arena_capacity, bytes ? bytes : 16u, 64u);
    return st;
}

void vx_contact_solver_load_blocks(vx_contact_solver *s, size_t unit_begin, size_t unit_end)
{
    for (size_t u = unit_begin; u < unit_end; u++) {
        if (vx_contact_solver_unit_single(s, u)) continue;
        const vx_contact_hot_constraint *lanes[VX_CONTACT_WIDE_LANES] = {NULL, NULL, NULL, NULL};
        const vx_contact_hot_row *rows[VX_CONTACT_WIDE_LANES] = {NULL, NULL, NULL, NULL};
        size_t first = s->order.unit_start[u], last = s->order.unit_start[u + 1u];
        for (size_t j = first; j < last; j++) {
            lanes[j - first] = &s->hot[j];
            rows[j - first] = &s->rows[s->hot[j].first];
        }
        vx_contact_wide_load(vx_contact_solver_block(s, u), lanes, rows);
    }
}

void vx_contact_solver_store_blocks(vx_contact_solver *s, size_t unit_begin, size_t unit_end)
{
    for (size_t u = unit_begin; u < unit_end; u++) {
        if (vx_contact_solver_unit_single(s, u)) continue;
        vx_contact_hot_row *rows[VX_CONTACT_WIDE_LANES] = {NULL, NULL, NULL, NULL};
        vx_contact_hot_constraint *lanes[VX_CONTACT_WIDE_LANES] = {NULL, NULL, NULL, NULL};
        size_t first = s->order.unit_start[u], last = s->order.unit_start[u + 1u];
        for (size_t j = first; j < last; j++) {
            rows[j - first] = &s->rows[s->hot[j].first];
            lanes[j - first] = &s->hot[j];
        }
        vx_contact_wide_store_impulses(vx_contact_solver_block(s, u), rows, lanes);
    }
}

static void store_blocks_range(void *arg, size_t begin, size_t end)
{
    vx_contact_solver_store_blocks(arg, begin, end);
}

void vx_contact_solver_store_all_blocks(vx_contact_solver *s)
{
    vx_parallel_for(s->pool, s->order.unit_count, store_blocks_range, s);
}

/* What a solved substep leaves behind: the warm-start cache for the next
 * one, and the contact points of the step report. See contact_solver.h.
 *
 * Both are split between the step's threads in ranges of constraints
 * (vx_thread_share), and every range's output lands where the serial loop
 * over all constraints would have put it, so the bytes never depend on the
 * split:
 * - the cache: every point of a solved constraint is one entry, so each
 *   thread counts its range's entries, and after a barrier starts writing
 *   at the sum of the counts of the ranges before its own;
 * - the report: whether a point is reported depends on its depth at the end
 *   of the substep, known only once computed. Thread 0 writes its points in
 *   place; the others write theirs to a staging area past the room for all
 *   points (the list's own spare capacity), then, after a barrier that gives
 *   every range's count, copy them to their place.
 * Everything is allocated on the calling thread before the threads start;
 * an entry is zeroed in place (padding too: caches and reports are compared
 * and written byte for byte) and then filled. */

/* The most ranges split (the threads of a larger pool idle here). */
#define VX_END_MAX_PARTS 256

typedef struct {
    const vx_contact_solver *s;
    const vx_body_set *bodies;
    vx_thread_pool *pool; /* NULL: the calling thread alone */
    int parts;            /* ranges: the pool's threads, at most VX_END_MAX_PARTS */
    vx_contact_cache_entry *entries;
    vx_contact *report;  /* where the first reported point goes */
    vx_contact *staging; /* the ranges after the first report here, from point stage_from on */
    size_t stage_from;
    size_t counts[VX_END_MAX_PARTS]; /* entries or reported points of each range */
} end_job;

static void end_job_init(end_job *job, const vx_contact_solver *s, const vx_body_set *bodies)
{
    memset(job, 0, sizeof *job);
    job->s = s;
    job->bodies = bodies;
    job->pool = vx_parallel_pool(s->pool, s->count); /* few constraints: the calling thread alone */
    int threads = vx_thread_pool_size(job->pool);
    job->parts = threads < VX_END_MAX_PARTS ? threads : VX_END_MAX_PARTS;
}

/* Thread t's range of constraints (empty for a thread beyond the parts). */
static void end_share(const end_job *job, int t, size_t *begin, size_t *end)
{
    *begin = *end = 0;
    if (t < job->parts) vx_thread_share(job->s->count, t, job->parts, begin, end);
}

/* Where the count of range t goes, and the sum of those of the ranges
 * before it once every thread has passed the barrier. */
static size_t end_counts_before(const end_job *job, int t)
{
    size_t sum = 0;
    for (int i = 0; i < t && i < job->parts; i++) sum += job->counts[i];
    return sum;
}

static size_t end_counts_total(const end_job *job) { return end_counts_before(job, job->parts); }

/* ---- the cache ---- */

/* Constraint c's entries (one per point) into out. */
static void store_constraint(const vx_contact_solver *s, const vx_body_set *bodies,
                             const vx_contact_constraint *c, vx_contact_cache_entry *out)
{
    vx_entity ea = bodies->info[c->a].entity;
    vx_entity eb = bodies->info[c->b].entity;
    const vx_contact_friction *patch = &s->hot[c->hot].patch;
    vx_vec3 friction = vx_vec3_add(vx_vec3_scale(c->t1, patch->tangent_impulse[0]),
                                   vx_vec3_scale(c->t2, patch->tangent_impulse[1]));
    for (int k = 0; k < c->count; k++) {
        const vx_contact_hot_row *r = &s->rows[c->first + (uint32_t)k];
        const vx_contact_anchor *an = &s->anchors[c->first + (uint32_t)k];
        vx_contact_cache_entry *e = &out[k];
        memset(e, 0, sizeof *e);
        e->a_index = ea.index;
        e->b_index = eb.index;
        e->part = c->part;
        e->feature = an->feature;
        e->a_generation = ea.generation;
        e->b_generation = eb.generation;
        e->local_a = an->local_a;
        /* A bounce is a one-off: warm starting it would push the
         * separating bodies again next substep. */
        if (!an->bounced) e->normal_impulse = r->normal_impulse;
        e->friction_impulse = friction;
        e->twist_impulse = patch->twist_impulse;
        /* The speculative point held a fast approach at the surface:
         * the bounce is due once it touches. */
        if (an->may_pend && r->normal_impulse > 0.0f) {
            const vx_body_velocity *va = &bodies->velocity[c->a];
            const vx_body_velocity *vb = &bodies->velocity[c->b];
            e->pending_velocity = an->velocity;
            e->pending_after = vx_vec3_dot(vx_vec3_sub(vb->v, va->v), c->n) +
                               vx_vec3_dot(vb->w, vx_contact_get3(r->rb_n)) -
                               vx_vec3_dot(va->w, vx_contact_get3(r->ra_n));
        }
    }
}

static void store_thread(void *ctx, int t, int threads)
{
    (void)threads;
    end_job *job = ctx;
    const vx_contact_solver *s = job->s;
    size_t begin, end;
    end_share(job, t, &begin, &end);
    size_t n = 0;
    for (size_t i = begin; i < end; i++)
        if (s->constraints[i].solve) n += (size_t)s->constraints[i].count;
    if (t < job->parts) job->counts[t] = n;
    vx_thread_pool_barrier(job->pool);
    vx_contact_cache_entry *out = job->entries + end_counts_before(job, t);
    for (size_t i = begin; i < end; i++) {
        const vx_contact_constraint *c = &s->constraints[i];
        if (!c->solve) continue;
        store_constraint(s, job->bodies, c, out);
        out += c->count;
    }
}

vx_status vx_contact_solver_store(const vx_contact_solver *s, const vx_body_set *bodies, vx_contact_cache *cache)
{
    vx_contact_cache_entry *entries = NULL;
    /* at most one entry per point */
    vx_status st = vx_contact_cache_begin_fill(cache, s->point_count, &entries);
    if (st != VX_OK) return st;
    end_job job;
    end_job_init(&job, s, bodies);
    job.entries = entries;
    if (s->count > 0) vx_thread_pool_run(job.pool, store_thread, &job);
    vx_contact_cache_commit_fill(cache, end_counts_total(&job));
    return VX_OK;
}

/* ---- the report ---- */

/* The reported points of constraints [begin, end) into out; their number. */
static size_t report_range(const vx_contact_solver *s, const vx_body_set *bodies, size_t begin, size_t end,
                           vx_contact *out)
{
    size_t n = 0;
    for (size_t i = begin; i < end; i++) {
        const vx_contact_constraint *c = &s->constraints[i];
        const vx_body_pose *pa = &bodies->pose[c->a];
        const vx_body_pose *pb = &bodies->pose[c->b];
        for (int k = 0; k < c->count; k++) {
            const vx_contact_anchor *an = &s->anchors[c->first + (uint32_t)k];
            float impulse = c->solve ? s->rows[c->first + (uint32_t)k].normal_impulse + an->collision_impulse : 0.0f;
            vx_v4 wa4 = vx_pose_to_world4(pa, &an->local_a);
            vx_v4 wb4 = vx_pose_to_world4(pb, &an->local_b);
            float depth = vx_v4_dot3(vx_v4_sub(wa4, wb4), vx_v4_load3(&c->n));
            if (!(depth > 0.0f) && !(impulse > 0.0f)) continue;
            vx_vec3 wa = vx_v4_to_vec3(wa4), wb = vx_v4_to_vec3(wb4);
            vx_contact *o = &out[n++];
            memset(o, 0, sizeof *o);
            o->entity_a = bodies->info[c->a].entity;
            o->entity_b = bodies->info[c->b].entity;
            o->normal = c->n;
            o->depth = depth;
            o->point_on_a = wa;
            o->point_on_b = wb;
            o->feature = an->feature;
            o->part = c->part;
            o->impulse = impulse;
            o->sensor = c->sensor;
        }
    }
    return n;
}

/* The first point of constraint i (the points of the constraints are
 * consecutive, in constraint order: vx_contact_solver_prepare). */
static size_t first_point(const vx_contact_solver *s, size_t i)
{
    return i < s->count ? (size_t)s->constraints[i].first : s->point_count;
}

static void report_thread(void *ctx, int t, int threads)
{
    (void)threads;
    end_job *job = ctx;
    size_t begin, end;
    end_share(job, t, &begin, &end);
    vx_contact *out = job->report;
    if (t > 0 && begin < end) out = job->staging + (first_point(job->s, begin) - job->stage_from);
    size_t n = begin < end ? report_range(job->s, job->bodies, begin, end, out) : 0;
    if (t < job->parts) job->counts[t] = n;
    vx_thread_pool_barrier(job->pool);
    if (t > 0 && n > 0) memcpy(job->report + end_counts_before(job, t), out, n * sizeof *out);
}

vx_status vx_contact_solver_report(const vx_contact_solver *s, const vx_body_set *bodies,
                                   vx_contact_list *report)
{
    if (s->count == 0) return VX_OK;
    end_job job;
    end_job_init(&job, s, bodies);
    /* room for every point in place, and for the points of ranges 1.. staged */
    size_t range1 = s->count, range1_end = s->count;
    if (job.parts > 1) vx_thread_share(s->count, 1, job.parts, &range1, &range1_end);
    job.stage_from = first_point(s, range1);
    size_t room = s->point_count + (s->point_count - job.stage_from);
    if (room > SIZE_MAX - report->count) return VX_ERR_NOMEM;
    vx_status st = vx_contact_list_reserve(report, report->count + room);
    if (st != VX_OK) return st;
    job.report = report->items + report->count;
    job.staging = job.report + s->point_count;
    vx_thread_pool_run(job.pool, report_thread, &job);
    report->count += end_counts_total(&job);
    return VX_OK;
}
