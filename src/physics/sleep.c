/* Islands and sleeping. See sleep.h. */
#include "physics/sleep.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/assert.h"
#include "common/union_find.h"
#include "physics/collision/narrow_phase.h"
#include "physics/contact_key.h"

void vx_sleep_init(vx_sleep_state *s)
{
    memset(s, 0, sizeof *s);
    vx_contact_list_init(&s->last_report);
    vx_contact_list_init(&s->merged);
}

void vx_sleep_free(vx_sleep_state *s)
{
    free(s->records);
    free(s->parent);
    free(s->island_time);
    free(s->island_tail);
    vx_contact_cache_stash_free(&s->stash);
    vx_contact_list_free(&s->last_report);
    vx_contact_list_free(&s->merged);
    vx_sleep_init(s);
}

static vx_status reserve_records(vx_sleep_state *s, uint32_t index)
{
    vx_status st = VX_OK;
    VX_RESERVE_INDEX(st, s->records, s->record_capacity, index, 64u);
    return st;
}

static vx_status reserve_slots(vx_sleep_state *s, size_t n)
{
    if (n <= s->slot_capacity) return VX_OK;
    size_t cap;
    vx_status st = vx_grow_capacity(s->slot_capacity, n, 64u, sizeof(float), &cap);
    VX_GROW_ARRAY(st, s->parent, cap);
    VX_GROW_ARRAY(st, s->island_time, cap);
    VX_GROW_ARRAY(st, s->island_tail, cap);
    if (st == VX_OK) s->slot_capacity = cap;
    return st;
}

static void reset_record(vx_sleep_record *r)
{
    memset(r, 0, sizeof *r);
    r->island = VX_SLEEP_NONE;
    r->next = VX_SLEEP_NONE;
}

/* The body slot of (index, generation) in this step, if it was gathered. */
static bool slot_of(const vx_sleep_state *s, uint32_t index, uint32_t generation, uint32_t *slot)
{
    if (index >= s->record_capacity) return false;
    const vx_sleep_record *r = &s->records[index];
    if (r->seen != s->step || r->generation != generation) return false;
    *slot = r->slot;
    return true;
}

static bool is_moving_kinematic(const vx_body_set *bodies, size_t i)
{
    const vx_body_velocity *v = &bodies->velocity[i];
    return bodies->info[i].motion == VX_MOTION_KINEMATIC &&
           (v->v.x != 0.0f || v->v.y != 0.0f || v->v.z != 0.0f || v->w.x != 0.0f || v->w.y != 0.0f ||
            v->w.z != 0.0f);
}

/* Awake and dynamic, or kinematic and moving: a body that can wake others. */
static bool is_active(const vx_body_set *bodies, size_t i)
{
    const vx_body_info *info = &bodies->info[i];
    if (info->motion == VX_MOTION_DYNAMIC) return !info->asleep;
    return is_moving_kinematic(bodies, i);
}

/* A pair nobody collides while it sleeps. */
static bool is_frozen(const vx_body_set *bodies, uint32_t a, uint32_t b)
{
    return (bodies->info[a].asleep || bodies->info[b].asleep) && !is_active(bodies, a) && !is_active(bodies, b);
}

/* Wakes the island of the sleeping entity index. bodies NULL: records only
 * (the step copies the flags into the bodies afterwards); otherwise the
 * bodies gathered this step wake too, catching up with a substep of h when
 * h > 0 (a wake between substeps only clears their flags). */
static void wake_island(vx_sleep_state *s, vx_body_set *bodies, uint32_t index, float h)
{
    uint32_t e = s->records[index].island;
    while (e != VX_SLEEP_NONE) {
        vx_sleep_record *r = &s->records[e];
        uint32_t next = r->next;
        r->asleep = false;
        r->island = VX_SLEEP_NONE;
        r->next = VX_SLEEP_NONE;
        s->asleep_count--;
        if (bodies && r->seen == s->step) {
            if (h > 0.0f)
                vx_body_set_wake(bodies, r->slot, h);
            else
                bodies->info[r->slot].asleep = false;
        }
        e = next;
    }
}

static void wake_all(vx_sleep_state *s, vx_body_set *bodies)
{
    for (uint32_t i = 0; i < s->record_capacity && s->asleep_count > 0; i++)
        if (s->records[i].asleep) wake_island(s, bodies, i, 0.0f);
}

void vx_sleep_wake_all(vx_sleep_state *s, vx_body_set *bodies) { wake_all(s, bodies); }

static bool is_zero(vx_vec3 v) { return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f; }

/* What the world holds of a sleeping body is what it fell asleep with. */
static bool unchanged_from_outside(const vx_sleep_record *r, const vx_body_set *bodies, size_t i)
{
    const vx_body_info *info = &bodies->info[i];
    return info->motion == VX_MOTION_DYNAMIC && info->rigidbody->can_sleep &&
           vx_body_pose_equal(&r->pose, &bodies->pose[i]) && is_zero(bodies->velocity[i].v) &&
           is_zero(bodies->velocity[i].w) && is_zero(info->rigidbody->angular_velocity);
}

vx_status vx_sleep_begin_step(vx_sleep_state *s, vx_body_set *bodies, const vx_world_def *config)
{
    uint32_t now = ++s->step;
    if (now == 0u) now = ++s->step; /* seen == 0 means never */
    if (!config->sleeping) {
        wake_all(s, NULL); /* the bodies' flags are false from the gather */
        return VX_OK;
    }
    for (size_t i = 0; i < bodies->count; i++) {
        vx_entity e = bodies->info[i].entity;
        vx_status st = reserve_records(s, e.index);
        if (st != VX_OK) return st;
        vx_sleep_record *r = &s->records[e.index];
        /* A new entity under this index, or one not gathered in the last
         * step (sleeping was off, or it had left): it starts afresh. */
        if (r->seen == 0u || r->generation != e.generation || r->seen + 1u != now) {
            if (r->asleep) wake_island(s, NULL, e.index, 0.0f); /* the old entity is gone */
            reset_record(r);
        }
        r->generation = e.generation;
        r->seen = now;
        r->slot = (uint32_t)i;
    }
    if (s->asleep_count > 0) {
        /* Sleeping entities no longer gathered (removed, or lost their
         * components): their islands lose a body. */
        for (uint32_t index = 0; index < s->record_capacity; index++)
            if (s->records[index].asleep && s->records[index].seen != now) wake_island(s, NULL, index, 0.0f);
        for (size_t i = 0; i < bodies->count; i++) {
            uint32_t index = bodies->info[i].entity.index;
            const vx_sleep_record *r = &s->records[index];
            if (r->asleep && !unchanged_from_outside(r, bodies, i)) wake_island(s, NULL, index, 0.0f);
        }
    }
    for (size_t i = 0; i < bodies->count; i++) bodies->info[i].asleep = s->records[bodies->info[i].entity.index].asleep;
    return VX_OK;
}

void vx_sleep_wake_touched(vx_sleep_state *s, vx_body_set *bodies, vx_broadphase_pair_list *pairs,
                           float speculative_distance, float h)
{
    if (s->asleep_count == 0) return;
    bool woke;
    do {
        woke = false;
        for (size_t p = 0; p < pairs->count && s->asleep_count > 0; p++) {
            uint32_t a = pairs->items[p].a, b = pairs->items[p].b;
            const vx_body_info *ia = &bodies->info[a], *ib = &bodies->info[b];
            if (ia->asleep == ib->asleep || ia->collider.sensor || ib->collider.sensor) continue;
            uint32_t sleeper = ia->asleep ? a : b;
            if (!is_active(bodies, ia->asleep ? b : a)) continue;
            vx_pair_manifold m;
            if (!vx_narrow_phase_pair(bodies, a, b, speculative_distance, h, &m)) continue;
            wake_island(s, bodies, bodies->info[sleeper].entity.index, h);
            woke = true;
        }
    } while (woke && s->asleep_count > 0);

    /* Frozen pairs leave the list. A pair of a sleeping body and a moving one
     * stays: it has no contact now (else it would have woken the island) but
     * the later stages still see it (a sensor reports it; the sweep of a fast
     * body stops at the sleeping one, ccd.h). */
    size_t kept = 0;
    for (size_t p = 0; p < pairs->count; p++)
        if (!is_frozen(bodies, pairs->items[p].a, pairs->items[p].b)) pairs->items[kept++] = pairs->items[p];
    pairs->count = kept;
}

/* Whether a pair of entities is frozen, remembered for the next question:
 * the points of a pair come one after another, in the cache and in the
 * report. */
typedef struct {
    const vx_sleep_state *sleep;
    const vx_body_set *bodies;
    uint32_t a_index, a_generation, b_index, b_generation;
    bool known;
    bool frozen;
} frozen_memo;

static frozen_memo frozen_memo_make(const vx_sleep_state *s, const vx_body_set *bodies)
{
    frozen_memo m;
    memset(&m, 0, sizeof m);
    m.sleep = s;
    m.bodies = bodies;
    return m;
}

static bool pair_is_frozen(frozen_memo *m, uint32_t a_index, uint32_t a_generation, uint32_t b_index,
                           uint32_t b_generation)
{
    if (m->known && m->a_index == a_index && m->b_index == b_index && m->a_generation == a_generation &&
        m->b_generation == b_generation)
        return m->frozen;
    uint32_t a, b;
    m->known = true;
    m->a_index = a_index;
    m->a_generation = a_generation;
    m->b_index = b_index;
    m->b_generation = b_generation;
    m->frozen = slot_of(m->sleep, a_index, a_generation, &a) && slot_of(m->sleep, b_index, b_generation, &b) &&
                is_frozen(m->bodies, a, b);
    return m->frozen;
}

static bool entry_is_frozen(const vx_contact_cache_entry *e, void *context)
{
    return pair_is_frozen(context, e->a_index, e->a_generation, e->b_index, e->b_generation);
}

vx_status vx_sleep_stash_cache(vx_sleep_state *s, const vx_body_set *bodies, vx_contact_cache *cache)
{
    s->stash.count = 0;
    if (s->asleep_count == 0) return VX_OK;
    frozen_memo m = frozen_memo_make(s, bodies);
    return vx_contact_cache_take(cache, entry_is_frozen, &m, &s->stash);
}

vx_status vx_sleep_unstash_cache(vx_sleep_state *s, vx_contact_cache *cache)
{
    vx_status st = vx_contact_cache_put_back(cache, &s->stash);
    s->stash.count = 0;
    return st;
}

/* ---- the report ---- */

static bool row_is_frozen(frozen_memo *m, const vx_contact *c)
{
    return pair_is_frozen(m, c->entity_a.index, c->entity_a.generation, c->entity_b.index, c->entity_b.generation);
}

/* report += the points kept from the last report whose pairs were frozen in
 * this step (not collided: a sleeping contact is reported as it was), in
 * order. */
static vx_status carry_frozen_points(vx_sleep_state *s, const vx_body_set *bodies, vx_contact_list *report)
{
    const vx_contact_list *kept = &s->last_report;
    frozen_memo m = frozen_memo_make(s, bodies);
    size_t carried = 0;
    for (size_t j = 0; j < kept->count; j++) carried += row_is_frozen(&m, &kept->items[j]) ? 1u : 0u;
    if (carried == 0) return VX_OK;
    vx_contact_list *out = &s->merged;
    vx_status st = vx_contact_list_reserve(out, report->count + carried);
    if (st == VX_OK) st = vx_contact_list_reserve(report, report->count + carried);
    if (st != VX_OK) return st;
    size_t i = 0, k = 0;
    for (size_t j = 0; j < kept->count; j++) {
        const vx_contact *c = &kept->items[j];
        if (!row_is_frozen(&m, c)) continue;
        while (i < report->count && vx_contact_compare_key(&report->items[i], c) < 0) out->items[k++] = report->items[i++];
        out->items[k++] = *c;
    }
    while (i < report->count) out->items[k++] = report->items[i++];
    memcpy(report->items, out->items, k * sizeof *out->items);
    report->count = k;
    return VX_OK;
}

/* After the islands: the points of pairs with a sleeping body are all that a
 * later step may carry. */
static vx_status keep_sleeping_points(vx_sleep_state *s, const vx_contact_list *report)
{
    vx_contact_list *kept = &s->last_report;
    kept->count = 0;
    if (s->asleep_count == 0) return VX_OK;
    vx_status st = vx_contact_list_reserve(kept, report->count);
    if (st != VX_OK) return st;
    for (size_t k = 0; k < report->count; k++) {
        const vx_contact *c = &report->items[k];
        uint32_t a, b;
        if (!slot_of(s, c->entity_a.index, c->entity_a.generation, &a) ||
            !slot_of(s, c->entity_b.index, c->entity_b.generation, &b))
            continue;
        if (s->records[c->entity_a.index].asleep || s->records[c->entity_b.index].asleep) kept->items[kept->count++] = *c;
    }
    return VX_OK;
}

/* ---- islands ---- */

static bool is_awake_dynamic(const vx_body_info *info) { return info->motion == VX_MOTION_DYNAMIC && !info->asleep; }

static void update_still_times(vx_sleep_state *s, const vx_body_set *bodies, float dt)
{
    const float lin2 = VX_SLEEP_LINEAR_SPEED * VX_SLEEP_LINEAR_SPEED;
    const float ang2 = VX_SLEEP_ANGULAR_SPEED * VX_SLEEP_ANGULAR_SPEED;
    for (size_t i = 0; i < bodies->count; i++) {
        const vx_body_info *info = &bodies->info[i];
        if (!is_awake_dynamic(info)) continue;
        vx_sleep_record *r = &s->records[info->entity.index];
        const vx_body_velocity *v = &bodies->velocity[i];
        bool still = info->rigidbody->can_sleep && vx_vec3_length_sq(v->v) < lin2 && vx_vec3_length_sq(v->w) < ang2;
        r->still_time = still ? r->still_time + dt : 0.0f;
    }
}

/* Islands of the touching points of report; a dynamic body pushed by a
 * moving kinematic one is not still. */
static void link_islands(vx_sleep_state *s, const vx_body_set *bodies, const vx_contact_list *report,
                         const vx_joint_link *links, size_t link_count)
{
    for (size_t i = 0; i < bodies->count; i++) s->parent[i] = (uint32_t)i;
    for (size_t k = 0; k < link_count; k++)
        if (is_awake_dynamic(&bodies->info[links[k].a]) && is_awake_dynamic(&bodies->info[links[k].b]))
            vx_union_find_join(s->parent, links[k].a, links[k].b);
    for (size_t k = 0; k < report->count; k++) {
        const vx_contact *c = &report->items[k];
        /* The points of a pair come together: one link per pair. */
        const vx_contact *before = k > 0 ? &report->items[k - 1] : NULL;
        if (before && !c->sensor && !before->sensor && c->entity_a.index == before->entity_a.index &&
            c->entity_b.index == before->entity_b.index && c->entity_a.generation == before->entity_a.generation &&
            c->entity_b.generation == before->entity_b.generation)
            continue;
        uint32_t a, b;
        if (c->sensor || !slot_of(s, c->entity_a.index, c->entity_a.generation, &a) ||
            !slot_of(s, c->entity_b.index, c->entity_b.generation, &b))
            continue;
        const vx_body_info *ia = &bodies->info[a], *ib = &bodies->info[b];
        bool da = is_awake_dynamic(ia), db = is_awake_dynamic(ib);
        if (da && db)
            vx_union_find_join(s->parent, a, b);
        else if (da && is_moving_kinematic(bodies, b))
            s->records[ia->entity.index].still_time = 0.0f;
        else if (db && is_moving_kinematic(bodies, a))
            s->records[ib->entity.index].still_time = 0.0f;
    }
}

static void fall_asleep(vx_sleep_state *s, vx_body_set *bodies)
{
    for (size_t i = 0; i < bodies->count; i++) {
        s->island_time[i] = FLT_MAX;
        s->island_tail[i] = VX_SLEEP_NONE;
    }
    for (size_t i = 0; i < bodies->count; i++) {
        if (!is_awake_dynamic(&bodies->info[i])) continue;
        uint32_t root = vx_union_find_root(s->parent, (uint32_t)i);
        float t = s->records[bodies->info[i].entity.index].still_time;
        if (t < s->island_time[root]) s->island_time[root] = t;
    }
    for (size_t i = 0; i < bodies->count; i++) {
        if (!is_awake_dynamic(&bodies->info[i])) continue;
        uint32_t root = vx_union_find_root(s->parent, (uint32_t)i);
        if (!(s->island_time[root] >= VX_SLEEP_TIME)) continue;
        VX_ASSERT(root < bodies->count && is_awake_dynamic(&bodies->info[root]));
        uint32_t index = bodies->info[i].entity.index;
        vx_sleep_record *r = &s->records[index];
        uint32_t tail = s->island_tail[root];
        r->island = tail == VX_SLEEP_NONE ? index : s->records[tail].island;
        if (tail != VX_SLEEP_NONE) s->records[tail].next = index;
        s->island_tail[root] = index;
        r->next = VX_SLEEP_NONE;
        r->asleep = true;
        r->pose = bodies->pose[i];
        /* Written back by this step's scatter (the body is awake in it). */
        bodies->velocity[i].v = vx_vec3_zero();
        bodies->velocity[i].w = vx_vec3_zero();
        s->asleep_count++;
    }
}

static size_t count_awake(const vx_sleep_state *s, const vx_body_set *bodies, bool sleeping)
{
    size_t n = 0;
    for (size_t i = 0; i < bodies->count; i++) {
        const vx_body_info *info = &bodies->info[i];
        if (info->motion != VX_MOTION_DYNAMIC) continue;
        if (!sleeping || !s->records[info->entity.index].asleep) n++;
    }
    return n;
}

void vx_sleep_wake_linked(vx_sleep_state *s, vx_body_set *bodies, const vx_joint_link *links, size_t link_count)
{
    bool woke = true;
    while (woke && s->asleep_count > 0) {
        woke = false;
        for (size_t k = 0; k < link_count; k++) {
            uint32_t a = links[k].a, b = links[k].b;
            if (bodies->info[a].asleep == bodies->info[b].asleep) continue;
            uint32_t sleeper = bodies->info[a].asleep ? a : b;
            if (!is_active(bodies, sleeper == a ? b : a)) continue;
            wake_island(s, bodies, bodies->info[sleeper].entity.index, 0.0f);
            woke = true;
        }
    }
}

vx_status vx_sleep_end_step(vx_sleep_state *s, vx_body_set *bodies, const vx_world_def *config,
                            vx_contact_list *report, const vx_joint_link *links, size_t link_count)
{
    if (!config->sleeping) {
        s->last_report.count = 0;
        s->awake_count = count_awake(s, bodies, false);
        return VX_OK;
    }
    vx_status st = carry_frozen_points(s, bodies, report);
    if (st == VX_OK) st = reserve_slots(s, bodies->count);
    if (st != VX_OK) return st;
    update_still_times(s, bodies, config->fixed_dt);
    link_islands(s, bodies, report, links, link_count);
    fall_asleep(s, bodies);
    s->awake_count = count_awake(s, bodies, true);
    return keep_sleeping_points(s, report);
}
