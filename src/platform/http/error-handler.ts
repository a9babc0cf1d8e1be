import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { publicEngineError } from '../engines/types.js';
import { ApiError, envelope, EngineError } from '../errors.js';
import { insufficientStorage, isStorageFull } from '../storage-full.js';
import { engineErrorStatus } from '../engines/error-status.js';
import type { RouteTable } from './route-table.js';

/** Fastify's own error codes mapped to the API's codes. */
const FRAMEWORK_ERRORS: Record<string, { status: number; code: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_request' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json' },
};

interface FieldProblem {
  field: string;
  message: string;
}

/** One problem per field (the first rule it breaks): an empty name need not also be reported as blank. */
function fieldProblems(error: FastifyError): FieldProblem[] {
  const part = error.validationContext ?? 'body';
  const problems = (error.validation ?? []).map((issue) => {
    const params = issue.params;
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const extra = (params.missingProperty ?? params.additionalProperty) as string | undefined;
    const field = [part, path, extra].filter(Boolean).join('.');
    const message = params.additionalProperty ? 'is not a known field' : (issue.message ?? 'is invalid');
    return { field, message };
  });
  return problems.filter((problem, index) => problems.findIndex((other) => other.field === problem.field) === index);
}

export function toApiError(error: FastifyError | ApiError | Error): ApiError {
  if (error instanceof ApiError) return error;
  if (isStorageFull(error)) return insufficientStorage();
  if (error instanceof EngineError) {
    const shown = publicEngineError(error);
    return new ApiError(engineErrorStatus(error.code), shown.code, shown.message, shown.details);
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const fields = fieldProblems(fastifyError);
    const summary = fields.map((problem) => `${problem.field} ${problem.message}`).join('; ');
    return new ApiError(400, 'invalid_request', `Invalid request: ${summary}`, { fields });
  }
  const known = fastifyError.code ? FRAMEWORK_ERRORS[fastifyError.code] : undefined;
  if (known) return new ApiError(known.status, known.code, fastifyError.message);
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    return new ApiError(status, 'invalid_request', fastifyError.message);
  }
  return new ApiError(500, 'internal_error', 'The server failed to handle this request');
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send(envelope(error));
}

/** Renders every error, including unknown routes and wrong methods, in the one envelope. */
export function installErrorHandling(app: FastifyInstance, routes: RouteTable): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, apiError);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = routes.methodsFor(path);
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendError(reply, new ApiError(405, 'method_not_allowed', `${request.method} is not allowed on ${path}`, { allowed }));
    }
    return sendError(reply, new ApiError(404, 'not_found', `No route ${request.method} ${path}`, { method: request.method, path }));
  });
}
