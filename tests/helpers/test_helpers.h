/* Shared helpers for the Criterion tests: approximate comparison of floats and
 * vectors, and running the voltex-sim binary. */
#ifndef VOLTEX_TEST_HELPERS_H
#define VOLTEX_TEST_HELPERS_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "voltex/math.h"

#define VX_ASSERT_NEAR(actual, expected, eps)                                                              \
    cr_assert(fabs((double)(actual) - (double)(expected)) <= (double)(eps), "%s = %.9g, expected %.9g +- %g", \
              #actual, (double)(actual), (double)(expected), (double)(eps))

#define VX_ASSERT_VEC3_NEAR(actual, ex, ey, ez, eps)                                                       \
    do {                                                                                                   \
        vx_vec3 vx_av_ = (actual);                                                                         \
        VX_ASSERT_NEAR(vx_av_.x, (ex), (eps));                                                             \
        VX_ASSERT_NEAR(vx_av_.y, (ey), (eps));                                                             \
        VX_ASSERT_NEAR(vx_av_.z, (ez), (eps));                                                             \
    } while (0)

/* A tiny deterministic generator for randomised tests (xorshift32): the same
 * seed gives the same sequence on every machine. The seed must not be 0. */
typedef struct {
    uint32_t state;
} vx_test_rng;

static inline uint32_t vx_test_rng_next(vx_test_rng *r)
{
    uint32_t x = r->state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    r->state = x;
    return x;
}

/* Uniform in [lo, hi), from the top 24 bits (exact in a float). */
static inline float vx_test_rng_range(vx_test_rng *r, float lo, float hi)
{
    float u = (float)(vx_test_rng_next(r) >> 8) / 16777216.0f;
    return lo + (hi - lo) * u;
}

/* Each component uniform in [lo, hi), drawn x, then y, then z (the order of
 * the arguments of one call would be the compiler's choice). */
static inline vx_vec3 vx_test_rng_vec3(vx_test_rng *r, float lo, float hi)
{
    float x = vx_test_rng_range(r, lo, hi);
    float y = vx_test_rng_range(r, lo, hi);
    float z = vx_test_rng_range(r, lo, hi);
    return vx_vec3_make(x, y, z);
}

/* ---- physics worlds built by hand (tests of the physics module) ---- */
#include "physics/step.h"
#include "physics/step_tuning.h"
#include "voltex/physics.h"

/* A world with the physics components registered. */
static inline vx_registry *vx_test_physics_world(void)
{
    vx_registry *w = vx_registry_create();
    cr_assert_not_null(w);
    cr_assert_eq(vx_physics_register_components(w), VX_OK);
    return w;
}

/* An entity with a transform at position, plus the collider and rigid body
 * given (either may be NULL). */
static inline vx_entity vx_test_spawn_body(vx_registry *w, vx_vec3 position, const vx_collider *collider,
                                           const vx_rigidbody *body)
{
    vx_entity e;
    cr_assert_eq(vx_registry_spawn(w, &e), VX_OK);
    vx_transform t = vx_transform_from_position(position);
    cr_assert_eq(vx_registry_add(w, e, VX_COMPONENT_TRANSFORM, &t), VX_OK);
    if (collider) cr_assert_eq(vx_registry_add(w, e, VX_COMPONENT_COLLIDER, collider), VX_OK);
    if (body) cr_assert_eq(vx_registry_add(w, e, VX_COMPONENT_RIGIDBODY, body), VX_OK);
    return e;
}

static inline vx_rigidbody *vx_test_body(vx_registry *w, vx_entity e)
{
    vx_rigidbody *rb = vx_registry_get(w, e, VX_COMPONENT_RIGIDBODY);
    cr_assert_not_null(rb);
    return rb;
}

static inline vx_transform *vx_test_transform(vx_registry *w, vx_entity e)
{
    vx_transform *t = vx_registry_get(w, e, VX_COMPONENT_TRANSFORM);
    cr_assert_not_null(t);
    return t;
}

/* vx_test_spawn_body, then the orientation set to rotation. */
static inline vx_entity vx_test_spawn_rotated(vx_registry *w, vx_vec3 position, vx_quat rotation,
                                              const vx_collider *collider, const vx_rigidbody *body)
{
    vx_entity e = vx_test_spawn_body(w, position, collider, body);
    vx_test_transform(w, e)->rotation = rotation;
    return e;
}

/* The tuning every stepper made after this gets (step_tuning.h): a test
 * program's suites change it in their init. */
static inline vx_step_tuning *vx_test_tuning(void)
{
    static vx_step_tuning tuning;
    static bool made = false;
    if (!made) tuning = vx_step_tuning_default();
    made = true;
    return &tuning;
}

/* What vx_step needs between steps, kept together. */
typedef struct {
    vx_world_def cfg;
    vx_step_state state;
    vx_contact_list report; /* the last step's */
} vx_test_stepper;

/* Default config (the caller may change cfg before the first step). */
static inline void vx_test_stepper_init(vx_test_stepper *s)
{
    s->cfg = vx_world_def_default();
    vx_step_state_init(&s->state);
    vx_contact_list_init(&s->report);
    vx_step_tuning *tuning = vx_step_tuning_of(&s->state);
    cr_assert_not_null(tuning);
    *tuning = *vx_test_tuning();
}

static inline void vx_test_stepper_free(vx_test_stepper *s)
{
    vx_contact_list_free(&s->report);
    vx_step_state_free(&s->state);
}

static inline void vx_test_step(vx_registry *w, vx_test_stepper *s)
{
    cr_assert_eq(vx_step(w, &s->cfg, &s->state, &s->report), VX_OK);
}

/* The sum of the normal impulses of the last report between a and b (either
 * order), and how many points it has. */
static inline float vx_test_pair_impulse(const vx_test_stepper *s, vx_entity a, vx_entity b, int *points)
{
    float sum = 0.0f;
    int n = 0;
    for (size_t i = 0; i < s->report.count; i++) {
        const vx_contact *c = &s->report.items[i];
        bool ab = vx_entity_equal(c->entity_a, a) && vx_entity_equal(c->entity_b, b);
        bool ba = vx_entity_equal(c->entity_a, b) && vx_entity_equal(c->entity_b, a);
        if (!ab && !ba) continue;
        sum += c->impulse;
        n++;
    }
    if (points) *points = n;
    return sum;
}

/* VX_TEST_ASAN is defined in a build with the address sanitizer (GCC's and
 * Clang's macros), where long tests run shorter. */
#if defined(__SANITIZE_ADDRESS__)
#define VX_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VX_TEST_ASAN 1
#endif
#endif

#endif
