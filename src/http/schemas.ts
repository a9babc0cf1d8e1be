import { Type } from 'typebox';
import type { CancelledJob } from '../services/job-cancel.js';
import { ALL_SCOPES, type Scope } from '../services/scopes.js';

export const ErrorEnvelopeSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Stable machine-readable error code' }),
      message: Type.String(),
      details: Type.Record(Type.String(), Type.Unknown()),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'Every error response has this shape' },
);

export const ScopeSchema = Type.Unsafe<Scope>({ type: 'string', enum: ALL_SCOPES, description: 'Permission attached to a key' });

const perMinute = Type.Integer({ minimum: 1, maximum: 100_000, description: 'Requests per minute' });

export const RateLimitsSchema = Type.Object(
  Object.fromEntries(ALL_SCOPES.map((scope) => [scope, Type.Optional(perMinute)])) as Record<Scope, ReturnType<typeof Type.Optional<typeof perMinute>>>,
  { additionalProperties: false, description: 'Requests per minute, per scope' },
);

export const TimestampSchema = Type.String({ format: 'date-time' });

export const NullableTimestampSchema = Type.Union([TimestampSchema, Type.Null()]);

/** Responses every authenticated route can give besides its own. */
export function withErrors<T extends Record<number, unknown>>(responses: T) {
  const error = Type.Ref('ErrorEnvelope');
  return { ...responses, 400: error, 401: error, 403: error, 429: error, 500: error };
}

/** Every cancel route's answer: each job with its state after the cancel. */
export const CancelledSchema = Type.Object({
  cancelled: Type.Array(
    Type.Object({
      job_id: Type.String(),
      task_id: Type.Union([Type.String(), Type.Null()]),
      kind: Type.String(),
      state: Type.Unsafe<CancelledJob['state']>({
        type: 'string',
        enum: ['cancelled', 'completed', 'failed', 'cancelling'],
        description: 'After the cancel: cancelled, or completed/failed when the job ended first; cancelling when it had not stopped within 5 s',
      }),
    }),
  ),
});

export function presentCancelled(jobs: readonly CancelledJob[]) {
  return { cancelled: jobs.map((job) => ({ job_id: job.jobId, task_id: job.taskId, kind: job.kind, state: job.state })) };
}
