/* Continuous collision policy and the ghost check (ccd.h). When the sweep
 * finds a fast impact later in the substep, the manifold is replaced by the
 * one of the poses at impact, its points carried back to the current poses
 * (the dynamic body's point kept, the other's moved along n by the gap).
 * See docs/simulation.md, "Continuous collision". */
#include "physics/collision/ccd.h"

#include <math.h>

#include "physics/body/compound.h"
#include "physics/body/shape.h"
#include "physics/collision/collide_mesh.h"
#include "physics/collision/collide_shapes.h"
#include "physics/collision/time_of_impact.h"

static bool is_dynamic(const vx_body_info *info) { return info->motion == VX_MOTION_DYNAMIC; }

/* m/s: how fast the pair's surfaces can approach: |vA - vB| + |wA| RA +
 * |wB| RB (a sphere's spin moves no surface: R = 0 skips the term). */
static inline float closing_speed(const vx_body_set *bodies, uint32_t a, uint32_t b)
{
    const vx_body_velocity *va = &bodies->velocity[a];
    const vx_body_velocity *vb = &bodies->velocity[b];
    float ra = bodies->info[a].sweep_radius, rb = bodies->info[b].sweep_radius;
    float c = vx_vec3_length(vx_vec3_sub(va->v, vb->v));
    if (ra > 0.0f) c += vx_vec3_length(va->w) * ra;
    if (rb > 0.0f) c += vx_vec3_length(vb->w) * rb;
    return c;
}

static float sanitize_distance(float d) { return d > 0.0f ? d : 0.0f; }

float vx_ccd_pair_margin(const vx_body_set *bodies, uint32_t a, uint32_t b, float speculative_distance,
                         float h)
{
    const vx_body_info *ia = &bodies->info[a];
    const vx_body_info *ib = &bodies->info[b];
    float ahead = h * closing_speed(bodies, a, b);
    if (is_dynamic(ia) && is_dynamic(ib)) {
        /* not continuous unless a bullet, which is looked up only when
         * the cap binds (the rigid body is a pointer chase away) */
        float cap = vx_shape_inner_radius(&ia->collider) + vx_shape_inner_radius(&ib->collider);
        if (ahead > cap && !vx_ccd_is_bullet(ia) && !vx_ccd_is_bullet(ib)) ahead = cap;
    }
    return sanitize_distance(speculative_distance) + ahead;
}

/* Relative normal velocity (B - A) at a point, as the contact solver
 * measures it: both bodies at the middle of the two surface points. */
static float normal_velocity(const vx_body_set *bodies, uint32_t a, uint32_t b, vx_vec3 n,
                             const vx_manifold_point *p)
{
    const vx_body_velocity *va = &bodies->velocity[a];
    const vx_body_velocity *vb = &bodies->velocity[b];
    vx_vec3 mid = vx_vec3_scale(vx_vec3_add(p->point_a, p->point_b), 0.5f);
    vx_vec3 at_a = vx_vec3_add(va->v, vx_vec3_cross(va->w, vx_vec3_sub(mid, bodies->pose[a].x)));
    vx_vec3 at_b = vx_vec3_add(vb->v, vx_vec3_cross(vb->w, vx_vec3_sub(mid, bodies->pose[b].x)));
    return vx_vec3_dot(vx_vec3_sub(at_b, at_a), n);
}

static vx_toi_body sweep_body(const vx_body_set *bodies, uint32_t i)
{
    vx_toi_body s;
    s.shape = &bodies->info[i].collider;
    s.x = bodies->pose[i].x;
    s.q = bodies->pose[i].q;
    s.v = bodies->velocity[i].v;
    s.w = bodies->velocity[i].w;
    s.sweep_radius = bodies->info[i].sweep_radius;
    s.inset = 0.0f;
    s.part = NULL;
    return s;
}

/* A point of body s at the pose of time t, carried back to time 0. */
static vx_vec3 carry_back(const vx_toi_body *s, const vx_transform *at_t, vx_vec3 p)
{
    vx_vec3 local = vx_quat_rotate(vx_quat_conjugate(at_t->rotation), vx_vec3_sub(p, at_t->position));
    return vx_vec3_add(s->x, vx_quat_rotate(s->q, local));
}

/* cos of 0.1 degrees: normals closer than that are the same. */
#define VX_CCD_SAME_NORMAL 0.9999985f

/* The same points (feature ids, in order) along the same normal. */
static bool same_features(const vx_manifold *now, const vx_manifold *impact)
{
    if (now->count != impact->count || vx_vec3_dot(now->normal, impact->normal) < VX_CCD_SAME_NORMAL) return false;
    for (int k = 0; k < now->count; k++)
        if (now->points[k].feature != impact->points[k].feature) return false;
    return true;
}

/* Replaces *m by the manifold at impact (time t) carried back to now, when
 * that is well defined (see the top of the file); else leaves it. */
static void use_impact_manifold(const vx_toi_body *sa, const vx_toi_body *sb, bool a_is_dynamic, float t,
                                float margin, vx_manifold *m)
{
    const vx_toi_body *other = a_is_dynamic ? sb : sa;
    if (vx_vec3_length_sq(other->w) > 0.0f) return;
    vx_transform ta = vx_toi_body_pose(sa, t);
    vx_transform tb = vx_toi_body_pose(sb, t);
    vx_manifold impact;
    if (!vx_collide_shapes(sa->shape, &ta, sb->shape, &tb, margin, &impact)) return;
    if (same_features(m, &impact)) return; /* today's features are the ones that meet */
    vx_vec3 n = impact.normal;
    for (int k = 0; k < impact.count; k++) {
        vx_manifold_point *p = &impact.points[k];
        vx_vec3 pa = carry_back(sa, &ta, p->point_a);
        vx_vec3 pb = carry_back(sb, &tb, p->point_b);
        float gap = vx_vec3_dot(vx_vec3_sub(pb, pa), n);
        if (gap < 0.0f - VX_CCD_TOUCH_DISTANCE) return; /* behind the plane already: keep today's */
        /* the other body's end: the dynamic one's moved along n by the gap */
        if (a_is_dynamic)
            pb = vx_vec3_add(pa, vx_vec3_scale(n, gap));
        else
            pa = vx_vec3_sub(pb, vx_vec3_scale(n, gap));
        p->point_a = pa;
        p->point_b = pb;
        p->depth = 0.0f - gap;
    }
    *m = impact;
}

bool vx_ccd_confirm(const vx_body_set *bodies, uint32_t a, uint32_t b, float speculative_distance, float h,
                    float margin, vx_manifold *m)
{
    const vx_body_info *ia = &bodies->info[a];
    const vx_body_info *ib = &bodies->info[b];
    if (ia->collider.sensor || ib->collider.sensor) return true;
    if (!is_dynamic(ia) && !is_dynamic(ib)) return true;

    bool pushes = false;
    for (int k = 0; k < m->count; k++) {
        const vx_manifold_point *p = &m->points[k];
        float gap = 0.0f - p->depth;
        if (gap <= VX_CCD_TOUCH_DISTANCE) return true; /* touching: a contact, no question */
        if (gap + normal_velocity(bodies, a, b, m->normal, p) * h < 0.0f) pushes = true;
    }
    if (!pushes) return true; /* harmless at these velocities: the solver leaves it alone */

    vx_toi_body sa = sweep_body(bodies, a);
    vx_toi_body sb = sweep_body(bodies, b);
    float t_hit = 0.0f;
    if (!vx_time_of_impact(&sa, &sb, h, VX_CCD_TOUCH_DISTANCE, &t_hit)) return false;
    bool fast = h * closing_speed(bodies, a, b) > sanitize_distance(speculative_distance);
    /* a mesh's manifolds are the triangles' merged, a compound's one per
     * pair of parts: kept as found */
    bool several = vx_collider_is_mesh(&ia->collider) || vx_collider_is_mesh(&ib->collider) ||
                   vx_collider_is_compound(&ia->collider) || vx_collider_is_compound(&ib->collider);
    if (t_hit > 0.0f && fast && is_dynamic(ia) != is_dynamic(ib) && !several)
        use_impact_manifold(&sa, &sb, is_dynamic(ia), t_hit, margin, m);
    return true;
}
