import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { languageSchema } from '../../platform/http/schemas.js';
import type { JobRecord } from '../../platform/jobs/types.js';
import { publicVoice, type VoiceService } from '../voices/index.js';

/** What clone and design creation share: the language field, the 201 and 202 answers, and cancellation. */

export const LanguageField = Type.Optional(languageSchema('BCP-47 language the voice speaks; en when absent'));

export const CreationAcceptedSchema = Type.Object({
  job_id: Type.String({ description: 'Follow it on /ws; its result names the new voice' }),
  status: Type.String(),
});

export const CancelBodySchema = Type.Object(
  { job_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Without it, every queued and running job of this kind of the caller' })) },
  { additionalProperties: false },
);

/** 202: the job is queued; its events on /ws, ending with the result, tell the rest. */
export function sendAccepted(reply: FastifyReply, job: JobRecord) {
  return reply.code(202).send({ job_id: job.id, status: job.state });
}

/** 201: the job's result with the new voice as GET /api/voices/{id} shows it. */
export async function sendCreated(reply: FastifyReply, created: { job: JobRecord; result: Record<string, unknown> }, voices: VoiceService) {
  const voice = await voices.get(String(created.result.voice_id));
  return reply.code(201).send({ ...created.result, job_id: created.job.id, voice: publicVoice(voice) });
}
