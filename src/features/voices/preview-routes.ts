import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PREVIEW_MAX_CHARS, type PreviewService } from './previews.js';
import { callerOf } from '../access/index.js';
import { languageSchema } from '../../platform/http/schemas.js';
import { binaryResponse, HEADERS, JOB_ERRORS, withErrors } from '../../platform/http/responses.js';
import { PronunciationIdsField, TextTypeField } from '../../platform/speech/markup.js';

const VoiceParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });

const PreviewBodySchema = Type.Object(
  {
    text: Type.Optional(
      Type.String({ description: `Text to speak instead of the language's preview sentence; at most ${PREVIEW_MAX_CHARS} characters (413 text_too_long)` }),
    ),
    language: Type.Optional(
      languageSchema("BCP-47 language; the voice must speak it. When absent: the voice's own, or another it speaks that `text` is confidently in"),
    ),
    text_type: TextTypeField,
    pronunciation_ids: PronunciationIdsField,
  },
  { additionalProperties: false },
);

const GENERATE_DESCRIPTION =
  'Renders a short sentence in the voice’s language (or the given text) and records it as the voice’s preview_url. ' +
  'Cached until the voice, its settings, the language or the text change.';
const tags = ['Voices'];
const NOT_FOUND = { 404: ['voice_not_found'] };

export const previewRoutes: FastifyPluginAsyncTypebox<{ previews: PreviewService }> = async (app, { previews }) => {
  app.post('/api/voices/:id/generate-preview', {
    config: { scope: 'clone:create' },
    schema: {
      operationId: 'generateVoicePreview',
      tags,
      summary: 'Render and store a short preview of a voice',
      description: GENERATE_DESCRIPTION,
      params: VoiceParamsSchema,
      body: PreviewBodySchema,
      response: withErrors(
        { 200: binaryResponse('The preview (WAV)', ['audio/wav'], HEADERS.voiceId, HEADERS.audioDuration, HEADERS.previewCached, HEADERS.previewText) },
        JOB_ERRORS,
        NOT_FOUND,
        {
          400: ['invalid_ssml', 'too_many_dictionaries'],
          404: ['pronunciation_not_found'],
          413: ['text_too_long'],
          422: ['audio_too_long', 'language_not_supported'],
          503: ['voice_unavailable'],
        },
      ),
    },
    // The body may be left out entirely: it then means `{}`.
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request, reply) => {
      const { text, language, text_type: textType, pronunciation_ids: pronunciationIds } = request.body;
      const preview = await previews.generatePreview(request.params.id, { text, language, textType, pronunciationIds }, callerOf(request).keyId);
      return reply
        .header('x-voice-id', preview.voiceId)
        .header('x-audio-duration', String(preview.duration))
        .header('x-preview-cached', String(preview.cached))
        .header('x-preview-text', encodeURIComponent(preview.text))
        .type('audio/wav')
        .send(preview.audio);
    },
  });

  app.get('/api/voices/:id/preview', {
    config: { scope: 'voices:read' },
    schema: {
      operationId: 'getVoicePreview',
      tags,
      summary: 'A short sample of a voice: its stored preview, made on the first request',
      description:
        'Answers the voice’s stored preview. A voice without one gets it made now (its language’s preview sentence, as generate-preview ' +
        'without a body) and stored, so later requests reuse it; concurrent first requests share one rendering. ' +
        'X-Preview-Cached is false only on the request that rendered it.',
      params: VoiceParamsSchema,
      response: withErrors(
        { 200: binaryResponse('The preview (WAV)', ['audio/wav'], HEADERS.voiceId, HEADERS.audioDuration, HEADERS.previewCached) },
        JOB_ERRORS,
        NOT_FOUND,
        { 422: ['audio_too_long'], 503: ['voice_unavailable'] },
      ),
    },
    handler: async (request, reply) => {
      const preview = await previews.preview(request.params.id, callerOf(request).keyId);
      return reply
        .header('x-voice-id', preview.voiceId)
        .header('x-audio-duration', String(preview.duration))
        .header('x-preview-cached', String(preview.cached))
        .type('audio/wav')
        .send(preview.audio);
    },
  });
};
