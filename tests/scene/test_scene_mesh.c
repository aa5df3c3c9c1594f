/* Mesh and heightfield colliders in scene files (src/scene/scene_mesh.c,
 * obj_read.c): inline vertices and triangles, an OBJ file beside the scene
 * (v/vt/vn corner forms, negative indices, polygons fanned, comments and
 * other statements read past) giving the same triangles, a heightfield's
 * grid, one mesh for a shared shape, and every bad input refused with its
 * JSON path or the OBJ file and line. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_helpers.h"
#include "voltex/voltex.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/vx_scene_mesh_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

TestSuite(scene_mesh, .init = make_dir, .fini = remove_dir);

static void write_file(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* Loads dir/s.json holding json: the status, and the message in err. */
static vx_status load(const char *json, vx_scene *s, vx_error *err)
{
    write_file("s.json", json);
    char path[128];
    snprintf(path, sizeof path, "%s/s.json", dir);
    return vx_scene_load_file(path, s, err);
}

static void load_ok(const char *json, vx_scene *s)
{
    vx_error err;
    cr_assert_eq(load(json, s, &err), VX_OK, "%s", err.message);
}

static const vx_collider *collider_of(const vx_scene *s, size_t i)
{
    const vx_collider *c =
        vx_registry_get_const(vx_world_registry_const(s->world), s->entities[i], VX_COMPONENT_COLLIDER);
    cr_assert_not_null(c);
    return c;
}

/* A ray straight down at (x, z): the distance to the surface below 10 m. */
static float drop(const vx_scene *s, float x, float z)
{
    vx_query_hit hit;
    vx_error err;
    cr_assert_eq(vx_world_cast_ray_closest(s->world, vx_vec3_make(x, 10, z), vx_vec3_make(0, -1, 0), 100.0f, NULL,
                                           &hit, &err),
                 VX_OK);
    cr_assert(!vx_entity_equal(hit.entity, VX_ENTITY_NULL), "nothing under (%g, %g)", (double)x, (double)z);
    return hit.distance;
}

/* A pyramid roof over the unit square: apex (0.5, 1, 0.5) */
#define ROOF_VERTICES "[[0,0,0],[1,0,0],[1,0,1],[0,0,1],[0.5,1,0.5]]"
#define ROOF_TRIANGLES "[[0,4,1],[1,4,2],[2,4,3],[3,4,0]]"

Test(scene_mesh, an_obj_file_gives_the_triangles_written_inline)
{
    /* the same roof: corners in every form, negative indices, a comment, a
     * square (fanned into two triangles) for the floor under it */
    write_file("roof.obj", "# a roof\n"
                           "o roof\n"
                           "v 0 0 0\nv 1 0 0   # the second corner\nv 1 0 1 1.0\nv 0 0 1\n"
                           "v 0.5 1 0.5\n"
                           "vt 0 0\nvn 0 1 0\ns off\nusemtl none\n"
                           "f 1/1 5/1/1 2//1\n"
                           "f -4 -1 -3\n"
                           "f 3 5 4\n"
                           "f 4/1/1 5 1\n"
                           "g floor\n"
                           "f 1 2 3 4\n");
    vx_scene s;
    load_ok("{\"entities\": [{\"collider\": {\"type\": \"mesh\", \"obj\": \"roof.obj\"}},"
            " {\"transform\": {\"position\": [5, 0, 0]}, \"collider\": {\"type\": \"mesh\", \"vertices\": " ROOF_VERTICES
            ", \"triangles\": " ROOF_TRIANGLES "}}]}",
            &s);
    vx_mesh_info a = vx_mesh_get_info(collider_of(&s, 0)->mesh), b = vx_mesh_get_info(collider_of(&s, 1)->mesh);
    cr_assert_eq(collider_of(&s, 0)->type, VX_SHAPE_MESH);
    cr_assert_eq(a.triangle_count, 6u, "4 roof faces and a square floor of 2");
    cr_assert_eq(b.triangle_count, 4u);
    cr_assert_eq(a.vertex_count, 5u);
    /* the same roof: the same heights under it */
    for (int i = 0; i < 25; i++) {
        float x = 0.1f + 0.2f * (float)(i % 5), z = 0.1f + 0.2f * (float)(i / 5);
        VX_ASSERT_NEAR(drop(&s, x, z), drop(&s, x + 5.0f, z), 1e-6);
    }
    VX_ASSERT_NEAR(drop(&s, 0.5f, 0.5f), 9.0f, 1e-5);
    vx_scene_destroy(&s);
}

Test(scene_mesh, a_heightfield_is_its_grid_from_the_origin)
{
    vx_scene s;
    load_ok("{\"entities\": [{\"transform\": {\"position\": [1, 2, 3]}, \"collider\": {\"type\": \"heightfield\","
            " \"heights\": [[0, 1, 2], [0.5, 1.5, 2.5]], \"spacing\": [2, 4]}}]}",
            &s);
    const vx_collider *c = collider_of(&s, 0);
    cr_assert_eq(c->type, VX_SHAPE_HEIGHTFIELD);
    vx_mesh_info info = vx_mesh_get_info(c->mesh);
    cr_assert(info.heightfield);
    cr_assert_eq(info.triangle_count, 4u);
    cr_assert_eq(info.vertex_count, 6u);
    /* row 0 column 0 at the entity's origin; heights along +X then +Z */
    VX_ASSERT_NEAR(drop(&s, 1.0f, 3.0f), 10.0f - 2.0f, 1e-5);
    VX_ASSERT_NEAR(drop(&s, 5.0f, 3.0f), 10.0f - 4.0f, 1e-5);
    VX_ASSERT_NEAR(drop(&s, 5.0f, 7.0f), 10.0f - 4.5f, 1e-5);
    /* the middle of cell (0, 0), on its diagonal: halfway from height 0 to 1.5 */
    VX_ASSERT_NEAR(drop(&s, 2.0f, 5.0f), 10.0f - (2.0f + 0.75f), 1e-5);
    vx_scene_destroy(&s);
}

Test(scene_mesh, a_shared_shape_is_one_mesh_and_kinematic_bodies_take_meshes)
{
    vx_scene s;
    load_ok("{\"shapes\": {\"roof\": {\"type\": \"mesh\", \"vertices\": " ROOF_VERTICES ", \"triangles\": " ROOF_TRIANGLES
            "}}, \"entities\": [{\"collider\": \"roof\"},"
            " {\"collider\": \"roof\", \"rigidbody\": {\"type\": \"kinematic\", \"velocity\": [1, 0, 0]}}]}",
            &s);
    cr_assert_eq(collider_of(&s, 0)->mesh, collider_of(&s, 1)->mesh);
    vx_scene_destroy(&s);
}

typedef struct {
    const char *json;
    const char *message; /* after "DIR/" */
} bad_case;

Test(scene_mesh, bad_input_is_named_by_its_path_or_file_and_line)
{
    write_file("square.obj", "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3 4\n");
    write_file("letter.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 x\n");
    write_file("beyond.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n");
    write_file("zero.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\n\nf 0 1 2\n");
    write_file("line.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 0 1\nf 1 2 3 4\n");
    write_file("short.obj", "v 0 0\n");
    write_file("empty.obj", "v 0 0 0\n# nothing else\n");
    const bad_case cases[] = {
        {"{\"entities\": [{\"collider\": {\"type\": \"mesh\", \"obj\": \"square.obj\"}, \"rigidbody\": {\"mass\": 1}}]}",
         "s.json: entities[0].collider: a mesh needs a static or kinematic body; a dynamic body needs a \"convex\" or "
         "\"compound\" collider"},
        {"{\"entities\": [{\"collider\": {\"type\": \"heightfield\", \"heights\": [[0, 0], [0, 0]], \"spacing\": [1, 1]},"
         " \"rigidbody\": {\"type\": \"kinematic\"}}]}",
         "s.json: entities[0].collider: a heightfield needs a static body; a moving body needs a \"convex\" or "
         "\"compound\" collider"},
        {"{\"entities\": [{\"collider\": {\"type\": \"mesh\", \"vertices\": [[0,0,0],[1,0,0],[0,0,1]],"
         " \"triangles\": [[0,1,2],[0,2,3]]}}]}",
         "s.json: entities[0].collider.triangles[1][2]: index 3 is out of range (3 vertices: 0..2)"},
        {"{\"entities\": [{\"collider\": {\"type\": \"mesh\", \"vertices\": [[0,0,0],[1,0,0],[2,0,0]],"
         " \"triangles\": [[0,1,2]]}}]}",
         "s.json: entities[0].collider.triangles[0]: degenerate triangle (its corners are on one line)"},
        {"{\"entities\": [{\"collider\": {\"type\": \"mesh\", \"vertices\": [[0,0,0],[1,0,0],[0,0,1]],"
         " \"triangles\": [[0,1]]}}]}",
         "s.json: entities[0].collider.triangles[0]: must be [i, j, k]: three vertex indices"},
        {"{\"entities\": [{\"collider\": {\"type\": \"mesh\", \"vertices\": [[0,0,0],[1,0,0],[0,0,1]]}}]}",
         "s.json: entities[0].collider.triangles: missing (required for a mesh, with \"vertices\" (or \"obj\"))"},
        {"{\"entities\": [{\"collider\": {\"type\": \"mesh\", \"obj\": \"square.obj\", \"triangles\": []}}]}",
         "s.json: entities[0].collider.obj: give either \"obj\" or \"vertices\" and \"triangles\""},
        {"{\"entities\": [{\"collider\": {\"type\": \"mesh\", \"obj\": \"missing.obj\"}}]}",
         "s.json: entities[0].collider.obj: DIR/missing.obj: cannot read: No such file or directory"},
        {"{\"entities\": [{\"collider\": {\"type\": \"mesh\", \"obj\": \"letter.obj\"}}]}",
         "letter.obj:4: f: expected a vertex index (v, v/vt, v//vn or v/vt/vn), found \"x\""},
        {"{\"entities\": [{\"collider\": {\"type\": \"mesh\", \"obj\": \"beyond.obj\"}}]}",
         "beyond.obj:4: f: vertex index 4 is out of range (3 vertices so far)"},
        {"{\"entities\": [{\"collider\": {\"type\": \"mesh\", \"obj\": \"zero.obj\"}}]}",
         "zero.obj:5: f: vertex index 0 (OBJ counts vertices from 1)"},
        {"{\"entities\": [{\"collider\": {\"type\": \"mesh\", \"obj\": \"line.obj\"}}]}",
         "line.obj:5: f: degenerate triangle (vertices 1, 2, 3 are on one line)"},
        {"{\"entities\": [{\"collider\": {\"type\": \"mesh\", \"obj\": \"short.obj\"}}]}",
         "short.obj:1: v: needs x, y and z"},
        {"{\"entities\": [{\"collider\": {\"type\": \"mesh\", \"obj\": \"empty.obj\"}}]}",
         "empty.obj: no faces (\"f\" lines)"},
        {"{\"entities\": [{\"collider\": {\"type\": \"heightfield\", \"heights\": [[0, 0], [0, 0, 0]], \"spacing\": [1, 1]}}]}",
         "s.json: entities[0].collider.heights[1]: has 3 heights, row 0 has 2 (every row as long)"},
        {"{\"entities\": [{\"collider\": {\"type\": \"heightfield\", \"heights\": [[0, 0]], \"spacing\": [1, 1]}}]}",
         "s.json: entities[0].collider.heights: must have at least 2 rows (1 given)"},
        {"{\"entities\": [{\"collider\": {\"type\": \"heightfield\", \"heights\": [[0, 0], [0, 0]], \"spacing\": [1, 0]}}]}",
         "s.json: entities[0].collider.spacing[1]: must be > 0"},
        {"{\"entities\": [{\"collider\": {\"type\": \"heightfield\", \"heights\": [[0, 0], [0, 0]]}}]}",
         "s.json: entities[0].collider.spacing: missing (required for a heightfield)"},
        {"{\"entities\": [{\"collider\": {\"type\": \"mesh\", \"points\": []}}]}",
         NULL /* an unknown key: the key's own message */},
        {"{\"entities\": [], \"queries\": [{\"type\": \"overlap\", \"shape\": {\"type\": \"mesh\", \"obj\": \"square.obj\"}}]}",
         "s.json: queries[0].shape.type: must be \"sphere\", \"box\", \"capsule\" or \"convex\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        vx_scene s;
        vx_error err;
        cr_assert_neq(load(cases[i].json, &s, &err), VX_OK, "case %zu loaded", i);
        cr_assert_null(s.world, "case %zu: nothing is left", i);
        if (!cases[i].message) continue;
        /* messages start with the directory of the scene (the files are beside it) */
        char want[512], prefix[80];
        snprintf(prefix, sizeof prefix, "%s/", dir);
        const char *m = cases[i].message;
        char expanded[400];
        const char *at = strstr(m, "DIR/");
        if (at) {
            snprintf(expanded, sizeof expanded, "%.*s%s%s", (int)(at - m), m, prefix, at + 4);
            m = expanded;
        }
        snprintf(want, sizeof want, "%s%s", prefix, m);
        cr_assert_str_eq(err.message, want, "case %zu", i);
    }
}
