/* A sphere against a triangle's prism without the prism's hull
 * (src/physics/collision/collide_prism_sphere.c): the contact a ball on
 * the triangle's side gets in closed form (over the face: depth r - h along
 * the normal; beside an edge or a corner: along the way from the nearest
 * point), and the same contact as the general hull test against the full
 * prism on 20 000 random triangles and balls, near their edges and corners
 * most of all. */
#include <criterion/criterion.h>
#include <math.h>

#include "physics/body/triangle_hull.h"
#include "physics/collision/collide_internal.h"
#include "physics/collision/collide_prism_sphere.h"
#include "test_helpers.h"
#include "test_hull_helpers.h"

#define THICKNESS 0.5f

static vx_mesh_triangle triangle(vx_vec3 a, vx_vec3 b, vx_vec3 c)
{
    vx_mesh_triangle t;
    t.v[0] = a;
    t.v[1] = b;
    t.v[2] = c;
    t.normal = vx_mesh_normal(a, b, c);
    t.edges = 0;
    return t;
}

/* The prism of t facing centre, planes only. */
static vx_triangle_hull planes_facing(const vx_mesh_triangle *t, vx_vec3 centre)
{
    vx_triangle_hull th;
    bool back = vx_vec3_dot(t->normal, vx_vec3_sub(centre, t->v[0])) < 0.0f;
    vx_triangle_hull_init_planes(&th, t, back);
    return th;
}

Test(collide_prism_sphere, over_the_face_along_the_normal)
{
    vx_mesh_triangle t = triangle(vx_vec3_make(0, 0, 0), vx_vec3_make(0, 0, 2), vx_vec3_make(2, 0, 0));
    cr_assert_float_eq(t.normal.y, 1.0f, 1e-7f);
    vx_vec3 centre = vx_vec3_make(0.5f, 0.3f, 0.5f);
    vx_triangle_hull th = planes_facing(&t, centre);
    vx_prism_sphere_contact c;
    cr_assert(vx_collide_prism_sphere(&th, centre, 0.4f, 0.0f, &c));
    VX_ASSERT_VEC3_NEAR(c.normal, 0.0f, 1.0f, 0.0f, 0.0f);
    cr_assert_float_eq(c.depth, 0.1f, 1e-6f);
    VX_ASSERT_VEC3_NEAR(c.on_prism, 0.5f, 0.0f, 0.5f, 1e-7f);
    VX_ASSERT_VEC3_NEAR(c.on_sphere, 0.5f, -0.1f, 0.5f, 1e-6f);
    /* from below, the prism faces down: the same contact mirrored */
    centre.y = -0.3f;
    th = planes_facing(&t, centre);
    cr_assert(th.back);
    cr_assert(vx_collide_prism_sphere(&th, centre, 0.4f, 0.0f, &c));
    VX_ASSERT_VEC3_NEAR(c.normal, 0.0f, -1.0f, 0.0f, 0.0f);
    cr_assert_float_eq(c.depth, 0.1f, 1e-6f);
    /* beyond radius + margin: nothing; within the margin: a speculative point */
    centre.y = 0.55f;
    th = planes_facing(&t, centre);
    cr_assert_not(vx_collide_prism_sphere(&th, centre, 0.4f, 0.1f, &c));
    centre.y = 0.45f;
    cr_assert(vx_collide_prism_sphere(&th, centre, 0.4f, 0.1f, &c));
    cr_assert_float_eq(c.depth, -0.05f, 1e-6f);
}

Test(collide_prism_sphere, beside_an_edge_and_a_corner_along_the_way_out)
{
    vx_mesh_triangle t = triangle(vx_vec3_make(0, 0, 0), vx_vec3_make(0, 0, 2), vx_vec3_make(2, 0, 0));
    /* beside the edge x = 0 (from (0,0,0) to (0,0,2)), up and out at 45 degrees */
    float d = 0.3f, s = sqrtf(0.5f);
    vx_vec3 centre = vx_vec3_make(-d * s, d * s, 1.0f);
    vx_triangle_hull th = planes_facing(&t, centre);
    vx_prism_sphere_contact c;
    cr_assert(vx_collide_prism_sphere(&th, centre, 0.5f, 0.0f, &c));
    VX_ASSERT_VEC3_NEAR(c.normal, -s, s, 0.0f, 1e-6f);
    cr_assert_float_eq(c.depth, 0.2f, 1e-6f);
    VX_ASSERT_VEC3_NEAR(c.on_prism, 0.0f, 0.0f, 1.0f, 1e-6f);
    /* beyond the corner (2, 0, 0) */
    vx_vec3 out = vx_vec3_normalize(vx_vec3_make(1.0f, 1.0f, -1.0f));
    centre = vx_vec3_add(vx_vec3_make(2, 0, 0), vx_vec3_scale(out, 0.25f));
    th = planes_facing(&t, centre);
    cr_assert(vx_collide_prism_sphere(&th, centre, 0.5f, 0.0f, &c));
    VX_ASSERT_VEC3_NEAR(c.normal, out.x, out.y, out.z, 1e-6f);
    cr_assert_float_eq(c.depth, 0.25f, 1e-6f);
    VX_ASSERT_VEC3_NEAR(c.on_prism, 2.0f, 0.0f, 0.0f, 1e-6f);
}

Test(collide_prism_sphere, on_the_plane_beside_the_triangle_by_the_distance_to_its_edge)
{
    /* a ball rolling in the triangle's plane towards its edge x = 0 (a
     * sweep meets the triangle this way): touching 0.1 m before the centre
     * reaches the edge, as the hull test of the full prism says */
    vx_mesh_triangle t = triangle(vx_vec3_make(0, 0, 0), vx_vec3_make(0, 0, 2), vx_vec3_make(2, 0, 0));
    vx_transform identity = vx_test_pose(vx_vec3_zero(), vx_quat_identity());
    for (int i = 0; i <= 20; i++) {
        float d = 0.01f * (float)i; /* centre this far beside the edge */
        vx_vec3 centre = vx_vec3_make(-d, 0.0f, 1.0f);
        vx_triangle_hull th = planes_facing(&t, centre), full;
        vx_triangle_hull_init(&full, &t, th.back, THICKNESS);
        vx_prism_sphere_contact c;
        vx_manifold m;
        bool got = vx_collide_prism_sphere(&th, centre, 0.1f, 0.0f, &c);
        bool expected = vx_collide_hull_sphere(&full.hull, &identity, centre, 0.1f, 0.0f, &m);
        cr_assert_eq(got, expected, "d = %g", (double)d);
        cr_assert_eq(got, d <= 0.1f, "d = %g", (double)d);
        if (!got) continue;
        cr_assert_float_eq(c.depth, 0.1f - d, 1e-6f, "d = %g", (double)d);
        if (i > 0) VX_ASSERT_VEC3_NEAR(c.normal, -1.0f, 0.0f, 0.0f, 1e-6f);
        cr_assert(fabsf(c.depth - m.points[0].depth) < 1e-6f);
    }
}

/* A point near the triangle: on its plane's side of the centre, near a
 * random corner, edge or inner point, up to `reach` away. */
static vx_vec3 near_point(vx_test_rng *rng, const vx_mesh_triangle *t, float reach)
{
    float u = vx_test_rng_range(rng, -0.3f, 1.3f), v = vx_test_rng_range(rng, -0.3f, 1.3f);
    int corner = (int)(vx_test_rng_next(rng) % 4u);
    if (corner < 3) { /* near a corner */
        u = corner == 1 ? 1.0f : 0.0f;
        v = corner == 2 ? 1.0f : 0.0f;
    }
    vx_vec3 base = vx_vec3_add(t->v[0], vx_vec3_add(vx_vec3_scale(vx_vec3_sub(t->v[1], t->v[0]), u),
                                                    vx_vec3_scale(vx_vec3_sub(t->v[2], t->v[0]), v)));
    return vx_vec3_add(base, vx_test_rng_vec3(rng, -reach, reach));
}

Test(collide_prism_sphere, the_hull_tests_contact_on_20000_random_pairs)
{
    vx_test_rng rng = {0x5eed1234u};
    vx_transform identity = vx_test_pose(vx_vec3_zero(), vx_quat_identity());
    int hits = 0, edges = 0;
    for (int i = 0; i < 20000; i++) {
        float size = vx_test_rng_range(&rng, 0.2f, 5.0f);
        vx_vec3 a = vx_test_rng_vec3(&rng, -size, size);
        vx_vec3 b = vx_vec3_add(a, vx_test_rng_vec3(&rng, -size, size));
        vx_vec3 cc = vx_vec3_add(a, vx_test_rng_vec3(&rng, -size, size));
        if (vx_triangle_is_degenerate(a, b, cc)) continue;
        vx_mesh_triangle t = triangle(a, b, cc);
        float radius = vx_test_rng_range(&rng, 0.05f, 1.0f), margin = vx_test_rng_range(&rng, 0.0f, 0.1f);
        vx_vec3 centre = near_point(&rng, &t, radius * 1.5f);
        bool back = vx_vec3_dot(t.normal, vx_vec3_sub(centre, t.v[0])) < 0.0f;
        vx_triangle_hull full, planes;
        vx_triangle_hull_init(&full, &t, back, THICKNESS);
        vx_triangle_hull_init_planes(&planes, &t, back);
        vx_manifold m;
        vx_prism_sphere_contact c;
        bool expected = vx_collide_hull_sphere(&full.hull, &identity, centre, radius, margin, &m);
        bool got = vx_collide_prism_sphere(&planes, centre, radius, margin, &c);
        /* a pair right at radius + margin may fall either way by rounding */
        if (expected != got) {
            float depth = expected ? m.points[0].depth : c.depth;
            cr_assert(fabsf(depth + margin) < 1e-5f * (size + 1.0f), "pair %d: hull %d, prism %d (depth %g)", i,
                      expected, got, (double)depth);
            continue;
        }
        if (!got) continue;
        hits++;
        /* Depths agree to rounding. Where the nearest point is beside a
         * corner the hull test picks among its candidates by squared
         * distance, whose last bit hides moves of sqrt(ulp) along an edge
         * (up to 2e-4 m here): the points and normals agree to that, and
         * ours is never the farther one. */
        float scale = size + radius + 1.0f;
        cr_assert_eq(m.count, 1);
        cr_assert(fabsf(m.points[0].depth - c.depth) < 2e-5f * scale, "pair %d: depth %g vs %g", i,
                  (double)m.points[0].depth, (double)c.depth);
        cr_assert(vx_vec3_length(vx_vec3_sub(m.normal, c.normal)) < 1e-3f, "pair %d: normal", i);
        cr_assert(vx_vec3_length(vx_vec3_sub(m.points[0].point_a, c.on_prism)) < 3e-4f * scale, "pair %d: point", i);
        cr_assert(vx_vec3_length(vx_vec3_sub(m.points[0].point_b, c.on_sphere)) < 3e-4f * scale, "pair %d", i);
        float ours = vx_vec3_length(vx_vec3_sub(centre, c.on_prism));
        float hulls = vx_vec3_length(vx_vec3_sub(centre, m.points[0].point_a));
        cr_assert(ours <= hulls + 2e-6f * scale, "pair %d: %.9g farther than %.9g", i, (double)ours, (double)hulls);
        if (vx_vec3_dot(c.normal, planes.faces[VX_TRIANGLE_HULL_TOP].normal) < 0.999f) edges++;
    }
    /* the random pairs touch often, and often beside an edge or a corner */
    cr_assert_gt(hits, 5000, "%d hits", hits);
    cr_assert_gt(edges, 2000, "%d beside an edge or a corner", edges);
}
