/* What a world answers about space (voltex/query.h): rays, sphere casts and
 * overlaps against a few bodies, the nearest by distance then entity index;
 * the filter; the tree follows the bodies as they move, come and go; a
 * query attached to a body turns with it; meshes and heightfields. The
 * comparison with a loop over every body of a crowd is
 * test_world_query_crowd.c. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "test_helpers.h"
#include "test_world_helpers.h"
#include "voltex/voltex.h"

static vx_world *make_world(void)
{
    vx_world_def def = vx_world_def_default();
    def.gravity = vx_vec3_zero();
    vx_world *w = vx_world_create(&def, NULL);
    cr_assert_not_null(w);
    return w;
}

static vx_query_hit closest_ray(vx_world *w, vx_vec3 o, vx_vec3 d, float max, const vx_query_filter *f)
{
    vx_query_hit hit;
    vx_error err;
    cr_assert_eq(vx_world_cast_ray_closest(w, o, d, max, f, &hit, &err), VX_OK, "%s", err.message);
    return hit;
}

/* ---- against the closed forms, a few bodies ---- */

Test(world_query, the_nearest_of_a_row_of_shapes)
{
    vx_world *w = make_world();
    vx_quat id = vx_quat_identity();
    vx_entity far = vx_test_add_placed(w, VX_BODY_STATIC, vx_vec3_make(10.0f, 0.0f, 0.0f), id,
                                       vx_collider_sphere(1.0f));
    vx_collider slab = vx_collider_box(vx_vec3_make(0.5f, 2.0f, 2.0f));
    vx_entity box = vx_test_add_placed(w, VX_BODY_STATIC, vx_vec3_make(5.0f, 0.0f, 0.0f), id, slab);
    vx_entity capsule = vx_test_add_placed(w, VX_BODY_DYNAMIC, vx_vec3_make(2.0f, 0.0f, 0.0f), id,
                                           vx_collider_capsule(0.25f, 1.0f));
    vx_query_hit h = closest_ray(w, vx_vec3_zero(), vx_vec3_make(2.0f, 0.0f, 0.0f), 100.0f, NULL);
    cr_assert(vx_entity_equal(h.entity, capsule));
    cr_assert_float_eq(h.distance, 1.75f, 1e-6);
    cr_assert_float_eq(h.point.x, 1.75f, 1e-6);
    cr_assert_float_eq(h.normal.x, -1.0f, 1e-6);
    /* ignoring the capsule: the box's face at x = 4.5 */
    vx_query_filter f = vx_query_filter_default();
    f.ignore = &capsule;
    f.ignore_count = 1;
    h = closest_ray(w, vx_vec3_zero(), vx_vec3_make(1.0f, 0.0f, 0.0f), 100.0f, &f);
    cr_assert(vx_entity_equal(h.entity, box));
    cr_assert_float_eq(h.distance, 4.5f, 1e-6);
    /* out of reach */
    h = closest_ray(w, vx_vec3_zero(), vx_vec3_make(1.0f, 0.0f, 0.0f), 1.7f, NULL);
    cr_assert(vx_entity_equal(h.entity, VX_ENTITY_NULL));
    /* all of them, by distance */
    (void)far;
    vx_world_destroy(w);
}

typedef struct {
    vx_query_hit hits[64];
    int count;
} hit_list;

static bool keep(const vx_query_hit *hit, void *context)
{
    hit_list *l = context;
    cr_assert_lt(l->count, 64);
    l->hits[l->count++] = *hit;
    return true;
}

Test(world_query, every_hit_by_distance_then_entity)
{
    vx_world *w = make_world();
    vx_quat id = vx_quat_identity();
    /* two spheres at the same distance (entities 0 and 1, added in that order), one nearer, one behind the origin */
    vx_entity a = vx_test_add_placed(w, VX_BODY_STATIC, vx_vec3_make(5.0f, 1.0f, 0.0f), id, vx_collider_sphere(1.5f));
    vx_entity b = vx_test_add_placed(w, VX_BODY_STATIC, vx_vec3_make(5.0f, -1.0f, 0.0f), id, vx_collider_sphere(1.5f));
    vx_entity c = vx_test_add_placed(w, VX_BODY_STATIC, vx_vec3_make(2.0f, 0.0f, 0.0f), id, vx_collider_sphere(0.5f));
    vx_test_add_placed(w, VX_BODY_STATIC, vx_vec3_make(-5.0f, 0.0f, 0.0f), id, vx_collider_sphere(1.0f));
    hit_list l = {.count = 0};
    cr_assert_eq(vx_world_cast_ray(w, vx_vec3_zero(), vx_vec3_make(1.0f, 0.0f, 0.0f), 100.0f, NULL, keep, &l, NULL),
                 VX_OK);
    cr_assert_eq(l.count, 3);
    cr_assert(vx_entity_equal(l.hits[0].entity, c));
    cr_assert(vx_entity_equal(l.hits[1].entity, a), "a tie goes to the lower entity index");
    cr_assert(vx_entity_equal(l.hits[2].entity, b));
    cr_assert(l.hits[1].distance == l.hits[2].distance, "the two spheres are met at the same distance");
    /* the closest of the tie is the lower index too */
    vx_query_filter f = vx_query_filter_default();
    f.skip = c;
    vx_query_hit h = closest_ray(w, vx_vec3_zero(), vx_vec3_make(1.0f, 0.0f, 0.0f), 100.0f, &f);
    cr_assert(vx_entity_equal(h.entity, a));
    vx_world_destroy(w);
}

Test(world_query, a_ray_from_inside_hits_at_once)
{
    vx_world *w = make_world();
    vx_entity e = vx_test_add_placed(w, VX_BODY_STATIC, vx_vec3_zero(), vx_quat_identity(),
                                     vx_collider_box(vx_vec3_make(1, 1, 1)));
    vx_query_hit h = closest_ray(w, vx_vec3_make(0.2f, 0.1f, 0.0f), vx_vec3_make(0.0f, 3.0f, 4.0f), 10.0f, NULL);
    cr_assert(vx_entity_equal(h.entity, e));
    cr_assert_eq(h.distance, 0.0f);
    cr_assert(h.point.x == 0.2f && h.point.y == 0.1f && h.point.z == 0.0f, "at the origin");
    cr_assert_float_eq(h.normal.y, -0.6f, 1e-6);
    cr_assert_float_eq(h.normal.z, -0.8f, 1e-6);
    vx_world_destroy(w);
}

Test(world_query, sensors_only_when_asked)
{
    vx_world *w = make_world();
    vx_collider trigger = vx_collider_sphere(1.0f);
    trigger.sensor = true;
    vx_entity e = vx_test_add_placed(w, VX_BODY_STATIC, vx_vec3_make(0.0f, 0.0f, 5.0f), vx_quat_identity(), trigger);
    vx_vec3 dir = vx_vec3_make(0.0f, 0.0f, 1.0f);
    cr_assert(vx_entity_equal(closest_ray(w, vx_vec3_zero(), dir, 50.0f, NULL).entity, VX_ENTITY_NULL));
    vx_query_filter f = vx_query_filter_default();
    f.sensors = true;
    cr_assert(vx_entity_equal(closest_ray(w, vx_vec3_zero(), dir, 50.0f, &f).entity, e));
    vx_world_destroy(w);
}

Test(world_query, bad_inputs_are_named)
{
    vx_world *w = make_world();
    vx_query_hit h;
    vx_error err;
    cr_assert_eq(vx_world_cast_ray_closest(w, vx_vec3_zero(), vx_vec3_zero(), 1.0f, NULL, &h, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "query: direction must be finite and not zero");
    cr_assert_eq(vx_world_cast_ray_closest(w, vx_vec3_zero(), vx_vec3_make(1, 0, 0), -1.0f, NULL, &h, &err),
                 VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "query: max_distance must be a positive number");
    cr_assert_eq(vx_world_cast_sphere_closest(w, vx_vec3_zero(), 0.0f, vx_vec3_make(1, 0, 0), 1.0f, NULL, &h, &err),
                 VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "query: radius must be a positive number");
    vx_collider flat = vx_collider_box(vx_vec3_make(1.0f, 0.0f, 1.0f));
    vx_transform pose = vx_transform_identity();
    cr_assert_eq(vx_world_overlap(w, &flat, &pose, NULL, keep, NULL, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "shape: half_extents: must be > 0");
    vx_world_destroy(w);
}

/* ---- the tree follows the world ---- */

Test(world_query, the_tree_follows_steps_moves_and_bodies_that_come_and_go)
{
    vx_world *w = make_world();
    vx_vec3 down = vx_vec3_make(0.0f, -1.0f, 0.0f);
    vx_vec3 above = vx_vec3_make(0.0f, 10.0f, 0.0f);
    vx_body_def d = vx_body_def_default();
    d.velocity = vx_vec3_make(6.0f, 0.0f, 0.0f); /* 0.1 m per step: it leaves the ray in 10 steps */
    vx_entity e;
    cr_assert_eq(vx_world_create_body(w, &d, &e, NULL), VX_OK);
    vx_collider ball = vx_collider_sphere(0.5f);
    cr_assert_eq(vx_body_set_shape(w, e, &ball, NULL), VX_OK);
    cr_assert(vx_entity_equal(closest_ray(w, above, down, 20.0f, NULL).entity, e));
    for (int k = 0; k < 3; k++) cr_assert_eq(vx_world_step(w, NULL), VX_OK);
    vx_query_hit h = closest_ray(w, above, down, 20.0f, NULL);
    cr_assert(vx_entity_equal(h.entity, e), "at x = 0.3 the ray still meets it");
    cr_assert_float_eq(h.distance, 10.0f - sqrtf(0.25f - 0.09f), 1e-5);
    for (int k = 0; k < 3; k++) cr_assert_eq(vx_world_step(w, NULL), VX_OK);
    cr_assert(vx_entity_equal(closest_ray(w, above, down, 20.0f, NULL).entity, VX_ENTITY_NULL),
              "at x = 0.6 it is gone");
    /* moved back by hand */
    cr_assert_eq(vx_body_set_transform(w, e, vx_vec3_zero(), vx_quat_identity(), NULL), VX_OK);
    cr_assert(vx_entity_equal(closest_ray(w, above, down, 20.0f, NULL).entity, e));
    /* a new body in front of it, then gone again */
    vx_entity lid = vx_test_add_placed(w, VX_BODY_STATIC, vx_vec3_make(0.0f, 3.0f, 0.0f), vx_quat_identity(),
                        vx_collider_box(vx_vec3_make(1.0f, 0.1f, 1.0f)));
    h = closest_ray(w, above, down, 20.0f, NULL);
    cr_assert(vx_entity_equal(h.entity, lid));
    cr_assert_float_eq(h.distance, 6.9f, 1e-5);
    cr_assert(vx_world_destroy_body(w, lid));
    cr_assert(vx_entity_equal(closest_ray(w, above, down, 20.0f, NULL).entity, e));
    /* written through the registry: seen after vx_world_touch */
    vx_transform *t = vx_registry_get(vx_world_registry(w), e, VX_COMPONENT_TRANSFORM);
    t->position.x = 30.0f;
    vx_world_touch(w);
    cr_assert(vx_entity_equal(closest_ray(w, above, down, 20.0f, NULL).entity, VX_ENTITY_NULL));
    vx_world_destroy(w);
}

/* ---- a query attached to a body ---- */

/* A lidar of 360 rays on a body at the centre of a square room of four
 * walls 5 m away: with the body turned by any angle, the ray at azimuth a
 * (in the body's frame) meets a wall at 5 / max(|cos|, |sin|) of the world
 * azimuth; the body itself is never hit. */
Test(world_query, a_lidar_turns_with_its_body)
{
    vx_world *w = make_world();
    vx_quat id = vx_quat_identity();
    vx_vec3 wall_x = vx_vec3_make(0.5f, 3.0f, 20.0f), wall_z = vx_vec3_make(20.0f, 3.0f, 0.5f);
    vx_test_add_placed(w, VX_BODY_STATIC, vx_vec3_make(5.5f, 0.0f, 0.0f), id, vx_collider_box(wall_x));
    vx_test_add_placed(w, VX_BODY_STATIC, vx_vec3_make(-5.5f, 0.0f, 0.0f), id, vx_collider_box(wall_x));
    vx_test_add_placed(w, VX_BODY_STATIC, vx_vec3_make(0.0f, 0.0f, 5.5f), id, vx_collider_box(wall_z));
    vx_test_add_placed(w, VX_BODY_STATIC, vx_vec3_make(0.0f, 0.0f, -5.5f), id, vx_collider_box(wall_z));
    vx_entity car = vx_test_add_placed(w, VX_BODY_DYNAMIC, vx_vec3_zero(), id,
                                       vx_collider_box(vx_vec3_make(1.0f, 0.5f, 0.5f)));
    const double pi = 3.14159265358979323846;
    for (int turn = 0; turn < 4; turn++) {
        double body_angle = 0.37 * turn;
        vx_quat q = vx_quat_from_axis_angle(vx_vec3_make(0.0f, 1.0f, 0.0f), (float)body_angle);
        cr_assert_eq(vx_body_set_transform(w, car, vx_vec3_zero(), q, NULL), VX_OK);
        for (int a = 0; a < 360; a++) {
            double azimuth = a * pi / 180.0;
            vx_query_def def = vx_query_def_default();
            def.origin = vx_vec3_make(0.0f, 0.2f, 0.0f);
            def.direction = vx_vec3_make((float)cos(azimuth), 0.0f, (float)-sin(azimuth));
            def.attached_to = car;
            hit_list l = {.count = 0};
            cr_assert_eq(vx_world_query(w, &def, keep, &l, NULL), VX_OK);
            cr_assert_eq(l.count, 1, "turn %d ray %d: one wall, never the car", turn, a);
            double world = azimuth + body_angle;
            double expect = 5.0 / fmax(fabs(cos(world)), fabs(sin(world)));
            cr_assert_float_eq(l.hits[0].distance, expect, 2e-5 * expect, "turn %d ray %d: %g vs %g", turn, a,
                               (double)l.hits[0].distance, expect);
        }
    }
    vx_world_destroy(w);
}

/* ---- meshes and heightfields ---- */

static bool first_hit(const vx_query_hit *hit, void *context)
{
    *(vx_query_hit *)context = *hit;
    return false;
}

Test(world_query, meshes_and_heightfields_are_hit_through_their_trees)
{
    vx_world *w = make_world();
    vx_error err;
    /* a floor of two triangles at y = 0, and a heightfield of 3 x 3 heights
     * at y = -1 under a box */
    vx_vec3 v[4] = {{-5, 0, -5}, {-5, 0, 5}, {5, 0, 5}, {5, 0, -5}};
    uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    const vx_mesh *mesh = NULL, *field = NULL;
    cr_assert_eq(vx_world_make_mesh(w, v, 4, idx, 2, &mesh, &err), VX_OK, "%s", err.message);
    float h[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    cr_assert_eq(vx_world_make_heightfield(w, h, 3, 3, 1.0f, 1.0f, &field, &err), VX_OK, "%s", err.message);
    vx_entity floor = vx_test_add_placed(w, VX_BODY_STATIC, vx_vec3_zero(), vx_quat_identity(), vx_collider_mesh(mesh));
    vx_entity ground = vx_test_add_placed(w, VX_BODY_STATIC, vx_vec3_make(20, -1, 20), vx_quat_identity(),
                                          vx_collider_mesh(field));

    vx_query_hit hit = closest_ray(w, vx_vec3_make(1, 3, 2), vx_vec3_make(0, -1, 0), 10.0f, NULL);
    cr_assert(vx_entity_equal(hit.entity, floor));
    VX_ASSERT_NEAR(hit.distance, 3.0f, 0);
    VX_ASSERT_VEC3_NEAR(hit.normal, 0, 1, 0, 0);
    hit = closest_ray(w, vx_vec3_make(1, -3, 2), vx_vec3_make(0, 1, 0), 10.0f, NULL); /* from below */
    cr_assert(vx_entity_equal(hit.entity, floor));
    VX_ASSERT_VEC3_NEAR(hit.normal, 0, -1, 0, 0);
    hit = closest_ray(w, vx_vec3_make(21.5f, 2, 20.5f), vx_vec3_make(0, -1, 0), 10.0f, NULL);
    cr_assert(vx_entity_equal(hit.entity, ground));
    VX_ASSERT_NEAR(hit.distance, 3.0f, 0);

    vx_query_hit sh;
    cr_assert_eq(vx_world_cast_sphere_closest(w, vx_vec3_make(21, 2, 21), 0.5f, vx_vec3_make(0, -1, 0), 10.0f, NULL,
                                              &sh, &err),
                 VX_OK);
    cr_assert(vx_entity_equal(sh.entity, ground));
    VX_ASSERT_NEAR(sh.distance, 2.5f, 1e-6);
    VX_ASSERT_VEC3_NEAR(sh.point, 21, -1, 21, 1e-6);

    /* overlaps: a sphere through the floor, one resting on it (touching is
     * not overlapping), one above */
    vx_collider ball = vx_collider_sphere(0.5f);
    vx_transform through = vx_transform_identity(), resting = vx_transform_identity(), above = vx_transform_identity();
    through.position = vx_vec3_make(1, 0.2f, 1);
    resting.position = vx_vec3_make(1, 0.5f, 1);
    above.position = vx_vec3_make(1, 0.7f, 1);
    vx_query_hit o;
    o.entity = VX_ENTITY_NULL;
    cr_assert_eq(vx_world_overlap(w, &ball, &through, NULL, first_hit, &o, &err), VX_OK);
    cr_assert(vx_entity_equal(o.entity, floor));
    o.entity = VX_ENTITY_NULL;
    cr_assert_eq(vx_world_overlap(w, &ball, &resting, NULL, first_hit, &o, &err), VX_OK);
    cr_assert(vx_entity_equal(o.entity, VX_ENTITY_NULL));
    cr_assert_eq(vx_world_overlap(w, &ball, &above, NULL, first_hit, &o, &err), VX_OK);
    cr_assert(vx_entity_equal(o.entity, VX_ENTITY_NULL));
    vx_collider as_shape = vx_collider_mesh(mesh);
    cr_assert_eq(vx_world_overlap(w, &as_shape, &above, NULL, first_hit, &o, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "query: shape: must be a sphere, box, capsule or convex hull");
    vx_world_destroy(w);
}
