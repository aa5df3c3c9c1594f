/* The packed arrays of the contact solver (see contact_solver.h): the solve
 * order (contact_color.h), the constraints copied in that order into aligned
 * 4-float vectors (contact_velocity.c iterates over them, and over the rows
 * where prepare wrote them), the velocities copied there and back, and the
 * SIMD blocks of an order in lanes (contact_wide.h). */
#include "physics/contact_solver.h"

#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/parallel.h"
#include "physics/contact_wide.h"

/* The solve order: every solved constraint, coloured by the bodies the
 * solver moves (inv_mass > 0). */
static vx_status color_constraints(vx_contact_solver *s, size_t body_count, bool colored)
{
    vx_status st = vx_contact_colors_begin(&s->colors, s->count, body_count);
    if (st != VX_OK) return st;
    for (size_t i = 0; i < s->count; i++) {
        const vx_contact_constraint *c = &s->constraints[i];
        if (c->solve)
            vx_contact_colors_add(&s->colors, (uint32_t)i, c->a, c->inv_mass_a > 0.0f, c->b, c->inv_mass_b > 0.0f);
    }
    return vx_contact_colors_end(&s->colors, colored);
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
        const vx_contact_constraint *c = &s->constraints[s->colors.order[j]];
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
    vx_parallel_for(s->pool, s->colors.count, pack_range, &job);
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
    size_t units = s->colors.unit_count;
    vx_status st = VX_OK;
    VX_RESERVE(st, s->block_offset, s->block_offset_capacity, units + 1u, 64u);
    if (st != VX_OK) return st;
    /* each block sized for the largest manifold of its unit */
    size_t bytes = 0;
    for (size_t u = 0; u < units; u++) {
        s->block_offset[u] = bytes;
        if (vx_contact_solver_unit_single(s, u)) continue;
        uint32_t points = 0;
        for (size_t j = s->colors.unit_start[u]; j < s->colors.unit_start[u + 1u]; j++)
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
        size_t first = s->colors.unit_start[u], last = s->colors.unit_start[u + 1u];
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
        size_t first = s->colors.unit_start[u], last = s->colors.unit_start[u + 1u];
        for (size_t j = first; j < last; j++) rows[j - first] = &s->rows[s->hot[j].first];
        vx_contact_wide_store_impulses(vx_contact_solver_block(s, u), rows);
    }
}

static void store_blocks_range(void *arg, size_t begin, size_t end)
{
    vx_contact_solver_store_blocks(arg, begin, end);
}

void vx_contact_solver_store_all_blocks(vx_contact_solver *s)
{
    vx_parallel_for(s->pool, s->colors.unit_count, store_blocks_range, s);
}

