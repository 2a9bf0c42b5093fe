"""Deformable blocks (issue 23): a block meshed into linear tetrahedra with linear elasticity.

Seed 001 (sec. 2.1, eq. 1) treats a deformable block as a finite element discretisation of the continuous
body, node displacements its Lagrange variables, its boundary faces carrying the contact points. This
package holds the parts that do not touch the contact solver yet:

- `tetra_mesh`: a convex block's linear tetrahedra at a chosen mesh size, and its boundary triangles;
- `elasticity`: the constant-strain tetrahedron's stiffness, the block's sparse stiffness and lumped mass,
  the element stresses of a displacement field, and the co-rotational stresses of current node positions
  (each element's rigid rotation taken out, so that a rocking or falling block strains nothing).

The coupling with the NSCD step (the block's condensed flexibility inside the Delassus operator, seed 001
eq. 9-13) and the results are issue 23's next steps.
"""
