import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PREVIEW_MAX_CHARS, type PreviewService } from './previews.js';
import { callerOf } from '../access/index.js';
import { withErrors, languageSchema } from '../../platform/http/schemas.js';

const VoiceParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });

const PreviewBodySchema = Type.Object(
  {
    text: Type.Optional(
      Type.String({ description: `Text to speak instead of the language's preview sentence; at most ${PREVIEW_MAX_CHARS} characters (413 text_too_long)` }),
    ),
    language: Type.Optional(languageSchema("BCP-47 language; the voice's own language when absent")),
  },
  { additionalProperties: false },
);

const WAV = { 'audio/wav': { schema: { type: 'string', format: 'binary' } } };
const GENERATE_DESCRIPTION =
  'Renders a short sentence in the voice’s language (or the given text) and records it as the voice’s preview_url. ' +
  'Cached until the voice, its settings, the language or the text change. Headers: X-Voice-Id, X-Audio-Duration (seconds), ' +
  'X-Preview-Cached (true|false), X-Preview-Text (the spoken text, URL-encoded).';
const tags = ['Voices'];
const errors = { 404: Type.Ref('ErrorEnvelope'), 413: Type.Ref('ErrorEnvelope'), 422: Type.Ref('ErrorEnvelope'), 503: Type.Ref('ErrorEnvelope') };

export const previewRoutes: FastifyPluginAsyncTypebox<{ previews: PreviewService }> = async (app, { previews }) => {
  app.post('/api/voices/:id/generate-preview', {
    config: { scope: 'clone:create' },
    schema: {
      tags,
      summary: 'Render and store a short preview of a voice',
      description: GENERATE_DESCRIPTION,
      params: VoiceParamsSchema,
      body: PreviewBodySchema,
      response: withErrors({ 200: { description: GENERATE_DESCRIPTION, content: WAV }, ...errors }),
    },
    // The body may be left out entirely: it then means `{}`.
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request, reply) => {
      const { text, language } = request.body;
      const preview = await previews.generatePreview(request.params.id, { text, language }, callerOf(request).keyId);
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
      tags,
      summary: 'The stored preview of a voice (404 preview_not_found when none was made)',
      params: VoiceParamsSchema,
      response: withErrors({
        200: { description: 'The preview WAV. Headers: X-Voice-Id, X-Audio-Duration (seconds).', content: WAV },
        404: Type.Ref('ErrorEnvelope'),
      }),
    },
    handler: async (request, reply) => {
      const preview = await previews.preview(request.params.id);
      return reply.header('x-voice-id', preview.voiceId).header('x-audio-duration', String(preview.duration)).type('audio/wav').send(preview.audio);
    },
  });
};
