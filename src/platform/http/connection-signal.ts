import type { FastifyReply } from 'fastify';

/**
 * Aborted when the client goes away before the response is complete: a streamed synthesis stops
 * then, even while it is still waiting for its first sentence.
 */
export function connectionSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
