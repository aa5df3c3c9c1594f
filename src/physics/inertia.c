/* Principal moments of inertia of the solid shapes, about their centres, and
 * the world-frame inverse inertia of an oriented body. */
#include "voltex/rotation.h"

#define VX_PI_D 3.14159265358979323846

vx_vec3 vx_inertia_sphere(float mass, float radius)
{
    float i = 0.4f * mass * radius * radius;
    return vx_vec3_make(i, i, i);
}

/* A box of full sides 2h: I_x = m (4 h_y^2 + 4 h_z^2) / 12. */
vx_vec3 vx_inertia_box(float mass, vx_vec3 half_extents)
{
    float x2 = half_extents.x * half_extents.x;
    float y2 = half_extents.y * half_extents.y;
    float z2 = half_extents.z * half_extents.z;
    float k = mass / 3.0f;
    return vx_vec3_make(k * (y2 + z2), k * (x2 + z2), k * (x2 + y2));
}

/* The mass is split by volume between the cylinder (radius r, length 2 hh)
 * and the two caps, which together make a sphere of mass m_s.
 *   cylinder: I_y = m_c r^2 / 2, I_x = m_c (3 r^2 + (2 hh)^2) / 12
 *   caps:     I_y = 2/5 m_s r^2
 *             I_x = 2/5 m_s r^2 + m_s (hh^2 + 3/4 hh r)
 * For I_x of one cap (mass m_s/2): about its flat face it is half a sphere's,
 * 2/5 (m_s/2) r^2; its centroid lies 3r/8 from that face, so moving to the
 * centroid subtracts (m_s/2)(3r/8)^2 and moving on to the capsule centre, at
 * hh + 3r/8, adds (m_s/2)(hh + 3r/8)^2; the (3r/8)^2 terms cancel.
 * Computed in double: the volume ratio and the sums lose nothing then. */
vx_vec3 vx_inertia_capsule(float mass, float radius, float half_height)
{
    double m = mass, r = radius, hh = half_height;
    double r2 = r * r;
    double v_cyl = VX_PI_D * r2 * (2.0 * hh);
    double v_caps = 4.0 / 3.0 * VX_PI_D * r2 * r;
    double v_total = v_cyl + v_caps;
    if (!(v_total > 0.0)) return vx_vec3_zero(); /* a point: no extent, no moment */
    double m_cyl = m * v_cyl / v_total;
    double m_caps = m * v_caps / v_total;

    double axial = 0.5 * m_cyl * r2 + 0.4 * m_caps * r2;
    double transverse = m_cyl * (3.0 * r2 + 4.0 * hh * hh) / 12.0 + 0.4 * m_caps * r2 +
                        m_caps * (hh * hh + 0.75 * hh * r);
    return vx_vec3_make((float)transverse, (float)axial, (float)transverse);
}

/* M = R diag(d) R^T. Only the upper triangle is computed and mirrored, so the
 * result is symmetric bit for bit. */
vx_mat3 vx_world_inverse_inertia(vx_quat q, vx_vec3 inv_inertia_body)
{
    vx_mat3 r = vx_mat3_from_quat(q);
    float d[3] = {inv_inertia_body.x, inv_inertia_body.y, inv_inertia_body.z};
    vx_mat3 out;
    for (int i = 0; i < 3; i++) {
        for (int j = i; j < 3; j++) {
            float s = 0.0f;
            for (int k = 0; k < 3; k++) s += r.m[i][k] * d[k] * r.m[j][k];
            out.m[i][j] = s;
            out.m[j][i] = s;
        }
    }
    return out;
}
