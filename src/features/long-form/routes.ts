import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { create as contentDisposition } from 'content-disposition';
import { MERGE_DEFAULTS } from '../../platform/audio/merge.js';
import { ApiError } from '../../platform/errors.js';
import { RENDER_ID_HEADER, type TaskService } from '../tasks/index.js';
import type { LongFormOptions, LongFormService } from './service.js';
import { ChunkedBody, MultiVoiceBody, MultiLangBody, RegenerateBody, MergeBody, ChunkedAcceptedSchema, RegenerateAcceptedSchema } from './schemas.js';
import type { FileInto } from '../projects/index.js';
import { chunkUrl } from './jobs.js';
import { presentChunk } from './presentation.js';
import type { SegmentInput } from './plan.js';
import type { SpeakingVoice } from '../../platform/speech/speech.js';
import { parseScript } from '../../platform/text/script.js';
import { callerOf } from '../access/index.js';
import { AUDIO_MEDIA_TYPES, binaryResponse, HEADERS, JOB_ERRORS, withErrors } from '../../platform/http/responses.js';

const CHUNKED_ERRORS = {
  400: ['text_empty', 'script_invalid', 'voice_type_mismatch'],
  404: ['voice_not_found', 'project_not_found'],
  413: ['text_too_long'],
  422: ['language_not_supported', 'audio_too_long'],
  503: ['queue_full', 'voice_unavailable'],
};
const TASK_ERRORS = { 404: ['task_not_found', 'chunk_not_found', 'take_not_found'] };
const MERGED_AUDIO = 'The merged audio in the requested format (pcm: 16-bit little-endian mono at the rate in its content type)';
const config = { scope: 'tts:generate' } as const;
const tags = ['Long-form'];
const CHUNK_AUDIO_ROUTES = [
  { url: '/api/audio/chunk/:task_id/:index', operationId: 'getChunkAudio', config, summary: 'A finished chunk (WAV), while later chunks may still be running' },
  {
    url: '/api/tasks/:task_id/chunks/:index/audio',
    operationId: 'getTaskChunkAudio',
    config: { scope: 'tts:generate', budget: 'task_reads' },
    summary: 'A finished chunk (WAV), as GET /api/audio/chunk, counted as a read of the task (task_reads) rather than a generation',
  },
] as const;

/** A voice as the routes find it: what speaking needs, and the name a segment's chunks get when no speaker is named. */
type NamedVoice = SpeakingVoice & { name: string };

export const longFormRoutes: FastifyPluginAsyncTypebox<{
  longForm: LongFormService;
  tasks: TaskService;
  findVoice: (id: string) => Promise<NamedVoice>;
  fileInto: FileInto;
}> = async (app, { longForm, tasks, findVoice, fileInto }) => {
  /** The options every chunked route shares, its project checked (before any voice is looked up). */
  const optionsOf = (
    body: { speed?: number; seed?: number; max_chars?: number; project_id?: string; pronunciation_ids?: string[] },
    keyId: string,
  ): LongFormOptions => ({
    speed: body.speed,
    pronunciationIds: body.pronunciation_ids,
    seed: body.seed,
    maxChars: body.max_chars,
    projectId: fileInto(body.project_id, keyId),
  });
  /** One segment: its voice, and its speaker (the voice's name unless one is given). */
  const segment = async (voiceId: string, text: string, fields: { language?: string; speaker?: string; detectPerSentence?: boolean }) => {
    const voice = await findVoice(voiceId);
    return { ...fields, voice, text, speaker: fields.speaker ?? voice.name } satisfies SegmentInput;
  };
  const accepted = (result: Awaited<ReturnType<LongFormService['start']>>) => ({
    task_id: result.task.id,
    job_id: result.job.id,
    status: result.job.state,
    task_url: `/api/tasks/${result.task.id}`,
    chunks: result.chunks.map(presentChunk),
  });
  const respond = {
    response: withErrors({ 202: ChunkedAcceptedSchema }, CHUNKED_ERRORS),
  };

  app.post('/api/generate/clone-chunked', {
    config,
    schema: { operationId: 'generateChunked', tags, summary: 'Generate a long text as one task of sentence chunks', body: ChunkedBody, ...respond },
    handler: async (request, reply) => {
      const { voice_id: voiceId, text, language } = request.body;
      const keyId = callerOf(request).keyId;
      const options = optionsOf(request.body, keyId);
      const result = await longForm.start([await segment(voiceId, text, { language })], options, keyId);
      return reply.code(202).send(accepted(result));
    },
  });

  app.post('/api/generate/clone-chunked-multivoice', {
    config,
    schema: {
      operationId: 'generateChunkedMultiVoice',
      tags,
      summary: 'Chunked generation with several voices: segments, or a `Name: line` script',
      body: MultiVoiceBody,
      ...respond,
    },
    handler: async (request, reply) => {
      const { segments, script, voices, language } = request.body;
      const keyId = callerOf(request).keyId;
      const options = optionsOf(request.body, keyId);
      if (!segments === !script)
        throw new ApiError(400, 'invalid_request', 'Send either segments or script (with voices)', {
          fields: [{ field: 'body.segments', message: 'or body.script' }],
        });
      const parts =
        segments ?? parseScript(script!, voices ?? {}).map((line) => ({ voice_id: line.voice_id, text: line.text, language, speaker: line.speaker }));
      const inputs: SegmentInput[] = [];
      for (const part of parts) inputs.push(await segment(part.voice_id, part.text, { language: part.language, speaker: part.speaker }));
      return reply.code(202).send(accepted(await longForm.start(inputs, options, keyId)));
    },
  });

  app.post('/api/generate/clone-chunked-multilang', {
    config,
    schema: {
      operationId: 'generateChunkedMultiLanguage',
      tags,
      summary: 'Chunked generation in several languages: segments with their language, or one text detected per sentence',
      body: MultiLangBody,
      ...respond,
    },
    handler: async (request, reply) => {
      const { voice_id: voiceId, segments, text, languages } = request.body;
      const keyId = callerOf(request).keyId;
      const options = { ...optionsOf(request.body, keyId), candidates: languages };
      if (!segments === !text)
        throw new ApiError(400, 'invalid_request', 'Send either segments or text', { fields: [{ field: 'body.segments', message: 'or body.text' }] });
      const inputs: SegmentInput[] = [];
      for (const part of segments ?? []) inputs.push(await segment(part.voice_id ?? voiceId, part.text, { language: part.language, speaker: part.speaker }));
      if (text !== undefined) inputs.push(await segment(voiceId, text, { detectPerSentence: true }));
      return reply.code(202).send(accepted(await longForm.start(inputs, options, keyId)));
    },
  });

  app.post('/api/generate/regenerate-chunk', {
    config,
    schema: {
      operationId: 'regenerateChunk',
      tags,
      summary: 'A new take of one chunk (earlier takes are kept); it becomes the selected take',
      body: RegenerateBody,
      response: withErrors({ 202: RegenerateAcceptedSchema }, CHUNKED_ERRORS, TASK_ERRORS),
    },
    handler: async (request, reply) => {
      const { task_id: taskId, index, text, voice_id: voiceId, seed } = request.body;
      const keyId = callerOf(request).keyId;
      const task = tasks.owned(taskId, keyId);
      const { take, job } = await longForm.regenerate(taskId, index, { text, voiceId, seed }, { keyId, task });
      return reply.code(202).send({ task_id: taskId, index, take: take.take, job_id: job.id, status: job.state, audio_url: chunkUrl(taskId, index) });
    },
  });

  app.post('/api/tasks/:task_id/chunks/:index/select', {
    config,
    schema: {
      operationId: 'selectChunkTake',
      tags,
      summary: 'Select which take of a chunk is used (for playback and merging)',
      params: Type.Object({ task_id: Type.String({ minLength: 1 }), index: Type.Integer({ minimum: 0 }) }),
      body: Type.Object({ take: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
      response: withErrors({ 200: Type.Ref('Chunk') }, TASK_ERRORS, { 409: ['chunk_not_ready'] }),
    },
    handler: async (request) => {
      const task = tasks.owned(request.params.task_id, callerOf(request).keyId);
      return presentChunk(longForm.selectTake(task, request.params.index, request.body.take));
    },
  });

  app.post('/api/generate/merge-chunks', {
    config,
    schema: {
      operationId: 'mergeChunks',
      tags,
      summary: 'Merge the selected takes of every chunk into one file: a render that is also the task’s audio',
      description: `Pauses: ${MERGE_DEFAULTS.pauseMs} ms between sentences, ${MERGE_DEFAULTS.paragraphPauseMs} ms after a paragraph; loudness ${MERGE_DEFAULTS.targetLufs} LUFS. Sentence times of the merged file: GET /api/tasks/{task_id}/subtitles.`,
      body: MergeBody,
      response: withErrors(
        { 200: binaryResponse(MERGED_AUDIO, AUDIO_MEDIA_TYPES, HEADERS.taskId, HEADERS.audioDuration, RENDER_ID_HEADER) },
        JOB_ERRORS,
        TASK_ERRORS,
        { 409: ['chunks_not_ready'] },
      ),
    },
    handler: async (request, reply) => {
      const { task_id: taskId, format, pause_ms: pauseMs, paragraph_pause_ms: paragraphPauseMs, crossfade_ms: crossfadeMs, normalize } = request.body;
      const keyId = callerOf(request).keyId;
      const task = tasks.owned(taskId, keyId);
      const merged = await longForm.merge(task, { format: format ?? 'wav', pauseMs, paragraphPauseMs, crossfadeMs, normalize }, keyId);
      return reply
        .header('x-task-id', taskId)
        .header('x-render-id', merged.render.id)
        .header('x-audio-duration', String(merged.render.duration ?? 0))
        .type(merged.contentType)
        .send(merged.audio);
    },
  });

  // The contract's chunk route counts against tts:generate; the same chunk as a read of the task
  // counts in task_reads, so the studio can draw and play every chunk without spending generations.
  for (const route of CHUNK_AUDIO_ROUTES) {
    app.get(route.url, {
      config: route.config,
      schema: {
        operationId: route.operationId,
        tags,
        summary: route.summary,
        params: Type.Object({ task_id: Type.String({ minLength: 1 }), index: Type.Integer({ minimum: 0 }) }),
        querystring: Type.Object({ take: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false }),
        response: withErrors(
          {
            200: binaryResponse(
              'The chunk’s audio (WAV), named `<name> - chunk <index + 1>.wav`',
              ['audio/wav'],
              HEADERS.taskId,
              HEADERS.audioDuration,
              HEADERS.chunkTake,
              HEADERS.contentDisposition,
            ),
          },
          TASK_ERRORS,
          { 409: ['chunk_not_ready'] },
        ),
      },
      handler: async (request, reply) => {
        const task = tasks.owned(request.params.task_id, callerOf(request).keyId);
        const { take, audio } = await longForm.chunkAudio(task, request.params.index, request.query.take);
        return reply
          .header('x-task-id', task.id)
          .header('x-audio-duration', String(take.duration ?? 0))
          .header('x-chunk-take', String(take.take))
          .header('content-disposition', contentDisposition(tasks.downloadName(task, `chunk ${request.params.index + 1}`, 'wav')))
          .type('audio/wav')
          .send(audio);
      },
    });
  }
};
