import { rm } from 'node:fs/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { callerOf } from '../access/index.js';
import { uploadTempDir, type AssetService } from '../assets/index.js';
import { assetTranscription, renderTextTranscript, type TranscriptionService } from '../transcription/index.js';
import { ApiError, invalidField } from '../../platform/errors.js';
import { multipartAsBody, withFileParts } from '../../platform/http/multipart-body.js';
import { JOB_ERRORS, UPLOAD_ERRORS, withErrors } from '../../platform/http/responses.js';
import type { UploadedFile } from '../../platform/http/uploads.js';
import { openAiResponses } from './errors.js';
import type { OpenAiService } from './service.js';
import { jsonTranscript, verboseTranscript } from './transcript.js';
import { TranscriptionFieldsSchema, TranscriptResponse, type TranscriptionFields } from './transcription-schemas.js';

interface Options {
  openai: OpenAiService;
  transcription: Pick<TranscriptionService, 'transcribe'>;
  assets: AssetService;
  dataDir: string;
}

/** Word timing only where the format shows it, segments for subtitles, neither for plain text. */
function timestampsFor(format: NonNullable<TranscriptionFields['response_format']>) {
  if (format === 'verbose_json') return 'word' as const;
  return format === 'srt' || format === 'vtt' ? ('segment' as const) : ('none' as const);
}

export const transcriptionRoutes: FastifyPluginAsyncTypebox<Options> = async (app, { openai, transcription, assets, dataDir }) => {
  const uploads = new WeakMap<FastifyRequest, UploadedFile>();

  /** The file goes to the uploads folder and the text fields become the body, validated by the schema. */
  const receive = async (request: FastifyRequest) => {
    if (!request.isMultipart()) throw new ApiError(415, 'unsupported_media_type', 'Send the audio as multipart/form-data with the field file');
    const [file] = await multipartAsBody(request, TranscriptionFieldsSchema, uploadTempDir(dataDir), 1);
    if (file) uploads.set(request, file);
  };

  // A refused request's file is removed before the error is answered; an accepted one became an asset.
  app.addHook('onError', async (request) => {
    const file = uploads.get(request);
    uploads.delete(request);
    if (file) await rm(file.tempPath, { force: true });
  });

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
    preValidation: receive,
    handler: async (request, reply) => {
      const body = request.body;
      if (body.stream === true) throw invalidField('body.stream', 'is not supported: the transcript is answered whole');
      const keyId = callerOf(request).keyId;
      const recognizer = await openai.recognizer(body.model);
      const file = uploads.get(request);
      if (!file) throw new ApiError(400, 'file_missing', 'The request carries no file part (send it as the form field "file")');
      uploads.delete(request);
      const asset = await assets.importFile(file.tempPath, { origin: 'upload', originalName: file.originalName }, keyId);
      const format = body.response_format ?? 'json';
      const options = { timestamps: timestampsFor(format), ...(body.language ? { language: body.language } : {}), ...(recognizer ? { recognizer } : {}) };
      const result = await transcription.transcribe(assetTranscription(assets, asset, options), keyId);
      if (format === 'json' || format === 'verbose_json') {
        const transcript = format === 'json' ? jsonTranscript(result) : verboseTranscript(result);
        return reply.type('application/json; charset=utf-8').send(JSON.stringify(transcript));
      }
      const text = renderTextTranscript(format, result);
      return reply.type(text.contentType).send(text.body);
    },
  });
};
