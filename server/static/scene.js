// The 3D scene: blocks of a model document and the layers of a result document.
//
// Model coordinates are used as they are (SI, z up). Each block is a Group whose geometry is
// stored in the block's own frame, so a frame of a dynamic run only sets the Group's position and
// quaternion:  x(t) = p(t) + R(q(t)) R(q0)^-1 (x0 - p0),  with the vertices x0 given in world
// coordinates at the initial pose (p0, q0).
import * as THREE from 'three';
import {OrbitControls} from '/static/vendor/three/OrbitControls.js';

export const COLOURS = {
  background: 0xf3f5f8,
  block: 0xdcc7a1,      // sandstone: a movable block at rest
  sliding: 0xf2b134,    // a block with a slipping contact
  moving: 0xe4572e,     // a block of the mechanism (an unstable static result)
  support: 0xaeb5bd,
  edge: 0x4b4f54,
  stick: 0x1f6fd1,
  slip: 0xf28c28,
  open: 0x9aa0a6,
  resultant: 0x7b2cbf,
  reaction: 0x1e9e4a,
  thrust: 0xd62828,
  load: 0x222222,
  intact: 0x2a9d4b,     // a mortar bond that holds
  damaged: 0xf2b134,    // a mortar bond that has softened
  broken: 0x111111,     // a mortar bond lost for good
  hinge: 0x0b3c5d,      // a hinge of the collapse mechanism
  mechanism: 0xe4572e,  // a block's velocity in the collapse mechanism
};

// Yellow-orange-red (ColorBrewer YlOrRd) for displacements from 0 to the largest of the run.
const DISPLACEMENT_RAMP = [0xffffcc, 0xfed976, 0xfd8d3c, 0xe31a1c, 0x800026].map((hex) => new THREE.Color(hex));
export const DISPLACEMENT_RAMP_CSS = DISPLACEMENT_RAMP.map((colour) => `#${colour.getHexString()}`);

// Sizes as fractions of the model's size (the radius of its bounding sphere).
const LONGEST_CONTACT_ARROW = 0.18;
const LONGEST_JOINT_ARROW = 0.3;
const LONGEST_LOAD_ARROW = 0.25;
const ARROW_RADIUS = 0.008;
const CONTACT_ARROW_RADIUS = 0.005;
const THRUST_RADIUS = 0.014;
const BOND_RADIUS = 0.012;
const HINGE_RADIUS = 0.025;
const LONGEST_MECHANISM_ARROW = 0.2;
const MOVABLE_OPACITY = 0.5;
const SUPPORT_OPACITY = 0.55;

const UP = new THREE.Vector3(0, 1, 0); // the axis of three.js cylinders and cones
// Drawn after everything else and through the blocks: the thrust line stays readable inside a wall.
const ON_TOP = 10;

/**
 * The views a user picks: where the camera looks from (from the target to the camera), which way is up on
 * the screen, and whether it is an orthographic engineering view or a perspective one.
 */
export const VIEWS = {
  '3d': {from: [0.3, -1.0, 0.3], up: [0, 0, 1], orthographic: false, label: '3D'},
  elevation: {from: [0, -1, 0], up: [0, 0, 1], orthographic: true, label: 'Elevation'},
  side: {from: [1, 0, 0], up: [0, 0, 1], orthographic: true, label: 'Side'},
  plan: {from: [0, 0, 1], up: [0, 1, 0], orthographic: true, label: 'Plan'},
};
// The axis triad in the lower left corner: its size in CSS pixels and its margin.
const TRIAD_PIXELS = 84;
const TRIAD_MARGIN = 8;

/** The renderer, camera, controls and one Group per layer, drawn on demand into `container`. */
export class View {
  constructor(container) {
    this.renderer = new THREE.WebGLRenderer({antialias: true, preserveDrawingBuffer: true});
    this.renderer.setPixelRatio(window.devicePixelRatio);
    this.renderer.setClearColor(COLOURS.background);
    container.prepend(this.renderer.domElement);

    this.scene = new THREE.Scene();
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x9a9a9a, 2.2));
    this.sun = new THREE.DirectionalLight(0xffffff, 1.6);
    this.scene.add(this.sun);

    this.perspective = new THREE.PerspectiveCamera(35, 1, 0.01, 1000);
    this.orthographic = new THREE.OrthographicCamera(-1, 1, 1, -1, 0.01, 1000);
    this.camera = this.perspective;
    this.camera.up.set(0, 0, 1);
    this.controls = this.makeControls();
    this.viewName = '3d';
    this.box = null;              // the bounds last framed (THREE.Box3)
    this.onChange = null;         // called after the camera moved (the page's force scale bar follows it)
    this.halfHeight = 1;          // m, half the orthographic view's height before zooming
    this.triad = triadScene();
    this.triadCamera = new THREE.OrthographicCamera(-1.6, 1.6, 1.6, -1.6, 0.1, 10);

    this.layers = {};
    for (const name of ['blocks', 'deformable', 'loads', 'contacts', 'resultants', 'thrustLines', 'reactions', 'bonds',
                        'mechanism', 'pick']) {
      this.layers[name] = new THREE.Group();
      this.scene.add(this.layers[name]);
    }
    this.size = 1; // m, the model's size (radius of its bounds): arrows and lines are sized from it

    new ResizeObserver(() => this.resize(container)).observe(container);
    this.resize(container);
  }

  makeControls() {
    const controls = new OrbitControls(this.camera, this.renderer.domElement);
    controls.addEventListener('change', () => {
      this.render();
      this.onChange?.();
    });
    return controls;
  }

  resize(container) {
    const width = Math.max(container.clientWidth, 1);
    const height = Math.max(container.clientHeight, 1);
    this.renderer.setSize(width, height, false);
    this.aspect = width / height;
    this.perspective.aspect = this.aspect;
    this.perspective.updateProjectionMatrix();
    this.shapeOrthographic();
    this.render();
  }

  /** The orthographic frustum: halfHeight tall each way, as wide as the canvas's aspect makes it. */
  shapeOrthographic() {
    const camera = this.orthographic;
    camera.top = this.halfHeight;
    camera.bottom = -this.halfHeight;
    camera.left = -this.halfHeight * (this.aspect || 1);
    camera.right = this.halfHeight * (this.aspect || 1);
    camera.updateProjectionMatrix();
  }

  /** Draw now (the page draws only when something changed): the scene, then the axis triad in a corner. */
  render() {
    const renderer = this.renderer;
    renderer.render(this.scene, this.camera);
    const size = renderer.getSize(new THREE.Vector2());
    if (size.x < 3 * TRIAD_PIXELS || size.y < 3 * TRIAD_PIXELS) return;
    this.triadCamera.quaternion.copy(this.camera.quaternion);
    this.triadCamera.position.set(0, 0, 3).applyQuaternion(this.camera.quaternion);
    renderer.autoClear = false;
    renderer.setScissorTest(true);
    renderer.setScissor(TRIAD_MARGIN, TRIAD_MARGIN, TRIAD_PIXELS, TRIAD_PIXELS);
    renderer.setViewport(TRIAD_MARGIN, TRIAD_MARGIN, TRIAD_PIXELS, TRIAD_PIXELS);
    renderer.clearDepth();
    renderer.render(this.triad, this.triadCamera);
    renderer.setScissorTest(false);
    renderer.setViewport(0, 0, size.x, size.y);
    renderer.autoClear = true;
  }

  /** Look from one of VIEWS (by name), framing the bounds last framed. */
  setView(name) {
    const view = VIEWS[name];
    if (!view) return;
    const target = this.controls.target.clone();
    this.viewName = name;
    this.camera = view.orthographic ? this.orthographic : this.perspective;
    this.camera.up.set(...view.up); // OrbitControls reads the camera's up when it is made
    this.controls.dispose();
    this.controls = this.makeControls();
    this.controls.target.copy(target);
    this.fit();
  }

  /** CSS pixels a metre spans on the screen, across the view at the orbit's target. */
  pixelsPerMetre() {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const across = new THREE.Vector3().setFromMatrixColumn(this.camera.matrixWorld, 0).normalize();
    const a = this.controls.target.clone().project(this.camera);
    const b = this.controls.target.clone().add(across).project(this.camera);
    return Math.hypot((b.x - a.x) * rect.width / 2, (b.y - a.y) * rect.height / 2);
  }

  /** Frame the bounds last framed in the current view. */
  fit() {
    if (this.box) this.frame(this.box);
  }

  /** Replace the content of a layer by `objects`, freeing what it held. */
  setLayer(name, objects) {
    const layer = this.layers[name];
    for (const child of [...layer.children]) {
      child.traverse((object) => {
        object.geometry?.dispose();
        object.material?.dispose();
      });
      layer.remove(child);
    }
    for (const object of objects) layer.add(object);
  }

  /** Look at `box` (a THREE.Box3) from the current view's side (3D: from the front (-y), a little from the
   *  right and above), the whole box in sight. */
  frame(box) {
    this.box = box.clone();
    const view = VIEWS[this.viewName];
    const sphere = box.getBoundingSphere(new THREE.Sphere());
    const radius = Math.max(sphere.radius, 1e-3);
    const fov = THREE.MathUtils.degToRad(this.perspective.fov);
    const distance = 1.1 * radius / Math.sin(fov / 2);
    const direction = new THREE.Vector3(...view.from).normalize();
    this.camera.up.set(...view.up);
    this.camera.position.copy(sphere.center).addScaledVector(direction, distance);
    this.camera.near = distance / 100;
    this.camera.far = distance * 100;
    this.camera.zoom = 1;
    this.halfHeight = 1.1 * radius;
    this.shapeOrthographic();
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(sphere.center);
    this.sun.position.copy(sphere.center).add(new THREE.Vector3(1, -2, 3).multiplyScalar(radius));
    this.controls.update();
    this.render();
    this.onChange?.();
  }
}

// --- blocks ----------------------------------------------------------------

/** The vertices' mean: the block origin when nothing better (a centre of mass) is known. */
function vertexMean(block) {
  const mean = new THREE.Vector3();
  for (const vertex of block.vertices) mean.add(new THREE.Vector3(...vertex));
  return mean.divideScalar(block.vertices.length);
}

/** [w, x, y, z] (the documents' order) as a THREE.Quaternion. */
export function quaternion([w, x, y, z]) {
  return new THREE.Quaternion(x, y, z, w);
}

/**
 * Triangles of a convex block, in the block's own frame: R(q0)^-1 (x0 - p0).
 *
 * Each face (a convex polygon, outward and counter-clockwise) is split into a fan from its first
 * vertex; the triangles are not indexed so that each face keeps its own flat normal.
 */
function blockGeometry(block, origin, orientation) {
  const inverse = orientation.clone().invert();
  const local = block.vertices.map((vertex) => new THREE.Vector3(...vertex).sub(origin).applyQuaternion(inverse));
  const corners = [];
  for (const face of block.faces) {
    for (let k = 1; k + 1 < face.length; k++) {
      for (const index of [face[0], face[k], face[k + 1]]) corners.push(local[index].x, local[index].y, local[index].z);
    }
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.Float32BufferAttribute(corners, 3));
  geometry.computeVertexNormals();
  return geometry;
}

/**
 * One Group per block of a model document, placed at its initial pose.
 *
 * @param {object} model  the model document
 * @param {Map<string, {position: THREE.Vector3, orientation: THREE.Quaternion}>} poses  initial
 *   pose of each block id (a centre of mass and orientation); blocks missing from it get their
 *   vertex mean and no rotation
 * @returns {Map<string, THREE.Group>}  by block id; each Group's userData holds {id, support, mesh}
 */
export function blockObjects(model, poses) {
  const objects = new Map();
  for (const block of model.blocks) {
    const pose = poses.get(block.id) || {position: vertexMean(block), orientation: new THREE.Quaternion()};
    const geometry = blockGeometry(block, pose.position, pose.orientation);
    const support = Boolean(block.support);
    const material = new THREE.MeshLambertMaterial({
      color: support ? COLOURS.support : COLOURS.block,
      transparent: true,
      opacity: support ? SUPPORT_OPACITY : MOVABLE_OPACITY,
      depthWrite: false,
      polygonOffset: true,
      polygonOffsetFactor: 1,
      polygonOffsetUnits: 1,
    });
    const mesh = new THREE.Mesh(geometry, material);
    const edges = new THREE.LineSegments(new THREE.EdgesGeometry(geometry, 1),
      new THREE.LineBasicMaterial({color: COLOURS.edge}));
    const group = new THREE.Group();
    group.add(mesh, edges);
    group.position.copy(pose.position);
    group.quaternion.copy(pose.orientation);
    group.userData = {id: block.id, support, mesh};
    objects.set(block.id, group);
  }
  return objects;
}

/** The colour of a displacement, `fraction` of the largest, on the yellow-orange-red ramp. */
export function displacementColour(fraction) {
  const x = THREE.MathUtils.clamp(fraction, 0, 1) * (DISPLACEMENT_RAMP.length - 1);
  const k = Math.min(Math.floor(x), DISPLACEMENT_RAMP.length - 2);
  return DISPLACEMENT_RAMP[k].clone().lerp(DISPLACEMENT_RAMP[k + 1], x - k);
}

// --- arrows and polylines ----------------------------------------------------

/**
 * Arrows as two instanced meshes (shafts and heads), one instance each per arrow.
 *
 * @param {Array<{origin: THREE.Vector3, vector: THREE.Vector3, colour: number}>} arrows  vector is
 *   the arrow itself (length in m), already scaled
 * @param {number} radius  shaft radius of a long arrow, m; short arrows get thinner
 * @returns {THREE.Object3D[]}  empty when there are no arrows
 */
function arrowObjects(arrows, radius) {
  if (arrows.length === 0) return [];
  const shaftGeometry = new THREE.CylinderGeometry(1, 1, 1, 10).translate(0, 0.5, 0);
  const headGeometry = new THREE.ConeGeometry(1, 1, 14).translate(0, 0.5, 0);
  const shafts = new THREE.InstancedMesh(shaftGeometry, new THREE.MeshLambertMaterial(), arrows.length);
  const heads = new THREE.InstancedMesh(headGeometry, new THREE.MeshLambertMaterial(), arrows.length);
  const matrix = new THREE.Matrix4();
  const rotation = new THREE.Quaternion();
  const colour = new THREE.Color();
  arrows.forEach(({origin, vector, colour: hex}, i) => {
    const length = vector.length();
    const r = Math.min(radius, 0.08 * length);
    const headLength = Math.min(0.3 * length, 7 * radius);
    rotation.setFromUnitVectors(UP, vector.clone().divideScalar(length || 1));
    matrix.compose(origin, rotation, new THREE.Vector3(r, length - headLength, r));
    shafts.setMatrixAt(i, matrix);
    const headBase = origin.clone().addScaledVector(vector, (length - headLength) / (length || 1));
    matrix.compose(headBase, rotation, new THREE.Vector3(2.5 * r, headLength, 2.5 * r));
    heads.setMatrixAt(i, matrix);
    colour.setHex(hex);
    shafts.setColorAt(i, colour);
    heads.setColorAt(i, colour);
  });
  return [shafts, heads];
}

/** A polyline as a chain of cylinders with a sphere at each vertex, all instanced. */
function polylineObjects(points, radius, colour) {
  if (points.length < 2) return [];
  const material = new THREE.MeshLambertMaterial({color: colour});
  const segments = new THREE.InstancedMesh(
    new THREE.CylinderGeometry(1, 1, 1, 10).translate(0, 0.5, 0), material, points.length - 1);
  const joints = new THREE.InstancedMesh(new THREE.SphereGeometry(1, 12, 8), material, points.length);
  const matrix = new THREE.Matrix4();
  const rotation = new THREE.Quaternion();
  for (let i = 0; i < points.length; i++) {
    matrix.compose(points[i], rotation.identity(), new THREE.Vector3(1.6 * radius, 1.6 * radius, 1.6 * radius));
    joints.setMatrixAt(i, matrix);
    if (i + 1 === points.length) break;
    const step = points[i + 1].clone().sub(points[i]);
    const length = step.length();
    rotation.setFromUnitVectors(UP, step.divideScalar(length || 1));
    matrix.compose(points[i], rotation, new THREE.Vector3(radius, length, radius));
    segments.setMatrixAt(i, matrix);
  }
  return [segments, joints];
}

// --- result layers -----------------------------------------------------------

const vector3 = (array) => new THREE.Vector3(...array);

/** Scale (m/N) that makes the largest of `magnitudes` (N) `longest` (m) long. */
function arrowScale(magnitudes, longest) {
  const largest = Math.max(0, ...magnitudes);
  return largest > 0 ? longest / largest : 0;
}

/** An arrow of `vector` whose middle is at `point`, so that it crosses the joint it acts on. */
function centredArrow(point, vector, colour) {
  return {origin: point.clone().addScaledVector(vector, -0.5), vector, colour};
}

/**
 * The force a joint applies to its movable side, and that side: documents give the force on
 * blocks[0] from blocks[1]; when blocks[0] is a support the arrow shows the reverse, on blocks[1].
 */
function forceOnMovable(entry, isSupport) {
  const force = vector3(entry.force);
  return isSupport(entry.blocks[0]) ? force.negate() : force;
}

/**
 * Contact forces as arrows centred on the contact point, length proportional to the magnitude
 * and coloured by state (stick, slip, open). Contacts without force are not drawn.
 *
 * @returns {{objects: THREE.Object3D[], count: number, largest: number}}  largest force in N
 */
export function contactLayer(result, isSupport, size) {
  const loaded = result.contacts.filter((contact) => vector3(contact.force).length() > 0);
  const magnitudes = loaded.map((contact) => vector3(contact.force).length());
  const scale = arrowScale(magnitudes, LONGEST_CONTACT_ARROW * size);
  const arrows = loaded.map((contact) => centredArrow(
    vector3(contact.point), forceOnMovable(contact, isSupport).multiplyScalar(scale),
    COLOURS[contact.state] ?? COLOURS.open));
  return {objects: arrowObjects(arrows, CONTACT_ARROW_RADIUS * size), count: arrows.length,
          largest: Math.max(0, ...magnitudes), states: new Set(loaded.map((contact) => contact.state))};
}

/**
 * The bonds of mortar joints: a dot on every contact point that has one (its "bond" field),
 * coloured intact, damaged or broken. Contacts of dry joints have no bond and no dot.
 *
 * @returns {{objects: THREE.Object3D[], count: number, states: Set<string>}}
 */
export function bondLayer(result, size) {
  const bonded = result.contacts.filter((contact) => contact.bond);
  const objects = [];
  const matrix = new THREE.Matrix4();
  const rotation = new THREE.Quaternion();
  const scale = new THREE.Vector3(1, 1, 1).multiplyScalar(BOND_RADIUS * size);
  for (const state of ['intact', 'damaged', 'broken']) {
    const mine = bonded.filter((contact) => contact.bond === state);
    if (!mine.length) continue;
    const dots = new THREE.InstancedMesh(new THREE.SphereGeometry(1, 10, 6),
                                         new THREE.MeshLambertMaterial({color: COLOURS[state]}), mine.length);
    mine.forEach((contact, i) => dots.setMatrixAt(i, matrix.compose(vector3(contact.point), rotation, scale)));
    objects.push(dots);
  }
  return {objects, count: bonded.length, states: new Set(bonded.map((contact) => contact.bond))};
}

/**
 * Joint resultants (between two movable blocks) as arrows centred on the centre of pressure, and
 * support reactions (joints with a support) as the force on the structure, arrows out of the
 * support that end at the centre of pressure. Both share one scale so that they compare.
 *
 * @returns {{resultants, reactions}}  each {objects, count}; plus largest, the largest force in N
 */
export function interfaceLayers(result, isSupport, size) {
  const loaded = result.interfaces.filter((joint) => vector3(joint.force).length() > 0);
  const magnitudes = loaded.map((joint) => vector3(joint.force).length());
  const scale = arrowScale(magnitudes, LONGEST_JOINT_ARROW * size);
  const vector = (joint) => forceOnMovable(joint, isSupport).multiplyScalar(scale);
  const touchesSupport = (joint) => joint.blocks.some(isSupport);
  const resultants = loaded.filter((joint) => !touchesSupport(joint))
    .map((joint) => centredArrow(vector3(joint.centre), vector(joint), COLOURS.resultant));
  const reactions = loaded.filter(touchesSupport)
    .map((joint) => ({origin: vector3(joint.centre).sub(vector(joint)), vector: vector(joint), colour: COLOURS.reaction}));
  return {
    resultants: {objects: arrowObjects(resultants, ARROW_RADIUS * size), count: resultants.length},
    reactions: {objects: arrowObjects(reactions, ARROW_RADIUS * size), count: reactions.length},
    largest: Math.max(0, ...magnitudes),
    scale,
  };
}

/** Thrust lines as thick polylines, drawn on top of the blocks. @returns {{objects, count}} */
export function thrustLayer(result, size) {
  const lines = (result.thrust_lines || []).filter((line) => line.points.length >= 2);
  const objects = lines.flatMap((line) => polylineObjects(line.points.filter(Boolean).map(vector3),
                                                          THRUST_RADIUS * size, COLOURS.thrust));
  for (const object of objects) {
    object.material.depthTest = false;
    object.renderOrder = ON_TOP;
  }
  return {objects, count: lines.length};
}

/**
 * The collapse mechanism of a load factor result (its load_factor_report.mechanism): a ball at each hinge's pivot
 * and an arrow of each moving block's velocity from its centre, the fastest LONGEST_MECHANISM_ARROW of the size.
 *
 * @returns {{objects, hinges: number, arrows: number}}
 */
export function mechanismLayer(result, size) {
  const mechanism = result.load_factor_report?.mechanism;
  if (!mechanism) return {objects: [], hinges: 0, arrows: 0};
  const objects = [];
  const pivots = (mechanism.hinges || []).map((hinge) => vector3(hinge.pivot));
  if (pivots.length) {
    const balls = new THREE.InstancedMesh(new THREE.SphereGeometry(1, 14, 10),
                                          new THREE.MeshLambertMaterial({color: COLOURS.hinge, depthTest: false}),
                                          pivots.length);
    const matrix = new THREE.Matrix4();
    const scale = new THREE.Vector3(1, 1, 1).multiplyScalar(HINGE_RADIUS * size);
    pivots.forEach((pivot, i) => balls.setMatrixAt(i, matrix.compose(pivot, new THREE.Quaternion(), scale)));
    balls.renderOrder = ON_TOP + 1;
    objects.push(balls);
  }
  const centres = new Map(result.blocks.map((block) => [block.id, block.position]));
  const moving = (mechanism.blocks || []).filter((block) => vector3(block.velocity).length() > 0 && centres.has(block.id));
  const speeds = moving.map((block) => vector3(block.velocity).length());
  const scale = arrowScale(speeds, LONGEST_MECHANISM_ARROW * size);
  const arrows = moving.map((block) => ({origin: vector3(centres.get(block.id)),
                                         vector: vector3(block.velocity).multiplyScalar(scale),
                                         colour: COLOURS.mechanism}));
  objects.push(...arrowObjects(arrows, ARROW_RADIUS * size));
  return {objects, hinges: pivots.length, arrows: arrows.length};
}

/** A canvas texture of one letter, for the triad's labels. */
function letterSprite(letter, colour) {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const context = canvas.getContext('2d');
  context.fillStyle = colour;
  context.font = 'bold 44px sans-serif';
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.fillText(letter, 32, 34);
  const sprite = new THREE.Sprite(new THREE.SpriteMaterial({map: new THREE.CanvasTexture(canvas), depthTest: false}));
  sprite.scale.set(0.55, 0.55, 1);
  return sprite;
}

/** The axis triad: x red, y green, z blue, each with its letter, around the origin. */
function triadScene() {
  const scene = new THREE.Scene();
  for (const [axis, hex, css] of [[[1, 0, 0], 0xd62728, '#d62728'], [[0, 1, 0], 0x2ca02c, '#2ca02c'],
                                  [[0, 0, 1], 0x1f77b4, '#1f77b4']]) {
    const direction = new THREE.Vector3(...axis);
    const line = new THREE.Line(new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), direction]),
                                new THREE.LineBasicMaterial({color: hex, linewidth: 2}));
    const head = new THREE.Mesh(new THREE.ConeGeometry(0.09, 0.3, 12).translate(0, 0.85, 0),
                                new THREE.MeshBasicMaterial({color: hex}));
    head.quaternion.setFromUnitVectors(UP, direction);
    const label = letterSprite('xyz'[axis.indexOf(1)], css);
    label.position.copy(direction).multiplyScalar(1.3);
    scene.add(line, head, label);
  }
  return scene;
}

/**
 * The model's point loads as arrows that end at their point of application (at factor 1; a
 * load factor multiplies the live ones). @returns {{objects, count, largest}}  largest in N
 */
export function loadLayer(model, size) {
  const loads = (model.loads || []).filter((load) => load.kind === 'point' && vector3(load.force).length() > 0);
  const magnitudes = loads.map((load) => vector3(load.force).length());
  const scale = arrowScale(magnitudes, LONGEST_LOAD_ARROW * size);
  const arrows = loads.map((load) => {
    const vector = vector3(load.force).multiplyScalar(scale);
    return {origin: vector3(load.point).sub(vector), vector, colour: COLOURS.load};
  });
  return {objects: arrowObjects(arrows, ARROW_RADIUS * size), count: arrows.length, largest: Math.max(0, ...magnitudes)};
}
