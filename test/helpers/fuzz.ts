import http from 'node:http';
import fc from 'fast-check';
import { encodeWav } from '../../src/platform/audio/wav.js';

/**
 * Malformed and edge-case requests for every operation of the served OpenAPI document, made with
 * fast-check: the schema says what each operation takes, and each generated request breaks it in
 * some way (or happens to keep it). Shared by the fuzz test (a fixed seed, a CI-sized count) and
 * `npm run fuzz` (as many runs as asked).
 */

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  $ref?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
};

interface Parameter {
  in: string;
  name: string;
  schema?: Schema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface FuzzRequest {
  method: string;
  /** The path with its parameters filled in, and the query string. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FuzzTarget {
  method: string;
  route: string;
  requests: fc.Arbitrary<FuzzRequest>;
  /** Sent to every operation whatever the sample: bodies nested at, just past and far past the depth limit. */
  nested: FuzzRequest[];
}

/** Ids that exist on the server under test, so some requests reach deeper than a 404. */
export interface KnownIds {
  ids: string[];
}

const NASTY_STRINGS = [
  '',
  ' ',
  'Infinity',
  '-Infinity',
  'NaN',
  '1e999',
  '-1e999',
  '99999999999999999999',
  '-1',
  '0',
  '0x10',
  'true',
  'null',
  '[]',
  '{}',
  '\u0000',
  'a\u0000b',
  '\u202e\u0085\u001b[31m',
  '😀'.repeat(50),
  '../../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%00',
  '%',
  '<script>',
  "' OR 1=1 --",
  'é'.repeat(300),
  'x'.repeat(5001),
  'http://127.0.0.1:1/',
  'file:///etc/passwd',
];
const NASTY_NUMBERS = [-1, 0, 0.5, -0.000001, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e308, Number.MAX_SAFE_INTEGER];

const nastyScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...NASTY_STRINGS, ...NASTY_NUMBERS, null, true, false),
  fc.string({ maxLength: 40 }),
);
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyScalar },
  { weight: 1, arbitrary: fc.constantFrom<unknown>([], {}, [[[]]], { __proto__: { polluted: true } }, { constructor: { prototype: {} } }) },
  { weight: 1, arbitrary: fc.array(nastyScalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), nastyScalar, { maxKeys: 3 }) },
);

function resolve(schema: Schema | undefined, document: OpenApiDocument): Schema {
  if (!schema) return {};
  if (schema.$ref) return resolve(document.components?.schemas?.[schema.$ref.split('/').at(-1)!], document);
  return schema;
}

/** A value that fits the schema more or less (short strings, small numbers), so other fields get looked at too. */
function plausible(schema: Schema | undefined, document: OpenApiDocument, known: KnownIds, depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolve(schema, document);
  const choices = resolved.anyOf ?? resolved.oneOf;
  if (choices && choices.length > 0) return fc.oneof(...choices.map((choice) => plausible(choice, document, known, depth + 1)));
  if (resolved.enum && resolved.enum.length > 0) return fc.constantFrom(...resolved.enum);
  const type = Array.isArray(resolved.type) ? resolved.type[0] : resolved.type;
  // A range of at most 2000 from the minimum (or around 0): near the edges that matter.
  const low = Math.max(resolved.minimum ?? -1000, -(2 ** 31));
  const high = Math.min(resolved.maximum ?? low + 2000, low + 2000, 2 ** 31 - 1);
  switch (type) {
    case 'integer':
      return fc.integer({ min: Math.ceil(low), max: Math.floor(high) });
    case 'number':
      return fc.double({ min: low, max: high, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(plausible(resolved.items, document, known, depth + 1), { maxLength: 3 });
    case 'object':
      return depth > 3 ? fc.constant({}) : objectOf(resolved, document, known, depth + 1);
    case 'string':
      return fc.oneof(
        fc.constantFrom(...known.ids),
        fc.string({ minLength: 1, maxLength: Math.min(60, resolved.maxLength ?? 60) }),
        fc.constantFrom('en-US', 'pico:en-US', 'wav', 'mp3'),
      );
    default:
      return nastyValue;
  }
}

/** An object of the schema's properties, each omitted, plausible or nasty, sometimes with an unknown field. */
function objectOf(schema: Schema, document: OpenApiDocument, known: KnownIds, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.entries(schema.properties ?? {}).map(([name, property]) =>
    fc.oneof(fc.constant(undefined), plausible(property, document, known, depth), nastyValue).map((value) => [name, value] as const),
  );
  return fc.tuple(fc.tuple(...fields), fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), nastyValue), { freq: 4 })).map(([values, extra]) => {
    const body: Record<string, unknown> = {};
    for (const [name, value] of values) if (value !== undefined) body[name] = value;
    if (extra) body[extra[0]] = extra[1];
    return body;
  });
}

function pathValue(known: KnownIds): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...known.ids).map(encodeURIComponent),
    fc.constantFrom(...NASTY_STRINGS.filter(Boolean)).map(encodeURIComponent),
    fc.constantFrom('..', '%2e%2e%2f%2e%2e', '%2F', '%E0%A4%A', 'a%00b', 'x'.repeat(600), '%ZZ'),
    fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
  );
}

function queryString(parameters: Parameter[], document: OpenApiDocument, known: KnownIds): fc.Arbitrary<string> {
  const declared = parameters.filter((parameter) => parameter.in === 'query' && parameter.name !== 'api_key');
  const values = declared.map((parameter) =>
    fc
      .oneof(fc.constant(undefined), plausible(parameter.schema, document, known), nastyScalar)
      .map((value) => (value === undefined ? '' : `${encodeURIComponent(parameter.name)}=${encodeURIComponent(String(value))}`)),
  );
  return fc
    .tuple(fc.tuple(...values), fc.option(fc.constantFrom('unknown=1', 'limit=1e999&limit=2', '%ZZ=1', 'a[b]=c', 'offset=-1'), { freq: 3 }))
    .map(([pairs, extra]) => {
      const query = [...pairs, extra ?? ''].filter(Boolean).join('&');
      return query ? `?${query}` : '';
    });
}

/** multipart/form-data with the given text fields and file parts, or a broken variant of it. */
function multipart(fields: Record<string, unknown>, files: Buffer[], breakage: string): { body: Buffer; contentType: string } {
  const boundary = 'fuzzBoundary7MA4YWxk';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${text}\r\n`));
  }
  for (const file of files)
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.wav"\r\nContent-Type: audio/wav\r\n\r\n`),
      file,
      Buffer.from('\r\n'),
    );
  const whole = Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
  switch (breakage) {
    case 'truncated':
      return { body: whole.subarray(0, Math.floor(whole.length / 2)), contentType: `multipart/form-data; boundary=${boundary}` };
    case 'no boundary':
      return { body: whole, contentType: 'multipart/form-data' };
    case 'wrong boundary':
      return { body: whole, contentType: 'multipart/form-data; boundary=other' };
    case 'nameless part':
      return {
        body: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${boundary}--\r\n`),
        contentType: `multipart/form-data; boundary=${boundary}`,
      };
    default:
      return { body: whole, contentType: `multipart/form-data; boundary=${boundary}` };
  }
}

function bodies(operation: Operation, document: OpenApiDocument, known: KnownIds): fc.Arbitrary<{ body?: Buffer; contentType?: string }> {
  const content = operation.requestBody?.content ?? {};
  const jsonSchema = resolve(content['application/json']?.schema, document);
  const multipartSchema = content['multipart/form-data']?.schema;
  const json = (jsonSchema.properties ? objectOf(jsonSchema, document, known, 0) : nastyValue).map((value) => ({
    body: Buffer.from(JSON.stringify(value) ?? 'null'),
    contentType: 'application/json',
  }));
  const broken = fc.constantFrom(
    { body: Buffer.from(nestedJson(5000, 'array')), contentType: 'application/json' },
    { body: Buffer.from(nestedJson(5000, 'object')), contentType: 'application/json' },
    { body: Buffer.from('{"a":'), contentType: 'application/json' },
    { body: Buffer.from(''), contentType: 'application/json' },
    { body: Buffer.from('[1,2,3]'), contentType: 'application/json' },
    { body: Buffer.from('"text"'), contentType: 'application/json' },
    { body: Buffer.from('{"a":1}'), contentType: 'text/plain' },
    { body: Buffer.from('<a/>'), contentType: 'application/xml' },
    { body: Buffer.from('PK\u0003\u0004garbage'), contentType: 'application/zip' },
    {},
  );
  const form = fc
    .tuple(
      multipartSchema
        ? objectOf(resolve(multipartSchema, document), document, known, 0)
        : fc.dictionary(fc.string({ maxLength: 8 }), nastyScalar, { maxKeys: 3 }),
      fc.array(
        fc.uint8Array({ maxLength: 256 }).map((bytes) => Buffer.from(bytes)),
        { maxLength: 2 },
      ),
      fc.constantFrom('none', 'truncated', 'no boundary', 'wrong boundary', 'nameless part'),
    )
    .map(([fields, files, breakage]) => multipart(fields, files, breakage));
  return fc.oneof({ weight: 4, arbitrary: json }, { weight: 2, arbitrary: broken }, { weight: 2, arbitrary: form });
}

/** Depths around the default limit (TIMBRE_MAX_JSON_DEPTH, 64) and far past it (5000 overflowed the number guard's recursion). */
const NESTED_DEPTHS = [64, 65, 5000];

/** JSON text nested `depth` levels deep: arrays in arrays, or objects of one field. */
export function nestedJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/**
 * Nested bodies for one operation: the whole body nested, each declared field nested (as JSON and
 * as form fields), at every depth of NESTED_DEPTHS, then 100,000 levels of arrays (within the body
 * limit, so the whole body is sent before the answer).
 */
function nestedBodies(operation: Operation, document: OpenApiDocument): { body: Buffer; contentType: string }[] {
  const content = operation.requestBody?.content ?? {};
  const fields = [
    ...Object.keys(resolve(content['application/json']?.schema, document).properties ?? {}),
    ...Object.keys(resolve(content['multipart/form-data']?.schema, document).properties ?? {}),
  ];
  const names = fields.length > 0 ? [...new Set(fields)] : ['a'];
  return NESTED_DEPTHS.flatMap((depth) => {
    const deep = nestedJson(depth, 'array');
    const json = (text: string) => ({ body: Buffer.from(text), contentType: 'application/json' });
    const eachField = `{${names.map((name) => `${JSON.stringify(name)}:${deep}`).join(',')}}`;
    return [json(deep), json(nestedJson(depth, 'object')), json(eachField), multipart(Object.fromEntries(names.map((name) => [name, deep])), [], 'none')];
  }).concat({ body: Buffer.from(nestedJson(100_000, 'array')), contentType: 'application/json' });
}

/** Every operation of the document with a generator of requests for it. */
export function fuzzTargets(document: OpenApiDocument, known: KnownIds): FuzzTarget[] {
  const targets: FuzzTarget[] = [];
  for (const [route, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const parameters = operation.parameters ?? [];
      const pathNames = [...route.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
      const requests = fc
        .tuple(fc.tuple(...pathNames.map(() => pathValue(known))), queryString(parameters, document, known), bodies(operation, document, known))
        .map(([values, query, { body, contentType }]) => {
          let path = route;
          pathNames.forEach((name, index) => (path = path.replace(`{${name}}`, values[index]!)));
          const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
          return { method: method.toUpperCase(), path: `${path}${query}`, headers, ...(method === 'get' || method === 'delete' ? {} : { body }) };
        });
      const at = pathNames.reduce((path, name) => path.replace(`{${name}}`, encodeURIComponent(known.ids[0]!)), route);
      const nested =
        method === 'get'
          ? []
          : nestedBodies(operation, document).map(({ body, contentType }) => ({
              method: method.toUpperCase(),
              path: at,
              headers: { 'content-type': contentType },
              body,
            }));
      targets.push({ method: method.toUpperCase(), route, requests, nested });
    }
  }
  return targets;
}

/** What a response must be whatever the request: below 500, and an error in the envelope. */
export function problemWith(status: number, text: string): string | undefined {
  if (status >= 500) return `status ${status}: ${text.slice(0, 300)}`;
  if (status < 400) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `status ${status} without a JSON body: ${text.slice(0, 200)}`;
  }
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } }).error;
  if (typeof error?.code !== 'string' || typeof error.message !== 'string' || typeof error.details !== 'object' || error.details === null) {
    return `status ${status} outside the error envelope: ${text.slice(0, 200)}`;
  }
  return undefined;
}

export interface FuzzFinding {
  request: string;
  problem: string;
}

/** One request exactly as generated: paths are not normalised (`..` stays `..`). */
function send(base: URL, key: string, request: FuzzRequest): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = { ...request.headers, 'x-api-key': key, ...(request.body ? { 'content-length': String(request.body.length) } : {}) };
    const outgoing = http.request({ host: base.hostname, port: base.port, method: request.method, path: request.path, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/**
 * Sends `runs` generated requests to every operation (a few at a time) and reports every response
 * that breaks the rules of `problemWith`. The same seed gives the same requests.
 */
export async function fuzz(options: {
  url: string;
  key: string;
  document: OpenApiDocument;
  known: KnownIds;
  runs: number;
  seed: number;
  concurrency?: number;
}): Promise<{ sent: number; nested: number; operations: number; findings: FuzzFinding[]; statuses: Record<number, number> }> {
  const base = new URL(options.url);
  const targets = fuzzTargets(options.document, options.known);
  // The nested bodies go last: at the limit's depth they reach handlers, DELETE ones included.
  const nested = targets.flatMap((target) => target.nested);
  const requests = [...targets.flatMap((target, index) => fc.sample(target.requests, { numRuns: options.runs, seed: options.seed + index })), ...nested];
  const findings: FuzzFinding[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      const label = `${request.method} ${request.path.slice(0, 200)} ${request.headers['content-type'] ?? ''} ${request.body?.subarray(0, 200).toString('utf8') ?? ''}`;
      try {
        const { status, text } = await send(base, options.key, request);
        statuses[status] = (statuses[status] ?? 0) + 1;
        const problem = problemWith(status, text);
        if (problem) findings.push({ request: label, problem });
      } catch (error) {
        findings.push({ request: label, problem: `no answer: ${(error as Error).message}` });
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  return { sent: requests.length, nested: nested.length, operations: targets.length, findings, statuses };
}

/**
 * Things for generated requests to point at, so some get past "not found": a finished long-form
 * task (with its timeline), an audio asset, a key that may be deleted, a preset voice.
 */
export async function prepareFuzzTargets(url: string, key: string): Promise<KnownIds> {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(new URL(path, url), {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const task = await call('POST', '/api/generate/clone-chunked', { voice_id: 'pico:en-US', text: 'One line. Two lines.', language: 'en-US' });
  while ((await call('GET', `/api/tasks/${String(task.task_id)}`)).status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 100));
  const form = new FormData();
  const wav = encodeWav({ samples: Float32Array.from({ length: 8000 }, (_, i) => 0.3 * Math.sin(i / 4)), sampleRate: 8000 });
  form.append('file', new Blob([wav]), 'tone.wav');
  const asset = (await (await fetch(new URL('/api/assets', url), { method: 'POST', headers: { 'x-api-key': key }, body: form })).json()) as Record<
    string,
    unknown
  >;
  const spare = await call('POST', '/api/api-keys', { name: 'fuzz spare' });
  return { ids: [String(task.task_id), String(asset.asset_id), String(spare.key_id), 'pico:en-US', 'flite:slt', '0', '1', 'job_unknown', 'voice_unknown'] };
}
