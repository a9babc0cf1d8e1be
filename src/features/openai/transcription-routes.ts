import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../access/index.js';
import type { AssetService } from '../assets/index.js';
import { assetTranscription, type TranscriptionService } from '../transcription/index.js';
import { invalidField } from '../../platform/errors.js';
import { withFileParts } from '../../platform/http/multipart-body.js';
import { JOB_ERRORS, UPLOAD_ERRORS, withErrors } from '../../platform/http/responses.js';
import { audioForm, sendTranscript, timestampsFor } from './audio-form.js';
import { openAiResponses } from './errors.js';
import type { OpenAiService } from './service.js';
import { jsonTranscript, verboseTranscript } from './transcript.js';
import { TranscriptionFieldsSchema, TranscriptResponse, type TranscriptionFields } from './transcription-schemas.js';

export interface SpeechToTextOptions {
  openai: OpenAiService;
  transcription: Pick<TranscriptionService, 'transcribe'>;
  assets: AssetService;
  dataDir: string;
}

export const transcriptionRoutes: FastifyPluginAsyncTypebox<SpeechToTextOptions> = async (app, { openai, transcription, assets, dataDir }) => {
  const form = audioForm(app, { schema: TranscriptionFieldsSchema, assets, dataDir });

  // The multipart form's schema sits under its content type, where the type provider does not look; the body is the fields.
  app.post<{ Body: TranscriptionFields }>('/v1/audio/transcriptions', {
    config: { scope: 'audio:process' },
    schema: {
      operationId: 'openAiCreateTranscription',
      tags: ['Audio'],
      summary: 'OpenAI-compatible transcription (audio.transcriptions.create)',
      description: 'multipart/form-data: `file` (audio or video in any format ffmpeg reads; it becomes an asset of the caller) and the fields below.',
      body: {
        content: { 'multipart/form-data': { schema: withFileParts(TranscriptionFieldsSchema, { name: 'file', description: 'The audio', many: false }) } },
      },
      response: openAiResponses(
        withErrors({ 200: TranscriptResponse }, JOB_ERRORS, UPLOAD_ERRORS, {
          404: ['model_not_found'],
          413: ['payload_too_large'],
          415: ['unsupported_media_type', 'media_unreadable', 'audio_unreadable'],
        }),
      ),
    },
    preValidation: form.receive,
    handler: async (request, reply) => {
      const body = request.body;
      if (body.stream === true) throw invalidField('body.stream', 'is not supported: the transcript is answered whole');
      const keyId = callerOf(request).keyId;
      const recognizer = await openai.recognizer(body.model);
      const asset = await form.asset(request, keyId);
      const format = body.response_format ?? 'json';
      const options = { timestamps: timestampsFor(format, true), ...(body.language ? { language: body.language } : {}), ...(recognizer ? { recognizer } : {}) };
      const result = await transcription.transcribe(assetTranscription(assets, asset, options), keyId);
      return sendTranscript(reply, format, result, { plain: jsonTranscript, verbose: verboseTranscript });
    },
  });
};
