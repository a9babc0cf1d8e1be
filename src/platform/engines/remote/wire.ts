/**
 * How engine calls cross Redis between the API node and the workers: names of the queues and keys,
 * and values (typed arrays included) as V8-serialized bytes cut into bounded pieces, so no Redis
 * value or job payload grows with the audio.
 */
import { deserialize, serialize } from 'node:v8';
import type { EngineId } from '../engine-ids.js';

/** Largest piece of a value in one Redis entry. */
export const PIECE_BYTES = 512 * 1024;

/** One queue per engine and voice set (voice-sets.ts): a worker takes only the work of the engines and voices it has. */
export const queueName = (engine: EngineId, voiceSet: string): string => `timbre-engine-${engine}-${voiceSet}`;

/** Where a call's arguments wait (a list of pieces) and where its answer comes (a stream). */
export const callKeys = (call: string) => ({
  args: `timbre:call:${call}:args`,
  out: `timbre:call:${call}:out`,
  cancelled: `timbre:call:${call}:cancelled`,
});

/** Workers hear cancellations here; the message is the call id. */
export const CANCEL_CHANNEL = 'timbre:cancel';

/** What a call's answer stream carries: progress, streamed audio pieces, then a result or an error. */
export type OutKind = 'progress' | 'audio' | 'result' | 'error';

export function toPieces(value: unknown): Buffer[] {
  const bytes = serialize(value);
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += PIECE_BYTES) pieces.push(bytes.subarray(offset, offset + PIECE_BYTES));
  return pieces.length > 0 ? pieces : [Buffer.alloc(0)];
}

export function fromPieces(pieces: readonly Buffer[]): unknown {
  return deserialize(Buffer.concat(pieces));
}

/** The job a queue holds for one call: names and numbers only; arguments travel as pieces beside it. */
export interface CallJob {
  call: string;
  engine: EngineId;
  method: string;
  /** How many pieces the arguments are. */
  pieces: number;
  /** Send audio pieces as the engine makes them. */
  stream: boolean;
  timeoutMs: number;
  quick: boolean;
}
