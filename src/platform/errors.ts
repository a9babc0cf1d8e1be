/**
 * An error the API answers with its own status and code. Services throw these; the HTTP
 * layer renders them as `{"error": {"code", "message", "details"}}`.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A request field the schema lets through but the request cannot have, reported like a schema failure. */
export function invalidField(field: string, problem: string): ApiError {
  return new ApiError(400, 'invalid_request', `Invalid request: ${field} ${problem}`, { fields: [{ field, message: problem }] });
}

/** How a job's failure is stored and told (`job.failed`, a task's `error`): what a client may see of it. */
export interface JobError {
  code: string;
  message: string;
  details: Record<string, unknown>;
  /** The HTTP status of an ApiError a job threw (its request-level meaning); engine errors map by code. */
  status?: number;
}

export interface ErrorEnvelope {
  error: { code: string; message: string; details: Record<string, unknown> };
}

export function envelope(error: ApiError): ErrorEnvelope {
  return { error: { code: error.code, message: error.message, details: error.details } };
}

/** An error with a stable code, e.g. `model_invalid`, `voice_not_found`, `engine_failed`. */
export class EngineError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

/** The words of anything thrown: an Error's message, or the value itself as text. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
