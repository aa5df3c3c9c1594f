/* Four contact constraints solved at once, one per SIMD lane (private to the
 * physics module; contact_wide.c). Blocks are structure of arrays, 16-byte
 * aligned (aligned_alloc of vx_contact_wide_block_size(points)). Solving a
 * block does what four scalar solves in turn do, bit for bit, provided no
 * two lanes share a body with inv_mass > 0; rows a lane does not solve are
 * loaded as rows that change nothing. See docs/simulation.md, "The SIMD solve". */
#ifndef VOLTEX_PHYSICS_CONTACT_WIDE_H
#define VOLTEX_PHYSICS_CONTACT_WIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "physics/solver/contact_solver.h"
#include "voltex/collide.h"

#define VX_CONTACT_WIDE_LANES 4

/* The lanes' manifold friction (vx_contact_friction), four lanes: the two
 * tangent rows at the centre and the twist. [k][axis][lane]: tangent k,
 * axis x, y, z. */
typedef struct {
    _Alignas(16) float t[2][3][4];  /* the constraint's t1, t2 (0 where not solved) */
    float ra_t[2][3][4];            /* rA x t */
    float rb_t[2][3][4];            /* rB x t */
    float tangent_mass[2][4];
    float tangent_impulse[2][4];
    float ia_t[2][3][4];            /* IA^-1 (rA x t) */
    float ib_t[2][3][4];            /* IB^-1 (rB x t) */
    float n[3][4];                  /* the normal (0 where not solved) */
    float ia_twist[3][4];           /* IA^-1 n */
    float ib_twist[3][4];           /* IB^-1 n */
    float twist_mass[4];
    float twist_impulse[4];
    float lever[VX_MANIFOLD_MAX_POINTS][4]; /* each point's distance from the centre (0 past a lane's count) */
    float inv_mass_a[4];            /* +0 where not solved */
    float inv_mass_b[4];            /* -0 where not solved */
    uint32_t solved[4];             /* all ones where the lane solves friction */
} vx_contact_wide_friction_row;

/* One point's normal row, four lanes. */
typedef struct {
    _Alignas(16) float n[3][4];    /* the constraint's normal (0 where not solved) */
    float ra_n[3][4];
    float rb_n[3][4];
    float bias[4];
    float normal_mass[4];
    float normal_impulse[4];
    uint32_t soft[4];              /* all ones: a soft row (the hot row's pad != 0) */
    float ia_n[3][4];
    float ib_n[3][4];
    float inv_mass_a[4];
    float inv_mass_b[4];
} vx_contact_wide_normal_row;

/* One point's normal row, four lanes. */
typedef struct {
    vx_contact_wide_normal_row normal;
} vx_contact_wide_point;

/* The header, then as many points as the block's largest manifold
 * (vx_contact_wide_block_size): a block of spheres' one-point contacts is a
 * quarter of a block of box faces, and a pass streams one run of memory. */
typedef struct vx_contact_wide_block {
    _Alignas(16) float friction[4]; /* 0 in lanes without friction */
    uint32_t a[4], b[4];            /* body slots; an empty lane reads another lane's bodies */
    uint32_t count[4];              /* points per lane, 0 for an empty lane */
    uint32_t max_count;             /* points solved: the largest count */
    uint32_t used;                  /* bit i: lane i holds a constraint */
    uint32_t has_friction;          /* bit i: lane i solves its friction rows */
    uint32_t store_a, store_b;      /* bit i: lane i writes body a (b) back (inv_mass > 0) */
    uint32_t pad_[3];
    vx_contact_wide_friction_row friction_rows; /* the lanes' manifold friction */
    vx_contact_wide_point points[]; /* max_count of them (room for as many as the load will need) */
} vx_contact_wide_block;

/* Bytes of a block with room for `points` points (a multiple of 16). */
static inline size_t vx_contact_wide_block_size(uint32_t points)
{
    return sizeof(vx_contact_wide_block) + (size_t)points * sizeof(vx_contact_wide_point);
}

/* Fills w, which has room for the largest lane's points, from up to four
 * constraints: lanes[i] may be NULL (an empty lane,
 * which does nothing); rows[i] is lane i's first hot row (lanes[i]->first is
 * not used). Every lane's count must be <= VX_MANIFOLD_MAX_POINTS (asserted;
 * clamped without assertions). Points no lane has are not written. */
void vx_contact_wide_load(vx_contact_wide_block *w, const vx_contact_hot_constraint *const lanes[4],
                          const vx_contact_hot_row *const rows[4]);
/* The four lanes' friction (twist, then the tangents) then normal rows (forwards,
 * or backwards: each lane's points count-1 .. 0), once: exactly what
 * vx_contact_solver_solve_packed(lanes[0]) .. (lanes[3]) do in turn, to the
 * velocities and to the block's accumulated impulses. vel is indexed by body
 * slot (16-byte aligned). The velocities' pad lanes (v[3], w[3]) are left as
 * they are (the scalar code keeps a +0 pad too while impulses are finite). */
void vx_contact_wide_solve(vx_contact_wide_block *w, vx_contact_hot_velocity *vel, bool backwards,
                           float mass_scale, float impulse_scale);
/* vx_contact_wide_solve(w0) then (w1), the same bits, for two blocks that
 * share no body with inv_mass > 0 (solve_order.h's unit_apart): their
 * rows go point by point side by side, so that the processor overlaps the
 * two chains of dependent operations (a block's rows wait for each other:
 * its lanes' velocities pass through every row). */
void vx_contact_wide_solve_two(vx_contact_wide_block *w0, vx_contact_wide_block *w1, vx_contact_hot_velocity *vel,
                               bool backwards, float mass_scale, float impulse_scale);
/* The accumulated impulses back into the lanes' hot rows and constraints:
 * normal impulse of every point, friction impulses of the lanes with
 * friction (the others' are left untouched, as the scalar solve leaves
 * them). rows[i] and lanes[i] may be NULL for an empty lane. */
void vx_contact_wide_store_impulses(const vx_contact_wide_block *w, vx_contact_hot_row *const rows[4],
                                    vx_contact_hot_constraint *const lanes[4]);
/* The block's accumulated impulses applied to the lanes' bodies (the
 * substepped solve's warm start, in its formula: the point's normal and
 * friction impulses summed, then applied once). */
void vx_contact_wide_warm_start(const vx_contact_wide_block *w, vx_contact_hot_velocity *vel);
/* Every accumulated impulse of the block set to 0 (warm starting off). */
void vx_contact_wide_clear_impulses(vx_contact_wide_block *w);
/* Inline: the substepped solve calls them for every point of every
 * substep. */
static inline bool vx_contact_wide_solves(const vx_contact_wide_block *w, int lane, int point)
{
    return lane >= 0 && lane < 4 && point >= 0 && (uint32_t)point < w->count[lane];
}

/* A point's target: bias in m/s (the normal velocity enforced at least) and
 * soft (the row's pad != 0: scaled by mass_scale, relaxed by
 * impulse_scale). Points the lane does not solve are ignored. */
static inline void vx_contact_wide_set_target(vx_contact_wide_block *w, int lane, int point, float bias, bool soft)
{
    if (!vx_contact_wide_solves(w, lane, point)) return;
    w->points[point].normal.bias[lane] = bias;
    w->points[point].normal.soft[lane] = soft ? 0xffffffffu : 0u;
}

/* The block's accumulated impulses of a point the lane solves (0 for other
 * points, and tangent impulses of a lane without friction). */
static inline float vx_contact_wide_normal_impulse(const vx_contact_wide_block *w, int lane, int point)
{
    return vx_contact_wide_solves(w, lane, point) ? w->points[point].normal.normal_impulse[lane] : 0.0f;
}

/* The lane's accumulated friction impulse along tangent 0 or 1 (0 for a lane
 * without friction). */
static inline float vx_contact_wide_tangent_impulse(const vx_contact_wide_block *w, int lane, int tangent)
{
    if (lane < 0 || lane > 3 || !(w->has_friction & (1u << lane)) || tangent < 0 || tangent > 1) return 0.0f;
    return w->friction_rows.tangent_impulse[tangent][lane];
}

#endif
