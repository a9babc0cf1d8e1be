import { EngineError, errorText } from '../../errors.js';
import type { EngineId } from '../engine-ids.js';

/** Requests that need an engine answer within this when Redis cannot be reached. */
export const QUEUE_DEADLINE_MS = 5000;
/** How long closing may wait for Redis before dropping the connections: with Redis gone, a graceful close would wait for it. */
export const CLOSE_DEADLINE_MS = 1000;

export function queueUnavailable(cause: unknown): EngineError {
  return new EngineError('queue_unavailable', `The work queue (Redis) cannot be reached: ${errorText(cause)}`);
}

/** A Redis or BullMQ operation that fails, or takes longer than `ms`, as `queue_unavailable`. */
export async function withinDeadline<T>(operation: Promise<T>, ms = QUEUE_DEADLINE_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([operation, deadline]);
  } catch (error) {
    throw error instanceof EngineError ? error : queueUnavailable(error);
  } finally {
    clearTimeout(timer);
  }
}

/** A MULTI's results, failing when any of its commands failed (EXEC itself succeeds then). */
export async function executed(results: Promise<[Error | null, unknown][] | null>): Promise<void> {
  const failed = (await withinDeadline(results))?.find(([error]) => error !== null);
  if (failed?.[0]) throw queueUnavailable(failed[0]);
}

export function noWorker(engine: EngineId): EngineError {
  return new EngineError('no_worker_for_engine', `No live worker can run ${engine}: start \`timbre worker\` on a machine that has it`, { engine });
}
