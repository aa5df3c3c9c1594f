/* A lidar (scenes/queries/lidar.json): 360 rays, one a degree, attached to
 * a kinematic turret turning at 1.5 rad/s off the centre of a room of four
 * walls (inner faces at x = +-5, z = +-4). Every written frame each ray's
 * range is the closed form: the turret's distance to the wall its world
 * direction meets first, min over the walls of (distance to the wall's
 * plane) / (the direction's component towards it). */
#include <criterion/criterion.h>

#include "test_validation.h"
#include "voltex/query.h"

TestSuite(validation, .fini = vx_validation_fini);

typedef struct {
    float distance;
    uint32_t entity;
    int count;
} nearest;

static bool keep(const vx_query_hit *hit, void *context)
{
    nearest *n = context;
    n->distance = hit->distance;
    n->entity = hit->entity.index;
    n->count++;
    return true;
}

/* From p along the unit horizontal d to the room's walls. */
static double room_range(vx_vec3 p, vx_vec3 d)
{
    double best = INFINITY;
    if (d.x > 1e-9f) best = fmin(best, (5.0 - (double)p.x) / (double)d.x);
    if (d.x < -1e-9f) best = fmin(best, (-5.0 - (double)p.x) / (double)d.x);
    if (d.z > 1e-9f) best = fmin(best, (4.0 - (double)p.z) / (double)d.z);
    if (d.z < -1e-9f) best = fmin(best, (-4.0 - (double)p.z) / (double)d.z);
    return best;
}

Test(validation, lidar_ranges_meet_the_rooms_closed_form_as_the_turret_turns)
{
    vx_validation *v = vx_validation_open("queries/lidar");
    size_t turret = vx_validation_entity(v, "turret");
    cr_assert_eq(v->scene.query_count, 360u);
    double worst = 0.0;
    for (int frame = 0; frame <= 240; frame++) {
        if (frame > 0) vx_validation_step(v);
        if (frame % 12 != 0) continue;
        const vx_body_state *s = &v->now[turret];
        /* turning about +y at 1.5 rad/s from the identity */
        double yaw = 2.0 * atan2((double)s->q.y, (double)s->q.w), want_yaw = 1.5 * vx_validation_time(v);
        cr_assert_lt(fabs(remainder(yaw - want_yaw, 2.0 * 3.14159265358979323846)), 1e-4, "frame %d: yaw %g", frame,
                     yaw);
        for (size_t q = 0; q < 360; q++) {
            const vx_query_def *def = &v->scene.queries[q];
            vx_vec3 d = vx_vec3_normalize(vx_quat_rotate(s->q, def->direction));
            nearest n = {0.0f, UINT32_MAX, 0};
            vx_error err;
            cr_assert_eq(vx_world_query(v->scene.world, def, keep, &n, &err), VX_OK, "%s", err.message);
            cr_assert_eq(n.count, 1, "frame %d ray %zu: %d hits", frame, q, n.count);
            cr_assert_neq(n.entity, v->scene.entities[turret].index, "the turret saw itself");
            double want = room_range(s->p, d);
            double err_rel = fabs((double)n.distance - want) / want;
            cr_assert_lt(err_rel, 1e-5, "frame %d ray %zu: %g m, expected %g m", frame, q, (double)n.distance, want);
            worst = fmax(worst, err_rel);
        }
    }
    cr_log_info("worst relative range error %.2g", worst);
}
