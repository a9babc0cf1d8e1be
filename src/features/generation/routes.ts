import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { type GenerationService, type VoiceType } from './service.js';
import { callerOf } from '../access/index.js';
import { CancelledSchema, presentCancelled, languageSchema } from '../../platform/http/schemas.js';
import { AUDIO_MEDIA_TYPES, binaryResponse, CANCEL_ERRORS, HEADERS, JOB_ERRORS, withErrors } from '../../platform/http/responses.js';
import { GENERATION_FORMATS } from '../../platform/speech/speech.js';
import { streamingBody } from '../../platform/http/streaming.js';
import { connectionSignal } from '../../platform/http/connection-signal.js';
import { invalidField } from '../../platform/errors.js';
import { ProjectIdField, type FileInto } from '../projects/index.js';
import { PronunciationIdsField, TextTypeField } from '../../platform/speech/markup.js';
import { timestampedSpeech, TimestampedSpeechSchema } from './timestamped.js';

const GenerateBodySchema = Type.Object(
  {
    voice_id: Type.String({ minLength: 1, maxLength: 200, description: 'Identifier of the voice to speak with' }),
    text: Type.String({ description: 'Text to speak; at most TIMBRE_MAX_TEXT_CHARS characters (default 5000)' }),
    language: Type.Optional(
      languageSchema(
        'BCP-47 language code of the text; the voice must speak it (else 422 language_not_supported). When absent: the voice’s own language, or another language the voice speaks only when the text is confidently in it (see docs/capabilities.md)',
      ),
    ),
    speed: Type.Optional(
      Type.Number({ minimum: 0.25, maximum: 4, description: '1 is the voice’s normal rate; engines speak 0.5 to 2, and the rest is stretched afterwards' }),
    ),
    format: Type.Optional(Type.Unsafe<(typeof GENERATION_FORMATS)[number]>({ type: 'string', enum: [...GENERATION_FORMATS], default: 'wav' })),
    sample_rate: Type.Optional(Type.Integer({ minimum: 8000, maximum: 48000, description: 'Output rate; the voice’s own rate when absent' })),
    seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 })),
    project_id: ProjectIdField,
    text_type: TextTypeField,
    pronunciation_ids: PronunciationIdsField,
    with_timestamps: Type.Optional(
      Type.Boolean({
        description:
          'Answer JSON `{audio_base64, format, sample_rate, duration, task_id, words}` with each word’s start and end in seconds, from the engine or estimated from the audio (`word_source`). Not with `stream` or `async`; the audio is held in memory, so for long texts stream it and read `GET /api/tasks/{task_id}/words`',
      }),
    ),
    async: Type.Optional(Type.Boolean({ description: 'Answer 202 with the task id at once; follow progress on /ws' })),
    stream: Type.Optional(
      Type.Boolean({
        description:
          'Send the audio while it is synthesized, sentence by sentence (chunked transfer; a WAV has the streaming header with unknown sizes). The task still stores the complete file. Closing the connection cancels the synthesis. Not with `async`.',
      }),
    ),
  },
  { additionalProperties: false },
);

const AcceptedSchema = Type.Object({
  task_id: Type.String(),
  job_id: Type.String(),
  status: Type.String(),
  task_url: Type.String(),
  audio_url: Type.String(),
});

const AUDIO_DESCRIPTION =
  'The audio in the requested format: wav, mp3 (audio/mpeg), ogg (Opus), flac, aac (ADTS), or pcm (audio/pcm: raw signed 16-bit little-endian mono at the rate its content type names).';

const ROUTES: { type: VoiceType; operationId: string; summary: string }[] = [
  { type: 'preset', operationId: 'generatePreset', summary: 'Generate speech with a preset voice' },
  { type: 'clone', operationId: 'generateClone', summary: 'Generate speech with a cloned voice' },
  { type: 'design', operationId: 'generateDesign', summary: 'Generate speech with a designed voice' },
];

/** The 200 answer: the audio, or with `with_timestamps` the JSON of it and its words. */
function withTimestampsVariant(audio: ReturnType<typeof binaryResponse>) {
  return { ...audio, content: { ...audio.content, 'application/json': { schema: TimestampedSpeechSchema } } };
}

export const generateRoutes: FastifyPluginAsyncTypebox<{ generation: GenerationService; fileInto: FileInto }> = async (app, { generation, fileInto }) => {
  for (const { type, operationId, summary } of ROUTES) {
    app.post(`/api/generate/${type}`, {
      config: { scope: 'tts:generate' },
      schema: {
        operationId,
        tags: ['Text to speech'],
        summary,
        description: AUDIO_DESCRIPTION,
        body: GenerateBodySchema,
        response: withErrors(
          { 200: withTimestampsVariant(binaryResponse(AUDIO_DESCRIPTION, AUDIO_MEDIA_TYPES, HEADERS.taskId, HEADERS.audioDuration)), 202: AcceptedSchema },
          JOB_ERRORS,
          {
            400: ['text_empty', 'voice_type_mismatch', 'invalid_ssml', 'too_many_dictionaries'],
            404: ['voice_not_found', 'project_not_found', 'pronunciation_not_found'],
            413: ['text_too_long'],
            422: ['audio_too_long', 'language_not_supported'],
            503: ['voice_unavailable'],
          },
        ),
      },
      handler: async (request, reply) => {
        const { body } = request;
        const caller = callerOf(request).keyId;
        const input = {
          voiceId: body.voice_id,
          text: body.text,
          language: body.language,
          speed: body.speed,
          format: body.format,
          sampleRate: body.sample_rate,
          seed: body.seed,
          textType: body.text_type,
          pronunciationIds: body.pronunciation_ids,
          projectId: fileInto(body.project_id, caller),
        };
        if (body.stream && body.async) throw invalidField('body.stream', 'cannot be combined with async');
        if (body.with_timestamps && (body.stream || body.async)) throw invalidField('body.with_timestamps', 'cannot be combined with stream or async');
        if (body.with_timestamps) return timestampedSpeech(await generation.speak(type, input, caller));
        if (body.stream) {
          const { task, audio, contentType } = await generation.stream(type, input, caller, connectionSignal(reply));
          const body = await streamingBody(audio);
          return reply.header('x-task-id', task.id).type(contentType()).send(body);
        }
        if (body.async) {
          const { task, job } = await generation.submit(type, input, caller);
          return reply
            .code(202)
            .send({ task_id: task.id, job_id: job.id, status: job.state, task_url: `/api/tasks/${task.id}`, audio_url: `/api/tasks/${task.id}/audio` });
        }
        const done = await generation.speak(type, input, caller);
        return reply
          .header('x-task-id', done.task.id)
          .header('x-audio-duration', String(done.task.duration ?? 0))
          .header('content-length', String(done.size))
          .type(done.contentType)
          .send(done.audio);
      },
    });
  }

  app.get('/api/generate/limits', {
    config: { scope: 'tts:generate' },
    schema: {
      operationId: 'getGenerationLimits',
      tags: ['Text to speech'],
      summary: 'The limits of one generation: longest text (TIMBRE_MAX_TEXT_CHARS) and longest audio (TIMBRE_MAX_AUDIO_SECONDS)',
      response: withErrors({ 200: Type.Object({ max_text_chars: Type.Integer({ minimum: 1 }), max_audio_seconds: Type.Number() }) }),
    },
    handler: () => generation.limits(),
  });

  app.post('/api/generation/cancel', {
    config: { scope: 'tts:generate' },
    schema: {
      operationId: 'cancelGeneration',
      tags: ['Text to speech'],
      summary: 'Cancel the caller’s queued or running generation, or the one of task_id',
      body: Type.Object({ task_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, { additionalProperties: false }),
      response: withErrors({ 200: CancelledSchema }, CANCEL_ERRORS, { 404: ['no_active_generation'] }),
    },
    handler: async (request) => presentCancelled(await generation.cancel(request.body.task_id, callerOf(request).keyId)),
  });
};
