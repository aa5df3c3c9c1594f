/* The tree joints' exact solve (joint_tree.h). Block elimination on the
 * tree of bodies and joints, in doubles: node i's pivot block
 *   D_i = H_ii - sum over children c of H_ic D_c^-1 H_ci
 * with H_bb = M_b (mass, world inertia) and H_jj = 0, the edge blocks the
 * joint's Jacobian rows (H_jb = -J_jb). Solve: forwards up the tree,
 * y_p -= H_pi D_i^-1 y_i, then backwards x_i = D_i^-1 (y_i - H_ip x_p). */
#include "physics/joint/joint_tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/assert.h"
#include "physics/body/small_turn.h"
#include "physics/joint/joint_solver.h"

#define NONE UINT32_MAX
#define LOCKED_INERTIA 1e20 /* the inertia a body that does not turn is given */
/* A joint with no body under it in the tree (its only moving body is its
 * parent: a second tie of a tree to the world) would have a zero pivot
 * block; it gets this compliance, relative to its effective inverse mass.
 * Smaller values cost the solve its precision (the pivot above it mixes
 * the compliance's inverse with the masses); this one leaves the joint a
 * rate error of 1e-5 of its velocity change, which the position passes
 * take out. A tree tied to the world once is rooted at that tie and needs
 * none. */
#define LEAF_COMPLIANCE 1e-5

void vx_joint_tree_init(vx_joint_tree *t) { memset(t, 0, sizeof *t); }

void vx_joint_tree_free(vx_joint_tree *t)
{
    free(t->nodes);
    free(t->spare);
    free(t->order);
    free(t->rows);
    free(t->body_node);
    free(t->scratch);
    vx_joint_tree_init(t);
}

/* ---- small dense blocks ---- */

typedef double block[VX_JOINT_TREE_MAX_ROWS][VX_JOINT_TREE_MAX_ROWS];

/* a = a^-1 in place (n x n), Gauss-Jordan with partial pivoting; a pivot
 * that vanishes leaves its row and column zero (that row takes no impulse). */
static void invert(block a, int n)
{
    block inv;
    int perm[VX_JOINT_TREE_MAX_ROWS];
    bool dead[VX_JOINT_TREE_MAX_ROWS];
    for (int i = 0; i < n; i++) {
        perm[i] = i;
        dead[i] = false;
        for (int k = 0; k < n; k++) inv[i][k] = i == k ? 1.0 : 0.0;
    }
    double scale = 0.0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) scale = fabs(a[i][k]) > scale ? fabs(a[i][k]) : scale;
    double tiny = scale * 1e-12;
    for (int col = 0; col < n; col++) {
        int best = col;
        for (int r = col + 1; r < n; r++)
            if (fabs(a[r][col]) > fabs(a[best][col])) best = r;
        if (!(fabs(a[best][col]) > tiny)) {
            dead[col] = true;
            continue;
        }
        if (best != col) {
            for (int k = 0; k < n; k++) {
                double t = a[col][k];
                a[col][k] = a[best][k];
                a[best][k] = t;
                t = inv[col][k];
                inv[col][k] = inv[best][k];
                inv[best][k] = t;
            }
            int t = perm[col];
            perm[col] = perm[best];
            perm[best] = t;
        }
        double p = 1.0 / a[col][col];
        for (int k = 0; k < n; k++) {
            a[col][k] *= p;
            inv[col][k] *= p;
        }
        for (int r = 0; r < n; r++) {
            if (r == col || a[r][col] == 0.0) continue;
            double f = a[r][col];
            for (int k = 0; k < n; k++) {
                a[r][k] -= f * a[col][k];
                inv[r][k] -= f * inv[col][k];
            }
        }
    }
    (void)perm;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) a[i][k] = (dead[i] || dead[k]) ? 0.0 : inv[i][k];
}

/* ---- the rows of a tree joint ---- */

static void linear_row(vx_joint_tree_rows *t, vx_vec3 u, vx_vec3 arm_a, vx_vec3 rb)
{
    vx_vec3 au = vx_vec3_cross(arm_a, u), bu = vx_vec3_cross(rb, u);
    float *ja = t->j[0][t->dim], *jb = t->j[1][t->dim];
    ja[0] = 0.0f - u.x, ja[1] = 0.0f - u.y, ja[2] = 0.0f - u.z;
    ja[3] = 0.0f - au.x, ja[4] = 0.0f - au.y, ja[5] = 0.0f - au.z;
    jb[0] = u.x, jb[1] = u.y, jb[2] = u.z;
    jb[3] = bu.x, jb[4] = bu.y, jb[5] = bu.z;
    t->dim++;
}

static void angular_row(vx_joint_tree_rows *t, vx_vec3 u)
{
    float *ja = t->j[0][t->dim], *jb = t->j[1][t->dim];
    ja[0] = ja[1] = ja[2] = jb[0] = jb[1] = jb[2] = 0.0f;
    ja[3] = 0.0f - u.x, ja[4] = 0.0f - u.y, ja[5] = 0.0f - u.z;
    jb[3] = u.x, jb[4] = u.y, jb[5] = u.z;
    t->dim++;
}

static const vx_vec3 unit[3] = {{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};

/* The locked rows of joint j (dim 0: none, or none the tree takes). */
static void rows_of(vx_joint_tree_rows *t, const vx_joint *j, const vx_joint_rows *r)
{
    t->dim = 0;
    switch (j->def.type) {
    case VX_JOINT_BALL:
    case VX_JOINT_HINGE:
    case VX_JOINT_FIXED:
        for (int k = 0; k < 3; k++) linear_row(t, unit[k], r->ra, r->rb);
        if (j->def.type == VX_JOINT_HINGE) {
            angular_row(t, r->u1);
            angular_row(t, r->u2);
        }
        if (j->def.type == VX_JOINT_FIXED)
            for (int k = 0; k < 3; k++) angular_row(t, unit[k]);
        break;
    case VX_JOINT_SLIDER:
        for (int k = 0; k < 3; k++) angular_row(t, unit[k]);
        linear_row(t, r->u1, r->arm_a, r->rb);
        linear_row(t, r->u2, r->arm_a, r->rb);
        break;
    case VX_JOINT_DISTANCE:
        if (!j->def.limit_enabled && !j->def.spring.enabled) linear_row(t, r->axis, r->ra, r->rb);
        break;
    }
}

/* The impulses lambda of the rows (rows_of's order) as a linear and an
 * angular impulse (world) and a scalar along a distance's line. */
static void impulse_parts(const vx_joint *j, const vx_joint_rows *r, const double *l, vx_vec3 *linear,
                          vx_vec3 *angular, float *axial)
{
    vx_vec3 first = vx_vec3_make((float)l[0], (float)l[1], (float)l[2]);
    vx_vec3 pair = vx_vec3_zero();
    if (j->def.type == VX_JOINT_HINGE || j->def.type == VX_JOINT_SLIDER)
        pair = vx_vec3_add(vx_vec3_scale(r->u1, (float)l[3]), vx_vec3_scale(r->u2, (float)l[4]));
    *linear = *angular = vx_vec3_zero();
    *axial = 0.0f;
    switch (j->def.type) {
    case VX_JOINT_BALL: *linear = first; break;
    case VX_JOINT_HINGE:
        *linear = first;
        *angular = pair;
        break;
    case VX_JOINT_FIXED:
        *linear = first;
        *angular = vx_vec3_make((float)l[3], (float)l[4], (float)l[5]);
        break;
    case VX_JOINT_SLIDER:
        *angular = first;
        *linear = pair;
        break;
    case VX_JOINT_DISTANCE: *axial = (float)l[0]; break;
    }
}

static void keep_impulses(vx_joint *j, const vx_joint_rows *r, const double *l)
{
    vx_vec3 linear, angular;
    float axial;
    impulse_parts(j, r, l, &linear, &angular, &axial);
    j->linear_impulse = vx_vec3_add(j->linear_impulse, linear);
    j->angular_impulse = vx_vec3_add(j->angular_impulse, angular);
    j->axial_impulse += axial;
}

/* ---- building the tree ---- */

static uint32_t find(uint32_t *parent, uint32_t i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

/* Scratch in uint32 words: per body slot the union-find, per node (bodies
 * then joints) the adjacency start (+1), the adjacency (2 per joint), the
 * DFS stack and cursors, and each node's place in the order. */
static vx_status reserve(vx_joint_tree *t, size_t bodies, size_t rows)
{
    vx_status st = VX_OK;
    size_t nodes = bodies + rows;
    size_t node_capacity = t->node_capacity;
    VX_RESERVE(st, t->nodes, t->node_capacity, nodes, 16u);
    t->node_capacity = node_capacity;
    VX_RESERVE(st, t->spare, t->node_capacity, nodes, 16u);
    VX_RESERVE(st, t->order, t->order_capacity, nodes, 16u);
    VX_RESERVE(st, t->rows, t->row_capacity, rows, 16u);
    VX_RESERVE(st, t->body_node, t->body_capacity, bodies, 16u);
    VX_RESERVE(st, t->scratch, t->scratch_capacity, 2u * bodies + (nodes + 1u) + 2u * rows + 3u * nodes, 64u);
    return st;
}

/* The body's 6 x 6 mass block into d. */
static void mass_block(block d, const vx_joint_side *side)
{
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 6; k++) d[i][k] = 0.0;
    double m = 1.0 / (double)side->inv_mass;
    d[0][0] = d[1][1] = d[2][2] = m;
    block inertia;
    bool turns = false;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            inertia[i][k] = side->inv_inertia.m[i][k];
            turns = turns || inertia[i][k] != 0.0;
        }
    if (turns) invert(inertia, 3);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) d[3 + i][3 + k] = turns ? inertia[i][k] : (i == k ? LOCKED_INERTIA : 0.0);
}

/* The edge block G of node c to its parent: the joint's rows of the
 * body's side (joint dim x 6). */
static const float (*edge_rows(const vx_joint_tree *t, const vx_joint_tree_node *c,
                               const vx_joint_tree_node *p))[6]
{
    const vx_joint_tree_node *jn = c->is_joint ? c : p;
    return (const float(*)[6])t->rows[jn->index].j[c->parent_side];
}

/* D_p -= H_pc D_c^-1 H_cp for child c of p (signs cancel: G^T D^-1 G or
 * G D^-1 G^T). */
static void eliminate_into_parent(const vx_joint_tree *t, const vx_joint_tree_node *c, vx_joint_tree_node *p)
{
    const float(*g)[6] = edge_rows(t, c, p);
    int jd = c->is_joint ? c->dim : p->dim;
    if (c->is_joint) { /* p body: G^T Dc^-1 G, 6 x 6 */
        for (int a = 0; a < 6; a++)
            for (int b = 0; b < 6; b++) {
                double sum = 0.0;
                for (int r = 0; r < jd; r++)
                    for (int q = 0; q < jd; q++) sum += (double)g[r][a] * c->dinv[r][q] * (double)g[q][b];
                p->dinv[a][b] -= sum;
            }
    } else { /* p joint: G Dc^-1 G^T, jd x jd */
        for (int a = 0; a < jd; a++)
            for (int b = 0; b < jd; b++) {
                double sum = 0.0;
                for (int r = 0; r < 6; r++)
                    for (int q = 0; q < 6; q++) sum += (double)g[a][r] * c->dinv[r][q] * (double)g[b][q];
                p->dinv[a][b] -= sum;
            }
    }
}

/* The mean of the joint's rows' J M^-1 J^T (its effective inverse mass). */
static double mean_inverse_mass(const vx_joint_tree_rows *tr, const vx_joint *j)
{
    double sum = 0.0;
    for (int s = 0; s < 2; s++) {
        const vx_joint_side *side = &j->side[s];
        if (!side->moves) continue;
        for (int r = 0; r < tr->dim; r++) {
            const float *row = tr->j[s][r];
            vx_vec3 lin = vx_vec3_make(row[0], row[1], row[2]), ang = vx_vec3_make(row[3], row[4], row[5]);
            sum += (double)side->inv_mass * (double)vx_vec3_dot(lin, lin) +
                   (double)vx_vec3_dot(ang, vx_mat3_mul_vec3(&side->inv_inertia, ang));
        }
    }
    return tr->dim > 0 ? sum / (double)tr->dim : 0.0;
}

/* Picks the tree joints and numbers the nodes: bodies first (by first use),
 * then joints; the bodies' joint references go to ref[] (scratch). */
static size_t number_nodes(vx_joint_tree *t, vx_joint_solver *js, const vx_body_set *bodies, size_t *body_count,
                           uint32_t *ref)
{
    uint32_t *uf = t->scratch;
    for (size_t i = 0; i < bodies->count; i++) {
        uf[i] = (uint32_t)i;
        t->body_node[i] = NONE;
    }
    size_t nb = 0, nj = 0;
    for (size_t k = 0; k < js->row_count; k++) {
        const vx_joint_rows *r = &js->rows[k];
        const vx_joint *j = &js->set->items[r->joint];
        vx_joint_tree_rows *tr = &t->rows[k];
        rows_of(tr, j, r);
        tr->node[0] = tr->node[1] = NONE;
        if (tr->dim == 0) continue;
        bool ma = j->side[0].moves, mb = j->side[1].moves;
        if (ma && mb) {
            uint32_t ra = find(uf, j->side[0].slot), rb = find(uf, j->side[1].slot);
            if (ra == rb) { /* closes a loop: Gauss-Seidel */
                tr->dim = 0;
                continue;
            }
            uf[ra] = rb;
        }
        for (int s = 0; s < 2; s++) {
            if (!j->side[s].moves) continue;
            uint32_t slot = j->side[s].slot;
            if (t->body_node[slot] == NONE) {
                ref[nb] = (uint32_t)(2u * k + (size_t)s);
                t->body_node[slot] = (uint32_t)nb++;
            }
            tr->node[s] = t->body_node[slot];
        }
        nj++;
    }
    *body_count = nb;
    return nb + nj;
}

vx_status vx_joint_tree_build(vx_joint_tree *t, vx_joint_solver *js, const vx_body_set *bodies)
{
    t->node_count = 0;
    vx_status st = reserve(t, bodies->count, js->row_count);
    if (st != VX_OK) return st;
    uint32_t *ref = t->scratch + bodies->count; /* per body node */
    size_t nb = 0;
    size_t n = number_nodes(t, js, bodies, &nb, ref);
    t->node_count = n;
    if (n == 0) return VX_OK;
    uint32_t *start = ref + bodies->count; /* n + 1 */
    uint32_t *adj = start + n + 1u;        /* 2 per joint */
    uint32_t *stack = adj + 2u * js->row_count;
    uint32_t *cursor = stack + n;
    uint32_t *place = cursor + n; /* NONE: not reached yet */
    vx_joint_tree_node *nodes = t->nodes;
    for (size_t b = 0; b < nb; b++) {
        memset(&nodes[b], 0, sizeof nodes[b]);
        nodes[b].ref = ref[b];
        nodes[b].index = js->set->items[js->rows[ref[b] / 2u].joint].side[ref[b] % 2u].slot;
        nodes[b].dim = 6;
        nodes[b].parent = NONE;
    }
    size_t next_joint = nb;
    for (size_t i = 0; i <= n; i++) start[i] = 0;
    for (size_t k = 0; k < js->row_count; k++) {
        const vx_joint_tree_rows *tr = &t->rows[k];
        if (tr->dim == 0) continue;
        vx_joint_tree_node *jn = &nodes[next_joint++];
        memset(jn, 0, sizeof *jn);
        jn->is_joint = true;
        jn->index = (uint32_t)k;
        jn->dim = tr->dim;
        jn->parent = NONE;
        for (int s = 0; s < 2; s++)
            if (tr->node[s] != NONE) start[tr->node[s] + 1u]++;
    }
    for (size_t i = 0; i < n; i++) start[i + 1u] += start[i];
    for (size_t b = 0; b < nb; b++) cursor[b] = start[b];
    for (size_t i = nb; i < n; i++) {
        const vx_joint_tree_rows *tr = &t->rows[nodes[i].index];
        for (int s = 0; s < 2; s++)
            if (tr->node[s] != NONE) adj[cursor[tr->node[s]]++] = (uint32_t)i;
    }
    /* depth first from each body not reached yet: post-order puts children before parents */
    for (size_t i = 0; i < n; i++) place[i] = NONE;
    size_t placed = 0;
    /* roots: the ties to the world first (in order), then bodies not reached */
    for (uint32_t pick = 0; pick < (uint32_t)n; pick++) {
        uint32_t root = pick < (uint32_t)(n - nb) ? (uint32_t)nb + pick : pick - (uint32_t)(n - nb);
        if (place[root] != NONE) continue;
        if (nodes[root].is_joint) {
            const vx_joint_tree_rows *tr = &t->rows[nodes[root].index];
            if (tr->node[0] != NONE && tr->node[1] != NONE) continue;
        }
        size_t top = 0;
        stack[top] = root;
        cursor[top++] = 0;
        place[root] = 0; /* reached */
        while (top > 0) {
            uint32_t v = stack[top - 1], child = NONE;
            if (!nodes[v].is_joint) {
                while (child == NONE && start[v] + cursor[top - 1] < start[v + 1u]) {
                    uint32_t c = adj[start[v] + cursor[top - 1]++];
                    if (place[c] != NONE) continue;
                    nodes[c].parent = v;
                    nodes[c].parent_side = t->rows[nodes[c].index].node[0] == v ? 0 : 1;
                    child = c;
                }
            } else {
                const vx_joint_tree_rows *tr = &t->rows[nodes[v].index];
                while (child == NONE && cursor[top - 1] < 2u) {
                    uint32_t s = cursor[top - 1]++;
                    uint32_t c = tr->node[s];
                    if (c == NONE || c == nodes[v].parent) continue;
                    VX_ASSERT(place[c] == NONE); /* a tree: no body is reached twice */
                    nodes[c].parent = v;
                    nodes[c].parent_side = (int)s;
                    child = c;
                }
            }
            if (child != NONE) {
                place[child] = 0;
                stack[top] = child;
                cursor[top++] = 0;
                continue;
            }
            top--;
            t->order[placed++] = v;
        }
    }
    VX_ASSERT(placed == n);
    /* the nodes moved into their order, so the passes walk memory forwards */
    for (size_t i = 0; i < n; i++) place[t->order[i]] = (uint32_t)i;
    for (size_t i = 0; i < n; i++) {
        vx_joint_tree_node *to = &t->spare[i];
        const vx_joint_tree_node *from = &nodes[t->order[i]];
        *to = *from;
        to->parent = from->parent == NONE ? NONE : place[from->parent];
        t->order[i] = (uint32_t)i;
    }
    for (size_t k = 0; k < js->row_count; k++)
        for (int s = 0; s < 2; s++)
            if (t->rows[k].node[s] != NONE) t->rows[k].node[s] = place[t->rows[k].node[s]];
    for (size_t b = 0; b < bodies->count; b++)
        if (t->body_node[b] != NONE) t->body_node[b] = place[t->body_node[b]];
    t->nodes = t->spare;
    t->spare = nodes;
    return vx_joint_tree_factor(t, js, js->rows);
}

vx_status vx_joint_tree_factor(vx_joint_tree *t, vx_joint_solver *js, const vx_joint_rows *rows)
{
    size_t n = t->node_count;
    vx_joint_tree_node *nodes = t->nodes;
    for (size_t i = 0; i < n; i++)
        if (nodes[i].is_joint) {
            /* rows_of leaves the nodes of the edges as they are */
            rows_of(&t->rows[nodes[i].index], &js->set->items[rows[nodes[i].index].joint], &rows[nodes[i].index]);
        }
    /* pivot blocks start as H_ii, children are eliminated into their parents */
    for (size_t i = 0; i < n; i++) {
        vx_joint_tree_node *node = &nodes[i];
        if (node->is_joint) {
            const vx_joint_tree_rows *tr = &t->rows[node->index];
            int children = (tr->node[0] != NONE) + (tr->node[1] != NONE) - (node->parent != NONE);
            double eps = children > 0 ? 0.0
                                      : LEAF_COMPLIANCE * mean_inverse_mass(tr, &js->set->items[js->rows[node->index].joint]);
            for (int a = 0; a < VX_JOINT_TREE_MAX_ROWS; a++)
                for (int b = 0; b < VX_JOINT_TREE_MAX_ROWS; b++) node->dinv[a][b] = a == b ? 0.0 - eps : 0.0;
        } else {
            const vx_joint *j = &js->set->items[js->rows[node->ref / 2u].joint];
            mass_block(node->dinv, &j->side[node->ref % 2u]);
        }
    }
    for (size_t i = 0; i < n; i++) {
        vx_joint_tree_node *c = &nodes[t->order[i]];
        invert(c->dinv, c->dim);
        if (c->parent != NONE) eliminate_into_parent(t, c, &nodes[c->parent]);
    }
    return VX_OK;
}

/* out = Dinv x (n x n). */
static void apply_inverse(const vx_joint_tree_node *node, const double *x, double *out)
{
    for (int a = 0; a < node->dim; a++) {
        double sum = 0.0;
        for (int b = 0; b < node->dim; b++) sum += node->dinv[a][b] * x[b];
        out[a] = sum;
    }
}

/* y_to += G^T z (to a body) or G z (to a joint), G the edge's rows. */
static void add_through_edge(const float (*g)[6], int jd, bool to_body, const double *z, double *y_to)
{
    if (to_body) {
        for (int a = 0; a < 6; a++) {
            double sum = 0.0;
            for (int r = 0; r < jd; r++) sum += (double)g[r][a] * z[r];
            y_to[a] += sum;
        }
    } else {
        for (int r = 0; r < jd; r++) {
            double sum = 0.0;
            for (int a = 0; a < 6; a++) sum += (double)g[r][a] * z[a];
            y_to[r] += sum;
        }
    }
}

static void velocity6(const vx_contact_hot_velocity *vel, uint32_t slot, double *out)
{
    for (int i = 0; i < 3; i++) {
        out[i] = slot == VX_JOINT_WORLD ? 0.0 : (double)vel[slot].v[i];
        out[3 + i] = slot == VX_JOINT_WORLD ? 0.0 : (double)vel[slot].w[i];
    }
}

/* The joints' right-hand sides are in their y: the solve leaves x there
 * (bodies: the change of (v, w), or of pose; joints: the impulses). */
static void substitute(vx_joint_tree *t)
{
    size_t n = t->node_count;
    vx_joint_tree_node *nodes = t->nodes;
    double z[VX_JOINT_TREE_MAX_ROWS];
    for (size_t i = 0; i < n; i++) {
        vx_joint_tree_node *c = &nodes[t->order[i]];
        if (c->parent == NONE) continue;
        vx_joint_tree_node *p = &nodes[c->parent];
        apply_inverse(c, c->y, z);
        add_through_edge(edge_rows(t, c, p), c->is_joint ? c->dim : p->dim, !p->is_joint, z, p->y);
    }
    for (size_t i = n; i-- > 0;) {
        vx_joint_tree_node *c = &nodes[t->order[i]];
        if (c->parent != NONE) {
            const vx_joint_tree_node *p = &nodes[c->parent];
            add_through_edge(edge_rows(t, c, p), c->is_joint ? c->dim : p->dim, !c->is_joint, p->y, c->y);
        }
        apply_inverse(c, c->y, z);
        for (int a = 0; a < c->dim; a++) c->y[a] = z[a];
    }
}

void vx_joint_tree_solve(vx_joint_tree *t, vx_joint_solver *js, vx_contact_hot_velocity *vel)
{
    size_t n = t->node_count;
    if (n == 0) return;
    vx_joint_tree_node *nodes = t->nodes;
    /* right-hand sides: 0 for bodies, the joint's rate J v for joints */
    for (size_t i = 0; i < n; i++) {
        vx_joint_tree_node *node = &nodes[i];
        for (int a = 0; a < VX_JOINT_TREE_MAX_ROWS; a++) node->y[a] = 0.0;
        if (!node->is_joint) continue;
        const vx_joint_tree_rows *tr = &t->rows[node->index];
        const vx_joint *j = &js->set->items[js->rows[node->index].joint];
        for (int s = 0; s < 2; s++) {
            double v6[6];
            velocity6(vel, j->side[s].slot, v6);
            for (int r = 0; r < tr->dim; r++)
                for (int a = 0; a < 6; a++) node->y[r] += (double)tr->j[s][r][a] * v6[a];
        }
    }
    substitute(t);
    /* x: the bodies' velocity changes and the joints' impulses */
    for (size_t i = 0; i < n; i++) {
        const vx_joint_tree_node *node = &nodes[i];
        if (node->is_joint) {
            const vx_joint_rows *r = &js->rows[node->index];
            keep_impulses(&js->set->items[r->joint], r, node->y);
            continue;
        }
        float *v = vel[node->index].v, *w = vel[node->index].w;
        for (int a = 0; a < 3; a++) {
            v[a] = (float)((double)v[a] + node->y[a]);
            w[a] = (float)((double)w[a] + node->y[3 + a]);
        }
    }
}


double vx_joint_tree_solve_positions(vx_joint_tree *t, vx_joint_solver *js, const vx_joint_rows *rows,
                                     vx_body_set *bodies, float inv_h)
{
    size_t n = t->node_count;
    if (n == 0) return 0.0;
    vx_joint_tree_node *nodes = t->nodes;
    double worst = 0.0;
    for (size_t i = 0; i < n; i++) {
        vx_joint_tree_node *node = &nodes[i];
        for (int a = 0; a < VX_JOINT_TREE_MAX_ROWS; a++) node->y[a] = 0.0;
        if (!node->is_joint) continue;
        const vx_joint_rows *r = &rows[node->index];
        int dim = vx_joint_locked_errors(&js->set->items[r->joint], r, bodies, node->y);
        VX_ASSERT(dim == node->dim);
        for (int a = 0; a < dim; a++) worst = fabs(node->y[a]) > worst ? fabs(node->y[a]) : worst;
    }
    substitute(t);
    for (size_t i = 0; i < n; i++) {
        const vx_joint_tree_node *node = &nodes[i];
        if (node->is_joint) {
            const vx_joint_rows *r = &rows[node->index];
            vx_joint *j = &js->set->items[r->joint];
            vx_vec3 linear, angular;
            float axial;
            impulse_parts(j, r, node->y, &linear, &angular, &axial);
            linear = vx_vec3_add(linear, vx_vec3_scale(r->axis, axial));
            j->step_linear = vx_vec3_add(j->step_linear, vx_vec3_scale(linear, inv_h));
            j->step_angular = vx_vec3_add(j->step_angular, vx_vec3_scale(angular, inv_h));
            continue;
        }
        vx_vec3 dx = vx_vec3_make((float)node->y[0], (float)node->y[1], (float)node->y[2]);
        vx_vec3 dq = vx_vec3_make((float)node->y[3], (float)node->y[4], (float)node->y[5]);
        vx_body_pose *pose = &bodies->pose[node->index];
        pose->x = vx_vec3_add(pose->x, dx);
        pose->q = vx_small_turn(pose->q, dq);
        vx_body_velocity *v = &bodies->velocity[node->index];
        v->v = vx_vec3_add(v->v, vx_vec3_scale(dx, inv_h));
        v->w = vx_vec3_add(v->w, vx_vec3_scale(dq, inv_h));
    }
    return worst;
}
