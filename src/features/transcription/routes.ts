import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { uploadTempDir, type AssetService } from '../assets/index.js';
import { TranscriptionResultSchema, type Timestamps, type TranscriptionResult, type TranscriptionService } from './service.js';
import { renderTextTranscript } from './formats.js';
import { assetTranscription } from './asset-request.js';
import { callerOf } from '../access/index.js';
import { LANGUAGE_TAG } from '../../platform/http/schemas.js';
import { JOB_ERRORS, UPLOAD_ERRORS, withErrors } from '../../platform/http/responses.js';
import { multipartForm } from '../../platform/http/multipart-body.js';
import { receiveUpload } from '../../platform/http/uploads.js';

const TIMESTAMPS = ['none', 'segment', 'word'] as const;
const FORMATS = ['json', 'text', 'srt', 'vtt'] as const;
const ASSET_ID = /^asset_[A-Za-z0-9_-]+$/;

const OptionFields = {
  language: Type.Optional(Type.String({ pattern: LANGUAGE_TAG.source, description: 'BCP-47; detected when absent' })),
  timestamps: Type.Optional(Type.Unsafe<Timestamps>({ type: 'string', enum: [...TIMESTAMPS], default: 'segment' })),
  format: Type.Optional(Type.Unsafe<(typeof FORMATS)[number]>({ type: 'string', enum: [...FORMATS], default: 'json' })),
};
const FORM_FIELDS = { language: 'BCP-47; detected when absent', timestamps: 'none | segment | word', format: 'json | text | srt | vtt' };

interface Options {
  assetId?: string;
  language?: string;
  timestamps: Timestamps;
  format: (typeof FORMATS)[number];
}

/** The same rules for JSON bodies and multipart fields, reported like schema failures. */
function readOptions(fields: Record<string, unknown>, needAsset: boolean): Options {
  const problems: { field: string; message: string }[] = [];
  const text = (name: string) => {
    const value = fields[name];
    return value === undefined || value === '' ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
  };
  const known = new Set(['asset_id', 'language', 'timestamps', 'format']);
  for (const name of Object.keys(fields)) if (!known.has(name)) problems.push({ field: `body.${name}`, message: 'is not a known field' });
  const assetId = text('asset_id');
  if (needAsset && !assetId) problems.push({ field: 'body.asset_id', message: 'is required without an uploaded file' });
  if (assetId && !ASSET_ID.test(assetId)) problems.push({ field: 'body.asset_id', message: 'is not an asset id' });
  const language = text('language');
  if (language && !LANGUAGE_TAG.test(language)) problems.push({ field: 'body.language', message: 'must be a BCP-47 language code' });
  const timestamps = text('timestamps') ?? 'segment';
  if (!(TIMESTAMPS as readonly string[]).includes(timestamps)) problems.push({ field: 'body.timestamps', message: `must be one of ${TIMESTAMPS.join(', ')}` });
  const format = text('format') ?? 'json';
  if (!(FORMATS as readonly string[]).includes(format)) problems.push({ field: 'body.format', message: `must be one of ${FORMATS.join(', ')}` });
  if (problems.length > 0)
    throw new ApiError(400, 'invalid_request', `Invalid request: ${problems.map((problem) => `${problem.field} ${problem.message}`).join('; ')}`, {
      fields: problems,
    });
  return { assetId, language, timestamps: timestamps as Timestamps, format: format as Options['format'] };
}

export const transcribeRoutes: FastifyPluginAsyncTypebox<{ transcription: TranscriptionService; assets: AssetService; dataDir: string }> = async (
  app,
  { transcription, assets, dataDir },
) => {
  /** The asset to transcribe: an uploaded file becomes an asset of the caller, or an existing one by id. */
  async function input(request: FastifyRequest, keyId: string) {
    if (request.isMultipart()) {
      const upload = await receiveUpload(request, uploadTempDir(dataDir));
      const options = readOptions(upload.fields, false);
      const asset = await assets.importFile(upload.tempPath, { origin: 'upload', originalName: upload.originalName }, keyId);
      return { asset, options };
    }
    const options = readOptions((request.body ?? {}) as Record<string, unknown>, true);
    return { asset: assets.get(options.assetId!, keyId), options };
  }

  app.post('/api/transcribe', {
    config: { scope: 'audio:process' },
    schema: {
      operationId: 'transcribe',
      tags: ['Audio'],
      summary: 'Transcribe audio with the best installed recognizer',
      description:
        'multipart/form-data with `file` (it becomes an asset) or JSON with `asset_id`; fields `language` (detected when absent), ' +
        '`timestamps` (none | segment | word, default segment), `format` (json | text | srt | vtt, default json).',
      body: {
        content: {
          'application/json': {
            schema: Type.Object({ asset_id: Type.String({ pattern: ASSET_ID.source }), ...OptionFields }, { additionalProperties: false }),
          },
          'multipart/form-data': { schema: multipartForm(FORM_FIELDS, { name: 'file', description: 'Audio or video in any format ffmpeg reads' }) },
        },
      },
      response: withErrors(
        {
          200: {
            description: 'The transcript: JSON (default), plain text, SRT or WebVTT, as `format` asks',
            content: {
              'application/json': { schema: Type.Object({ ...TranscriptionResultSchema.properties, asset_id: Type.String() }) },
              'text/plain': { schema: { type: 'string' } },
              'application/x-subrip': { schema: { type: 'string' } },
              'text/vtt': { schema: { type: 'string' } },
            },
          },
        },
        JOB_ERRORS,
        UPLOAD_ERRORS,
        { 404: ['asset_not_found'], 415: ['media_unreadable', 'audio_unreadable'] },
      ),
    },
    handler: async (request, reply) => {
      const keyId = callerOf(request).keyId;
      const { asset, options } = await input(request, keyId);
      const timestamps = options.format === 'srt' || options.format === 'vtt' ? 'segment' : options.timestamps;
      const result = await transcription.transcribe(assetTranscription(assets, asset, { language: options.language, timestamps }), keyId);
      return send(reply, options.format, result, asset.id);
    },
  });
};

function send(reply: import('fastify').FastifyReply, format: Options['format'], result: TranscriptionResult, assetId: string) {
  if (format === 'json') return reply.type('application/json; charset=utf-8').send(JSON.stringify({ ...result, asset_id: assetId }));
  const { contentType, body } = renderTextTranscript(format, result);
  return reply.type(contentType).send(body);
}
