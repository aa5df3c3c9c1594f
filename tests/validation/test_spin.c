/* Validation: a box spun about its intermediate axis (with a small
 * perturbation, no gravity, no contacts) tumbles over and back (the
 * Dzhanibekov effect) while its angular momentum stays within 1 % and its
 * rotational energy within a few % for 10 s (Bullet's implicit gyroscopic step
 * loses 17 % of the energy here). */
#include <criterion/criterion.h>

#include "test_validation.h"

TestSuite(validation, .fini = vx_validation_fini);

#define ENERGY_TOLERANCE 0.03 /* "within a few %" */

Test(validation, spin_free_conserves_angular_momentum_and_energy)
{
    vx_validation *v = vx_validation_open("validation/spin_free");
    size_t box = vx_validation_entity(v, "spinner");
    vx_vec3 inertia = vx_validation_inertia(v, box);
    /* the spin is about the intermediate axis, local Y */
    cr_assert(inertia.z < inertia.y && inertia.y < inertia.x, "moments %g %g %g", (double)inertia.x,
              (double)inertia.y, (double)inertia.z);

    vx_vec3 l0 = vx_angular_momentum(v->start[box].q, v->start[box].w, inertia);
    double l0_len = (double)vx_vec3_length(l0);
    double e0 = (double)vx_rotational_energy(v->start[box].q, v->start[box].w, inertia);
    double worst_l = 0.0, worst_l_vec = 0.0, worst_e = 0.0;
    int64_t worst_l_step = 0, worst_e_step = 0;
    /* The body-frame spin about local Y, as a fraction of |w|: +1 at the start,
     * near -1 once flipped, near +1 again once back. */
    double lowest = 1.0;
    bool flipped = false, back = false;
    int64_t flip_step = 0, back_step = 0;
    for (int k = 0; k < 600; k++) {
        vx_validation_step(v);
        vx_quat q = v->now[box].q;
        vx_vec3 w = v->now[box].w;
        vx_vec3 l = vx_angular_momentum(q, w, inertia);
        double dl = fabs((double)vx_vec3_length(l) - l0_len) / l0_len;
        double dl_vec = vx_validation_distance(l, l0) / l0_len;
        double de = fabs((double)vx_rotational_energy(q, w, inertia) - e0) / e0;
        if (dl > worst_l) {
            worst_l = dl;
            worst_l_step = v->steps_done;
        }
        if (dl_vec > worst_l_vec) worst_l_vec = dl_vec;
        if (de > worst_e) {
            worst_e = de;
            worst_e_step = v->steps_done;
        }
        double axis = (double)vx_quat_rotate(vx_quat_conjugate(q), w).y / (double)vx_vec3_length(w);
        if (axis < lowest) lowest = axis;
        if (!flipped && axis < -0.9) {
            flipped = true;
            flip_step = v->steps_done;
        }
        if (flipped && !back && axis > 0.9) {
            back = true;
            back_step = v->steps_done;
        }
    }
    cr_assert(worst_l <= 0.01, "spin_free: |L| off by up to %g %% (step %lld), limit 1 %%", 100.0 * worst_l,
              (long long)worst_l_step);
    cr_assert(worst_l_vec <= 0.01, "spin_free: the vector L moved by up to %g %% of |L|, limit 1 %%",
              100.0 * worst_l_vec);
    cr_assert(worst_e <= ENERGY_TOLERANCE, "spin_free: rotational energy off by up to %g %% (step %lld), limit %g %%",
              100.0 * worst_e, (long long)worst_e_step, 100.0 * ENERGY_TOLERANCE);
    /* the analytic motion flips at about 1.9 s and is back at about 6.1 s */
    cr_assert(flipped, "spin_free: never flipped over (lowest body-frame Y spin fraction %g)", lowest);
    cr_assert(back, "spin_free: flipped at step %lld but never came back", (long long)flip_step);
    cr_assert_lt(flip_step, back_step);
}
