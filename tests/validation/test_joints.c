/* Validation of the joints against mechanics (scenes/joints/, the defaults
 * 60 Hz, 10 iterations, 1 substep):
 * - pendulum: a small sphere on a 1 m distance joint swung from 10 degrees
 *   has the period 2 pi sqrt(L/g) (1 + theta^2/16) within 0.5 % and keeps
 *   its length within 1 mm;
 * - hinged_rod: a rod hinged at its end, released from 60 degrees, has the
 *   physical pendulum's period (the exact elliptic one) within 1 % and keeps
 *   its swing energy within 1 % for 60 s;
 * - chain: 20 links of 1 kg on ball joints carrying a 50 kg sphere, dropped
 *   from level, keep every joint gap under 5 mm (also 10 times heavier);
 * - hinge_motor: a motor of limited torque turns a wheel up at
 *   max_torque / I, then holds the set speed within 1 %;
 * - hinge_limit: a spinning door stops at its limit within 0.5 degree;
 * - slider_spring: a cart on a 1 Hz spring oscillates at 1 Hz with its
 *   amplitude, both within 1 %;
 * - rope: a ball on a slack rope falls freely, then the taut rope holds it
 *   at its length;
 * - weld_break: a weld breaks in the first step its force passes
 *   break_force, one that is strong enough holds. */
#include <criterion/criterion.h>

#include "test_joint_helpers.h"
#include "test_validation.h"

TestSuite(validation, .fini = vx_validation_fini);

#define VX_PI 3.14159265358979323846
#define G 9.81

/* The times at which f crosses `level` going up, interpolated between steps. */
typedef struct {
    double at[64];
    int count;
    double last;
    bool started;
} upward_crossings;

static void crossing_add(upward_crossings *c, double t, double dt, double f, double level)
{
    if (c->started && c->last < level && f >= level && c->count < 64)
        c->at[c->count++] = t - dt + dt * (level - c->last) / (f - c->last);
    c->last = f;
    c->started = true;
}

static double mean_period(const upward_crossings *c)
{
    cr_assert_geq(c->count, 2, "fewer than two periods seen");
    return (c->at[c->count - 1] - c->at[0]) / (double)(c->count - 1);
}

Test(validation, pendulum_keeps_its_period_and_length)
{
    vx_validation *v = vx_validation_open("pendulum");
    size_t bob = vx_validation_entity(v, "bob");
    vx_vec3 pivot = vx_test_joint_anchor(v, 0, 0);
    double length = vx_validation_distance(v->start[bob].p, pivot);
    double theta = asin((double)(v->start[bob].p.x - pivot.x) / length);
    double expected = 2.0 * VX_PI * sqrt(length / G) * (1.0 + theta * theta / 16.0);
    upward_crossings c = {{0}, 0, 0.0, false};
    double worst = 0.0;
    for (int n = 0; n < 600; n++) {
        vx_validation_step(v);
        crossing_add(&c, vx_validation_time(v), 1.0 / 60.0, (double)(v->now[bob].p.x - pivot.x), 0.0);
        double err = fabs(vx_validation_distance(v->now[bob].p, pivot) - length);
        worst = err > worst ? err : worst;
    }
    double period = mean_period(&c);
    cr_assert_lt(fabs(period / expected - 1.0), 0.005, "period %g s, expected %g s", period, expected);
    cr_assert_lt(worst, 0.001, "the length moved %g m", worst);
}

Test(validation, hinged_rod_swings_at_the_physical_pendulums_period_and_keeps_its_energy)
{
    vx_validation *v = vx_validation_open("joints/hinged_rod");
    size_t rod = vx_validation_entity(v, "rod");
    const vx_collider *box = vx_validation_collider(v, rod);
    double m = (double)vx_validation_body(v, rod)->mass;
    double lx = 2.0 * (double)box->half_extents.x, ly = 2.0 * (double)box->half_extents.y;
    double d = 0.5 * ly; /* pivot to centre of mass */
    double inertia = m * (lx * lx + ly * ly) / 12.0 + m * d * d;
    double theta0 = 60.0 * VX_PI / 180.0;
    double expected = 4.0 * sqrt(inertia / (m * G * d)) * vx_validation_elliptic_k(sin(0.5 * theta0));
    double swing_energy0 = m * G * d * (1.0 - cos(theta0));
    upward_crossings c = {{0}, 0, 0.0, false};
    /* the angle from the vertical, and its largest size in each half swing */
    double amplitude = 0.0, worst = 0.0;
    double last_speed = 0.0;
    for (int n = 0; n < 3600; n++) {
        vx_validation_step(v);
        vx_joint_state s = vx_test_joint_state(v, 0);
        double angle = (double)s.position + theta0;
        crossing_add(&c, vx_validation_time(v), 1.0 / 60.0, angle, 0.0);
        amplitude = fabs(angle) > amplitude ? fabs(angle) : amplitude;
        if (n > 0 && (last_speed > 0.0) != ((double)s.speed > 0.0)) { /* a turning point: all potential */
            double e = m * G * d * (1.0 - cos(amplitude));
            double err = fabs(e / swing_energy0 - 1.0);
            worst = err > worst ? err : worst;
            amplitude = 0.0;
        }
        last_speed = (double)s.speed;
    }
    double period = mean_period(&c);
    cr_assert_lt(fabs(period / expected - 1.0), 0.01, "period %g s, expected %g s", period, expected);
    cr_assert_lt(worst, 0.01, "the swing energy moved %g of itself", worst);
    cr_assert_lt(vx_test_joint_gap(v, 0), 0.001, "the hinge opened %g m", vx_test_joint_gap(v, 0));
}

/* The chain: every joint gap after 5 s, and the worst on the way. */
static void check_chain(const char *mass, double tolerance)
{
    vx_scene_set set = {"entities[20].rigidbody.mass", mass};
    vx_validation *v = vx_validation_open_with("joints/chain", mass ? &set : NULL, mass ? 1u : 0u);
    double worst = 0.0;
    for (int n = 0; n < 300; n++) {
        vx_validation_step(v);
        double g = vx_test_worst_joint_gap(v);
        worst = g > worst ? g : worst;
    }
    double end = vx_test_worst_joint_gap(v);
    cr_assert_lt(end, 0.005, "a joint is %g m apart after 5 s", end);
    cr_assert_lt(worst, tolerance, "a joint was %g m apart", worst);
    /* it swings: the weight went down and is moving */
    size_t weight = vx_validation_entity(v, "weight");
    cr_assert_lt(v->now[weight].p.y, v->start[weight].p.y - 1.0f);
}

Test(validation, chain_carrying_fifty_times_a_links_mass_holds_together) { check_chain(NULL, 0.005); }

Test(validation, chain_carrying_five_hundred_times_a_links_mass_holds_together) { check_chain("500", 0.005); }

Test(validation, hinge_motor_accelerates_at_its_torque_then_holds_its_speed)
{
    vx_validation *v = vx_validation_open("joints/hinge_motor");
    size_t wheel = vx_validation_entity(v, "wheel");
    vx_joint_def def;
    cr_assert_eq(vx_joint_get_def(v->scene.world, v->scene.joints[0].id, &def, NULL), VX_OK);
    double inertia = (double)vx_validation_inertia(v, wheel).z;
    double alpha = (double)def.motor.max_effort / inertia;
    double target = (double)def.motor.speed, reach = target / alpha;
    double speed_before = 0.0;
    for (int n = 0; n < 120; n++) {
        vx_validation_step(v);
        double t = vx_validation_time(v), speed = (double)vx_test_joint_state(v, 0).speed;
        if (t < reach - 1.0 / 60.0) {
            double a = (speed - speed_before) * 60.0;
            cr_assert_lt(fabs(a / alpha - 1.0), 0.01, "t %g: angular acceleration %g, expected %g", t, a, alpha);
            cr_assert_lt(fabs((double)vx_test_joint_state(v, 0).torque.z - def.motor.max_effort), 1e-3);
        }
        if (t > reach + 0.1)
            cr_assert_lt(fabs(speed / target - 1.0), 0.01, "t %g: speed %g, set %g", t, speed, target);
        speed_before = speed;
    }
}

Test(validation, hinge_limit_stops_a_spinning_door)
{
    vx_validation *v = vx_validation_open("joints/hinge_limit");
    vx_joint_def def;
    cr_assert_eq(vx_joint_get_def(v->scene.world, v->scene.joints[0].id, &def, NULL), VX_OK);
    double most = 0.0;
    for (int n = 0; n < 120; n++) {
        vx_validation_step(v);
        double a = (double)vx_test_joint_state(v, 0).position;
        cr_assert_geq(a, (double)def.lower - 0.5 * VX_PI / 180.0, "step %d: angle %g", n, a);
        cr_assert_leq(a, (double)def.upper + 0.5 * VX_PI / 180.0, "step %d: angle %g", n, a);
        most = a > most ? a : most;
    }
    cr_assert_gt(most, (double)def.upper - 0.01, "the door never reached its limit (%g)", most);
}

Test(validation, slider_spring_oscillates_at_its_frequency_and_amplitude)
{
    vx_validation *v = vx_validation_open("joints/slider_spring");
    vx_joint_def def;
    cr_assert_eq(vx_joint_get_def(v->scene.world, v->scene.joints[0].id, &def, NULL), VX_OK);
    double rest = (double)def.spring.rest, amplitude = rest; /* it starts at 0, at rest */
    upward_crossings c = {{0}, 0, 0.0, false};
    double low = INFINITY, high = -INFINITY;
    for (int n = 0; n < 300; n++) {
        vx_validation_step(v);
        double x = (double)vx_test_joint_state(v, 0).position;
        crossing_add(&c, vx_validation_time(v), 1.0 / 60.0, x, rest);
        low = x < low ? x : low;
        high = x > high ? x : high;
    }
    double period = mean_period(&c);
    cr_assert_lt(fabs(period * (double)def.spring.frequency - 1.0), 0.01, "period %g s", period);
    cr_assert_lt(fabs((high - rest) / amplitude - 1.0), 0.01, "amplitude above rest %g", high - rest);
    cr_assert_lt(fabs((rest - low) / amplitude - 1.0), 0.01, "amplitude below rest %g", rest - low);
}

Test(validation, rope_is_slack_then_taut)
{
    vx_validation *v = vx_validation_open("joints/rope");
    size_t ball = vx_validation_entity(v, "ball");
    vx_joint_def def;
    cr_assert_eq(vx_joint_get_def(v->scene.world, v->scene.joints[0].id, &def, NULL), VX_OK);
    double length = (double)def.upper;
    bool taut = false;
    for (int n = 1; n <= 120; n++) {
        vx_validation_step(v);
        double stretch = (double)vx_test_joint_state(v, 0).position;
        cr_assert_lt(stretch, length + 0.001, "step %d: the rope is %g m long", n, stretch);
        if (!taut && stretch < length - 0.05) {
            /* slack: semi-implicit Euler's free fall, untouched */
            double h = 1.0 / 60.0, drop = G * h * h * 0.5 * n * (n + 1);
            cr_assert_lt(fabs((double)(v->start[ball].p.y - v->now[ball].p.y) - drop), 1e-4, "step %d: not falling freely", n);
            cr_assert_lt(fabs((double)vx_test_joint_state(v, 0).force.y), 1e-6, "step %d: a slack rope pulled", n);
        }
        if (stretch > length - 0.001) taut = true;
    }
    cr_assert(taut, "the rope never went taut");
    cr_assert_gt((double)vx_test_joint_state(v, 0).force.y, 0.0, "a taut rope pulls up on the ball");
}

Test(validation, weld_breaks_under_its_break_force_and_a_strong_one_holds)
{
    vx_validation *v = vx_validation_open("joints/weld_break");
    size_t weak = vx_validation_entity(v, "weak_box"), strong = vx_validation_entity(v, "strong_box");
    double weight = (double)vx_validation_body(v, weak)->mass * G;
    vx_validation_step(v);
    vx_joint_state s = vx_test_joint_state(v, 0);
    cr_assert(s.broken, "the weak weld held %g N", (double)vx_vec3_length(s.force));
    cr_assert_lt(fabs((double)s.force.y - weight), 0.01 * weight, "it broke carrying %g N", (double)s.force.y);
    for (int n = 0; n < 59; n++) vx_validation_step(v);
    cr_assert(vx_test_joint_state(v, 0).broken, "broken is for good");
    cr_assert_eq(vx_vec3_length(vx_test_joint_state(v, 0).force), 0.0f, "a broken weld carries nothing");
    cr_assert_lt(v->now[weak].p.y, v->start[weak].p.y - 4.0f, "the weak box did not fall");
    cr_assert_not(vx_test_joint_state(v, 1).broken);
    cr_assert_lt(vx_validation_distance(v->now[strong].p, v->start[strong].p), 1e-4, "the strong weld let go");
    cr_assert_lt(fabs((double)vx_test_joint_state(v, 1).force.y - weight), 1e-3 * weight);
}

/* The ragdoll's centre of mass and its velocity in state s. */
static double ragdoll_centre(const vx_validation *v, const vx_body_state *s, vx_vec3 *velocity)
{
    double mass = 0.0, y = 0.0;
    double mv[3] = {0.0, 0.0, 0.0};
    for (size_t i = 0; i < v->scene.entity_count; i++) {
        if (!vx_validation_is_dynamic(v, i)) continue;
        double m = (double)vx_validation_body(v, i)->mass;
        vx_vec3 c, vc;
        vx_quat q;
        vx_validation_body_frame(v, i, &s[i], &c, &vc, &q);
        mass += m;
        y += m * (double)c.y;
        mv[0] += m * (double)vc.x;
        mv[1] += m * (double)vc.y;
        mv[2] += m * (double)vc.z;
    }
    *velocity = vx_vec3_make((float)(mv[0] / mass), (float)(mv[1] / mass), (float)(mv[2] / mass));
    return y / mass;
}

/* An 11-body ragdoll (boxes, capsules and a sphere on ball joints with
 * cones and hinges with limits) dropped onto stairs: its joints stay
 * together within 1 cm, its energy never grows, its centre of mass never
 * moves faster than a free fall from its start speed (1 m/s sideways) over
 * the height it has come down, and it is at rest in 5 s. (One limb may: a
 * whip hands it the others' energy.) */
Test(validation, ragdoll_on_stairs_holds_together_and_comes_to_rest)
{
    vx_validation *v = vx_validation_open("ragdoll");
    double e0 = vx_validation_total_energy(v, v->start), worst = 0.0, fastest = 0.0, closest = 0.0;
    double g = (double)vx_vec3_length(vx_world_get_def(v->scene.world)->gravity);
    vx_vec3 v0;
    double y0 = ragdoll_centre(v, v->start, &v0);
    double mass = 0.0;
    for (size_t i = 0; i < v->scene.entity_count; i++)
        if (vx_validation_is_dynamic(v, i)) mass += (double)vx_validation_body(v, i)->mass;
    /* the start's kinetic energy as the speed of the whole mass */
    double start_sq = 2.0 * vx_validation_kinetic_energy(v, v->start) / mass;
    for (int n = 0; n < 300; n++) {
        vx_validation_step(v);
        double gap = vx_test_worst_joint_gap(v);
        worst = gap > worst ? gap : worst;
        double e = vx_validation_total_energy(v, v->now);
        cr_assert_leq(e, e0 + 1e-3 * fabs(e0), "step %d: the energy grew from %g to %g J", n, e0, e);
        /* the centre's kinetic energy is at most the start's and the
         * height's worth: (1/2) M |v_c|^2 <= (1/2) sum m |v|^2 <= E0 + M g (y0 - y) */
        vx_vec3 vc;
        double y = ragdoll_centre(v, v->now, &vc);
        double free_fall = sqrt(start_sq + 2.0 * g * fmax(y0 - y, 0.0)), speed = (double)vx_vec3_length(vc);
        cr_assert_leq(speed, free_fall * 1.001 + 1e-3, "step %d: the centre of mass at %g m/s, a free fall %g m/s", n,
                      speed, free_fall);
        fastest = speed > fastest ? speed : fastest;
        closest = fmax(closest, speed / free_fall);
    }
    cr_log_info("ragdoll: fastest centre of mass %.4f m/s (start %.3f), at most %.4f of the free fall's, widest "
                "joint gap %.3g m",
                fastest, (double)vx_vec3_length(v0), closest, worst);
    cr_assert_gt(fastest, 2.0, "it fell");
    cr_assert_lt(worst, 0.01, "a joint opened %g m", worst);
    for (size_t i = 0; i < v->scene.entity_count; i++) {
        if (!vx_validation_is_dynamic(v, i)) continue;
        cr_assert_lt(vx_vec3_length(v->now[i].v), 0.05f, "%s still moves at 5 s", v->scene.names[i]);
    }
    size_t pelvis = vx_validation_entity(v, "pelvis");
    cr_assert_lt(v->now[pelvis].p.y, v->start[pelvis].p.y - 0.5f, "it fell onto the stairs");
}

/* A bridge of 30 planks on hinges between two posts, a 10 kg ball rolled
 * across it: the deck sags under the ball, the hinges hold within 1 cm and
 * the ball stays on the deck. */
Test(validation, bridge_sags_under_a_rolling_load_and_holds)
{
    vx_validation *v = vx_validation_open("joints/bridge");
    size_t load = vx_validation_entity(v, "load"), mid = vx_validation_entity(v, "plank15");
    double worst = 0.0, lowest_mid = INFINITY, lowest_load = INFINITY;
    for (int n = 0; n < 600; n++) {
        vx_validation_step(v);
        double g = vx_test_worst_joint_gap(v);
        worst = g > worst ? g : worst;
        lowest_mid = (double)v->now[mid].p.y < lowest_mid ? (double)v->now[mid].p.y : lowest_mid;
        lowest_load = (double)v->now[load].p.y < lowest_load ? (double)v->now[load].p.y : lowest_load;
    }
    cr_assert_lt(worst, 0.01, "a hinge opened %g m", worst);
    cr_assert_lt(lowest_mid, (double)v->start[mid].p.y - 0.02, "the deck did not sag under the load");
    /* on the deck: the ball's centre never below the deck's lowest plank */
    cr_assert_gt(lowest_load, lowest_mid, "the load fell through (%g below the middle plank %g)", lowest_load, lowest_mid);
    cr_assert_gt(v->now[load].p.x, 3.0f, "the load rolled onto the bridge");
}
