/* bench/bench_collide_hull: nanoseconds per call of the hull narrow phase
 * (src/physics/collision/collide_hull.c), for measuring a change to it.
 * Built only with -DVOLTEX_BENCH_COLLIDE=ON; no test runs it.
 *
 * Cases: two 32-point hulls (points on a unit sphere, or a box's corners
 * and points bulging from its faces) touching (the second moved along a
 * random direction until their separating-axis distance, found by brute
 * force, is between -2 cm and +1 cm), separated (10 to 50 cm) and deep
 * (-50 to -30 cm, -30 to -20 cm for the box-like ones), a hull against a
 * box touching, a hull against a sphere touching one of its faces. Each case has POSES random pose pairs made once; one sample
 * runs them all, many times over, and gives the time per call; the program
 * prints the median, the fastest and the slowest of its samples per case.
 *
 *   bench_collide_hull [samples] [--case NAME]
 *
 * Times are the thread's CPU time. The machine it is run on is usually
 * shared: compare two builds by running them one after the other several
 * times, and compare medians. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_rng.h"
#include "physics/body/hull.h"
#include "physics/collision/collide_internal.h"

#define POSES 64
#define HULL_POINTS 32
/* calls in one sample: about 20 ms at the old speed of hull-hull */
#define CALLS_PER_SAMPLE 4096


static vx_vec3 rng_dir(vx_bench_rng *r)
{
    for (;;) {
        float x = vx_bench_rng_range(r, -1.0f, 1.0f), y = vx_bench_rng_range(r, -1.0f, 1.0f);
        float z = vx_bench_rng_range(r, -1.0f, 1.0f);
        vx_vec3 v = vx_vec3_make(x, y, z);
        float l = vx_vec3_length_sq(v);
        if (l > 0.01f && l <= 1.0f) return vx_vec3_scale(v, 1.0f / sqrtf(l));
    }
}

static vx_quat rng_quat(vx_bench_rng *r)
{
    float x = vx_bench_rng_range(r, -1.0f, 1.0f), y = vx_bench_rng_range(r, -1.0f, 1.0f);
    float z = vx_bench_rng_range(r, -1.0f, 1.0f), w = vx_bench_rng_range(r, -1.0f, 1.0f);
    return vx_quat_normalize(vx_quat_make(x, y, z, w));
}

static vx_hull *build_or_die(const vx_vec3 *pts, size_t n)
{
    vx_hull *h = NULL;
    vx_error err;
    if (vx_hull_build(pts, n, &h, &err) != VX_OK) {
        fprintf(stderr, "bench_collide_hull: hull build failed: %s\n", err.message);
        exit(1);
    }
    return h;
}

/* 32 random points on the unit sphere. */
static vx_hull *sphere_hull(vx_bench_rng *r)
{
    vx_vec3 pts[HULL_POINTS];
    for (int i = 0; i < HULL_POINTS; i++) pts[i] = rng_dir(r);
    return build_or_die(pts, HULL_POINTS);
}

/* The 8 corners of a 1.2 x 0.8 x 1.0 box and 24 random points on its
 * faces, each pushed out by up to 2 cm: a box with bevelled faces. */
static vx_hull *boxy_hull(vx_bench_rng *r)
{
    const float half[3] = {0.6f, 0.4f, 0.5f};
    vx_vec3 pts[HULL_POINTS];
    for (int i = 0; i < 8; i++)
        pts[i] = vx_vec3_make(i & 1 ? half[0] : -half[0], i & 2 ? half[1] : -half[1], i & 4 ? half[2] : -half[2]);
    for (int i = 8; i < HULL_POINTS; i++) {
        int axis = (int)(vx_bench_rng_next(r) % 3u);
        float side = vx_bench_rng_next(r) & 1u ? 1.0f : -1.0f;
        float c[3];
        for (int k = 0; k < 3; k++) c[k] = vx_bench_rng_range(r, -half[k], half[k]);
        c[axis] = side * (half[axis] + vx_bench_rng_range(r, 0.0f, 0.02f));
        pts[i] = vx_vec3_make(c[0], c[1], c[2]);
    }
    return build_or_die(pts, HULL_POINTS);
}

typedef struct {
    vx_transform ta, tb;
} pose_pair;

/* World vertices of h placed by t. */
static void place_vertices(const vx_hull *h, const vx_transform *t, vx_vec3 *out)
{
    for (int i = 0; i < h->vertex_count; i++) out[i] = vx_vec3_add(t->position, vx_quat_rotate(t->rotation, h->vertices[i]));
}

static void project(const vx_vec3 *v, int n, vx_vec3 axis, float *lo, float *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        float s = vx_vec3_dot(axis, v[i]);
        if (s < *lo) *lo = s;
        if (s > *hi) *hi = s;
    }
}

/* The separating-axis distance of a and b as b slides along d (brute force,
 * every face normal and every edge pair): per axis the projections at
 * slide 0 and how fast b's move. */
typedef struct {
    int count;
    float *a_lo, *a_hi, *b_lo, *b_hi, *speed;
} sat_axes;

static void sat_axes_add(sat_axes *s, vx_vec3 axis, const vx_vec3 *va, int na, const vx_vec3 *vb, int nb, vx_vec3 d)
{
    int k = s->count++;
    project(va, na, axis, &s->a_lo[k], &s->a_hi[k]);
    project(vb, nb, axis, &s->b_lo[k], &s->b_hi[k]);
    s->speed[k] = vx_vec3_dot(axis, d);
}

static float sat_at(const sat_axes *s, float slide)
{
    float best = -INFINITY;
    for (int k = 0; k < s->count; k++) {
        float m = s->speed[k] * slide;
        float sep = fmaxf(s->b_lo[k] + m - s->a_hi[k], s->a_lo[k] - (s->b_hi[k] + m));
        best = fmaxf(best, sep);
    }
    return best;
}

/* a at a random pose near the origin, b turned at random and moved from a's
 * position along a random direction d until the separating-axis distance of
 * the two is gap (b NULL: a sphere of that radius, gap above the middle of
 * one of a's faces). */
static pose_pair make_pair(vx_bench_rng *r, const vx_hull *a, const vx_hull *b, float radius, float gap)
{
    pose_pair p;
    memset(&p, 0, sizeof p);
    p.ta.position = vx_vec3_make(vx_bench_rng_range(r, -2.0f, 2.0f), vx_bench_rng_range(r, -2.0f, 2.0f), vx_bench_rng_range(r, -2.0f, 2.0f));
    p.ta.rotation = rng_quat(r);
    p.tb.rotation = rng_quat(r);
    vx_vec3 d = rng_dir(r);
    static vx_vec3 va[VX_HULL_MAX_POINTS], vb[VX_HULL_MAX_POINTS];
    place_vertices(a, &p.ta, va);
    if (!b) {
        /* over the middle of a random face of a */
        const vx_hull_face *f = &a->faces[vx_bench_rng_next(r) % a->face_count];
        vx_vec3 mid = vx_vec3_zero();
        int e = f->first_edge;
        for (int k = 0; k < f->edge_count; k++, e = a->edges[e].next) mid = vx_vec3_add(mid, va[a->edges[e].origin]);
        mid = vx_vec3_scale(mid, 1.0f / (float)f->edge_count);
        vx_vec3 n = vx_quat_rotate(p.ta.rotation, f->normal);
        p.tb.position = vx_vec3_add(mid, vx_vec3_scale(n, radius + gap));
        return p;
    }
    p.tb.position = p.ta.position;
    place_vertices(b, &p.tb, vb);
    int ea = a->edge_count / 2, eb = b->edge_count / 2;
    size_t cap = (size_t)(a->face_count + b->face_count + ea * eb);
    sat_axes s = {0, malloc(cap * sizeof(float)), malloc(cap * sizeof(float)), malloc(cap * sizeof(float)),
                  malloc(cap * sizeof(float)), malloc(cap * sizeof(float))};
    if (!s.a_lo || !s.a_hi || !s.b_lo || !s.b_hi || !s.speed) exit(1);
    for (int f = 0; f < a->face_count; f++)
        sat_axes_add(&s, vx_quat_rotate(p.ta.rotation, a->faces[f].normal), va, a->vertex_count, vb, b->vertex_count, d);
    for (int f = 0; f < b->face_count; f++)
        sat_axes_add(&s, vx_quat_rotate(p.tb.rotation, b->faces[f].normal), va, a->vertex_count, vb, b->vertex_count, d);
    for (int i = 0; i < ea; i++) {
        vx_vec3 da = vx_vec3_sub(va[a->edges[2 * i + 1].origin], va[a->edges[2 * i].origin]);
        for (int j = 0; j < eb; j++) {
            vx_vec3 db = vx_vec3_sub(vb[b->edges[2 * j + 1].origin], vb[b->edges[2 * j].origin]);
            vx_vec3 n = vx_vec3_cross(da, db);
            float l = vx_vec3_length(n);
            if (l > 1e-3f * vx_vec3_length(da) * vx_vec3_length(db))
                sat_axes_add(&s, vx_vec3_scale(n, 1.0f / l), va, a->vertex_count, vb, b->vertex_count, d);
        }
    }
    /* bisection: the distance grows with the slide once b is out along d */
    float lo = 0.0f, hi = 8.0f;
    for (int it = 0; it < 40; it++) {
        float mid = 0.5f * (lo + hi);
        if (sat_at(&s, mid) < gap) lo = mid;
        else hi = mid;
    }
    p.tb.position = vx_vec3_add(p.ta.position, vx_vec3_scale(d, hi));
    free(s.a_lo);
    free(s.a_hi);
    free(s.b_lo);
    free(s.b_hi);
    free(s.speed);
    return p;
}

/* The thread's CPU time: on a shared machine the time the thread waited for
 * a core does not count. */
static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int compare_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

typedef enum { PAIR_HULL_HULL, PAIR_HULL_BOX, PAIR_HULL_SPHERE } pair_kind;

typedef struct {
    const char *name;
    pair_kind kind;
    const vx_hull *a, *b;
    float gap_lo, gap_hi;
    pose_pair poses[POSES];
    int hits;
} bench_case;

static const vx_vec3 box_half = {0.5f, 0.3f, 0.4f};
#define SPHERE_RADIUS 0.4f

static bool run_one(const bench_case *c, int k, vx_manifold *m)
{
    const pose_pair *p = &c->poses[k];
    switch (c->kind) {
    case PAIR_HULL_HULL:
        return vx_collide_hull_hull(c->a, &p->ta, c->b, &p->tb, 0.01f, m);
    case PAIR_HULL_BOX:
        return vx_collide_hull_box(c->a, &p->ta, &p->tb, box_half, 0.01f, m);
    case PAIR_HULL_SPHERE:
        return vx_collide_hull_sphere(c->a, &p->ta, p->tb.position, SPHERE_RADIUS, 0.01f, m);
    }
    return false;
}

static void setup(bench_case *c, vx_bench_rng *r, const vx_hull *box_as_hull)
{
    const vx_hull *b = c->kind == PAIR_HULL_BOX ? box_as_hull : (c->kind == PAIR_HULL_SPHERE ? NULL : c->b);
    c->hits = 0;
    for (int k = 0; k < POSES; k++) {
        c->poses[k] = make_pair(r, c->a, b, SPHERE_RADIUS, vx_bench_rng_range(r, c->gap_lo, c->gap_hi));
        vx_manifold m;
        c->hits += run_one(c, k, &m) ? 1 : 0;
    }
}

int main(int argc, char **argv)
{
    int samples = 15;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--case") == 0 && i + 1 < argc) only = argv[++i];
        else if (atoi(argv[i]) > 0) samples = atoi(argv[i]);
        else {
            fprintf(stderr, "usage: bench_collide_hull [samples] [--case NAME]\n");
            return 2;
        }
    }

    vx_bench_rng r = {0xC0111DEu};
    vx_hull *sph_a = sphere_hull(&r), *sph_b = sphere_hull(&r);
    vx_hull *box_a = boxy_hull(&r), *box_b = boxy_hull(&r);
    /* the box as a hull, for placing it (its extents) */
    vx_vec3 corners[8];
    for (int i = 0; i < 8; i++)
        corners[i] = vx_vec3_make(i & 1 ? box_half.x : -box_half.x, i & 2 ? box_half.y : -box_half.y,
                                  i & 4 ? box_half.z : -box_half.z);
    vx_hull *box_as_hull = build_or_die(corners, 8);

    static const struct {
        const char *name;
        pair_kind kind;
        float gap_lo, gap_hi;
    } specs[] = {
        {"sphere32_touching", PAIR_HULL_HULL, -0.02f, 0.01f},   {"sphere32_separated", PAIR_HULL_HULL, 0.1f, 0.5f},
        {"sphere32_deep", PAIR_HULL_HULL, -0.5f, -0.3f},        {"boxy32_touching", PAIR_HULL_HULL, -0.02f, 0.01f},
        {"boxy32_deep", PAIR_HULL_HULL, -0.3f, -0.2f},          {"sphere32_box_touching", PAIR_HULL_BOX, -0.02f, 0.01f},
        {"sphere32_ball_touching", PAIR_HULL_SPHERE, -0.02f, 0.01f},
    };
    enum { n_cases = (int)(sizeof specs / sizeof specs[0]) };
    static bench_case cases[n_cases];
    for (int c = 0; c < n_cases; c++) {
        bool boxy = strncmp(specs[c].name, "boxy", 4) == 0;
        cases[c].name = specs[c].name;
        cases[c].kind = specs[c].kind;
        cases[c].gap_lo = specs[c].gap_lo;
        cases[c].gap_hi = specs[c].gap_hi;
        cases[c].a = boxy ? box_a : sph_a;
        cases[c].b = boxy ? box_b : sph_b;
        setup(&cases[c], &r, box_as_hull);
    }

    printf("hull faces/edges/vertices: sphere32 %d/%d/%d, boxy32 %d/%d/%d\n", sph_a->face_count,
           sph_a->edge_count / 2, sph_a->vertex_count, box_a->face_count, box_a->edge_count / 2,
           box_a->vertex_count);
    printf("%-24s %5s %10s %10s %10s\n", "case", "hits", "median_ns", "min_ns", "max_ns");
    double *t = malloc((size_t)samples * sizeof *t);
    if (!t) return 1;
    unsigned sink = 0;
    for (int c = 0; c < n_cases; c++) {
        if (only && strcmp(only, cases[c].name) != 0) continue;
        for (int s = 0; s < samples; s++) {
            double t0 = now_ns();
            for (int i = 0; i < CALLS_PER_SAMPLE; i++) {
                vx_manifold m;
                sink += run_one(&cases[c], i % POSES, &m) ? (unsigned)m.count : 0u;
            }
            t[s] = (now_ns() - t0) / CALLS_PER_SAMPLE;
        }
        qsort(t, (size_t)samples, sizeof *t, compare_double);
        printf("%-24s %2d/%2d %10.0f %10.0f %10.0f\n", cases[c].name, cases[c].hits, POSES, t[samples / 2], t[0],
               t[samples - 1]);
    }
    printf("(checksum %u)\n", sink);
    free(t);
    vx_hull_destroy(sph_a);
    vx_hull_destroy(sph_b);
    vx_hull_destroy(box_a);
    vx_hull_destroy(box_b);
    vx_hull_destroy(box_as_hull);
    return 0;
}
