/* Validation of a Newton's cradle (scenes/validation/cradle.json: a striker
 * at 2 m/s and four equal balls in a row, 2 cm apart, restitution 1, no
 * gravity or friction). Elastic collisions of equal masses, one after the
 * other, hand the whole velocity down the row: the striker and the first
 * three balls end at rest and the last ball leaves at 2 m/s, with momentum
 * and energy kept. That needs the collisions apart in time: each gap closes
 * in 10 ms, less than a 1/60 s step, so with one substep the step's
 * speculative contacts meet every gap at once and solve the row as one
 * body; with 4 substeps (4.2 ms each) they come one after the other
 * (docs/simulation.md, Substeps). */
#include <criterion/criterion.h>

#include "test_validation.h"

TestSuite(validation, .fini = vx_validation_fini);

#define STRIKER_SPEED 2.0 /* m/s, the scene's */

/* The scene stepped to its end with the given substeps; the sum of the
 * balls' x velocities and their kinetic energy at the end. */
static vx_validation *run_cradle(int substeps, double *momentum, double *energy)
{
    vx_validation *v = vx_validation_open("validation/cradle");
    vx_world_def def = *vx_world_get_def(v->scene.world);
    def.substeps = substeps;
    vx_error err;
    cr_assert_eq(vx_world_set_def(v->scene.world, &def, &err), VX_OK, "%s", err.message);
    cr_assert_float_eq(vx_validation_kinetic_energy(v, v->start), 0.5 * STRIKER_SPEED * STRIKER_SPEED, 1e-9);
    for (int64_t k = 0; k < v->scene.steps; k++) vx_validation_step(v);
    *momentum = 0.0;
    for (size_t i = 0; i < v->scene.entity_count; i++) *momentum += (double)v->now[i].v.x;
    *energy = vx_validation_kinetic_energy(v, v->now);
    return v;
}

Test(validation, cradle_hands_the_velocity_to_the_last_ball_with_substeps)
{
    double momentum, energy;
    vx_validation *v = run_cradle(4, &momentum, &energy);
    size_t last = vx_validation_entity(v, "ball4");
    for (size_t i = 0; i < v->scene.entity_count; i++) {
        double expected = i == last ? STRIKER_SPEED : 0.0;
        cr_assert(fabs((double)v->now[i].v.x - expected) < 1e-4, "%s: vx %.9g, expected %g", v->scene.names[i],
                  (double)v->now[i].v.x, expected);
    }
    cr_assert(fabs(momentum - STRIKER_SPEED) < 1e-5, "momentum %.9g", momentum);
    cr_assert(fabs(energy - 0.5 * STRIKER_SPEED * STRIKER_SPEED) < 1e-4, "energy %.9g J", energy);
    /* the last ball is on its way */
    cr_assert_gt(v->now[last].p.x, v->start[last].p.x + 1.0f);
}

Test(validation, cradle_in_one_substep_moves_the_row_as_one_body)
{
    /* Momentum is kept, but the contacts of all four gaps are solved
     * together: the striker bounces back and the row shares the rest, and
     * energy is lost in the simultaneous solve (none gained). */
    double momentum, energy;
    vx_validation *v = run_cradle(1, &momentum, &energy);
    cr_assert(fabs(momentum - STRIKER_SPEED) < 1e-5, "momentum %.9g", momentum);
    cr_assert_lt(energy, 0.5 * STRIKER_SPEED * STRIKER_SPEED);
    cr_assert_lt(v->now[vx_validation_entity(v, "striker")].v.x, 0.0f);
    cr_assert_lt(v->now[vx_validation_entity(v, "ball4")].v.x, 1.0f);
}
