// Ground motion for a dynamic run, chosen in the viewer: a sine of the supports from rest, or an accelerogram read
// from a text file. Either becomes the model document's support_motion (engine/io/model_schema.json) for the run;
// "the model's own" leaves the document as it is.

const AXES = {x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1]};
// A record's samples must be evenly spaced to this fraction of its step.
const EVEN_SPACING = 1e-6;

/** A user's mistake in the ground motion fields, with the field it concerns. */
export class GroundMotionError extends Error {
  constructor(message, field) {
    super(message);
    this.field = field;
  }
}

/**
 * The samples of an accelerogram file: two columns per line, time (s) and acceleration (m/s², or g when
 * `inG`), separated by spaces, tabs, commas or semicolons; blank lines and lines starting with # are skipped,
 * and a first line that is not numbers is taken as a header.
 *
 * @returns {{dt: number, values: number[]}}  the time step (s) and the accelerations (m/s²)
 */
export function parseRecord(text, inG, gravity) {
  const rows = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) return;
    const fields = trimmed.split(/[\s,;]+/);
    const numbers = fields.map(Number);
    if (numbers.length < 2 || numbers.slice(0, 2).some((value) => !Number.isFinite(value))) {
      if (rows.length === 0 && index === lines.findIndex((l) => l.trim() && !l.trim().startsWith('#'))) return;
      throw new GroundMotionError(`line ${index + 1} of the record is not two numbers (time, acceleration): `
                                  + `"${trimmed.slice(0, 40)}"`, 'record');
    }
    rows.push(numbers.slice(0, 2));
  });
  if (rows.length < 2) throw new GroundMotionError('the record needs at least two samples', 'record');
  const dt = rows[1][0] - rows[0][0];
  if (!(dt > 0)) throw new GroundMotionError('the record\'s times must increase', 'record');
  rows.forEach(([t], i) => {
    if (Math.abs(t - rows[0][0] - i * dt) > EVEN_SPACING * dt * Math.max(i, 1)) {
      throw new GroundMotionError(`the record's samples must be evenly spaced: sample ${i + 1} is at ${t} s, `
                                  + `not ${rows[0][0] + i * dt} s`, 'record');
    }
  });
  const scale = inG ? gravity : 1;
  return {dt, values: rows.map(([, a]) => a * scale)};
}

/**
 * The support_motion of the fields: null for the model's own, a sine from rest, or a record.
 *
 * @param {object} fields  {kind: 'model' | 'sine' | 'record', axis: 'x' | 'y' | 'z', peak (g), frequency (Hz),
 *   record: {dt, values} or null}
 */
export function supportMotion(fields, gravity) {
  const direction = AXES[fields.axis];
  if (fields.kind === 'sine') {
    if (!(fields.frequency > 0)) throw new GroundMotionError('the frequency must be positive (Hz)', 'frequency');
    if (!Number.isFinite(fields.peak)) throw new GroundMotionError('the peak acceleration must be a number (g)', 'peak');
    return {kind: 'sine', direction, frequency: fields.frequency, peak_acceleration: fields.peak * gravity,
            start: 'from_rest'};
  }
  if (fields.kind === 'record') {
    if (!fields.record) throw new GroundMotionError('choose an accelerogram file', 'record');
    return {kind: 'record', dt: fields.record.dt,
            accelerations: fields.record.values.map((a) => direction.map((component) => a * component))};
  }
  return null;
}
