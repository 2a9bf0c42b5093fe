// Deformable blocks in the viewer (issue 23): each block's deformed surface, the result's "deformable" boundary
// triangles on its nodes, coloured by a stress measure of the tetrahedron each triangle is a face of.
//
// The result gives every node where it is, x (m, world: the block's rigid motion and its elastic displacement),
// and the elastic displacement u (m, world); the drawing magnifies the displacement by a factor f:
//     drawn node = x - u + f u.
// Element stresses are the result's, at each tetrahedron's centroid: Voigt xx, yy, zz, yz, xz, xy (Pa, tension
// positive) and the principal stresses, ascending. A 10-node tetrahedron's surface is drawn by its corners.
import * as THREE from 'three';
import {COLOURS, displacementColour} from '/static/scene.js';

/**
 * The stress measures a user colours by: the legend's label, the value (Pa) of element t of a block's entry, and
 * which end of the range takes the ramp's dark end: the largest von Mises stress, the most compressive (most
 * negative) principal stress.
 */
export const STRESS_MEASURES = {
  von_mises: {label: 'von Mises stress', value: (entry, t) => vonMises(entry.stress[t]), dark: 'high'},
  min_principal: {label: 'min principal stress (compression)', value: (entry, t) => entry.principal_stress[t][0],
                  dark: 'low'},
};

/** sqrt(((sxx - syy)^2 + (syy - szz)^2 + (szz - sxx)^2) / 2 + 3 (syz^2 + sxz^2 + sxy^2)), Pa, of a Voigt stress. */
export function vonMises([xx, yy, zz, yz, xz, xy]) {
  return Math.sqrt(0.5 * ((xx - yy) ** 2 + (yy - zz) ** 2 + (zz - xx) ** 2) + 3 * (yz * yz + xz * xz + xy * xy));
}

/** The tetrahedron each boundary triangle of an entry is a face of (an outer face belongs to one only). */
export function boundaryElements(entry) {
  const key = (corners) => [...corners].sort((a, b) => a - b).join(',');
  const owner = new Map();
  entry.tetrahedra.forEach(([a, b, c, d], t) => {
    for (const face of [[a, b, c], [a, b, d], [a, c, d], [b, c, d]]) owner.set(key(face), t);
  });
  return entry.boundary.map((triangle) => owner.get(key(triangle)));
}

/** Node n of an entry as drawn with the displacement magnified `factor` times (THREE.Vector3, m, world). */
export function drawnNode(entry, n, factor) {
  const [x, y, z] = entry.nodes[n];
  const [ux, uy, uz] = entry.displacement[n];
  return new THREE.Vector3(x + (factor - 1) * ux, y + (factor - 1) * uy, z + (factor - 1) * uz);
}

/** {low, high} (Pa) of a measure over every element of every entry; null without elements. */
export function measureRange(entries, measure) {
  let low = Infinity;
  let high = -Infinity;
  for (const entry of entries) {
    for (let t = 0; t < entry.tetrahedra.length; t++) {
      const value = STRESS_MEASURES[measure].value(entry, t);
      low = Math.min(low, value);
      high = Math.max(high, value);
    }
  }
  return low <= high ? {low, high} : null;
}

/** The fraction (0: the ramp's pale end, 1: its dark end) of `value` in `range` for a measure. */
function rampFraction(value, range, measure) {
  const span = range.high - range.low;
  if (!(span > 0)) return 0;
  return STRESS_MEASURES[measure].dark === 'high' ? (value - range.low) / span : (range.high - value) / span;
}

/**
 * One Group per deformable block of a result: its deformed surface coloured per triangle by `measure` on the ramp
 * over `range`, and its outline. The geometry is stored from the block's reference centroid (the Group's position)
 * so that float32 keeps the small displacements.
 *
 * @param {object[]} entries  the result's "deformable"
 * @param {{measure: string, magnification: number, range: {low, high}}} drawing
 * @returns {THREE.Group[]}  each Group's userData: {id, entry, mesh}; each mesh's userData: {id, entry, elements}
 *   (elements[k]: the tetrahedron of triangle k)
 */
export function deformableObjects(entries, {measure, magnification, range}) {
  return entries.map((entry) => {
    const nodes = entry.nodes.map((_, n) => drawnNode(entry, n, magnification));
    const origin = new THREE.Vector3();   // the reference centroid: the nodes without their displacement
    entry.nodes.forEach((_, n) => origin.add(drawnNode(entry, n, 0)));
    origin.divideScalar(Math.max(entry.nodes.length, 1));
    const elements = boundaryElements(entry);
    const corners = new Float32Array(9 * entry.boundary.length);
    const colours = new Float32Array(9 * entry.boundary.length);
    entry.boundary.forEach((triangle, k) => {
      const value = STRESS_MEASURES[measure].value(entry, elements[k]);
      const colour = displacementColour(rampFraction(value, range, measure));
      triangle.forEach((node, c) => {
        const local = nodes[node].clone().sub(origin);
        corners.set([local.x, local.y, local.z], 9 * k + 3 * c);
        colours.set([colour.r, colour.g, colour.b], 9 * k + 3 * c);
      });
    });
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(corners, 3));
    geometry.setAttribute('color', new THREE.BufferAttribute(colours, 3));
    geometry.computeVertexNormals();
    const mesh = new THREE.Mesh(geometry, new THREE.MeshLambertMaterial({
      vertexColors: true, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1}));
    mesh.userData = {id: entry.block, entry, elements};
    const outline = new THREE.LineSegments(new THREE.EdgesGeometry(geometry, 1),
                                           new THREE.LineBasicMaterial({color: COLOURS.edge}));
    const group = new THREE.Group();
    group.add(mesh, outline);
    group.position.copy(origin);
    group.userData = {id: entry.block, entry, mesh};
    return group;
  });
}

/** The range's ends in the order of the ramp (pale end first) for a measure, Pa. */
export function rampEnds(range, measure) {
  return STRESS_MEASURES[measure].dark === 'high' ? [range.low, range.high] : [range.high, range.low];
}

/** {index, count, element, vonMises, principal} of tetrahedron t of an entry: what a pick reads (Pa). */
export function elementStress(entry, t) {
  return {index: t, count: entry.tetrahedra.length, element: entry.element, vonMises: vonMises(entry.stress[t]),
          principal: entry.principal_stress[t]};
}

/** The six edges of tetrahedron t of an entry as drawn at `magnification`: a THREE.LineSegments geometry. */
export function elementEdges(entry, t, magnification) {
  const corners = entry.tetrahedra[t].slice(0, 4).map((n) => drawnNode(entry, n, magnification));
  const pairs = [[0, 1], [1, 2], [0, 2], [0, 3], [1, 3], [2, 3]];
  return new THREE.BufferGeometry().setFromPoints(pairs.flatMap(([a, b]) => [corners[a], corners[b]]));
}
