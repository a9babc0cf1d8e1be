import { Type, type TSchema } from 'typebox';
import type { CancelledJob } from '../jobs/job-cancel.js';

/** A value, or null where there is none. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** An error as the API shows it: in the envelope, on a failed task or chunk, in a job.failed event. */
export const ErrorObjectSchema = Type.Object({
  code: Type.String({ description: 'Stable machine-readable error code' }),
  message: Type.String(),
  details: Type.Record(Type.String(), Type.Unknown()),
});

export const ErrorEnvelopeSchema = Type.Object({ error: ErrorObjectSchema }, { $id: 'ErrorEnvelope', description: 'Every error response has this shape' });
/** The shape of a BCP-47 language tag the API accepts: `en`, `en-US`, `zh-Hant-TW`. */
export const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export function languageSchema(description?: string) {
  return Type.String({ minLength: 2, maxLength: 35, pattern: LANGUAGE_TAG.source, ...(description === undefined ? {} : { description }) });
}

export const TimestampSchema = Type.String({ format: 'date-time' });

export const NullableTimestampSchema = Nullable(TimestampSchema);

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
