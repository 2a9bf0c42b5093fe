// The Extrados viewer page: pick an example (or load a model file), run an analysis through the
// HTTP API, and draw the result — blocks, contact forces, joint resultants, thrust lines, support
// reactions, deformable blocks coloured by stress — with a timeline over the frames of a dynamic run.
//
// For tests and scripts the page exposes window.extrados (see `extrados` below) and mirrors its
// state in document.body.dataset.state: idle | running | done | error.
import * as THREE from 'three';
import {ApiError, analyse, exampleModel, listExamples, vtkExport} from '/static/api.js';
import {
  COLOURS, DISPLACEMENT_RAMP_CSS, VIEWS, View, blockObjects, bondLayer, contactLayer, displacementColour,
  interfaceLayers, loadLayer, mechanismLayer, quaternion, thrustLayer,
} from '/static/scene.js';
import {CLICK_SLOP_PIXELS, chainHighlight, pickAt, pickHighlight, pickRows} from '/static/pick.js';
import {STRESS_MEASURES, deformableObjects, measureRange, rampEnds} from '/static/deformable.js';
import {GroundMotionError, parseRecord, supportMotion} from '/static/ground_motion.js';
import {
  colouringLevel, filteredBlocks, levelColours, levelLegend, showEntityLevels, showFilterValues,
} from '/static/entity_panel.js';
import {resultOnBlocks} from '/static/entity.js';

const $ = (id) => document.getElementById(id);
const FILE_OPTION = '__file__';
// A block of an unstable static result is "moving" when its speed is above this fraction of the fastest.
const MOVING_FRACTION = 0.05;
// The "Colour blocks by" choices that are not entity levels.
const QUANTITY_COLOURINGS = ['state', 'displacement', 'p', 'q', 'shear', 'dilation'];
// Colourings by a value per block on the ramp: its legend label and how a value reads (seed 001: the block
// stress invariants of eq. 55, the cumulated strains of eq. 18-19 on the centroid cells).
const RAMP_COLOURINGS = {
  p: {label: 'block stress p', format: formatStress},
  q: {label: 'block stress q', format: formatStress},
  shear: {label: 'cumulated shear strain', format: formatStrain},
  dilation: {label: 'cumulated dilation', format: formatStrain},
};

/** Everything the page shows, in one place; `view` draws it. */
const app = {
  examples: [],
  file: null,          // {name, model} of a loaded model file, or null
  model: null,         // the model document shown
  result: null,        // the result document shown, or null
  blocks: new Map(),   // block id -> THREE.Group
  initialPoses: new Map(), // block id -> {position, orientation} at the first frame (or as analysed)
  frame: 0,            // index into result.frames
  playing: null,       // the timer of the playing timeline, or null
  cancelRequested: false,
  generation: 0,       // counts what replaces the drawing; a preview that comes back late is dropped
  view: null,
  pick: null,          // what the last click picked (pick.js), or null
  liveOffer: null,     // {model, analysis} of a load factor waiting for a live load (offerLiveLoad), or null
  recordText: null,    // the text of the accelerogram file chosen, or null
  chain: [],           // block ids of the thrust-line chain clicked, in order (analysis.thrust_line.chain)
  pickingChain: false, // clicks add blocks to the chain instead of reading numbers
  // the deformable blocks drawn (deformable.js): their ids, surface meshes, the stress measure they are coloured
  // by and its range over all elements (Pa; null without deformable blocks), the displacement magnification
  deformable: {ids: new Set(), surfaces: [], measure: 'von_mises', range: null, magnification: 1},
};

/** The test and scripting handle. */
const extrados = {
  state: 'idle',
  lastResult: null,
  lastError: null,
  progress: [],        // progress fractions (0-1) shown for the last job
  drawn: {blocks: 0, loads: 0, contacts: 0, resultants: 0, thrustLines: 0, reactions: 0, bonds: 0, hinges: 0,
          mechanismArrows: 0, deformable: 0},
  runExample,
  runModel,
  setFrame,
  picked: null,        // {kind: 'joint', blocks} or {kind: 'block', id} of the last click, or null
  chain: [],           // the thrust-line chain clicked so far (block ids)
  /** m of arrow per N of joint force, as the joint resultants are drawn now. */
  jointArrowScale() {
    return app.jointScale || 0;
  },
  /** Look from one of the views (3d, elevation, side, plan), as its button does. */
  setView(name) {
    showView(name);
  },
  /** {name, orthographic, direction} of the view now: direction is where the camera looks, a unit vector. */
  view() {
    const direction = app.view.camera.getWorldDirection(new THREE.Vector3());
    return {name: app.view.viewName, orthographic: Boolean(app.view.camera.isOrthographicCamera),
            direction: direction.toArray()};
  },
  /** Page coordinates (CSS pixels) where the world point [x, y, z] is drawn now. */
  screenOf(point) {
    const rect = app.view.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector3(...point).project(app.view.camera);
    return {x: rect.left + (ndc.x + 1) / 2 * rect.width, y: rect.top + (1 - ndc.y) / 2 * rect.height};
  },
  /** {id: {position: [x, y, z], quaternion: [w, x, y, z]}} of the blocks as drawn now. */
  blockPoses() {
    const poses = {};
    for (const [id, group] of app.blocks) {
      const q = group.quaternion;
      poses[id] = {position: group.position.toArray(), quaternion: [q.w, q.x, q.y, q.z]};
    }
    return poses;
  },
  /**
   * The deformable blocks as drawn now: {shown, measure, magnification, range: {low, high} Pa or null, blocks:
   * {id: {visible, triangles, corners}}, hiddenPolyhedra: ids of blocks whose polyhedron is drawn as edges only},
   * corners the world points [x, y, z] of the surface's triangles, three each in the order of the entry's
   * "boundary".
   */
  deformableDrawn() {
    const blocks = {};
    for (const group of app.view.layers.deformable.children) {
      const position = group.userData.mesh.geometry.getAttribute('position');
      const corners = [];
      for (let i = 0; i < position.count; i++) {
        corners.push(new THREE.Vector3().fromBufferAttribute(position, i).add(group.position).toArray());
      }
      blocks[group.userData.id] = {visible: group.visible, triangles: position.count / 3, corners};
    }
    const {measure, magnification, range} = app.deformable;
    const hiddenPolyhedra = [...app.blocks].filter(([, group]) => !group.userData.mesh.visible).map(([id]) => id);
    return {shown: deformableShown(), measure, magnification, range, blocks, hiddenPolyhedra};
  },
  /** {id: {colour: '#rrggbb', visible}} of the blocks as drawn now. */
  blockLooks() {
    const looks = {};
    for (const [id, group] of app.blocks) {
      looks[id] = {colour: `#${group.userData.mesh.material.color.getHexString()}`, visible: group.visible};
    }
    return looks;
  },
};
window.extrados = extrados;

function setState(state) {
  extrados.state = state;
  document.body.dataset.state = state;
  $('run').disabled = state === 'running';
  $('cancel').hidden = state !== 'running';
}

function setStatus(text) {
  $('status').textContent = text;
}

/** The result's warnings (engine.verdict_warnings: an unconverged verdict), one item each; hidden when none. */
function showWarnings(warnings = []) {
  const list = $('warnings');
  list.replaceChildren(...warnings.map((warning) => {
    const item = document.createElement('li');
    item.textContent = `Warning: ${warning.message}`;
    item.dataset.code = warning.code;
    return item;
  }));
  list.hidden = warnings.length === 0;
}

// --- errors ------------------------------------------------------------------

/** Show an error (an ApiError's message, field path and block) and enter the error state. */
function showError(error) {
  extrados.lastError = {message: error.message, path: error.path ?? null, block: error.block ?? null,
                        code: error.code ?? null};
  $('error-message').textContent = error.message;
  const where = [];
  if (error.path) where.push(`at ${error.path}`);
  if (error.block) where.push(`block '${error.block}'`);
  if (error.code) where.push(`(${error.code})`);
  $('error-where').textContent = where.join(' ');
  $('error').hidden = false;
  setStatus(error.code === 'cancelled' ? 'Cancelled.' : 'Stopped by an error:');
  setState('error');
}

function clearError() {
  extrados.lastError = null;
  $('error').hidden = true;
}

// --- the model form ----------------------------------------------------------

/** Inputs for an example's parameters, filled with their defaults (or the given values). */
function showParameters(example, values = {}) {
  const box = $('parameters');
  box.replaceChildren();
  $('example-help').textContent = example ? example.help : (app.file ? `Model file ${app.file.name}` : '');
  if (!example) return;
  for (const parameter of example.parameters) {
    const label = document.createElement('label');
    label.className = 'row';
    label.title = parameter.help;
    const name = document.createElement('span');
    name.textContent = parameter.name.replaceAll('_', ' ');
    if (parameter.unit) {
      const unit = document.createElement('span');
      unit.className = 'unit';
      unit.textContent = ` (${parameter.unit})`;
      name.append(unit);
    }
    const input = document.createElement('input');
    input.name = parameter.name;
    const value = values[parameter.name] ?? parameter.default;
    if (parameter.type === 'bool') {
      input.type = 'checkbox';
      input.checked = value === true || value === 'true';
    } else {
      input.type = 'number';
      input.step = parameter.type === 'int' ? '1' : 'any';
      input.value = value;
    }
    label.append(name, input);
    box.append(label);
  }
}

/** {name: value} of the parameter inputs, as text for the query string. */
function parameterValues() {
  const values = {};
  for (const input of $('parameters').querySelectorAll('input')) {
    values[input.name] = input.type === 'checkbox' ? String(input.checked) : input.value;
  }
  return values;
}

function selectedExample() {
  return app.examples.find((example) => example.name === $('example').value) || null;
}

/** Fill the example picker and select `wanted` (else arch, else the first). */
function fillExamples(examples, wanted) {
  app.examples = examples;
  const select = $('example');
  select.replaceChildren(...examples.map((example) => new Option(example.name, example.name)));
  const names = examples.map((example) => example.name);
  select.value = [wanted, 'arch', names[0]].find((name) => names.includes(name)) ?? '';
  showParameters(selectedExample());
}

/** Show the selected example's model, not analysed, after the picker or a parameter changed. */
async function previewExample() {
  const example = selectedExample();
  if (!example || extrados.state === 'running') return;
  const generation = ++app.generation;
  try {
    const model = await exampleModel(example.name, parameterValues());
    if (generation !== app.generation) return;
    clearError();
    showModel(model, null);
    setStatus(`${example.name}: ${model.blocks.length} blocks; press Run to analyse.`);
    setState('idle');
  } catch (error) {
    if (generation === app.generation) showError(error);
  }
}

/** Keep the loaded file selectable in the example list while it is the model to analyse. */
function selectFile(file) {
  app.file = file;
  const select = $('example');
  select.querySelector(`option[value="${FILE_OPTION}"]`)?.remove();
  if (file) {
    select.append(new Option(`file: ${file.name}`, FILE_OPTION));
    select.value = FILE_OPTION;
  }
  showParameters(null);
}

async function loadModelFile(file) {
  clearError();
  let model;
  try {
    model = JSON.parse(await file.text());
  } catch (error) {
    showError(new ApiError({message: `${file.name} is not JSON: ${error.message}`, path: file.name}));
    return;
  }
  app.generation++;
  selectFile({name: file.name, model});
  setStatus(`Loaded ${file.name}; press Run to analyse it.`);
  setState('idle');
  showModel(model, null);
}

// --- the analysis form -------------------------------------------------------

/** The analysis request of DESIGN sec. 5 from the form. */
function analysisRequest() {
  const type = $('analysis-type').value;
  const analysis = {type};
  const number = (id) => Number($(id).value);
  if (type === 'load_factor') analysis.max_factor = number('max-factor');
  if (app.chain.length >= 2 && type !== 'dynamic') analysis.thrust_line = {chain: [...app.chain]};
  if (type === 'dynamic') {
    analysis.duration = number('duration');
    analysis.output_interval = number('output-interval');
    if ($('time-step').value !== '') analysis.time_step = number('time-step');
  }
  return analysis;
}

/** Fill the analysis form from a request (a run started from a script shows what it ran). */
function showAnalysis(analysis) {
  $('analysis-type').value = analysis.type;
  const fields = {max_factor: 'max-factor', duration: 'duration', output_interval: 'output-interval', time_step: 'time-step'};
  for (const [key, id] of Object.entries(fields)) if (key in analysis) $(id).value = analysis[key];
  showAnalysisOptions();
}

function showAnalysisOptions() {
  const type = $('analysis-type').value;
  $('load-factor-options').hidden = type !== 'load_factor';
  $('dynamic-options').hidden = type !== 'dynamic';
  const motion = $('ground-motion').value;
  $('sine-options').hidden = motion !== 'sine';
  $('record-options').hidden = motion !== 'record';
  $('axis-row').hidden = motion === 'model';
}

/** The model with the ground motion of the form as its support_motion (dynamic runs; GroundMotionError). */
function withGroundMotion(model, analysis) {
  if (analysis.type !== 'dynamic' || $('ground-motion').value === 'model') return model;
  const gravity = Math.hypot(...(model.gravity || [0, 0, -9.81])) || 9.81;
  const kind = $('ground-motion').value;
  const record = kind === 'record' && app.recordText !== null
    ? parseRecord(app.recordText, $('record-in-g').checked, gravity) : null;
  const motion = supportMotion({kind, axis: $('motion-axis').value, peak: Number($('peak').value),
                                frequency: Number($('frequency').value), record}, gravity);
  return {...model, support_motion: motion};
}

// --- running -----------------------------------------------------------------

function showProgress(job) {
  const fraction = Number(job.progress) || 0;
  extrados.progress.push(fraction);
  setStatus(`Job ${job.id}: ${job.state} — ${Math.round(100 * fraction)} %`);
}

/**
 * Analyse a model document and show the result; resolves to the result document (or null when
 * the analysis failed — the error is then shown and kept in extrados.lastError).
 */
async function runModel(model, analysis) {
  app.generation++;
  clearError();
  stopPlaying();
  showAnalysis(analysis);
  $('live-offer').hidden = true;
  if (analysis.type === 'load_factor' && !hasLiveLoad(model)) return offerLiveLoad(model, analysis);
  setState('running');
  extrados.progress = [];
  app.cancelRequested = false;
  setStatus(`Running ${analysis.type.replace('_', ' ')} analysis…`);
  showWarnings();
  try {
    const result = await analyse(model, analysis,
      {onProgress: showProgress, shouldCancel: () => app.cancelRequested});
    extrados.lastResult = result;
    showModel(model, result);
    setStatus(resultStatus(result));
    showWarnings(result.warnings);
    setState('done');
    return result;
  } catch (error) {
    showError(error);
    return null;
  }
}

/**
 * Whether a model has a live load on a movable block, a nonzero one: what a load factor multiplies. A model too
 * malformed to tell counts as having one, so that the service says what is wrong with it.
 */
function hasLiveLoad(model) {
  if (!Array.isArray(model?.blocks) || !(model.loads === undefined || Array.isArray(model.loads))) return true;
  const movable = new Set(model.blocks.filter((block) => block && !block.support).map((block) => block.id));
  const nonzero = (vector) => Array.isArray(vector) && vector.some((value) => value !== 0);
  return (model.loads || []).some((load) => {
    if (!load?.live) return false;
    if (load.kind === 'point') return movable.has(load.block) && nonzero(load.force);
    const blocks = load.blocks === 'all' ? [...movable] : (Array.isArray(load.blocks) ? load.blocks : []);
    return blocks.some((id) => movable.has(id)) && nonzero(load.acceleration);
  });
}

/** A load factor of a model without live loads: instead of the service's refusal, offer to add one. */
function offerLiveLoad(model, analysis) {
  app.liveOffer = {model, analysis};
  $('live-offer').hidden = false;
  showModel(model, null);
  setStatus('This model has no live load for a load factor to multiply: add one below, or pick another analysis.');
  setState('idle');
  return null;
}

/** The offered model with a horizontal acceleration of 1 g along `axis` (0: x, 1: y) as its live load, analysed. */
function acceptLiveLoad(axis) {
  const {model, analysis} = app.liveOffer || {};
  if (!model) return null;
  const g = Math.hypot(...(model.gravity || [0, 0, -9.81])) || 9.81;
  const acceleration = [0, 0, 0];
  acceleration[axis] = g;
  const loaded = {...model, loads: [...(model.loads || []),
                                    {kind: 'body_acceleration', blocks: 'all', acceleration, live: true}]};
  if (app.file && app.file.model === model) app.file.model = loaded;
  app.liveOffer = null;
  return runModel(loaded, analysis);
}

/** Fetch an example with the given parameters and analyse it (the form follows). */
async function runExample(name, params = {}, analysis = {type: 'static'}, prepare = (model) => model) {
  app.generation++;
  clearError();
  const example = app.examples.find((entry) => entry.name === name);
  if (example) {
    selectFile(null);
    $('example').value = name;
    showParameters(example, params);
  }
  setState('running');
  setStatus(`Building example ${name}…`);
  let model;
  try {
    model = prepare(await exampleModel(name, params));
  } catch (error) {
    showError(error);
    return null;
  }
  return runModel(model, analysis);
}

function runFromForm() {
  const analysis = analysisRequest();
  try {
    withGroundMotion({blocks: []}, analysis);   // the form's mistakes before anything runs
  } catch (error) {
    return showFormError(error);
  }
  if ($('example').value === FILE_OPTION && app.file) return runModel(withGroundMotion(app.file.model, analysis), analysis);
  return runExample($('example').value, parameterValues(), analysis, (model) => withGroundMotion(model, analysis));
}

/** A mistake in the form (GroundMotionError) shown as the page shows the service's errors. */
function showFormError(error) {
  if (!(error instanceof GroundMotionError)) throw error;
  showError(new ApiError({message: error.message, path: error.field}));
  return null;
}

// --- what a result says --------------------------------------------------------

function solverText(solver) {
  if (!solver) return '';
  const verdict = solver.converged ? 'converged' : 'did not converge';
  return `solver ${solver.name} ${verdict} in ${solver.iterations} iterations, residual ${solver.residual.toExponential(1)}`;
}

function resultStatus(result) {
  const parts = [];
  if (result.analysis === 'load_factor') parts.push(`Load factor λ = ${formatNumber(result.load_factor)}`);
  else if (result.analysis === 'dynamic') {
    const t = result.frames.length ? result.frames[result.frames.length - 1].t : 0;
    const collapse = result.events?.collapse;
    const verdict = collapse === null || collapse === undefined ? `no collapse over ${t.toFixed(2)} s`
      : `collapsed at t = ${collapse.toFixed(3)} s`;
    parts.push(result.cancelled ? `Cancelled at t = ${t.toFixed(2)} s: ${verdict}` : capitalised(verdict));
  } else parts.push(result.stable ? 'Stable' : 'Not stable: the blocks move');
  parts.push(solverText(result.solver));
  return parts.filter(Boolean).join(' — ');
}

function capitalised(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function formatNumber(value, digits = 4) {
  return value === null || value === undefined ? '—' : Number(value).toPrecision(digits);
}

/** Newtons as N or kN. */
function formatForce(newtons) {
  return Math.abs(newtons) >= 1000 ? `${(newtons / 1000).toPrecision(3)} kN` : `${newtons.toPrecision(3)} N`;
}

/** Metres as mm below a metre, else m. */
function formatLength(metres) {
  return Math.abs(metres) < 1 ? `${(1000 * metres).toPrecision(3)} mm` : `${metres.toPrecision(4)} m`;
}

/** The formats the picked numbers are shown in (pick.js). */
const FORMAT = {force: formatForce, stress: formatStress, length: formatLength, number: formatNumber};

/** Pascals as Pa, kPa or MPa. */
function formatStress(pascals) {
  const size = Math.abs(pascals);
  if (size >= 1e6) return `${(pascals / 1e6).toPrecision(3)} MPa`;
  return size >= 1e3 ? `${(pascals / 1e3).toPrecision(3)} kPa` : `${pascals.toPrecision(3)} Pa`;
}

/** A strain (dimensionless) with three digits. */
function formatStrain(value) {
  return value === 0 ? '0' : value.toPrecision(3);
}

function showSummary(result) {
  const rows = [];
  if (result) {
    rows.push(['analysis', result.analysis]);
    rows.push(['stable', String(result.stable)]);
    if (result.load_factor !== null && result.load_factor !== undefined) rows.push(['load factor', formatNumber(result.load_factor)]);
    rows.push(['blocks', String(result.blocks.length)]);
    const states = {stick: 0, slip: 0, open: 0};
    for (const contact of result.contacts) states[contact.state] = (states[contact.state] || 0) + 1;
    rows.push(['contacts', `${result.contacts.length} (${states.stick} stick, ${states.slip} slip, ${states.open} open)`]);
    rows.push(['joints', String(result.interfaces.length)]);
    for (const reaction of result.reactions || []) {
      const [x, y, z] = reaction.force;
      rows.push([`reaction ${reaction.block}`, `${formatForce(Math.hypot(x, y, z))} (H ${formatForce(Math.hypot(x, y))}, V ${formatForce(z)})`]);
    }
    if (result.solver) rows.push(['solver', `${result.solver.name}, ${result.solver.iterations} it., ${result.solver.seconds.toFixed(2)} s`]);
    if (result.frames.length) rows.push(['frames', String(result.frames.length)]);
    if (result.deformable?.length) {
      const elements = result.deformable.reduce((sum, entry) => sum + entry.tetrahedra.length, 0);
      rows.push(['deformable blocks', `${result.deformable.length} (${elements} tetrahedra)`]);
    }
    for (const [key, label] of [['first_sliding', 'first sliding'], ['first_uplift', 'first uplift'], ['collapse', 'collapse']]) {
      const time = result.events?.[key];
      if (time !== null && time !== undefined) rows.push([label, `t = ${time.toFixed(3)} s`]);
    }
    if (result.events?.collapse_reason) rows.push(['collapse reason', result.events.collapse_reason]);
  }
  $('summary').replaceChildren(...rows.flatMap(([term, value]) => {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    return [dt, dd];
  }));
}

// --- drawing -------------------------------------------------------------------

/** Initial pose of each block: the first frame, else the result's blocks (static: as built). */
function initialPoses(result) {
  const poses = new Map();
  if (!result) return poses;
  const first = result.frames[0];
  result.blocks.forEach((block, i) => {
    poses.set(block.id, {
      position: new THREE.Vector3(...(first ? first.positions[i] : block.position)),
      orientation: quaternion(first ? first.orientations[i] : block.orientation),
    });
  });
  return poses;
}

/** Draw a model and (when not null) its result, framing the camera on the movable blocks. */
function showModel(model, result) {
  app.model = model;
  app.result = result;
  $('downloads').hidden = !result;
  const ids = new Set(Array.isArray(model.blocks) ? model.blocks.map((block) => block?.id) : []);
  if (app.chain.some((id) => !ids.has(id))) {   // another model: its chain is not this one's
    app.chain = [];
    showChain();
  }
  showPick(null);
  app.initialPoses = initialPoses(result);
  showEntityLevels(model, QUANTITY_COLOURINGS);
  if (result && !colouringLevel()) $('block-colouring').value = result.frames.length ? 'displacement' : 'state';
  let blocks;
  try {
    blocks = blockObjects(model, app.initialPoses);
  } catch {
    blocks = new Map(); // a malformed model: nothing to draw, the server will say what is wrong
  }
  app.blocks = blocks;
  app.view.setLayer('blocks', [...blocks.values()]);
  drawDeformable();
  const bounds = modelBounds(blocks);
  app.view.size = Math.max(bounds.getBoundingSphere(new THREE.Sphere()).radius, 1e-3);
  drawLoads(model);
  filterBlocks();
  showTimeline(result);
  app.view.frame(bounds.union(modelBounds(blocks))); // from the initial pose to the last frame
  showSummary(result);
  colourBlocks();
  showLegend();
  applyLayerToggles();
  extrados.drawn.blocks = blocks.size;
  app.view.render();
}

/** Show only the blocks the entity filter keeps, and the forces and thrust lines that act on them. */
function filterBlocks() {
  const kept = filteredBlocks(app.model);
  for (const [id, group] of app.blocks) group.visible = kept.has(id);
  for (const group of app.view.layers.deformable.children) group.visible = kept.has(group.userData.id);
  drawResultLayers(app.result && resultOnBlocks(app.result, kept));
}

// --- deformable blocks ------------------------------------------------------------------

/** The displacement magnification of the form; the last one drawn while the field is not a number >= 0. */
function magnificationOfForm() {
  const text = $('magnification').value;
  const value = Number(text);
  return text !== '' && Number.isFinite(value) && value >= 0 ? value : app.deformable.magnification;
}

/**
 * Draw the result's deformable blocks (its "deformable" fields, deformable.js) by their deformed surface, coloured
 * by the stress measure of the form over its range in all elements, the displacement magnified as the form says.
 */
function drawDeformable() {
  const entries = app.result?.deformable || [];
  const measure = $('stress-measure').value;
  const magnification = magnificationOfForm();
  const range = measureRange(entries, measure);
  const groups = range ? deformableObjects(entries, {measure, magnification, range}) : [];
  app.view.setLayer('deformable', groups);
  const kept = filteredBlocks(app.model);
  for (const group of groups) group.visible = kept.has(group.userData.id);
  app.deformable = {ids: new Set(entries.map((entry) => entry.block)), measure, range, magnification,
                    surfaces: groups.map((group) => group.userData.mesh)};
  $('deformable-options').hidden = groups.length === 0;
  extrados.drawn.deformable = groups.length;
}

/** Whether the deformable blocks are drawn by their surface now: blocks on, at the frame their fields are of (the
 *  last: a static result's only one, a dynamic run's end). Their polyhedra are then drawn as edges only. */
function deformableShown() {
  const frames = app.result?.frames || [];
  return app.deformable.surfaces.length > 0 && document.querySelector('input[data-layer="blocks"]').checked
    && (!frames.length || app.frame === frames.length - 1);
}

/** Redraw the deformable blocks after the measure or the magnification changed; a pick on one follows. */
function redrawDeformable() {
  drawDeformable();
  applyLayerToggles();
  showLegend();
  if (app.pick?.element) showPick(app.pick);
}

/** Bounds of the movable blocks (all blocks when every one is a support). */
function modelBounds(blocks) {
  const box = new THREE.Box3();
  const movable = [...blocks.values()].filter((group) => !group.userData.support);
  for (const group of movable.length ? movable : blocks.values()) box.expandByObject(group);
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
  return box;
}

function isSupportOf(model) {
  const supports = new Set(model.blocks.filter((block) => block.support).map((block) => block.id));
  return (id) => supports.has(id);
}

function drawLoads(model) {
  let loads = {objects: [], count: 0, largest: 0};
  try {
    loads = loadLayer(model, app.view.size);
  } catch {
    // a malformed load: nothing to draw, the server will say what is wrong
  }
  app.view.setLayer('loads', loads.objects);
  extrados.drawn.loads = loads.count;
  app.largestLoad = loads.largest;
}

function drawResultLayers(result) {
  const view = app.view;
  const empty = {objects: [], count: 0, largest: 0, states: new Set()};
  const contacts = result ? contactLayer(result, isSupportOf(app.model), view.size) : empty;
  const joints = result ? interfaceLayers(result, isSupportOf(app.model), view.size)
    : {resultants: empty, reactions: empty, largest: 0};
  const thrust = result ? thrustLayer(result, view.size) : empty;
  const bonds = result ? bondLayer(result, view.size) : empty;
  const mechanism = result ? mechanismLayer(result, view.size) : {objects: [], hinges: 0, arrows: 0};
  view.setLayer('mechanism', mechanism.objects);
  view.setLayer('contacts', contacts.objects);
  view.setLayer('bonds', bonds.objects);
  view.setLayer('resultants', joints.resultants.objects);
  view.setLayer('reactions', joints.reactions.objects);
  view.setLayer('thrustLines', thrust.objects);
  Object.assign(extrados.drawn, {contacts: contacts.count, resultants: joints.resultants.count,
                                 reactions: joints.reactions.count, thrustLines: thrust.count, bonds: bonds.count,
                                 hinges: mechanism.hinges, mechanismArrows: mechanism.arrows});
  app.largest = {contact: contacts.largest, joint: joints.largest};
  app.jointScale = joints.scale || 0;   // m of arrow per N of joint force
  app.drawnStates = contacts.states;
  app.bondStates = bonds.states;
}

/** The largest displacement of each block over the run, and of all blocks (m). */
function displacements(result) {
  let largest = 0;
  const first = result.frames[0];
  for (const frame of result.frames) {
    frame.positions.forEach((position, i) => {
      largest = Math.max(largest, new THREE.Vector3(...position).distanceTo(new THREE.Vector3(...first.positions[i])));
    });
  }
  return largest;
}

/**
 * {values: Map id -> number, low, high} of the movable blocks for a ramp colouring, or null when the result has
 * none: p and q (Pa) of every block; the cumulated shear and dilation of the strain cells (a dynamic run of an
 * in-plane wall only).
 */
function rampValues(result, mode) {
  const values = new Map();
  if (mode === 'p' || mode === 'q') {
    for (const block of result?.blocks || []) if (!block.support && block[mode] !== null) values.set(block.id, block[mode]);
  } else if (result?.strain) {
    result.strain.blocks.forEach((id, k) => values.set(id, result.strain[mode][k]));
  }
  if (!values.size) return null;
  const all = [...values.values()];
  return {values, low: Math.min(0, ...all), high: Math.max(0, ...all)};
}

/** Colour each block by its state, its displacement at the current frame, a value on the ramp, or its value of an entity level. */
function colourBlocks() {
  if (colouringLevel()) {
    const colours = levelColours(app.model).blocks;
    for (const [id, group] of app.blocks) group.userData.mesh.material.color.copy(colours.get(id));
    return;
  }
  const result = app.result;
  const mode = $('block-colouring').value;
  if (RAMP_COLOURINGS[mode]) {
    colourByRamp(rampValues(result, mode));
    return;
  }
  const byId = new Map((result?.blocks || []).map((block, i) => [block.id, i]));
  const speeds = (result?.blocks || []).map((block) => Math.hypot(...block.velocity));
  const fastest = Math.max(0, ...speeds);
  const sliding = new Set();
  for (const contact of result?.contacts || []) if (contact.state === 'slip') contact.blocks.forEach((id) => sliding.add(id));
  const frame = result?.frames[app.frame];
  const largest = result && result.frames.length ? displacements(result) : 0;
  app.largestDisplacement = largest;

  for (const [id, group] of app.blocks) {
    const material = group.userData.mesh.material;
    if (group.userData.support) {
      material.color.setHex(COLOURS.support);
      continue;
    }
    const i = byId.get(id);
    if (mode === 'displacement') {
      let moved = 0;
      if (frame && i !== undefined) {
        moved = new THREE.Vector3(...frame.positions[i]).distanceTo(app.initialPoses.get(id).position);
      }
      material.color.copy(displacementColour(largest > 0 ? moved / largest : 0));
    } else if (result && !result.stable && result.analysis !== 'dynamic' && i !== undefined
               && speeds[i] > MOVING_FRACTION * fastest && fastest > 0) {
      material.color.setHex(COLOURS.moving);
    } else if (sliding.has(id)) {
      material.color.setHex(COLOURS.sliding);
    } else {
      material.color.setHex(COLOURS.block);
    }
  }
}

/** Blocks with a value on the ramp from low to high; the others (supports, blocks without one) plain. */
function colourByRamp(ramp) {
  app.ramp = ramp;
  for (const [id, group] of app.blocks) {
    const material = group.userData.mesh.material;
    const value = ramp?.values.get(id);
    if (group.userData.support) material.color.setHex(COLOURS.support);
    else if (value === undefined) material.color.setHex(COLOURS.block);
    else material.color.copy(displacementColour(ramp.high > ramp.low ? (value - ramp.low) / (ramp.high - ramp.low) : 0));
  }
}

// --- the legend --------------------------------------------------------------------

function legendItem(kind, colour, text) {
  const item = document.createElement('div');
  item.className = 'item';
  const mark = document.createElement('span');
  mark.className = kind;
  mark.style.background = typeof colour === 'number' ? `#${colour.toString(16).padStart(6, '0')}` : colour;
  const label = document.createElement('span');
  label.textContent = text;
  item.append(mark, label);
  return item;
}

// The force scale bar's length is a round force (1, 2 or 5 times a power of ten) about this long (CSS pixels).
const SCALE_BAR_PIXELS = 100;

/** The force scale bar of the joint arrows: a bar and its force, kept to the camera by `updateScaleBar`. */
function scaleBarItem() {
  const item = document.createElement('div');
  item.className = 'item';
  item.id = 'scale-bar';
  const bar = document.createElement('span');
  bar.className = 'bar';
  const label = document.createElement('span');
  item.append(bar, label);
  return item;
}

/** Size the scale bar to the arrows as drawn now: a round force whose arrow would be about SCALE_BAR_PIXELS long. */
function updateScaleBar() {
  const item = $('scale-bar');
  if (!item || !app.jointScale) return;
  const pixelsPerNewton = app.jointScale * app.view.pixelsPerMetre();
  if (!(pixelsPerNewton > 0)) return;
  const raw = SCALE_BAR_PIXELS / pixelsPerNewton;
  const power = 10 ** Math.floor(Math.log10(raw));
  const force = [5, 2, 1].map((k) => k * power).find((value) => value <= raw) || power;
  const [bar, label] = item.children;
  bar.style.width = `${force * pixelsPerNewton}px`;
  bar.dataset.newtons = String(force);
  label.textContent = formatForce(force);
}

function legendNote(text) {
  const note = document.createElement('div');
  note.className = 'note';
  note.textContent = text;
  return note;
}

/** The legend of a ramp colouring: the ramp with its range and unit, or why there is none; for the strains
 * also the strain indicator (seed 001 eq. 59) at the end of the run. */
function rampLegend(mode) {
  const {label, format} = RAMP_COLOURINGS[mode];
  if (!app.ramp) {
    const why = mode === 'p' || mode === 'q' ? 'no result' : 'strains come with dynamic runs of in-plane walls';
    return [legendNote(`${label}: none (${why})`)];
  }
  const ramp = `linear-gradient(to right, ${DISPLACEMENT_RAMP_CSS.join(', ')})`;
  const items = [legendItem('ramp', ramp, `${label} ${format(app.ramp.low)} – ${format(app.ramp.high)}`)];
  if (mode === 'shear' || mode === 'dilation') {
    const indicator = app.result.strain.history.indicator;
    items.push(legendNote(`strain indicator κ = ${formatNumber(indicator[indicator.length - 1])}`));
  }
  return items;
}

/** The legend of the deformable blocks: the ramp with the measure's range in MPa (its pale end first), and the
 *  magnification. */
function deformableLegend() {
  const {measure, range, magnification} = app.deformable;
  const [pale, dark] = rampEnds(range, measure).map((pascals) => (pascals / 1e6).toPrecision(3));
  const ramp = `linear-gradient(to right, ${DISPLACEMENT_RAMP_CSS.join(', ')})`;
  const item = legendItem('ramp', ramp, `${STRESS_MEASURES[measure].label} ${pale} – ${dark} MPa`);
  item.id = 'deformable-legend';
  return [item, legendNote(`deformable blocks, displacement ×${magnification}`)];
}

function showLegend() {
  const items = [];
  const layerOn = (name) => document.querySelector(`input[data-layer="${name}"]`).checked;
  if (layerOn('blocks') && app.blocks.size) {
    if (colouringLevel()) {
      items.push(legendNote(`blocks by ${colouringLevel()}`));
      for (const [value, colour] of levelLegend(levelColours(app.model).values)) {
        items.push(legendItem('swatch', colour, value));
      }
    } else if ($('block-colouring').value === 'displacement') {
      const ramp = `linear-gradient(to right, ${DISPLACEMENT_RAMP_CSS.join(', ')})`;
      items.push(legendItem('ramp', ramp, `displacement 0 – ${(1000 * (app.largestDisplacement || 0)).toPrecision(3)} mm`));
    } else if (RAMP_COLOURINGS[$('block-colouring').value]) {
      items.push(...rampLegend($('block-colouring').value));
    } else {
      items.push(legendItem('swatch', COLOURS.block, 'block at rest'));
      if (app.result && !app.result.stable && app.result.analysis !== 'dynamic') items.push(legendItem('swatch', COLOURS.moving, 'block of the mechanism'));
      if (app.result?.contacts.some((contact) => contact.state === 'slip')) items.push(legendItem('swatch', COLOURS.sliding, 'block sliding'));
    }
    if (!colouringLevel()) items.push(legendItem('swatch', COLOURS.support, 'support'));
    if (deformableShown()) items.push(...deformableLegend());
  }
  if (layerOn('loads') && extrados.drawn.loads) {
    const factor = app.result?.load_factor;
    const scaled = factor === null || factor === undefined ? '' : ` (live ones ×${formatNumber(factor)})`;
    items.push(legendItem('arrow', COLOURS.load, `point load, largest ${formatForce(app.largestLoad)}${scaled}`));
  }
  if (app.result) {
    if (layerOn('contacts') && extrados.drawn.contacts) {
      for (const state of ['stick', 'slip', 'open']) {
        if (app.drawnStates.has(state)) items.push(legendItem('arrow', COLOURS[state], `contact force, ${state}`));
      }
      items.push(legendNote(`longest contact arrow ${formatForce(app.largest.contact)}`));
    }
    if (layerOn('resultants') && extrados.drawn.resultants) items.push(legendItem('arrow', COLOURS.resultant, 'joint resultant'));
    if (layerOn('reactions') && extrados.drawn.reactions) items.push(legendItem('arrow', COLOURS.reaction, 'support reaction'));
    if ((layerOn('resultants') && extrados.drawn.resultants) || (layerOn('reactions') && extrados.drawn.reactions)) {
      items.push(legendNote(`longest joint arrow ${formatForce(app.largest.joint)}`));
      items.push(scaleBarItem());
    }
    if (layerOn('thrustLines') && extrados.drawn.thrustLines) items.push(legendItem('arrow', COLOURS.thrust, 'thrust line'));
    if (layerOn('mechanism') && (extrados.drawn.hinges || extrados.drawn.mechanismArrows)) {
      const failing = app.result.load_factor_report?.mechanism?.factor;
      if (extrados.drawn.hinges) items.push(legendItem('swatch', COLOURS.hinge, 'hinge of the collapse mechanism'));
      if (extrados.drawn.mechanismArrows) items.push(legendItem('arrow', COLOURS.mechanism, 'block velocity in it'));
      if (failing !== undefined) items.push(legendNote(`mechanism at λ = ${formatNumber(failing)}, the first failing factor`));
    }
    if (layerOn('bonds') && extrados.drawn.bonds) {
      for (const state of ['intact', 'damaged', 'broken']) {
        if (app.bondStates.has(state)) items.push(legendItem('swatch', COLOURS[state], `mortar bond, ${state}`));
      }
    }
    if (app.result.frames.length && app.frame !== app.result.frames.length - 1) {
      items.push(legendNote(app.deformable.surfaces.length ? 'forces and deformed blocks are drawn at the last frame'
        : 'forces are drawn at the last frame'));
    }
  }
  $('legend').replaceChildren(...items);
  updateScaleBar();
}

// --- layers ---------------------------------------------------------------------------

/** Show the layers whose box is ticked; forces only at the last frame of a dynamic run. */
function applyLayerToggles() {
  const atForces = !app.result || !app.result.frames.length || app.frame === app.result.frames.length - 1;
  for (const input of document.querySelectorAll('input[data-layer]')) {
    const name = input.dataset.layer;
    app.view.layers[name].visible = input.checked && (name === 'blocks' || name === 'loads' || atForces);
  }
  const deformed = deformableShown();
  app.view.layers.deformable.visible = deformed;
  for (const id of app.deformable.ids) {
    const group = app.blocks.get(id);
    if (group) group.userData.mesh.visible = !deformed;
  }
  app.view.render();
}

/** Redraw after the entity filter changed: blocks, their forces, the layers' visibility and the legend. */
function showFiltered() {
  filterBlocks();
  applyLayerToggles();
  showLegend();
}

// --- the timeline ------------------------------------------------------------------------

function showTimeline(result) {
  const frames = result?.frames || [];
  $('timeline').hidden = frames.length === 0;
  const slider = $('frame');
  slider.max = String(Math.max(frames.length - 1, 0));
  app.frame = Math.max(frames.length - 1, 0);
  slider.value = String(app.frame);
  if (frames.length) setFrame(app.frame);
}

/** Put every block where frame `index` has it, and recolour. */
function setFrame(index) {
  const frames = app.result?.frames || [];
  if (!frames.length) return;
  app.frame = Math.min(Math.max(Math.round(index), 0), frames.length - 1);
  const frame = frames[app.frame];
  app.result.blocks.forEach((block, i) => {
    const group = app.blocks.get(block.id);
    if (!group) return;
    group.position.set(...frame.positions[i]);
    group.quaternion.copy(quaternion(frame.orientations[i]));
  });
  $('frame').value = String(app.frame);
  $('frame-label').textContent = `t = ${frame.t.toFixed(3)} s  (${app.frame + 1}/${frames.length})`;
  colourBlocks();
  applyLayerToggles();
  showLegend();
}

function stopPlaying() {
  if (app.playing) clearInterval(app.playing);
  app.playing = null;
  $('play').textContent = '▶';
}

/** Play the frames at their own pace (at most 30 a second), from the start when at the end. */
function togglePlaying() {
  if (app.playing) return stopPlaying();
  const frames = app.result?.frames || [];
  if (frames.length < 2) return;
  if (app.frame >= frames.length - 1) setFrame(0);
  const interval = Math.max(1000 * (frames[1].t - frames[0].t), 1000 / 30);
  $('play').textContent = '❚❚';
  app.playing = setInterval(() => {
    if (app.frame >= frames.length - 1) return stopPlaying();
    setFrame(app.frame + 1);
  }, interval);
}

// --- downloads ------------------------------------------------------------------------------

/** Save `text` (or a Blob) as a file called `name` (the browser's download). */
function download(name, text, type) {
  const url = URL.createObjectURL(text instanceof Blob ? text : new Blob([text], {type}));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const CSV_COLUMNS = ['block_a', 'block_b', 'centre_x_m', 'centre_y_m', 'centre_z_m', 'normal_force_N', 'shear_force_N',
                     'eccentricity_m', 'in_kernel', 'shear_utilisation', 'bond'];

/** One row per joint of a result: its blocks, centre of pressure, forces, eccentricity, kernel, utilisation, bond. */
function jointsCsv(result) {
  const cell = (value) => {
    if (value === null || value === undefined) return '';
    const text = String(value);
    return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const rows = (result.interfaces || []).map((joint) => [
    joint.blocks[0], joint.blocks[1], ...(joint.centre || [null, null, null]), joint.normal_force, joint.shear_force,
    joint.eccentricity, joint.in_kernel, joint.shear_utilisation, joint.bond].map(cell).join(','));
  return [CSV_COLUMNS.join(','), ...rows].join('\n') + '\n';
}

// --- views and picking ---------------------------------------------------------------------

/** Look from one of VIEWS and mark its button. */
function showView(name) {
  app.view.setView(name);
  for (const button of document.querySelectorAll('button[data-view]')) {
    button.setAttribute('aria-pressed', String(button.dataset.view === name));
  }
}

/** Show what a click picked (pick.js): its numbers in the panel, its outline on the drawing. */
function showPick(pick) {
  app.pick = pick;
  extrados.picked = pick && (pick.kind === 'joint' ? {kind: 'joint', blocks: pick.joint.blocks}
    : {kind: 'block', id: pick.id, ...(pick.element ? {element: pick.element.index} : {})});
  app.view.setLayer('pick', app.pickingChain ? chainHighlight(app.chain, app.blocks)
    : pickHighlight(pick, app.blocks, undefined, app.deformable.magnification));
  $('pick-panel').hidden = !pick;
  const rows = pick ? pickRows(pick, app.result, app.model, FORMAT) : [];
  $('pick').replaceChildren(...rows.flatMap(([label, text, key, value]) => {
    const term = document.createElement('dt');
    term.textContent = label;
    const detail = document.createElement('dd');
    detail.textContent = text;
    detail.dataset.key = key;
    detail.dataset.value = String(value);
    return [term, detail];
  }));
  app.view.render();
}

/** A click (a press and release that did not orbit) on the drawing picks a block or a joint. */
function wirePicking() {
  const canvas = app.view.renderer.domElement;
  let pressed = null;
  canvas.addEventListener('pointerdown', (event) => { pressed = [event.clientX, event.clientY]; });
  canvas.addEventListener('pointerup', (event) => {
    if (!pressed || !app.model) return;
    const moved = Math.hypot(event.clientX - pressed[0], event.clientY - pressed[1]);
    pressed = null;
    if (moved > CLICK_SLOP_PIXELS) return;
    const pick = pickAt(app.view, app.blocks, app.result, event.clientX, event.clientY,
                        deformableShown() ? app.deformable.surfaces : []);
    if (app.pickingChain) addToChain(pick);
    else showPick(pick);
  });
}

/** A block clicked while picking a chain: appended, or taken off when it is the last one again. */
function addToChain(pick) {
  if (!pick) return;
  if (app.chain[app.chain.length - 1] === pick.id) app.chain.pop();
  else if (!app.chain.includes(pick.id)) app.chain.push(pick.id);
  showChain();
}

/** The chain's blocks outlined and listed; Run then asks for its thrust line (analysis.thrust_line). */
function showChain() {
  extrados.chain = [...app.chain];
  app.view.setLayer('pick', app.pickingChain ? chainHighlight(app.chain, app.blocks)
    : pickHighlight(app.pick, app.blocks, undefined, app.deformable.magnification));
  $('chain-pick').setAttribute('aria-pressed', String(app.pickingChain));
  $('chain-pick').textContent = app.pickingChain ? 'Done picking' : 'Pick a thrust-line chain';
  $('chain-clear').hidden = app.chain.length === 0;
  $('chain').hidden = app.chain.length === 0 && !app.pickingChain;
  $('chain').textContent = app.chain.length
    ? `Chain: ${app.chain.join(' → ')}${app.chain.length < 2 ? ' (click at least two blocks)' : '; Run draws its thrust line'}`
    : 'Click the blocks of the chain in order, from springing to springing.';
  app.view.render();
}

function wireChain() {
  $('chain-pick').addEventListener('click', () => {
    app.pickingChain = !app.pickingChain;
    if (app.pickingChain) showPick(null);
    showChain();
  });
  $('chain-clear').addEventListener('click', () => {
    app.chain = [];
    showChain();
  });
}

function wireViews() {
  const buttons = Object.entries(VIEWS).map(([name, view]) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.view = name;
    button.textContent = view.label;
    button.setAttribute('aria-pressed', String(name === app.view.viewName));
    button.addEventListener('click', () => showView(name));
    return button;
  });
  const fit = document.createElement('button');
  fit.type = 'button';
  fit.id = 'fit';
  fit.textContent = 'Fit';
  fit.addEventListener('click', () => app.view.fit());
  $('views').replaceChildren(...buttons, fit);
}

// --- start -----------------------------------------------------------------------------------

function wireControls() {
  $('example').addEventListener('change', () => {
    if ($('example').value === FILE_OPTION) return;
    selectFile(null);
    showParameters(selectedExample());
    previewExample();
  });
  $('parameters').addEventListener('change', previewExample);
  $('model-file').addEventListener('change', (event) => {
    const [file] = event.target.files;
    if (file) loadModelFile(file);
  });
  $('analysis-type').addEventListener('change', showAnalysisOptions);
  $('run').addEventListener('click', runFromForm);
  $('cancel').addEventListener('click', () => { app.cancelRequested = true; });
  for (const input of document.querySelectorAll('input[data-layer]')) {
    input.addEventListener('change', () => { applyLayerToggles(); showLegend(); });
  }
  $('block-colouring').addEventListener('change', () => { colourBlocks(); showLegend(); app.view.render(); });
  $('stress-measure').addEventListener('change', redrawDeformable);
  $('magnification').addEventListener('input', redrawDeformable);
  $('filter-level').addEventListener('change', () => { showFilterValues(app.model); showFiltered(); });
  $('filter-values').addEventListener('change', showFiltered);
  $('frame').addEventListener('input', () => { stopPlaying(); setFrame(Number($('frame').value)); });
  $('play').addEventListener('click', togglePlaying);
  $('ground-motion').addEventListener('change', showAnalysisOptions);
  $('record-file').addEventListener('change', async (event) => {
    const [file] = event.target.files;
    app.recordText = file ? await file.text() : null;
  });
  $('download-json').addEventListener('click', () => download(`extrados-${app.result.analysis}-result.json`,
                                                               JSON.stringify(app.result), 'application/json'));
  $('download-csv').addEventListener('click', () => download(`extrados-${app.result.analysis}-joints.csv`,
                                                              jointsCsv(app.result), 'text/csv'));
  $('download-vtk').addEventListener('click', async () => {
    clearError();
    try {
      download(`extrados-${app.result.analysis}-vtk.zip`, await vtkExport(app.model, app.result), 'application/zip');
    } catch (error) {
      showError(error);
    }
  });
  $('live-x').addEventListener('click', () => acceptLiveLoad(0));
  $('live-y').addEventListener('click', () => acceptLiveLoad(1));
}

/** Build the page; ?example=NAME opens with that example shown (as `extrados serve --example` prints). */
async function start() {
  app.view = new View($('viewport'));
  app.view.onChange = updateScaleBar;
  wireControls();
  wireViews();
  wirePicking();
  wireChain();
  showAnalysisOptions();
  setState('idle');
  const query = new URLSearchParams(window.location.search);
  try {
    fillExamples(await listExamples(), query.get('example'));
  } catch (error) {
    showError(error);
    return;
  }
  // ?run=static (or load_factor, dynamic) analyses the example at once, as `make run` opens it
  const analysisType = query.get('run');
  if (analysisType && [...$('analysis-type').options].some((option) => option.value === analysisType)) {
    $('analysis-type').value = analysisType;
    showAnalysisOptions();
    runFromForm();
  } else {
    previewExample();
  }
}

start();
