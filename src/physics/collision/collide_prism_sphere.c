/* A sphere against a triangle's prism (collide_prism_sphere.h). */
#include "physics/collision/collide_prism_sphere.h"

#include <float.h>
#include <math.h>

#include "common/assert.h"
#include "physics/collision/collide_internal.h"
#include "physics/collision/collide_shapes.h"

/* The point of the triangle (a, b, c) nearest to p, and whether it is
 * inside the triangle (else on an edge or at a corner): the regions of the
 * corners, then of the edges, then the face, by the signs of dot products
 * only. */
static vx_vec3 nearest_on_triangle(vx_vec3 p, vx_vec3 a, vx_vec3 b, vx_vec3 c, bool *inside)
{
    *inside = false;
    vx_vec3 ab = vx_vec3_sub(b, a), ac = vx_vec3_sub(c, a), ap = vx_vec3_sub(p, a);
    float d1 = vx_vec3_dot(ab, ap), d2 = vx_vec3_dot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f) return a;
    vx_vec3 bp = vx_vec3_sub(p, b);
    float d3 = vx_vec3_dot(ab, bp), d4 = vx_vec3_dot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3) return b;
    float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) return vx_vec3_add(a, vx_vec3_scale(ab, d1 / (d1 - d3)));
    vx_vec3 cp = vx_vec3_sub(p, c);
    float d5 = vx_vec3_dot(ab, cp), d6 = vx_vec3_dot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6) return c;
    float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) return vx_vec3_add(a, vx_vec3_scale(ac, d2 / (d2 - d6)));
    float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && d4 - d3 >= 0.0f && d5 - d6 >= 0.0f)
        return vx_vec3_add(b, vx_vec3_scale(vx_vec3_sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6))));
    *inside = true;
    return p; /* the caller projects along the normal */
}

bool vx_collide_prism_sphere(const vx_triangle_hull *th, vx_vec3 centre, float radius, float margin,
                             vx_prism_sphere_contact *out)
{
    margin = vx_collide_sanitize_margin(margin);
    const vx_hull_face *top = &th->faces[VX_TRIANGLE_HULL_TOP];
    vx_vec3 n = top->normal;
    float height = vx_vec3_dot(n, centre) - top->offset;
    /* the triangle's nearest point is the centre's across the plane too */
    bool inside;
    vx_vec3 q = nearest_on_triangle(centre, th->vertices[0], th->vertices[1], th->vertices[2], &inside);
    float dist_sq = 0.0f;
    if (!inside) {
        /* beside the triangle: nearest at its edge or corner, or, for a
         * centre a little under the top's plane (rounding), at the prism's
         * side level with it */
        if (height < 0.0f) q = vx_vec3_add(q, vx_vec3_scale(n, height));
        dist_sq = vx_vec3_length_sq(vx_vec3_sub(centre, q));
    } else if (height > 0.0f) {
        q = vx_vec3_sub(centre, vx_vec3_scale(n, height));
        dist_sq = height * height;
    }
    /* Below FLT_MIN the direction is lost: the centre is on the surface. */
    if (dist_sq >= FLT_MIN) {
        float dist = inside ? height : sqrtf(dist_sq);
        float depth = radius - dist;
        if (!(depth > -margin)) return false;
        /* over the face the way out is its normal (centre - q has lost the
         * direction's bits when the centre is near the face) */
        if (!inside) n = vx_vec3_scale(vx_vec3_sub(centre, q), 1.0f / dist);
        out->normal = n;
        out->on_prism = q;
        out->on_sphere = vx_vec3_sub(centre, vx_vec3_scale(n, radius));
        out->depth = depth;
        return true;
    }
    /* On the plane or under it: out through the least deep of the top and
     * the sides (the bottom is a thickness deeper than the top) */
    int face = VX_TRIANGLE_HULL_TOP;
    float s = height;
    for (int k = 2; k < 5; k++) {
        float sk = vx_vec3_dot(th->faces[k].normal, centre) - th->faces[k].offset;
        if (sk > s) {
            face = k;
            s = sk;
        }
    }
    float dist = s > 0.0f ? 0.0f : -s;
    float depth = radius + dist;
    if (!(depth > -margin)) return false;
    vx_vec3 way_out = th->faces[face].normal;
    out->normal = way_out;
    out->on_prism = vx_vec3_add(centre, vx_vec3_scale(way_out, dist));
    out->on_sphere = vx_vec3_sub(centre, vx_vec3_scale(way_out, radius));
    out->depth = depth;
    return true;
}

bool vx_collide_placed_prism_sphere(const vx_triangle_hull *th, const vx_transform *pose, vx_vec3 centre,
                                    float radius, float margin, vx_prism_sphere_contact *c)
{
    vx_mat3 r = vx_mat3_from_quat(vx_collide_rotation(pose));
    vx_mat3 rt = vx_mat3_transpose(&r);
    vx_vec3 local = vx_mat3_mul_vec3(&rt, vx_vec3_sub(centre, pose->position));
    if (!vx_collide_prism_sphere(th, local, radius, margin, c)) return false;
    c->normal = vx_mat3_mul_vec3(&r, c->normal);
    c->on_prism = vx_vec3_add(pose->position, vx_mat3_mul_vec3(&r, c->on_prism));
    c->on_sphere = vx_vec3_add(pose->position, vx_mat3_mul_vec3(&r, c->on_sphere));
    return true;
}

bool vx_collide_shapes_prism(const vx_collider *a, const vx_transform *ta, const vx_triangle_hull *prism_a,
                             const vx_collider *b, const vx_transform *tb, const vx_triangle_hull *prism_b,
                             float margin, vx_manifold *out)
{
    vx_prism_sphere_contact c;
    if (prism_a && b->type == VX_SHAPE_SPHERE) {
        vx_manifold_reset(out);
        if (!vx_collide_placed_prism_sphere(prism_a, ta, tb->position, b->radius, margin, &c)) return false;
        out->normal = c.normal;
        vx_manifold_push(out, c.on_prism, c.on_sphere, c.depth, 0u);
        return true;
    }
    if (prism_b && a->type == VX_SHAPE_SPHERE) {
        vx_manifold_reset(out);
        if (!vx_collide_placed_prism_sphere(prism_b, tb, ta->position, a->radius, margin, &c)) return false;
        out->normal = vx_vec3_neg(c.normal);
        vx_manifold_push(out, c.on_sphere, c.on_prism, c.depth, 0u);
        return true;
    }
    VX_ASSERT(a && b);
    return vx_collide_shapes(a, ta, b, tb, margin, out);
}
