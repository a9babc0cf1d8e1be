import { Type } from 'typebox';
import type { JobRecord } from '../../jobs/types.js';

/** What clone and design creation share: the language field, the 202 answer, and cancellation. */

export const LanguageField = Type.Optional(
  Type.String({ minLength: 2, maxLength: 35, pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$', description: 'BCP-47 language the voice speaks; en when absent' }),
);

export const CreationAcceptedSchema = Type.Object({
  job_id: Type.String({ description: 'Follow it on /ws; its result names the new voice' }),
  status: Type.String(),
});

export const CancelBodySchema = Type.Object(
  { job_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Without it, every queued and running job of this kind of the caller' })) },
  { additionalProperties: false },
);

export const CancelledSchema = Type.Object({ cancelled: Type.Array(Type.Object({ job_id: Type.String(), state: Type.String() })) });

export function presentCancelled(jobs: JobRecord[]) {
  return { cancelled: jobs.map((job) => ({ job_id: job.id, state: job.state })) };
}
