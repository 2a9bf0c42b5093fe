// The HTTP API of DESIGN sec. 6 as seen from the page: examples, analyses and jobs.
//
// Every request carries the bearer token when the page was opened with ?token=...; errors come
// back as ApiError holding the server's error object {message, path, block, code}.

const TOKEN_KEY = 'extrados.token';
const POLL_INTERVAL_MS = 200;

/** An error answered by the server (4xx/5xx with {"error": {...}}) or met while talking to it. */
export class ApiError extends Error {
  constructor({message, path = null, block = null, code = null}, status = null) {
    super(message);
    this.name = 'ApiError';
    this.path = path;
    this.block = block;
    this.code = code;
    this.status = status;
  }
}

/** The token from ?token=... (kept in sessionStorage and taken off the address bar), or null. */
function authToken() {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url);
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

async function request(method, path, body = undefined) {
  const headers = {Accept: 'application/json'};
  const token = authToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data && data.error ? data.error : {message: `${method} ${path}: HTTP ${response.status} ${text.slice(0, 200)}`};
    throw new ApiError(typeof error === 'string' ? {message: error} : error, response.status);
  }
  if (data === null) throw new ApiError({message: `${method} ${path}: the answer is not JSON`}, response.status);
  return {status: response.status, data};
}

/** The VTK files of a model and its result, zipped (POST /v1/exports/vtk): resolves to a Blob. */
export async function vtkExport(model, result) {
  const headers = {Accept: 'application/zip, application/json', 'Content-Type': 'application/json'};
  const token = authToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch('/v1/exports/vtk', {method: 'POST', headers, body: JSON.stringify({model, result})});
  if (!response.ok) {
    let error = {message: `POST /v1/exports/vtk: HTTP ${response.status}`};
    try {
      error = (await response.json()).error || error;
    } catch {
      // not JSON: keep the status line
    }
    throw new ApiError(error, response.status);
  }
  return response.blob();
}

/** The list of examples: [{name, help, parameters: [{name, type, default, unit, help, range}]}]. */
export async function listExamples() {
  return (await request('GET', '/v1/examples')).data.examples;
}

/** The model document of an example with the given {parameter: value} (text or numbers). */
export async function exampleModel(name, params = {}) {
  const query = new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)]));
  const suffix = query.toString() ? `?${query}` : '';
  return (await request('GET', `/v1/examples/${encodeURIComponent(name)}${suffix}`)).data;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Analyse a model; resolves to the result document.
 *
 * Static and load-factor analyses answer at once (200). Dynamic and construction ones answer 202
 * with a job, which is polled until it ends: onProgress(job) is called after each poll, and
 * shouldCancel() is checked before each; true sends DELETE once, and the job's partial result is
 * returned when it kept one (result.cancelled is then true), else an ApiError of code "cancelled"
 * is thrown.
 */
export async function analyse(model, analysis, {onProgress = () => {}, shouldCancel = () => false} = {}) {
  const {status, data} = await request('POST', '/v1/analyses', {model, analysis});
  if (status !== 202) return data;
  const jobUrl = data.url || `/v1/jobs/${data.id}`;
  let cancelSent = false;
  for (;;) {
    if (!cancelSent && shouldCancel()) {
      await request('DELETE', jobUrl).catch(() => {}); // it may have finished meanwhile
      cancelSent = true;
    }
    const job = (await request('GET', jobUrl)).data;
    onProgress(job);
    const resultUrl = job.result_url || `${jobUrl}/result`;
    if (job.state === 'done') return (await request('GET', resultUrl)).data;
    if (job.state === 'failed') throw jobError(job, 'the job failed');
    if (job.state === 'cancelled') {
      if (job.result_url) return (await request('GET', resultUrl)).data;
      throw jobError(job, 'the job was cancelled', 'cancelled');
    }
    await sleep(POLL_INTERVAL_MS);
  }
}

/** The ApiError of a job that ended without a result. */
function jobError(job, fallback, code = null) {
  const error = job.error || {message: fallback};
  return new ApiError(typeof error === 'string' ? {message: error, code} : {code, ...error});
}
