import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { ApiError } from '../errors.js';
import type { JobRecord, JobRunContext } from './types.js';

/**
 * A kind of job: the name stored with each job and the schema of its payload. The payload is JSON
 * in SQLite and may be read back by a later version after a restart, so it is checked against the
 * schema when it is submitted and again before every run.
 */
export interface JobKind<S extends TSchema = TSchema> {
  readonly name: string;
  readonly payload: S;
  /**
   * A run cut short by a stop of the service may simply run again, because the runner keeps what
   * it finished (a long-form job skips its spoken chunks); `recover` requeues such jobs.
   */
  readonly resumable: boolean;
  /**
   * Whether a job is quick (seconds of work: a sentence to speak). A quick job may start in the
   * queue's quick lane beside a long job instead of waiting for it, and its engine calls go ahead
   * of the long job's (see JobRunContext.quick). Read from the payload, so it holds after a restart.
   */
  readonly quick?: (payload: Static<S>) => boolean;
  /**
   * False for work that waits on the network or the disk rather than an engine (a model download):
   * it starts at once beside the compute jobs and holds none of their slots, so speech never waits behind it.
   */
  readonly computes: boolean;
}

export function jobKind<S extends TSchema>(
  name: string,
  payload: S,
  options: { resumable?: boolean; quick?: (payload: Static<S>) => boolean; computes?: boolean } = {},
): JobKind<S> {
  return { name, payload, resumable: options.resumable ?? false, computes: options.computes ?? true, ...(options.quick ? { quick: options.quick } : {}) };
}

export type PayloadOf<K extends JobKind> = Static<K['payload']>;

export interface SubmitJob<S extends TSchema = TSchema> {
  kind: JobKind<S>;
  ownerKeyId: string | null;
  taskId?: string;
  payload: Static<S>;
}

/** Runs one kind of job on a payload that fits its schema. Throwing an ApiError or EngineError fails the job with its code. */
export type KindRunner<S extends TSchema> = (payload: Static<S>, context: JobRunContext, job: JobRecord) => Promise<Record<string, unknown>>;

/** A registered kind with its runner, callable on a payload of unknown shape. */
export interface RegisteredKind {
  kind: JobKind;
  run(payload: unknown, context: JobRunContext, job: JobRecord): Promise<Record<string, unknown>>;
  /** Whether a job of this payload is quick; a payload that does not fit is not. */
  isQuick(payload: unknown): boolean;
}

export function registeredKind<S extends TSchema>(kind: JobKind<S>, runner: KindRunner<S>): RegisteredKind {
  return {
    kind,
    isQuick: (payload) => (kind.quick !== undefined && payloadFits(kind, payload) ? kind.quick(payload) : false),
    run: async (payload, context, job) => {
      if (!payloadFits(kind, payload)) throw invalidPayload(kind, payload);
      return runner(payload, context, job);
    },
  };
}

/** Whether a stored payload fits its kind's schema. */
export function payloadFits<S extends TSchema>(kind: JobKind<S>, payload: unknown): payload is Static<S> {
  return Value.Check(kind.payload, payload);
}

/** Refuses a payload built by the service itself: a mismatch is a defect, found at once. */
export function assertPayload<S extends TSchema>(kind: JobKind<S>, payload: Static<S>): void {
  if (!payloadFits(kind, payload)) throw new Error(`A ${kind.name} job was submitted with a payload that does not fit its kind: ${problemOf(kind, payload)}`);
}

/** A stored payload that does not fit (written by another version): that job fails, the queue goes on. */
function invalidPayload(kind: JobKind, payload: unknown): ApiError {
  return new ApiError(422, 'invalid_job_payload', `This ${kind.name} job's stored request does not fit what this version of Timbre runs; submit it again`, {
    kind: kind.name,
    problem: problemOf(kind, payload),
  });
}

function problemOf(kind: JobKind, payload: unknown): string {
  const first = Value.Errors(kind.payload, payload)[0];
  return first ? `${first.instancePath || '/'} ${first.message}` : 'the payload does not match';
}
