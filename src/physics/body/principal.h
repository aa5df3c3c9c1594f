/* The principal axes of an inertia tensor (private to the physics module):
 * the rotation whose columns are its eigenvectors, so the tensor is
 * diagonal in the frame it turns to. Hulls and compounds are simulated in
 * that frame. The eigenvectors come from cyclic Jacobi rotations in double,
 * a fixed sequence of operations, so the same tensor gives the same frame. */
#ifndef VOLTEX_PHYSICS_BODY_PRINCIPAL_H
#define VOLTEX_PHYSICS_BODY_PRINCIPAL_H

#include "voltex/math.h"

/* The unit quaternion of the principal axes of the tensor (symmetrised
 * first), its columns turned towards +x and +y as far as they go and
 * right-handed; r gets that quaternion's rotation matrix as floats widened
 * to double, the exact rotation the data should be turned by. A tensor
 * that is diagonal up to rounding keeps the identity, bit for bit. */
vx_quat vx_principal_axes(const double inertia[3][3], double r[3][3]);

#endif
