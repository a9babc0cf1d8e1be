import { STATUS_CODES } from 'node:http';
import { Type, type TSchema } from 'typebox';

/** The error codes a route can answer, per status, besides those every route shares. */
export type ErrorCodes = Readonly<Partial<Record<number, readonly string[]>>>;

/** What any authenticated route may answer, whatever it does. */
const SHARED_ERRORS: ErrorCodes = {
  400: ['invalid_request', 'invalid_json', 'json_too_deep'],
  // session_expired and cross_site_request: requests the studio signs with its session cookie.
  401: ['missing_api_key', 'invalid_api_key', 'key_revoked', 'session_expired'],
  403: ['insufficient_scope', 'host_not_allowed', 'cross_site_request'],
  429: ['rate_limited'],
  500: ['internal_error'],
  // Any write may find the disk full.
  507: ['insufficient_storage'],
};

/**
 * The backquoted codes in an error response's description are the codes it may carry; the
 * contract check reads them back from the document (see `contract-check.ts`).
 */
export function errorResponse(status: number, codes: readonly string[]) {
  const listed = codes.map((code) => `\`${code}\``).join(', ');
  return Type.Ref('ErrorEnvelope', { description: `${STATUS_CODES[status] ?? 'Error'}: ${listed}` });
}

/** What a route that runs a job on the engines may answer besides its own errors. */
export const JOB_ERRORS: ErrorCodes = {
  409: ['cancelled'],
  422: ['engine_piece_timeout', 'language_not_supported', 'text_not_speakable'],
  500: ['engine_failed', 'engine_crashed', 'invalid_engine_call'],
  503: ['queue_full', 'engine_unavailable', 'model_invalid', 'no_worker_for_engine', 'queue_unavailable'],
  504: ['engine_timeout'],
  507: ['engine_out_of_memory'],
};

/** What a cancel route may answer. */
export const CANCEL_ERRORS: ErrorCodes = {
  404: ['job_not_found', 'task_not_found'],
  409: ['job_not_cancellable', 'task_not_cancellable'],
};

/** What a route taking a multipart upload may answer about it (413 and 415, as every body-taking route, come from openapi-finish). */
export const UPLOAD_ERRORS: ErrorCodes = {
  400: ['file_missing', 'too_many_files', 'invalid_multipart', 'request_aborted'],
};

function mergedCodes(tables: readonly ErrorCodes[]): Map<number, string[]> {
  const merged = new Map<number, string[]>();
  for (const table of [SHARED_ERRORS, ...tables]) {
    for (const [status, list] of Object.entries(table)) {
      const known = merged.get(Number(status)) ?? [];
      merged.set(Number(status), [...new Set([...known, ...(list ?? [])])]);
    }
  }
  return merged;
}

/** A route's responses: its own successes, then every error status with the codes it can carry. */
export function withErrors<T extends Record<number, unknown>>(responses: T, ...codes: ErrorCodes[]) {
  const errors: Record<number, ReturnType<typeof errorResponse>> = {};
  for (const [status, list] of mergedCodes(codes)) errors[status] = errorResponse(status, list);
  return { ...errors, ...responses };
}

export interface HeaderSpec {
  description: string;
  type: 'string' | 'number' | 'integer';
}

/** Response headers routes set themselves; the rate-limit headers are added to every operation. */
export const HEADERS = {
  taskId: { 'X-Task-Id': { type: 'string', description: 'The stored task this audio belongs to' } },
  audioDuration: { 'X-Audio-Duration': { type: 'number', description: 'Length of the audio in seconds' } },
  voiceId: { 'X-Voice-Id': { type: 'string', description: 'The voice the preview speaks with' } },
  previewCached: { 'X-Preview-Cached': { type: 'string', description: '`true` when the stored preview was reused' } },
  previewText: { 'X-Preview-Text': { type: 'string', description: 'The text of the preview, percent-encoded' } },
  chunkTake: { 'X-Chunk-Take': { type: 'integer', description: 'Which take of the chunk this is' } },
  contentDisposition: { 'Content-Disposition': { type: 'string', description: 'attachment, with a file name' } },
  contentTypeOptions: { 'X-Content-Type-Options': { type: 'string', description: '`nosniff`: the browser keeps to the declared type' } },
} satisfies Record<string, Record<string, HeaderSpec>>;

type Headers = Record<string, HeaderSpec>;

const mergedHeaders = (headers: readonly Headers[]): Headers => headers.reduce<Headers>((all, more) => ({ ...all, ...more }), {});

/** A JSON body with headers the route sets. */
export function withHeaders<S extends TSchema>(schema: S, ...headers: Headers[]) {
  return { ...schema, headers: mergedHeaders(headers) };
}

const BINARY = { type: 'string', format: 'binary' } as const;

/** Media types of the generation formats; pcm is raw signed 16-bit little-endian mono at the rate it names. */
export const AUDIO_MEDIA_TYPES = ['audio/wav', 'audio/mpeg', 'audio/ogg', 'audio/flac', 'audio/aac', 'audio/pcm'] as const;

/** A binary body in any of the given media types. */
export function binaryResponse(description: string, mediaTypes: readonly string[], ...headers: Headers[]) {
  return {
    description,
    headers: mergedHeaders(headers),
    content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: BINARY }])),
  };
}

/** A text body (subtitles, transcripts, the studio's files) in any of the given media types. */
export function textResponse(description: string, mediaTypes: readonly string[], ...headers: Headers[]) {
  return { description, headers: mergedHeaders(headers), content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: { type: 'string' } }])) };
}
