/* Compounds through the library (voltex/world.h): mass properties against
 * the parallel-axis theorem worked out here, contacts per part keyed by the
 * parts, rays, sphere casts and overlaps against the closed forms, sleeping,
 * and every bad input of vx_world_make_compound. */
#include <criterion/criterion.h>
#include <math.h>

#include "test_world_helpers.h"
#include "voltex/query.h"
#include "voltex/rotation.h"
#include "voltex/world.h"

#define VX_PI 3.14159265358979323846

static vx_world *new_world(void)
{
    vx_world_def def = vx_world_def_default();
    vx_error err;
    vx_world *w = vx_world_create(&def, &err);
    cr_assert_not_null(w, "%s", err.message);
    return w;
}

static vx_compound_part part(vx_collider shape, vx_vec3 position, vx_quat rotation)
{
    vx_compound_part p = {shape, {position, rotation}};
    return p;
}

static const vx_compound *make(vx_world *w, const vx_compound_part *parts, size_t n)
{
    const vx_compound *c = NULL;
    vx_error err;
    cr_assert_eq(vx_world_make_compound(w, parts, n, &c, &err), VX_OK, "%s", err.message);
    return c;
}

static void assert_close(double got, double want, double rel, const char *what)
{
    cr_assert_lt(fabs(got - want), rel * fabs(want) + 1e-9, "%s: %.9g, expected %.9g", what, got, want);
}

/* Two spheres of radius 0.5 at x = +-2: centre of mass at the origin, the
 * moments about x the spheres' own, about y and z plus V d^2 each. */
Test(compound, dumbbell_mass_properties_follow_the_parallel_axis_theorem)
{
    vx_world *w = new_world();
    vx_compound_part parts[2] = {part(vx_collider_sphere(0.5f), vx_vec3_make(-2, 0, 0), vx_quat_identity()),
                                 part(vx_collider_sphere(0.5f), vx_vec3_make(2, 0, 0), vx_quat_identity())};
    vx_compound_info info = vx_compound_get_info(make(w, parts, 2));
    double v = 4.0 / 3.0 * VX_PI * 0.125, own = 0.4 * v * 0.25;
    assert_close(info.volume, 2.0 * v, 1e-6, "volume");
    cr_assert_lt(vx_vec3_length(info.frame.position), 1e-6f);
    assert_close(info.inertia.x, 2.0 * own, 1e-5, "Ixx");
    assert_close(info.inertia.y, 2.0 * (own + v * 4.0), 1e-5, "Iyy");
    assert_close(info.inertia.z, 2.0 * (own + v * 4.0), 1e-5, "Izz");
    vx_world_destroy(w);
}

/* An L of two boxes, one turned: the frame's centre is the volume-weighted
 * mean, and the principal frame turned back gives the tensor summed here
 * from each box's own (turned) plus its parallel-axis term. */
Test(compound, off_centre_l_has_the_summed_tensor_in_its_principal_frame)
{
    vx_world *w = new_world();
    vx_quat turn = vx_quat_from_axis_angle(vx_vec3_make(0, 0, 1), (float)(VX_PI / 2.0));
    /* a 2 x 0.4 x 0.6 bar along x, and the same bar turned to stand along y */
    vx_vec3 h = vx_vec3_make(1.0f, 0.2f, 0.3f);
    vx_compound_part parts[2] = {part(vx_collider_box(h), vx_vec3_make(1.0f, 0, 0), vx_quat_identity()),
                                 part(vx_collider_box(h), vx_vec3_make(0, 1.2f, 0), turn)};
    vx_compound_info info = vx_compound_get_info(make(w, parts, 2));
    double v = 8.0 * 1.0 * 0.2 * 0.3;
    assert_close(info.volume, 2.0 * v, 1e-6, "volume");
    double cx = 0.5, cy = 0.6;
    assert_close(info.frame.position.x, cx, 1e-6, "centre x");
    assert_close(info.frame.position.y, cy, 1e-6, "centre y");
    cr_assert_lt(fabsf(info.frame.position.z), 1e-6f);
    /* each bar's own moments along its axes: V (b^2 + c^2) / 3 with half sizes */
    double ax = v * (0.04 + 0.09) / 3.0, ay = v * (1.0 + 0.09) / 3.0, az = v * (1.0 + 0.04) / 3.0;
    double t[3][3] = {{0}};
    /* bar 1 along x, centre (1, 0, 0); bar 2 turned (its x along y), centre (0, 1.2, 0) */
    double centres[2][2] = {{1.0 - cx, 0.0 - cy}, {0.0 - cx, 1.2 - cy}};
    double own[2][3] = {{ax, ay, az}, {ay, ax, az}};
    for (int b = 0; b < 2; b++) {
        double dx = centres[b][0], dy = centres[b][1];
        t[0][0] += own[b][0] + v * dy * dy;
        t[1][1] += own[b][1] + v * dx * dx;
        t[2][2] += own[b][2] + v * (dx * dx + dy * dy);
        t[0][1] -= v * dx * dy;
    }
    t[1][0] = t[0][1];
    /* R diag(I) R^T from the engine's frame */
    vx_mat3 r = vx_mat3_from_quat(info.frame.rotation);
    double moments[3] = {info.inertia.x, info.inertia.y, info.inertia.z};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0.0;
            for (int k = 0; k < 3; k++) s += (double)r.m[i][k] * moments[k] * (double)r.m[j][k];
            cr_assert_lt(fabs(s - t[i][j]), 1e-5 * t[2][2], "I[%d][%d] %.9g, expected %.9g", i, j, s, t[i][j]);
        }
    vx_world_destroy(w);
}

static vx_entity add(vx_world *w, vx_body_type type, vx_vec3 at, vx_collider shape)
{
    vx_body_def def = vx_body_def_default();
    def.type = type;
    def.position = at;
    return vx_test_add_body(w, &def, shape);
}

/* The dumbbell lying on a floor: one manifold per sphere, keyed by its part. */
Test(compound, resting_dumbbell_has_a_manifold_per_part_and_sleeps)
{
    vx_world_def def = vx_world_def_default();
    def.sleeping = true;
    vx_error err;
    vx_world *w = vx_world_create(&def, &err);
    cr_assert_not_null(w);
    add(w, VX_BODY_STATIC, vx_vec3_make(0, -1, 0), vx_collider_box(vx_vec3_make(10, 1, 10)));
    vx_compound_part parts[3] = {part(vx_collider_sphere(0.3f), vx_vec3_make(-1, 0, 0), vx_quat_identity()),
                                 part(vx_collider_sphere(0.3f), vx_vec3_make(1, 0, 0), vx_quat_identity()),
                                 part(vx_collider_capsule(0.05f, 0.7f), vx_vec3_zero(),
                                      vx_quat_from_axis_angle(vx_vec3_make(0, 0, 1), (float)(VX_PI / 2.0)))};
    vx_entity bell = add(w, VX_BODY_DYNAMIC, vx_vec3_make(0, 0.35f, 0), vx_collider_compound(make(w, parts, 3)));
    for (int n = 0; n < 120; n++) cr_assert_eq(vx_world_step(w, &err), VX_OK, "%s", err.message);
    const vx_contact_list *c = vx_world_contacts(w);
    cr_assert_gt(c->count, 0);
    bool seen[2] = {false, false};
    for (size_t k = 0; k < c->count; k++) {
        /* the floor is A (lower entity index), the dumbbell B: its part in bits 16-23 */
        cr_assert_eq(c->items[k].entity_b.index, bell.index);
        uint32_t p = (c->items[k].part >> 16) & 0xFFu;
        cr_assert_eq(c->items[k].part >> 24, 0u);
        cr_assert_lt(p, 2u, "the bar touches the floor (part %u)", p);
        seen[p] = true;
        double x = (double)c->items[k].point_on_b.x;
        cr_assert_lt(fabs(fabs(x) - 1.0), 1e-3, "contact at x %g", x);
        cr_assert_eq(x < 0.0, p == 0u);
    }
    cr_assert(seen[0] && seen[1]);
    vx_body_state s = vx_test_state_of(w, bell);
    cr_assert_lt(fabsf(s.p.y - 0.3f), 0.01f, "rests at %g", (double)s.p.y);
    for (int n = 0; n < 120; n++) cr_assert_eq(vx_world_step(w, &err), VX_OK, "%s", err.message);
    cr_assert_eq(vx_world_awake_count(w), 0u, "the dumbbell did not fall asleep");
    vx_world_destroy(w);
}

static bool count_hit(const vx_query_hit *hit, void *context)
{
    (void)hit;
    ++*(size_t *)context;
    return true;
}

/* A ray down onto each sphere of a turned dumbbell meets its top at the
 * closed-form distance; a ray between the spheres misses; a sphere cast
 * stops its radius earlier; overlaps see a part, not the gap. */
Test(compound, rays_sphere_casts_and_overlaps_meet_the_parts)
{
    vx_world *w = new_world();
    vx_compound_part parts[2] = {part(vx_collider_sphere(0.5f), vx_vec3_make(0, 0, -2), vx_quat_identity()),
                                 part(vx_collider_box(vx_vec3_make(0.5f, 0.25f, 0.5f)), vx_vec3_make(0, 0, 2),
                                      vx_quat_identity())};
    vx_body_def def = vx_body_def_default();
    def.type = VX_BODY_STATIC;
    def.position = vx_vec3_make(1, 2, 3);
    def.rotation = vx_quat_from_axis_angle(vx_vec3_make(0, 1, 0), (float)(VX_PI / 2.0)); /* local z -> world x */
    vx_entity e = vx_test_add_body(w, &def, vx_collider_compound(make(w, parts, 2)));
    vx_error err;
    vx_query_hit hit;
    /* the sphere's centre at (1 - 2, 2, 3), the box's at (1 + 2, 2, 3) */
    cr_assert_eq(vx_world_cast_ray_closest(w, vx_vec3_make(-1, 10, 3), vx_vec3_make(0, -1, 0), 100, NULL, &hit, &err),
                 VX_OK);
    cr_assert_eq(hit.entity.index, e.index);
    assert_close(hit.distance, 7.5, 1e-6, "ray onto the sphere");
    cr_assert_lt(vx_vec3_length(vx_vec3_sub(hit.normal, vx_vec3_make(0, 1, 0))), 1e-5f);
    cr_assert_eq(vx_world_cast_ray_closest(w, vx_vec3_make(3, 10, 3), vx_vec3_make(0, -1, 0), 100, NULL, &hit, &err),
                 VX_OK);
    assert_close(hit.distance, 7.75, 1e-6, "ray onto the box");
    cr_assert_eq(vx_world_cast_ray_closest(w, vx_vec3_make(1, 10, 3), vx_vec3_make(0, -1, 0), 100, NULL, &hit, &err),
                 VX_OK);
    cr_assert_eq(hit.entity.index, UINT32_MAX, "the ray between the parts hit something");
    /* along the axis from -x: the sphere first, at 10 - 2.5 */
    cr_assert_eq(vx_world_cast_ray_closest(w, vx_vec3_make(-9, 2, 3), vx_vec3_make(1, 0, 0), 100, NULL, &hit, &err),
                 VX_OK);
    assert_close(hit.distance, 7.5, 1e-6, "ray along the axis");
    cr_assert_eq(
        vx_world_cast_sphere_closest(w, vx_vec3_make(-1, 10, 3), 0.25f, vx_vec3_make(0, -1, 0), 100, NULL, &hit, &err),
        VX_OK);
    assert_close(hit.distance, 7.25, 1e-6, "sphere cast onto the sphere");
    size_t count = 0;
    vx_collider probe = vx_collider_sphere(0.2f);
    vx_transform at = {vx_vec3_make(3.6f, 2, 3), vx_quat_identity()};
    cr_assert_eq(vx_world_overlap(w, &probe, &at, NULL, count_hit, &count, &err), VX_OK);
    cr_assert_eq(count, 1u, "the probe overlapping the box");
    at.position = vx_vec3_make(1, 2, 3);
    count = 0;
    cr_assert_eq(vx_world_overlap(w, &probe, &at, NULL, count_hit, &count, &err), VX_OK);
    cr_assert_eq(count, 0u, "the probe in the gap");
    vx_world_destroy(w);
}

static void expect_refused(vx_world *w, const vx_compound_part *parts, size_t n, const char *message)
{
    const vx_compound *c = NULL;
    vx_error err;
    cr_assert_eq(vx_world_make_compound(w, parts, n, &c, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, message);
    cr_assert_null(c);
}

Test(compound, bad_parts_are_refused_with_their_index)
{
    vx_world *w = new_world();
    vx_world *other = new_world();
    vx_compound_part ok = part(vx_collider_sphere(1), vx_vec3_zero(), vx_quat_identity());
    expect_refused(w, &ok, 0, "compound: must have 1 to 256 parts (0 given)");
    vx_compound_part many[257];
    for (int i = 0; i < 257; i++) many[i] = ok;
    expect_refused(w, many, 257, "compound: must have 1 to 256 parts (257 given)");
    vx_compound_part two[2] = {ok, ok};
    two[1].shape = vx_collider_sphere(-1);
    expect_refused(w, two, 2, "compound: parts[1]: shape: radius: must be > 0");
    two[1] = ok;
    two[1].pose.rotation = vx_quat_make(0, 0, 0, 2);
    expect_refused(w, two, 2, "compound: parts[1]: pose: rotation must be a unit quaternion");
    two[1] = ok;
    two[1].pose.position.x = INFINITY;
    expect_refused(w, two, 2, "compound: parts[1]: pose: position must be finite");
    two[1] = ok;
    two[1].shape = vx_collider_compound(make(w, &ok, 1));
    expect_refused(w, two, 2, "compound: parts[1]: shape: must be a sphere, box, capsule or hull (not a compound)");
    float heights[4] = {0, 0, 0, 0};
    const vx_mesh *hf = NULL;
    vx_error err;
    cr_assert_eq(vx_world_make_heightfield(w, heights, 2, 2, 1, 1, &hf, &err), VX_OK);
    two[1].shape = vx_collider_mesh(hf);
    expect_refused(w, two, 2,
                   "compound: parts[1]: shape: must be a sphere, box, capsule or hull (not a mesh or heightfield)");
    vx_vec3 cube[8];
    for (int i = 0; i < 8; i++) cube[i] = vx_vec3_make(i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f);
    const vx_hull *foreign = NULL;
    cr_assert_eq(vx_world_make_hull(other, cube, 8, &foreign, &err), VX_OK);
    two[1].shape = vx_collider_hull(foreign);
    expect_refused(w, two, 2,
                   "compound: parts[1]: shape: hull: not made by this world (vx_world_make_hull)");
    /* a compound of another world as a body's shape */
    vx_entity e;
    vx_body_def def = vx_body_def_default();
    cr_assert_eq(vx_world_create_body(w, &def, &e, &err), VX_OK);
    vx_collider shape = vx_collider_compound(make(other, &ok, 1));
    cr_assert_eq(vx_body_set_shape(w, e, &shape, &err), VX_ERR_INVALID);
    cr_assert_str_eq(err.message, "shape: compound: not made by this world (vx_world_make_compound)");
    vx_world_destroy(w);
    vx_world_destroy(other);
}
