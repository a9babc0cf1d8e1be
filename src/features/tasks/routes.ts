import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { create as contentDisposition } from 'content-disposition';
import { contentTypeOf } from '../../platform/audio/encode.js';
import { CUE_LIMITS, toSrt, toVtt } from '../../platform/text/subtitles.js';
import type { TaskRecord } from './repository.js';
import { extensionOf, type TaskService } from './service.js';
import { taskWordRoutes } from './words-routes.js';
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
    timings: Nullable(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Start/end seconds: `words` (from the engine, or estimated from the audio: `word_source`), `phonemes` where the engine gives them; a merged long-form task’s `sentences` and `words` (with their `chunk`). Read words through GET /api/tasks/{task_id}/words',
      }),
    ),
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
    renders: Type.Optional(Type.Array(Type.Ref('Render'), { description: 'Long-form tasks: every merge and timeline render kept, oldest first' })),
    created_at: TimestampSchema,
    updated_at: NullableTimestampSchema,
  },
  { $id: 'Task' },
);

/** The schema of `TaskService.presentRender`. */
export const RenderSchema = Type.Object(
  {
    render_id: Type.String(),
    kind: Type.Unsafe<'merge' | 'timeline'>({ type: 'string', enum: ['merge', 'timeline'], description: 'Merged chunks, or the mixed timeline' }),
    format: Type.String({ description: 'An audio format, or `mp4` (a timeline rendered with its picture)' }),
    duration: Nullable(Type.Number({ description: 'seconds' })),
    sample_rate: Nullable(Type.Integer()),
    size_bytes: Type.Integer({ minimum: 0 }),
    created_at: TimestampSchema,
    url: Type.String({ description: 'Where the file is downloaded' }),
    file_name: Type.String({ description: 'The name its download is given (Content-Disposition)' }),
  },
  { $id: 'Render' },
);

const TaskParams = Type.Object({ task_id: Type.String({ minLength: 1, maxLength: 64 }) });
const RenderParams = Type.Object({ task_id: Type.String({ minLength: 1, maxLength: 64 }), render_id: Type.String({ minLength: 1, maxLength: 64 }) });
const CueSchema = Type.Object({
  start: Type.Number({ description: 'seconds' }),
  end: Type.Number(),
  text: Type.String(),
  speaker: Nullable(Type.String({ description: 'Who says it (a long-form chunk’s speaker); null for word times' })),
});
export const RENDER_ID_HEADER = {
  'X-Render-Id': { type: 'string', description: 'The render this file is (GET /api/tasks/{task_id}/renders/{render_id})' },
} as const;
const SubtitlesResponse = {
  description: 'The cues as SRT (default), WebVTT or JSON',
  content: {
    'application/x-subrip': { schema: { type: 'string' } },
    'text/vtt': { schema: { type: 'string' } },
    'application/json': { schema: Type.Object({ cues: Type.Array(CueSchema) }) },
  },
};
const TASK_MEDIA = [...AUDIO_MEDIA_TYPES, 'video/mp4'];
const RENDER_NOT_FOUND = { 404: ['task_not_found', 'render_not_found'] };
const NOT_FOUND = { 404: ['task_not_found'] };
/** Reads of one's own tasks need tts:generate but count against their own budget, so polling spends no generations. */
const config = { scope: 'tts:generate', budget: 'task_reads' } as const;
const tags = ['Text to speech'];

export const taskRoutes: FastifyPluginAsyncTypebox<{ tasks: TaskService }> = async (app, { tasks }) => {
  await app.register(taskWordRoutes, { tasks });

  app.get('/api/tasks/:task_id', {
    config,
    schema: {
      operationId: 'getTask',
      tags,
      summary: 'A stored task (only the key that created it, and the keys above that key, see it)',
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
      summary: 'Sentence or word cues of a task (a generation, a merged long-form task, or its timeline as laid out) as SRT, WebVTT or JSON',
      description:
        'Cues name their speaker: `Name: text` in SRT, a voice span `<v Name>text` in WebVTT, `speaker` in JSON. `granularity=sentence`: a merged long-form task’s chunks, from each one’s first word to its last; a generation’s words grouped into lines (a sentence end ends a cue; a line holds at most `max_chars` characters and stays at most `max_seconds` on screen). `granularity=word`: one cue per word. `source=timeline` cuts the cues from the timeline as it is laid out now: every unmuted chunk block from its start to its end.',
      params: TaskParams,
      querystring: Type.Object(
        {
          format: Type.Optional(Type.Unsafe<'srt' | 'vtt' | 'json'>({ type: 'string', enum: ['srt', 'vtt', 'json'], default: 'srt' })),
          source: Type.Optional(
            Type.Unsafe<'merge' | 'timeline'>({
              type: 'string',
              enum: ['merge', 'timeline'],
              default: 'merge',
              description: '`merge`: the times of the last merged file (or a generation’s); `timeline`: the timeline’s current layout',
            }),
          ),
          granularity: Type.Optional(
            Type.Unsafe<'sentence' | 'word'>({
              type: 'string',
              enum: ['sentence', 'word'],
              default: 'sentence',
              description: 'A cue per sentence (or line), or per word',
            }),
          ),
          max_chars: Type.Optional(
            Type.Integer({ minimum: 10, maximum: 200, default: CUE_LIMITS.maxChars, description: 'Characters of a sentence cue cut from word times' }),
          ),
          max_seconds: Type.Optional(
            Type.Number({ minimum: 1, maximum: 60, default: CUE_LIMITS.maxSeconds, description: 'Seconds a sentence cue cut from word times stays on screen' }),
          ),
        },
        { additionalProperties: false },
      ),
      response: withErrors({ 200: SubtitlesResponse }, NOT_FOUND, { 404: ['timeline_not_found'], 409: ['timings_unavailable'] }),
    },
    handler: async (request, reply) => {
      const { source, granularity, max_chars: maxChars = CUE_LIMITS.maxChars, max_seconds: maxSeconds = CUE_LIMITS.maxSeconds } = request.query;
      const cues = tasks.cuesOf(tasks.owned(request.params.task_id, callerOf(request).keyId), source, granularity, { maxChars, maxSeconds });
      const format = request.query.format ?? 'srt';
      if (format === 'json') {
        return reply.type('application/json; charset=utf-8').send(JSON.stringify({ cues: cues.map((cue) => ({ ...cue, speaker: cue.speaker ?? null })) }));
      }
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
      summary: 'The audio of a completed task: a generation’s speech, or a long-form task’s latest merge',
      params: TaskParams,
      response: withErrors(
        {
          200: binaryResponse(
            'The task’s audio in its format (`<name> - speech.<ext>` or `<name> - merged.<ext>`); an mp4 only for a task rendered before renders were kept apart',
            TASK_MEDIA,
            HEADERS.taskId,
            HEADERS.audioDuration,
            HEADERS.contentDisposition,
          ),
        },
        NOT_FOUND,
        { 409: ['task_not_ready'] },
      ),
    },
    handler: async (request, reply) => {
      const task = tasks.owned(request.params.task_id, callerOf(request).keyId);
      const audio = await tasks.audioOf(task);
      const name = tasks.downloadName(task, task.kind === 'long-form' ? 'merged' : 'speech', extensionOf(task.format));
      return reply
        .header('x-task-id', task.id)
        .header('x-audio-duration', String(task.duration ?? 0))
        .header('content-disposition', contentDisposition(name))
        .type(contentTypeOf(task.format, task.sampleRate))
        .send(audio);
    },
  });

  app.get('/api/tasks/:task_id/renders', {
    config,
    schema: {
      operationId: 'listTaskRenders',
      tags,
      summary: 'Every render of a task kept side by side: the latest merge per format, the latest timeline render per format',
      params: TaskParams,
      response: withErrors({ 200: Type.Object({ renders: Type.Array(Type.Ref('Render')) }) }, NOT_FOUND),
    },
    handler: async (request) => {
      return { renders: tasks.rendersOf(tasks.owned(request.params.task_id, callerOf(request).keyId)) };
    },
  });

  app.get('/api/tasks/:task_id/renders/:render_id', {
    config,
    schema: {
      operationId: 'getTaskRender',
      tags,
      summary: 'The file of one render',
      params: RenderParams,
      response: withErrors(
        {
          200: binaryResponse(
            'The render in its format: audio, or an mp4 (`<name> - merged.<ext>` or `<name> - timeline.<ext>`)',
            TASK_MEDIA,
            HEADERS.taskId,
            HEADERS.audioDuration,
            HEADERS.contentDisposition,
            RENDER_ID_HEADER,
          ),
        },
        RENDER_NOT_FOUND,
      ),
    },
    handler: async (request, reply) => {
      const task = tasks.owned(request.params.task_id, callerOf(request).keyId);
      const { render, file } = await tasks.renderFile(task, request.params.render_id);
      return reply
        .header('x-task-id', task.id)
        .header('x-render-id', render.id)
        .header('x-audio-duration', String(render.duration ?? 0))
        .header('content-disposition', contentDisposition(tasks.renderName(task, render)))
        .type(contentTypeOf(render.format, render.sampleRate))
        .send(file);
    },
  });
};
