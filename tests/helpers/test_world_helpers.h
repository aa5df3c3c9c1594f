/* Bodies made through the library (voltex/world.h) in one call each, for the
 * tests that build worlds: a failure stops the test with the message. */
#ifndef VOLTEX_TEST_WORLD_HELPERS_H
#define VOLTEX_TEST_WORLD_HELPERS_H

#include <criterion/criterion.h>

#include "voltex/world.h"

/* A body of def with shape. */
static inline vx_entity vx_test_add_body(vx_world *w, const vx_body_def *def, vx_collider shape)
{
    vx_entity e;
    vx_error err;
    cr_assert_eq(vx_world_create_body(w, def, &e, &err), VX_OK, "%s", err.message);
    cr_assert_eq(vx_body_set_shape(w, e, &shape, &err), VX_OK, "%s", err.message);
    return e;
}

/* A body of the given type at (at, q) with shape, the defaults otherwise. */
static inline vx_entity vx_test_add_placed(vx_world *w, vx_body_type type, vx_vec3 at, vx_quat q, vx_collider shape)
{
    vx_body_def d = vx_body_def_default();
    d.type = type;
    d.position = at;
    d.rotation = q;
    return vx_test_add_body(w, &d, shape);
}

static inline vx_body_state vx_test_state_of(const vx_world *w, vx_entity e)
{
    vx_body_state s;
    vx_error err;
    cr_assert_eq(vx_body_get_state(w, e, &s, &err), VX_OK, "%s", err.message);
    return s;
}

#endif
