"""Deformable blocks (issue 23): blocks meshed into tetrahedra of linear elasticity, in the same NSCD step as the
rigid ones.

Seed 001 (sec. 2.1-2.2, eq. 1, 9-13) treats a deformable block as a finite element discretisation of the
continuous body with the theta-method in time; its boundary faces carry the contacts. Here:

- `tetra_mesh`: a convex block's linear tetrahedra at a mesh size, and its boundary triangles;
- `quadratic`: the 10-node tetrahedron built on them (bending exact where linear tetrahedra lock);
- `elasticity`: element stiffness, the block's sparse stiffness and lumped mass, element and co-rotational
  stresses, for both element orders;
- `blocks`: the model document's ``deformable`` fields, checked, and each deformable block's mesh;
- `body`: a block as a rigid frame carrying elastic displacements mass-orthogonal to its rigid modes, with the
  theta-method's flexibility (and the static compliance);
- `surface_map`: where a contact sits on a block's surface (node weights; a joint polygon as a dual mortar);
- `coupling`: one step's elastic part: gaps, free velocity, the condensed flexibility that joins the
  Delassus operator (engine.solvers.flexible_problem), the update after the solve.
"""
