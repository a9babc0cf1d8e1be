/**
 * A worker takes its jobs from Redis, which any program on that network could write to: a job and
 * its arguments are checked for the shape of a call before an engine sees them, and refused with
 * `invalid_engine_call` otherwise.
 */
import type { EngineCall, EngineMethod } from '../host/calls.js';
import { EngineError } from '../../errors.js';
import { isEngineId } from '../engine-ids.js';
import type { CallJob } from './wire.js';
import { isObject as isRecord, isPcm } from '../host/results.js';

const isPrint = (value: unknown) => isRecord(value) && typeof value.method === 'string' && value.vector instanceof Float32Array;

/** Each method's arguments, as the engine interfaces take them (without the job context). */
const ARGUMENT_CHECKS: Record<EngineMethod, (args: unknown[]) => boolean> = {
  capabilities: (args) => args.length === 0,
  listVoices: (args) => args.length === 0,
  voiceVector: (args) => args.length === 1 && typeof args[0] === 'string',
  synthesize: ([request, ...rest]) => rest.length === 0 && isRecord(request) && typeof request.text === 'string' && typeof request.voice === 'string',
  recognize: ([request, ...rest]) => rest.length === 0 && isRecord(request) && isPcm(request.pcm),
  extract: (args) => args.length === 1 && isPcm(args[0]),
  similarity: (args) => args.length === 2 && isPrint(args[0]) && isPrint(args[1]),
  analyse: (args) => args.length === 1 && isPcm(args[0]),
  detect: (args) => args.length === 1 && isPcm(args[0]),
};

const isMethod = (value: unknown): value is EngineMethod => typeof value === 'string' && Object.hasOwn(ARGUMENT_CHECKS, value);

const refuse = (what: string) => new EngineError('invalid_engine_call', `The worker refused a malformed job: ${what}`);

export function checkedJob(data: unknown): CallJob {
  if (!isRecord(data)) throw refuse('not an object');
  const { call, engine, method, pieces, stream, timeoutMs, quick } = data;
  if (typeof call !== 'string' || !/^[\w-]{1,64}$/.test(call)) throw refuse('no call id');
  if (typeof engine !== 'string' || !isEngineId(engine)) throw refuse(`unknown engine ${String(engine)}`);
  if (!isMethod(method)) throw refuse(`unknown method ${String(method)}`);
  if (typeof pieces !== 'number' || !Number.isInteger(pieces) || pieces < 1) throw refuse('no argument pieces');
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) throw refuse('no timeout');
  return { call, engine, method, pieces, stream: stream === true, timeoutMs, quick: quick === true };
}

/** The call a job's method and deserialized arguments make, when they have the method's shape. */
export function checkedCall(method: string, args: unknown): EngineCall {
  const call: unknown = { method, args };
  if (!isEngineCall(call)) throw refuse(`arguments that ${method} does not take`);
  return call;
}

function isEngineCall(value: unknown): value is EngineCall {
  return isRecord(value) && isMethod(value.method) && Array.isArray(value.args) && ARGUMENT_CHECKS[value.method](value.args);
}
