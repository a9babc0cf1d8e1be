import { isJsonObject, type JsonObject } from './json-object.js';

/**
 * What fastify-swagger cannot say from route schemas, added to the generated document: the tags
 * with their descriptions, the rate-limit headers every keyed response carries, and `/ws` as the
 * 101 upgrade it is, with its messages as schemas.
 */

export const TAGS: readonly { name: string; description: string }[] = [
  { name: 'Text to speech', description: 'One-piece generation with preset, cloned and designed voices, and the tasks it stores' },
  { name: 'Long-form', description: 'Long texts as tasks of sentence chunks: several voices and languages, new takes, merging' },
  { name: 'Timeline', description: 'Arranging generated chunks with imported audio, video and pictures, and rendering the mix' },
  { name: 'Voices', description: 'Presets, clones and designs: metadata, favorites, categories, previews, archives' },
  { name: 'Cloning', description: 'New voices from seconds of audio' },
  { name: 'Design', description: 'New voices from a description' },
  { name: 'Audio', description: 'Transcription, video downloads and audio probing' },
  { name: 'Assets', description: 'Uploaded and downloaded media kept for later use' },
  { name: 'Text', description: 'Sentence splitting as generation does it' },
  { name: 'Queue', description: 'The compute queue: positions, estimates, cancelling' },
  { name: 'System', description: 'Hardware, engines, models, health and this document' },
  { name: 'API keys', description: 'Scoped, rate-limited keys (scope admin)' },
  { name: 'Events', description: 'The WebSocket of job events' },
  { name: 'Agents', description: 'The Model Context Protocol server for AI agents: tools that act through these routes with the caller’s key' },
];

const HEADER_COMPONENTS: JsonObject = {
  RateLimitLimit: {
    description:
      'Requests per minute of the budget this request counts against (the x-budget of the operation, else its scope’s), for the key or the key above it whose budget binds tightest (sent once the key is known)',
    schema: { type: 'integer' },
  },
  RateLimitRemaining: { description: 'Requests left in that budget in the current window', schema: { type: 'integer' } },
  RateLimitReset: { description: 'Seconds until the window frees a request', schema: { type: 'integer' } },
  RetryAfter: { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
  RequestId: { description: 'This request’s id, unique; the service’s log lines about it carry it as reqId', schema: { type: 'string' } },
};

const RATE_LIMIT_HEADERS: JsonObject = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function addRateLimitHeaders(operation: JsonObject): void {
  const responses = operation.responses;
  if (!isJsonObject(responses)) return;
  for (const [status, response] of Object.entries(responses)) {
    if (!isJsonObject(response)) continue;
    const headers = isJsonObject(response.headers) ? response.headers : {};
    const retry = status === '429' ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {};
    response.headers = { ...headers, ...RATE_LIMIT_HEADERS, ...retry };
  }
}

/** Every answer but the WebSocket's 101 (which the WebSocket library writes itself) carries its request's id. */
function addRequestIdHeader(operation: JsonObject): void {
  const responses = isJsonObject(operation.responses) ? operation.responses : {};
  for (const [status, response] of Object.entries(responses)) {
    if (!isJsonObject(response) || status === '101') continue;
    response.headers = { ...(isJsonObject(response.headers) ? response.headers : {}), 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
  }
}

/**
 * Request bodies as a client sends them: a streamed multipart form is validated as null (nothing
 * is parsed before the handler), and a raw archive body has no JSON type; both are shown as what
 * goes over the wire.
 */
function describeRequestBody(operation: JsonObject): void {
  const body = operation.requestBody;
  if (!isJsonObject(body) || !isJsonObject(body.content)) return;
  for (const media of Object.values(body.content)) {
    if (!isJsonObject(media) || !isJsonObject(media.schema)) continue;
    const schema = media.schema;
    if (Array.isArray(schema.type)) schema.type = schema.type.find((type) => type !== 'null');
    if (schema.type === undefined && typeof schema.contentMediaType === 'string') Object.assign(schema, { type: 'string', format: 'binary' });
  }
}

/** Success answers whose schema has no description of its own get their status's name, not fastify-swagger's placeholder. */
const SUCCESS_NAMES: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted', '204': 'No Content' };

function nameSuccesses(operation: JsonObject): void {
  const responses = isJsonObject(operation.responses) ? operation.responses : {};
  for (const [status, response] of Object.entries(responses)) {
    const name = SUCCESS_NAMES[status];
    if (name && isJsonObject(response) && response.description === 'Default Response') response.description = name;
  }
}

/**
 * Every operation whose method may carry a body can be sent one too large or of a type it does
 * not read, even when it takes none (a DELETE with a text body is 415).
 */
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

const BODY_ERRORS = [
  { status: '413', reason: 'Payload Too Large', code: 'payload_too_large' },
  { status: '415', reason: 'Unsupported Media Type', code: 'unsupported_media_type' },
];

function addBodyErrors(method: string, operation: JsonObject): void {
  const responses = operation.responses;
  if (!BODY_METHODS.has(method) || !isJsonObject(responses)) return;
  for (const { status, reason, code } of BODY_ERRORS) {
    const response = responses[status];
    if (!isJsonObject(response))
      responses[status] = { description: `${reason}: \`${code}\``, content: { 'application/json': { schema: ref('ErrorEnvelope') } } };
    else if (typeof response.description === 'string' && !response.description.includes(`\`${code}\``)) response.description += `, \`${code}\``;
  }
}

/**
 * `/ws` answers a handshake with 101. OpenAPI has no words for the frames that follow, so they are
 * described where a reader looks: what the server sends as the 101's content, what the client
 * sends as the request body, each marked as frames rather than HTTP bodies.
 */
function describeWebSocket(operation: JsonObject): void {
  const responses = isJsonObject(operation.responses) ? operation.responses : {};
  delete responses['200'];
  operation.requestBody = {
    required: false,
    description: 'Not an HTTP body: each WebSocket frame the client sends after the upgrade is one WsClientMessage (JSON text, at most 64 KiB)',
    content: { 'application/json': { schema: ref('WsClientMessage') } },
  };
  operation.responses = {
    '101': {
      description: 'Switching Protocols: the connection is a WebSocket; each frame the server sends is one WsServerMessage (JSON text)',
      headers: { Upgrade: { description: '`websocket`', schema: { type: 'string' } } },
      content: { 'application/json': { schema: ref('WsServerMessage') } },
    },
    ...responses,
    default: { description: 'Any other refusal of the handshake', content: { 'application/json': { schema: ref('ErrorEnvelope') } } },
  };
}

/** Finishes the document in place. */
export function finishDocument<T extends object>(document: T): T {
  const paths: unknown = 'paths' in document ? document.paths : undefined;
  if (!isJsonObject(paths)) return document;
  for (const [path, item] of Object.entries(paths)) {
    if (!isJsonObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!isJsonObject(operation)) continue;
      if (path === '/ws') describeWebSocket(operation);
      else addBodyErrors(method, operation);
      describeRequestBody(operation);
      nameSuccesses(operation);
      // Public routes (the studio's files, signing in) are not counted against a key.
      if (operation['x-scope'] !== undefined) addRateLimitHeaders(operation);
      addRequestIdHeader(operation);
    }
  }
  const components: unknown = 'components' in document ? document.components : undefined;
  return Object.assign(document, { tags: TAGS, components: { ...(isJsonObject(components) ? components : {}), headers: HEADER_COMPONENTS } });
}
