import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { realpath, rm, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { isInside } from '../../platform/util/files.js';
import { Type } from 'typebox';
import { probeAudio, type AudioInfo } from '../../platform/audio/probe.js';
import { ApiError } from '../../platform/errors.js';
import { presentAsset, shortFormat, uploadTempDir, type AssetService } from './service.js';
import { callerOf } from '../access/index.js';
import { Nullable, TimestampSchema } from '../../platform/http/schemas.js';
import { UPLOAD_ERRORS, withErrors } from '../../platform/http/responses.js';
import { receiveUpload } from '../../platform/http/uploads.js';
import { multipartForm } from '../../platform/http/multipart-body.js';

export const AssetSchema = Type.Object(
  {
    asset_id: Type.String(),
    origin: Type.Unsafe<'upload' | 'download'>({ type: 'string', enum: ['upload', 'download'] }),
    original_name: Nullable(Type.String()),
    source_url: Nullable(Type.String()),
    format: Nullable(Type.String({ description: 'Container, also the stored extension: wav, mp3, ogg, flac, m4a, …' })),
    codec: Nullable(Type.String()),
    duration: Nullable(Type.Number({ description: 'seconds' })),
    sample_rate: Nullable(Type.Integer()),
    channels: Nullable(Type.Integer()),
    size_bytes: Type.Integer(),
    sha256: Type.String(),
    created_at: TimestampSchema,
    last_used_at: TimestampSchema,
  },
  { $id: 'Asset' },
);

const DurationSchema = Type.Object({
  duration: Nullable(Type.Number({ description: 'Seconds, from the container or stream header less declared encoder padding' })),
  format: Type.String(),
  codec: Type.String(),
  sample_rate: Type.Integer(),
  channels: Type.Integer(),
  bit_rate: Nullable(Type.Integer()),
  source: Type.Unsafe<'upload' | 'asset' | 'path'>({ type: 'string', enum: ['upload', 'asset', 'path'] }),
});

const DurationJsonBody = Type.Object(
  {
    asset_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    path: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'Absolute path; only when TIMBRE_LOCAL_PATH_ROOTS is set' })),
  },
  { additionalProperties: false, minProperties: 1, maxProperties: 1 },
);

const MultipartFileBody = multipartForm({}, { name: 'file', description: 'Audio in any format ffmpeg reads' });

const AssetParams = Type.Object({ asset_id: Type.String({ minLength: 1, maxLength: 64 }) });
const config = { scope: 'audio:process' } as const;
const tags = ['Assets'];

export const assetRoutes: FastifyPluginAsyncTypebox<{ assets: AssetService; dataDir: string; localPathRoots: readonly string[] }> = async (app, options) => {
  const { assets } = options;
  const tempDir = uploadTempDir(options.dataDir);

  app.post('/api/assets', {
    config,
    schema: {
      operationId: 'uploadAsset',
      tags,
      summary: 'Upload an audio file as an asset',
      description: `Any format ffmpeg reads; at most TIMBRE_MAX_UPLOAD_BYTES. Assets are private to the key that made them and deleted after TIMBRE_ASSET_RETENTION_DAYS unused.`,
      body: { content: { 'multipart/form-data': { schema: MultipartFileBody } } },
      response: withErrors({ 201: Type.Ref('Asset') }, UPLOAD_ERRORS, { 415: ['audio_unreadable'] }),
    },
    handler: async (request, reply) => {
      const upload = await receiveUpload(request, tempDir);
      const asset = await assets.importFile(upload.tempPath, { origin: 'upload', originalName: upload.originalName }, callerOf(request).keyId);
      return reply.code(201).send(presentAsset(asset));
    },
  });

  app.get('/api/assets', {
    config,
    schema: {
      operationId: 'listAssets',
      tags,
      summary: 'List the calling key’s assets, newest first',
      response: withErrors({ 200: Type.Object({ assets: Type.Array(Type.Ref('Asset')) }) }),
    },
    handler: async (request) => ({ assets: assets.list(callerOf(request).keyId).map(presentAsset) }),
  });

  app.get('/api/assets/:asset_id', {
    config,
    schema: {
      operationId: 'getAsset',
      tags,
      summary: 'Describe an asset',
      params: AssetParams,
      response: withErrors({ 200: Type.Ref('Asset') }, { 404: ['asset_not_found'] }),
    },
    handler: async (request) => presentAsset(assets.get(request.params.asset_id, callerOf(request).keyId)),
  });

  app.delete('/api/assets/:asset_id', {
    config,
    schema: {
      operationId: 'deleteAsset',
      tags,
      summary: 'Delete an asset and its file',
      params: AssetParams,
      response: withErrors({ 204: Type.Null() }, { 404: ['asset_not_found'] }),
    },
    handler: async (request, reply) => {
      await assets.delete(request.params.asset_id, callerOf(request).keyId);
      return reply.code(204).send(null);
    },
  });

  app.post('/api/audio-duration', {
    config,
    schema: {
      operationId: 'probeAudio',
      tags,
      summary: 'Duration, format, codec, rate and channels of audio',
      description:
        'A multipart upload (field "file"; probed, then removed), `{"asset_id"}`, or `{"path"}` (only inside TIMBRE_LOCAL_PATH_ROOTS). ' +
        'Reads the container and stream headers, never decoding the whole file.',
      body: { content: { 'application/json': { schema: DurationJsonBody }, 'multipart/form-data': { schema: MultipartFileBody } } },
      response: withErrors({ 200: DurationSchema }, UPLOAD_ERRORS, {
        415: ['audio_unreadable'],
        403: ['local_paths_disabled', 'path_not_allowed'],
        404: ['asset_not_found', 'file_not_found'],
      }),
    },
    handler: async (request) => {
      if (request.isMultipart()) {
        const upload = await receiveUpload(request, tempDir);
        try {
          return present(await probeAudio(upload.tempPath), 'upload', upload.originalName);
        } finally {
          await rm(upload.tempPath, { force: true });
        }
      }
      // Without a content type Fastify validates no body at all.
      const body = request.body as { asset_id?: string; path?: string } | undefined;
      if (!body)
        throw new ApiError(400, 'invalid_request', 'Send a multipart file, or a JSON body with asset_id or path', {
          fields: [{ field: 'body', message: 'is required' }],
        });
      if (body.asset_id !== undefined) {
        const asset = assets.get(body.asset_id, callerOf(request).keyId);
        return present(await probeAudio(assets.absolutePath(asset)), 'asset', asset.originalName);
      }
      const path = await allowedLocalPath(body.path ?? '', options.localPathRoots);
      return present(await probeAudio(path), 'path', path);
    },
  });
};

function present(info: AudioInfo, source: 'upload' | 'asset' | 'path', name: string | null | undefined) {
  return {
    duration: info.duration,
    format: shortFormat(info, name),
    codec: info.codec,
    sample_rate: info.sampleRate,
    channels: info.channels,
    bit_rate: info.bitRate === null ? null : Math.round(info.bitRate),
    source,
  };
}

/**
 * The real path (symlinks followed) of a file inside one of the configured roots. A path outside
 * them is refused whether or not it exists, so the answer reveals nothing about other folders.
 */
async function allowedLocalPath(path: string, roots: readonly string[]): Promise<string> {
  if (roots.length === 0) throw new ApiError(403, 'local_paths_disabled', 'Reading local paths is disabled (set TIMBRE_LOCAL_PATH_ROOTS)');
  if (!isAbsolute(path)) throw new ApiError(400, 'invalid_request', 'path must be absolute', { fields: [{ field: 'body.path', message: 'must be absolute' }] });
  const realRoots = await Promise.all(roots.map((root) => realpath(resolve(root)).catch(() => resolve(root))));
  const inside = (candidate: string) => realRoots.some((root) => isInside(candidate, root));
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined) {
    if (!inside(resolve(path))) throw notAllowed(path);
    throw new ApiError(404, 'file_not_found', `No file ${path}`, { path });
  }
  if (!inside(real)) throw notAllowed(path);
  if (!(await stat(real)).isFile()) throw new ApiError(404, 'file_not_found', `${path} is not a file`, { path });
  return real;
}

function notAllowed(path: string): ApiError {
  return new ApiError(403, 'path_not_allowed', 'The path is outside the folders local paths may be read from', { path });
}
