/* Validation of meshes and heightfields (scenes/shapes/) against mechanics
 * and geometry: a box sliding over a floor of 20 x 20 quads (800
 * triangles) decelerates at mu g within 1 %, never rises or sinks faster
 * than 1 mm/s, does not spin, and moves as the same box on one box does; a
 * ball rolls down a heightfield sampling a 15 degree plane at (5/7) g sin
 * 15 within 2 %, without slipping; rays and sphere casts at the
 * heightfield and a pyramid mesh, from above and below, hit where the
 * closed forms say; a ball at 200 m/s, a spinning plate at 60 m/s and a
 * spinning capsule at 120 m/s, thrown at a wall of two triangles from
 * either side, stop at it. */
#include <criterion/criterion.h>

#include "test_validation.h"
#include "voltex/query.h"

TestSuite(validation, .fini = vx_validation_fini);

#define G 9.81
#define DEG15 (15.0 * 3.14159265358979323846 / 180.0)

Test(validation, a_box_slides_over_800_triangles_as_over_one_box)
{
    vx_validation *v = vx_validation_open("shapes/mesh_slide");
    size_t floor = vx_validation_entity(v, "floor"), box = vx_validation_entity(v, "box");
    size_t twin = vx_validation_entity(v, "box_on_slab");
    cr_assert_eq(vx_mesh_get_info(vx_validation_collider(v, floor)->mesh).triangle_count, 800u);
    const double dt = (double)vx_world_get_def(v->scene.world)->fixed_dt;
    const double mu = 0.5, v0 = 5.0;
    double speed_at_5 = 0.0, speed_at_45 = 0.0, max_vy = 0.0, max_w = 0.0;
    for (int step = 1; step <= 90; step++) {
        vx_validation_step(v);
        const vx_body_state *s = &v->now[box];
        double speed = hypot((double)s->v.x, (double)s->v.z);
        if (step == 5) speed_at_5 = speed;
        if (step == 45) speed_at_45 = speed;
        max_vy = fmax(max_vy, fabs((double)s->v.y));
        max_w = fmax(max_w, (double)vx_vec3_length(s->w));
        /* the same box over one box, 30 m away along Z */
        vx_vec3 there = vx_vec3_sub(v->now[twin].p, vx_vec3_make(0.0f, 0.0f, 30.0f));
        cr_assert_lt(vx_validation_distance(s->p, there), 1e-4, "step %d: %g m from the box over one box", step,
                     vx_validation_distance(s->p, there));
        /* one manifold of 4 points, along +Y, while it slides */
        int points = 0;
        for (size_t k = 0; k < v->report->count; k++) {
            const vx_contact *c = &v->report->items[k];
            if (c->entity_b.index != (uint32_t)box) continue;
            points++;
            cr_assert_gt(c->normal.y, 0.999999f, "step %d: normal %g %g %g", step, (double)c->normal.x,
                         (double)c->normal.y, (double)c->normal.z);
        }
        if (speed > 0.1) cr_assert_eq(points, 4, "step %d: %d points", step, points);
    }
    double decel = (speed_at_5 - speed_at_45) / (40.0 * dt);
    cr_log_info("mesh_slide: deceleration %.5f m/s^2 (mu g %.5f), max |vy| %.2e m/s, max |w| %.2e rad/s", decel,
                mu * G, max_vy, max_w);
    cr_assert_lt(fabs(decel - mu * G), 0.01 * mu * G, "deceleration %g, mu g %g", decel, mu * G);
    cr_assert_lt(max_vy, 1e-3, "vertical speed %g m/s", max_vy);
    cr_assert_lt(max_w, 1e-3, "spins at %g rad/s", max_w);
    /* it stopped where the fixed step puts a box braked at mu g: v0^2 / (2 mu g) less half a step's travel */
    double travelled = (double)v->now[box].p.x - (double)v->start[box].p.x;
    cr_assert_lt(fabs(travelled - (v0 * v0 / (2.0 * mu * G) - 0.5 * v0 * dt)), 0.01, "slid %g m", travelled);
}

Test(validation, a_ball_rolls_down_a_heightfield_at_five_sevenths_g_sin)
{
    vx_validation *v = vx_validation_open("shapes/heightfield_roll");
    size_t ball = vx_validation_entity(v, "ball");
    const double dt = (double)vx_world_get_def(v->scene.world)->fixed_dt;
    const double r = (double)vx_validation_collider(v, ball)->radius;
    double speed_at_30 = 0.0, speed_at_120 = 0.0;
    for (int step = 1; step <= 120; step++) {
        vx_validation_step(v);
        const vx_body_state *s = &v->now[ball];
        double speed = (double)vx_vec3_length(s->v);
        if (step == 30) speed_at_30 = speed;
        if (step == 120) speed_at_120 = speed;
        /* on the plane y = -tan(15) x: the centre r above it */
        double height = ((double)s->p.y + tan(DEG15) * (double)s->p.x) * cos(DEG15);
        cr_assert_lt(fabs(height - r), 1e-3, "step %d: centre %g m over the plane", step, height);
        /* rolling: the point touching the plane is at rest */
        if (step > 5) cr_assert_lt(fabs((double)vx_vec3_length(s->w) * r - speed), 1e-3 * (1.0 + speed));
    }
    double a = (speed_at_120 - speed_at_30) / (90.0 * dt), want = 5.0 / 7.0 * G * sin(DEG15);
    cr_log_info("heightfield_roll: acceleration %.5f m/s^2, (5/7) g sin 15 = %.5f", a, want);
    cr_assert_lt(fabs(a - want), 0.02 * want, "acceleration %g, (5/7) g sin 15 = %g", a, want);
}

/* The scene's query called name, run on the world as loaded. */
static bool take_hit(const vx_query_hit *hit, void *context)
{
    *(vx_query_hit *)context = *hit;
    return false;
}

static vx_query_hit probe(vx_validation *v, const char *name)
{
    for (size_t i = 0; i < v->scene.query_count; i++) {
        if (strcmp(v->scene.query_names[i], name) != 0) continue;
        vx_query_hit hit;
        memset(&hit, 0, sizeof hit);
        hit.entity = VX_ENTITY_NULL;
        vx_error err;
        cr_assert_eq(vx_world_query(v->scene.world, &v->scene.queries[i], take_hit, &hit, &err), VX_OK, "%s",
                     err.message);
        cr_assert(!vx_entity_equal(hit.entity, VX_ENTITY_NULL), "%s: no hit", name);
        return hit;
    }
    cr_assert_fail("no query %s", name);
    vx_query_hit none;
    memset(&none, 0, sizeof none);
    return none;
}

static void assert_hit(vx_query_hit h, double distance, double px, double py, double pz, double nx, double ny,
                       double nz)
{
    const double eps = 2e-6 * (1.0 + distance);
    cr_assert_lt(fabs((double)h.distance - distance), eps, "distance %.9g, closed form %.9g", (double)h.distance,
                 distance);
    cr_assert_lt(fabs((double)h.point.x - px) + fabs((double)h.point.y - py) + fabs((double)h.point.z - pz), 3 * eps,
                 "point %g %g %g, closed form %g %g %g", (double)h.point.x, (double)h.point.y, (double)h.point.z, px,
                 py, pz);
    cr_assert_lt(fabs((double)h.normal.x - nx) + fabs((double)h.normal.y - ny) + fabs((double)h.normal.z - nz), 1e-6,
                 "normal %g %g %g, closed form %g %g %g", (double)h.normal.x, (double)h.normal.y, (double)h.normal.z,
                 nx, ny, nz);
}

Test(validation, rays_and_sphere_casts_at_meshes_meet_the_closed_forms)
{
    vx_validation *v = vx_validation_open("shapes/mesh_probes");
    const double t15 = tan(DEG15), s15 = sin(DEG15), c15 = cos(DEG15);
    /* the slope y = -tan(15) x, normal (sin 15, cos 15, 0), from above and from below */
    assert_hit(probe(v, "down"), 10.0 + 5.0 * t15, 5.0, -5.0 * t15, 2.5, s15, c15, 0.0);
    assert_hit(probe(v, "up_from_below"), 10.0 - 5.0 * t15, 5.0, -5.0 * t15, 2.5, -s15, -c15, 0.0);
    double d[3] = {1.0, -2.0, 0.5}, len = sqrt(5.25);
    double t = -(4.0 + 3.0 * t15) / ((d[1] + t15 * d[0]) / len);
    assert_hit(probe(v, "slanted"), t, 3.0 + t * d[0] / len, 4.0 + t * d[1] / len, 1.0 + t * d[2] / len, s15, c15,
               0.0);
    /* a ball of 0.5 m straight down: its centre 0.5 m from the plane, the
     * point under it along the normal */
    double above = 5.0 + 8.0 * t15, tb = above - 0.5 / c15;
    assert_hit(probe(v, "ball"), tb, 8.0 - 0.5 * s15, 5.0 - tb - 0.5 * c15, 2.5, s15, c15, 0.0);
    /* the pyramid's +X face x + y = 32 (the roof at x = 30), and its apex (31, 1, 1) */
    double h = sqrt(0.5);
    assert_hit(probe(v, "roof_side"), 2.5, 31.5, 0.5, 1.0, h, h, 0.0);
    assert_hit(probe(v, "roof_ball"), 3.75, 31.0, 1.0, 1.0, 0.0, 1.0, 0.0);
}

/* How far the shape of entity i reaches along -d beyond the plane x = 0
 * (d = +1: towards +X), m: the deepest point past the wall. */
static double past_the_wall(const vx_validation *v, size_t i, double d)
{
    const vx_collider *c = vx_validation_collider(v, i);
    const vx_body_state *s = &v->now[i];
    double reach = 0.0;
    if (c->type == VX_SHAPE_SPHERE) reach = c->radius;
    if (c->type == VX_SHAPE_CAPSULE) {
        vx_vec3 axis = vx_quat_rotate(s->q, vx_vec3_make(0, 1, 0));
        reach = fabs((double)axis.x) * c->half_height + c->radius;
    }
    if (c->type == VX_SHAPE_BOX) {
        for (int k = 0; k < 3; k++) {
            vx_vec3 e = vx_vec3_zero();
            vx_vec3_set(&e, k, 1.0f);
            reach += fabs((double)vx_quat_rotate(s->q, e).x) * (double)vx_vec3_get(c->half_extents, k);
        }
    }
    return d * (double)s->p.x + reach;
}

Test(validation, fast_bodies_stop_at_a_wall_of_two_triangles_from_either_side)
{
    vx_validation *v = vx_validation_open("shapes/mesh_tunnel");
    const char *names[3] = {"ball", "pill", "plate"};
    const double towards[3] = {1.0, 1.0, -1.0}; /* the plate comes from +X */
    double closest[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int step = 1; step <= 60; step++) {
        vx_validation_step(v);
        for (int k = 0; k < 3; k++) {
            size_t i = vx_validation_entity(v, names[k]);
            double past = past_the_wall(v, i, towards[k]);
            cr_assert_lt(past, 0.01, "step %d: %s %g m past the wall", step, names[k], past);
            closest[k] = fmax(closest[k], past);
        }
    }
    for (int k = 0; k < 3; k++) {
        size_t i = vx_validation_entity(v, names[k]);
        cr_assert_lt(towards[k] * (double)v->now[i].p.x, 0.0, "%s ends on its own side", names[k]);
        cr_assert_gt(closest[k], -0.01, "%s came no nearer than %g m to the wall", names[k], -closest[k]);
    }
}
