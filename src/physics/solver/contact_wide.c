/* Four contact constraints in the four lanes of one SSE2 register (see
 * contact_wide.h). Every lane does the operations of contact_velocity.c in
 * the same order (dot products (x + y) + z, the same lambda formulas and
 * clamps), and SSE2's add, sub, mul, div and sqrt are the IEEE single
 * precision operations of the scalar code, so each lane's results are bit
 * for bit those of vx_contact_solver_solve_packed. Without SSE2 the same
 * operations run lane by lane in plain C. */
#include "physics/solver/contact_wide.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "common/assert.h"
#include "common/sse2.h"

/* ---- four floats: SSE2 or plain C, the same IEEE operations ---- */

#if VX_SSE2
#include <emmintrin.h>

typedef __m128 w4;

static inline w4 w4_load(const float *p) { return _mm_load_ps(p); }
static inline void w4_store(float *p, w4 a) { _mm_store_ps(p, a); }
static inline w4 w4_splat(float s) { return _mm_set1_ps(s); }
static inline w4 w4_add(w4 a, w4 b) { return _mm_add_ps(a, b); }
static inline w4 w4_sub(w4 a, w4 b) { return _mm_sub_ps(a, b); }
static inline w4 w4_mul(w4 a, w4 b) { return _mm_mul_ps(a, b); }
static inline w4 w4_div(w4 a, w4 b) { return _mm_div_ps(a, b); }
static inline w4 w4_sqrt(w4 a) { return _mm_sqrt_ps(a); }
static inline w4 w4_load_mask(const uint32_t *m) { return _mm_castsi128_ps(_mm_load_si128((const __m128i *)(const void *)m)); }
static inline void w4_store_mask(uint32_t *m, w4 a) { _mm_store_si128((__m128i *)(void *)m, _mm_castps_si128(a)); }
static inline w4 w4_and(w4 a, w4 b) { return _mm_and_ps(a, b); }
static inline w4 w4_andnot(w4 m, w4 a) { return _mm_andnot_ps(m, a); } /* ~m & a */
static inline w4 w4_or(w4 a, w4 b) { return _mm_or_ps(a, b); }
/* all ones where a > b (false for NaN, as C's >), else 0 */
static inline w4 w4_greater(w4 a, w4 b) { return _mm_cmpgt_ps(a, b); }
/* all ones where a != b (true for NaN, as C's !=) */
static inline w4 w4_not_equal(w4 a, w4 b) { return _mm_cmpneq_ps(a, b); }
/* a > 0 ? a : +0 per lane: maxps returns its second operand unless the
 * first is greater (NaN and -0 give +0), exactly C's ternary */
static inline w4 w4_positive_part(w4 a) { return _mm_max_ps(a, _mm_setzero_ps()); }
/* any lane of a mask set */
static inline bool w4_any(w4 m) { return _mm_movemask_ps(m) != 0; }

/* rows r[0..3] -> columns r[0..3] */
static inline void w4_transpose(w4 r[4])
{
    w4 t0 = _mm_unpacklo_ps(r[0], r[1]); /* x0 x1 y0 y1 */
    w4 t1 = _mm_unpacklo_ps(r[2], r[3]); /* x2 x3 y2 y3 */
    w4 t2 = _mm_unpackhi_ps(r[0], r[1]); /* z0 z1 p0 p1 */
    w4 t3 = _mm_unpackhi_ps(r[2], r[3]); /* z2 z3 p2 p3 */
    r[0] = _mm_movelh_ps(t0, t1);
    r[1] = _mm_movehl_ps(t1, t0);
    r[2] = _mm_movelh_ps(t2, t3);
    r[3] = _mm_movehl_ps(t3, t2);
}

#else

typedef struct {
    float f[4];
} w4;

static inline uint32_t float_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline float bits_float(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static inline w4 w4_load(const float *p)
{
    w4 r;
    memcpy(r.f, p, sizeof r.f);
    return r;
}
static inline void w4_store(float *p, w4 a) { memcpy(p, a.f, sizeof a.f); }
static inline w4 w4_splat(float s)
{
    w4 r = {{s, s, s, s}};
    return r;
}
static inline w4 w4_add(w4 a, w4 b)
{
    for (int i = 0; i < 4; i++) a.f[i] = a.f[i] + b.f[i];
    return a;
}
static inline w4 w4_sub(w4 a, w4 b)
{
    for (int i = 0; i < 4; i++) a.f[i] = a.f[i] - b.f[i];
    return a;
}
static inline w4 w4_mul(w4 a, w4 b)
{
    for (int i = 0; i < 4; i++) a.f[i] = a.f[i] * b.f[i];
    return a;
}
static inline w4 w4_div(w4 a, w4 b)
{
    for (int i = 0; i < 4; i++) a.f[i] = a.f[i] / b.f[i];
    return a;
}
static inline w4 w4_sqrt(w4 a)
{
    for (int i = 0; i < 4; i++) a.f[i] = sqrtf(a.f[i]);
    return a;
}
static inline w4 w4_load_mask(const uint32_t *m)
{
    w4 r;
    for (int i = 0; i < 4; i++) r.f[i] = bits_float(m[i]);
    return r;
}
static inline void w4_store_mask(uint32_t *m, w4 a)
{
    for (int i = 0; i < 4; i++) m[i] = float_bits(a.f[i]);
}
static inline w4 w4_and(w4 a, w4 b)
{
    for (int i = 0; i < 4; i++) a.f[i] = bits_float(float_bits(a.f[i]) & float_bits(b.f[i]));
    return a;
}
static inline w4 w4_andnot(w4 m, w4 a)
{
    for (int i = 0; i < 4; i++) a.f[i] = bits_float(~float_bits(m.f[i]) & float_bits(a.f[i]));
    return a;
}
static inline w4 w4_or(w4 a, w4 b)
{
    for (int i = 0; i < 4; i++) a.f[i] = bits_float(float_bits(a.f[i]) | float_bits(b.f[i]));
    return a;
}
static inline w4 w4_greater(w4 a, w4 b)
{
    for (int i = 0; i < 4; i++) a.f[i] = bits_float(a.f[i] > b.f[i] ? 0xffffffffu : 0u);
    return a;
}
static inline w4 w4_not_equal(w4 a, w4 b)
{
    for (int i = 0; i < 4; i++) a.f[i] = bits_float(a.f[i] != b.f[i] ? 0xffffffffu : 0u);
    return a;
}
static inline w4 w4_positive_part(w4 a)
{
    for (int i = 0; i < 4; i++) a.f[i] = a.f[i] > 0.0f ? a.f[i] : 0.0f;
    return a;
}
static inline bool w4_any(w4 m)
{
    for (int i = 0; i < 4; i++)
        if (float_bits(m.f[i]) != 0u) return true;
    return false;
}

static inline void w4_transpose(w4 r[4])
{
    w4 c[4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) c[j].f[i] = r[i].f[j];
    for (int j = 0; j < 4; j++) r[j] = c[j];
}

#endif

/* a where m is all ones, b where it is 0 */
static inline w4 w4_select(w4 m, w4 a, w4 b) { return w4_or(w4_and(m, a), w4_andnot(m, b)); }

/* ---- the solve ---- */

/* Each lane's body: linear and angular velocity, axis by axis. */
typedef struct {
    w4 v[3], w[3];
} wide_body;

/* (x * x' + y * y') + z * z', as vx_v4_dot3; b: three float[4], x y z */
static inline w4 dot3(const w4 a[3], const float *b)
{
    return w4_add(w4_add(w4_mul(a[0], w4_load(b)), w4_mul(a[1], w4_load(b + 4))), w4_mul(a[2], w4_load(b + 8)));
}

/* d . (vB - vA) + wB . (rB x d) - wA . (rA x d), dv = vB - vA */
static inline w4 along(const w4 dv[3], const wide_body *a, const wide_body *b, const float *d, const float *ra_d,
                       const float *rb_d)
{
    return w4_sub(w4_add(dot3(dv, d), dot3(b->w, rb_d)), dot3(a->w, ra_d));
}

/* Impulse l along d: B gets +, A gets -. */
static inline void push(wide_body *a, wide_body *b, const float *d, const float *ia, const float *ib, w4 ima,
                        w4 imb, w4 l)
{
    for (int i = 0; i < 3; i++) {
        w4 impulse = w4_mul(w4_load(d + 4 * i), l);
        a->v[i] = w4_sub(a->v[i], w4_mul(impulse, ima));
        a->w[i] = w4_sub(a->w[i], w4_mul(w4_load(ia + 4 * i), l));
        b->v[i] = w4_add(b->v[i], w4_mul(impulse, imb));
        b->w[i] = w4_add(b->w[i], w4_mul(w4_load(ib + 4 * i), l));
    }
}

static inline void velocity_difference(w4 dv[3], const wide_body *a, const wide_body *b)
{
    for (int i = 0; i < 3; i++) dv[i] = w4_sub(b->v[i], a->v[i]);
}

/* A lane mask (all ones or 0) over an increment: the lanes that do not
 * solve get +0, whose data makes a +0 increment change nothing. */
static inline w4 masked(const uint32_t *solved, w4 l) { return w4_and(w4_load_mask(solved), l); }

/* An angular impulse l about n: B gets +, A gets -. */
static inline void turn(wide_body *a, wide_body *b, const float *ia, const float *ib, w4 l)
{
    for (int i = 0; i < 3; i++) {
        a->w[i] = w4_sub(a->w[i], w4_mul(w4_load(ia + 4 * i), l));
        b->w[i] = w4_add(b->w[i], w4_mul(w4_load(ib + 4 * i), l));
    }
}

/* The lanes' manifold friction, as the scalar solve_frictions: limits from
 * the points' normal impulses now (in point order; points past a lane's
 * count add +0), the twist clamped to +-friction * sum(lever * impulse),
 * then the tangents at the centre scaled back into the disc of radius
 * friction * sum(impulse) where outside (scale 1 elsewhere: x * 1 is x). */
static inline void solve_patch(wide_body *a, wide_body *b, vx_contact_wide_block *w)
{
    vx_contact_wide_friction_row *r = &w->friction_rows;
    w4 total = w4_splat(0.0f), twist = w4_splat(0.0f);
    for (uint32_t k = 0; k < w->max_count; k++) {
        w4 ln = w4_load(w->points[k].normal.normal_impulse);
        total = w4_add(total, ln);
        twist = w4_add(twist, w4_mul(w4_load(r->lever[k]), ln));
    }
    w4 friction = w4_load(w->friction);

    w4 speed = w4_sub(dot3(b->w, r->n[0]), dot3(a->w, r->n[0]));
    w4 old = w4_load(r->twist_impulse);
    w4 next = w4_sub(old, w4_mul(speed, w4_load(r->twist_mass)));
    w4 high = w4_mul(friction, twist);
    w4 low = w4_sub(w4_splat(0.0f), high);
    next = w4_select(w4_greater(next, low), next, low);
    next = w4_select(w4_greater(high, next), next, high);
    w4_store(r->twist_impulse, next);
    turn(a, b, r->ia_twist[0], r->ib_twist[0], masked(r->solved, w4_sub(next, old)));

    w4 dv[3];
    velocity_difference(dv, a, b);
    w4 vt1 = along(dv, a, b, r->t[0][0], r->ra_t[0][0], r->rb_t[0][0]);
    w4 vt2 = along(dv, a, b, r->t[1][0], r->ra_t[1][0], r->rb_t[1][0]);
    w4 old1 = w4_load(r->tangent_impulse[0]), old2 = w4_load(r->tangent_impulse[1]);
    w4 new1 = w4_sub(old1, w4_mul(vt1, w4_load(r->tangent_mass[0])));
    w4 new2 = w4_sub(old2, w4_mul(vt2, w4_load(r->tangent_mass[1])));
    w4 max_impulse = w4_mul(friction, total);
    w4 len_sq = w4_add(w4_mul(new1, new1), w4_mul(new2, new2));
    w4 outside = w4_greater(len_sq, w4_mul(max_impulse, max_impulse));
    /* Lanes inside the cone keep their impulses (x * 1 is x); the sqrt and
     * the division, the longest wait of the row, only when a lane slides. */
    if (w4_any(outside)) {
        w4 scale = w4_select(outside, w4_div(max_impulse, w4_sqrt(len_sq)), w4_splat(1.0f));
        new1 = w4_mul(new1, scale);
        new2 = w4_mul(new2, scale);
    }
    w4_store(r->tangent_impulse[0], new1);
    w4_store(r->tangent_impulse[1], new2);
    w4 ima = w4_load(r->inv_mass_a), imb = w4_load(r->inv_mass_b);
    push(a, b, r->t[0][0], r->ia_t[0][0], r->ib_t[0][0], ima, imb, masked(r->solved, w4_sub(new1, old1)));
    push(a, b, r->t[1][0], r->ia_t[1][0], r->ib_t[1][0], ima, imb, masked(r->solved, w4_sub(new2, old2)));
}

/* The normal row, soft where flagged. A row not solved has zero normal mass
 * and impulse: its total clamps to +0 and its increment is +0 - +0 = +0. */
static inline void solve_normal(wide_body *a, wide_body *b, vx_contact_wide_normal_row *r, w4 mass_scale,
                                w4 impulse_scale)
{
    w4 dv[3];
    velocity_difference(dv, a, b);
    w4 vn = along(dv, a, b, r->n[0], r->ra_n[0], r->rb_n[0]);
    w4 old = w4_load(r->normal_impulse);
    w4 lambda = w4_mul(w4_sub(w4_load(r->bias), vn), w4_load(r->normal_mass));
    w4 soft = w4_sub(w4_mul(lambda, mass_scale), w4_mul(impulse_scale, old));
    lambda = w4_select(w4_load_mask(r->soft), soft, lambda);
    w4 total = w4_add(old, lambda);
    total = w4_positive_part(total); /* total > 0 ? total : +0, as the scalar code */
    lambda = w4_sub(total, old);
    w4_store(r->normal_impulse, total);
    push(a, b, r->n[0], r->ia_n[0], r->ib_n[0], w4_load(r->inv_mass_a), w4_load(r->inv_mass_b), lambda);
}

/* Four lanes' (v or w) vectors in, axis by axis; the pad lanes kept in pad. */
static inline void gather(w4 out[3], w4 *pad, const float *p0, const float *p1, const float *p2, const float *p3)
{
    w4 r[4] = {w4_load(p0), w4_load(p1), w4_load(p2), w4_load(p3)};
    w4_transpose(r);
    out[0] = r[0];
    out[1] = r[1];
    out[2] = r[2];
    *pad = r[3];
}

/* Lane i's body (v and w, pads as gathered) back to out[i] when bit i of store is set. */
static inline void scatter(const wide_body *body, const w4 pad[2], vx_contact_hot_velocity *const out[4],
                           uint32_t store)
{
    w4 v[4] = {body->v[0], body->v[1], body->v[2], pad[0]};
    w4 w[4] = {body->w[0], body->w[1], body->w[2], pad[1]};
    w4_transpose(v);
    w4_transpose(w);
    for (int i = 0; i < 4; i++)
        if (store & (1u << i)) {
            w4_store(out[i]->v, v[i]);
            w4_store(out[i]->w, w[i]);
        }
}

/* The lanes' two bodies: where their velocities live, and the velocities
 * axis by axis (pads kept for the write back). */
typedef struct {
    vx_contact_hot_velocity *va[4], *vb[4];
    wide_body a, b;
    w4 pad_a[2], pad_b[2];
} lane_bodies;

static inline void load_lane_bodies(lane_bodies *lb, const vx_contact_wide_block *w, vx_contact_hot_velocity *vel)
{
    for (int i = 0; i < 4; i++) {
        lb->va[i] = &vel[w->a[i]];
        lb->vb[i] = &vel[w->b[i]];
    }
    gather(lb->a.v, &lb->pad_a[0], lb->va[0]->v, lb->va[1]->v, lb->va[2]->v, lb->va[3]->v);
    gather(lb->a.w, &lb->pad_a[1], lb->va[0]->w, lb->va[1]->w, lb->va[2]->w, lb->va[3]->w);
    gather(lb->b.v, &lb->pad_b[0], lb->vb[0]->v, lb->vb[1]->v, lb->vb[2]->v, lb->vb[3]->v);
    gather(lb->b.w, &lb->pad_b[1], lb->vb[0]->w, lb->vb[1]->w, lb->vb[2]->w, lb->vb[3]->w);
}

void vx_contact_wide_solve(vx_contact_wide_block *w, vx_contact_hot_velocity *vel, bool backwards,
                           float mass_scale, float impulse_scale)
{
    if (!w->used) return;
    lane_bodies lb;
    load_lane_bodies(&lb, w, vel);
    wide_body a = lb.a, b = lb.b;
    /* Points >= max_count are solved by no lane: skipped. */
    int count = (int)w->max_count;
    if (w->has_friction) solve_patch(&a, &b, w);
    w4 ms = w4_splat(mass_scale), is = w4_splat(impulse_scale);
    if (backwards)
        for (int k = count - 1; k >= 0; k--) solve_normal(&a, &b, &w->points[k].normal, ms, is);
    else
        for (int k = 0; k < count; k++) solve_normal(&a, &b, &w->points[k].normal, ms, is);
    /* Only bodies with inv_mass > 0 are written (lanes may share the others). */
    scatter(&a, lb.pad_a, lb.va, w->store_a);
    scatter(&b, lb.pad_b, lb.vb, w->store_b);
}

void vx_contact_wide_solve_two(vx_contact_wide_block *w0, vx_contact_wide_block *w1, vx_contact_hot_velocity *vel,
                               bool backwards, float mass_scale, float impulse_scale)
{
    if (!w0->used || !w1->used) {
        vx_contact_wide_solve(w0, vel, backwards, mass_scale, impulse_scale);
        vx_contact_wide_solve(w1, vel, backwards, mass_scale, impulse_scale);
        return;
    }
    lane_bodies l0, l1;
    load_lane_bodies(&l0, w0, vel);
    load_lane_bodies(&l1, w1, vel);
    wide_body a0 = l0.a, b0 = l0.b, a1 = l1.a, b1 = l1.b;
    int c0 = (int)w0->max_count, c1 = (int)w1->max_count;
    int most = c0 > c1 ? c0 : c1;
    /* point by point, block 0's row then block 1's: each block's rows in
     * its own order, the two chains of dependent operations side by side */
    if (w0->has_friction) solve_patch(&a0, &b0, w0);
    if (w1->has_friction) solve_patch(&a1, &b1, w1);
    w4 ms = w4_splat(mass_scale), is = w4_splat(impulse_scale);
    for (int j = 0; j < most; j++) {
        if (j < c0) solve_normal(&a0, &b0, &w0->points[backwards ? c0 - 1 - j : j].normal, ms, is);
        if (j < c1) solve_normal(&a1, &b1, &w1->points[backwards ? c1 - 1 - j : j].normal, ms, is);
    }
    scatter(&a0, l0.pad_a, l0.va, w0->store_a);
    scatter(&b0, l0.pad_b, l0.vb, w0->store_b);
    scatter(&a1, l1.pad_a, l1.va, w1->store_a);
    scatter(&b1, l1.pad_b, l1.vb, w1->store_b);
}

/* The accumulated impulses applied to the lanes' bodies, point by point as
 * the substepped solve's scalar warm start does: p = n ln + (t1 l1 + t2 l2),
 * vA -= mA p, wA -= IA^-1 (rA x n ln + ...), and + for B. Points a lane does
 * not solve change nothing (blended out). */
void vx_contact_wide_warm_start(const vx_contact_wide_block *w, vx_contact_hot_velocity *vel)
{
    if (!w->used) return;
    lane_bodies lb;
    load_lane_bodies(&lb, w, vel);
    wide_body a = lb.a, b = lb.b;
    for (uint32_t k = 0; k < w->max_count; k++) {
        const vx_contact_wide_normal_row *nr = &w->points[k].normal;
        uint32_t in[4];
        for (int i = 0; i < 4; i++) in[i] = k < w->count[i] ? 0xffffffffu : 0u;
        w4 solved = w4_load_mask(in);
        w4 ln = w4_load(nr->normal_impulse);
        w4 ima = w4_load(nr->inv_mass_a), imb = w4_load(nr->inv_mass_b);
        for (int x = 0; x < 3; x++) {
            w4 p = w4_mul(w4_load(nr->n[x]), ln);
            a.v[x] = w4_select(solved, w4_sub(a.v[x], w4_mul(p, ima)), a.v[x]);
            a.w[x] = w4_select(solved, w4_sub(a.w[x], w4_mul(w4_load(nr->ia_n[x]), ln)), a.w[x]);
            b.v[x] = w4_select(solved, w4_add(b.v[x], w4_mul(p, imb)), b.v[x]);
            b.w[x] = w4_select(solved, w4_add(b.w[x], w4_mul(w4_load(nr->ib_n[x]), ln)), b.w[x]);
        }
    }
    /* the friction at the centre and the twist, summed, then applied once */
    const vx_contact_wide_friction_row *fr = &w->friction_rows;
    w4 solved = w4_load_mask(fr->solved);
    w4 l1 = w4_load(fr->tangent_impulse[0]), l2 = w4_load(fr->tangent_impulse[1]), lt = w4_load(fr->twist_impulse);
    w4 ima = w4_load(fr->inv_mass_a), imb = w4_load(fr->inv_mass_b);
    for (int x = 0; x < 3; x++) {
        w4 p = w4_add(w4_mul(w4_load(fr->t[0][x]), l1), w4_mul(w4_load(fr->t[1][x]), l2));
        w4 dwa = w4_add(w4_add(w4_mul(w4_load(fr->ia_t[0][x]), l1), w4_mul(w4_load(fr->ia_t[1][x]), l2)),
                        w4_mul(w4_load(fr->ia_twist[x]), lt));
        w4 dwb = w4_add(w4_add(w4_mul(w4_load(fr->ib_t[0][x]), l1), w4_mul(w4_load(fr->ib_t[1][x]), l2)),
                        w4_mul(w4_load(fr->ib_twist[x]), lt));
        a.v[x] = w4_select(solved, w4_sub(a.v[x], w4_mul(p, ima)), a.v[x]);
        a.w[x] = w4_select(solved, w4_sub(a.w[x], dwa), a.w[x]);
        b.v[x] = w4_select(solved, w4_add(b.v[x], w4_mul(p, imb)), b.v[x]);
        b.w[x] = w4_select(solved, w4_add(b.w[x], dwb), b.w[x]);
    }
    scatter(&a, lb.pad_a, lb.va, w->store_a);
    scatter(&b, lb.pad_b, lb.vb, w->store_b);
}

void vx_contact_wide_clear_impulses(vx_contact_wide_block *w)
{
    for (int i = 0; i < 4; i++) {
        for (uint32_t k = 0; k < w->max_count; k++) w->points[k].normal.normal_impulse[i] = 0.0f;
        w->friction_rows.tangent_impulse[0][i] = 0.0f;
        w->friction_rows.tangent_impulse[1][i] = 0.0f;
        w->friction_rows.twist_impulse[i] = 0.0f;
    }
}

/* ---- loading and storing ---- */

/* The load transposes whole aligned 4-float groups of the hot structs: a
 * row's scalars after its Jacobians, a constraint's inverse masses and
 * friction after its directions, and its friction's scalars. */
_Static_assert(offsetof(vx_contact_hot_row, normal_mass) % 16 == 0, "row scalars start a 16-byte group");
_Static_assert(offsetof(vx_contact_hot_row, bias) == offsetof(vx_contact_hot_row, normal_mass) + 4, "row layout");
_Static_assert(offsetof(vx_contact_hot_row, normal_impulse) == offsetof(vx_contact_hot_row, normal_mass) + 8,
               "row layout");
_Static_assert(offsetof(vx_contact_hot_row, pad) == offsetof(vx_contact_hot_row, normal_mass) + 12, "row layout");
_Static_assert(offsetof(vx_contact_hot_constraint, inv_mass_a) % 16 == 0, "masses start a 16-byte group");
_Static_assert(offsetof(vx_contact_hot_constraint, inv_mass_b) == offsetof(vx_contact_hot_constraint, inv_mass_a) + 4,
               "constraint layout");
_Static_assert(offsetof(vx_contact_hot_constraint, patch) % 16 == 0, "friction starts a 16-byte group");
_Static_assert(offsetof(vx_contact_friction, tangent_mass) % 16 == 0, "friction scalars start a 16-byte group");
_Static_assert(offsetof(vx_contact_friction, tangent_impulse) == offsetof(vx_contact_friction, tangent_mass) + 8,
               "friction layout");
_Static_assert(offsetof(vx_contact_friction, twist_mass) == offsetof(vx_contact_friction, tangent_mass) + 16,
               "friction layout");
_Static_assert(offsetof(vx_contact_friction, twist_impulse) == offsetof(vx_contact_friction, twist_mass) + 4,
               "friction layout");
_Static_assert(offsetof(vx_contact_friction, lever) % 16 == 0, "levers are a 16-byte group");

/* What a lane reads for a row it does not solve: zero directions, arms,
 * masses and impulses; +0 on A's side and -0 on B's, since x - (+0) and
 * x + (-0) are x for every x. */
static const vx_contact_hot_row masked_row = {
    .ib_n = {-0.0f, -0.0f, -0.0f, -0.0f},
};
static const vx_contact_hot_constraint masked_constraint = {
    .inv_mass_b = -0.0f,
    .patch = {.ib_t = {{-0.0f, -0.0f, -0.0f, -0.0f}, {-0.0f, -0.0f, -0.0f, -0.0f}},
              .ib_twist = {-0.0f, -0.0f, -0.0f, -0.0f}},
};

/* Lane i's 4-float group at src[i] becomes element i of out0 .. out3. */
static void transpose_in(float *out0, float *out1, float *out2, float *out3, const float *const src[4])
{
    w4 r[4] = {w4_load(src[0]), w4_load(src[1]), w4_load(src[2]), w4_load(src[3])};
    w4_transpose(r);
    w4_store(out0, r[0]);
    w4_store(out1, r[1]);
    w4_store(out2, r[2]);
    if (out3) w4_store(out3, r[3]);
}

/* A vector field (x, y, z, pad) of the lanes' rows or constraints, as [axis][lane]. */
#define VX_WIDE_VECTOR(out, base, field)                                                                       \
    do {                                                                                                       \
        const float *src_[4] = {(base)[0]->field, (base)[1]->field, (base)[2]->field, (base)[3]->field};      \
        transpose_in((out)[0], (out)[1], (out)[2], NULL, src_);                                                \
    } while (0)

#define VX_WIDE_GROUP(out0, out1, out2, out3, base, field)                                                     \
    do {                                                                                                       \
        const float *src_[4] = {&(base)[0]->field, &(base)[1]->field, &(base)[2]->field, &(base)[3]->field};  \
        transpose_in((out0), (out1), (out2), (out3), src_);                                                    \
    } while (0)

/* The lanes' friction (masked for lanes without it). */
static void load_friction(vx_contact_wide_block *w, const vx_contact_hot_constraint *const lanes[4])
{
    vx_contact_wide_friction_row *fr = &w->friction_rows;
    const vx_contact_hot_constraint *fcon[4];
    for (uint32_t i = 0; i < 4; i++) {
        bool fric = (w->has_friction & (1u << i)) != 0;
        fcon[i] = fric ? lanes[i] : &masked_constraint;
        fr->solved[i] = fric ? 0xffffffffu : 0u;
    }
    float unused[2][4];
    VX_WIDE_VECTOR(fr->t[0], fcon, t1);
    VX_WIDE_VECTOR(fr->t[1], fcon, t2);
    VX_WIDE_VECTOR(fr->n, fcon, n);
    for (int t = 0; t < 2; t++) {
        VX_WIDE_VECTOR(fr->ra_t[t], fcon, patch.ra_t[t]);
        VX_WIDE_VECTOR(fr->rb_t[t], fcon, patch.rb_t[t]);
        VX_WIDE_VECTOR(fr->ia_t[t], fcon, patch.ia_t[t]);
        VX_WIDE_VECTOR(fr->ib_t[t], fcon, patch.ib_t[t]);
    }
    VX_WIDE_VECTOR(fr->ia_twist, fcon, patch.ia_twist);
    VX_WIDE_VECTOR(fr->ib_twist, fcon, patch.ib_twist);
    VX_WIDE_GROUP(fr->tangent_mass[0], fr->tangent_mass[1], fr->tangent_impulse[0], fr->tangent_impulse[1], fcon,
                  patch.tangent_mass[0]);
    VX_WIDE_GROUP(fr->twist_mass, fr->twist_impulse, unused[0], NULL, fcon, patch.twist_mass);
    VX_WIDE_GROUP(fr->lever[0], fr->lever[1], fr->lever[2], fr->lever[3], fcon, patch.lever[0]);
    VX_WIDE_GROUP(fr->inv_mass_a, fr->inv_mass_b, unused[1], NULL, fcon, inv_mass_a);
}

void vx_contact_wide_load(vx_contact_wide_block *w, const vx_contact_hot_constraint *const lanes[4],
                          const vx_contact_hot_row *const rows[4])
{
    w->max_count = 0;
    w->used = w->has_friction = w->store_a = w->store_b = 0;
    uint32_t first = 4;
    for (uint32_t i = 0; i < 4; i++) {
        const vx_contact_hot_constraint *c = lanes[i];
        w->a[i] = w->b[i] = w->count[i] = 0;
        w->friction[i] = 0.0f;
        if (!c) continue;
        VX_ASSERT(c->count <= VX_MANIFOLD_MAX_POINTS);
        uint32_t count = c->count <= VX_MANIFOLD_MAX_POINTS ? c->count : VX_MANIFOLD_MAX_POINTS; /* never past the block */
        if (first == 4) first = i;
        w->used |= 1u << i;
        w->a[i] = c->a;
        w->b[i] = c->b;
        w->count[i] = count;
        if (count > w->max_count) w->max_count = count;
        if (c->inv_mass_a > 0.0f) w->store_a |= 1u << i;
        if (c->inv_mass_b > 0.0f) w->store_b |= 1u << i;
        if (c->friction > 0.0f) {
            w->has_friction |= 1u << i;
            w->friction[i] = c->friction;
        }
    }
    if (!w->used) return;
    for (uint32_t i = 0; i < 4; i++) {
        if (w->used & (1u << i)) continue;
        w->a[i] = w->a[first]; /* read, never written */
        w->b[i] = w->b[first];
    }
    load_friction(w, lanes);
    /* Points >= max_count are neither solved nor read: not loaded. */
    for (uint32_t k = 0; k < w->max_count; k++) {
        /* each lane's sources: its row and constraint, or the masked ones */
        const vx_contact_hot_row *nrow[4];
        const vx_contact_hot_constraint *ncon[4];
        vx_contact_wide_normal_row *nr = &w->points[k].normal;
        for (uint32_t i = 0; i < 4; i++) {
            bool normal = k < w->count[i];
            nrow[i] = normal ? &rows[i][k] : &masked_row;
            ncon[i] = normal ? lanes[i] : &masked_constraint;
        }
        float unused[2][4];
        VX_WIDE_VECTOR(nr->n, ncon, n);
        VX_WIDE_VECTOR(nr->ra_n, nrow, ra_n);
        VX_WIDE_VECTOR(nr->rb_n, nrow, rb_n);
        VX_WIDE_VECTOR(nr->ia_n, nrow, ia_n);
        VX_WIDE_VECTOR(nr->ib_n, nrow, ib_n);
        VX_WIDE_GROUP(nr->inv_mass_a, nr->inv_mass_b, unused[0], NULL, ncon, inv_mass_a);
        VX_WIDE_GROUP(nr->normal_mass, nr->bias, nr->normal_impulse, unused[1], nrow, normal_mass);
        w4_store_mask(nr->soft, w4_not_equal(w4_load(unused[1]), w4_splat(0.0f))); /* pad != 0 */
    }
}

void vx_contact_wide_store_impulses(const vx_contact_wide_block *w, vx_contact_hot_row *const rows[4],
                                    vx_contact_hot_constraint *const lanes[4])
{
    for (uint32_t i = 0; i < 4; i++) {
        if (!(w->used & (1u << i))) continue;
        for (uint32_t k = 0; k < w->count[i]; k++) rows[i][k].normal_impulse = w->points[k].normal.normal_impulse[i];
        if (!(w->has_friction & (1u << i))) continue;
        vx_contact_friction *f = &lanes[i]->patch;
        f->tangent_impulse[0] = w->friction_rows.tangent_impulse[0][i];
        f->tangent_impulse[1] = w->friction_rows.tangent_impulse[1][i];
        f->twist_impulse = w->friction_rows.twist_impulse[i];
    }
}
