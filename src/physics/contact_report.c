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
#include "physics/contact_solver.h"
#include "common/parallel.h"

#include <string.h>

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
    for (int k = 0; k < c->count; k++) {
        const vx_contact_hot_row *r = &s->rows[c->first + (uint32_t)k];
        const vx_contact_anchor *an = &s->anchors[c->first + (uint32_t)k];
        vx_contact_cache_entry *e = &out[k];
        memset(e, 0, sizeof *e);
        e->a_index = ea.index;
        e->b_index = eb.index;
        e->feature = an->feature;
        e->a_generation = ea.generation;
        e->b_generation = eb.generation;
        e->local_a = an->local_a;
        /* A bounce is a one-off: warm starting it would push the
         * separating bodies again next substep. */
        if (!an->bounced) {
            e->normal_impulse = r->normal_impulse;
            e->friction_impulse = vx_vec3_add(vx_vec3_scale(c->t1, r->tangent_impulse[0]),
                                              vx_vec3_scale(c->t2, r->tangent_impulse[1]));
        }
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
            float impulse = c->solve ? s->rows[c->first + (uint32_t)k].normal_impulse : 0.0f;
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
