import { rm } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TObject } from 'typebox';
import { uploadTempDir, type AssetService } from '../assets/index.js';
import { renderTextTranscript, type TranscriptionResult } from '../transcription/index.js';
import { ApiError } from '../../platform/errors.js';
import { multipartAsBody } from '../../platform/http/multipart-body.js';
import type { UploadedFile } from '../../platform/http/uploads.js';

/** OpenAI's speech-to-text answer formats, of transcriptions and translations alike. */
export type TranscriptFormat = 'json' | 'text' | 'srt' | 'verbose_json' | 'vtt';

type Asset = Awaited<ReturnType<AssetService['importFile']>>;

/**
 * The multipart form of OpenAI's speech-to-text routes: `file` goes to the uploads folder and the
 * text fields become the body, validated by the route's schema. A refused request's file is removed
 * before the error is answered; an accepted one becomes an asset of the caller.
 */
export function audioForm(app: FastifyInstance, options: { schema: TObject; assets: AssetService; dataDir: string }) {
  const uploads = new WeakMap<FastifyRequest, UploadedFile>();

  app.addHook('onError', async (request) => {
    const file = uploads.get(request);
    uploads.delete(request);
    if (file) await rm(file.tempPath, { force: true });
  });

  return {
    /** The route's preValidation. */
    receive: async (request: FastifyRequest): Promise<void> => {
      if (!request.isMultipart()) throw new ApiError(415, 'unsupported_media_type', 'Send the audio as multipart/form-data with the field file');
      const [file] = await multipartAsBody(request, options.schema, uploadTempDir(options.dataDir), 1);
      if (file) uploads.set(request, file);
    },
    /** The uploaded file, kept as the caller's asset. */
    asset: async (request: FastifyRequest, keyId: string): Promise<Asset> => {
      const file = uploads.get(request);
      if (!file) throw new ApiError(400, 'file_missing', 'The request carries no file part (send it as the form field "file")');
      uploads.delete(request);
      return options.assets.importFile(file.tempPath, { origin: 'upload', originalName: file.originalName }, keyId);
    },
  };
}

/** Word timing only where the format shows it, segments for subtitles, neither for plain text. */
export function timestampsFor(format: TranscriptFormat, words: boolean) {
  if (format === 'verbose_json') return words ? ('word' as const) : ('segment' as const);
  return format === 'srt' || format === 'vtt' ? ('segment' as const) : ('none' as const);
}

/** Answers a transcript in `format`: the JSON shapes given, or text, SubRip or WebVTT. */
export function sendTranscript(
  reply: FastifyReply,
  format: TranscriptFormat,
  result: TranscriptionResult,
  json: { plain(result: TranscriptionResult): object; verbose(result: TranscriptionResult): object },
): FastifyReply {
  if (format === 'json' || format === 'verbose_json') {
    const body = format === 'json' ? json.plain(result) : json.verbose(result);
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
  }
  const text = renderTextTranscript(format, result);
  return reply.type(text.contentType).send(text.body);
}
