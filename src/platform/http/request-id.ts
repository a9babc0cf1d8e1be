import type { FastifyInstance } from 'fastify';
import { newId } from '../util/ids.js';

/**
 * Every response carries `X-Request-Id`, the id the service's log lines of that request carry as
 * `reqId` (OpenAI's SDKs read the header too: `_request_id`, `error.request_id`). Ids are made here,
 * random so that they stay unique across restarts; one a client sends is not taken, so no client
 * can write into another request's log lines.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Fastify's `genReqId`. */
export function newRequestId(): string {
  return newId('req', 12);
}

/** The first hook of every request: refusals by any later hook carry the id too. */
export function installRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
