/* The velocity iterations of the contact solver (see contact_solver.h and
 * the conventions at the top of contact_solver.c).
 *
 * The iterations run on the rows (every Jacobian an aligned 4-float vector,
 * as prepare wrote them) and on packed copies (contact_solver.c): the solved
 * constraints' directions, masses and body slots, and the bodies' (v, w) as
 * aligned vectors by slot. The copies are filled before the first pass and
 * the velocities copied back after the last, so the passes touch nothing
 * else and go through no
 * branch on the kind of body: a static or kinematic body has zero inverse
 * mass and inverse inertia, its velocity does not change and is not copied
 * back. Every operation is the one the row-by-row formulas do, in the same
 * order, so results are bit for bit those of the plain vx_vec3 code. */
#include "physics/solver/contact_solver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/simd4.h"
#include "physics/solver/contact_wide.h"
#include "physics/solver/solve_sweep.h"

/* The two bodies' velocities of one constraint, held in registers. */
typedef struct {
    vx_v4 va, wa, vb, wb;
} pair_velocity;

/* n . (vB - vA) + wB . (rB x n) - wA . (rA x n), as point_velocity_along. */
static inline float along(const pair_velocity *p, vx_v4 d, const float ra_d[4], const float rb_d[4])
{
    return vx_v4_dot3(vx_v4_sub(p->vb, p->va), d) + vx_v4_dot3(p->wb, vx_v4_load(rb_d)) -
           vx_v4_dot3(p->wa, vx_v4_load(ra_d));
}

/* Impulse lambda along d: B gets +, A gets -, as apply in contact_solver.c. */
static inline void push(pair_velocity *p, vx_v4 d, vx_v4 ima, vx_v4 imb, const float ia_d[4], const float ib_d[4],
                        float lambda)
{
    vx_v4 l = vx_v4_splat(lambda);
    vx_v4 impulse = vx_v4_mul(d, l);
    p->va = vx_v4_sub(p->va, vx_v4_mul(impulse, ima));
    p->wa = vx_v4_sub(p->wa, vx_v4_mul(vx_v4_load(ia_d), l));
    p->vb = vx_v4_add(p->vb, vx_v4_mul(impulse, imb));
    p->wb = vx_v4_add(p->wb, vx_v4_mul(vx_v4_load(ib_d), l));
}

/* The manifold's Coulomb friction at its centre on both tangents, the pair
 * scaled back into the disc of radius friction * (sum of the normal
 * impulses) (one sqrt, only when outside). */
static inline void solve_tangents(pair_velocity *p, vx_v4 t1, vx_v4 t2, vx_v4 ima, vx_v4 imb, float max_impulse,
                                  vx_contact_friction *f)
{
    float vt1 = along(p, t1, f->ra_t[0], f->rb_t[0]);
    float vt2 = along(p, t2, f->ra_t[1], f->rb_t[1]);
    float old1 = f->tangent_impulse[0], old2 = f->tangent_impulse[1];
    float new1 = old1 - vt1 * f->tangent_mass[0];
    float new2 = old2 - vt2 * f->tangent_mass[1];
    float len_sq = new1 * new1 + new2 * new2;
    if (len_sq > max_impulse * max_impulse) {
        float scale = max_impulse / sqrtf(len_sq);
        new1 *= scale;
        new2 *= scale;
    }
    f->tangent_impulse[0] = new1;
    f->tangent_impulse[1] = new2;
    push(p, t1, ima, imb, f->ia_t[0], f->ib_t[0], new1 - old1);
    push(p, t2, ima, imb, f->ia_t[1], f->ib_t[1], new2 - old2);
}

/* An angular impulse lambda about n: B gets +, A gets -. */
static inline void turn(pair_velocity *p, const float ia_n[4], const float ib_n[4], float lambda)
{
    vx_v4 l = vx_v4_splat(lambda);
    p->wa = vx_v4_sub(p->wa, vx_v4_mul(vx_v4_load(ia_n), l));
    p->wb = vx_v4_add(p->wb, vx_v4_mul(vx_v4_load(ib_n), l));
}

/* The twist about the normal, clamped to +-max_impulse. */
static inline void solve_twist(pair_velocity *p, vx_v4 n, float max_impulse, vx_contact_friction *f)
{
    float speed = vx_v4_dot3(p->wb, n) - vx_v4_dot3(p->wa, n);
    float old = f->twist_impulse;
    float next = old - speed * f->twist_mass;
    float low = 0.0f - max_impulse;
    next = next > low ? next : low;
    next = next < max_impulse ? next : max_impulse;
    f->twist_impulse = next;
    turn(p, f->ia_twist, f->ib_twist, next - old);
}

static inline void solve_normal(pair_velocity *p, vx_v4 n, vx_v4 ima, vx_v4 imb, vx_contact_hot_row *r)
{
    float vn = along(p, n, r->ra_n, r->rb_n);
    float lambda = (r->bias - vn) * r->normal_mass;
    /* Clamp the accumulated impulse, not the increment: a later pass may
     * take back part of an earlier push, but a contact never pulls. */
    float total = r->normal_impulse + lambda;
    total = total > 0.0f ? total : 0.0f; /* not fmaxf: a library call here */
    lambda = total - r->normal_impulse;
    r->normal_impulse = total;
    push(p, n, ima, imb, r->ia_n, r->ib_n, lambda);
}

/* The two bodies' velocities of constraint c into registers. */
static inline pair_velocity load_pair(const vx_contact_hot_constraint *c, const vx_contact_hot_velocity *vel)
{
    const vx_contact_hot_velocity *a = &vel[c->a], *b = &vel[c->b];
    pair_velocity p = {vx_v4_load(a->v), vx_v4_load(a->w), vx_v4_load(b->v), vx_v4_load(b->w)};
    return p;
}

/* Back to memory: a static or kinematic body keeps its own velocity (zero
 * inverse mass changes nothing but the sign of a zero). */
static inline void store_pair(const vx_contact_hot_constraint *c, vx_contact_hot_velocity *vel, const pair_velocity *p)
{
    if (c->inv_mass_a > 0.0f) {
        vx_v4_store(vel[c->a].v, p->va);
        vx_v4_store(vel[c->a].w, p->wa);
    }
    if (c->inv_mass_b > 0.0f) {
        vx_v4_store(vel[c->b].v, p->vb);
        vx_v4_store(vel[c->b].w, p->wb);
    }
}

/* Friction first (non-penetration, solved last, matters more): the twist,
 * then the tangents at the centre, their limits from the points' normal
 * impulses now (in point order). */
static inline void solve_frictions(pair_velocity *p, vx_contact_hot_constraint *c, const vx_contact_hot_row *rows,
                                   vx_v4 ima, vx_v4 imb)
{
    if (!(c->friction > 0.0f)) return;
    float total = 0.0f, twist = 0.0f;
    for (uint32_t k = 0; k < c->count; k++) {
        total = total + rows[k].normal_impulse;
        twist = twist + c->patch.lever[k] * rows[k].normal_impulse;
    }
    solve_twist(p, vx_v4_load(c->n), c->friction * twist, &c->patch);
    solve_tangents(p, vx_v4_load(c->t1), vx_v4_load(c->t2), ima, imb, c->friction * total, &c->patch);
}

/* The rigid solve (one substep): as vx_contact_solver_solve_packed with
 * no soft rows, without its test per row. */
static void solve_constraint(vx_contact_hot_constraint *c, vx_contact_hot_row *rows,
                             vx_contact_hot_velocity *vel, bool backwards)
{
    pair_velocity p = load_pair(c, vel);
    vx_v4 ima = vx_v4_splat(c->inv_mass_a), imb = vx_v4_splat(c->inv_mass_b);
    int count = (int)c->count;
    solve_frictions(&p, c, rows, ima, imb);
    vx_v4 n = vx_v4_load(c->n);
    if (backwards)
        for (int k = count - 1; k >= 0; k--) solve_normal(&p, n, ima, imb, &rows[k]);
    else
        for (int k = 0; k < count; k++) solve_normal(&p, n, ima, imb, &rows[k]);
    store_pair(c, vel, &p);
}

/* A soft normal row (row->pad != 0: a penetrating point pushed out by its
 * bias, Box2D v3's soft contact): the impulse is scaled by mass_scale and
 * relaxes by impulse_scale of the accumulated one. Rigid rows as
 * solve_normal. */
static inline void solve_normal_soft(pair_velocity *p, vx_v4 n, vx_v4 ima, vx_v4 imb, vx_contact_hot_row *r,
                                     float mass_scale, float impulse_scale)
{
    float vn = along(p, n, r->ra_n, r->rb_n);
    float lambda = (r->bias - vn) * r->normal_mass;
    if (r->pad != 0.0f) lambda = lambda * mass_scale - impulse_scale * r->normal_impulse;
    float total = r->normal_impulse + lambda;
    total = total > 0.0f ? total : 0.0f;
    lambda = total - r->normal_impulse;
    r->normal_impulse = total;
    push(p, n, ima, imb, r->ia_n, r->ib_n, lambda);
}

void vx_contact_solver_solve_packed(vx_contact_hot_constraint *c, vx_contact_hot_row *rows,
                                    vx_contact_hot_velocity *vel, bool backwards, float mass_scale,
                                    float impulse_scale)
{
    pair_velocity p = load_pair(c, vel);
    vx_v4 ima = vx_v4_splat(c->inv_mass_a), imb = vx_v4_splat(c->inv_mass_b);
    int count = (int)c->count;
    solve_frictions(&p, c, rows, ima, imb);
    vx_v4 n = vx_v4_load(c->n);
    if (backwards)
        for (int k = count - 1; k >= 0; k--) solve_normal_soft(&p, n, ima, imb, &rows[k], mass_scale, impulse_scale);
    else
        for (int k = 0; k < count; k++) solve_normal_soft(&p, n, ima, imb, &rows[k], mass_scale, impulse_scale);
    store_pair(c, vel, &p);
}

/* The accumulated impulses of a constraint's rows applied to its bodies. */
static void warm_start_constraint(const vx_contact_hot_constraint *c, const vx_contact_hot_row *rows,
                                  vx_contact_hot_velocity *vel)
{
    pair_velocity p = load_pair(c, vel);
    vx_v4 ima = vx_v4_splat(c->inv_mass_a), imb = vx_v4_splat(c->inv_mass_b);
    vx_v4 n = vx_v4_load(c->n), t1 = vx_v4_load(c->t1), t2 = vx_v4_load(c->t2);
    for (uint32_t k = 0; k < c->count; k++) push(&p, n, ima, imb, rows[k].ia_n, rows[k].ib_n, rows[k].normal_impulse);
    const vx_contact_friction *f = &c->patch;
    if (c->friction > 0.0f) {
        push(&p, t1, ima, imb, f->ia_t[0], f->ib_t[0], f->tangent_impulse[0]);
        push(&p, t2, ima, imb, f->ia_t[1], f->ib_t[1], f->tangent_impulse[1]);
        turn(&p, f->ia_twist, f->ib_twist, f->twist_impulse);
    }
    store_pair(c, vel, &p);
}

typedef struct {
    vx_contact_solver *s;
    bool warm_start; /* pass 0 applies the warm start, the others solve */
    int pass_offset; /* passes already run (the sweep runs pass by pass when other rows join) */
} velocity_job;

/* An order in lanes: pass 0 warm starts (when on) and loads the blocks,
 * the others solve four constraints at a time (a unit of one alone). */
static float velocity_range_wide(velocity_job *job, size_t unit_begin, size_t unit_end, int pass)
{
    /* pass already counts job->pass_offset (velocity_range) */
    vx_contact_solver *s = job->s;
    if (pass == 0) {
        if (job->warm_start) {
            size_t begin, end;
            vx_solve_unit_positions(&s->order, unit_begin, unit_end, &begin, &end);
            for (size_t i = begin; i < end; i++)
                warm_start_constraint(&s->hot[i], &s->rows[s->hot[i].first], s->hot_velocity);
        }
        vx_contact_solver_load_blocks(s, unit_begin, unit_end);
        return 0.0f;
    }
    bool backwards = ((pass - 1) & 1) != 0; /* as velocity_range */
    for (size_t u = unit_begin; u < unit_end; u++) {
        if (vx_contact_solver_unit_single(s, u)) {
            size_t i = s->order.unit_start[u];
            solve_constraint(&s->hot[i], &s->rows[s->hot[i].first], s->hot_velocity, backwards);
        } else if (vx_contact_solver_pairs_with_next(s, u, unit_end)) {
            vx_contact_wide_solve_two(vx_contact_solver_block(s, u), vx_contact_solver_block(s, u + 1u),
                                      s->hot_velocity, backwards, 1.0f, 0.0f);
            u++;
        } else {
            vx_contact_wide_solve(vx_contact_solver_block(s, u), s->hot_velocity, backwards, 1.0f, 0.0f);
        }
    }
    return 0.0f;
}

static float velocity_range(void *arg, size_t unit_begin, size_t unit_end, int pass)
{
    velocity_job *job = arg;
    vx_contact_solver *s = job->s;
    pass += job->pass_offset;
    if (s->order.lanes) return velocity_range_wide(job, unit_begin, unit_end, pass);
    size_t begin, end;
    vx_solve_unit_positions(&s->order, unit_begin, unit_end, &begin, &end);
    if (job->warm_start) {
        if (pass == 0) {
            for (size_t i = begin; i < end; i++)
                warm_start_constraint(&s->hot[i], &s->rows[s->hot[i].first], s->hot_velocity);
            return 0.0f;
        }
        pass--;
    }
    /* The points of a manifold are solved forwards in even passes and
     * backwards in odd ones. Always the same point first gives it the
     * lion's share of the load in every pass, a torque the unconverged
     * solve leaves behind each step: a tall stack starts to rock from it
     * (a 10-box stack swayed 13 cm; alternating, 2 mm). */
    bool backwards = (pass & 1) != 0;
    for (size_t i = begin; i < end; i++)
        solve_constraint(&s->hot[i], &s->rows[s->hot[i].first], s->hot_velocity, backwards);
    return 0.0f;
}

/* The passes of a sweep one at a time, each after a pass of the other rows
 * (the joints): the contacts' passes are those of one sweep. */
static void sweep_with_extra(vx_contact_solver *s, velocity_job *job, int passes, unsigned parity, int first_solve)
{
    const vx_solver_extra_rows *x = s->extra;
    x->warm_start(x->context, s->hot_velocity, job->warm_start);
    for (int p = 0; p < passes; p++) {
        if (p >= first_solve) x->pass(x->context, s->hot_velocity);
        job->pass_offset = p;
        vx_solve_sweep(s->pool, &s->order, &s->flow, 1, parity + (unsigned)p, velocity_range, job, INFINITY);
    }
}

vx_status vx_contact_solver_solve_velocities(vx_contact_solver *s, vx_body_set *bodies, bool warm_start,
                                             int iterations)
{
    vx_status st = vx_contact_solver_pack(s, bodies);
    if (st != VX_OK) return st;
    velocity_job job = {s, warm_start, 0};
    if (s->order.lanes) {
        st = vx_contact_solver_reserve_blocks(s);
        if (st != VX_OK) return st;
        /* pass 0 loads the blocks (after the warm start, when on) */
        if (s->extra)
            sweep_with_extra(s, &job, iterations + 1, 1u, 1);
        else
            vx_solve_sweep(s->pool, &s->order, &s->flow, iterations + 1, 1u, velocity_range, &job, INFINITY);
        vx_contact_solver_store_all_blocks(s);
    } else if (s->extra) {
        sweep_with_extra(s, &job, iterations + (warm_start ? 1 : 0), warm_start ? 1u : 0u, warm_start ? 1 : 0);
    } else {
        vx_solve_sweep(s->pool, &s->order, &s->flow, iterations + (warm_start ? 1 : 0), warm_start ? 1u : 0u,
                       velocity_range, &job, INFINITY);
    }
    vx_contact_solver_unpack(s, bodies);
    return VX_OK;
}
