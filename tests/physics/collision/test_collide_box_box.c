/* The optimised box-box narrow phase (collide_box_box.c) against recorded
 * results: fixtures/box_box_manifolds.txt froze, case by case, the manifolds
 * of the straightforward implementation it replaced (recorded at the commit
 * its header names, when the two agreed byte for byte). On many random and
 * many hand-picked degenerate configurations (resting stacks and brick
 * patterns, exact 90-degree turns with vertices exactly on clipping planes,
 * edge-on-edge, huge and tiny boxes, odd quaternions and margins)
 * vx_collide_box_box must still give the same manifold, byte for byte:
 * normal, depths, points, feature ids and point order, for (a, b) and
 * (b, a); vx_collide_box_box_obb the same bytes. The fixture holds a digest
 * per case, in the order the generators below make the cases: changing a
 * generator (or the rng, or the libm calls it makes) means recording again. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "physics/collision/collide_internal.h"
#include "test_helpers.h"
#include "voltex/collide.h"

#define FIXTURE_PATH VOLTEX_SOURCE_DIR "/tests/physics/collision/fixtures/box_box_manifolds.txt"

#define PI_F 3.14159265358979f

/* The generating tests in the fixture's order, and how many cases each makes. */
#define CASES_RANDOM_POSES 6000
#define CASES_RESTING_STACKS_AND_BRICK_ROWS 8000
#define CASES_QUARTER_TURNS_ON_A_GRID 6000
#define CASES_EDGES_ACROSS_EDGES 6000
#define CASES_EXTREME_SIZES_AND_ODD_INPUTS 4000
#define MAX_CASES 8000
_Static_assert(CASES_RANDOM_POSES <= MAX_CASES && CASES_RESTING_STACKS_AND_BRICK_ROWS <= MAX_CASES &&
                   CASES_QUARTER_TURNS_ON_A_GRID <= MAX_CASES && CASES_EDGES_ACROSS_EDGES <= MAX_CASES &&
                   CASES_EXTREME_SIZES_AND_ODD_INPUTS <= MAX_CASES,
               "MAX_CASES too small");

static const struct {
    const char *name;
    int cases;
} sections[] = {
    {"random_poses", CASES_RANDOM_POSES},
    {"resting_stacks_and_brick_rows", CASES_RESTING_STACKS_AND_BRICK_ROWS},
    {"quarter_turns_on_a_grid", CASES_QUARTER_TURNS_ON_A_GRID},
    {"edges_across_edges", CASES_EDGES_ACROSS_EDGES},
    {"extreme_sizes_and_odd_inputs", CASES_EXTREME_SIZES_AND_ODD_INPUTS},
};
#define SECTION_COUNT ((int)(sizeof sections / sizeof sections[0]))

/* ================= digests ================= */

/* The digest covers the hit flag and, on a hit, the normal, the count and the
 * used points; the rest of the manifold must be zero (check_cleared), so
 * together they cover every byte, as the comparison with the former
 * implementation did (its manifolds were zero but for what it wrote). */
_Static_assert(sizeof(vx_manifold) ==
                   sizeof(vx_vec3) + sizeof(int) + VX_MANIFOLD_MAX_POINTS * sizeof(vx_manifold_point),
               "vx_manifold has padding: the digest would not cover every byte");

#define FNV_OFFSET 2166136261u
#define FNV_PRIME 16777619u

/* 32-bit FNV-1a over 32-bit words, low byte first: the manifold's bytes as a
 * little-endian machine stores them, whatever machine runs the test. */
static uint32_t fnv_word(uint32_t h, uint32_t w)
{
    for (int k = 0; k < 4; k++) {
        h ^= (w >> (8 * k)) & 0xFFu;
        h *= FNV_PRIME;
    }
    return h;
}

static uint32_t fnv_float(uint32_t h, float f)
{
    uint32_t w;
    memcpy(&w, &f, sizeof w);
    return fnv_word(h, w);
}

static uint32_t fnv_vec3(uint32_t h, vx_vec3 v) { return fnv_float(fnv_float(fnv_float(h, v.x), v.y), v.z); }

static uint32_t fnv_quat(uint32_t h, vx_quat q)
{
    return fnv_float(fnv_float(fnv_float(fnv_float(h, q.x), q.y), q.z), q.w);
}

static uint32_t digest_result(uint32_t h, bool hit, const vx_manifold *m)
{
    h = fnv_word(h, hit ? 1u : 0u);
    if (!hit) return h;
    h = fnv_vec3(h, m->normal);
    h = fnv_word(h, (uint32_t)m->count);
    for (int i = 0; i < m->count && i < VX_MANIFOLD_MAX_POINTS; i++) {
        const vx_manifold_point *p = &m->points[i];
        h = fnv_vec3(fnv_vec3(h, p->point_a), p->point_b);
        h = fnv_word(fnv_float(h, p->depth), p->feature);
    }
    return h;
}

/* Of a case's inputs, to tell a changed generator from a changed engine. */
static uint32_t digest_inputs(uint32_t h, const vx_transform *a, vx_vec3 ha, const vx_transform *b, vx_vec3 hb,
                              float margin)
{
    h = fnv_vec3(fnv_quat(fnv_vec3(h, a->position), a->rotation), ha);
    h = fnv_vec3(fnv_quat(fnv_vec3(h, b->position), b->rotation), hb);
    return fnv_float(h, margin);
}

/* ================= the fixture ================= */

typedef struct {
    uint32_t inputs; /* digest of all the section's inputs */
    int count;
    uint32_t digest[MAX_CASES];
    int line[MAX_CASES]; /* where each case is in the fixture */
} recorded;

static bool parse_hex8(const char *s, uint32_t *out)
{
    uint32_t v = 0;
    for (int k = 0; k < 8; k++) {
        char c = s[k];
        uint32_t d;
        if (c >= '0' && c <= '9') d = (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f') d = (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') d = (uint32_t)(c - 'A' + 10);
        else return false;
        v = v << 4 | d;
    }
    if (s[8] != '\0') return false;
    *out = v;
    return true;
}

/* Reads the whole fixture, checking its layout (every section present, in
 * order, with exactly as many cases as its generator makes), and keeps the
 * section of the test wanted. false with the reason in err otherwise. */
static bool fixture_read(int wanted, recorded *rec, char *err, size_t err_size)
{
    FILE *f = fopen(FIXTURE_PATH, "r");
    if (!f) {
        snprintf(err, err_size, "cannot open the fixture %s", FIXTURE_PATH);
        return false;
    }
    memset(rec, 0, sizeof *rec);
    char buf[256];
    int line = 0, section = -1, in_section = 0;
    bool ok = true;
    while (ok && fgets(buf, sizeof buf, f)) {
        line++;
        size_t len = strlen(buf);
        if (len > 0 && buf[len - 1] == '\n') buf[--len] = '\0';
        else if (!feof(f)) {
            snprintf(err, err_size, "%s:%d: line too long", FIXTURE_PATH, line);
            ok = false;
            break;
        }
        if (len > 0 && buf[len - 1] == '\r') buf[--len] = '\0';
        if (len == 0 || buf[0] == '#') continue;
        if (strncmp(buf, "test ", 5) == 0) {
            if (section >= 0 && in_section != sections[section].cases) break; /* short: reported below */
            section++;
            in_section = 0;
            const char *name = buf + 5;
            const char *tail = strchr(name, ' ');
            uint32_t inputs = 0;
            if (section >= SECTION_COUNT) {
                snprintf(err, err_size, "%s:%d: an extra section (%s): only %d are generated", FIXTURE_PATH, line,
                         buf, SECTION_COUNT);
                ok = false;
            } else if (!tail || (size_t)(tail - name) != strlen(sections[section].name) ||
                       strncmp(name, sections[section].name, (size_t)(tail - name)) != 0 ||
                       strncmp(tail, " inputs ", 8) != 0 || !parse_hex8(tail + 8, &inputs)) {
                snprintf(err, err_size, "%s:%d: expected \"test %s inputs <8 hex digits>\", found \"%s\"",
                         FIXTURE_PATH, line, sections[section].name, buf);
                ok = false;
            } else if (section == wanted) {
                rec->inputs = inputs;
            }
            continue;
        }
        uint32_t d;
        if (!parse_hex8(buf, &d)) {
            snprintf(err, err_size, "%s:%d: expected a digest of 8 hex digits, found \"%s\"", FIXTURE_PATH, line,
                     buf);
            ok = false;
        } else if (section < 0) {
            snprintf(err, err_size, "%s:%d: a digest before the first \"test\" line", FIXTURE_PATH, line);
            ok = false;
        } else if (in_section == sections[section].cases) {
            snprintf(err, err_size, "%s:%d: section %s has extra lines: its generator makes %d cases",
                     FIXTURE_PATH, line, sections[section].name, sections[section].cases);
            ok = false;
        } else {
            if (section == wanted) {
                rec->digest[in_section] = d;
                rec->line[in_section] = line;
            }
            in_section++;
        }
    }
    fclose(f);
    if (!ok) return false;
    if (section < 0 || in_section != sections[section].cases) {
        if (section < 0) snprintf(err, err_size, "%s: no \"test\" section", FIXTURE_PATH);
        else
            snprintf(err, err_size, "%s: section %s is short: %d of its %d cases", FIXTURE_PATH,
                     sections[section].name, in_section, sections[section].cases);
        return false;
    }
    if (section + 1 < SECTION_COUNT) {
        snprintf(err, err_size, "%s: ends after section %s, section %s is missing", FIXTURE_PATH,
                 sections[section].name, sections[section + 1].name);
        return false;
    }
    rec->count = sections[wanted].cases;
    return true;
}

/* ================= the comparison ================= */

typedef struct {
    int calls;
    int hits;
    int face_points[VX_MANIFOLD_MAX_POINTS + 1]; /* face contacts by point count */
    int edge;                                    /* edge-edge contacts */
    int ref_on_b;                                /* face contacts with B's reference face */
} tally;

/* One generating test: its recorded section, what the engine gave so far. */
typedef struct {
    int section;
    recorded rec;
    int cases;
    uint32_t inputs;
    int differ;       /* cases whose digest is not the recorded one */
    char first[1536]; /* the first of them */
    tally t;
} run;

static vx_transform place(vx_vec3 position, vx_quat rotation)
{
    vx_transform t;
    memset(&t, 0, sizeof t);
    t.position = position;
    t.rotation = rotation;
    return t;
}

static void describe(char *buf, size_t size, const vx_transform *a, vx_vec3 ha, const vx_transform *b, vx_vec3 hb,
                     float margin)
{
    snprintf(buf, size,
             "A p(%a %a %a) q(%a %a %a %a) h(%a %a %a)  B p(%a %a %a) q(%a %a %a %a) h(%a %a %a)  margin %a",
             (double)a->position.x, (double)a->position.y, (double)a->position.z, (double)a->rotation.x,
             (double)a->rotation.y, (double)a->rotation.z, (double)a->rotation.w, (double)ha.x, (double)ha.y,
             (double)ha.z, (double)b->position.x, (double)b->position.y, (double)b->position.z,
             (double)b->rotation.x, (double)b->rotation.y, (double)b->rotation.z, (double)b->rotation.w,
             (double)hb.x, (double)hb.y, (double)hb.z, (double)margin);
}

static void run_begin(run *r, const char *name)
{
    memset(r, 0, sizeof *r);
    r->section = -1;
    for (int s = 0; s < SECTION_COUNT; s++)
        if (strcmp(sections[s].name, name) == 0) r->section = s;
    cr_assert(r->section >= 0, "no fixture section for %s", name);
    char err[512];
    cr_assert(fixture_read(r->section, &r->rec, err, sizeof err), "%s", err);
    r->inputs = FNV_OFFSET;
}

/* The bytes the digest leaves out are zero: all of a miss, and on a hit the
 * unused points. */
static bool check_cleared(bool hit, const vx_manifold *m)
{
    vx_manifold z;
    memset(&z, 0, sizeof z);
    if (hit) {
        if (m->count < 1 || m->count > VX_MANIFOLD_MAX_POINTS) return false;
        z.normal = m->normal;
        z.count = m->count;
        memcpy(z.points, m->points, (size_t)m->count * sizeof z.points[0]);
    }
    return memcmp(&z, m, sizeof z) == 0;
}

/* Both entry points (transforms and prebuilt boxes) on (a, b) and on (b, a):
 * the same bytes from both, and the pair's digest as recorded. */
static void check_pair(const vx_transform *a, vx_vec3 ha, const vx_transform *b, vx_vec3 hb, float margin, run *r)
{
    uint32_t digest = FNV_OFFSET;
    bool hits[2];
    int counts[2];
    for (int swap = 0; swap < 2; swap++) {
        const vx_transform *ta = swap ? b : a, *tb = swap ? a : b;
        vx_vec3 ea = swap ? hb : ha, eb = swap ? ha : hb;
        vx_manifold got, got_obb;
        memset(&got, 0x5A, sizeof got);
        memset(&got_obb, 0x3C, sizeof got_obb);
        bool hit = vx_collide_box_box(ta, ea, tb, eb, margin, &got);
        vx_obb oa = vx_obb_make(ta, ea), ob = vx_obb_make(tb, eb);
        bool hit_obb = vx_collide_box_box_obb(&oa, &ob, margin, &got_obb);
        bool same = hit == hit_obb && memcmp(&got, &got_obb, sizeof got) == 0;
        if (!same || !check_cleared(hit, &got)) {
            char buf[1024];
            describe(buf, sizeof buf, ta, ea, tb, eb, margin);
            cr_assert_fail("%s case %d, %s: %s (hit %d/%d, count %d/%d) for %s", sections[r->section].name, r->cases,
                           swap ? "(b, a)" : "(a, b)",
                           same ? "bytes set outside the used points" : "vx_collide_box_box_obb gives other bytes",
                           hit, hit_obb, got.count, got_obb.count, buf);
        }
        digest = digest_result(digest, hit, &got);
        hits[swap] = hit;
        counts[swap] = got.count;
        r->t.calls++;
        if (!hit) continue;
        r->t.hits++;
        uint32_t kind = got.points[0].feature >> VX_FEATURE_KIND_SHIFT;
        if (kind == VX_FEATURE_KIND_BOX_EDGE) {
            r->t.edge++;
        } else {
            r->t.face_points[got.count]++;
            if (got.points[0].feature & (1u << 16)) r->t.ref_on_b++;
        }
    }

    r->inputs = digest_inputs(r->inputs, a, ha, b, hb, margin);
    int k = r->cases++;
    cr_assert(k < r->rec.count, "%s: more cases than the %d recorded", sections[r->section].name, r->rec.count);
    if (digest != r->rec.digest[k] && r->differ++ == 0) {
        char buf[1024];
        describe(buf, sizeof buf, a, ha, b, hb, margin);
        snprintf(r->first, sizeof r->first,
                 "case %d (fixture line %d): digest %08x, recorded %08x (now: (a, b) hit %d count %d, (b, a) hit %d "
                 "count %d) for %s",
                 k, r->rec.line[k], (unsigned)digest, (unsigned)r->rec.digest[k], hits[0], counts[0], hits[1],
                 counts[1], buf);
    }
}

static void run_end(run *r)
{
    const char *name = sections[r->section].name;
    cr_assert_eq(r->cases, r->rec.count, "%s: %d cases made, %d recorded", name, r->cases, r->rec.count);
    cr_assert(r->inputs == r->rec.inputs,
              "%s: the generated inputs are not the recorded ones (digest %08x, recorded %08x): the generator, "
              "the rng or libm changed, the recording no longer applies; %d of %d results differ%s%s",
              name, (unsigned)r->inputs, (unsigned)r->rec.inputs, r->differ, r->cases, r->differ ? ", first " : "",
              r->first);
    cr_assert(r->differ == 0, "%s: %d of %d manifolds differ from the recorded ones; first %s", name, r->differ,
              r->cases, r->first);
}

static float rnd(vx_test_rng *r, float lo, float hi) { return vx_test_rng_range(r, lo, hi); }

static vx_quat random_unit_quat(vx_test_rng *r)
{
    return vx_quat_normalize(vx_quat_make(rnd(r, -1, 1), rnd(r, -1, 1), rnd(r, -1, 1), rnd(r, -1, 1)));
}

/* A small turn about a random axis: angles from 1e-6 to 1e-2 rad. */
static vx_quat small_turn(vx_test_rng *r)
{
    vx_vec3 axis = vx_vec3_normalize(vx_vec3_make(rnd(r, -1, 1), rnd(r, -1, 1), rnd(r, -1, 1)));
    float angle = powf(10.0f, rnd(r, -6.0f, -2.0f));
    return vx_quat_from_axis_angle(axis, angle);
}

/* One of the 24 rotations of the cube, as an exact product of quarter
 * turns (components 0, +-0.5, +-sqrt(1/2), +-1 up to rounding). */
static vx_quat cube_turn(vx_test_rng *r)
{
    vx_quat q = vx_quat_identity();
    for (int k = 0; k < 3; k++) {
        int axis = (int)(vx_test_rng_next(r) % 3u);
        int quarters = (int)(vx_test_rng_next(r) % 4u);
        vx_vec3 v = vx_vec3_zero();
        vx_vec3_set(&v, axis, 1.0f);
        q = vx_quat_mul(q, vx_quat_from_axis_angle(v, (float)quarters * 0.5f * PI_F));
    }
    return q;
}

static vx_vec3 random_half(vx_test_rng *r, float lo, float hi)
{
    return vx_vec3_make(rnd(r, lo, hi), rnd(r, lo, hi), rnd(r, lo, hi));
}

static float random_margin(vx_test_rng *r)
{
    static const float margins[4] = {0.0f, 0.01f, 0.05f, 0.2f};
    return margins[vx_test_rng_next(r) % 4u];
}
Test(collide_box_box, random_poses)
{
    vx_test_rng rng = {0x1234567u};
    run r;
    run_begin(&r, "random_poses");
    for (int k = 0; k < CASES_RANDOM_POSES; k++) {
        vx_vec3 ha = random_half(&rng, 0.05f, 1.5f), hb = random_half(&rng, 0.05f, 1.5f);
        vx_transform a = place(vx_vec3_make(rnd(&rng, -1, 1), rnd(&rng, -1, 1), rnd(&rng, -1, 1)),
                               random_unit_quat(&rng));
        float reach = vx_vec3_length(ha) + vx_vec3_length(hb);
        vx_vec3 off = vx_vec3_make(rnd(&rng, -reach, reach), rnd(&rng, -reach, reach), rnd(&rng, -reach, reach));
        vx_transform b = place(vx_vec3_add(a.position, off), random_unit_quat(&rng));
        check_pair(&a, ha, &b, hb, random_margin(&rng), &r);
    }
    run_end(&r);
    cr_assert_gt(r.t.hits, 2000, "hits %d", r.t.hits);
    cr_assert_gt(r.t.edge, 200, "edge contacts %d", r.t.edge);
    cr_assert_gt(r.t.face_points[1] + r.t.face_points[2], 200);
    cr_assert_gt(r.t.face_points[4], 100, "4-point faces %d", r.t.face_points[4]);
    cr_assert_gt(r.t.ref_on_b, 200);
}

Test(collide_box_box, resting_stacks_and_brick_rows)
{
    /* Box on box as in stacks and pyramids: equal or different sizes, top
     * box offset by whole or half box widths (brick rows) or at random,
     * aligned exactly or turned by tiny angles, sunk in or hovering within
     * the margin: the clipped patches with 5 to 8 corners, reduced to 4. */
    vx_test_rng rng = {0xC0FFEEu};
    run r;
    run_begin(&r, "resting_stacks_and_brick_rows");
    for (int k = 0; k < CASES_RESTING_STACKS_AND_BRICK_ROWS; k++) {
        bool same = (vx_test_rng_next(&rng) % 2u) == 0u;
        vx_vec3 ha = same ? vx_vec3_make(0.5f, 0.5f, 0.5f) : random_half(&rng, 0.2f, 1.0f);
        vx_vec3 hb = same ? ha : random_half(&rng, 0.2f, 1.0f);
        float wx = ha.x + hb.x, wz = ha.z + hb.z;
        float dx, dz;
        switch (vx_test_rng_next(&rng) % 3u) {
        case 0: /* brick rows: whole or half widths */
            dx = 0.5f * wx * (float)((int)(vx_test_rng_next(&rng) % 5u) - 2);
            dz = 0.5f * wz * (float)((int)(vx_test_rng_next(&rng) % 5u) - 2);
            break;
        case 1: /* a hair off a brick position */
            dx = 0.5f * wx * (float)((int)(vx_test_rng_next(&rng) % 3u) - 1) + rnd(&rng, -1e-4f, 1e-4f);
            dz = 0.5f * wz * (float)((int)(vx_test_rng_next(&rng) % 3u) - 1) + rnd(&rng, -1e-4f, 1e-4f);
            break;
        default:
            dx = rnd(&rng, -wx, wx);
            dz = rnd(&rng, -wz, wz);
            break;
        }
        float gap = rnd(&rng, -0.02f, 0.02f);
        if (vx_test_rng_next(&rng) % 4u == 0u) gap = 0.0f;
        vx_vec3 pa = vx_vec3_make(rnd(&rng, -5, 5), rnd(&rng, 0, 10), rnd(&rng, -5, 5));
        vx_vec3 pb = vx_vec3_add(pa, vx_vec3_make(dx, ha.y + hb.y + gap, dz));
        unsigned tilt = vx_test_rng_next(&rng) % 4u;
        vx_quat qa = tilt & 1u ? small_turn(&rng) : vx_quat_identity();
        vx_quat qb = tilt & 2u ? small_turn(&rng) : vx_quat_identity();
        if (vx_test_rng_next(&rng) % 3u == 0u) { /* the whole stack turned about Y */
            vx_quat yaw = vx_quat_from_axis_angle(vx_vec3_make(0, 1, 0), rnd(&rng, -PI_F, PI_F));
            qa = vx_quat_mul(yaw, qa);
            qb = vx_quat_mul(yaw, qb);
            pb = vx_vec3_add(pa, vx_quat_rotate(yaw, vx_vec3_sub(pb, pa)));
        }
        vx_transform a = place(pa, qa), b = place(pb, qb);
        check_pair(&a, ha, &b, hb, random_margin(&rng), &r);
    }
    run_end(&r);
    cr_assert_gt(r.t.hits, 8000, "hits %d", r.t.hits);
    cr_assert_gt(r.t.face_points[4], 5000, "4-point faces %d", r.t.face_points[4]);
    cr_assert_gt(r.t.face_points[2], 200, "2-point faces %d", r.t.face_points[2]);
}

Test(collide_box_box, quarter_turns_on_a_grid)
{
    /* Exact cube rotations and positions on a quarter grid: faces flush,
     * vertices exactly on side planes (distance 0 in the clipper), zero and
     * negative-zero rotation entries. */
    vx_test_rng rng = {0xBADC0DEu};
    run r;
    run_begin(&r, "quarter_turns_on_a_grid");
    for (int k = 0; k < CASES_QUARTER_TURNS_ON_A_GRID; k++) {
        vx_vec3 ha = vx_vec3_make(0.25f * (float)(1 + vx_test_rng_next(&rng) % 4u),
                                  0.25f * (float)(1 + vx_test_rng_next(&rng) % 4u),
                                  0.25f * (float)(1 + vx_test_rng_next(&rng) % 4u));
        vx_vec3 hb = vx_vec3_make(0.25f * (float)(1 + vx_test_rng_next(&rng) % 4u),
                                  0.25f * (float)(1 + vx_test_rng_next(&rng) % 4u),
                                  0.25f * (float)(1 + vx_test_rng_next(&rng) % 4u));
        vx_vec3 off = vx_vec3_make(0.25f * (float)((int)(vx_test_rng_next(&rng) % 17u) - 8),
                                   0.25f * (float)((int)(vx_test_rng_next(&rng) % 17u) - 8),
                                   0.25f * (float)((int)(vx_test_rng_next(&rng) % 17u) - 8));
        vx_transform a = place(vx_vec3_make(1.0f, 2.0f, -3.0f), cube_turn(&rng));
        vx_transform b = place(vx_vec3_add(a.position, off), cube_turn(&rng));
        check_pair(&a, ha, &b, hb, random_margin(&rng), &r);
    }
    run_end(&r);
    cr_assert_gt(r.t.hits, 1500, "hits %d", r.t.hits);
    cr_assert_gt(r.t.face_points[4], 500, "4-point faces %d", r.t.face_points[4]);
}

Test(collide_box_box, edges_across_edges)
{
    /* Boxes turned 45 degrees about different axes (and a little more),
     * meeting edge to edge, near parallel edges and corners into faces. */
    vx_test_rng rng = {0xE1D6Eu};
    run r;
    run_begin(&r, "edges_across_edges");
    static const vx_vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int k = 0; k < CASES_EDGES_ACROSS_EDGES; k++) {
        vx_vec3 ha = random_half(&rng, 0.3f, 1.0f), hb = random_half(&rng, 0.3f, 1.0f);
        int i = (int)(vx_test_rng_next(&rng) % 3u), j = (int)(vx_test_rng_next(&rng) % 3u);
        float jitter = vx_test_rng_next(&rng) % 2u ? rnd(&rng, -1e-3f, 1e-3f) : 0.0f;
        vx_quat qa = vx_quat_from_axis_angle(axes[i], 0.25f * PI_F + jitter);
        vx_quat qb = vx_quat_from_axis_angle(axes[j], 0.25f * PI_F - jitter);
        if (vx_test_rng_next(&rng) % 2u) qb = vx_quat_mul(qb, vx_quat_from_axis_angle(axes[i], 0.25f * PI_F));
        vx_vec3 dir = vx_vec3_normalize(vx_vec3_make(rnd(&rng, -1, 1), rnd(&rng, -1, 1), rnd(&rng, -1, 1)));
        float dist = rnd(&rng, 0.6f, 1.1f) * (vx_vec3_length(ha) + vx_vec3_length(hb));
        vx_transform a = place(vx_vec3_zero(), qa);
        vx_transform b = place(vx_vec3_scale(dir, dist), qb);
        check_pair(&a, ha, &b, hb, random_margin(&rng), &r);
    }
    run_end(&r);
    cr_assert_gt(r.t.hits, 1000, "hits %d", r.t.hits);
    cr_assert_gt(r.t.edge, 300, "edge contacts %d", r.t.edge);
}

Test(collide_box_box, extreme_sizes_and_odd_inputs)
{
    /* Huge against tiny boxes, far from the origin, unnormalised, zero and
     * non-finite quaternions, coincident centres, and odd margins
     * (negative, NaN): the same answers as before, including the "no". */
    vx_test_rng rng = {0xFACADEu};
    run r;
    run_begin(&r, "extreme_sizes_and_odd_inputs");
    const float odd_margins[5] = {-1.0f, NAN, 0.0f, 1e-6f, 3.0f};
    for (int k = 0; k < CASES_EXTREME_SIZES_AND_ODD_INPUTS; k++) {
        vx_vec3 ha, hb;
        if (k % 2) {
            ha = random_half(&rng, 5.0f, 50.0f);
            hb = random_half(&rng, 0.001f, 0.05f);
        } else {
            ha = random_half(&rng, 0.01f, 3.0f);
            hb = random_half(&rng, 0.01f, 3.0f);
        }
        vx_quat qa = random_unit_quat(&rng), qb = random_unit_quat(&rng);
        switch (k % 7) {
        case 0: qa = vx_quat_make(qa.x * 3.0f, qa.y * 3.0f, qa.z * 3.0f, qa.w * 3.0f); break;
        case 1: qb = vx_quat_make(0, 0, 0, 0); break;
        case 2: qa = vx_quat_make(NAN, 0, 0, 1); break;
        case 3: qb = vx_quat_make(INFINITY, 0, 0, 1); break;
        default: break;
        }
        vx_vec3 far = k % 3 == 0 ? vx_vec3_make(1000.0f, -500.0f, 250.0f) : vx_vec3_zero();
        vx_transform a = place(far, qa);
        vx_vec3 off = k % 11 == 0 ? vx_vec3_zero()
                                  : vx_vec3_make(rnd(&rng, -1, 1) * ha.x, rnd(&rng, -1, 1) * ha.y + ha.y,
                                                 rnd(&rng, -1, 1) * ha.z);
        vx_transform b = place(vx_vec3_add(far, off), qb);
        float margin = k % 5 == 4 ? odd_margins[(k / 5) % 5] : random_margin(&rng);
        check_pair(&a, ha, &b, hb, margin, &r);
    }
    run_end(&r);
    cr_assert_gt(r.t.hits, 1000, "hits %d", r.t.hits);
}

/* ================= the inline helpers the narrow phase relies on ================= */

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

Test(collide_internal, min_max_match_libm)
{
    /* vx_collide_minf / maxf replace fminf / fmaxf calls: the same result,
     * NaN arguments included. +0 against -0 is the one case C leaves open
     * (either zero; GCC even swaps the operands of fminf, which it treats as
     * commutative): there any zero passes, and ours is the second argument,
     * as glibc's minss / maxss return. volatile keeps the compiler from
     * folding the libm calls. */
    const float values[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e-45f, -1e-45f, FLT_MAX, -FLT_MAX, INFINITY, -INFINITY,
                            NAN, 0.5f, 0.5f, 3.25f};
    const int n = (int)(sizeof values / sizeof values[0]);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            volatile float x = values[i], y = values[j];
            float lib_min = fminf(x, y), lib_max = fmaxf(x, y);
            float our_min = vx_collide_minf(x, y), our_max = vx_collide_maxf(x, y);
            if (x == 0.0f && y == 0.0f) {
                cr_assert(float_bits(our_min) == float_bits(y) && float_bits(our_max) == float_bits(y));
                cr_assert(lib_min == 0.0f && lib_max == 0.0f);
                continue;
            }
            cr_assert(float_bits(lib_min) == float_bits(our_min) || (isnan(lib_min) && isnan(our_min)),
                      "min(%a, %a): libm %a, ours %a", (double)x, (double)y, (double)lib_min, (double)our_min);
            cr_assert(float_bits(lib_max) == float_bits(our_max) || (isnan(lib_max) && isnan(our_max)),
                      "max(%a, %a): libm %a, ours %a", (double)x, (double)y, (double)lib_max, (double)our_max);
        }
    }
}

Test(collide_internal, single_axes_match_the_rotation_matrix)
{
    /* vx_collide_axis_x / _y are columns 0 / 1 of vx_mat3_from_quat, bit for
     * bit, and vx_obb_make's axes are its columns. */
    vx_test_rng rng = {0x5EEDu};
    for (int k = 0; k < 2000; k++) {
        vx_transform t = place(vx_vec3_make(rnd(&rng, -5, 5), rnd(&rng, -5, 5), rnd(&rng, -5, 5)),
                               vx_quat_make(rnd(&rng, -2, 2), rnd(&rng, -2, 2), rnd(&rng, -2, 2), rnd(&rng, -2, 2)));
        vx_quat q = vx_collide_rotation(&t);
        vx_mat3 r = vx_mat3_from_quat(q);
        vx_vec3 x = vx_collide_axis_x(q), y = vx_collide_axis_y(q);
        vx_obb box = vx_obb_make(&t, vx_vec3_make(1, 2, 3));
        for (int i = 0; i < 3; i++) {
            cr_assert_eq(float_bits(vx_vec3_get(x, i)), float_bits(r.m[i][0]));
            cr_assert_eq(float_bits(vx_vec3_get(y, i)), float_bits(r.m[i][1]));
            for (int c = 0; c < 3; c++) cr_assert_eq(float_bits(vx_vec3_get(box.axis[c], i)), float_bits(r.m[i][c]));
        }
    }
}
