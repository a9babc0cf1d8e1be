import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ApiError, envelope } from '../../platform/errors.js';
import type { TimbreApi } from './rest.js';

/** MCP's code for a resource that does not exist (the specification's "Resource not found"). */
const RESOURCE_NOT_FOUND = -32002;
const JSON_TYPE = 'application/json';

const VOICES = 'timbre://voices';
const TEMPLATES = [
  {
    uriTemplate: 'timbre://voices/{voice_id}',
    name: 'voice',
    title: 'A voice',
    description: 'One voice as GET /api/voices/{id} shows it: languages, gender, tags, license; for a clone its samples, similarity and warnings',
    mimeType: JSON_TYPE,
  },
  {
    uriTemplate: 'timbre://tasks/{task_id}',
    name: 'task',
    title: 'A task',
    description: 'A task the caller started (speak returns its id): status, voice, text, duration, error and audio link',
    mimeType: JSON_TYPE,
  },
];

/** The REST read a resource URI names; undefined for a URI that names none. */
function readerOf(uri: string, api: TimbreApi): (() => Promise<unknown>) | undefined {
  if (uri === VOICES) return () => api.data(api.client.GET('/api/voices', { params: { query: { limit: 500 } } }));
  const [, kind, id] = /^timbre:\/\/(voices|tasks)\/([^/]+)$/.exec(uri) ?? [];
  if (id === undefined) return undefined;
  const decoded = decodedSegment(id);
  if (decoded === undefined) return undefined;
  if (kind === 'voices') return () => api.data(api.client.GET('/api/voices/{id}', { params: { path: { id: decoded } } }));
  return () => api.data(api.client.GET('/api/tasks/{task_id}', { params: { path: { task_id: decoded } } }));
}

/** A URI segment's text; undefined for a malformed escape, which names no resource. */
function decodedSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** A refused read as a protocol error: resources have no error results, so the envelope travels as the error's data. */
function readError(uri: string, error: ApiError): McpError {
  const code = error.statusCode === 404 ? RESOURCE_NOT_FOUND : ErrorCode.InvalidRequest;
  return new McpError(code, `${error.code}: ${error.message}`, { uri, ...envelope(error) });
}

/** Voices and tasks as resources, read through the same REST routes (and scopes) as the tools. */
export function installResources(server: Server, api: TimbreApi): void {
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      { uri: VOICES, name: 'voices', title: 'Voices', description: 'Every voice the caller can speak with, clearest first (up to 500)', mimeType: JSON_TYPE },
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async ({ params: { uri } }): Promise<ReadResourceResult> => {
    const read = readerOf(uri, api);
    if (!read)
      throw new McpError(RESOURCE_NOT_FOUND, `No resource ${uri}: Timbre has ${VOICES}, timbre://voices/{voice_id} and timbre://tasks/{task_id}`, { uri });
    try {
      return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(await read(), null, 2) }] };
    } catch (error) {
      throw error instanceof ApiError ? readError(uri, error) : error;
    }
  });
}
