/* The world's queries (voltex/query.h) in a crowd of 4096 bodies: spheres,
 * boxes, capsules, convex hulls and compounds, turned at random. Random rays
 * and sphere casts through the query tree give exactly what a loop over
 * every body gives (the nearest hit, and every hit in order of distance then
 * entity index, to the bit), the hits on spheres and boxes agree with the
 * closed forms computed in double, and overlaps find what the loop finds. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "physics/body/shape.h"
#include "physics/collision/cast.h"
#include "physics/collision/collide_shapes.h"
#include "test_helpers.h"
#include "test_world_helpers.h"
#include "voltex/voltex.h"

enum { BODIES = 4096, CROWD_HULLS = 8, CROWD_COMPOUNDS = 4, KINDS = 5 };
enum { KIND_SPHERE, KIND_BOX, KIND_CAPSULE, KIND_HULL, KIND_COMPOUND };

/* Full casts under the address sanitizer, which runs the loop over every
 * body about ten times slower. */
#ifdef VX_TEST_ASAN
#define CASTS 1000
#else
#define CASTS 10000
#endif

typedef struct {
    vx_world *w;
    vx_entity e[BODIES];
    vx_collider shape[BODIES];
    vx_transform body[BODIES]; /* the shape's body frame (a hull's or compound's: its centre of mass) */
    vx_transform entity[BODIES];
} crowd;

static vx_transform placed(vx_vec3 at, vx_vec3 axis, float angle)
{
    vx_transform t = vx_transform_from_position(at);
    t.rotation = vx_quat_from_axis_angle(vx_vec3_normalize(axis), angle);
    return t;
}

/* Four compounds: a dumbbell (two spheres on a capsule bar), an L of two
 * boxes, a hull with a sphere on one side, a table (a box top on four
 * capsule legs); their centres of mass are off the entity's origin. */
static void make_compounds(vx_world *w, const vx_hull *hull, const vx_compound **out)
{
    vx_vec3 x = vx_vec3_make(1, 0, 0), z = vx_vec3_make(0, 0, 1), tilt = vx_vec3_make(1, 2, 3);
    vx_compound_part dumbbell[3] = {
        {vx_collider_sphere(0.3f), vx_transform_from_position(vx_vec3_make(-0.6f, 0.1f, 0))},
        {vx_collider_sphere(0.25f), vx_transform_from_position(vx_vec3_make(0.6f, 0.1f, 0))},
        {vx_collider_capsule(0.08f, 0.5f), placed(vx_vec3_make(0, 0.1f, 0), z, 1.5707964f)},
    };
    vx_compound_part ell[2] = {
        {vx_collider_box(vx_vec3_make(0.6f, 0.15f, 0.2f)), vx_transform_from_position(vx_vec3_make(0.2f, 0, 0))},
        {vx_collider_box(vx_vec3_make(0.15f, 0.5f, 0.2f)), placed(vx_vec3_make(-0.25f, 0.5f, 0), tilt, 0.2f)},
    };
    vx_compound_part rock[2] = {
        {vx_collider_hull(hull), vx_transform_from_position(vx_vec3_make(0.1f, 0, 0.2f))},
        {vx_collider_sphere(0.35f), vx_transform_from_position(vx_vec3_make(-0.5f, 0.3f, 0))},
    };
    vx_compound_part table[5] = {
        {vx_collider_box(vx_vec3_make(0.7f, 0.05f, 0.5f)), placed(vx_vec3_make(0, 0.6f, 0), x, 0.05f)},
        {vx_collider_capsule(0.05f, 0.25f), vx_transform_from_position(vx_vec3_make(0.6f, 0.3f, 0.4f))},
        {vx_collider_capsule(0.05f, 0.25f), vx_transform_from_position(vx_vec3_make(-0.6f, 0.3f, 0.4f))},
        {vx_collider_capsule(0.05f, 0.25f), vx_transform_from_position(vx_vec3_make(0.6f, 0.3f, -0.4f))},
        {vx_collider_capsule(0.05f, 0.25f), vx_transform_from_position(vx_vec3_make(-0.6f, 0.3f, -0.4f))},
    };
    const vx_compound_part *parts[CROWD_COMPOUNDS] = {dumbbell, ell, rock, table};
    size_t counts[CROWD_COMPOUNDS] = {3, 2, 2, 5};
    for (int k = 0; k < CROWD_COMPOUNDS; k++) {
        vx_error err;
        cr_assert_eq(vx_world_make_compound(w, parts[k], counts[k], &out[k], &err), VX_OK, "%s", err.message);
    }
}

/* 4096 bodies in a 40 m cube, a fifth of each kind in turn (body i is of
 * kind i % 5), turned at random, half of them static, every 17th a sensor.
 * The hulls are 8 shapes of 5 to 40 random points off the entity's origin. */
static void make_crowd(crowd *c, uint32_t seed)
{
    vx_world_def def = vx_world_def_default();
    def.gravity = vx_vec3_zero();
    c->w = vx_world_create(&def, NULL);
    cr_assert_not_null(c->w);
    vx_test_rng rng = {seed};
    const vx_hull *hulls[CROWD_HULLS];
    for (int k = 0; k < CROWD_HULLS; k++) {
        vx_vec3 pts[40], shift = vx_test_rng_vec3(&rng, -0.3f, 0.3f);
        size_t n = 5u + (size_t)(k * 5);
        for (size_t i = 0; i < n; i++) pts[i] = vx_vec3_add(shift, vx_test_rng_vec3(&rng, -0.6f, 0.6f));
        vx_error err;
        cr_assert_eq(vx_world_make_hull(c->w, pts, n, &hulls[k], &err), VX_OK, "%s", err.message);
    }
    const vx_compound *compounds[CROWD_COMPOUNDS];
    make_compounds(c->w, hulls[3], compounds);
    const vx_registry *r = vx_world_registry_const(c->w);
    for (int i = 0; i < BODIES; i++) {
        vx_vec3 at = vx_test_rng_vec3(&rng, -20.0f, 20.0f);
        float qx = vx_test_rng_range(&rng, -1, 1), qy = vx_test_rng_range(&rng, -1, 1);
        float qz = vx_test_rng_range(&rng, -1, 1), qw = vx_test_rng_range(&rng, -1, 1);
        vx_quat q = vx_quat_normalize(vx_quat_make(qx, qy, qz, qw));
        float size = vx_test_rng_range(&rng, 0.1f, 0.8f);
        vx_collider s;
        switch (i % KINDS) {
        case KIND_SPHERE: s = vx_collider_sphere(size); break;
        case KIND_BOX: s = vx_collider_box(vx_vec3_make(size, 0.5f * size, 0.8f * size)); break;
        case KIND_CAPSULE: s = vx_collider_capsule(0.5f * size, size); break;
        case KIND_HULL: s = vx_collider_hull(hulls[(i / KINDS) % CROWD_HULLS]); break;
        default: s = vx_collider_compound(compounds[(i / KINDS) % CROWD_COMPOUNDS]); break;
        }
        s.sensor = i % 17 == 0;
        c->e[i] = vx_test_add_placed(c->w, i % 2 ? VX_BODY_STATIC : VX_BODY_DYNAMIC, at, q, s);
        const vx_collider *stored = vx_registry_get_const(r, c->e[i], VX_COMPONENT_COLLIDER);
        const vx_transform *t = vx_registry_get_const(r, c->e[i], VX_COMPONENT_TRANSFORM);
        c->shape[i] = *stored;
        c->entity[i] = *t;
        c->body[i] = vx_shape_pose(stored, t);
    }
}

/* ---- the loop over every body ---- */

static int by_distance_then_entity(const void *pa, const void *pb)
{
    const vx_query_hit *a = pa, *b = pb;
    if (a->distance != b->distance) return a->distance < b->distance ? -1 : 1;
    return a->entity.index < b->entity.index ? -1 : a->entity.index > b->entity.index;
}

/* Every body's hit by the cast (a ray when radius is 0), by distance then
 * entity index, with the direction made unit as the world makes it. */
static int every_hit(const crowd *c, vx_vec3 o, float radius, vx_vec3 d, float max, vx_query_hit *out)
{
    d = vx_vec3_normalize(d);
    int n = 0;
    for (int i = 0; i < BODIES; i++) {
        if (c->shape[i].sensor) continue;
        vx_cast_hit h;
        bool hit = radius > 0.0f ? vx_sphere_cast_shape(&c->shape[i], &c->body[i], o, radius, d, max, &h)
                                 : vx_ray_cast_shape(&c->shape[i], &c->body[i], o, d, max, &h);
        if (!hit) continue;
        out[n].entity = c->e[i];
        out[n].distance = h.distance;
        out[n].point = h.point;
        out[n].normal = h.normal;
        n++;
    }
    qsort(out, (size_t)n, sizeof *out, by_distance_then_entity);
    return n;
}

typedef struct {
    vx_query_hit *hits;
    int count;
} hit_list;

static bool keep(const vx_query_hit *hit, void *context)
{
    hit_list *l = context;
    cr_assert_lt(l->count, BODIES);
    l->hits[l->count++] = *hit;
    return true;
}

static bool same_bits(const vx_query_hit *a, const vx_query_hit *b)
{
    return vx_entity_equal(a->entity, b->entity) && memcmp(&a->distance, &b->distance, sizeof a->distance) == 0 &&
           memcmp(&a->point, &b->point, sizeof a->point) == 0 && memcmp(&a->normal, &b->normal, sizeof a->normal) == 0;
}

/* ---- closed forms, in double ---- */

typedef struct {
    double x, y, z;
} dvec;

static dvec dv(vx_vec3 v) { return (dvec){v.x, v.y, v.z}; }
static dvec dsub(dvec a, dvec b) { return (dvec){a.x - b.x, a.y - b.y, a.z - b.z}; }
static double ddot(dvec a, dvec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

/* v turned by the inverse of q (made unit in double, as the engine's casts
 * make it). */
static dvec dunrotate(vx_quat q, dvec v)
{
    double n = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    double w = q.w / n, x = -(double)q.x / n, y = -(double)q.y / n, z = -(double)q.z / n;
    /* v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z) */
    dvec t = {2.0 * (y * v.z - z * v.y), 2.0 * (z * v.x - x * v.z), 2.0 * (x * v.y - y * v.x)};
    return (dvec){v.x + w * t.x + (y * t.z - z * t.y), v.y + w * t.y + (z * t.x - x * t.z),
                  v.z + w * t.z + (x * t.y - y * t.x)};
}

/* Casts whose answer hangs on the last bits (a grazing ray, an origin on
 * the surface, a hit at the end of the cast) are left out, by this margin. */
static const double MARGIN = 1e-5;

enum { CLOSED_SKIP, CLOSED_MISS, CLOSED_HIT };

/* A ray (unit d) against a sphere of radius R (the body's radius plus the
 * cast's) centred at centre: where the centre of the cast first comes R
 * from it. */
static int closed_sphere(dvec o, dvec d, dvec centre, double R, double max, double *t)
{
    dvec oc = dsub(o, centre);
    double b = ddot(oc, d), cc = ddot(oc, oc) - R * R;
    double miss = sqrt(fmax(ddot(oc, oc) - b * b, 0.0)) - R; /* how far the line passes outside */
    if (fabs(sqrt(ddot(oc, oc)) - R) < MARGIN || fabs(miss) < MARGIN) return CLOSED_SKIP;
    if (cc < 0.0) {
        *t = 0.0;
        return CLOSED_HIT;
    }
    if (miss > 0.0 || b > 0.0) return CLOSED_MISS;
    *t = -b - sqrt(b * b - cc);
    if (fabs(*t - max) < MARGIN) return CLOSED_SKIP;
    return *t <= max ? CLOSED_HIT : CLOSED_MISS;
}

/* A ray (unit d) against a box of half extents h at pose: the slabs in the
 * box's frame. */
static int closed_box(dvec o, dvec d, const vx_transform *pose, vx_vec3 h, double max, double *t)
{
    dvec lo = dunrotate(pose->rotation, dsub(o, dv(pose->position))), ld = dunrotate(pose->rotation, d);
    double oo[3] = {lo.x, lo.y, lo.z}, dd[3] = {ld.x, ld.y, ld.z}, hh[3] = {h.x, h.y, h.z};
    double enter = -INFINITY, leave = INFINITY;
    for (int k = 0; k < 3; k++) {
        if (fabs(dd[k]) < 1e-12) {
            if (fabs(fabs(oo[k]) - hh[k]) < MARGIN) return CLOSED_SKIP;
            if (fabs(oo[k]) > hh[k]) return CLOSED_MISS;
            continue;
        }
        double a = (-hh[k] - oo[k]) / dd[k], b = (hh[k] - oo[k]) / dd[k];
        enter = fmax(enter, fmin(a, b));
        leave = fmin(leave, fmax(a, b));
    }
    if (fabs(leave - enter) < MARGIN || fabs(enter) < MARGIN || fabs(leave) < MARGIN) return CLOSED_SKIP;
    if (enter > leave || leave < 0.0) return CLOSED_MISS;
    *t = fmax(enter, 0.0);
    if (fabs(*t - max) < MARGIN) return CLOSED_SKIP;
    return *t <= max ? CLOSED_HIT : CLOSED_MISS;
}

/* The hit of entity index e in the list, or NULL. */
static const vx_query_hit *find_hit(const vx_query_hit *hits, int n, uint32_t e)
{
    for (int k = 0; k < n; k++)
        if (hits[k].entity.index == e) return &hits[k];
    return NULL;
}

typedef struct {
    long checked, hits;
    double worst; /* the largest distance difference seen */
} closed_tally;

/* Every sphere (and with a ray, every box) of the crowd against its closed
 * form: hit or not as the list says, at the same distance to the float's
 * last bits. */
static void check_closed_forms(const crowd *c, vx_vec3 o, float radius, vx_vec3 d, float max,
                               const vx_query_hit *hits, int n, int cast, closed_tally *tally)
{
    /* the float unit direction of the cast, made unit in double: the line
     * the cast follows, measured in metres */
    dvec od = dv(o), dd = dv(vx_vec3_normalize(d));
    double len = sqrt(ddot(dd, dd));
    dd = (dvec){dd.x / len, dd.y / len, dd.z / len};
    for (int i = 0; i < BODIES; i++) {
        int kind = i % KINDS;
        if (c->shape[i].sensor || (kind != KIND_SPHERE && (kind != KIND_BOX || radius > 0.0f))) continue;
        double t = 0.0;
        int closed = kind == KIND_SPHERE ? closed_sphere(od, dd, dv(c->body[i].position),
                                                         (double)c->shape[i].radius + radius, max, &t)
                                         : closed_box(od, dd, &c->body[i], c->shape[i].half_extents, max, &t);
        if (closed == CLOSED_SKIP) continue;
        const vx_query_hit *h = find_hit(hits, n, c->e[i].index);
        tally->checked++;
        cr_assert_eq(h != NULL, closed == CLOSED_HIT, "cast %d, entity %d (kind %d): %s by the closed form", cast, i,
                     kind, closed == CLOSED_HIT ? "hit" : "missed");
        if (!h) continue;
        tally->hits++;
        double diff = fabs((double)h->distance - t);
        tally->worst = fmax(tally->worst, diff);
        /* the engine works in double from the float inputs and rounds once:
         * the same answer to the float's last bits */
        cr_assert_leq(diff, 1e-6 + 0x1p-21 * t, "cast %d, entity %d (kind %d): distance %.9g, closed form %.9g", cast,
                      i, kind, (double)h->distance, t);
    }
}

/* ---- the casts ---- */

static void compare_casts(bool sphere)
{
    crowd *c = malloc(sizeof *c);
    vx_query_hit *want = malloc(BODIES * sizeof *want);
    hit_list got = {malloc(BODIES * sizeof *got.hits), 0};
    cr_assert(c && want && got.hits);
    make_crowd(c, sphere ? 77u : 42u);
    vx_test_rng rng = {sphere ? 9u : 7u};
    int casts = 0, casts_hitting = 0, many = 0;
    long kind_hits[KINDS] = {0};
    closed_tally tally = {0, 0, 0.0};
    for (int k = 0; k < CASTS; k++) {
        vx_vec3 o = vx_test_rng_vec3(&rng, -25.0f, 25.0f);
        vx_vec3 d = vx_test_rng_vec3(&rng, -1.0f, 1.0f);
        float radius = sphere ? vx_test_rng_range(&rng, 0.05f, 0.5f) : 0.0f;
        float max = vx_test_rng_range(&rng, 1.0f, 40.0f);
        if (vx_vec3_length(d) < 0.01f) continue;
        casts++;
        int n = every_hit(c, o, radius, d, max, want);

        vx_query_hit nearest;
        vx_error err;
        vx_status st = sphere ? vx_world_cast_sphere_closest(c->w, o, radius, d, max, NULL, &nearest, &err)
                              : vx_world_cast_ray_closest(c->w, o, d, max, NULL, &nearest, &err);
        cr_assert_eq(st, VX_OK, "%s", err.message);
        if (n == 0)
            cr_assert(vx_entity_equal(nearest.entity, VX_ENTITY_NULL), "cast %d: entity %u, the loop finds none", k,
                      nearest.entity.index);
        else
            cr_assert(same_bits(&nearest, &want[0]), "cast %d: nearest entity %u at %.9g, the loop's %u at %.9g", k,
                      nearest.entity.index, (double)nearest.distance, want[0].entity.index, (double)want[0].distance);

        got.count = 0;
        st = sphere ? vx_world_cast_sphere(c->w, o, radius, d, max, NULL, keep, &got, &err)
                    : vx_world_cast_ray(c->w, o, d, max, NULL, keep, &got, &err);
        cr_assert_eq(st, VX_OK, "%s", err.message);
        cr_assert_eq(got.count, n, "cast %d: %d hits, the loop finds %d", k, got.count, n);
        for (int h = 0; h < n; h++)
            cr_assert(same_bits(&got.hits[h], &want[h]), "cast %d, hit %d: entity %u at %.9g, the loop's %u at %.9g", k,
                      h, got.hits[h].entity.index, (double)got.hits[h].distance, want[h].entity.index,
                      (double)want[h].distance);

        check_closed_forms(c, o, radius, d, max, want, n, k, &tally);
        casts_hitting += n > 0;
        many += n > 1;
        for (int h = 0; h < n; h++) kind_hits[want[h].entity.index % KINDS]++;
    }
    cr_assert_gt(casts_hitting, CASTS / 5, "%d of %d casts hit something", casts_hitting, CASTS);
    cr_assert_lt(casts_hitting, CASTS, "and some miss");
    cr_assert_gt(many, CASTS / 20, "%d casts hit more than one body", many);
    for (int kind = 0; kind < KINDS; kind++)
        cr_assert_gt(kind_hits[kind], CASTS / 20, "kind %d hit %ld times", kind, kind_hits[kind]);
    cr_assert_gt(tally.hits, CASTS / 10, "%ld of %ld closed forms were hits", tally.hits, tally.checked);
    cr_log_info("%s: %d casts, %d hit, %d more than once; hits by kind %ld %ld %ld %ld %ld; closed forms of "
                "(body, cast): %ld checked, %ld hits, largest difference %.3g m",
                sphere ? "sphere casts" : "rays", casts, casts_hitting, many, kind_hits[0], kind_hits[1], kind_hits[2],
                kind_hits[3], kind_hits[4], tally.checked, tally.hits, tally.worst);
    vx_world_destroy(c->w);
    free(got.hits);
    free(want);
    free(c);
}

Test(world_query_crowd, rays_find_what_a_loop_over_every_body_finds) { compare_casts(false); }

Test(world_query_crowd, sphere_casts_find_what_a_loop_over_every_body_finds) { compare_casts(true); }

/* ---- overlaps ---- */

static bool count_overlap(const vx_query_hit *hit, void *context)
{
    hit_list *l = context;
    if (l->count < 64) l->hits[l->count] = *hit;
    l->count++;
    return true;
}

Test(world_query_crowd, overlaps_find_what_a_loop_over_every_body_finds)
{
    crowd *c = malloc(sizeof *c);
    cr_assert_not_null(c);
    make_crowd(c, 5u);
    vx_test_rng rng = {3u};
    vx_query_hit found_hits[64];
    int found = 0;
    for (int k = 0; k < 300; k++) {
        vx_transform pose = vx_transform_from_position(vx_test_rng_vec3(&rng, -20.0f, 20.0f));
        vx_collider shape = k % 2 ? vx_collider_sphere(1.5f) : vx_collider_box(vx_vec3_make(2.0f, 1.0f, 1.5f));
        hit_list l = {found_hits, 0};
        cr_assert_eq(vx_world_overlap(c->w, &shape, &pose, NULL, count_overlap, &l, NULL), VX_OK);
        int want = 0;
        for (int i = 0; i < BODIES; i++) {
            vx_manifold m;
            if (c->shape[i].sensor || !vx_collide_shapes(&shape, &pose, &c->shape[i], &c->body[i], 0.0f, &m))
                continue;
            if (want < 64) cr_assert(vx_entity_equal(l.hits[want].entity, c->e[i]), "overlap %d: in entity order", k);
            want++;
        }
        cr_assert_eq(l.count, want, "overlap %d: %d found, %d by the loop", k, l.count, want);
        found += want;
    }
    cr_assert_gt(found, 100);
    vx_world_destroy(c->w);
    free(c);
}
