/* A compound's mass properties and parts (compound.h). The parts' volumes,
 * centres and inertias are summed in double: the centre of mass is the
 * volume-weighted mean of the parts' centres, the inertia about it the sum
 * of each part's turned into the entity's frame (R J R^T) plus its volume
 * times the parallel-axis term (|d|^2 E - d d^T), d from the centre of mass
 * to the part's centre. */
#include "physics/body/compound.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/assert.h"
#include "physics/body/principal.h"
#include "physics/body/shape.h"
#include "voltex/rotation.h"

/* How far a point of the convex shape can be from its body frame's origin. */
static float shape_reach(const vx_collider *c)
{
    float r = vx_shape_sweep_radius(c);
    if (c->type == VX_SHAPE_SPHERE || c->type == VX_SHAPE_CAPSULE) r += c->radius;
    return r;
}

static void rotation_matrix(vx_quat q, double m[3][3])
{
    vx_mat3 f = vx_mat3_from_quat(q);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m[i][j] = (double)f.m[i][j];
}

/* Each part's shape frame in the entity's frame: centre c and rotation. */
typedef struct {
    double c[3];
    vx_quat q;
    double volume;
} part_mass;

static void part_mass_of(const vx_compound_part *p, part_mass *out)
{
    vx_transform f = vx_shape_frame(&p->shape);
    vx_vec3 c = vx_vec3_add(p->pose.position, vx_quat_rotate(p->pose.rotation, f.position));
    out->c[0] = c.x;
    out->c[1] = c.y;
    out->c[2] = c.z;
    out->q = vx_quat_normalize(vx_quat_mul(p->pose.rotation, f.rotation));
    out->volume = (double)vx_collider_volume(&p->shape);
}

/* Adds the part's inertia about centre (density 1) to sum. */
static void add_part_inertia(const vx_compound_part *p, const part_mass *m, const double centre[3],
                             double sum[3][3])
{
    vx_vec3 j = vx_shape_inertia(&p->shape, (float)m->volume);
    double jd[3] = {j.x, j.y, j.z}, r[3][3];
    rotation_matrix(m->q, r);
    double d[3] = {m->c[0] - centre[0], m->c[1] - centre[1], m->c[2] - centre[2]};
    double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++) {
            double turned = 0.0;
            for (int k = 0; k < 3; k++) turned += r[a][k] * jd[k] * r[b][k];
            double shift = (a == b ? dd : 0.0) - d[a] * d[b];
            sum[a][b] += turned + m->volume * shift;
        }
    }
}

vx_status vx_compound_build(const vx_compound_part *parts, size_t count, vx_compound **out, vx_error *err)
{
    *out = NULL;
    if (count < 1 || count > VX_MAX_COMPOUND_PARTS)
        return vx_error_set(err, VX_ERR_INVALID, "compound: must have 1 to %d parts (%zu given)",
                            VX_MAX_COMPOUND_PARTS, count);
    vx_compound *c = calloc(1, sizeof *c);
    part_mass *mass = calloc(count, sizeof *mass);
    if (c) c->parts = calloc(count, sizeof *c->parts);
    if (!c || !mass || !c->parts) {
        free(mass);
        vx_compound_destroy(c);
        return vx_error_set(err, VX_ERR_NOMEM, "out of memory");
    }
    c->part_count = (uint32_t)count;
    double volume = 0.0, centre[3] = {0.0, 0.0, 0.0};
    for (size_t i = 0; i < count; i++) {
        VX_ASSERT(parts[i].shape.type <= VX_SHAPE_HULL);
        part_mass_of(&parts[i], &mass[i]);
        volume += mass[i].volume;
        for (int k = 0; k < 3; k++) centre[k] += mass[i].volume * mass[i].c[k];
    }
    VX_ASSERT(volume > 0.0);
    for (int k = 0; k < 3; k++) centre[k] /= volume;
    double inertia[3][3] = {{0.0}};
    for (size_t i = 0; i < count; i++) add_part_inertia(&parts[i], &mass[i], centre, inertia);
    double r[3][3];
    vx_quat q = vx_principal_axes((const double(*)[3])inertia, r);
    double moment[3];
    for (int k = 0; k < 3; k++) {
        double s = 0.0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) s += r[i][k] * inertia[i][j] * r[j][k];
        moment[k] = s;
    }
    c->volume = (float)volume;
    c->inertia = vx_vec3_make((float)moment[0], (float)moment[1], (float)moment[2]);
    c->frame.position = vx_vec3_make((float)centre[0], (float)centre[1], (float)centre[2]);
    c->frame.rotation = q;
    c->inner_radius = INFINITY;
    vx_quat back = vx_quat_conjugate(q);
    for (size_t i = 0; i < count; i++) {
        vx_compound_part_data *p = &c->parts[i];
        p->shape = parts[i].shape;
        p->given = parts[i].pose;
        /* r^T (c_i - centre) in double, the rotation conj(q) q_i */
        double d[3] = {mass[i].c[0] - centre[0], mass[i].c[1] - centre[1], mass[i].c[2] - centre[2]}, o[3];
        for (int k = 0; k < 3; k++) o[k] = r[0][k] * d[0] + r[1][k] * d[1] + r[2][k] * d[2];
        p->pose.position = vx_vec3_make((float)o[0], (float)o[1], (float)o[2]);
        p->pose.rotation = vx_quat_normalize(vx_quat_mul(back, mass[i].q));
        p->reach = vx_vec3_length(p->pose.position) + shape_reach(&p->shape);
        c->outer_radius = fmaxf(c->outer_radius, p->reach);
        c->inner_radius = fminf(c->inner_radius, vx_shape_inner_radius(&p->shape));
    }
    free(mass);
    *out = c;
    return VX_OK;
}

void vx_compound_destroy(vx_compound *compound)
{
    if (!compound) return;
    free(compound->parts);
    free(compound);
}

vx_transform vx_compound_part_pose(const vx_compound *compound, uint32_t i, const vx_transform *pose)
{
    VX_ASSERT(i < compound->part_count);
    const vx_transform *p = &compound->parts[i].pose;
    vx_transform t;
    t.position = vx_vec3_add(pose->position, vx_quat_rotate(pose->rotation, p->position));
    t.rotation = vx_quat_normalize(vx_quat_mul(pose->rotation, p->rotation));
    return t;
}

vx_compound_info vx_compound_get_info(const vx_compound *compound)
{
    vx_compound_info info;
    memset(&info, 0, sizeof info);
    info.part_count = compound->part_count;
    info.volume = compound->volume;
    info.frame = compound->frame;
    info.inertia = compound->inertia;
    return info;
}

vx_compound_part vx_compound_get_part(const vx_compound *compound, size_t i)
{
    VX_ASSERT(i < compound->part_count);
    vx_compound_part p;
    memset(&p, 0, sizeof p);
    p.shape = compound->parts[i].shape;
    p.pose = compound->parts[i].given;
    return p;
}
