/* The hull narrow phase (collide_hull.c) against recorded results:
 * fixtures/hull_manifolds.txt holds hulls (their points), pose pairs and the
 * manifolds the implementation gave for them when they were recorded (the
 * fixture's header says which one). vx_collide_hull_hull, _hull_box and
 * _hull_sphere must still give the same hit, point count and feature ids, and
 * normals, depths and points within 1e-5 per m of the case's size (1 m at
 * least: the hulls' reach and the distance of their poses from the origin).
 *
 * The fixture holds the inputs themselves, so the comparison does not
 * depend on how they were made. The generator is below all the same:
 *   VOLTEX_RECORD_HULL_FIXTURE=1 build/dev/tests/physics_collision_test_collide_hull_recorded
 * writes the fixture anew from the implementation in the build (only for a
 * change meant to change results: say so where the fixture is committed). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "physics/body/hull.h"
#include "physics/collision/collide_internal.h"
#include "test_helpers.h"
#include "voltex/collide.h"

#define FIXTURE_PATH VOLTEX_SOURCE_DIR "/tests/physics/collision/fixtures/hull_manifolds.txt"
#define PI_F 3.14159265358979f

#define MAX_HULLS 16
#define MAX_CASES 1024
#define LINE_MAX_CHARS 16384

/* ================= cases ================= */

typedef enum { CASE_HULL_HULL, CASE_HULL_BOX, CASE_HULL_SPHERE } case_kind;

typedef struct {
    case_kind kind;
    int a, b; /* hull indices; b only for hull-hull */
    vx_transform ta, tb;
    vx_vec3 half; /* hull-box: the box's half extents */
    float radius; /* hull-sphere: the sphere (centre tb.position) */
    float margin;
} hull_case;

typedef struct {
    bool hit;
    vx_manifold m;
} result;

typedef struct {
    int hull_count;
    int point_count[MAX_HULLS];
    vx_vec3 points[MAX_HULLS][VX_HULL_MAX_POINTS];
    vx_hull *hulls[MAX_HULLS];
    int case_count;
    hull_case cases[MAX_CASES];
    result expected[MAX_CASES];
} fixture;

static fixture fx; /* large: not on the stack */

static vx_transform place(vx_vec3 position, vx_quat rotation)
{
    vx_transform t;
    memset(&t, 0, sizeof t);
    t.position = position;
    t.rotation = rotation;
    return t;
}

static result run_case(const fixture *f, const hull_case *c)
{
    result r;
    const vx_hull *a = f->hulls[c->a];
    switch (c->kind) {
    case CASE_HULL_HULL:
        r.hit = vx_collide_hull_hull(a, &c->ta, f->hulls[c->b], &c->tb, c->margin, &r.m);
        break;
    case CASE_HULL_BOX:
        r.hit = vx_collide_hull_box(a, &c->ta, &c->tb, c->half, c->margin, &r.m);
        break;
    default:
        r.hit = vx_collide_hull_sphere(a, &c->ta, c->tb.position, c->radius, c->margin, &r.m);
        break;
    }
    return r;
}

static void build_hulls(fixture *f)
{
    for (int h = 0; h < f->hull_count; h++) {
        vx_error err;
        f->hulls[h] = NULL;
        cr_assert_eq(vx_hull_build(f->points[h], (size_t)f->point_count[h], &f->hulls[h], &err), VX_OK,
                     "hull %d: %s", h, err.message);
    }
}

static void destroy_hulls(fixture *f)
{
    for (int h = 0; h < f->hull_count; h++) vx_hull_destroy(f->hulls[h]);
}

/* ================= the generator (recording only) ================= */

static float rnd(vx_test_rng *r, float lo, float hi) { return vx_test_rng_range(r, lo, hi); }

static vx_vec3 random_dir(vx_test_rng *r)
{
    for (;;) {
        vx_vec3 v = vx_test_rng_vec3(r, -1.0f, 1.0f);
        float l = vx_vec3_length_sq(v);
        if (l > 0.01f && l <= 1.0f) return vx_vec3_scale(v, 1.0f / sqrtf(l));
    }
}

static vx_quat random_quat(vx_test_rng *r)
{
    float x = rnd(r, -1, 1), y = rnd(r, -1, 1), z = rnd(r, -1, 1), w = rnd(r, -1, 1);
    return vx_quat_normalize(vx_quat_make(x, y, z, w));
}

static float random_margin(vx_test_rng *r)
{
    static const float margins[4] = {0.0f, 0.01f, 0.05f, 0.2f};
    return margins[vx_test_rng_next(r) % 4u];
}

static int add_hull(fixture *f, const vx_vec3 *pts, int n)
{
    int h = f->hull_count++;
    f->point_count[h] = n;
    memcpy(f->points[h], pts, (size_t)n * sizeof *pts);
    return h;
}

/* The hulls: 32 points on a sphere (twice), a box's corners with 24 points
 * bulging from its faces (twice), a tetrahedron, an icosahedron, a box, a
 * long hexagonal prism, 12 points on a sphere. */
static void make_hulls(fixture *f, vx_test_rng *r)
{
    vx_vec3 pts[VX_HULL_MAX_POINTS];
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 32; i++) pts[i] = vx_vec3_scale(random_dir(r), 0.8f);
        add_hull(f, pts, 32);
    }
    for (int k = 0; k < 2; k++) {
        const float half[3] = {0.6f, 0.35f, 0.45f};
        for (int i = 0; i < 8; i++)
            pts[i] = vx_vec3_make(i & 1 ? half[0] : -half[0], i & 2 ? half[1] : -half[1], i & 4 ? half[2] : -half[2]);
        for (int i = 8; i < 32; i++) {
            int axis = (int)(vx_test_rng_next(r) % 3u);
            float side = (vx_test_rng_next(r) & 1u) ? 1.0f : -1.0f;
            float c[3];
            for (int j = 0; j < 3; j++) c[j] = rnd(r, -half[j], half[j]);
            c[axis] = side * (half[axis] + rnd(r, 0.0f, 0.03f));
            pts[i] = vx_vec3_make(c[0], c[1], c[2]);
        }
        add_hull(f, pts, 32);
    }
    const vx_vec3 tet[4] = {{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.2f, 0.9f, 0.1f}, {0.3f, 0.2f, 0.8f}};
    add_hull(f, tet, 4);
    const float p = 1.6180339887f, k = 0.7f / sqrtf(1.0f + p * p);
    int n = 0;
    for (int s1 = -1; s1 <= 1; s1 += 2)
        for (int s2 = -1; s2 <= 1; s2 += 2) {
            pts[n++] = vx_vec3_make(0.0f, (float)s1 * k, (float)s2 * p * k);
            pts[n++] = vx_vec3_make((float)s1 * k, (float)s2 * p * k, 0.0f);
            pts[n++] = vx_vec3_make((float)s2 * p * k, 0.0f, (float)s1 * k);
        }
    add_hull(f, pts, 12);
    for (int i = 0; i < 8; i++) pts[i] = vx_vec3_make(i & 1 ? 0.5f : -0.5f, i & 2 ? 0.3f : -0.3f, i & 4 ? 0.4f : -0.4f);
    add_hull(f, pts, 8);
    for (int i = 0; i < 6; i++) {
        float a = (float)i * PI_F / 3.0f;
        pts[2 * i] = vx_vec3_make(0.3f * cosf(a), 0.3f * sinf(a), -1.0f);
        pts[2 * i + 1] = vx_vec3_make(0.3f * cosf(a), 0.3f * sinf(a), 1.0f);
    }
    add_hull(f, pts, 12);
    for (int i = 0; i < 12; i++) pts[i] = vx_vec3_scale(random_dir(r), 0.5f);
    add_hull(f, pts, 12);
}

/* The world centroid of hull h placed by t. */
static vx_vec3 world_centroid(const vx_hull *h, const vx_transform *t)
{
    return vx_vec3_add(t->position, vx_quat_rotate(vx_quat_normalize(t->rotation), h->centroid));
}

static float hull_extent(const vx_hull *h) { return vx_vec3_length(vx_vec3_sub(h->bounds.max, h->bounds.min)); }

/* b's pose (rotation qb) with its centroid at a's plus off; for a box or a
 * sphere (hb NULL) its position is its centre. */
static vx_transform pose_near(const vx_hull *ha, const vx_transform *ta, const vx_hull *hb, vx_quat qb, vx_vec3 off)
{
    vx_vec3 cb = vx_vec3_add(world_centroid(ha, ta), off);
    if (hb) cb = vx_vec3_sub(cb, vx_quat_rotate(qb, hb->centroid));
    return place(cb, qb);
}

/* c with b moved along dir from a's centroid to where the contact begins
 * (by bisection on the hit at margin 0), then by slide further. */
static void slide_to_contact(const fixture *f, hull_case *c, vx_vec3 dir, float slide)
{
    const vx_hull *ha = f->hulls[c->a], *hb = c->kind == CASE_HULL_HULL ? f->hulls[c->b] : NULL;
    float lo = 0.0f, hi = 8.0f;
    float saved = c->margin;
    c->margin = 0.0f;
    for (int it = 0; it < 40; it++) {
        float mid = 0.5f * (lo + hi);
        c->tb = pose_near(ha, &c->ta, hb, c->tb.rotation, vx_vec3_scale(dir, mid));
        if (run_case(f, c).hit) lo = mid;
        else hi = mid;
    }
    c->margin = saved;
    c->tb = pose_near(ha, &c->ta, hb, c->tb.rotation, vx_vec3_scale(dir, lo + slide));
}

/* The rotation turning unit u onto unit v (a half turn about a perpendicular
 * axis when they are opposite). */
static vx_quat turn_onto(vx_vec3 u, vx_vec3 v)
{
    vx_vec3 axis = vx_vec3_cross(u, v);
    float s = vx_vec3_length(axis), c = vx_vec3_dot(u, v);
    if (s > 1e-6f) return vx_quat_from_axis_angle(vx_vec3_scale(axis, 1.0f / s), atan2f(s, c));
    if (c > 0.0f) return vx_quat_identity();
    vx_vec3 other = fabsf(u.x) < 0.9f ? vx_vec3_make(1, 0, 0) : vx_vec3_make(0, 1, 0);
    return vx_quat_from_axis_angle(vx_vec3_normalize(vx_vec3_cross(u, other)), PI_F);
}

static vx_vec3 face_middle(const vx_hull *h, int face)
{
    vx_vec3 m = vx_vec3_zero();
    int e = h->faces[face].first_edge;
    for (int i = 0; i < h->faces[face].edge_count; i++, e = h->edges[e].next)
        m = vx_vec3_add(m, h->vertices[h->edges[e].origin]);
    return vx_vec3_scale(m, 1.0f / (float)h->faces[face].edge_count);
}

/* b's face fb resting on a's face fa (a at ta), turned by spin about the
 * normal, sunk by sink. */
static vx_transform resting_pose(const vx_hull *ha, const vx_transform *ta, int fa, const vx_hull *hb, int fb,
                                 float spin, float sink, vx_vec3 shift)
{
    vx_quat qa = vx_quat_normalize(ta->rotation);
    vx_vec3 n = vx_quat_rotate(qa, ha->faces[fa].normal);
    vx_quat q = turn_onto(hb->faces[fb].normal, vx_vec3_neg(n));
    q = vx_quat_mul(vx_quat_from_axis_angle(n, spin), q);
    vx_vec3 top = vx_vec3_add(vx_vec3_add(ta->position, vx_quat_rotate(qa, face_middle(ha, fa))), shift);
    vx_vec3 pos = vx_vec3_sub(vx_vec3_add(top, vx_vec3_scale(n, -sink)), vx_quat_rotate(q, face_middle(hb, fb)));
    return place(pos, q);
}

/* A new case of that kind, its hull (and for hull-hull the second one)
 * drawn at random. */
static hull_case *new_case(fixture *f, case_kind kind, vx_test_rng *r)
{
    hull_case *c = &f->cases[f->case_count++];
    c->kind = kind;
    c->a = (int)(vx_test_rng_next(r) % (uint32_t)f->hull_count);
    if (kind == CASE_HULL_HULL) c->b = (int)(vx_test_rng_next(r) % (uint32_t)f->hull_count);
    return c;
}

static void generate(fixture *f)
{
    vx_test_rng r = {0x4B1Du};
    memset(f, 0, sizeof *f);
    make_hulls(f, &r);
    build_hulls(f);
    /* hull-hull at random offsets: deep, touching or apart */
    for (int k = 0; k < 120; k++) {
        hull_case *c = new_case(f, CASE_HULL_HULL, &r);
        c->ta = place(vx_test_rng_vec3(&r, -2.0f, 2.0f), random_quat(&r));
        float size = 0.5f * (hull_extent(f->hulls[c->a]) + hull_extent(f->hulls[c->b]));
        vx_vec3 off = vx_vec3_scale(random_dir(&r), rnd(&r, 0.0f, 1.1f) * size);
        c->tb = pose_near(f->hulls[c->a], &c->ta, f->hulls[c->b], random_quat(&r), off);
        c->margin = random_margin(&r);
    }
    /* hull-hull touching: from 2 cm into each other to 1 cm apart */
    for (int k = 0; k < 120; k++) {
        hull_case *c = new_case(f, CASE_HULL_HULL, &r);
        c->ta = place(vx_test_rng_vec3(&r, -2.0f, 2.0f), random_quat(&r));
        c->tb.rotation = random_quat(&r);
        c->margin = random_margin(&r);
        vx_vec3 dir = random_dir(&r);
        slide_to_contact(f, c, dir, rnd(&r, -0.02f, 0.01f));
    }
    /* hull-hull resting face on face: a at rest or turned, spins of none, a
     * quarter turn or any, sunk 0, 1 mm or 1 cm, shifted a little or not */
    for (int k = 0; k < 80; k++) {
        hull_case *c = new_case(f, CASE_HULL_HULL, &r);
        const vx_hull *ha = f->hulls[c->a], *hb = f->hulls[c->b];
        c->ta = place(vx_test_rng_vec3(&r, -2.0f, 2.0f), k % 2 ? random_quat(&r) : vx_quat_identity());
        int fa = (int)(vx_test_rng_next(&r) % ha->face_count), fb = (int)(vx_test_rng_next(&r) % hb->face_count);
        static const float sinks[3] = {0.0f, 1e-3f, 1e-2f};
        float sink = sinks[vx_test_rng_next(&r) % 3u];
        uint32_t spin_kind = vx_test_rng_next(&r) % 3u;
        float spin = spin_kind == 0 ? 0.0f : (spin_kind == 1 ? 0.5f * PI_F : rnd(&r, 0.0f, 2.0f * PI_F));
        vx_vec3 shift = vx_test_rng_next(&r) % 2u ? vx_vec3_zero() : vx_test_rng_vec3(&r, -0.05f, 0.05f);
        c->tb = resting_pose(ha, &c->ta, fa, hb, fb, spin, sink, shift);
        c->margin = random_margin(&r);
    }
    /* hull-box: touching along a random direction, and resting on a face */
    for (int k = 0; k < 80; k++) {
        hull_case *c = new_case(f, CASE_HULL_BOX, &r);
        c->half = vx_test_rng_vec3(&r, 0.1f, 0.8f);
        c->ta = place(vx_test_rng_vec3(&r, -2.0f, 2.0f), k % 4 == 3 ? vx_quat_identity() : random_quat(&r));
        c->margin = random_margin(&r);
        if (k % 4 == 3) {
            /* the box flat on the hull's face, turned about its normal */
            const vx_hull *ha = f->hulls[c->a];
            int fa = (int)(vx_test_rng_next(&r) % ha->face_count);
            vx_vec3 n = ha->faces[fa].normal;
            vx_quat q = vx_quat_mul(vx_quat_from_axis_angle(n, rnd(&r, 0.0f, PI_F)),
                                    turn_onto(vx_vec3_make(0, -1, 0), n));
            vx_vec3 pos = vx_vec3_add(vx_vec3_add(c->ta.position, face_middle(ha, fa)),
                                      vx_vec3_scale(n, c->half.y - rnd(&r, 0.0f, 0.01f)));
            c->tb = place(pos, q);
        } else {
            c->tb.rotation = random_quat(&r);
            vx_vec3 dir = random_dir(&r);
            slide_to_contact(f, c, dir, rnd(&r, -0.02f, 0.01f));
        }
    }
    /* hull-sphere: around the hull, the centre inside it at times */
    for (int k = 0; k < 100; k++) {
        hull_case *c = new_case(f, CASE_HULL_SPHERE, &r);
        c->ta = place(vx_test_rng_vec3(&r, -2.0f, 2.0f), random_quat(&r));
        c->radius = rnd(&r, 0.05f, 0.6f);
        vx_vec3 off = vx_vec3_scale(random_dir(&r), rnd(&r, 0.0f, 1.2f) + c->radius);
        c->tb = place(vx_vec3_add(world_centroid(f->hulls[c->a], &c->ta), off), vx_quat_identity());
        c->margin = random_margin(&r);
    }
    cr_assert_leq(f->case_count, MAX_CASES);
    for (int k = 0; k < f->case_count; k++) f->expected[k] = run_case(f, &f->cases[k]);
}

/* ================= the file ================= */

static void put_float(FILE *out, float v) { fprintf(out, " %.9g", (double)v); }
static void put_vec3(FILE *out, vx_vec3 v)
{
    put_float(out, v.x);
    put_float(out, v.y);
    put_float(out, v.z);
}
static void put_pose(FILE *out, const vx_transform *t)
{
    put_vec3(out, t->position);
    put_float(out, t->rotation.x);
    put_float(out, t->rotation.y);
    put_float(out, t->rotation.z);
    put_float(out, t->rotation.w);
}

static const char *const kind_names[3] = {"hh", "hb", "hs"};

static void write_fixture(const fixture *f, const char *path)
{
    FILE *out = fopen(path, "w");
    cr_assert_not_null(out, "cannot write %s", path);
    fprintf(out, "# Hull contact manifolds for tests/physics/collision/test_collide_hull_recorded.c, recorded\n"
                 "# from the hull narrow phase (src/physics/collision/collide_hull.c) as it stood before its\n"
                 "# SAT was made faster (the straightforward version: every face against every vertex, every\n"
                 "# edge pair through the Gauss-map test).\n"
                 "# hull <index> <point count> <x y z>...: the points a hull is built from.\n"
                 "# hh <hull a> <hull b> <pose a> <pose b> <margin>, hb <hull> <pose> <box pose> <half extents>\n"
                 "# <margin>, hs <hull> <pose> <sphere centre> <radius> <margin> (a pose: position, quaternion\n"
                 "# x y z w); then \"=\" and the hit (0 or 1), and on a hit the normal, the count and per point\n"
                 "# point_a, point_b, depth and the feature id in hex.\n");
    for (int h = 0; h < f->hull_count; h++) {
        fprintf(out, "hull %d %d", h, f->point_count[h]);
        for (int i = 0; i < f->point_count[h]; i++) put_vec3(out, f->points[h][i]);
        fprintf(out, "\n");
    }
    for (int k = 0; k < f->case_count; k++) {
        const hull_case *c = &f->cases[k];
        fprintf(out, "%s %d", kind_names[c->kind], c->a);
        if (c->kind == CASE_HULL_HULL) fprintf(out, " %d", c->b);
        put_pose(out, &c->ta);
        if (c->kind == CASE_HULL_SPHERE) {
            put_vec3(out, c->tb.position);
            put_float(out, c->radius);
        } else {
            put_pose(out, &c->tb);
            if (c->kind == CASE_HULL_BOX) put_vec3(out, c->half);
        }
        put_float(out, c->margin);
        const result *res = &f->expected[k];
        fprintf(out, " = %d", res->hit ? 1 : 0);
        if (res->hit) {
            put_vec3(out, res->m.normal);
            fprintf(out, " %d", res->m.count);
            for (int i = 0; i < res->m.count; i++) {
                put_vec3(out, res->m.points[i].point_a);
                put_vec3(out, res->m.points[i].point_b);
                put_float(out, res->m.points[i].depth);
                fprintf(out, " %x", res->m.points[i].feature);
            }
        }
        fprintf(out, "\n");
    }
    cr_assert_eq(fclose(out), 0);
}

/* A cursor over one line's words. */
typedef struct {
    char *p;
    int line;
    bool ok;
} cursor;

static float get_float(cursor *c)
{
    char *end;
    float v = strtof(c->p, &end);
    if (end == c->p) c->ok = false;
    c->p = end;
    return v;
}

static long get_int(cursor *c, int base)
{
    char *end;
    long v = strtol(c->p, &end, base);
    if (end == c->p) c->ok = false;
    c->p = end;
    return v;
}

static vx_vec3 get_vec3(cursor *c)
{
    float x = get_float(c), y = get_float(c), z = get_float(c);
    return vx_vec3_make(x, y, z);
}

static vx_transform get_pose(cursor *c)
{
    vx_vec3 p = get_vec3(c);
    float x = get_float(c), y = get_float(c), z = get_float(c), w = get_float(c);
    return place(p, vx_quat_make(x, y, z, w));
}

static int get_hull_index(cursor *c, const fixture *f)
{
    long h = get_int(c, 10);
    if (h < 0 || h >= f->hull_count) c->ok = false;
    return c->ok ? (int)h : 0;
}

static void read_fixture(fixture *f)
{
    FILE *in = fopen(FIXTURE_PATH, "r");
    cr_assert_not_null(in, "cannot open the fixture %s", FIXTURE_PATH);
    memset(f, 0, sizeof *f);
    static char buf[LINE_MAX_CHARS];
    int line = 0;
    while (fgets(buf, sizeof buf, in)) {
        line++;
        size_t len = strlen(buf);
        cr_assert(len > 0 && buf[len - 1] == '\n', "%s:%d: line too long or unterminated", FIXTURE_PATH, line);
        if (buf[0] == '#' || buf[0] == '\n') continue;
        cursor c = {buf, line, true};
        if (strncmp(buf, "hull ", 5) == 0) {
            c.p = buf + 5;
            long h = get_int(&c, 10), n = get_int(&c, 10);
            cr_assert(c.ok && h == f->hull_count && h < MAX_HULLS && n >= 4 && n <= VX_HULL_MAX_POINTS,
                      "%s:%d: a bad hull line", FIXTURE_PATH, line);
            vx_vec3 pts[VX_HULL_MAX_POINTS];
            for (int i = 0; i < n; i++) pts[i] = get_vec3(&c);
            cr_assert(c.ok, "%s:%d: a bad hull line", FIXTURE_PATH, line);
            add_hull(f, pts, (int)n);
            continue;
        }
        cr_assert_lt(f->case_count, MAX_CASES, "%s: too many cases", FIXTURE_PATH);
        hull_case *hc = &f->cases[f->case_count];
        int kind = -1;
        for (int k = 0; k < 3; k++)
            if (strncmp(buf, kind_names[k], 2) == 0 && buf[2] == ' ') kind = k;
        cr_assert(kind >= 0, "%s:%d: neither a hull nor a case", FIXTURE_PATH, line);
        c.p = buf + 3;
        hc->kind = (case_kind)kind;
        hc->a = get_hull_index(&c, f);
        if (kind == CASE_HULL_HULL) hc->b = get_hull_index(&c, f);
        hc->ta = get_pose(&c);
        if (kind == CASE_HULL_SPHERE) {
            hc->tb = place(get_vec3(&c), vx_quat_identity());
            hc->radius = get_float(&c);
        } else {
            hc->tb = get_pose(&c);
            if (kind == CASE_HULL_BOX) hc->half = get_vec3(&c);
        }
        hc->margin = get_float(&c);
        while (*c.p == ' ') c.p++;
        cr_assert(c.ok && *c.p == '=', "%s:%d: a bad case line", FIXTURE_PATH, line);
        c.p++;
        result *res = &f->expected[f->case_count];
        res->hit = get_int(&c, 10) != 0;
        vx_manifold_reset(&res->m);
        if (res->hit) {
            res->m.normal = get_vec3(&c);
            long count = get_int(&c, 10);
            cr_assert(c.ok && count >= 1 && count <= VX_MANIFOLD_MAX_POINTS, "%s:%d: a bad count", FIXTURE_PATH,
                      line);
            res->m.count = (int)count;
            for (int i = 0; i < count; i++) {
                res->m.points[i].point_a = get_vec3(&c);
                res->m.points[i].point_b = get_vec3(&c);
                res->m.points[i].depth = get_float(&c);
                res->m.points[i].feature = (uint32_t)get_int(&c, 16);
            }
        }
        while (*c.p == ' ') c.p++;
        cr_assert(c.ok && *c.p == '\n', "%s:%d: a bad case line", FIXTURE_PATH, line);
        f->case_count++;
    }
    fclose(in);
}

/* ================= the comparison ================= */

static float case_scale(const fixture *f, const hull_case *c)
{
    float s = 1.0f;
    s = fmaxf(s, vx_vec3_length(c->ta.position) + vx_vec3_length(c->tb.position));
    s = fmaxf(s, hull_extent(f->hulls[c->a]) + (c->kind == CASE_HULL_HULL ? hull_extent(f->hulls[c->b]) : 0.0f));
    return s;
}

static float vec3_diff(vx_vec3 a, vx_vec3 b) { return vx_vec3_length(vx_vec3_sub(a, b)); }

static bool recording(void)
{
    const char *v = getenv("VOLTEX_RECORD_HULL_FIXTURE");
    return v && strcmp(v, "1") == 0;
}

Test(collide_hull_recorded, the_same_manifolds_as_recorded)
{
    if (recording()) {
        generate(&fx);
        write_fixture(&fx, FIXTURE_PATH);
        printf("recorded %d cases of %d hulls in %s\n", fx.case_count, fx.hull_count, FIXTURE_PATH);
        destroy_hulls(&fx);
        return;
    }
    read_fixture(&fx);
    build_hulls(&fx);
    cr_assert_geq(fx.case_count, 400, "the fixture has %d cases", fx.case_count);
    int hits[3] = {0, 0, 0}, identical = 0, edge = 0;
    float worst = 0.0f;
    for (int k = 0; k < fx.case_count; k++) {
        const hull_case *c = &fx.cases[k];
        const result *want = &fx.expected[k];
        result got = run_case(&fx, c);
        cr_assert_eq(got.hit, want->hit, "case %d (%s): hit %d, recorded %d", k, kind_names[c->kind], got.hit,
                     want->hit);
        if (!got.hit) {
            identical++;
            continue;
        }
        hits[c->kind]++;
        cr_assert_eq(got.m.count, want->m.count, "case %d (%s): %d points, recorded %d", k, kind_names[c->kind],
                     got.m.count, want->m.count);
        float tol = 1e-5f * case_scale(&fx, c);
        float dev = vec3_diff(got.m.normal, want->m.normal);
        cr_assert_leq(dev, 1e-5f, "case %d (%s): normal off by %g", k, kind_names[c->kind], (double)dev);
        for (int i = 0; i < got.m.count; i++) {
            const vx_manifold_point *g = &got.m.points[i], *w = &want->m.points[i];
            cr_assert_eq(g->feature, w->feature, "case %d (%s) point %d: feature %x, recorded %x", k,
                         kind_names[c->kind], i, g->feature, w->feature);
            float d = fmaxf(fabsf(g->depth - w->depth), fmaxf(vec3_diff(g->point_a, w->point_a),
                                                              vec3_diff(g->point_b, w->point_b)));
            cr_assert_leq(d, tol, "case %d (%s) point %d: off by %g (allowed %g)", k, kind_names[c->kind], i,
                          (double)d, (double)tol);
            dev = fmaxf(dev, d / tol * 1e-5f);
        }
        if ((got.m.points[0].feature >> VX_FEATURE_KIND_SHIFT) == VX_FEATURE_KIND_HULL_EDGE) edge++;
        worst = fmaxf(worst, dev);
        if (memcmp(&got.m, &want->m, sizeof got.m) == 0) identical++;
    }
    printf("hull recorded: %d cases (hits: %d hull-hull, %d of them edge-edge, %d hull-box, %d hull-sphere), %d the "
           "same bits, largest difference %.2g per m\n",
           fx.case_count, hits[CASE_HULL_HULL], edge, hits[CASE_HULL_BOX], hits[CASE_HULL_SPHERE], identical,
           (double)worst);
    /* the fixture must exercise every kind, edge contacts included */
    cr_assert_gt(hits[CASE_HULL_HULL], 150);
    cr_assert_gt(hits[CASE_HULL_BOX], 40);
    cr_assert_gt(hits[CASE_HULL_SPHERE], 30);
    cr_assert_gt(edge, 10);
    destroy_hulls(&fx);
}
