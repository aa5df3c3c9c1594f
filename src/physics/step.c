/* The fixed step in the design spec's stages, per substep:
 * integrate -> detect collisions -> resolve, and the step's contact report. */
#include "voltex/physics.h"

void vx_physics_scratch_init(vx_physics_scratch *s) { vx_contact_list_init(&s->substep_contacts); }

void vx_physics_scratch_free(vx_physics_scratch *s) { vx_contact_list_free(&s->substep_contacts); }

static int compare_u32(uint32_t a, uint32_t b) { return (a > b) - (a < b); }

/* The identity of a contact point within a step, ordered as
 * vx_contact_list_sort orders its leading keys. */
static int compare_key(const vx_contact *a, const vx_contact *b)
{
    int c = compare_u32(a->entity_a.index, b->entity_a.index);
    if (c == 0) c = compare_u32(a->entity_b.index, b->entity_b.index);
    if (c == 0) c = compare_u32(a->feature, b->feature);
    if (c == 0) c = compare_u32(a->entity_a.generation, b->entity_a.generation);
    if (c == 0) c = compare_u32(a->entity_b.generation, b->entity_b.generation);
    return c;
}

/* Index of the first of report->items[0..sorted) with c's key, or `sorted`. */
static size_t find_key(const vx_contact_list *report, size_t sorted, const vx_contact *c)
{
    size_t lo = 0, hi = sorted;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (compare_key(&report->items[mid], c) < 0)
            lo = mid + 1u;
        else
            hi = mid;
    }
    return (lo < sorted && compare_key(&report->items[lo], c) == 0) ? lo : sorted;
}

/* A point already reported by an earlier substep takes the newer geometry and
 * adds this substep's impulse; a new point is appended. report->items[0..count)
 * is sorted on entry (earlier substeps) and sorted again on exit. */
static vx_status merge_substep(vx_contact_list *report, const vx_contact_list *substep)
{
    size_t sorted = report->count;
    for (size_t i = 0; i < substep->count; i++) {
        const vx_contact *c = &substep->items[i];
        size_t at = find_key(report, sorted, c);
        if (at == sorted) {
            vx_status st = vx_contact_list_push(report, c);
            if (st != VX_OK) return st;
            continue;
        }
        vx_contact *r = &report->items[at];
        r->normal = c->normal;
        r->depth = c->depth;
        r->point_on_a = c->point_on_a;
        r->point_on_b = c->point_on_b;
        r->sensor = c->sensor;
        r->impulse += c->impulse;
    }
    vx_contact_list_sort(report);
    return VX_OK;
}

vx_status vx_physics_step(vx_world *world, const vx_physics_config *config, vx_physics_scratch *scratch,
                          vx_contact_list *report)
{
    vx_contact_list_clear(report);
    if (config->substeps < 1) return VX_ERR_INVALID;
    float dt = config->fixed_dt / (float)config->substeps; /* exactly fixed_dt for one substep */
    for (int s = 0; s < config->substeps; s++) {
        vx_integrate(world, config, dt);
        vx_status st = vx_detect_collisions(world, &scratch->substep_contacts);
        if (st != VX_OK) return st;
        vx_resolve_collisions(world, &scratch->substep_contacts, config);
        st = merge_substep(report, &scratch->substep_contacts);
        if (st != VX_OK) return st;
    }
    return VX_OK;
}
