/* ECS: generational entities, sparse-set storage, queries, and how all of it
 * behaves when memory runs out. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test_helpers.h"
#include "voltex/ecs.h"

enum { T_POS = 0, T_TAG = 1, T_BIG = 2, T_ODD = 3 };

typedef struct {
    unsigned char b[3]; /* odd size: values are packed 3 bytes apart */
} odd3;

/* A world with four component types of different sizes. */
static vx_registry *make_world(void)
{
    vx_registry *w = vx_registry_create();
    cr_assert_not_null(w);
    cr_assert_eq(vx_registry_register_component(w, T_POS, sizeof(vx_vec3)), VX_OK);
    cr_assert_eq(vx_registry_register_component(w, T_TAG, sizeof(int32_t)), VX_OK);
    cr_assert_eq(vx_registry_register_component(w, T_BIG, sizeof(uint64_t)), VX_OK);
    cr_assert_eq(vx_registry_register_component(w, T_ODD, sizeof(odd3)), VX_OK);
    return w;
}

static vx_entity spawn(vx_registry *w)
{
    vx_entity e = VX_ENTITY_NULL;
    cr_assert_eq(vx_registry_spawn(w, &e), VX_OK);
    return e;
}

static void add_tag(vx_registry *w, vx_entity e, int32_t v)
{
    cr_assert_eq(vx_registry_add(w, e, T_TAG, &v), VX_OK);
}

static int32_t get_tag(vx_registry *w, vx_entity e)
{
    const int32_t *p = vx_registry_get(w, e, T_TAG);
    cr_assert_not_null(p, "entity %u has no tag", e.index);
    return *p;
}

/* Deterministic pseudo-random numbers (LCG, upper bits). */
static uint32_t next_rand(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

/* ---- entities ---- */

Test(ecs_entity, spawn_despawn_is_alive)
{
    vx_registry *w = make_world();
    cr_assert_eq(vx_registry_entity_count(w), 0u);
    vx_entity a = spawn(w), b = spawn(w), c = spawn(w);
    cr_assert(!vx_entity_equal(a, b) && !vx_entity_equal(b, c) && !vx_entity_equal(a, c));
    cr_assert(vx_registry_is_alive(w, a) && vx_registry_is_alive(w, b) && vx_registry_is_alive(w, c));
    cr_assert_eq(vx_registry_entity_count(w), 3u);

    cr_assert(vx_registry_despawn(w, b));
    cr_assert(!vx_registry_is_alive(w, b));
    cr_assert(vx_registry_is_alive(w, a) && vx_registry_is_alive(w, c));
    cr_assert_eq(vx_registry_entity_count(w), 2u);
    cr_assert(!vx_registry_despawn(w, b), "a second despawn of the same id must fail");
    cr_assert_eq(vx_registry_entity_count(w), 2u);

    cr_assert(!vx_registry_is_alive(w, VX_ENTITY_NULL));
    cr_assert(!vx_registry_despawn(w, VX_ENTITY_NULL));
    vx_entity never = {500u, 1u};
    cr_assert(!vx_registry_is_alive(w, never), "an index never handed out is not alive");
    vx_entity zero = {0u, 0u};
    cr_assert(!vx_registry_is_alive(w, zero), "a zero-filled id names no entity");
    vx_registry_destroy(w);
}

Test(ecs_entity, stale_id_is_detected_after_slot_reuse)
{
    vx_registry *w = make_world();
    vx_entity old = spawn(w);
    add_tag(w, old, 7);
    cr_assert(vx_registry_despawn(w, old));
    vx_entity fresh = spawn(w);
    cr_assert_eq(fresh.index, old.index, "the freed slot is reused");
    cr_assert_neq(fresh.generation, old.generation);
    cr_assert(!vx_entity_equal(fresh, old));

    cr_assert_null(vx_registry_get(w, fresh, T_TAG), "the new entity does not inherit components");
    add_tag(w, fresh, 42);

    int32_t v = 99;
    cr_assert(!vx_registry_is_alive(w, old));
    cr_assert_null(vx_registry_get(w, old, T_TAG));
    cr_assert_null(vx_registry_get_const(w, old, T_TAG));
    cr_assert(!vx_registry_has(w, old, T_TAG));
    cr_assert_eq(vx_registry_add(w, old, T_TAG, &v), VX_ERR_INVALID);
    cr_assert(!vx_registry_remove(w, old, T_TAG));
    cr_assert(!vx_registry_despawn(w, old));

    /* None of that touched the entity now living in the slot. */
    cr_assert(vx_registry_is_alive(w, fresh));
    cr_assert_eq(get_tag(w, fresh), 42);
    cr_assert_eq(vx_registry_entity_count(w), 1u);
    cr_assert_eq(vx_registry_component_count(w, T_TAG), 1u);
    cr_assert(vx_registry_despawn(w, fresh));
    vx_registry_destroy(w);
}

Test(ecs_entity, every_reuse_gets_a_new_generation)
{
    vx_registry *w = make_world();
    vx_entity ids[50];
    for (int i = 0; i < 50; i++) {
        ids[i] = spawn(w);
        cr_assert_eq(ids[i].index, 0u);
        for (int j = 0; j < i; j++) cr_assert(!vx_entity_equal(ids[i], ids[j]));
        cr_assert(vx_registry_despawn(w, ids[i]));
    }
    for (int i = 0; i < 50; i++) cr_assert(!vx_registry_is_alive(w, ids[i]));
    vx_registry_destroy(w);
}

Test(ecs_entity, freed_slots_are_reused_last_in_first_out)
{
    vx_registry *w = make_world();
    vx_entity e[5];
    for (int i = 0; i < 5; i++) {
        e[i] = spawn(w);
        cr_assert_eq(e[i].index, (uint32_t)i, "fresh slots are handed out in order");
    }
    cr_assert(vx_registry_despawn(w, e[1]));
    cr_assert(vx_registry_despawn(w, e[3]));
    cr_assert_eq(spawn(w).index, 3u);
    cr_assert_eq(spawn(w).index, 1u);
    cr_assert_eq(spawn(w).index, 5u);
    cr_assert_eq(vx_registry_entity_count(w), 6u);
    vx_registry_destroy(w);
}

Test(ecs_entity, equal_compares_index_and_generation)
{
    vx_entity a = {3u, 1u}, b = {3u, 1u}, c = {3u, 2u}, d = {4u, 1u};
    cr_assert(vx_entity_equal(a, b));
    cr_assert(!vx_entity_equal(a, c));
    cr_assert(!vx_entity_equal(a, d));
    cr_assert(vx_entity_equal(VX_ENTITY_NULL, VX_ENTITY_NULL));
}

Test(ecs_entity, destroy_null_is_a_no_op)
{
    vx_registry_destroy(NULL);
    cr_assert_eq(vx_registry_entity_count(NULL), 0u);
    cr_assert(!vx_registry_is_alive(NULL, VX_ENTITY_NULL));
}

/* ---- registration ---- */

Test(ecs_register, rejects_bad_types_sizes_and_duplicates)
{
    vx_registry *w = vx_registry_create();
    cr_assert_not_null(w);
    cr_assert(!vx_registry_has_component_type(w, 0));
    cr_assert_eq(vx_registry_register_component(w, VX_MAX_COMPONENT_TYPES, 4), VX_ERR_INVALID);
    cr_assert_eq(vx_registry_register_component(w, UINT32_MAX, 4), VX_ERR_INVALID);
    cr_assert_eq(vx_registry_register_component(w, 5, 0), VX_ERR_INVALID);
    cr_assert(!vx_registry_has_component_type(w, 5), "a failed register registers nothing");
    cr_assert_eq(vx_registry_register_component(w, 5, 4), VX_OK);
    cr_assert(vx_registry_has_component_type(w, 5));
    cr_assert_eq(vx_registry_register_component(w, 5, 4), VX_ERR_INVALID);
    cr_assert_eq(vx_registry_register_component(w, 5, 8), VX_ERR_INVALID);
    cr_assert_eq(vx_registry_register_component(w, VX_MAX_COMPONENT_TYPES - 1u, 1), VX_OK);
    cr_assert(vx_registry_has_component_type(w, VX_MAX_COMPONENT_TYPES - 1u));
    cr_assert(!vx_registry_has_component_type(w, VX_MAX_COMPONENT_TYPES));
    cr_assert_eq(vx_registry_register_component(NULL, 0, 4), VX_ERR_INVALID);
    vx_registry_destroy(w);
}

Test(ecs_register, unregistered_type_is_refused_everywhere)
{
    vx_registry *w = make_world();
    vx_entity e = spawn(w);
    int32_t v = 1;
    cr_assert_eq(vx_registry_add(w, e, 9, &v), VX_ERR_INVALID);
    cr_assert_eq(vx_registry_add(w, e, VX_MAX_COMPONENT_TYPES, &v), VX_ERR_INVALID);
    cr_assert_null(vx_registry_get(w, e, 9));
    cr_assert(!vx_registry_has(w, e, 9));
    cr_assert(!vx_registry_remove(w, e, 9));
    cr_assert_eq(vx_registry_component_count(w, 9), 0u);
    vx_registry_destroy(w);
}

/* ---- components ---- */

Test(ecs_component, add_get_overwrite_remove)
{
    vx_registry *w = make_world();
    vx_entity e = spawn(w);
    cr_assert(!vx_registry_has(w, e, T_POS));
    cr_assert_null(vx_registry_get(w, e, T_POS));

    vx_vec3 p = vx_vec3_make(1.0f, 2.0f, 3.0f);
    cr_assert_eq(vx_registry_add(w, e, T_POS, &p), VX_OK);
    cr_assert(vx_registry_has(w, e, T_POS));
    cr_assert_eq(vx_registry_component_count(w, T_POS), 1u);
    p.x = 100.0f; /* the world holds a copy */
    const vx_vec3 *got = vx_registry_get_const(w, e, T_POS);
    cr_assert_not_null(got);
    cr_assert(got->x == 1.0f && got->y == 2.0f && got->z == 3.0f);

    vx_vec3 q = vx_vec3_make(-4.0f, 5.5f, 6.25f);
    cr_assert_eq(vx_registry_add(w, e, T_POS, &q), VX_OK);
    cr_assert_eq(vx_registry_component_count(w, T_POS), 1u, "overwrite does not add a second value");
    vx_vec3 *mut = vx_registry_get(w, e, T_POS);
    cr_assert(mut->x == -4.0f && mut->y == 5.5f && mut->z == 6.25f);
    mut->y = 8.0f; /* writes through the pointer are stored */
    cr_assert(((const vx_vec3 *)vx_registry_get(w, e, T_POS))->y == 8.0f);

    cr_assert(!vx_registry_has(w, e, T_TAG), "types are independent");
    cr_assert(vx_registry_remove(w, e, T_POS));
    cr_assert(!vx_registry_has(w, e, T_POS));
    cr_assert_null(vx_registry_get(w, e, T_POS));
    cr_assert_eq(vx_registry_component_count(w, T_POS), 0u);
    cr_assert(!vx_registry_remove(w, e, T_POS), "removing a missing component fails");
    cr_assert(vx_registry_is_alive(w, e), "removing components keeps the entity");

    cr_assert_eq(vx_registry_add(w, e, T_POS, NULL), VX_ERR_INVALID);
    vx_registry_destroy(w);
}

/* The layout number changes with every spawn, despawn, registration, new
 * component and removal, and with nothing else (overwrites, reads, failed
 * calls); two worlds never share one, even when the second is made where
 * the first was freed. */
Test(ecs_component, layout_changes_exactly_when_what_exists_changes)
{
    cr_assert_eq(vx_registry_layout(NULL), 0u);
    vx_registry *w = make_world();
    uint64_t seen[16];
    size_t n = 0;
    seen[n++] = vx_registry_layout(w);
    cr_assert_neq(seen[0], 0u);
#define CHANGED()                                                                                          \
    do {                                                                                                   \
        uint64_t now_ = vx_registry_layout(w);                                                                \
        for (size_t i_ = 0; i_ < n; i_++) cr_assert_neq(now_, seen[i_], "a layout number came back");      \
        seen[n++] = now_;                                                                                  \
    } while (0)
#define UNCHANGED() cr_assert_eq(vx_registry_layout(w), seen[n - 1])
    vx_entity e;
    cr_assert_eq(vx_registry_spawn(w, &e), VX_OK);
    CHANGED();
    vx_vec3 p = vx_vec3_make(1.0f, 2.0f, 3.0f);
    cr_assert_eq(vx_registry_add(w, e, T_POS, &p), VX_OK);
    CHANGED();
    p.x = 7.0f;
    cr_assert_eq(vx_registry_add(w, e, T_POS, &p), VX_OK); /* an overwrite: the same slot */
    UNCHANGED();
    cr_assert_not_null(vx_registry_get(w, e, T_POS));
    cr_assert(vx_registry_has(w, e, T_POS));
    UNCHANGED();
    cr_assert(!vx_registry_remove(w, e, T_TAG)); /* nothing to remove */
    cr_assert_eq(vx_registry_add(w, e, 9, &p), VX_ERR_INVALID);
    UNCHANGED();
    cr_assert(vx_registry_remove(w, e, T_POS));
    CHANGED();
    cr_assert_eq(vx_registry_register_component(w, 9, 4u), VX_OK);
    CHANGED();
    cr_assert(vx_registry_despawn(w, e));
    CHANGED();
    cr_assert(!vx_registry_despawn(w, e)); /* stale */
    cr_assert_eq(vx_registry_add(w, e, T_POS, &p), VX_ERR_INVALID);
    UNCHANGED();
    vx_registry_destroy(w);
    vx_registry *w2 = make_world();
    w = w2;
    CHANGED(); /* whether or not it got the freed world's address */
#undef CHANGED
#undef UNCHANGED
    vx_registry_destroy(w2);
}

Test(ecs_component, despawn_removes_components_from_every_set)
{
    vx_registry *w = make_world();
    vx_entity a = spawn(w), b = spawn(w);
    vx_vec3 p = vx_vec3_make(1.0f, 1.0f, 1.0f);
    uint64_t big = 77u;
    odd3 o = {{1, 2, 3}};
    cr_assert_eq(vx_registry_add(w, a, T_POS, &p), VX_OK);
    add_tag(w, a, 10);
    cr_assert_eq(vx_registry_add(w, a, T_BIG, &big), VX_OK);
    cr_assert_eq(vx_registry_add(w, a, T_ODD, &o), VX_OK);
    add_tag(w, b, 20);
    cr_assert_eq(vx_registry_add(w, b, T_BIG, &big), VX_OK);

    cr_assert(vx_registry_despawn(w, a));
    cr_assert_eq(vx_registry_component_count(w, T_POS), 0u);
    cr_assert_eq(vx_registry_component_count(w, T_TAG), 1u);
    cr_assert_eq(vx_registry_component_count(w, T_BIG), 1u);
    cr_assert_eq(vx_registry_component_count(w, T_ODD), 0u);
    cr_assert_eq(get_tag(w, b), 20);

    /* The reused slot starts empty in every set. */
    vx_entity c = spawn(w);
    cr_assert_eq(c.index, a.index);
    for (vx_component_type t = T_POS; t <= T_ODD; t++) cr_assert(!vx_registry_has(w, c, t));
    vx_registry_destroy(w);
}

Test(ecs_component, values_survive_swap_removal_of_others)
{
    enum { N = 1000 };
    vx_registry *w = make_world();
    vx_entity e[N];
    for (int i = 0; i < N; i++) {
        e[i] = spawn(w);
        add_tag(w, e[i], i * 3 + 1);
        odd3 o = {{(unsigned char)i, (unsigned char)(i >> 8), (unsigned char)(255 - i % 256)}};
        cr_assert_eq(vx_registry_add(w, e[i], T_ODD, &o), VX_OK);
    }
    /* The middle one first, then every third (despawning), then two more. */
    bool removed[N] = {false};
    removed[N / 2] = true;
    cr_assert(vx_registry_remove(w, e[N / 2], T_TAG));
    cr_assert(vx_registry_remove(w, e[N / 2], T_ODD));
    for (int i = 0; i < N; i += 3) {
        if (removed[i]) continue;
        removed[i] = true;
        cr_assert(vx_registry_remove(w, e[i], T_TAG));
        cr_assert(vx_registry_despawn(w, e[i]));
    }
    int edges[2] = {N - 2, 1}; /* not multiples of 3 */
    for (int k = 0; k < 2; k++) {
        removed[edges[k]] = true;
        cr_assert(vx_registry_remove(w, e[edges[k]], T_TAG));
        cr_assert(vx_registry_remove(w, e[edges[k]], T_ODD));
    }

    size_t kept = 0;
    for (int i = 0; i < N; i++) {
        if (removed[i]) {
            cr_assert(!vx_registry_has(w, e[i], T_TAG));
            cr_assert(!vx_registry_has(w, e[i], T_ODD));
            continue;
        }
        kept++;
        cr_assert_eq(get_tag(w, e[i]), i * 3 + 1, "tag of entity %d", i);
        const odd3 *o = vx_registry_get(w, e[i], T_ODD);
        cr_assert_not_null(o);
        cr_assert(o->b[0] == (unsigned char)i && o->b[1] == (unsigned char)(i >> 8) &&
                      o->b[2] == (unsigned char)(255 - i % 256),
                  "odd value of entity %d", i);
    }
    cr_assert_eq(vx_registry_component_count(w, T_TAG), kept);
    cr_assert_eq(vx_registry_component_count(w, T_ODD), kept);
    vx_registry_destroy(w);
}

Test(ecs_component, many_entities_exercise_growth)
{
    enum { N = 100000 };
    vx_registry *w = make_world();
    vx_entity *e = malloc(N * sizeof *e);
    cr_assert_not_null(e);
    for (int i = 0; i < N; i++) {
        e[i] = spawn(w);
        vx_vec3 p = vx_vec3_make((float)i, (float)(-i), 0.5f);
        cr_assert_eq(vx_registry_add(w, e[i], T_POS, &p), VX_OK);
        if (i % 2 == 0) add_tag(w, e[i], i);
    }
    cr_assert_eq(vx_registry_entity_count(w), (size_t)N);
    cr_assert_eq(vx_registry_component_count(w, T_POS), (size_t)N);
    cr_assert_eq(vx_registry_component_count(w, T_TAG), (size_t)N / 2u);
    for (int i = 0; i < N; i += 4) cr_assert(vx_registry_despawn(w, e[i]));
    for (int i = 0; i < N; i++) {
        if (i % 4 == 0) {
            cr_assert(!vx_registry_is_alive(w, e[i]));
            continue;
        }
        const vx_vec3 *p = vx_registry_get(w, e[i], T_POS);
        cr_assert(p && p->x == (float)i && p->y == (float)(-i) && p->z == 0.5f, "position of %d", i);
        if (i % 2 == 0) cr_assert_eq(get_tag(w, e[i]), i);
        else cr_assert(!vx_registry_has(w, e[i], T_TAG));
    }
    cr_assert_eq(vx_registry_entity_count(w), (size_t)(N - N / 4));
    cr_assert_eq(vx_registry_component_count(w, T_TAG), (size_t)(N / 4));
    free(e);
    vx_registry_destroy(w);
}

/* ---- queries ---- */

Test(ecs_view, rejects_bad_type_lists)
{
    vx_registry *w = make_world();
    vx_entity e = spawn(w);
    add_tag(w, e, 1);
    vx_view q;
    vx_component_type unregistered[2] = {T_TAG, 7};
    cr_assert_eq(vx_view_begin(&q, w, unregistered, 2), VX_ERR_INVALID);
    cr_assert(!vx_view_next(&q), "a failed begin yields nothing");
    vx_component_type out_of_range[1] = {VX_MAX_COMPONENT_TYPES};
    cr_assert_eq(vx_view_begin(&q, w, out_of_range, 1), VX_ERR_INVALID);
    vx_component_type ok[VX_VIEW_MAX_TYPES + 1u] = {T_TAG};
    cr_assert_eq(vx_view_begin(&q, w, ok, 0), VX_ERR_INVALID);
    cr_assert_eq(vx_view_begin(&q, w, ok, VX_VIEW_MAX_TYPES + 1u), VX_ERR_INVALID);
    cr_assert_eq(vx_view_begin(&q, NULL, ok, 1), VX_ERR_INVALID);
    cr_assert_eq(vx_view_begin(&q, w, NULL, 1), VX_ERR_INVALID);
    vx_registry_destroy(w);
}

Test(ecs_view, single_type_walks_insertion_order)
{
    vx_registry *w = make_world();
    vx_entity e[6];
    for (int i = 0; i < 6; i++) e[i] = spawn(w);
    int order[4] = {4, 1, 5, 2};
    for (int k = 0; k < 4; k++) add_tag(w, e[order[k]], 100 + order[k]);
    vx_view q;
    vx_component_type types[1] = {T_TAG};
    cr_assert_eq(vx_view_begin(&q, w, types, 1), VX_OK);
    for (int k = 0; k < 4; k++) {
        cr_assert(vx_view_next(&q));
        cr_assert(vx_entity_equal(q.entity, e[order[k]]));
        cr_assert_eq(*(const int32_t *)vx_view_get(&q, 0), 100 + order[k]);
    }
    cr_assert(!vx_view_next(&q));
    cr_assert(!vx_view_next(&q), "a finished query stays finished");
    vx_registry_destroy(w);
}

Test(ecs_view, drives_from_the_smallest_set)
{
    vx_registry *w = make_world();
    vx_entity e[10];
    for (int i = 0; i < 10; i++) {
        e[i] = spawn(w);
        vx_vec3 p = vx_vec3_make((float)i, 0.0f, 0.0f);
        cr_assert_eq(vx_registry_add(w, e[i], T_POS, &p), VX_OK);
    }
    add_tag(w, e[7], 7);
    add_tag(w, e[3], 3);
    vx_view q;
    vx_component_type types[2] = {T_POS, T_TAG};
    cr_assert_eq(vx_view_begin(&q, w, types, 2), VX_OK);
    cr_assert_eq(q.driver, 1u, "the tag set (2 values) is smaller than positions (10)");
    /* Order is the tag set's dense order: 7 then 3. */
    int expect[2] = {7, 3};
    for (int k = 0; k < 2; k++) {
        cr_assert(vx_view_next(&q));
        cr_assert(vx_entity_equal(q.entity, e[expect[k]]));
        cr_assert_eq(((const vx_vec3 *)vx_view_get(&q, 0))->x, (float)expect[k]);
        cr_assert_eq(*(const int32_t *)vx_view_get(&q, 1), expect[k]);
    }
    cr_assert(!vx_view_next(&q));
    vx_registry_destroy(w);
}

Test(ecs_view, empty_set_yields_nothing)
{
    vx_registry *w = make_world();
    vx_entity e = spawn(w);
    add_tag(w, e, 1);
    vx_view q;
    vx_component_type types[2] = {T_TAG, T_POS};
    cr_assert_eq(vx_view_begin(&q, w, types, 2), VX_OK);
    cr_assert(!vx_view_next(&q));
    vx_registry_destroy(w);
}

/* What a randomized workload should have left in the world, tracked beside it. */
enum { RN = 1000, RTYPES = 4 };
typedef struct {
    vx_entity id[RN];
    bool has[RTYPES][RN];
    uint32_t stamp[RTYPES][RN];
} model;

static void write_value(vx_component_type t, uint32_t stamp, unsigned char out[16])
{
    memset(out, 0, 16);
    if (t == T_POS) {
        vx_vec3 v = vx_vec3_make((float)stamp, (float)stamp + 0.5f, -(float)stamp);
        memcpy(out, &v, sizeof v);
    } else if (t == T_TAG) {
        int32_t v = (int32_t)stamp;
        memcpy(out, &v, sizeof v);
    } else if (t == T_BIG) {
        uint64_t v = (uint64_t)stamp * 3u + 0x100000000u;
        memcpy(out, &v, sizeof v);
    } else {
        odd3 v = {{(unsigned char)stamp, (unsigned char)(stamp >> 8), (unsigned char)(stamp >> 16)}};
        memcpy(out, &v, sizeof v);
    }
}

static size_t type_size(vx_component_type t)
{
    static const size_t sizes[RTYPES] = {sizeof(vx_vec3), sizeof(int32_t), sizeof(uint64_t), sizeof(odd3)};
    return sizes[t];
}

/* Adds, overwrites, removes and respawns at random (fixed seed). */
static void random_workload(vx_registry *w, model *m, uint32_t seed)
{
    memset(m, 0, sizeof *m);
    for (int i = 0; i < RN; i++) m->id[i] = spawn(w);
    uint32_t rng = seed;
    for (uint32_t step = 1; step <= 12000u; step++) {
        int i = (int)(next_rand(&rng) % RN);
        vx_component_type t = next_rand(&rng) % RTYPES;
        uint32_t op = next_rand(&rng) % 100u;
        if (op < 60u) {
            unsigned char buf[16];
            write_value(t, step, buf);
            cr_assert_eq(vx_registry_add(w, m->id[i], t, buf), VX_OK);
            m->has[t][i] = true;
            m->stamp[t][i] = step;
        } else if (op < 95u) {
            cr_assert_eq(vx_registry_remove(w, m->id[i], t), m->has[t][i]);
            m->has[t][i] = false;
        } else {
            cr_assert(vx_registry_despawn(w, m->id[i]));
            for (int k = 0; k < RTYPES; k++) m->has[k][i] = false;
            m->id[i] = spawn(w);
        }
    }
}

/* Runs a query and compares it with a brute-force pass over the model. */
static void check_query(vx_registry *w, const model *m, const vx_component_type *types, size_t n)
{
    static int slot_of_index[RN];
    for (int i = 0; i < RN; i++) {
        cr_assert_lt(m->id[i].index, (uint32_t)RN);
        slot_of_index[m->id[i].index] = i;
    }
    bool seen[RN] = {false};
    size_t found = 0;
    vx_view q;
    cr_assert_eq(vx_view_begin(&q, w, types, n), VX_OK);
    while (vx_view_next(&q)) {
        cr_assert_lt(q.entity.index, (uint32_t)RN);
        int i = slot_of_index[q.entity.index];
        cr_assert(vx_entity_equal(q.entity, m->id[i]), "query returned a stale id");
        cr_assert(!seen[i], "entity %d returned twice", i);
        seen[i] = true;
        found++;
        for (size_t k = 0; k < n; k++) {
            vx_component_type t = types[k];
            cr_assert(m->has[t][i], "entity %d lacks type %u", i, t);
            unsigned char want[16];
            write_value(t, m->stamp[t][i], want);
            cr_assert_eq(vx_view_get(&q, k), vx_registry_get(w, q.entity, t));
            cr_assert(memcmp(vx_view_get(&q, k), want, type_size(t)) == 0, "value of type %u, entity %d", t, i);
        }
    }
    size_t expected = 0;
    for (int i = 0; i < RN; i++) {
        bool all = true;
        for (size_t k = 0; k < n; k++) all = all && m->has[types[k]][i];
        if (all) expected++;
        cr_assert_eq(all, seen[i], "entity %d: brute force says %d", i, all);
    }
    cr_assert_eq(found, expected);
    cr_assert_gt(expected, 0u, "the workload should leave some matches");
}

Test(ecs_view, randomized_matches_brute_force)
{
    vx_registry *w = make_world();
    static model m;
    random_workload(w, &m, 12345u);

    for (vx_component_type t = 0; t < RTYPES; t++) {
        size_t count = 0;
        for (int i = 0; i < RN; i++) {
            cr_assert_eq(vx_registry_has(w, m.id[i], t), m.has[t][i]);
            count += m.has[t][i];
        }
        cr_assert_eq(vx_registry_component_count(w, t), count);
    }
    const vx_component_type two_a[2] = {T_POS, T_TAG};
    const vx_component_type two_b[2] = {T_ODD, T_BIG};
    const vx_component_type three_a[3] = {T_POS, T_BIG, T_ODD};
    const vx_component_type three_b[3] = {T_ODD, T_TAG, T_POS};
    const vx_component_type four[4] = {T_BIG, T_TAG, T_ODD, T_POS};
    check_query(w, &m, two_a, 2);
    check_query(w, &m, two_b, 2);
    check_query(w, &m, three_a, 3);
    check_query(w, &m, three_b, 3);
    check_query(w, &m, four, 4);
    vx_registry_destroy(w);
}

/* ---- transform ---- */

Test(ecs_transform, identity_and_from_position)
{
    vx_transform t = vx_transform_identity();
    cr_assert(t.position.x == 0.0f && t.position.y == 0.0f && t.position.z == 0.0f);
    cr_assert(t.rotation.x == 0.0f && t.rotation.y == 0.0f && t.rotation.z == 0.0f && t.rotation.w == 1.0f);
    vx_transform p = vx_transform_from_position(vx_vec3_make(1.0f, -2.0f, 3.5f));
    cr_assert(p.position.x == 1.0f && p.position.y == -2.0f && p.position.z == 3.5f);
    cr_assert(p.rotation.x == 0.0f && p.rotation.y == 0.0f && p.rotation.z == 0.0f && p.rotation.w == 1.0f);
}

/* ---- running out of memory ---- */

Test(ecs_nomem, impossible_component_size_fails_cleanly)
{
    vx_registry *w = make_world();
    /* Larger than any object may be (PTRDIFF_MAX bytes). */
    cr_assert_eq(vx_registry_register_component(w, 10, (size_t)PTRDIFF_MAX + 1u), VX_OK);
    vx_entity e = spawn(w);
    add_tag(w, e, 5);
    static unsigned char dummy[1];
    /* No storage can hold even one such value; the value is never read. */
    cr_assert_eq(vx_registry_add(w, e, 10, dummy), VX_ERR_NOMEM);
    cr_assert(!vx_registry_has(w, e, 10));
    cr_assert_eq(vx_registry_component_count(w, 10), 0u);
    cr_assert_eq(get_tag(w, e), 5);
    vx_view q;
    const vx_component_type types[2] = {T_TAG, 10};
    cr_assert_eq(vx_view_begin(&q, w, types, 2), VX_OK);
    cr_assert(!vx_view_next(&q));
    cr_assert(vx_registry_despawn(w, e));
    vx_registry_destroy(w);
}


#if !defined(VX_TEST_ASAN)
/* Allocation failure injection: this program replaces malloc and friends with
 * wrappers around glibc's own, which can fail the n-th allocation and count
 * live blocks. The sanitizers bring their own allocator, so there this part
 * is left out. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

static _Thread_local bool g_tracking;     /* count and maybe fail this thread's allocations */
static _Thread_local long g_fail_at = -1; /* index of the allocation to fail, -1 none */
static _Thread_local long g_alloc_index;  /* allocations since tracking started */
static _Thread_local long g_live_blocks;  /* blocks allocated minus freed while tracking */
static _Thread_local long g_failures;     /* failures injected */

static bool should_fail(void)
{
    if (!g_tracking) return false;
    long n = g_alloc_index++;
    if (n == g_fail_at) {
        g_failures++;
        return true;
    }
    return false;
}

void *malloc(size_t size)
{
    if (should_fail()) return NULL;
    void *p = __libc_malloc(size);
    if (p && g_tracking) g_live_blocks++;
    return p;
}

void *calloc(size_t n, size_t size)
{
    if (should_fail()) return NULL;
    void *p = __libc_calloc(n, size);
    if (p && g_tracking) g_live_blocks++;
    return p;
}

void *realloc(void *old, size_t size)
{
    if (should_fail()) return NULL;
    void *p = __libc_realloc(old, size);
    if (p && !old && g_tracking) g_live_blocks++;
    return p;
}

void free(void *p)
{
    if (p && g_tracking) g_live_blocks--;
    __libc_free(p);
}

static void start_tracking(long fail_at)
{
    g_alloc_index = 0;
    g_live_blocks = 0;
    g_failures = 0;
    g_fail_at = fail_at;
    g_tracking = true;
}

static void stop_tracking(void) { g_tracking = false; }

/* A workload of spawns, adds and despawns that retries each step that ran out
 * of memory, checking that the failed step changed nothing visible. Returns
 * true if every step succeeded the first time. */
static bool workload_with_retries(vx_registry *w)
{
    enum { M = 300 };
    static vx_entity e[M];
    bool clean = true;
    for (int i = 0; i < M; i++) {
        size_t alive = vx_registry_entity_count(w);
        vx_status st = vx_registry_spawn(w, &e[i]);
        if (st != VX_OK) {
            cr_assert_eq(st, VX_ERR_NOMEM);
            cr_assert_eq(vx_registry_entity_count(w), alive);
            clean = false;
            cr_assert_eq(vx_registry_spawn(w, &e[i]), VX_OK);
        }
        for (vx_component_type t = T_POS; t <= T_ODD; t++) {
            if ((i + (int)t) % 3 == 0) continue;
            unsigned char buf[16];
            write_value(t, (uint32_t)(i * 7 + (int)t), buf);
            size_t before = vx_registry_component_count(w, t);
            st = vx_registry_add(w, e[i], t, buf);
            if (st != VX_OK) {
                cr_assert_eq(st, VX_ERR_NOMEM);
                cr_assert_eq(vx_registry_component_count(w, t), before);
                cr_assert(!vx_registry_has(w, e[i], t));
                clean = false;
                cr_assert_eq(vx_registry_add(w, e[i], t, buf), VX_OK);
            }
        }
        if (i % 5 == 4) cr_assert(vx_registry_despawn(w, e[i - 2]));
    }
    /* Whatever failed along the way, the end state is the planned one. */
    for (int i = 0; i < M; i++) {
        bool gone = i % 5 == 2 && i + 2 < M;
        cr_assert_eq(vx_registry_is_alive(w, e[i]), !gone, "entity %d", i);
        for (vx_component_type t = T_POS; t <= T_ODD; t++) {
            bool want = !gone && (i + (int)t) % 3 != 0;
            cr_assert_eq(vx_registry_has(w, e[i], t), want, "entity %d type %u", i, t);
            if (!want) continue;
            unsigned char buf[16];
            write_value(t, (uint32_t)(i * 7 + (int)t), buf);
            cr_assert(memcmp(vx_registry_get(w, e[i], t), buf, type_size(t)) == 0);
        }
    }
    return clean;
}

Test(ecs_nomem, every_allocation_failure_is_survivable)
{
    /* First count the allocations of a clean run, then fail each one in turn. */
    start_tracking(-1);
    vx_registry *w = make_world();
    cr_assert(workload_with_retries(w));
    vx_registry_destroy(w);
    long total = g_alloc_index;
    stop_tracking();
    cr_assert_eq(g_live_blocks, 0, "a clean run leaks nothing");
    cr_assert_gt(total, 10);

    for (long k = 0; k < total; k++) {
        start_tracking(k);
        w = vx_registry_create();
        if (!w) {
            stop_tracking();
            cr_assert_eq(k, 0, "only the first allocation is the world itself");
            cr_assert_eq(g_live_blocks, 0);
            continue;
        }
        /* make_world registers only: registration allocates nothing. */
        stop_tracking();
        cr_assert_eq(vx_registry_register_component(w, T_POS, sizeof(vx_vec3)), VX_OK);
        cr_assert_eq(vx_registry_register_component(w, T_TAG, sizeof(int32_t)), VX_OK);
        cr_assert_eq(vx_registry_register_component(w, T_BIG, sizeof(uint64_t)), VX_OK);
        cr_assert_eq(vx_registry_register_component(w, T_ODD, sizeof(odd3)), VX_OK);
        g_tracking = true;
        bool clean = workload_with_retries(w);
        vx_registry_destroy(w);
        stop_tracking();
        cr_assert_eq(g_failures, 1, "allocation %ld was made", k);
        cr_assert(!clean, "the failure of allocation %ld was reported", k);
        cr_assert_eq(g_live_blocks, 0, "no leak after failing allocation %ld", k);
    }
}

Test(ecs_nomem, create_returns_null_when_out_of_memory)
{
    start_tracking(0);
    vx_registry *w = vx_registry_create();
    stop_tracking();
    cr_assert_null(w);
    cr_assert_eq(g_live_blocks, 0);
}
#endif
