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
 *     from the surface, not from wherever the substep began. */
#include "physics/contact_solver.h"
#include "common/array.h"
#include "common/parallel.h"
#include "physics/simd4.h"

#include <stdlib.h>
#include <string.h>

/* m: a point this close counts as touching for restitution: it bounces from
 * where it is. Farther points stop at the surface first. Far above float
 * rounding of positions, far below any visible gap. */
#define VX_CONTACT_TOUCH_TOLERANCE 1e-3f
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
    vx_contact_colors_init(&s->colors);
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
    vx_contact_colors_free(&s->colors);
    vx_color_flow_free(&s->flow);
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
                          const vx_contact_cache_entry *cached, float restitution, const vx_physics_config *config,
                          float h, vx_contact_hot_row *row, vx_contact_anchor *anchor)
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
    row->tangent_impulse[0] = row->tangent_impulse[1] = 0.0f;
    row->pad = 0.0f;

    const vx_body_velocity *va = &bodies->velocity[c->a];
    const vx_body_velocity *vb = &bodies->velocity[c->b];
    /* Both bodies push at the middle of the two surface points. */
    vx_vec3 mid = vx_vec3_scale(vx_vec3_add(mp->point_a, mp->point_b), 0.5f);
    vx_vec3 ra = vx_vec3_sub(mid, pa->x);
    vx_vec3 rb = vx_vec3_sub(mid, pb->x);
    vx_v4 ra4 = vx_v4_make3(ra.x, ra.y, ra.z), rb4 = vx_v4_make3(rb.x, rb.y, rb.z);
    row->normal_mass = setup_row(c, cr->ia, cr->ib, ra4, rb4, cr->dir[0], row->ra_n, row->rb_n, row->ia_n, row->ib_n);
    for (int k = 0; k < 2; k++)
        row->tangent_mass[k] = setup_row(c, cr->ia, cr->ib, ra4, rb4, cr->dir[1 + k], row->ra_t[k], row->rb_t[k],
                                         row->ia_t[k], row->ib_t[k]);

    float vn0 = point_velocity_along(va, vb, c->n, row->ra_n, row->rb_n);
    float sep = 0.0f - mp->depth;
    /* A stopped approach is measured along today's normal: a glancing
     * contact turns its normal between the stop and the bounce. */
    float pending = cached ? fminf(vx_vec3_dot(cached->pending_velocity, c->n), 0.0f) : 0.0f;
    float approach = fminf(vn0, pending);
    bool fast = restitution > 0.0f && approach < -config->restitution_threshold;
    anchor->approach = approach;
    if (fast && sep <= VX_CONTACT_TOUCH_TOLERANCE) {
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

    if (cached && config->warm_starting) {
        row->normal_impulse = cached->normal_impulse;
        /* Projected on this substep's tangents, which may have turned. */
        if (c->friction > 0.0f) {
            row->tangent_impulse[0] = vx_vec3_dot(cached->friction_impulse, c->t1);
            row->tangent_impulse[1] = vx_vec3_dot(cached->friction_impulse, c->t2);
        }
    }
}

typedef struct {
    vx_contact_solver *s;
    const vx_narrow_phase *d;
    const vx_body_set *bodies;
    const vx_contact_cache *cache;
    const vx_physics_config *config;
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
                                                 bodies->info[d->items[begin].b].entity);
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
            size_t n_old = vx_contact_cache_find_pair(cache, &cursor, ia->entity, ib->entity, &at);
            match_points(&pm->manifold, &bodies->pose[pm->a], n_old ? cache->items + at : NULL, n_old, cached);
        }
        constraint_registers cr;
        load_constraint_registers(c, bodies, &cr);
        for (int k = 0; k < pm->manifold.count; k++)
            prepare_point(c, &cr, &pm->manifold.points[k], bodies, cached[k], restitution, job->config, job->h,
                          &s->rows[first + (uint32_t)k], &s->anchors[first + (uint32_t)k]);
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
                                    const vx_physics_config *config, float h)
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
