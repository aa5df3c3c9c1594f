/* Convex colliders in scene files: the hull of the points (inner points
 * dropped), mass from the density times its volume, one hull for every
 * entity naming a shared shape, a convex query shape, and every bad input
 * refused with its JSON path. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "test_helpers.h"
#include "voltex/voltex.h"
#include "invalid_scene_record.h"

/* The unit cube's corners and its centre (an inner point). */
#define CUBE_POINTS "[[0,0,0],[1,0,0],[0,1,0],[1,1,0],[0,0,1],[1,0,1],[0,1,1],[1,1,1],[0.5,0.5,0.5]]"

static void load(const char *json, vx_scene *s)
{
    vx_error err;
    cr_assert_eq(vx_scene_load_string(json, strlen(json), "s.json", s, &err), VX_OK, "%s", err.message);
}

static const vx_collider *collider_of(const vx_scene *s, size_t i)
{
    const vx_collider *c =
        vx_registry_get_const(vx_world_registry_const(s->world), s->entities[i], VX_COMPONENT_COLLIDER);
    cr_assert_not_null(c);
    return c;
}

Test(scene_convex, hull_of_the_points_with_mass_from_density)
{
    vx_scene s;
    load("{\"entities\": [{\"collider\": {\"type\": \"convex\", \"points\": " CUBE_POINTS "},"
         " \"rigidbody\": {\"density\": 500}}]}",
         &s);
    const vx_collider *c = collider_of(&s, 0);
    cr_assert_eq(c->type, VX_SHAPE_HULL);
    vx_hull_info info = vx_hull_get_info(c->hull);
    cr_assert_eq(info.vertex_count, 8u, "the centre is dropped");
    cr_assert_eq(info.face_count, 6u, "coplanar triangles merged into the cube's 6 faces");
    cr_assert_float_eq(info.volume, 1.0f, 1e-6f);
    VX_ASSERT_VEC3_NEAR(info.frame.position, 0.5f, 0.5f, 0.5f, 1e-6f);
    const vx_rigidbody *rb =
        vx_registry_get_const(vx_world_registry_const(s.world), s.entities[0], VX_COMPONENT_RIGIDBODY);
    cr_assert_float_eq(rb->mass, 500.0f, 1e-3f);
    /* a unit cube's moments for density 1: 1/6 */
    cr_assert_float_eq(info.inertia.x, 1.0f / 6.0f, 1e-6f);
    vx_scene_destroy(&s);
}

Test(scene_convex, a_shared_shape_is_one_hull)
{
    vx_scene s;
    load("{\"shapes\": {\"rock\": {\"type\": \"convex\", \"points\": " CUBE_POINTS "}},"
         " \"entities\": [{\"collider\": \"rock\", \"rigidbody\": {\"mass\": 1}},"
         " {\"collider\": \"rock\", \"transform\": {\"position\": [3, 0, 0]}, \"rigidbody\": {\"mass\": 1}}]}",
         &s);
    cr_assert_eq(collider_of(&s, 0)->hull, collider_of(&s, 1)->hull);
    vx_scene_destroy(&s);
}

static bool count_hit(const vx_query_hit *h, void *context)
{
    (void)h;
    ++*(size_t *)context;
    return true;
}

Test(scene_convex, convex_overlap_query)
{
    vx_scene s;
    load("{\"entities\": [{\"name\": \"ball\", \"collider\": {\"type\": \"sphere\", \"radius\": 0.5},"
         " \"transform\": {\"position\": [2, 0.5, 0.5]}}],"
         " \"queries\": [{\"type\": \"overlap\", \"shape\": {\"type\": \"convex\", \"points\": " CUBE_POINTS ","
         " \"position\": [0.6, 0, 0]}}]}",
         &s);
    cr_assert_eq(s.query_count, 1u);
    cr_assert_eq(s.queries[0].shape.type, VX_SHAPE_HULL);
    /* the cube moved to x 0.6..1.6 overlaps the ball from x 1.5 */
    size_t hits = 0;
    cr_assert_eq(vx_world_overlap(s.world, &s.queries[0].shape, &s.queries[0].shape_pose, NULL,
                                  count_hit, &hits, NULL),
                 VX_OK);
    cr_assert_eq(hits, 1u);
    vx_scene_destroy(&s);
}

static void expect_invalid(const char *json, const char *message)
{
    vx_scene s;
    vx_error err;
    vx_status st = vx_scene_load_string(json, strlen(json), "s.json", &s, &err);
    cr_assert_eq(st, VX_ERR_INVALID, "for %s: %s", json, err.message);
    cr_assert_str_eq(err.message, message);
    cr_assert_null(s.world);
    vx_test_record_invalid_scene(json, strlen(json), message);
}

#define CONVEX(points) "{\"entities\": [{\"collider\": {\"type\": \"convex\", \"points\": " points "}}]}"

Test(scene_convex, bad_points_are_refused_with_their_path)
{
    expect_invalid(CONVEX("[[0,0,0],[1,0,0],[0,1,0]]"),
                   "s.json: entities[0].collider.points: must have 4 to 256 points (3 given)");
    expect_invalid(CONVEX("[[0,0,0],[1,0,0],[0,1,0],[1,1,0]]"),
                   "s.json: entities[0].collider.points: all points lie on one plane (within 1e-05)");
    expect_invalid(CONVEX("[[0,0,0],[1,0,0],[2,0,0],[3,0,0]]"),
                   "s.json: entities[0].collider.points: all points lie on one line (within 3e-05)");
    expect_invalid(CONVEX("[[0,0,0],[0,0,0],[0,0,0],[1,0,0]]"),
                   "s.json: entities[0].collider.points: fewer than 4 distinct points (2)");
    expect_invalid(CONVEX("[[0,0,0],[1,0,0],[0,1,0],[0,0,\"a\"]]"),
                   "s.json: entities[0].collider.points[3][2]: must be a number");
    expect_invalid(CONVEX("[[0,0,0],[1,0,0],[0,1,0],[0,0]]"),
                   "s.json: entities[0].collider.points[3]: must be an array of 3 numbers");
    expect_invalid(CONVEX("{}"), "s.json: entities[0].collider.points: must be an array");
    expect_invalid("{\"entities\": [{\"collider\": {\"type\": \"convex\"}}]}",
                   "s.json: entities[0].collider.points: missing (required for a convex collider)");
    expect_invalid("{\"entities\": [{\"collider\": {\"type\": \"convex\", \"radius\": 1, \"points\": " CUBE_POINTS
                   "}}]}",
                   "s.json: entities[0].collider.radius: unknown key (expected one of: type, points, sensor, "
                   "category, mask)");
}

Test(scene_convex, too_many_points)
{
    char json[16384];
    size_t n = (size_t)snprintf(json, sizeof json, "{\"entities\": [{\"collider\": {\"type\": \"convex\", \"points\": [");
    for (int i = 0; i < 257; i++)
        n += (size_t)snprintf(json + n, sizeof json - n, "%s[%d,%d,%d]", i ? "," : "", i % 7, i % 11, i % 13);
    snprintf(json + n, sizeof json - n, "]}}]}");
    expect_invalid(json, "s.json: entities[0].collider.points: must have 4 to 256 points (257 given)");
}
