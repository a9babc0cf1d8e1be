import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contentTypeOf } from '../../platform/audio/encode.js';
import { toSrt, toVtt } from '../../platform/text/subtitles.js';
import type { TaskRecord } from './repository.js';
import type { TaskService } from './service.js';
import { callerOf } from '../access/index.js';
import { ErrorObjectSchema, Nullable, NullableTimestampSchema, TimestampSchema } from '../../platform/http/schemas.js';
import { AUDIO_MEDIA_TYPES, binaryResponse, HEADERS, withErrors } from '../../platform/http/responses.js';

export const TaskSchema = Type.Object(
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
    stages: Nullable(
      Type.Record(Type.String(), Type.Number(), {
        description:
          'Milliseconds of each stage of a generation: queue_ms (waiting for the queue), text_ms (checking and normalizing the text), engine_ms (synthesis in the engine host, the voice’s conversion included), encode_ms (encoding after synthesis; while streaming only what remains after the last sentence), store_ms (writing the file)',
      }),
    ),
    error: Nullable(ErrorObjectSchema),
    job_id: Nullable(Type.String()),
    audio_url: Nullable(Type.String()),
    chunks: Type.Optional(Type.Array(Type.Ref('Chunk'), { description: 'Long-form tasks: the chunks in order, each with its takes' })),
    created_at: TimestampSchema,
    updated_at: NullableTimestampSchema,
  },
  { $id: 'Task' },
);

const TaskParams = Type.Object({ task_id: Type.String({ minLength: 1, maxLength: 64 }) });
const CueSchema = Type.Object({ start: Type.Number({ description: 'seconds' }), end: Type.Number(), text: Type.String() });
const SubtitlesResponse = {
  description: 'The cues as SRT (default), WebVTT or JSON',
  content: {
    'application/x-subrip': { schema: { type: 'string' } },
    'text/vtt': { schema: { type: 'string' } },
    'application/json': { schema: Type.Object({ cues: Type.Array(CueSchema) }) },
  },
};
const TASK_MEDIA = [...AUDIO_MEDIA_TYPES, 'video/mp4'];
const NOT_FOUND = { 404: ['task_not_found'] };
/** Reads of one's own tasks need tts:generate but count against their own budget, so polling spends no generations. */
const config = { scope: 'tts:generate', budget: 'task_reads' } as const;
const tags = ['Text to speech'];

export const taskRoutes: FastifyPluginAsyncTypebox<{ tasks: TaskService }> = async (app, { tasks }) => {
  app.get('/api/tasks/:task_id', {
    config,
    schema: {
      operationId: 'getTask',
      tags,
      summary: 'A stored generation task (only the key that created it sees it)',
      params: TaskParams,
      response: withErrors({ 200: Type.Ref('Task') }, NOT_FOUND),
    },
    handler: async (request) => {
      return tasks.present(tasks.owned(request.params.task_id, callerOf(request).keyId));
    },
  });

  app.get('/api/tasks/:task_id/subtitles', {
    config,
    schema: {
      operationId: 'getTaskSubtitles',
      tags,
      summary: 'Sentence (merged long-form) or word times of a task as SRT, WebVTT or JSON',
      params: TaskParams,
      querystring: Type.Object(
        { format: Type.Optional(Type.Unsafe<'srt' | 'vtt' | 'json'>({ type: 'string', enum: ['srt', 'vtt', 'json'], default: 'srt' })) },
        { additionalProperties: false },
      ),
      response: withErrors({ 200: SubtitlesResponse }, NOT_FOUND, { 409: ['timings_unavailable'] }),
    },
    handler: async (request, reply) => {
      const cues = tasks.cuesOf(tasks.owned(request.params.task_id, callerOf(request).keyId));
      const format = request.query.format ?? 'srt';
      if (format === 'json') return reply.type('application/json; charset=utf-8').send(JSON.stringify({ cues }));
      return reply
        .type(format === 'vtt' ? 'text/vtt; charset=utf-8' : 'application/x-subrip; charset=utf-8')
        .send(format === 'vtt' ? toVtt(cues) : toSrt(cues));
    },
  });

  app.get('/api/tasks/:task_id/audio', {
    config,
    schema: {
      operationId: 'getTaskAudio',
      tags,
      summary: 'The audio of a completed task',
      params: TaskParams,
      response: withErrors(
        {
          200: binaryResponse(
            'The task’s audio in its format, or the mp4 of a timeline rendered with its picture',
            TASK_MEDIA,
            HEADERS.taskId,
            HEADERS.audioDuration,
          ),
        },
        NOT_FOUND,
        { 409: ['task_not_ready'] },
      ),
    },
    handler: async (request, reply) => {
      const task = tasks.owned(request.params.task_id, callerOf(request).keyId);
      const audio = await tasks.audioOf(task);
      return reply
        .header('x-task-id', task.id)
        .header('x-audio-duration', String(task.duration ?? 0))
        .type(contentTypeOf(task.format, task.sampleRate))
        .send(audio);
    },
  });
};
