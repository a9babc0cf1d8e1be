import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MERGE_DEFAULTS } from '../../platform/audio/merge.js';
import { ApiError } from '../../platform/errors.js';
import { GENERATION_FORMATS } from '../../platform/speech/speech.js';
import type { TaskService } from '../tasks/index.js';
import type { LongFormService } from './service.js';
import { chunkUrl } from './jobs.js';
import { presentChunk } from './presentation.js';
import type { SegmentInput } from './plan.js';
import { parseScript } from '../../platform/text/script.js';
import { callerOf } from '../access/index.js';
import { languageSchema } from '../../platform/http/schemas.js';
import { AUDIO_MEDIA_TYPES, binaryResponse, HEADERS, JOB_ERRORS, withErrors } from '../../platform/http/responses.js';

const Language = languageSchema(
  'BCP-47 language of the text. When absent: the voice’s own language, or another language the voice speaks only when the text is confidently in it',
);
const VoiceId = Type.String({ minLength: 1, maxLength: 200 });
const Text = Type.String({ minLength: 1 });
const Common = {
  speed: Type.Optional(Type.Number({ minimum: 0.5, maximum: 2 })),
  seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1, description: 'One seed for every chunk; random when absent' })),
  max_chars: Type.Optional(Type.Integer({ minimum: 20, maximum: 5000, description: 'Longest chunk; longer sentences are split at clauses (default 400)' })),
};

const ChunkedBody = Type.Object({ voice_id: VoiceId, text: Text, language: Type.Optional(Language), ...Common }, { additionalProperties: false });

const MultiVoiceBody = Type.Object(
  {
    segments: Type.Optional(
      Type.Array(Type.Object({ voice_id: VoiceId, text: Text, language: Type.Optional(Language) }, { additionalProperties: false }), {
        minItems: 1,
        maxItems: 1000,
      }),
    ),
    script: Type.Optional(Type.String({ minLength: 1, description: 'Lines of `Name: text`; see `voices`' })),
    voices: Type.Optional(Type.Record(Type.String(), VoiceId, { description: 'Speaker name → voice id, for `script`' })),
    language: Type.Optional(languageSchema('The language of every line of `script`; absent: each line in its voice’s language')),
    ...Common,
  },
  { additionalProperties: false },
);

const MultiLangBody = Type.Object(
  {
    voice_id: VoiceId,
    segments: Type.Optional(
      Type.Array(Type.Object({ text: Text, language: Type.Optional(Language), voice_id: Type.Optional(VoiceId) }, { additionalProperties: false }), {
        minItems: 1,
        maxItems: 1000,
      }),
    ),
    text: Type.Optional(Type.String({ minLength: 1, description: 'One text; the language of each sentence is detected' })),
    languages: Type.Optional(Type.Array(Language, { minItems: 1, description: 'Languages detection may choose from' })),
    ...Common,
  },
  { additionalProperties: false },
);

const RegenerateBody = Type.Object(
  {
    task_id: Type.String({ minLength: 1 }),
    index: Type.Integer({ minimum: 0 }),
    text: Type.Optional(Text),
    voice_id: Type.Optional(VoiceId),
    seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 })),
  },
  { additionalProperties: false },
);

const MergeBody = Type.Object(
  {
    task_id: Type.String({ minLength: 1 }),
    format: Type.Optional(Type.Unsafe<(typeof GENERATION_FORMATS)[number]>({ type: 'string', enum: [...GENERATION_FORMATS], default: 'wav' })),
    pause_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: MERGE_DEFAULTS.pauseMs })),
    paragraph_pause_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: MERGE_DEFAULTS.paragraphPauseMs })),
    crossfade_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 2000, default: MERGE_DEFAULTS.crossfadeMs, description: 'Applies where the pause is 0' })),
    normalize: Type.Optional(Type.Boolean({ default: true, description: `Loudness to ${MERGE_DEFAULTS.targetLufs} LUFS` })),
  },
  { additionalProperties: false },
);

const ChunkedAcceptedSchema = Type.Object(
  { task_id: Type.String(), job_id: Type.String(), status: Type.String(), task_url: Type.String(), chunks: Type.Array(Type.Ref('Chunk')) },
  { description: 'The task with its chunks; follow `job.progress` (with `chunk_index`) on /ws' },
);
const RegenerateAcceptedSchema = Type.Object({
  task_id: Type.String(),
  index: Type.Integer(),
  take: Type.Integer({ description: 'The new take, now selected' }),
  job_id: Type.String(),
  status: Type.String(),
  audio_url: Type.String(),
});
const CHUNKED_ERRORS = {
  400: ['text_empty', 'script_invalid', 'voice_type_mismatch'],
  404: ['voice_not_found'],
  413: ['text_too_long'],
  422: ['language_not_supported', 'audio_too_long'],
  503: ['queue_full', 'voice_unavailable'],
};
const TASK_ERRORS = { 404: ['task_not_found', 'chunk_not_found', 'take_not_found'] };
const MERGED_AUDIO = 'The merged audio in the requested format (pcm: 16-bit little-endian mono at the rate in its content type)';
const config = { scope: 'tts:generate' } as const;
const tags = ['Long-form'];

export const longFormRoutes: FastifyPluginAsyncTypebox<{
  longForm: LongFormService;
  tasks: TaskService;
  findVoice: (id: string) => Promise<SegmentInput['voice']>;
}> = async (app, { longForm, tasks, findVoice }) => {
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
      const { voice_id: voiceId, text, language, speed, seed, max_chars: maxChars } = request.body;
      const voice = await findVoice(voiceId);
      const result = await longForm.start([{ voice, text, language }], { speed, seed, maxChars }, callerOf(request).keyId);
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
      const { segments, script, voices, language, speed, seed, max_chars: maxChars } = request.body;
      if (!segments === !script)
        throw new ApiError(400, 'invalid_request', 'Send either segments or script (with voices)', {
          fields: [{ field: 'body.segments', message: 'or body.script' }],
        });
      const parts = segments ?? parseScript(script!, voices ?? {}).map((line) => ({ voice_id: line.voice_id, text: line.text, language }));
      const inputs: SegmentInput[] = [];
      for (const part of parts) inputs.push({ voice: await findVoice(part.voice_id), text: part.text, language: part.language });
      return reply.code(202).send(accepted(await longForm.start(inputs, { speed, seed, maxChars }, callerOf(request).keyId)));
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
      const { voice_id: voiceId, segments, text, languages, speed, seed, max_chars: maxChars } = request.body;
      if (!segments === !text)
        throw new ApiError(400, 'invalid_request', 'Send either segments or text', { fields: [{ field: 'body.segments', message: 'or body.text' }] });
      const inputs: SegmentInput[] = [];
      for (const part of segments ?? []) inputs.push({ voice: await findVoice(part.voice_id ?? voiceId), text: part.text, language: part.language });
      if (text !== undefined) inputs.push({ voice: await findVoice(voiceId), text, detectPerSentence: true });
      return reply.code(202).send(accepted(await longForm.start(inputs, { speed, seed, maxChars, candidates: languages }, callerOf(request).keyId)));
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
      summary: 'Merge the selected takes of every chunk into one file (recorded on the task)',
      description: `Pauses: ${MERGE_DEFAULTS.pauseMs} ms between sentences, ${MERGE_DEFAULTS.paragraphPauseMs} ms after a paragraph; loudness ${MERGE_DEFAULTS.targetLufs} LUFS. Sentence times of the merged file: GET /api/tasks/{task_id}/subtitles.`,
      body: MergeBody,
      response: withErrors({ 200: binaryResponse(MERGED_AUDIO, AUDIO_MEDIA_TYPES, HEADERS.taskId, HEADERS.audioDuration) }, JOB_ERRORS, TASK_ERRORS, {
        409: ['chunks_not_ready'],
      }),
    },
    handler: async (request, reply) => {
      const { task_id: taskId, format, pause_ms: pauseMs, paragraph_pause_ms: paragraphPauseMs, crossfade_ms: crossfadeMs, normalize } = request.body;
      const keyId = callerOf(request).keyId;
      const task = tasks.owned(taskId, keyId);
      const merged = await longForm.merge(task, { format: format ?? 'wav', pauseMs, paragraphPauseMs, crossfadeMs, normalize }, keyId);
      return reply
        .header('x-task-id', taskId)
        .header('x-audio-duration', String(merged.task.duration ?? 0))
        .type(merged.contentType)
        .send(merged.audio);
    },
  });

  app.get('/api/audio/chunk/:task_id/:index', {
    config,
    schema: {
      operationId: 'getChunkAudio',
      tags,
      summary: 'A finished chunk (WAV), while later chunks may still be running',
      params: Type.Object({ task_id: Type.String({ minLength: 1 }), index: Type.Integer({ minimum: 0 }) }),
      querystring: Type.Object({ take: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false }),
      response: withErrors(
        { 200: binaryResponse('The chunk’s audio (WAV)', ['audio/wav'], HEADERS.taskId, HEADERS.audioDuration, HEADERS.chunkTake) },
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
        .type('audio/wav')
        .send(audio);
    },
  });
};
