import { Value } from 'typebox/value';
import type { TimbreClient } from '../../client/index.js';
import { ApiError } from '../../platform/errors.js';
import { ErrorEnvelopeSchema } from '../../platform/http/schemas.js';

/** What the typed client answers: the data of a success, or the error body of a failure, and the response itself. */
interface ClientAnswer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * Timbre's REST API as the MCP tools call it: the typed client (over HTTP for `timbre mcp`,
 * through inject for `/mcp`) and the origin links are given on. A route's error comes back as the
 * ApiError it answered, code, message and details unchanged, so a tool reports exactly what the
 * REST route would have.
 */
export class TimbreApi {
  constructor(
    readonly client: TimbreClient,
    /** Where the service is reached by whoever follows a link a tool returns. */
    readonly origin: string,
  ) {}

  /** The data of a successful answer, with its response (headers); a failure thrown as its ApiError. */
  async answer<T>(call: Promise<ClientAnswer<T>>): Promise<{ data: T; response: Response }> {
    let answer: ClientAnswer<T>;
    try {
      answer = await call;
    } catch (error) {
      throw this.unreachable(error);
    }
    const { data, error, response } = answer;
    if (error === undefined && data !== undefined && response.ok) return { data, response };
    throw restError(response.status, error);
  }

  /** Only the data of a successful answer. */
  async data<T>(call: Promise<ClientAnswer<T>>): Promise<T> {
    return (await this.answer(call)).data;
  }

  /** An absolute link to a path of the service. */
  link(path: string): string {
    return new URL(path, this.origin).href;
  }

  private unreachable(error: unknown): ApiError {
    const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return new ApiError(503, 'service_unreachable', `Timbre does not answer at ${this.origin} (${reason}): start it with \`timbre serve\``, {
      origin: this.origin,
    });
  }
}

/** The ApiError of a REST error answer: Timbre's envelope as it came, or the bare status when the body is not one. */
function restError(status: number, body: unknown): ApiError {
  if (Value.Check(ErrorEnvelopeSchema, body)) return new ApiError(status, body.error.code, body.error.message, body.error.details);
  return new ApiError(status, 'unexpected_answer', `Timbre answered HTTP ${status} without an error body`, { status });
}
