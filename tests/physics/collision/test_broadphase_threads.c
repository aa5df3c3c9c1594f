/* The broad phase on several threads (broadphase.c, body_broadphase.c,
 * dynamic_tree.c): with a pool of 1, 2, 3 or 5 threads the pairs must be
 * exactly those of the calling thread alone, frame after frame, and those
 * of brute force over the boxes, on random moving scenes whose boxes leave
 * their fat boxes, jump, come and go; both kinds (dynamic tree, with and
 * without the tight filter, and BVH), the raw vx_broadphase and the step's
 * vx_body_broadphase over a world's bodies (some asleep, statics moved,
 * entities replaced). And the thread-safe pieces the split relies on:
 * vx_broadphase_update_in_place leaves what vx_broadphase_update leaves or
 * nothing, vx_dynamic_tree_needs_move answers what move_proxy does, and
 * queries with the caller's stack from several threads at once find what
 * the tree's own query finds. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/thread_pool.h"
#include "physics/collision/body_broadphase.h"
#include "physics/collision/broadphase.h"
#include "common/parallel.h"
#include "physics/collision/dynamic_tree.h"
#include "physics/collision/narrow_phase.h"
#include "physics/body/body_set.h"
#include "test_helpers.h"
#include "test_pair_helpers.h"
#include "voltex/physics.h"

/* the calling thread alone (NULL pool), then pools of these sizes */
enum { POOLS = 4, RUNS = POOLS + 1 };
static const int pool_sizes[POOLS] = {1, 2, 3, 5};

#ifdef VX_TEST_ASAN
#define FRAMES 40
#else
#define FRAMES 80
#endif

/* runs[0] is NULL (one thread), runs[1..] pools of pool_sizes. */
static void make_pools(vx_thread_pool *runs[RUNS])
{
    runs[0] = NULL;
    for (int p = 0; p < POOLS; p++) {
        cr_assert_eq(vx_thread_pool_create(&runs[p + 1], pool_sizes[p]), VX_OK);
        vx_thread_pool_set_grain(runs[p + 1], 0u); /* every loop on every thread, however small */
    }
}

static void free_pools(vx_thread_pool *runs[RUNS])
{
    for (int r = 0; r < RUNS; r++) vx_thread_pool_destroy(runs[r]);
}

static void assert_same_pairs(const vx_broadphase_pair_list *got, const vx_broadphase_pair_list *expected,
                              const char *what, int frame)
{
    cr_assert_eq(got->count, expected->count, "%s, frame %d: %zu pairs, expected %zu", what, frame, got->count,
                 expected->count);
    for (size_t i = 0; i < got->count; i++)
        cr_assert(got->items[i].a == expected->items[i].a && got->items[i].b == expected->items[i].b,
                  "%s, frame %d, pair %zu: (%u,%u), expected (%u,%u)", what, frame, i, got->items[i].a,
                  got->items[i].b, expected->items[i].a, expected->items[i].b);
}

/* ---- the raw broad phase ---- */

enum { SETUP_BVH, SETUP_TREE, SETUP_TREE_TIGHT, SETUP_COUNT };
static const char *const setup_names[SETUP_COUNT] = {"bvh", "dynamic tree", "dynamic tree + tight filter"};

#define MAX_IDS 420u /* ids 0..MAX_IDS-1, some absent at any time */
#define STATIC_IDS 40u
#define SCENE_EXTENT 6.0f /* m: boxes' centres within this of the origin */

/* One box per id, moved the same way for every run. */
typedef struct {
    vx_aabb box[MAX_IDS];
    vx_vec3 velocity[MAX_IDS];
    bool present[MAX_IDS];
} box_scene;

static vx_aabb random_box(vx_test_rng *rng, float extent)
{
    vx_vec3 c = vx_test_rng_vec3(rng, -extent, extent);
    vx_vec3 h = vx_test_rng_vec3(rng, 0.1f, 0.9f);
    return vx_aabb_new(vx_vec3_sub(c, h), vx_vec3_add(c, h));
}

static vx_vec3 random_velocity(vx_test_rng *rng, float speed)
{
    return vx_test_rng_vec3(rng, -speed, speed);
}

/* The frame's changes of the scene: most boxes drift (slowly: they stay in
 * their fat boxes a while; some fast), a few jump, some ids leave and come
 * back, a static moves now and then. Sets changed[id] for updated ids. */
static void advance(box_scene *s, vx_test_rng *rng, int frame, bool *changed, bool *added, bool *removed)
{
    memset(changed, 0, MAX_IDS * sizeof *changed);
    memset(added, 0, MAX_IDS * sizeof *added);
    memset(removed, 0, MAX_IDS * sizeof *removed);
    for (uint32_t id = 0; id < MAX_IDS; id++) {
        if (!s->present[id]) {
            if (frame > 0 && vx_test_rng_next(rng) % 8u == 0u) { /* comes (back) */
                s->box[id] = random_box(rng, SCENE_EXTENT);
                s->present[id] = true;
                added[id] = true;
            }
            continue;
        }
        if (id >= STATIC_IDS && frame > 0 && vx_test_rng_next(rng) % 50u == 0u) { /* leaves */
            s->present[id] = false;
            removed[id] = true;
            continue;
        }
        if (id < STATIC_IDS) {
            if (frame % 17 == 9 && id == (uint32_t)frame % STATIC_IDS) { /* a static moves */
                s->box[id] = random_box(rng, SCENE_EXTENT);
                changed[id] = true;
            }
            continue;
        }
        if (vx_test_rng_next(rng) % 40u == 0u) {
            s->box[id] = random_box(rng, SCENE_EXTENT); /* jumps */
        } else {
            if (vx_test_rng_next(rng) % 10u == 0u) s->velocity[id] = random_velocity(rng, 0.4f);
            s->box[id].min = vx_vec3_add(s->box[id].min, s->velocity[id]);
            s->box[id].max = vx_vec3_add(s->box[id].max, s->velocity[id]);
        }
        changed[id] = true;
    }
}

typedef struct {
    vx_broadphase *bp;
    const box_scene *scene;
    const bool *changed;
    bool *done; /* by id: update_in_place took it */
} in_place_job;

/* Ids [begin, end) on the pool's threads: what needs no tree change. */
static void in_place_range(void *arg, size_t begin, size_t end)
{
    in_place_job *job = arg;
    for (size_t id = begin; id < end; id++) {
        job->done[id] = false;
        if (!job->changed[id]) continue;
        job->done[id] = vx_broadphase_update_in_place(job->bp, (uint32_t)id, job->scene->box[id],
                                                      job->scene->velocity[id]);
    }
}

/* Brute force: present ids, not both static, boxes (fat or tight) overlapping. */
static void brute_force(const vx_broadphase *bp, bool fat, vx_broadphase_pair_list *out)
{
    out->count = 0;
    for (uint32_t i = 0; i < MAX_IDS; i++) {
        vx_aabb bi;
        if (!(fat ? vx_broadphase_fat_aabb(bp, i, &bi) : vx_broadphase_tight_aabb(bp, i, &bi))) continue;
        for (uint32_t j = i + 1; j < MAX_IDS; j++) {
            vx_aabb bj;
            if (!(fat ? vx_broadphase_fat_aabb(bp, j, &bj) : vx_broadphase_tight_aabb(bp, j, &bj))) continue;
            if (vx_broadphase_is_static(bp, i) && vx_broadphase_is_static(bp, j)) continue;
            if (vx_aabb_intersects(bi, bj)) vx_test_push_pair(out, i, j);
        }
    }
}

static void check_raw_setup(int setup)
{
    vx_thread_pool *runs[RUNS];
    make_pools(runs);
    vx_broadphase bps[RUNS];
    vx_broadphase_pair_list pairs[RUNS], expected;
    vx_broadphase_config c = vx_broadphase_config_default();
    c.tight_filter = setup == SETUP_TREE_TIGHT;
    for (int r = 0; r < RUNS; r++) {
        vx_broadphase_init(&bps[r], setup == SETUP_BVH ? VX_BROADPHASE_BVH : VX_BROADPHASE_DYNAMIC_TREE, &c);
        bps[r].pool = runs[r];
        vx_broadphase_pair_list_init(&pairs[r]);
    }
    vx_broadphase_pair_list_init(&expected);
    box_scene *s = calloc(1, sizeof *s);
    bool *changed = calloc(MAX_IDS, sizeof *changed), *added = calloc(MAX_IDS, sizeof *added);
    bool *removed = calloc(MAX_IDS, sizeof *removed), *done = calloc(MAX_IDS, sizeof *done);
    cr_assert(s && changed && added && removed && done);
    vx_test_rng rng = {0x7a11u + (uint32_t)setup};
    for (uint32_t id = 0; id < MAX_IDS; id++) { /* a sixth absent at first */
        s->present[id] = id < STATIC_IDS || vx_test_rng_next(&rng) % 6u != 0u;
        s->box[id] = random_box(&rng, SCENE_EXTENT);
        s->velocity[id] = random_velocity(&rng, id % 5u == 0u ? 1.5f : 0.05f);
    }
    size_t most = 0, requeried_min = SIZE_MAX, requeried_max = 0, in_place = 0, moved = 0;
    for (int frame = 0; frame < FRAMES; frame++) {
        advance(s, &rng, frame, changed, added, removed);
        for (int r = 0; r < RUNS; r++) {
            vx_broadphase *bp = &bps[r];
            for (uint32_t id = 0; id < MAX_IDS; id++) {
                if (removed[id]) cr_assert_eq(vx_broadphase_remove(bp, id), VX_OK);
                if (frame == 0 ? s->present[id] : added[id])
                    cr_assert_eq(vx_broadphase_add(bp, id, s->box[id], id < STATIC_IDS), VX_OK);
            }
            if (r == 0) { /* one thread, update as always */
                for (uint32_t id = 0; id < MAX_IDS; id++)
                    if (changed[id]) cr_assert_eq(vx_broadphase_update(bp, id, s->box[id], s->velocity[id]), VX_OK);
            } else { /* the split: in place on the threads, the rest here in order */
                in_place_job job = {bp, s, changed, done};
                vx_parallel_for(runs[r], MAX_IDS, in_place_range, &job);
                for (uint32_t id = 0; id < MAX_IDS; id++) {
                    if (!changed[id]) continue;
                    if (done[id]) {
                        in_place++;
                        continue;
                    }
                    moved++;
                    cr_assert_eq(vx_broadphase_update(bp, id, s->box[id], s->velocity[id]), VX_OK);
                }
            }
            cr_assert_eq(vx_broadphase_find_pairs(bp, &pairs[r]), VX_OK);
        }
        brute_force(&bps[0], setup == SETUP_TREE, &expected);
        assert_same_pairs(&pairs[0], &expected, setup_names[setup], frame);
        vx_broadphase_stats st0 = vx_broadphase_get_stats(&bps[0]);
        for (int r = 1; r < RUNS; r++) {
            char what[96];
            snprintf(what, sizeof what, "%s, %d threads", setup_names[setup], pool_sizes[r - 1]);
            assert_same_pairs(&pairs[r], &pairs[0], what, frame);
            vx_broadphase_stats st = vx_broadphase_get_stats(&bps[r]);
            cr_assert(st.requeried == st0.requeried && st.fat_pairs == st0.fat_pairs &&
                          st.dynamic_height == st0.dynamic_height && st.static_height == st0.static_height,
                      "%s, frame %d: stats differ", what, frame);
            if (setup != SETUP_BVH) { /* the same trees, node for node */
                cr_assert_eq(bps[r].moving.node_capacity, bps[0].moving.node_capacity);
                cr_assert_eq(memcmp(bps[r].moving.nodes, bps[0].moving.nodes,
                                    bps[0].moving.node_capacity * sizeof *bps[0].moving.nodes),
                             0, "%s, frame %d: moving trees differ", what, frame);
            }
        }
        most = pairs[0].count > most ? pairs[0].count : most;
        if (frame > 0) {
            requeried_min = st0.requeried < requeried_min ? st0.requeried : requeried_min;
            requeried_max = st0.requeried > requeried_max ? st0.requeried : requeried_max;
        }
    }
    /* a scene that exercises both paths: many pairs, boxes kept in place and
     * boxes reinserted every frame, never everything requeried */
    cr_assert_gt(most, 200, "%zu pairs at most", most);
    cr_assert_gt(in_place, 1000);
    if (setup == SETUP_BVH) {
        cr_assert_eq(moved, 0, "a BVH box never needs a tree");
    } else {
        cr_assert_gt(moved, 1000);
        cr_assert(requeried_min > 20 && requeried_max < 300, "%zu..%zu requeried", requeried_min, requeried_max);
    }
    for (int r = 0; r < RUNS; r++) {
        vx_broadphase_free(&bps[r]);
        vx_broadphase_pair_list_free(&pairs[r]);
    }
    vx_broadphase_pair_list_free(&expected);
    free(s);
    free(changed);
    free(added);
    free(removed);
    free(done);
    free_pools(runs);
}

Test(broadphase_threads, tree_pairs_equal_one_thread_and_brute_force) { check_raw_setup(SETUP_TREE); }

Test(broadphase_threads, tree_tight_pairs_equal_one_thread_and_brute_force) { check_raw_setup(SETUP_TREE_TIGHT); }

Test(broadphase_threads, bvh_pairs_equal_one_thread_and_brute_force) { check_raw_setup(SETUP_BVH); }

/* ---- the step's broad phase over a world's bodies ---- */

#define SPECULATIVE 0.02f
#define H (1.0f / 60.0f)
#define WORLD_BODIES 260
#define MAX_ENTITIES 400

/* A random body in a 10 m box: sphere, box or capsule, turned, moving;
 * every 10th static, every 25th kinematic, every 30th a sensor. */
static vx_entity spawn_body(vx_registry *w, vx_test_rng *rng, int n)
{
    vx_collider c;
    uint32_t kind = vx_test_rng_next(rng) % 3u;
    float a = vx_test_rng_range(rng, 0.15f, 0.5f), b = vx_test_rng_range(rng, 0.15f, 0.5f);
    if (kind == 0u)
        c = vx_collider_sphere(a);
    else if (kind == 1u)
        c = vx_collider_box(vx_vec3_make(a, b, vx_test_rng_range(rng, 0.15f, 0.5f)));
    else
        c = vx_collider_capsule(a, b);
    c.sensor = n % 30 == 29;
    vx_rigidbody rb = n % 10 == 0 ? vx_rigidbody_static()
                      : n % 25 == 1 ? vx_rigidbody_kinematic()
                                    : vx_rigidbody_dynamic(vx_test_rng_range(rng, 0.5f, 3.0f));
    if (rb.type != VX_BODY_STATIC) {
        rb.velocity = random_velocity(rng, 3.0f);
        rb.angular_velocity = random_velocity(rng, 4.0f);
    }
    vx_vec3 at = random_velocity(rng, 5.0f);
    vx_quat q = vx_quat_normalize(vx_quat_make(vx_test_rng_range(rng, -1.0f, 1.0f), vx_test_rng_range(rng, -1.0f, 1.0f),
                                               vx_test_rng_range(rng, -1.0f, 1.0f), 1.0f));
    return vx_test_spawn_rotated(w, at, q, &c, &rb);
}

/* Moves every non-static body by hand (no solver: only the boxes matter):
 * a step of its velocity, now and then a new velocity or a jump. */
static void move_bodies(vx_registry *w, const vx_entity *ids, size_t n, vx_test_rng *rng)
{
    for (size_t i = 0; i < n; i++) {
        vx_rigidbody *rb = vx_registry_get(w, ids[i], VX_COMPONENT_RIGIDBODY);
        if (!rb || rb->type == VX_BODY_STATIC) continue;
        vx_transform *t = vx_test_transform(w, ids[i]);
        uint32_t roll = vx_test_rng_next(rng) % 60u;
        if (roll == 0u) {
            t->position = random_velocity(rng, 5.0f); /* jumps */
        } else {
            if (roll < 4u) rb->velocity = random_velocity(rng, 3.0f);
            /* pulled back towards the middle so the scene stays crowded */
            if (vx_vec3_length(t->position) > 6.0f) rb->velocity = vx_vec3_scale(t->position, -0.3f);
            t->position = vx_vec3_add(t->position, vx_vec3_scale(rb->velocity, H));
        }
    }
}

/* Brute force over the boxes the broad phase must hold: the bounds of each
 * collider body, or for one asleep the bounds it had when last awake. */
static void body_brute_force(const vx_body_set *b, const vx_aabb *last_box, vx_broadphase_pair_list *out)
{
    out->count = 0;
    for (size_t i = 0; i < b->count; i++) {
        if (!b->info[i].has_collider) continue;
        vx_aabb bi = last_box[b->info[i].entity.index];
        for (size_t j = i + 1; j < b->count; j++) {
            if (!b->info[j].has_collider) continue;
            if (b->info[i].motion == VX_MOTION_STATIC && b->info[j].motion == VX_MOTION_STATIC) continue;
            if (vx_aabb_intersects(bi, last_box[b->info[j].entity.index])) vx_test_push_pair(out, (uint32_t)i, (uint32_t)j);
        }
    }
}

static void check_body_kind(vx_broadphase_kind kind)
{
    vx_thread_pool *runs[RUNS];
    make_pools(runs);
    vx_registry *w = vx_test_physics_world();
    vx_test_rng rng = {0xb0d1e5u + (uint32_t)kind};
    vx_entity ids[MAX_ENTITIES];
    size_t n = 0;
    for (; n < WORLD_BODIES; n++) ids[n] = spawn_body(w, &rng, (int)n);
    vx_body_set bodies;
    vx_body_set_init(&bodies);
    vx_body_broadphase bbs[RUNS];
    for (int r = 0; r < RUNS; r++) vx_body_broadphase_init(&bbs[r]);
    vx_aabb *last_box = calloc(4u * MAX_ENTITIES, sizeof *last_box);
    uint32_t *box_seen = calloc(4u * MAX_ENTITIES, sizeof *box_seen);
    vx_broadphase_pair_list expected;
    vx_broadphase_pair_list_init(&expected);
    cr_assert(last_box && box_seen);
    size_t most = 0, statics_moved = 0;

    for (int frame = 0; frame < FRAMES; frame++) {
        /* The world changes: bodies move, entities are replaced (a new
         * generation under a freed index), one loses its collider, a
         * static moves. */
        if (frame > 0) move_bodies(w, ids, n, &rng);
        if (frame % 9 == 4) {
            size_t k = 4u + vx_test_rng_next(&rng) % (n - 4u); /* not ids[3] (below) */
            cr_assert(vx_registry_despawn(w, ids[k]));
            ids[k] = spawn_body(w, &rng, (int)k);
        }
        if (frame % 13 == 6 && n < MAX_ENTITIES) ids[n] = spawn_body(w, &rng, (int)n), n++;
        if (frame == 20) cr_assert(vx_registry_remove(w, ids[3], VX_COMPONENT_COLLIDER));
        if (frame % 11 == 10) vx_test_transform(w, ids[10])->position.y += 0.3f; /* slot 10: static */
        cr_assert_eq(vx_body_set_gather(&bodies, w, vx_vec3_make(0.0f, -9.81f, 0.0f), NULL), VX_OK);
        /* a tenth of the bodies asleep for a while: their boxes stay */
        for (size_t i = 0; i < bodies.count; i++)
            bodies.info[i].asleep = frame > 5 && (bodies.info[i].entity.index + (uint32_t)frame / 8u) % 10u == 0u &&
                                    bodies.info[i].motion != VX_MOTION_STATIC;

        bool moved[RUNS];
        for (int r = 0; r < RUNS; r++) {
            bbs[r].pool = runs[r];
            cr_assert_eq(vx_body_broadphase_sync(&bbs[r], &bodies, kind, SPECULATIVE, H, &moved[r]), VX_OK);
            cr_assert_eq(vx_body_broadphase_find_pairs(&bbs[r], &bodies, SPECULATIVE, H), VX_OK);
        }
        /* what the broad phase must hold: the bounds of this frame, except
         * for sleepers already known (new ones got a box in the sync) */
        for (size_t i = 0; i < bodies.count; i++) {
            uint32_t index = bodies.info[i].entity.index;
            cr_assert_lt(index, 4u * MAX_ENTITIES);
            bool is_static = bodies.info[i].motion == VX_MOTION_STATIC;
            if (!bodies.info[i].asleep || is_static || box_seen[index] != bodies.info[i].entity.generation + 1u)
                last_box[index] = vx_narrow_phase_bounds(&bodies, i, SPECULATIVE, H);
            box_seen[index] = bodies.info[i].entity.generation + 1u;
        }
        body_brute_force(&bodies, last_box, &expected);
        assert_same_pairs(&bbs[0].pairs, &expected, kind == VX_BROADPHASE_BVH ? "bvh" : "tree", frame);
        for (int r = 1; r < RUNS; r++) {
            char what[64];
            snprintf(what, sizeof what, "%s, %d threads", kind == VX_BROADPHASE_BVH ? "bvh" : "tree",
                     pool_sizes[r - 1]);
            assert_same_pairs(&bbs[r].pairs, &bbs[0].pairs, what, frame);
            cr_assert_eq(moved[r], moved[0], "%s, frame %d: statics moved", what, frame);
            cr_assert_eq(vx_broadphase_count(&bbs[r].broadphase), vx_broadphase_count(&bbs[0].broadphase));
        }
        cr_assert_eq(vx_broadphase_count(&bbs[0].broadphase), bodies.count - (frame >= 20 ? 1u : 0u),
                     "a proxy per collider body");
        statics_moved += moved[0];
        most = bbs[0].pairs.count > most ? bbs[0].pairs.count : most;
    }
    cr_assert_gt(most, 150, "%zu pairs at most", most);
    cr_assert_geq(statics_moved, (size_t)(FRAMES / 11), "the static of slot 10 moved every 11th frame");
    for (int r = 0; r < RUNS; r++) vx_body_broadphase_free(&bbs[r]);
    vx_broadphase_pair_list_free(&expected);
    free(last_box);
    free(box_seen);
    vx_body_set_free(&bodies);
    vx_registry_destroy(w);
    free_pools(runs);
}

Test(broadphase_threads, body_tree_pairs_equal_one_thread_and_brute_force)
{
    check_body_kind(VX_BROADPHASE_DYNAMIC_TREE);
}

Test(broadphase_threads, body_bvh_pairs_equal_one_thread_and_brute_force) { check_body_kind(VX_BROADPHASE_BVH); }

/* ---- the pieces ---- */

/* update_in_place either does exactly what update does (same tight box, no
 * reinsertion, nothing to requery) or nothing at all. */
Test(broadphase_threads, update_in_place_is_update_or_nothing)
{
    vx_broadphase a, b;
    vx_broadphase_init(&a, VX_BROADPHASE_DYNAMIC_TREE, NULL);
    vx_broadphase_init(&b, VX_BROADPHASE_DYNAMIC_TREE, NULL);
    vx_test_rng rng = {0x1dea5u};
    for (uint32_t id = 0; id < 50; id++) {
        vx_aabb box = random_box(&rng, 5.0f);
        cr_assert_eq(vx_broadphase_add(&a, id, box, id < 5), VX_OK);
        cr_assert_eq(vx_broadphase_add(&b, id, box, id < 5), VX_OK);
    }
    vx_broadphase_pair_list pa, pb;
    vx_broadphase_pair_list_init(&pa);
    vx_broadphase_pair_list_init(&pb);
    cr_assert_eq(vx_broadphase_find_pairs(&a, &pa), VX_OK);
    cr_assert_eq(vx_broadphase_find_pairs(&b, &pb), VX_OK);
    int took = 0, refused = 0;
    for (int round = 0; round < 40; round++) {
        for (uint32_t id = 0; id < 50; id++) {
            vx_aabb old, fat_before, box;
            cr_assert(vx_broadphase_tight_aabb(&b, id, &old));
            cr_assert(vx_broadphase_fat_aabb(&b, id, &fat_before));
            /* small moves mostly stay inside the fat box; statics never may */
            vx_vec3 d = random_velocity(&rng, round % 4 == 3 ? 0.5f : 0.03f);
            box = vx_aabb_new(vx_vec3_add(old.min, d), vx_vec3_add(old.max, d));
            cr_assert_eq(vx_broadphase_update(&a, id, box, d), VX_OK);
            vx_aabb tight, fat;
            if (vx_broadphase_update_in_place(&b, id, box, d)) {
                took++;
                cr_assert(id >= 5, "a static box that changed needs its tree");
                cr_assert(vx_broadphase_fat_aabb(&b, id, &fat));
                cr_assert_eq(memcmp(&fat, &fat_before, sizeof fat), 0, "the fat box stays");
            } else {
                refused++;
                cr_assert(vx_broadphase_tight_aabb(&b, id, &tight));
                cr_assert_eq(memcmp(&tight, &old, sizeof tight), 0, "refused: nothing changed");
                cr_assert_eq(vx_broadphase_update(&b, id, box, d), VX_OK);
            }
            cr_assert(vx_broadphase_tight_aabb(&b, id, &tight));
            cr_assert_eq(memcmp(&tight, &box, sizeof tight), 0);
        }
        cr_assert_eq(vx_broadphase_find_pairs(&a, &pa), VX_OK);
        cr_assert_eq(vx_broadphase_find_pairs(&b, &pb), VX_OK);
        assert_same_pairs(&pb, &pa, "in place", round);
        vx_broadphase_stats sa = vx_broadphase_get_stats(&a), sb = vx_broadphase_get_stats(&b);
        cr_assert_eq(sb.requeried, sa.requeried, "round %d: the same ids requeried", round);
        cr_assert_eq(memcmp(a.moving.nodes, b.moving.nodes, a.moving.node_capacity * sizeof *a.moving.nodes), 0);
    }
    cr_assert(took > 500 && refused > 100, "took %d, refused %d", took, refused);
    /* absent ids, inverted and non-finite boxes: refused (update says why) */
    vx_aabb inverted = vx_aabb_new(vx_vec3_make(1, 1, 1), vx_vec3_make(0, 0, 0));
    cr_assert_not(vx_broadphase_update_in_place(&b, 77, random_box(&rng, 1.0f), vx_vec3_zero()));
    cr_assert_not(vx_broadphase_update_in_place(&b, 7, inverted, vx_vec3_zero()));
    cr_assert_not(vx_broadphase_update_in_place(&b, 7, random_box(&rng, 0.0f), vx_vec3_make(NAN, 0, 0)));
    vx_broadphase_pair_list_free(&pa);
    vx_broadphase_pair_list_free(&pb);
    vx_broadphase_free(&a);
    vx_broadphase_free(&b);
}

Test(broadphase_threads, needs_move_answers_what_move_proxy_does)
{
    vx_dynamic_tree t;
    vx_dynamic_tree_init(&t, 0.1f, 4.0f);
    vx_test_rng rng = {0x5eedu};
    uint32_t proxies[64];
    vx_aabb tight[64];
    for (uint32_t i = 0; i < 64; i++) {
        tight[i] = random_box(&rng, 6.0f);
        cr_assert_eq(vx_dynamic_tree_create_proxy(&t, tight[i], vx_vec3_zero(), i, &proxies[i]), VX_OK);
    }
    int moves = 0, stays = 0;
    for (int round = 0; round < 30; round++)
        for (uint32_t i = 0; i < 64; i++) {
            /* drifts, slows down (the shrink of huge fat boxes), or jumps */
            float speed = round % 10 == 0 ? 1.0f : round % 10 < 5 ? 0.05f : 0.0f;
            vx_vec3 d = random_velocity(&rng, speed);
            tight[i] = vx_aabb_new(vx_vec3_add(tight[i].min, d), vx_vec3_add(tight[i].max, d));
            bool predicted = vx_dynamic_tree_needs_move(&t, proxies[i], tight[i], d);
            cr_assert_eq(vx_dynamic_tree_move_proxy(&t, proxies[i], tight[i], d), predicted);
            if (predicted)
                moves++;
            else
                stays++;
        }
    cr_assert(moves > 100 && stays > 100, "moves %d, stays %d", moves, stays);
    cr_assert(vx_dynamic_tree_validate(&t));
    vx_dynamic_tree_free(&t);
}

/* ---- queries from several threads with their own stacks ---- */

#define QUERY_BOXES 256

typedef struct {
    uint32_t hits[QUERY_BOXES][QUERY_BOXES]; /* per query box: the ids found, in order */
    uint32_t count[QUERY_BOXES];
} query_results;

typedef struct {
    const vx_dynamic_tree *tree;
    const vx_aabb *queries;
    query_results *out;
    uint32_t *stacks; /* stack_size entries per thread */
    uint32_t stack_size;
} query_job;

typedef struct {
    query_results *out;
    size_t q;
} hit_sink;

static bool record_hit(void *context, uint32_t proxy, uint32_t user_id)
{
    (void)proxy;
    hit_sink *s = context;
    s->out->hits[s->q][s->out->count[s->q]++] = user_id;
    return true;
}

static void query_thread(void *ctx, int thread, int threads)
{
    query_job *job = ctx;
    size_t begin, end;
    vx_thread_share(QUERY_BOXES, thread, threads, &begin, &end);
    for (size_t q = begin; q < end; q++) {
        hit_sink sink = {job->out, q};
        job->out->count[q] = 0;
        vx_dynamic_tree_query_with_stack(job->tree, job->queries[q], record_hit, &sink,
                                         job->stacks + (size_t)thread * job->stack_size);
    }
}

Test(broadphase_threads, queries_with_own_stacks_find_what_the_tree_query_finds)
{
    vx_dynamic_tree t;
    vx_dynamic_tree_init(&t, 0.1f, 4.0f);
    cr_assert_eq(vx_dynamic_tree_query_stack_size(&t), 1u, "empty tree");
    vx_test_rng rng = {0xfeedu};
    vx_aabb queries[QUERY_BOXES];
    uint32_t proxy_of[QUERY_BOXES];
    for (uint32_t i = 0; i < QUERY_BOXES; i++) {
        cr_assert_eq(vx_dynamic_tree_create_proxy(&t, random_box(&rng, 4.0f), vx_vec3_zero(), i, &proxy_of[i]), VX_OK);
        queries[i] = random_box(&rng, 4.0f);
    }
    uint32_t stack_size = vx_dynamic_tree_query_stack_size(&t);
    cr_assert_eq(stack_size, (uint32_t)vx_dynamic_tree_height(&t) + 2u);
    query_results *expected = calloc(1, sizeof *expected), *got = calloc(1, sizeof *got);
    cr_assert(expected && got);
    size_t total = 0;
    for (size_t q = 0; q < QUERY_BOXES; q++) {
        hit_sink sink = {expected, q};
        cr_assert_eq(vx_dynamic_tree_query(&t, queries[q], record_hit, &sink), VX_OK);
        total += expected->count[q];
        for (uint32_t k = 0; k < expected->count[q]; k++) /* and they do overlap */
            cr_assert(vx_aabb_intersects(vx_dynamic_tree_fat_aabb(&t, proxy_of[expected->hits[q][k]]), queries[q]));
    }
    cr_assert_gt(total, 500);
    vx_thread_pool *pool = NULL;
    cr_assert_eq(vx_thread_pool_create(&pool, 3), VX_OK);
    uint32_t *stacks = malloc(3u * stack_size * sizeof *stacks);
    cr_assert_not_null(stacks);
    query_job job = {&t, queries, got, stacks, stack_size};
    vx_thread_pool_run(pool, query_thread, &job);
    cr_assert_eq(memcmp(got, expected, sizeof *got), 0, "the same ids in the same order");
    free(stacks);
    vx_thread_pool_destroy(pool);
    free(expected);
    free(got);
    vx_dynamic_tree_free(&t);
}
