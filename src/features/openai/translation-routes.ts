import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../access/index.js';
import { assetTranscription } from '../transcription/index.js';
import { ApiError } from '../../platform/errors.js';
import { withFileParts } from '../../platform/http/multipart-body.js';
import { JOB_ERRORS, UPLOAD_ERRORS, withErrors } from '../../platform/http/responses.js';
import { audioForm, sendTranscript, timestampsFor } from './audio-form.js';
import { englishLanguageName } from './catalog.js';
import { openAiResponses } from './errors.js';
import { jsonTranslation, verboseTranslation } from './transcript.js';
import type { SpeechToTextOptions } from './transcription-routes.js';
import { TRANSLATION_DESCRIPTION, TranslationFieldsSchema, TranslationResponse, type TranslationFields } from './translation-schemas.js';
import { primaryLanguage } from '../../platform/text/language-tag.js';

const isEnglish = (language: string) => primaryLanguage(language) === 'en';

/**
 * Speech in a language other than English: the recognizers installed here transcribe and none
 * translates (sherpa-onnx's multilingual Whisper could, with its `translate` task; Timbre's Whisper
 * engine runs `transcribe` only).
 */
function translationNotSupported(language: string): ApiError {
  const name = englishLanguageName(language);
  return new ApiError(
    422,
    'translation_not_supported',
    `The speech is in ${name.charAt(0).toUpperCase()}${name.slice(1)} (${language}) and no installed recognizer translates it into English; /v1/audio/transcriptions gives its text in ${language}`,
    { language },
  );
}

/**
 * OpenAI's translations: English text from speech. The transcription route's upload, recognizer
 * choice and formats, with the recognizer's language checked to be English.
 */
export const translationRoutes: FastifyPluginAsyncTypebox<SpeechToTextOptions> = async (app, { openai, transcription, assets, dataDir }) => {
  const form = audioForm(app, { schema: TranslationFieldsSchema, assets, dataDir });

  app.post<{ Body: TranslationFields }>('/v1/audio/translations', {
    config: { scope: 'audio:process' },
    schema: {
      operationId: 'openAiCreateTranslation',
      tags: ['Audio'],
      summary: 'OpenAI-compatible translation into English (audio.translations.create)',
      description: TRANSLATION_DESCRIPTION,
      body: {
        content: { 'multipart/form-data': { schema: withFileParts(TranslationFieldsSchema, { name: 'file', description: 'The audio', many: false }) } },
      },
      response: openAiResponses(
        withErrors({ 200: TranslationResponse }, JOB_ERRORS, UPLOAD_ERRORS, {
          404: ['model_not_found'],
          413: ['payload_too_large'],
          415: ['unsupported_media_type', 'media_unreadable', 'audio_unreadable'],
          422: ['translation_not_supported'],
        }),
      ),
    },
    preValidation: form.receive,
    handler: async (request, reply) => {
      const body = request.body;
      const keyId = callerOf(request).keyId;
      const recognizer = await openai.recognizer(body.model);
      if (body.language !== undefined && !isEnglish(body.language)) throw translationNotSupported(body.language);
      const asset = await form.asset(request, keyId);
      const format = body.response_format ?? 'json';
      const options = {
        timestamps: timestampsFor(format, false),
        ...(body.language ? { language: body.language } : {}),
        ...(recognizer ? { recognizer } : {}),
      };
      const result = await transcription.transcribe(assetTranscription(assets, asset, options), keyId);
      if (!isEnglish(result.language)) throw translationNotSupported(result.language);
      return sendTranscript(reply, format, result, { plain: jsonTranslation, verbose: verboseTranslation });
    },
  });
};
