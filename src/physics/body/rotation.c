/* Torque-free rotation of a rigid body, gyroscopic term included: an
 * implicit midpoint step of the body-frame angular momentum L, written as a
 * rotation, so |L|, the world momentum and the energy L.I^-1.L are kept and
 * a body spinning about a principal axis turns by exactly |w| dt per step.
 * Everything inside runs in double; the state in and out stays float.
 * See docs/simulation.md, "Rotation". */
#include "voltex/rotation.h"
#include "common/det_math.h"

#include <stdbool.h>

/* rad: the most a substep may turn the body. Newton's method started from L0
 * converges within a few iterations for such steps, and the solution found
 * is the one that continues the motion (not a far branch of the equation). */
#define VX_ROT_MAX_SUBSTEP_ANGLE 1.0
/* Bounds the work for absurd spins; beyond it the splitting below takes over. */
#define VX_ROT_MAX_SUBSTEPS 256
#define VX_ROT_NEWTON_ITERATIONS 16
/* Residual of the midpoint equation relative to |L|: the energy is kept to
 * about this relative error per step, far below float resolution. */
#define VX_ROT_TOLERANCE 1e-12
/* A substep whose solve fails is halved this many times before the last
 * resort (rotation about L, which also keeps every invariant). */
#define VX_ROT_MAX_SPLITS 3
/* Below this angle the sin/cos ratios use their Taylor series. */
#define VX_ROT_SMALL_ANGLE 1e-4

typedef struct {
    double x, y, z;
} dvec3;

typedef struct {
    double x, y, z, w;
} dquat;

typedef struct {
    double m[3][3];
} dmat3;

/* ---- double-precision helpers ---- */

static dvec3 dv(double x, double y, double z)
{
    dvec3 v = {x, y, z};
    return v;
}
static dvec3 dv_from(vx_vec3 v) { return dv(v.x, v.y, v.z); }
static vx_vec3 dv_to_float(dvec3 v) { return vx_vec3_make((float)v.x, (float)v.y, (float)v.z); }
static dvec3 dv_add(dvec3 a, dvec3 b) { return dv(a.x + b.x, a.y + b.y, a.z + b.z); }
static dvec3 dv_sub(dvec3 a, dvec3 b) { return dv(a.x - b.x, a.y - b.y, a.z - b.z); }
static dvec3 dv_scale(dvec3 a, double s) { return dv(a.x * s, a.y * s, a.z * s); }
static dvec3 dv_mul(dvec3 a, dvec3 b) { return dv(a.x * b.x, a.y * b.y, a.z * b.z); }
static double dv_dot(dvec3 a, dvec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static double dv_length(dvec3 a) { return sqrt(dv_dot(a, a)); }
static bool dv_is_finite(dvec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

static dvec3 dm_mul_vec(const dmat3 *a, dvec3 v)
{
    return dv(a->m[0][0] * v.x + a->m[0][1] * v.y + a->m[0][2] * v.z,
              a->m[1][0] * v.x + a->m[1][1] * v.y + a->m[1][2] * v.z,
              a->m[2][0] * v.x + a->m[2][1] * v.y + a->m[2][2] * v.z);
}

static dvec3 dm_mul_transposed_vec(const dmat3 *a, dvec3 v)
{
    return dv(a->m[0][0] * v.x + a->m[1][0] * v.y + a->m[2][0] * v.z,
              a->m[0][1] * v.x + a->m[1][1] * v.y + a->m[2][1] * v.z,
              a->m[0][2] * v.x + a->m[1][2] * v.y + a->m[2][2] * v.z);
}

static dmat3 dm_mul(const dmat3 *a, const dmat3 *b)
{
    dmat3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
    return r;
}

/* [v]x: the matrix of the cross product v x (.). */
static dmat3 dm_skew(dvec3 v)
{
    dmat3 r = {{{0.0, -v.z, v.y}, {v.z, 0.0, -v.x}, {-v.y, v.x, 0.0}}};
    return r;
}

/* I + a [v]x + b [v]x^2 */
static dmat3 dm_rodrigues_form(dvec3 v, double a, double b)
{
    dmat3 k = dm_skew(v);
    dmat3 k2 = dm_mul(&k, &k);
    dmat3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r.m[i][j] = (i == j ? 1.0 : 0.0) + a * k.m[i][j] + b * k2.m[i][j];
    return r;
}

/* sin(x) / x, exact at 0. */
static double sinc(double x)
{
    return fabs(x) < VX_ROT_SMALL_ANGLE ? 1.0 - x * x / 6.0 : vx_det_sin(x) / x;
}

/* Rotation matrix exp([v]x): angle |v| about v. (1 - cos t) / t^2 is written
 * as sinc(t/2)^2 / 2, which has no cancellation for small t. */
static dmat3 dm_rotation(dvec3 v)
{
    double t = dv_length(v);
    double s = sinc(0.5 * t);
    return dm_rodrigues_form(v, sinc(t), 0.5 * s * s);
}

/* Right Jacobian of the rotation map: exp([v + d]x) ~ exp([v]x) exp([J d]x).
 * J = I - (1 - cos t)/t^2 [v]x + (t - sin t)/t^3 [v]x^2. */
static dmat3 dm_right_jacobian(dvec3 v)
{
    double t = dv_length(v);
    double s = sinc(0.5 * t);
    double c2 = t < VX_ROT_SMALL_ANGLE ? 1.0 / 6.0 - t * t / 120.0 : (t - vx_det_sin(t)) / (t * t * t);
    return dm_rodrigues_form(v, -0.5 * s * s, c2);
}

/* Solves a x = b by Cramer's rule; false when a is (numerically) singular. */
static bool dm_solve(const dmat3 *a, dvec3 b, dvec3 *x)
{
    const double(*m)[3] = a->m;
    double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
    double c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
    double c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
    double det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
    /* Hadamard: |det| <= product of the row lengths. */
    double bound = 1.0;
    for (int i = 0; i < 3; i++) bound *= sqrt(m[i][0] * m[i][0] + m[i][1] * m[i][1] + m[i][2] * m[i][2]);
    if (!(fabs(det) > 1e-12 * bound)) return false;

    double c10 = m[0][2] * m[2][1] - m[0][1] * m[2][2];
    double c11 = m[0][0] * m[2][2] - m[0][2] * m[2][0];
    double c12 = m[0][1] * m[2][0] - m[0][0] * m[2][1];
    double c20 = m[0][1] * m[1][2] - m[0][2] * m[1][1];
    double c21 = m[0][2] * m[1][0] - m[0][0] * m[1][2];
    double c22 = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    double inv = 1.0 / det;
    /* x = adj(a) b / det, adj = transposed cofactors. */
    *x = dv((c00 * b.x + c10 * b.y + c20 * b.z) * inv, (c01 * b.x + c11 * b.y + c21 * b.z) * inv,
            (c02 * b.x + c12 * b.y + c22 * b.z) * inv);
    return dv_is_finite(*x);
}

static dquat dq_from(vx_quat q)
{
    dquat r = {q.x, q.y, q.z, q.w};
    return r;
}

static dquat dq_mul(dquat a, dquat b)
{
    dquat r = {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
               a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
    return r;
}

/* Unit quaternion along q; a zero quaternion becomes the identity. */
static dquat dq_normalize(dquat q)
{
    double len = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(len > 0.0)) {
        dquat identity = {0.0, 0.0, 0.0, 1.0};
        return identity;
    }
    dquat r = {q.x / len, q.y / len, q.z / len, q.w / len};
    return r;
}

/* Rotation by the angle |v| about v. */
static dquat dq_exp(dvec3 v)
{
    double half = 0.5 * dv_length(v);
    double s = 0.5 * sinc(half); /* sin(|v|/2) / |v| */
    dquat r = {v.x * s, v.y * s, v.z * s, vx_det_cos(half)};
    return r;
}

static dmat3 dm_from_quat(dquat q)
{
    double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    dmat3 r = {{{1.0 - 2.0 * (yy + zz), 2.0 * (xy - wz), 2.0 * (xz + wy)},
                {2.0 * (xy + wz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz - wx)},
                {2.0 * (xz - wy), 2.0 * (yz + wx), 1.0 - 2.0 * (xx + yy)}}};
    return r;
}

/* ---- the step ---- */

/* Newton's method for the midpoint Lm of one substep of length h:
 *     G(Lm) = Lm - (L0 + exp(-h [W Lm]x) L0) / 2 = 0,   W = I^-1,
 *     G'(Lm) = 1 - (h/2) exp(v) [L0]x J(v) W,   v = -h W Lm,
 * from d(exp(v) u) = -exp(v) [u]x J(v) dv. Starts from Lm = L0. Also gives
 * exp(-h [W Lm]x) at the solution, which the step applies to L0. */
static bool solve_midpoint(dvec3 l0, dvec3 inv_inertia, double h, dvec3 *lm_out, dmat3 *e_out)
{
    double tolerance = VX_ROT_TOLERANCE * dv_length(l0);
    dvec3 lm = l0;
    for (int iteration = 0; iteration <= VX_ROT_NEWTON_ITERATIONS; iteration++) {
        dvec3 v = dv_scale(dv_mul(inv_inertia, lm), -h);
        dmat3 e = dm_rotation(v);
        dvec3 g = dv_sub(lm, dv_scale(dv_add(l0, dm_mul_vec(&e, l0)), 0.5));
        if (!dv_is_finite(g)) return false;
        if (dv_length(g) <= tolerance) {
            *lm_out = lm;
            *e_out = e; /* exp(-h [W Lm]x): the step's rotation of L */
            return true;
        }
        if (iteration == VX_ROT_NEWTON_ITERATIONS) break;

        dmat3 skew_l0 = dm_skew(l0);
        dmat3 jr = dm_right_jacobian(v);
        dmat3 e_skew = dm_mul(&e, &skew_l0);
        dmat3 a = dm_mul(&e_skew, &jr);
        dmat3 jacobian;
        double w[3] = {inv_inertia.x, inv_inertia.y, inv_inertia.z};
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) jacobian.m[i][j] = (i == j ? 1.0 : 0.0) - 0.5 * h * a.m[i][j] * w[j];
        dvec3 delta;
        if (!dm_solve(&jacobian, g, &delta)) return false;
        lm = dv_sub(lm, delta);
    }
    return false;
}

/* The last resort: turn about L itself at the rate w.L/|L| for h. L stays
 * put in both frames, so |L|, the energy and the world momentum are kept. */
static void turn_about_momentum(dvec3 l, dquat *q, dvec3 inv_inertia, double h)
{
    double l2 = dv_dot(l, l);
    if (l2 > 0.0) {
        dvec3 w_along_l = dv_scale(l, dv_dot(l, dv_mul(inv_inertia, l)) / l2);
        *q = dq_normalize(dq_mul(*q, dq_exp(dv_scale(w_along_l, h))));
    }
}

/* Advances body-frame momentum *l and orientation *q by h. */
static void advance(dvec3 *l, dquat *q, dvec3 inv_inertia, double h, int depth)
{
    dvec3 lm;
    dmat3 e;
    if (inv_inertia.x == inv_inertia.y && inv_inertia.y == inv_inertia.z) {
        /* A sphere's or a cube's inertia: w = L / I is parallel to L, which
         * the midpoint step then rotates about itself (it stays put): the
         * solution is Lm = L, the turn h w. No solve needed. */
        *q = dq_normalize(dq_mul(*q, dq_exp(dv_scale(dv_mul(inv_inertia, *l), h))));
        return;
    }
    if (solve_midpoint(*l, inv_inertia, h, &lm, &e)) {
        dvec3 wm = dv_mul(inv_inertia, lm);
        *l = dm_mul_vec(&e, *l);
        *q = dq_normalize(dq_mul(*q, dq_exp(dv_scale(wm, h))));
        return;
    }
    if (depth < VX_ROT_MAX_SPLITS) {
        advance(l, q, inv_inertia, 0.5 * h, depth + 1);
        advance(l, q, inv_inertia, 0.5 * h, depth + 1);
        return;
    }
    turn_about_momentum(*l, q, inv_inertia, h);
}

static bool inertia_is_valid(vx_vec3 i)
{
    return vx_vec3_is_finite(i) && i.x > 0.0f && i.y > 0.0f && i.z > 0.0f;
}

static vx_quat dq_to_float(dquat q)
{
    dquat n = dq_normalize(q);
    return vx_quat_make((float)n.x, (float)n.y, (float)n.z, (float)n.w);
}

void vx_rotation_integrate(vx_quat *q, vx_vec3 *w, vx_vec3 inertia_body, float dt)
{
    if (!q || !w) return;
    /* Nothing turns: leave the state bit for bit as it is. */
    if (dt == 0.0f || (w->x == 0.0f && w->y == 0.0f && w->z == 0.0f)) return;
    /* No meaningful step exists from a non-finite state. */
    if (!isfinite(dt) || !vx_vec3_is_finite(*w) || !vx_quat_is_finite(*q)) return;

    dquat q0 = dq_normalize(dq_from(*q));
    dvec3 w_world = dv_from(*w);
    if (!inertia_is_valid(inertia_body)) {
        /* No usable inertia (the API requires all > 0): turn rigidly at w. */
        *q = dq_to_float(dq_mul(dq_exp(dv_scale(w_world, dt)), q0));
        return;
    }

    dvec3 inertia = dv_from(inertia_body);
    dvec3 inv_inertia = dv(1.0 / inertia.x, 1.0 / inertia.y, 1.0 / inertia.z);
    dmat3 r0 = dm_from_quat(q0);
    dvec3 l = dv_mul(inertia, dm_mul_transposed_vec(&r0, w_world));

    /* |w|^2 = sum L_i^2 / I_i^2 <= (L.I^-1.L) / I_min = 2E / I_min all along
     * the motion, since the energy is conserved: split the step so that no
     * substep turns more than the bound. */
    double i_min = fmin(inertia.x, fmin(inertia.y, inertia.z));
    double two_energy = dv_dot(l, dv_mul(inv_inertia, l));
    double max_angle = sqrt(two_energy / i_min) * fabs((double)dt);
    int substeps = 1;
    if (max_angle > VX_ROT_MAX_SUBSTEP_ANGLE) {
        double wanted = ceil(max_angle / VX_ROT_MAX_SUBSTEP_ANGLE);
        substeps = wanted >= (double)VX_ROT_MAX_SUBSTEPS ? VX_ROT_MAX_SUBSTEPS : (int)wanted;
    }
    double h = (double)dt / substeps;
    dquat q1 = q0;
    if (dv_length(w_world) * fabs((double)dt) > VX_ROT_MAX_SUBSTEPS * VX_ROT_MAX_SUBSTEP_ANGLE) {
        /* More than 256 rad in one step (15000 rad/s at 60 Hz): no substep
         * could follow it, and failing Newton solves in every one of 256
         * substeps cost milliseconds per body. The last resort at once. */
        turn_about_momentum(l, &q1, inv_inertia, (double)dt);
    } else {
        for (int i = 0; i < substeps; i++) advance(&l, &q1, inv_inertia, h, 0);
    }

    /* w from the float orientation actually stored, so the stored pair
     * (q, w) carries exactly the body-frame momentum computed here. */
    vx_quat q_out = dq_to_float(q1);
    dmat3 r1 = dm_from_quat(dq_from(q_out));
    *q = q_out;
    *w = dv_to_float(dm_mul_vec(&r1, dv_mul(inv_inertia, l)));
}

vx_vec3 vx_angular_momentum(vx_quat q, vx_vec3 w, vx_vec3 inertia_body)
{
    vx_quat conj = vx_quat_conjugate(q);
    vx_vec3 w_body = vx_quat_rotate(conj, w);
    return vx_quat_rotate(q, vx_vec3_mul(inertia_body, w_body));
}

float vx_rotational_energy(vx_quat q, vx_vec3 w, vx_vec3 inertia_body)
{
    vx_vec3 w_body = vx_quat_rotate(vx_quat_conjugate(q), w);
    return 0.5f * vx_vec3_dot(w_body, vx_vec3_mul(inertia_body, w_body));
}

/* ---- principal moments of inertia of the solid shapes, about their centres,
 * and the world-frame inverse inertia of an oriented body ---- */

#define VX_PI_D 3.14159265358979323846

vx_vec3 vx_inertia_sphere(float mass, float radius)
{
    float i = 0.4f * mass * radius * radius;
    return vx_vec3_make(i, i, i);
}

/* A box of full sides 2h: I_x = m (4 h_y^2 + 4 h_z^2) / 12. */
vx_vec3 vx_inertia_box(float mass, vx_vec3 half_extents)
{
    float x2 = half_extents.x * half_extents.x;
    float y2 = half_extents.y * half_extents.y;
    float z2 = half_extents.z * half_extents.z;
    float k = mass / 3.0f;
    return vx_vec3_make(k * (y2 + z2), k * (x2 + z2), k * (x2 + y2));
}

/* The mass is split by volume between the cylinder (radius r, length 2 hh)
 * and the two caps, which together make a sphere of mass m_s.
 *   cylinder: I_y = m_c r^2 / 2, I_x = m_c (3 r^2 + (2 hh)^2) / 12
 *   caps:     I_y = 2/5 m_s r^2
 *             I_x = 2/5 m_s r^2 + m_s (hh^2 + 3/4 hh r)
 * For I_x of one cap (mass m_s/2): about its flat face it is half a sphere's,
 * 2/5 (m_s/2) r^2; its centroid lies 3r/8 from that face, so moving to the
 * centroid subtracts (m_s/2)(3r/8)^2 and moving on to the capsule centre, at
 * hh + 3r/8, adds (m_s/2)(hh + 3r/8)^2; the (3r/8)^2 terms cancel.
 * Computed in double: the volume ratio and the sums lose nothing then. */
vx_vec3 vx_inertia_capsule(float mass, float radius, float half_height)
{
    double m = mass, r = radius, hh = half_height;
    double r2 = r * r;
    double v_cyl = VX_PI_D * r2 * (2.0 * hh);
    double v_caps = 4.0 / 3.0 * VX_PI_D * r2 * r;
    double v_total = v_cyl + v_caps;
    if (!(v_total > 0.0)) return vx_vec3_zero(); /* a point: no extent, no moment */
    double m_cyl = m * v_cyl / v_total;
    double m_caps = m * v_caps / v_total;

    double axial = 0.5 * m_cyl * r2 + 0.4 * m_caps * r2;
    double transverse = m_cyl * (3.0 * r2 + 4.0 * hh * hh) / 12.0 + 0.4 * m_caps * r2 +
                        m_caps * (hh * hh + 0.75 * hh * r);
    return vx_vec3_make((float)transverse, (float)axial, (float)transverse);
}

/* M = R diag(d) R^T. Only the upper triangle is computed and mirrored, so the
 * result is symmetric bit for bit. */
vx_mat3 vx_inertia_world_inverse(vx_quat q, vx_vec3 inv_inertia_body)
{
    vx_mat3 r = vx_mat3_from_quat(q);
    float d[3] = {inv_inertia_body.x, inv_inertia_body.y, inv_inertia_body.z};
    vx_mat3 out;
    for (int i = 0; i < 3; i++) {
        for (int j = i; j < 3; j++) {
            float s = 0.0f;
            for (int k = 0; k < 3; k++) s += r.m[i][k] * d[k] * r.m[j][k];
            out.m[i][j] = s;
            out.m[j][i] = s;
        }
    }
    return out;
}
