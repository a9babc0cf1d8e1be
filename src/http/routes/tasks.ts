import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contentTypeOf } from '../../audio/encode.js';
import type { GenerationService } from '../../services/generation.js';
import type { LongFormService } from '../../services/long-form.js';
import { toSrt, toVtt, type Cue } from '../../text/subtitles.js';
import { ApiError } from '../../errors.js';
import { presentChunk } from './long-form.js';
import type { TaskRecord } from '../../store/task-repository.js';
import { callerOf } from '../auth.js';
import { CancelledSchema, NullableTimestampSchema, presentCancelled, TimestampSchema, withErrors } from '../schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const TaskSchema = Type.Object(
  {
    task_id: Type.String(),
    kind: Type.String(),
    status: Type.Unsafe<TaskRecord['status']>({ type: 'string', enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] }),
    voice_id: Nullable(Type.String()),
    text: Nullable(Type.String()),
    language: Nullable(Type.String()),
    format: Nullable(Type.String()),
    sample_rate: Nullable(Type.Integer()),
    duration: Nullable(Type.Number({ description: 'seconds' })),
    timings: Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'words and phonemes with start/end seconds, where the engine gives them' })),
    error: Nullable(Type.Object({ code: Type.String(), message: Type.String(), details: Type.Record(Type.String(), Type.Unknown()) })),
    job_id: Nullable(Type.String()),
    audio_url: Nullable(Type.String()),
    chunks: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'Long-form tasks: the chunks in order, each with its takes' })),
    created_at: TimestampSchema,
    updated_at: NullableTimestampSchema,
  },
  { $id: 'Task' },
);

const TaskParams = Type.Object({ task_id: Type.String({ minLength: 1, maxLength: 64 }) });
const config = { scope: 'tts:generate' } as const;
const tags = ['Text to speech'];

export function presentTask(task: TaskRecord) {
  return {
    task_id: task.id,
    kind: task.kind,
    status: task.status,
    voice_id: task.voiceId,
    text: task.text,
    language: task.language,
    format: task.format,
    sample_rate: task.sampleRate,
    duration: task.duration,
    timings: task.timings as Record<string, unknown> | null,
    error: task.error,
    job_id: task.jobId,
    audio_url: task.status === 'completed' && task.audioPath ? `/api/tasks/${task.id}/audio` : null,
    created_at: task.createdAt,
    updated_at: task.updatedAt,
  };
}

/** Sentence times of a merged long-form file, else word times of a single generation. */
function cuesOf(task: TaskRecord): Cue[] {
  const timings = (task.timings ?? {}) as { sentences?: Cue[]; words?: { word: string; start: number; end: number }[] | null };
  if (timings.sentences) return timings.sentences.map(({ start, end, text }) => ({ start, end, text }));
  if (timings.words) return timings.words.map(({ word, start, end }) => ({ start, end, text: word }));
  throw new ApiError(409, 'timings_unavailable', `Task ${task.id} has no sentence or word times (merge a long-form task first)`, { task_id: task.id });
}

export const taskRoutes: FastifyPluginAsyncTypebox<{ generation: GenerationService; longForm: LongFormService }> = async (app, { generation, longForm }) => {
  app.addSchema(TaskSchema);

  app.get('/api/tasks/:task_id', {
    config,
    schema: { tags, summary: 'A stored generation task (only the key that created it sees it)', params: TaskParams, response: withErrors({ 200: Type.Ref('Task'), 404: Type.Ref('ErrorEnvelope') }) },
    handler: async (request) => {
      const task = generation.task(request.params.task_id, callerOf(request).keyId);
      return task.kind === 'long-form' ? { ...presentTask(task), chunks: longForm.chunksOf(task).map(presentChunk) } : presentTask(task);
    },
  });

  app.get('/api/tasks/:task_id/subtitles', {
    config,
    schema: {
      tags,
      summary: 'Sentence (merged long-form) or word times of a task as SRT, WebVTT or JSON',
      params: TaskParams,
      querystring: Type.Object({ format: Type.Optional(Type.Unsafe<'srt' | 'vtt' | 'json'>({ type: 'string', enum: ['srt', 'vtt', 'json'], default: 'srt' })) }, { additionalProperties: false }),
      response: withErrors({ 404: Type.Ref('ErrorEnvelope'), 409: Type.Ref('ErrorEnvelope') }),
    },
    handler: async (request, reply) => {
      const cues = cuesOf(generation.task(request.params.task_id, callerOf(request).keyId));
      const format = request.query.format ?? 'srt';
      if (format === 'json') return reply.type('application/json; charset=utf-8').send(JSON.stringify({ cues }));
      return reply.type(format === 'vtt' ? 'text/vtt; charset=utf-8' : 'application/x-subrip; charset=utf-8').send(format === 'vtt' ? toVtt(cues) : toSrt(cues));
    },
  });

  app.get('/api/tasks/:task_id/audio', {
    config,
    schema: {
      tags,
      summary: 'The audio of a completed task',
      params: TaskParams,
      response: withErrors({ 404: Type.Ref('ErrorEnvelope'), 409: Type.Ref('ErrorEnvelope') }),
    },
    handler: async (request, reply) => {
      const task = generation.task(request.params.task_id, callerOf(request).keyId);
      const audio = await generation.audioOf(task);
      return reply.header('x-task-id', task.id).header('x-audio-duration', String(task.duration ?? 0)).type(contentTypeOf(task.format)).send(audio);
    },
  });

  app.post('/api/generation/cancel', {
    config,
    schema: {
      tags,
      summary: 'Cancel the caller’s queued or running generation, or the one of task_id',
      body: Type.Object({ task_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, { additionalProperties: false }),
      response: withErrors({ 200: CancelledSchema, 404: Type.Ref('ErrorEnvelope'), 409: Type.Ref('ErrorEnvelope') }),
    },
    handler: async (request) => presentCancelled(await generation.cancel(request.body.task_id, callerOf(request).keyId)),
  });
};
