/* The 4-lane contact kernel (src/physics/contact_wide.c) against the scalar
 * vx_contact_solver_solve_packed: random blocks must give memcmp-identical
 * velocities and impulses, two blocks solved side by side those of the two
 * in turn, and a box dropped on the ground must stop. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "physics/solver/contact_solver.h"
#include "physics/solver/contact_wide.h"
#include "test_helpers.h"

#define BODIES 12 /* 8 dynamic (0..7), 4 static or kinematic (8..11) */
#define DYNAMIC 8

/* One random block: the lanes' constraints and rows, the bodies' velocities. */
typedef struct {
    vx_contact_hot_constraint c[4];
    bool used[4];
    vx_contact_hot_row rows[4][VX_MANIFOLD_MAX_POINTS];
    vx_contact_hot_velocity vel[BODIES];
    float inv_mass[BODIES];
} scenario;

static void put3(float out[4], vx_vec3 v)
{
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
    out[3] = 0.0f;
}

static vx_vec3 random_vec(vx_test_rng *r, float scale)
{
    return vx_vec3_make(vx_test_rng_range(r, -scale, scale), vx_test_rng_range(r, -scale, scale),
                        vx_test_rng_range(r, -scale, scale));
}

static vx_vec3 random_unit(vx_test_rng *r)
{
    for (;;) {
        vx_vec3 v = random_vec(r, 1.0f);
        float len = vx_vec3_length(v);
        if (len > 0.1f && len <= 1.0f) return vx_vec3_scale(v, 1.0f / len);
    }
}

/* Mostly ordinary values, sometimes exactly +0 or -0. */
static float random_velocity(vx_test_rng *r)
{
    uint32_t k = vx_test_rng_next(r) % 8u;
    if (k == 0) return 0.0f;
    if (k == 1) return -0.0f;
    return vx_test_rng_range(r, -3.0f, 3.0f);
}

static bool chance(vx_test_rng *r, uint32_t percent) { return vx_test_rng_next(r) % 100u < percent; }

/* An arm's Jacobian and its image under a random diagonal inverse inertia
 * (zero for a body of zero inverse mass). */
static void random_arm(vx_test_rng *r, vx_vec3 d, bool dynamic, float rx_d[4], float i_d[4])
{
    vx_vec3 arm = random_vec(r, 0.8f);
    vx_vec3 j = vx_vec3_cross(arm, d);
    vx_vec3 inv_inertia = vx_vec3_make(vx_test_rng_range(r, 0.5f, 8.0f), vx_test_rng_range(r, 0.5f, 8.0f),
                                       vx_test_rng_range(r, 0.5f, 8.0f));
    put3(rx_d, j);
    put3(i_d, dynamic ? vx_vec3_mul(inv_inertia, j) : vx_vec3_zero());
}

static void random_scenario(scenario *s, vx_test_rng *r)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < BODIES; i++) {
        s->inv_mass[i] = i < DYNAMIC ? vx_test_rng_range(r, 0.1f, 2.0f) : 0.0f;
        for (int k = 0; k < 3; k++) {
            s->vel[i].v[k] = random_velocity(r);
            s->vel[i].w[k] = random_velocity(r);
        }
    }
    /* Each dynamic body in at most one lane; static ones shared freely. */
    bool taken[DYNAMIC] = {false};
    for (int i = 0; i < 4; i++) {
        s->used[i] = !chance(r, 12);
        if (!s->used[i]) continue;
        vx_contact_hot_constraint *c = &s->c[i];
        uint32_t slot[2];
        for (int side = 0; side < 2; side++) {
            uint32_t b;
            do {
                /* A dynamic half the time, B mostly */
                bool dyn = side == 1 ? !chance(r, 15) : chance(r, 50);
                b = dyn ? vx_test_rng_next(r) % DYNAMIC : DYNAMIC + vx_test_rng_next(r) % (BODIES - DYNAMIC);
            } while ((b < DYNAMIC && taken[b]) || (side == 1 && b == slot[0]));
            if (b < DYNAMIC) taken[b] = true;
            slot[side] = b;
        }
        c->a = slot[0];
        c->b = slot[1];
        c->inv_mass_a = s->inv_mass[c->a];
        c->inv_mass_b = s->inv_mass[c->b];
        uint32_t pick = vx_test_rng_next(r) % 10u;
        c->friction = pick == 0 ? 0.0f : (pick == 1 ? -0.0f : vx_test_rng_range(r, 0.05f, 1.2f));
        c->count = chance(r, 3) ? 0u : 1u + vx_test_rng_next(r) % VX_MANIFOLD_MAX_POINTS;
        vx_vec3 n = random_unit(r);
        vx_vec3 t1 = vx_vec3_normalize(vx_vec3_cross(n, random_unit(r)));
        vx_vec3 t2 = vx_vec3_cross(n, t1);
        put3(c->n, n);
        put3(c->t1, t1);
        put3(c->t2, t2);
        bool dyn_a = c->inv_mass_a > 0.0f, dyn_b = c->inv_mass_b > 0.0f;
        vx_contact_friction *f = &c->patch;
        const vx_vec3 t[2] = {t1, t2};
        for (int j = 0; j < 2; j++) {
            random_arm(r, t[j], dyn_a, f->ra_t[j], f->ia_t[j]);
            random_arm(r, t[j], dyn_b, f->rb_t[j], f->ib_t[j]);
            f->tangent_mass[j] = vx_test_rng_range(r, 0.05f, 2.0f);
            f->tangent_impulse[j] = chance(r, 20) ? 0.0f : vx_test_rng_range(r, -1.0f, 1.0f);
        }
        vx_vec3 inv_inertia_a = random_vec(r, 4.0f), inv_inertia_b = random_vec(r, 4.0f);
        put3(f->ia_twist, dyn_a ? vx_vec3_mul(inv_inertia_a, n) : vx_vec3_zero());
        put3(f->ib_twist, dyn_b ? vx_vec3_mul(inv_inertia_b, n) : vx_vec3_zero());
        f->twist_mass = vx_test_rng_range(r, 0.05f, 2.0f);
        f->twist_impulse = chance(r, 20) ? 0.0f : vx_test_rng_range(r, -0.5f, 0.5f);
        for (uint32_t k = 0; k < c->count; k++) {
            vx_contact_hot_row *row = &s->rows[i][k];
            random_arm(r, n, dyn_a, row->ra_n, row->ia_n);
            random_arm(r, n, dyn_b, row->rb_n, row->ib_n);
            f->lever[k] = chance(r, 10) ? 0.0f : vx_test_rng_range(r, 0.0f, 0.8f);
            row->normal_mass = vx_test_rng_range(r, 0.05f, 2.0f);
            row->bias = chance(r, 30) ? 0.0f : vx_test_rng_range(r, -1.0f, 1.0f);
            row->normal_impulse = chance(r, 25) ? 0.0f : vx_test_rng_range(r, 0.0f, 2.0f);
            row->pad = chance(r, 40) ? 1.0f : 0.0f; /* soft */
        }
    }
}

/* The wide kernel's inputs from s. */
static void lane_pointers(scenario *s, vx_contact_hot_constraint *lanes[4], vx_contact_hot_row *rows[4])
{
    for (int i = 0; i < 4; i++) {
        lanes[i] = s->used[i] ? &s->c[i] : NULL;
        rows[i] = s->used[i] ? s->rows[i] : NULL;
    }
}

static void solve_scalar(scenario *s, bool backwards, float mass_scale, float impulse_scale)
{
    for (int i = 0; i < 4; i++)
        if (s->used[i])
            vx_contact_solver_solve_packed(&s->c[i], s->rows[i], s->vel, backwards, mass_scale, impulse_scale);
}

static void load_wide(vx_contact_wide_block *w, scenario *s)
{
    vx_contact_hot_constraint *lanes[4];
    vx_contact_hot_row *rows[4];
    lane_pointers(s, lanes, rows);
    const vx_contact_hot_row *const crows[4] = {rows[0], rows[1], rows[2], rows[3]};
    const vx_contact_hot_constraint *const clanes[4] = {lanes[0], lanes[1], lanes[2], lanes[3]};
    vx_contact_wide_load(w, clanes, crows);
}

static void store_wide(const vx_contact_wide_block *w, scenario *s)
{
    vx_contact_hot_constraint *lanes[4];
    vx_contact_hot_row *rows[4];
    lane_pointers(s, lanes, rows);
    vx_contact_wide_store_impulses(w, rows, lanes);
}

/* Velocities (with their pad lanes when pads) and rows, bit for bit. */
static void assert_identical(const scenario *scalar, const scenario *wide, int block, bool pads)
{
    for (int i = 0; i < BODIES; i++)
        cr_assert(pads ? memcmp(&scalar->vel[i], &wide->vel[i], sizeof scalar->vel[i]) == 0
                       : memcmp(scalar->vel[i].v, wide->vel[i].v, 3 * sizeof(float)) == 0 &&
                             memcmp(scalar->vel[i].w, wide->vel[i].w, 3 * sizeof(float)) == 0,
                  "block %d body %d: v (%a %a %a) w (%a %a %a) vs v (%a %a %a) w (%a %a %a)", block, i,
                  (double)scalar->vel[i].v[0], (double)scalar->vel[i].v[1], (double)scalar->vel[i].v[2],
                  (double)scalar->vel[i].w[0], (double)scalar->vel[i].w[1], (double)scalar->vel[i].w[2],
                  (double)wide->vel[i].v[0], (double)wide->vel[i].v[1], (double)wide->vel[i].v[2],
                  (double)wide->vel[i].w[0], (double)wide->vel[i].w[1], (double)wide->vel[i].w[2]);
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < VX_MANIFOLD_MAX_POINTS; k++) {
            const vx_contact_hot_row *a = &scalar->rows[i][k], *b = &wide->rows[i][k];
            cr_assert(memcmp(a, b, sizeof *a) == 0, "block %d lane %d point %d: impulses n %a vs n %a", block, i, k,
                      (double)a->normal_impulse, (double)b->normal_impulse);
        }
        const vx_contact_friction *a = &scalar->c[i].patch, *b = &wide->c[i].patch;
        cr_assert(memcmp(a, b, sizeof *a) == 0, "block %d lane %d: friction t %a %a twist %a vs t %a %a twist %a",
                  block, i, (double)a->tangent_impulse[0], (double)a->tangent_impulse[1], (double)a->twist_impulse,
                  (double)b->tangent_impulse[0], (double)b->tangent_impulse[1], (double)b->twist_impulse);
    }
}

/* How many solved rows of the last pass ended on the friction disc's edge
 * (radius friction times the normal impulse before, in before) or at zero
 * normal impulse: both clamps exercised. */
static void count_clamps(const scenario *s, const scenario *before, int *friction_clamped, int *normal_clamped)
{
    for (int i = 0; i < 4; i++) {
        float total = 0.0f;
        for (uint32_t k = 0; s->used[i] && k < s->c[i].count; k++) {
            if (s->rows[i][k].normal_impulse == 0.0f) (*normal_clamped)++;
            total += before->rows[i][k].normal_impulse;
        }
        const vx_contact_friction *f = &s->c[i].patch;
        float t = sqrtf(f->tangent_impulse[0] * f->tangent_impulse[0] + f->tangent_impulse[1] * f->tangent_impulse[1]);
        float max = s->c[i].friction * total;
        if (s->used[i] && s->c[i].friction > 0.0f && max > 0.0f && fabsf(t - max) <= 1e-5f * max) (*friction_clamped)++;
    }
}

typedef struct {
    int blocks, passes;
    bool alternate;   /* passes alternate forwards, backwards, ... */
    bool backwards;   /* else every pass in this direction */
    bool soft_scales; /* random mass_scale, impulse_scale (else 1, 0) */
    bool retarget;    /* new biases and soft flags between passes */
    bool infinite;    /* a few velocity components +-inf */
} random_run;

/* o.blocks random blocks, each loaded once and solved o.passes times. */
static void run_random(uint32_t seed, random_run o)
{
    int blocks = o.blocks, passes = o.passes;
    vx_test_rng r = {seed};
    scenario *scalar = aligned_alloc(16, sizeof *scalar);
    scenario *wide = aligned_alloc(16, sizeof *wide);
    vx_contact_wide_block *w = aligned_alloc(16, vx_contact_wide_block_size(VX_MANIFOLD_MAX_POINTS));
    scenario *last = aligned_alloc(16, sizeof *last); /* the rows before the last pass */
    cr_assert(scalar && wide && w && last);
    int friction_clamped = 0, normal_clamped = 0;
    for (int blk = 0; blk < blocks; blk++) {
        random_scenario(scalar, &r);
        if (o.infinite)
            for (int j = 0; j < 2; j++) {
                vx_contact_hot_velocity *v = &scalar->vel[vx_test_rng_next(&r) % BODIES];
                float *f = chance(&r, 50) ? v->v : v->w;
                f[vx_test_rng_next(&r) % 3u] = chance(&r, 50) ? INFINITY : -INFINITY;
            }
        memcpy(wide, scalar, sizeof *wide);
        float mass_scale = o.soft_scales ? vx_test_rng_range(&r, 0.2f, 1.0f) : 1.0f;
        float impulse_scale = o.soft_scales ? vx_test_rng_range(&r, 0.0f, 0.5f) : 0.0f;
        load_wide(w, wide);
        for (int pass = 0; pass < passes; pass++) {
            bool back = o.alternate ? (pass & 1) != 0 : o.backwards;
            if (o.retarget && pass > 0) {
                /* new targets, as a substep would set them */
                for (int i = 0; i < 4; i++)
                    for (uint32_t k = 0; scalar->used[i] && k < scalar->c[i].count; k++) {
                        float bias = vx_test_rng_range(&r, -0.5f, 0.5f);
                        bool soft = chance(&r, 50);
                        scalar->rows[i][k].bias = bias;
                        scalar->rows[i][k].pad = soft ? 1.0f : 0.0f;
                        vx_contact_wide_set_target(w, i, (int)k, bias, soft);
                    }
            }
            if (pass + 1 == passes) memcpy(last, scalar, sizeof *last);
            solve_scalar(scalar, back, mass_scale, impulse_scale);
            vx_contact_wide_solve(w, wide->vel, back, mass_scale, impulse_scale);
        }
        store_wide(w, wide);
        if (o.retarget) /* the targets live in the rows on the scalar side only */
            for (int i = 0; i < 4; i++)
                for (int k = 0; k < VX_MANIFOLD_MAX_POINTS; k++) {
                    wide->rows[i][k].bias = scalar->rows[i][k].bias;
                    wide->rows[i][k].pad = scalar->rows[i][k].pad;
                }
        assert_identical(scalar, wide, blk, !o.infinite);
        count_clamps(scalar, last, &friction_clamped, &normal_clamped);
    }
    /* the random rows reach both clamps often */
    cr_assert_gt(friction_clamped, blocks / 10, "friction clamped %d times", friction_clamped);
    cr_assert_gt(normal_clamped, blocks / 10, "normal clamped %d times", normal_clamped);
    free(scalar);
    free(wide);
    free(last);
    free(w);
}

Test(solver_wide, random_blocks_forward_hard) { run_random(0x12345u, (random_run){.blocks = 3000, .passes = 1}); }

/* Two blocks over separate bodies (the second scenario's bodies after the
 * first's in one velocity array) solved side by side by
 * vx_contact_wide_solve_two give the bytes of the two solved in turn:
 * velocities and impulses, manifolds of different sizes, friction or not,
 * both directions, rigid and soft, several passes. */
Test(solver_wide, two_blocks_side_by_side_give_the_bytes_of_two_in_turn)
{
    vx_test_rng r = {0xbeefu};
    scenario *s[2];
    vx_contact_wide_block *w[2][2]; /* [in turn, side by side][block] */
    vx_contact_hot_velocity *vel[2];
    for (int k = 0; k < 2; k++) {
        s[k] = aligned_alloc(16, sizeof *s[k]);
        vel[k] = aligned_alloc(16, 2 * BODIES * sizeof *vel[k]);
        cr_assert(s[k] && vel[k]);
        for (int j = 0; j < 2; j++) {
            w[k][j] = aligned_alloc(16, vx_contact_wide_block_size(VX_MANIFOLD_MAX_POINTS));
            cr_assert_not_null(w[k][j]);
        }
    }
    for (int run = 0; run < 1500; run++) {
        for (int j = 0; j < 2; j++) {
            random_scenario(s[j], &r);
            if (j == 1)
                for (int i = 0; i < 4; i++) {
                    s[1]->c[i].a += BODIES;
                    s[1]->c[i].b += BODIES;
                }
            memcpy(vel[0] + j * BODIES, s[j]->vel, sizeof s[j]->vel);
        }
        memcpy(vel[1], vel[0], 2 * BODIES * sizeof *vel[0]);
        for (int k = 0; k < 2; k++)
            for (int j = 0; j < 2; j++) load_wide(w[k][j], s[j]);
        bool soft = chance(&r, 30);
        float mass_scale = soft ? vx_test_rng_range(&r, 0.2f, 1.0f) : 1.0f;
        float impulse_scale = soft ? vx_test_rng_range(&r, 0.0f, 0.5f) : 0.0f;
        int passes = 1 + (int)(vx_test_rng_next(&r) % 4u);
        for (int pass = 0; pass < passes; pass++) {
            bool back = chance(&r, 50);
            vx_contact_wide_solve(w[0][0], vel[0], back, mass_scale, impulse_scale);
            vx_contact_wide_solve(w[0][1], vel[0], back, mass_scale, impulse_scale);
            vx_contact_wide_solve_two(w[1][0], w[1][1], vel[1], back, mass_scale, impulse_scale);
        }
        cr_assert(memcmp(vel[0], vel[1], 2 * BODIES * sizeof *vel[0]) == 0, "run %d: velocities differ", run);
        for (int j = 0; j < 2; j++) {
            store_wide(w[0][j], s[j]);
            scenario *turn = aligned_alloc(16, sizeof *turn);
            cr_assert_not_null(turn);
            memcpy(turn, s[j], sizeof *turn);
            store_wide(w[1][j], s[j]);
            cr_assert(memcmp(turn->rows, s[j]->rows, sizeof turn->rows) == 0 &&
                          memcmp(turn->c, s[j]->c, sizeof turn->c) == 0,
                      "run %d block %d: impulses differ", run, j);
            free(turn);
        }
    }
    for (int k = 0; k < 2; k++) {
        for (int j = 0; j < 2; j++) free(w[k][j]);
        free(s[k]);
        free(vel[k]);
    }
}

Test(solver_wide, random_blocks_backward_hard)
{
    run_random(0xbeefu, (random_run){.blocks = 3000, .passes = 1, .backwards = true});
}

Test(solver_wide, random_blocks_soft_scales_both_directions)
{
    run_random(0x5eedu, (random_run){.blocks = 2000, .passes = 1, .soft_scales = true});
    run_random(0x7777u, (random_run){.blocks = 2000, .passes = 1, .backwards = true, .soft_scales = true});
}

/* one load, ten passes alternating, the impulses carried in the block */
Test(solver_wide, random_blocks_ten_alternating_passes)
{
    run_random(0xc0ffeeu, (random_run){.blocks = 800, .passes = 10, .alternate = true});
    run_random(0xfaceu, (random_run){.blocks = 800, .passes = 10, .alternate = true, .soft_scales = true});
}

Test(solver_wide, random_blocks_new_targets_between_passes)
{
    run_random(0xabcdefu, (random_run){.blocks = 800, .passes = 6, .alternate = true, .soft_scales = true,
                                       .retarget = true});
}

/* Infinite velocities (NaN results included) give the same bits too, but
 * for the pad lanes (the scalar's pad turns NaN with a non-finite impulse;
 * the wide kernel keeps it). Rows not solved stay no-ops: the friction
 * increment is masked, the normal one clamps to +0. */
Test(solver_wide, random_blocks_with_infinite_velocities)
{
    run_random(0x1f1f1u, (random_run){.blocks = 1500, .passes = 4, .alternate = true, .soft_scales = true,
                                      .infinite = true});
}

/* No lane: nothing read or written. */
Test(solver_wide, empty_block_changes_nothing)
{
    vx_contact_wide_block *w = aligned_alloc(16, vx_contact_wide_block_size(VX_MANIFOLD_MAX_POINTS));
    cr_assert_not_null(w);
    const vx_contact_hot_constraint *lanes[4] = {NULL, NULL, NULL, NULL};
    const vx_contact_hot_row *rows[4] = {NULL, NULL, NULL, NULL};
    vx_contact_wide_load(w, lanes, rows);
    vx_contact_wide_solve(w, NULL, false, 1.0f, 0.0f);
    vx_contact_hot_row *out[4] = {NULL, NULL, NULL, NULL};
    vx_contact_hot_constraint *out_lanes[4] = {NULL, NULL, NULL, NULL};
    vx_contact_wide_store_impulses(w, out, out_lanes);
    cr_assert_eq(vx_contact_wide_normal_impulse(w, 0, 0), 0.0f);
    free(w);
}

/* A lane without friction leaves its tangent impulses and the tangential
 * velocity alone; the getters read the block. */
Test(solver_wide, lane_without_friction_keeps_tangent_impulses)
{
    scenario *s = aligned_alloc(16, sizeof *s);
    vx_contact_wide_block *w = aligned_alloc(16, vx_contact_wide_block_size(VX_MANIFOLD_MAX_POINTS));
    cr_assert(s && w);
    memset(s, 0, sizeof *s);
    s->used[0] = true;
    vx_contact_hot_constraint *c = &s->c[0];
    c->a = 1; /* static ground */
    c->b = 0; /* a particle of mass 1 moving down and sideways */
    c->inv_mass_b = 1.0f;
    c->friction = 0.0f;
    c->count = 1;
    put3(c->n, vx_vec3_make(0.0f, 1.0f, 0.0f));
    put3(c->t1, vx_vec3_make(1.0f, 0.0f, 0.0f));
    put3(c->t2, vx_vec3_make(0.0f, 0.0f, 1.0f));
    s->rows[0][0].normal_mass = 1.0f;
    c->patch.tangent_mass[0] = c->patch.tangent_mass[1] = 1.0f;
    c->patch.tangent_impulse[0] = 0.75f;
    s->vel[0].v[0] = 2.0f;
    s->vel[0].v[1] = -3.0f;
    load_wide(w, s);
    vx_contact_wide_solve(w, s->vel, false, 1.0f, 0.0f);
    store_wide(w, s);
    cr_assert_eq(s->vel[0].v[0], 2.0f);
    cr_assert_eq(s->vel[0].v[1], 0.0f);
    cr_assert_eq(s->rows[0][0].normal_impulse, 3.0f);
    cr_assert_eq(vx_contact_wide_normal_impulse(w, 0, 0), 3.0f);
    cr_assert_eq(c->patch.tangent_impulse[0], 0.75f);
    cr_assert_eq(vx_contact_wide_tangent_impulse(w, 0, 0), 0.0f);
    free(s);
    free(w);
}

/* ---- physics: unit boxes (mass 1) dropped flat on the ground ---- */

/* Point k of a unit box on static ground (slot 4), normal +y up into the box
 * (the box is B), corners at (+-0.5, -0.5, +-0.5) from its centre. */
static void box_on_ground(vx_contact_hot_constraint *c, vx_contact_hot_row rows[4], uint32_t box, float friction)
{
    memset(c, 0, sizeof *c);
    memset(rows, 0, 4 * sizeof rows[0]);
    vx_vec3 n = vx_vec3_make(0.0f, 1.0f, 0.0f), t[2] = {vx_vec3_make(1.0f, 0.0f, 0.0f), vx_vec3_make(0.0f, 0.0f, 1.0f)};
    c->a = 4;
    c->b = box;
    c->inv_mass_a = 0.0f;
    c->inv_mass_b = 1.0f;
    c->friction = friction;
    c->count = 4;
    put3(c->n, n);
    put3(c->t1, t[0]);
    put3(c->t2, t[1]);
    const float inv_inertia = 6.0f; /* unit cube of mass 1: I = 1/6 */
    for (int k = 0; k < 4; k++) {
        vx_vec3 arm = vx_vec3_make((k & 1) ? 0.5f : -0.5f, -0.5f, (k & 2) ? 0.5f : -0.5f);
        vx_vec3 jn = vx_vec3_cross(arm, n);
        put3(rows[k].rb_n, jn);
        put3(rows[k].ib_n, vx_vec3_scale(jn, inv_inertia));
        rows[k].normal_mass = 1.0f / (1.0f + inv_inertia * vx_vec3_dot(jn, jn));
        c->patch.lever[k] = sqrtf(0.5f);
    }
    /* the friction at the centre of the face, (0, -0.5, 0) from the box's */
    vx_vec3 centre = vx_vec3_make(0.0f, -0.5f, 0.0f);
    for (int j = 0; j < 2; j++) {
        vx_vec3 jt = vx_vec3_cross(centre, t[j]);
        put3(c->patch.rb_t[j], jt);
        put3(c->patch.ib_t[j], vx_vec3_scale(jt, inv_inertia));
        c->patch.tangent_mass[j] = 1.0f / (1.0f + inv_inertia * vx_vec3_dot(jt, jt));
    }
    put3(c->patch.ib_twist, vx_vec3_scale(n, inv_inertia));
    c->patch.twist_mass = 1.0f / inv_inertia;
}

/* n . (velocity of B's corner k), the ground at rest */
static float corner_normal_velocity(const vx_contact_hot_velocity *v, int k)
{
    vx_vec3 arm = vx_vec3_make((k & 1) ? 0.5f : -0.5f, -0.5f, (k & 2) ? 0.5f : -0.5f);
    vx_vec3 lin = vx_vec3_make(v->v[0], v->v[1], v->v[2]), ang = vx_vec3_make(v->w[0], v->w[1], v->w[2]);
    return vx_vec3_add(lin, vx_vec3_cross(ang, arm)).y;
}

/* Four boxes share the ground: falling at 2 m/s; at 1 m/s sliding at 1 m/s
 * with friction 0.2; falling at 3 m/s with a 0.1 m/s push-out target; and an
 * empty lane. After 30 passes: the normal velocity at every corner meets its
 * target, the normal impulses sum to the momentum taken (m dv), sliding
 * loses mu * N of speed, and the scalar solve gives the same bits. */
Test(solver_wide, boxes_dropped_on_the_ground_stop)
{
    scenario *s = aligned_alloc(16, sizeof *s);
    scenario *ref = aligned_alloc(16, sizeof *ref);
    vx_contact_wide_block *w = aligned_alloc(16, vx_contact_wide_block_size(VX_MANIFOLD_MAX_POINTS));
    cr_assert(s && ref && w);
    memset(s, 0, sizeof *s);
    box_on_ground(&s->c[0], s->rows[0], 0, 0.5f);
    box_on_ground(&s->c[1], s->rows[1], 1, 0.2f);
    box_on_ground(&s->c[3], s->rows[3], 3, 0.5f);
    s->used[0] = s->used[1] = s->used[3] = true;
    s->vel[0].v[1] = -2.0f;
    s->vel[1].v[1] = -1.0f;
    s->vel[1].v[0] = 1.0f;
    s->vel[3].v[1] = -3.0f;
    for (int k = 0; k < 4; k++) s->rows[3][k].bias = 0.1f;
    memcpy(ref, s, sizeof *s);
    load_wide(w, s);
    for (int pass = 0; pass < 30; pass++) {
        vx_contact_wide_solve(w, s->vel, (pass & 1) != 0, 1.0f, 0.0f);
        solve_scalar(ref, (pass & 1) != 0, 1.0f, 0.0f);
    }
    store_wide(w, s);
    assert_identical(ref, s, 0, true);
    const float target[4] = {0.0f, 0.0f, 0.0f, 0.1f};
    const float fall[4] = {2.0f, 1.0f, 0.0f, 3.1f};
    for (int lane = 0; lane < 4; lane++) {
        if (!s->used[lane]) continue;
        float total = 0.0f;
        for (int k = 0; k < 4; k++) {
            cr_assert_geq(corner_normal_velocity(&s->vel[lane], k), target[lane] - 1e-4f, "lane %d corner %d", lane, k);
            VX_ASSERT_NEAR(corner_normal_velocity(&s->vel[lane], k), target[lane], 1e-3f);
            total += s->rows[lane][k].normal_impulse;
        }
        VX_ASSERT_NEAR(total, fall[lane], 1e-3f); /* mass 1: impulse = speed change */
    }
    VX_ASSERT_NEAR(s->vel[0].v[0], 0.0f, 1e-4f);
    VX_ASSERT_NEAR(s->vel[1].v[0], 1.0f - 0.2f * 1.0f, 1e-3f); /* mu N / m */
    /* the static ground (slot 4) was read by three lanes and never written */
    for (int k = 0; k < 4; k++) cr_assert_eq(s->vel[4].v[k], 0.0f);
    free(s);
    free(ref);
    free(w);
}
