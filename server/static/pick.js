// Picking in the viewer: a click on a block reads its numbers, a click on a joint (near the plane of one of the
// clicked block's joints) reads the joint's. What is read comes from the result document as the engine wrote it:
// a joint's resultant (normal and shear force, eccentricity, kernel, shear utilisation, bond) and a block's
// average stress (p, q, principal stresses, seed 001 eq. 35) and displacement; on a deformable block's surface
// also the stress of the tetrahedron clicked (the one whose face is under the pointer, deformable.js).
import * as THREE from 'three';
import {elementEdges, elementStress} from '/static/deformable.js';

// A click lands on a joint when it is within this fraction of the model's size of the joint's plane.
const JOINT_PICK_FRACTION = 0.03;
// A pointer that moved more than this (CSS pixels) between press and release was orbiting, not clicking.
export const CLICK_SLOP_PIXELS = 4;
const PICK_COLOUR = 0xffd400;
const CHAIN_COLOUR = 0xd62828;

const vector3 = (array) => new THREE.Vector3(...array);

/**
 * What lies under a point of the canvas: null, {kind: 'block', id, point, element}, or {kind: 'joint', joint, id,
 * point} (joint: the result's interface; id: the block clicked; element: on a deformable block's surface, its
 * entry and the index of the tetrahedron clicked, else null). Blocks hidden by the entity filter are not picked,
 * nor the polyhedra of deformable blocks drawn by their surface (`surfaces`: the deformable meshes drawn,
 * deformable.js).
 */
export function pickAt(view, blocks, result, clientX, clientY, surfaces = []) {
  const rect = view.renderer.domElement.getBoundingClientRect();
  const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1,
                                -((clientY - rect.top) / rect.height) * 2 + 1);
  const raycaster = new THREE.Raycaster();
  raycaster.setFromCamera(ndc, view.camera);
  const meshes = [...blocks.values()].filter((group) => group.visible && group.userData.mesh.visible)
    .map((group) => group.userData.mesh);
  const [hit] = raycaster.intersectObjects([...meshes, ...surfaces.filter((mesh) => mesh.parent.visible)], false);
  if (!hit) return null;
  const surface = hit.object.userData.entry ? hit.object.userData : null;
  const id = surface ? surface.id : hit.object.parent.userData.id;
  const joint = result ? nearestJoint(result, id, hit.point, JOINT_PICK_FRACTION * view.size) : null;
  if (joint) return {kind: 'joint', joint, id, point: hit.point};
  const element = surface ? {entry: surface.entry, index: surface.elements[hit.faceIndex]} : null;
  return {kind: 'block', id, point: hit.point, element};
}

/**
 * The joint of block `id` whose plane passes within `reach` (m) of `point`; of several (a block on two blocks
 * has two joints in one plane), the one whose centroid is nearest the point.
 */
function nearestJoint(result, id, point, reach) {
  let best = null;
  let bestDistance = Infinity;
  for (const joint of result.interfaces || []) {
    if (!joint.blocks.includes(id) || !joint.centroid) continue;
    const offset = point.clone().sub(vector3(joint.centroid));
    if (Math.abs(vector3(joint.normal).dot(offset)) > reach) continue;
    if (offset.length() < bestDistance) {
      best = joint;
      bestDistance = offset.length();
    }
  }
  return best;
}

/** The blocks of a thrust-line chain being picked, their edges outlined in order; THREE objects for a layer. */
export function chainHighlight(chain, blocks) {
  return (chain || []).flatMap((id) => pickHighlight({kind: 'block', id}, blocks, CHAIN_COLOUR));
}

/**
 * The outline of a joint's points (a polygon's corners in order, or, for a joint of deformable blocks cut into
 * contact points, its edges' points then a grid inside): their convex hull in the joint's plane, in order.
 */
export function jointOutline(points, normal) {
  const n = new THREE.Vector3(...(normal || [0, 0, 1])).normalize();
  const helper = Math.abs(n.x) < 0.9 ? new THREE.Vector3(1, 0, 0) : new THREE.Vector3(0, 1, 0);
  const u = new THREE.Vector3().crossVectors(n, helper).normalize();
  const v = new THREE.Vector3().crossVectors(n, u);
  const planar = points.map((p, k) => {
    const q = new THREE.Vector3(...p);
    return {x: q.dot(u), y: q.dot(v), k};
  }).sort((a, b) => a.x - b.x || a.y - b.y);
  const turn = (o, a, b) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const half = (list) => {
    const hull = [];
    for (const p of list) {
      while (hull.length >= 2 && turn(hull[hull.length - 2], hull[hull.length - 1], p) <= 0) hull.pop();
      hull.push(p);
    }
    hull.pop();
    return hull;
  };
  const hull = [...half(planar), ...half([...planar].reverse())];
  return hull.length >= 3 ? hull.map((p) => points[p.k]) : points;
}

/**
 * The highlight of a pick: the joint's polygon outlined, or the block's edges, and the edges of a deformable
 * block's tetrahedron clicked as drawn at `magnification`; THREE objects for a layer.
 */
export function pickHighlight(pick, blocks, colour = PICK_COLOUR, magnification = 1) {
  if (!pick) return [];
  const material = new THREE.LineBasicMaterial({color: colour, depthTest: false});
  if (pick.kind === 'joint' && pick.joint.polygon?.length >= 3) {
    const corners = jointOutline(pick.joint.polygon, pick.joint.normal);
    const outline = new THREE.LineLoop(new THREE.BufferGeometry().setFromPoints(corners.map(vector3)), material);
    outline.renderOrder = 20;
    return [outline];
  }
  const group = blocks.get(pick.id);
  if (!group) return [];
  const edges = new THREE.LineSegments(new THREE.EdgesGeometry(group.userData.mesh.geometry, 1), material);
  edges.position.copy(group.position);
  edges.quaternion.copy(group.quaternion);
  edges.renderOrder = 20;
  if (!pick.element) return [edges];
  const element = new THREE.LineSegments(elementEdges(pick.element.entry, pick.element.index, magnification),
                                         material.clone());
  element.renderOrder = 20;
  return [edges, element];
}

/** The rows ([label, text, data key, raw value]) the panel shows for a pick. */
export function pickRows(pick, result, model, format) {
  if (pick.kind === 'joint') return jointRows(pick.joint, format);
  const rows = blockRows(pick.id, result, model, format);
  return pick.element ? [...rows, ...elementRows(elementStress(pick.element.entry, pick.element.index), format)]
    : rows;
}

/** The stress of a deformable block's tetrahedron: its von Mises stress and principal stresses (ascending). */
function elementRows({index, count, element, vonMises, principal}, format) {
  return [['element', `${index + 1} of ${count} (${element})`, 'element', index],
          ['von Mises σv', format.stress(vonMises), 'von-mises', vonMises],
          ['principal σ1, σ2, σ3', principal.map(format.stress).join(', '), 'element-principal',
           principal.join(',')]];
}

function jointRows(joint, format) {
  const rows = [['joint', joint.blocks.join(' – '), 'blocks', joint.blocks.join(',')]];
  if (joint.normal_force !== undefined) {
    const kind = joint.normal_force >= 0 ? 'compression' : 'tension';
    rows.push(['normal force N', `${format.force(Math.abs(joint.normal_force))} (${kind})`, 'normal-force',
               joint.normal_force]);
  }
  if (joint.shear_force !== undefined) rows.push(['shear force V', format.force(joint.shear_force), 'shear-force',
                                                  joint.shear_force]);
  if (joint.eccentricity !== undefined && joint.eccentricity !== null) {
    const where = joint.in_kernel ? 'in the kernel' : joint.in_polygon ? 'outside the kernel' : 'outside the joint';
    rows.push(['eccentricity e', `${format.length(joint.eccentricity)} (${where})`, 'eccentricity',
               joint.eccentricity]);
  }
  if (joint.shear_utilisation !== undefined && joint.shear_utilisation !== null) {
    rows.push(['utilisation |V|/µN', format.number(joint.shear_utilisation, 3), 'shear-utilisation',
               joint.shear_utilisation]);
  }
  if (joint.bond) rows.push(['bond', joint.bond, 'bond', joint.bond]);
  return rows;
}

function blockRows(id, result, model, format) {
  const block = model.blocks.find((entry) => entry.id === id);
  const rows = [['block', id, 'block', id]];
  if (block?.support) rows.push(['support', 'yes (does not move)', 'support', true]);
  const state = result?.blocks.find((entry) => entry.id === id);
  if (!state) return rows;
  if (state.p !== undefined && state.p !== null) {
    rows.push(['mean stress p', format.stress(state.p), 'p', state.p]);
    rows.push(['deviatoric stress q', format.stress(state.q), 'q', state.q]);
  }
  const values = state.principal_stress?.values;
  const directions = state.principal_stress?.directions;
  if (values && directions) {
    // most compressive first (stress is negative in compression), each with its axis
    const order = values.map((value, k) => k).sort((a, b) => values[a] - values[b]);
    order.forEach((k, rank) => {
      const axis = directions[k].map((c) => c.toFixed(3)).join(', ');
      rows.push([`σ${rank + 1} and its axis`, `${format.stress(values[k])} along (${axis})`, `sigma-${rank + 1}`,
                 [values[k], ...directions[k]].join(',')]);
    });
  }
  const frames = result.frames || [];
  if (frames.length > 1) {
    const index = result.blocks.indexOf(state);
    const first = frames[0].positions?.[index];
    const last = frames[frames.length - 1].positions?.[index];
    if (first && last) {
      const moved = vector3(last).sub(vector3(first)).length();
      rows.push(['displacement', format.length(moved), 'displacement', moved]);
    }
  }
  return rows;
}
