/* The locked rows of the joints solved exactly, all at once, where the
 * joints link the bodies as a tree (private to the physics module): the
 * sparse system [[M, -J^T], [-J, 0]] over bodies and joints factored leaves
 * first without fill-in (Baraff's linear-time method), once per substep,
 * then solved in every velocity pass. A chain carrying a weight 50 or 5000
 * times a link's mass holds as well as a light one, which Gauss-Seidel
 * passes cannot give. A joint that would close a loop (and every limit,
 * motor, spring and cone row) stays with the Gauss-Seidel passes. See
 * docs/simulation.md, "Joints". */
#ifndef VOLTEX_PHYSICS_JOINT_JOINT_TREE_H
#define VOLTEX_PHYSICS_JOINT_JOINT_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "physics/body/body_set.h"
#include "physics/solver/contact_solver.h"

#define VX_JOINT_TREE_MAX_ROWS 6

struct vx_joint_solver;
struct vx_joint_rows_s;

typedef struct {
    bool is_joint;    /* else a body */
    uint32_t index;   /* body slot, or position in the solver's rows */
    uint32_t ref;     /* a body: 2 * row + side of a joint it is on (its mass is read there) */
    uint32_t parent;  /* node, or UINT32_MAX for a root */
    int parent_side;  /* the joint's side (0: A, 1: B) that is the body of the edge to the parent */
    int dim;          /* 6 for a body, the joint's locked rows */
    double dinv[VX_JOINT_TREE_MAX_ROWS][VX_JOINT_TREE_MAX_ROWS]; /* the pivot block's inverse */
    double y[VX_JOINT_TREE_MAX_ROWS]; /* the solve's scratch */
} vx_joint_tree_node;

/* A tree joint's locked rows: rate = Ja . (vA, wA) + Jb . (vB, wB). */
typedef struct {
    int dim;
    float j[2][VX_JOINT_TREE_MAX_ROWS][6];
    uint32_t node[2]; /* its bodies' nodes, UINT32_MAX for a side that is not a node */
} vx_joint_tree_rows;

typedef struct {
    vx_joint_tree_node *nodes; /* in elimination order once built */
    vx_joint_tree_node *spare; /* the build's other buffer (the nodes before they are ordered) */
    size_t node_count, node_capacity;
    uint32_t *order;           /* the nodes in elimination order: children before parents */
    size_t order_capacity;
    vx_joint_tree_rows *rows;  /* per solver row (joint); dim 0: not in the tree */
    size_t row_capacity;
    uint32_t *body_node;       /* per body slot: its node, or UINT32_MAX */
    size_t body_capacity;
    uint32_t *scratch;         /* union-find, adjacency, stack */
    size_t scratch_capacity;
} vx_joint_tree;

void vx_joint_tree_init(vx_joint_tree *t);
void vx_joint_tree_free(vx_joint_tree *t);

/* After vx_joint_solver_prepare: picks the tree joints (in order, those
 * that close no loop among the moving bodies), builds their rows and
 * factors the system. Marks each row in_tree. */
vx_status vx_joint_tree_build(vx_joint_tree *t, struct vx_joint_solver *js, const vx_body_set *bodies);
/* One exact solve of the tree's locked rows on the packed velocities: their
 * rates become zero; the impulses join the joints' kept ones. */
void vx_joint_tree_solve(vx_joint_tree *t, struct vx_joint_solver *js, vx_contact_hot_velocity *vel);
/* One position pass of the tree's locked rows with these rows: the errors
 * measured from the poses now, the poses moved to take them out and the
 * velocities changed by the moves times inv_h (joint_position.c); returns
 * the largest error found (m or rad). */
double vx_joint_tree_solve_positions(vx_joint_tree *t, struct vx_joint_solver *js, const struct vx_joint_rows_s *rows,
                                   vx_body_set *bodies, float inv_h);
/* The tree factored again with these rows (the same joints, in the same
 * order: a position pass's). */
vx_status vx_joint_tree_factor(vx_joint_tree *t, struct vx_joint_solver *js, const struct vx_joint_rows_s *rows);

#endif
