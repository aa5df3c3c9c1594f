/* Validation of hull bodies (scenes/shapes/) against geometry and mechanics:
 * an 8-point hull cube and a box dropped side by side rest at the same
 * height on a face; a d20 die (the hull of an icosahedron) thrown onto a
 * table comes to rest on a face; a tetrahedron spinning in zero gravity
 * keeps its centre of mass on a straight line and |L| and its energy within
 * 0.1 % over 10 s; 8 hexagonal prisms stacked stand 10 s. */
#include <criterion/criterion.h>

#include "test_validation.h"

TestSuite(validation, .fini = vx_validation_fini);

static void run(vx_validation *v, int steps)
{
    for (int n = 0; n < steps; n++) vx_validation_step(v);
}

/* |cos| of the tilt of the plane through entity i's three lowest hull
 * corners: 1 when they lie level (the hull rests on a triangular face). */
static double lowest_plane_level(const vx_validation *v, size_t i)
{
    const vx_hull *h = vx_validation_collider(v, i)->hull;
    size_t n = vx_hull_get_info(h).vertex_count, low[3] = {0, 0, 0};
    vx_vec3 p[64];
    cr_assert_leq(n, 64u);
    for (size_t k = 0; k < n; k++) p[k] = vx_vec3_add(v->now[i].p, vx_quat_rotate(v->now[i].q, vx_hull_vertex(h, k)));
    for (int j = 0; j < 3; j++) {
        size_t pick = SIZE_MAX;
        for (size_t k = 0; k < n; k++) {
            bool used = false;
            for (int u = 0; u < j; u++) used = used || low[u] == k;
            if (!used && (pick == SIZE_MAX || p[k].y < p[pick].y)) pick = k;
        }
        low[j] = pick;
    }
    vx_vec3 nrm = vx_vec3_normalize(
        vx_vec3_cross(vx_vec3_sub(p[low[1]], p[low[0]]), vx_vec3_sub(p[low[2]], p[low[0]])));
    return fabs((double)nrm.y);
}

Test(validation, hull_cube_and_box_rest_at_the_same_height)
{
    vx_validation *v = vx_validation_open("shapes/hull_cube_vs_box");
    run(v, 300);
    size_t box = vx_validation_entity(v, "box"), hull = vx_validation_entity(v, "hull_cube");
    cr_assert_lt(fabs((double)v->now[hull].p.y - (double)v->now[box].p.y), 1e-3, "hull at %g, box at %g",
                 (double)v->now[hull].p.y, (double)v->now[box].p.y);
    for (size_t i = 0; i < 2; i++) {
        size_t b = i ? hull : box;
        cr_assert_lt(fabs((double)v->now[b].p.y - 0.5), 1e-2, "%s rests on a face", v->scene.names[b]);
        cr_assert_gt(fabsf(v->now[b].q.w), cosf(0.5f * 0.01f), "%s lies flat", v->scene.names[b]);
        cr_assert_lt(vx_vec3_length(v->now[b].v), 1e-3f);
    }
}

Test(validation, d20_lands_on_a_face)
{
    vx_validation *v = vx_validation_open("shapes/d20");
    size_t die = vx_validation_entity(v, "die");
    run(v, 300);
    cr_assert_lt(vx_vec3_length(v->now[die].v), 1e-3f, "still rolling");
    cr_assert_lt(vx_vec3_length(v->now[die].w), 1e-2f, "still turning");
    /* on a face: its three lowest corners on the table, their plane level */
    double level = lowest_plane_level(v, die);
    cr_assert_gt(level, cos(1.0 * 3.14159265358979 / 180.0), "the lowest three corners tilt %g deg",
                 acos(level) * 180.0 / 3.14159265358979);
    /* it travelled: thrown at 3 m/s, it rolled before it stopped */
    cr_assert_gt(vx_validation_distance(v->now[die].p, v->start[die].p), 1.0);
}

Test(validation, spinning_tetrahedron_keeps_L_and_energy)
{
    vx_validation *v = vx_validation_open("shapes/tetra_spin");
    vx_validation_free_spin(v, vx_validation_entity(v, "tetra"), 600);
}

Test(validation, stacked_hexagonal_prisms_stand)
{
    vx_validation *v = vx_validation_open("shapes/hex_stack");
    run(v, 600);
    for (size_t i = 0; i < v->scene.entity_count; i++) {
        if (!vx_validation_is_dynamic(v, i)) continue;
        vx_vec3 d = vx_vec3_sub(v->now[i].p, v->start[i].p);
        double sideways = hypot((double)d.x, (double)d.z);
        cr_assert_lt(sideways, 0.01, "%s drifted %g m", v->scene.names[i], sideways);
        cr_assert_lt(fabs((double)d.y), 0.03, "%s sank %g m", v->scene.names[i], -(double)d.y);
    }
}

/* A hull fired at 60 m/s, spinning, at a 1 cm plate (it moves 1 m a step)
 * stops at the plate: no corner ever gets more than the slop past its near
 * face, and it ends on the near side (continuous collision with the hull's
 * support and core). */
Test(validation, fast_hull_does_not_tunnel)
{
    vx_validation *v = vx_validation_open("shapes/hull_tunnel");
    size_t rock = vx_validation_entity(v, "rock");
    const vx_hull *h = vx_validation_collider(v, rock)->hull;
    size_t n = vx_hull_get_info(h).vertex_count;
    double deepest = -INFINITY;
    for (int step = 0; step < 120; step++) {
        vx_validation_step(v);
        for (size_t k = 0; k < n; k++) {
            vx_vec3 p = vx_vec3_add(v->now[rock].p, vx_quat_rotate(v->now[rock].q, vx_hull_vertex(h, k)));
            deepest = fmax(deepest, (double)p.x + 0.005); /* past the plate's near face at x = -0.005 */
        }
    }
    cr_assert_lt(deepest, 0.01, "a corner went %g m past the plate's near face", deepest);
    cr_assert_lt(v->now[rock].p.x, 0.0f, "the rock ends on the near side");
}
