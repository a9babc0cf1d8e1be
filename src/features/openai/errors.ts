/**
 * Errors on `/v1` in OpenAI's shape, `{"error": {"message", "type", "param", "code"}}`, so that
 * OpenAI's SDKs raise their own classes (their class follows the status alone). The service's one
 * error handler still decides every status and code; a hook only rewrites its envelope on the way
 * out of `/v1` routes, before serialization. `code` stays Timbre's stable code and `details` is kept
 * beside OpenAI's fields, so nothing the `/api` envelope says is lost.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { isJsonObject, type JsonObject } from '../../platform/http/json-object.js';
import { Nullable } from '../../platform/http/schemas.js';

export const OpenAiErrorEnvelopeSchema = Type.Object(
  {
    error: Type.Object({
      message: Type.String(),
      type: Type.String({
        description:
          '`invalid_request_error` (400, 404, 405, 409, 413, 415, 422), `authentication_error` (401), `permission_error` (403), `rate_limit_error` (429) or `server_error` (5xx)',
      }),
      param: Nullable(Type.String({ description: 'The request field at fault (`input`, `voice`, `model`, `file`, …), or null' })),
      code: Type.String({ description: 'Timbre’s stable error code, the same as on /api routes' }),
      details: Type.Record(Type.String(), Type.Unknown(), { description: 'Timbre’s addition: the details the /api envelope carries' }),
    }),
  },
  { $id: 'OpenAIErrorEnvelope', description: 'Every error on /v1 has OpenAI’s shape' },
);
export type OpenAiErrorEnvelope = Static<typeof OpenAiErrorEnvelopeSchema>;

/** The request field each of these codes is about, when the error names no field itself. */
const PARAM_OF_CODE: Readonly<Record<string, string>> = {
  model_not_found: 'model',
  voice_not_found: 'voice',
  text_empty: 'input',
  text_too_long: 'input',
  file_missing: 'file',
  too_many_files: 'file',
  audio_unreadable: 'file',
  media_unreadable: 'file',
  translation_not_supported: 'file',
};

export function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

/** `body.input` → `input`: the field as the client named it, from a validation failure or the code. */
export function paramOf(code: string, details: JsonObject): string | null {
  const first: unknown = Array.isArray(details.fields) ? details.fields[0] : undefined;
  if (isJsonObject(first) && typeof first.field === 'string') {
    const field = first.field.replace(/^(body|querystring|params|headers)\.?/, '');
    return field === '' ? null : field;
  }
  return PARAM_OF_CODE[code] ?? null;
}

export function toOpenAiError(status: number, error: { code: string; message: string; details: JsonObject }): OpenAiErrorEnvelope {
  const { code, message, details } = error;
  return { error: { message, type: errorType(status), param: paramOf(code, details), code, details } };
}

const isOpenAiUrl = (url: string) => url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?');

/** Rewrites every error answered under `/v1` (routes, authentication, limits, unknown paths) into OpenAI's shape. */
export function installOpenAiErrors(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, reply, payload: unknown) => {
    if (reply.statusCode < 400 || !isOpenAiUrl(request.url)) return payload;
    const error = isJsonObject(payload) && isJsonObject(payload.error) ? payload.error : undefined;
    if (!error || typeof error.code !== 'string' || typeof error.message !== 'string') return payload;
    return toOpenAiError(reply.statusCode, { code: error.code, message: error.message, details: isJsonObject(error.details) ? error.details : {} });
  });
}

/**
 * A `/v1` route's responses: `withErrors(...)` as every route declares them, with each error
 * status answering OpenAI's envelope instead of Timbre's.
 */
export function openAiResponses(responses: Readonly<Record<number, unknown>>): Record<number, unknown> {
  const mapped: Record<number, unknown> = {};
  for (const [status, response] of Object.entries(responses)) {
    const description = isJsonObject(response) && typeof response.description === 'string' ? response.description : undefined;
    mapped[Number(status)] = Number(status) < 400 ? response : Type.Ref('OpenAIErrorEnvelope', description === undefined ? {} : { description });
  }
  return mapped;
}
