/* What a solved substep leaves behind: the warm-start cache for the next
 * one, and the contact points of the step report. See contact_solver.h. */
#include "physics/contact_solver.h"

#include <string.h>

vx_status vx_contact_solver_store(const vx_contact_solver *s, const vx_solver_bodies *bodies, vx_contact_cache *cache)
{
    vx_contact_cache_begin(cache);
    for (size_t i = 0; i < s->count; i++) {
        const vx_contact_constraint *c = &s->constraints[i];
        if (!c->solve) continue;
        vx_entity ea = bodies->info[c->a].entity;
        vx_entity eb = bodies->info[c->b].entity;
        for (int k = 0; k < c->count; k++) {
            const vx_contact_row *r = &s->rows[c->first + (uint32_t)k];
            const vx_contact_anchor *an = &s->anchors[c->first + (uint32_t)k];
            vx_contact_cache_entry e;
            memset(&e, 0, sizeof e);
            e.a_index = ea.index;
            e.b_index = eb.index;
            e.feature = an->feature;
            e.a_generation = ea.generation;
            e.b_generation = eb.generation;
            e.local_a = an->local_a;
            /* A bounce is a one-off: warm starting it would push the
             * separating bodies again next substep. */
            if (!an->bounced) {
                e.normal_impulse = r->normal_impulse;
                e.friction_impulse = vx_vec3_add(vx_vec3_scale(c->t1, r->tangent_impulse[0]),
                                                 vx_vec3_scale(c->t2, r->tangent_impulse[1]));
            }
            /* The speculative point held a fast approach at the surface:
             * the bounce is due once it touches. */
            if (an->may_pend && r->normal_impulse > 0.0f) {
                const vx_body_velocity *va = &bodies->velocity[c->a];
                const vx_body_velocity *vb = &bodies->velocity[c->b];
                e.pending_velocity = an->velocity;
                e.pending_after = vx_vec3_dot(vx_vec3_sub(vb->v, va->v), c->n) + vx_vec3_dot(vb->w, r->rb_n) -
                                  vx_vec3_dot(va->w, r->ra_n);
            }
            vx_status st = vx_contact_cache_append(cache, &e);
            if (st != VX_OK) return st;
        }
    }
    vx_contact_cache_commit(cache);
    return VX_OK;
}

static vx_vec3 to_world(const vx_body_pose *p, vx_vec3 local) { return vx_vec3_add(p->x, vx_quat_rotate(p->q, local)); }

vx_status vx_contact_solver_report(const vx_contact_solver *s, const vx_solver_bodies *bodies,
                                   vx_contact_list *report)
{
    for (size_t i = 0; i < s->count; i++) {
        const vx_contact_constraint *c = &s->constraints[i];
        const vx_body_pose *pa = &bodies->pose[c->a];
        const vx_body_pose *pb = &bodies->pose[c->b];
        for (int k = 0; k < c->count; k++) {
            const vx_contact_anchor *an = &s->anchors[c->first + (uint32_t)k];
            float impulse = c->solve ? s->rows[c->first + (uint32_t)k].normal_impulse : 0.0f;
            vx_vec3 wa = to_world(pa, an->local_a);
            vx_vec3 wb = to_world(pb, an->local_b);
            float depth = vx_vec3_dot(vx_vec3_sub(wa, wb), c->n);
            if (!(depth > 0.0f) && !(impulse > 0.0f)) continue;
            vx_contact out;
            memset(&out, 0, sizeof out); /* padding too: reports are compared and written */
            out.entity_a = bodies->info[c->a].entity;
            out.entity_b = bodies->info[c->b].entity;
            out.normal = c->n;
            out.depth = depth;
            out.point_on_a = wa;
            out.point_on_b = wb;
            out.feature = an->feature;
            out.impulse = impulse;
            out.sensor = c->sensor;
            vx_status st = vx_contact_list_push(report, &out);
            if (st != VX_OK) return st;
        }
    }
    return VX_OK;
}
