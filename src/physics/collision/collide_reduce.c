/* The reduction of a contact patch to 4 points (collide_internal.h), as
 * collide_box_box.c reduces a face contact: the hull contacts' clipped faces
 * (collide_hull.c) and a body's points on several triangles of a mesh
 * (collide_mesh.c) go through it. */
#include <float.h>

#include "physics/collision/collide_internal.h"

/* Candidates for the fourth point that centre the points within this
 * fraction of the patch's span of each other count as equally centred. */
#define REDUCE_CENTRED_SPAN_TOL 0.01f

/* The reduction to 4 points takes values within this fraction (plus the
 * merge distance) of the best as ties, and gives them to the lowest id. */
#define REDUCE_REL_TOL 1e-4f

typedef vx_contact_candidate candidate;

/* The candidate whose value (from value_of) is the largest within slack
 * (relative, plus abs_slack), the lowest id among those: near ties (a flat
 * contact's equal depths, a symmetric patch's equal spans) go to the same
 * feature from step to step instead of to rounding. */
typedef float (*candidate_value)(const candidate *c, const void *ctx);

static int pick(const candidate *cand, int n, const int *skip, int n_skip, candidate_value value_of, const void *ctx,
                float abs_slack)
{
    float best_val = -FLT_MAX;
    for (int k = 0; k < n; k++) {
        bool skipped = false;
        for (int s = 0; s < n_skip; s++) skipped = skipped || skip[s] == k;
        if (!skipped) best_val = vx_collide_maxf(best_val, value_of(&cand[k], ctx));
    }
    float floor = best_val - (REDUCE_REL_TOL * fabsf(best_val) + abs_slack);
    int best = -1;
    for (int k = 0; k < n; k++) {
        bool skipped = false;
        for (int s = 0; s < n_skip; s++) skipped = skipped || skip[s] == k;
        if (skipped || value_of(&cand[k], ctx) < floor) continue;
        if (best < 0 || cand[k].id < cand[best].id) best = k;
    }
    return best;
}

typedef struct {
    vx_vec3 normal;
    vx_vec3 p0, p1, e01;
    vx_vec3 tri[3], tri_edge[3];
    float winding;
} reduce_ctx;

static float value_depth(const candidate *c, const void *ctx)
{
    (void)ctx;
    return c->depth;
}

static float value_spread(const candidate *c, const void *ctx)
{
    const reduce_ctx *r = ctx;
    return vx_vec3_length_sq(vx_vec3_sub(c->on_ref, r->p0));
}

static float value_triangle(const candidate *c, const void *ctx)
{
    const reduce_ctx *r = ctx;
    return fabsf(vx_vec3_dot(vx_vec3_cross(r->e01, vx_vec3_sub(c->on_ref, r->p0)), r->normal));
}

/* How far outside the triangle's edges (signed areas with its winding). */
static float value_added_area(const candidate *c, const void *ctx)
{
    const reduce_ctx *r = ctx;
    float min_area = 0.0f;
    for (int e = 0; e < 3; e++) {
        float s = r->winding * vx_vec3_dot(vx_vec3_cross(r->tri_edge[e], vx_vec3_sub(c->on_ref, r->tri[e])), r->normal);
        if (e == 0 || s < min_area) min_area = s;
    }
    return -min_area;
}

/* The fourth point: among those adding the most area (value_added_area,
 * near ties as pick's), the one that centres the four points best on the
 * mean of all candidates (within REDUCE_CENTRED_SPAN_TOL), so a resting
 * hexagon or octagon, which offers several choices of the same area, stands
 * on a patch around its centre, not on one side of it; then the lowest id. */
static int pick_centred(const candidate *cand, int n, const int *keep, const reduce_ctx *r, float abs_slack,
                        float length_slack)
{
    float best_val = -FLT_MAX;
    vx_vec3 mean = vx_vec3_zero();
    for (int k = 0; k < n; k++) mean = vx_vec3_add(mean, cand[k].on_ref);
    mean = vx_vec3_scale(mean, 1.0f / (float)n);
    vx_vec3 three = vx_vec3_add(vx_vec3_add(cand[keep[0]].on_ref, cand[keep[1]].on_ref), cand[keep[2]].on_ref);
    bool tied[VX_CONTACT_REDUCE_MAX];
    float off[VX_CONTACT_REDUCE_MAX];
    for (int k = 0; k < n; k++) {
        tied[k] = k != keep[0] && k != keep[1] && k != keep[2];
        if (tied[k]) best_val = vx_collide_maxf(best_val, value_added_area(&cand[k], r));
    }
    float floor = best_val - (REDUCE_REL_TOL * fabsf(best_val) + abs_slack);
    float best_off = FLT_MAX;
    for (int k = 0; k < n; k++) {
        tied[k] = tied[k] && !(value_added_area(&cand[k], r) < floor);
        if (!tied[k]) continue;
        vx_vec3 centre = vx_vec3_scale(vx_vec3_add(three, cand[k].on_ref), 0.25f);
        off[k] = vx_vec3_length(vx_vec3_sub(centre, mean));
        best_off = fminf(best_off, off[k]);
    }
    int best = -1;
    for (int k = 0; k < n; k++) {
        if (!tied[k] || off[k] > best_off + length_slack) continue;
        if (best < 0 || cand[k].id < cand[best].id) best = k;
    }
    return best;
}

/* Keeps 4 of n > 4 candidates as collide_box_box.c does: the deepest, the
 * farthest from it, the one making the largest triangle, and the one adding
 * the most area to it (centred among ties); near ties to the lowest id (pick). depth_slack is
 * the linear tolerance of depths (and lengths). */
int vx_contact_reduce(vx_contact_candidate *cand, int n, vx_vec3 normal, float depth_slack)
{
    VX_ASSERT(n > 4 && n <= VX_CONTACT_REDUCE_MAX);
    reduce_ctx r;
    memset(&r, 0, sizeof r);
    r.normal = normal;
    int keep[4] = {0, 0, 0, 0};
    keep[0] = pick(cand, n, keep, 0, value_depth, &r, depth_slack);
    r.p0 = cand[keep[0]].on_ref;
    keep[1] = pick(cand, n, keep, 1, value_spread, &r, depth_slack * depth_slack);
    r.p1 = cand[keep[1]].on_ref;
    r.e01 = vx_vec3_sub(r.p1, r.p0);
    float span = vx_vec3_length(r.e01);
    keep[2] = pick(cand, n, keep, 2, value_triangle, &r, depth_slack * span);
    r.tri[0] = r.p0;
    r.tri[1] = r.p1;
    r.tri[2] = cand[keep[2]].on_ref;
    r.winding = vx_vec3_dot(vx_vec3_cross(r.e01, vx_vec3_sub(r.tri[2], r.p0)), normal) < 0.0f ? -1.0f : 1.0f;
    for (int e = 0; e < 3; e++) r.tri_edge[e] = vx_vec3_sub(r.tri[e < 2 ? e + 1 : 0], r.tri[e]);
    keep[3] = pick_centred(cand, n, keep, &r, depth_slack * span, depth_slack + REDUCE_CENTRED_SPAN_TOL * span);

    candidate kept[4];
    for (int k = 0; k < 4; k++) kept[k] = cand[keep[k]];
    for (int k = 0; k < 4; k++) cand[k] = kept[k];
    return 4;
}
