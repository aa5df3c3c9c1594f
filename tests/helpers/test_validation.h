/* Shared by the programs of tests/validation/: load a scene of scenes/,
 * step it as the command line does, and read the bodies' state after each
 * step. The tests measure the physics against analytic values; no golden
 * trace is involved. */
#ifndef VOLTEX_TEST_VALIDATION_H
#define VOLTEX_TEST_VALIDATION_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "voltex/physics.h"
#include "voltex/rotation.h"
#include "voltex/scene.h"
#include "voltex/trace.h"

#define VX_VALIDATION_SCENES VOLTEX_SOURCE_DIR "/scenes/"

typedef struct {
    vx_scene scene;
    const vx_contact_list *report; /* contacts of the last step */
    vx_body_state *start;   /* frame 0 */
    vx_body_state *now;     /* after the last step */
    int64_t steps_done;
} vx_validation;

/* The run of the current test. It lives here, not on the test's stack, so
 * that vx_validation_fini frees it also when an assertion ends the test early
 * (every test program declares TestSuite(validation, .fini = vx_validation_fini)). */
static vx_validation vx_validation_current;

/* Loads scenes/NAME.json (NAME may name a subfolder: "bench/stack_10") with
 * the overrides sets (as --set gives them; may be NULL) and checks the
 * settings every validation scene shares: 60 Hz, 10 velocity iterations, 1
 * substep, sleeping off. */
static inline vx_validation *vx_validation_open_with(const char *name, const vx_scene_set *sets, size_t set_count)
{
    vx_validation *v = &vx_validation_current;
    memset(v, 0, sizeof *v);
    char path[512];
    snprintf(path, sizeof path, VX_VALIDATION_SCENES "%s.json", name);
    vx_error err;
    vx_scene_source source = {path, -1, NULL, sets, set_count};
    vx_status st = vx_scene_load(&source, &v->scene, &err);
    cr_assert_eq(st, VX_OK, "%s", err.message);
    const vx_world_def *def = vx_world_get_def(v->scene.world);
    cr_assert_eq(def->fixed_dt, 1.0f / 60.0f, "%s: dt %g", name, (double)def->fixed_dt);
    cr_assert_eq(def->iterations, 10, "%s: iterations %d", name, def->iterations);
    cr_assert_eq(def->substeps, 1, "%s: substeps %d", name, def->substeps);
    cr_assert_not(def->sleeping, "%s: sleeping on", name);
    size_t n = v->scene.entity_count;
    cr_assert_gt(n, 0, "%s: no entities", name);
    v->start = calloc(n, sizeof *v->start);
    v->now = calloc(n, sizeof *v->now);
    cr_assert(v->start && v->now);
    v->report = vx_world_contacts(v->scene.world);
    vx_trace_snapshot(v->scene.world, v->scene.entities, n, v->start);
    memcpy(v->now, v->start, n * sizeof *v->now);
    return v;
}

static inline vx_validation *vx_validation_open(const char *name) { return vx_validation_open_with(name, NULL, 0); }

static inline void vx_validation_fini(void)
{
    vx_validation *v = &vx_validation_current;
    free(v->start);
    free(v->now);
    vx_scene_destroy(&v->scene);
    memset(v, 0, sizeof *v);
}

static inline bool vx_validation_state_finite(const vx_body_state *s)
{
    return vx_vec3_is_finite(s->p) && vx_quat_is_finite(s->q) && vx_vec3_is_finite(s->v) && vx_vec3_is_finite(s->w);
}

/* One fixed step; then `now` holds the state and every number is checked finite. */
static inline void vx_validation_step(vx_validation *v)
{
    vx_error err;
    vx_status st = vx_world_step(v->scene.world, &err);
    v->steps_done++;
    cr_assert_eq(st, VX_OK, "%s: step %lld: %s", v->scene.name, (long long)v->steps_done, err.message);
    vx_trace_snapshot(v->scene.world, v->scene.entities, v->scene.entity_count, v->now);
    for (size_t i = 0; i < v->scene.entity_count; i++)
        cr_assert(vx_validation_state_finite(&v->now[i]), "%s: entity %zu (%s) non-finite after step %lld",
                  v->scene.name, i, v->scene.names[i], (long long)v->steps_done);
}

/* Seconds simulated so far. */
static inline double vx_validation_time(const vx_validation *v)
{
    return (double)v->steps_done * (double)vx_world_get_def(v->scene.world)->fixed_dt;
}

/* Index of the entity called name (asserted to exist). */
static inline size_t vx_validation_entity(const vx_validation *v, const char *name)
{
    for (size_t i = 0; i < v->scene.entity_count; i++)
        if (strcmp(v->scene.names[i], name) == 0) return i;
    cr_assert_fail("%s: no entity named %s", v->scene.name, name);
    return 0;
}

/* Component `type` of scene entity i (NULL when it has none). */
static inline const void *vx_validation_component(const vx_validation *v, size_t i, vx_component_type type)
{
    return vx_registry_get_const(vx_world_registry_const(v->scene.world), v->scene.entities[i], type);
}

static inline const vx_rigidbody *vx_validation_body(const vx_validation *v, size_t i)
{
    const vx_rigidbody *rb = vx_validation_component(v, i, VX_COMPONENT_RIGIDBODY);
    cr_assert_not_null(rb, "%s: entity %s has no rigid body", v->scene.name, v->scene.names[i]);
    return rb;
}

static inline const vx_collider *vx_validation_collider(const vx_validation *v, size_t i)
{
    const vx_collider *c = vx_validation_component(v, i, VX_COMPONENT_COLLIDER);
    cr_assert_not_null(c, "%s: entity %s has no collider", v->scene.name, v->scene.names[i]);
    return c;
}

static inline bool vx_validation_is_dynamic(const vx_validation *v, size_t i)
{
    const vx_rigidbody *rb = vx_validation_component(v, i, VX_COMPONENT_RIGIDBODY);
    return rb && rb->type == VX_BODY_DYNAMIC;
}

/* Principal moments of entity i's solid shape with its mass. */
static inline vx_vec3 vx_validation_inertia(const vx_validation *v, size_t i)
{
    const vx_collider *c = vx_validation_collider(v, i);
    float mass = vx_validation_body(v, i)->mass;
    switch (c->type) {
    case VX_SHAPE_SPHERE: return vx_inertia_sphere(mass, c->radius);
    case VX_SHAPE_BOX: return vx_inertia_box(mass, c->half_extents);
    case VX_SHAPE_HULL: {
        /* along the hull's principal axes (vx_validation_body_frame) */
        vx_hull_info info = vx_hull_get_info(c->hull);
        return vx_vec3_scale(info.inertia, mass / info.volume);
    }
    case VX_SHAPE_COMPOUND: {
        vx_compound_info info = vx_compound_get_info(c->compound);
        return vx_vec3_scale(info.inertia, mass / info.volume);
    }
    case VX_SHAPE_CAPSULE:
    default: return vx_inertia_capsule(mass, c->radius, c->half_height);
    }
}

/* Entity i's centre of mass, velocity of the centre of mass and principal
 * frame's orientation in state s (a hull's or a compound's centre of mass
 * and axes need not be the entity's origin and axes). */
static inline void vx_validation_body_frame(const vx_validation *v, size_t i, const vx_body_state *s, vx_vec3 *c,
                                            vx_vec3 *vc, vx_quat *q)
{
    const vx_collider *col = vx_validation_collider(v, i);
    *c = s->p;
    *vc = s->v;
    *q = s->q;
    if (!col || (col->type != VX_SHAPE_HULL && col->type != VX_SHAPE_COMPOUND)) return;
    vx_transform f = col->type == VX_SHAPE_HULL ? vx_hull_get_info(col->hull).frame
                                                : vx_compound_get_info(col->compound).frame;
    *c = vx_vec3_add(s->p, vx_quat_rotate(s->q, f.position));
    *vc = vx_vec3_add(s->v, vx_vec3_cross(s->w, vx_vec3_sub(*c, s->p)));
    *q = vx_quat_mul(s->q, f.rotation);
}

/* Linear plus rotational kinetic energy of the dynamic bodies in state s. */
static inline double vx_validation_kinetic_energy(const vx_validation *v, const vx_body_state *s)
{
    double e = 0.0;
    for (size_t i = 0; i < v->scene.entity_count; i++) {
        if (!vx_validation_is_dynamic(v, i)) continue;
        double m = (double)vx_validation_body(v, i)->mass;
        vx_vec3 c, vc;
        vx_quat q;
        vx_validation_body_frame(v, i, &s[i], &c, &vc, &q);
        e += 0.5 * m * (double)vx_vec3_length_sq(vc);
        e += (double)vx_rotational_energy(q, s[i].w, vx_validation_inertia(v, i));
    }
    return e;
}

/* Kinetic plus potential energy of the dynamic bodies (centres of mass). */
static inline double vx_validation_total_energy(const vx_validation *v, const vx_body_state *s)
{
    double g = (double)vx_vec3_length(vx_world_get_def(v->scene.world)->gravity), e = 0.0;
    for (size_t i = 0; i < v->scene.entity_count; i++) {
        if (!vx_validation_is_dynamic(v, i)) continue;
        vx_vec3 c, vc;
        vx_quat q;
        vx_validation_body_frame(v, i, &s[i], &c, &vc, &q);
        e += (double)vx_validation_body(v, i)->mass * g * (double)c.y;
    }
    return e + vx_validation_kinetic_energy(v, s);
}

static inline double vx_validation_distance(vx_vec3 a, vx_vec3 b) { return (double)vx_vec3_length(vx_vec3_sub(a, b)); }

/* The complete elliptic integral of the first kind K(k), by the AGM (a
 * pendulum's exact period: 4 sqrt(I / (m g d)) K(sin(theta0 / 2))). */
static inline double vx_validation_elliptic_k(double k)
{
    double a = 1.0, b = sqrt(1.0 - k * k);
    for (int i = 0; i < 40; i++) {
        double m = 0.5 * (a + b);
        b = sqrt(a * b);
        a = m;
    }
    return 3.14159265358979323846 / (2.0 * a);
}

/* How far a body spinning freely drifted over some steps (worst of each). */
typedef struct {
    double momentum; /* |L - L0| / |L0| */
    double energy;   /* |E - E0| / E0 */
    double line;     /* m: the centre of mass from its straight line */
} vx_validation_drift;

/* Steps entity i, alone and free in zero gravity, and checks that its
 * centre of mass stays within 1 mm of its straight line and its angular
 * momentum and kinetic energy within 0.1 % of their start, every step. */
static inline vx_validation_drift vx_validation_free_spin(vx_validation *v, size_t i, int steps)
{
    vx_vec3 c0, vc0;
    vx_quat q0;
    vx_validation_body_frame(v, i, &v->start[i], &c0, &vc0, &q0);
    vx_vec3 inertia = vx_validation_inertia(v, i);
    vx_vec3 l0 = vx_angular_momentum(q0, v->start[i].w, inertia);
    double e0 = vx_validation_kinetic_energy(v, v->start);
    float dt = vx_world_get_def(v->scene.world)->fixed_dt;
    vx_validation_drift worst = {0.0, 0.0, 0.0};
    for (int n = 1; n <= steps; n++) {
        vx_validation_step(v);
        vx_vec3 c, vc;
        vx_quat q;
        vx_validation_body_frame(v, i, &v->now[i], &c, &vc, &q);
        double line = vx_validation_distance(c, vx_vec3_add(c0, vx_vec3_scale(vc0, dt * (float)n)));
        vx_vec3 l_now = vx_angular_momentum(q, v->now[i].w, inertia);
        double l = vx_validation_distance(l_now, l0) / (double)vx_vec3_length(l0);
        double e = fabs(vx_validation_kinetic_energy(v, v->now) - e0) / e0;
        cr_assert_lt(line, 1e-3, "step %d: the centre of mass left its line by %g m", n, line);
        cr_assert_lt(l, 1e-3, "step %d: L moved %g of itself", n, l);
        cr_assert_lt(e, 1e-3, "step %d: energy moved %g of itself", n, e);
        worst.momentum = fmax(worst.momentum, l);
        worst.energy = fmax(worst.energy, e);
        worst.line = fmax(worst.line, line);
    }
    return worst;
}

#endif
