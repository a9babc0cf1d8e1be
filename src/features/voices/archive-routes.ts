import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rm } from 'node:fs/promises';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { uploadTempDir } from '../assets/index.js';
import type { VoiceService } from './service.js';
import { binaryResponse, HEADERS, withErrors } from '../../platform/http/responses.js';
import { receiveBody } from '../../platform/http/uploads.js';

const ZIP = 'application/zip';

/** The raw zip body, streamed to disk by the handler: typeless, so validation lets the unread body through (OpenAPI 3.1 describes binary content so). */
const ZipBodySchema = Type.Unsafe<undefined>({
  contentMediaType: ZIP,
  description: 'A voice archive (zip with manifest.json and samples/<voice id>/<n>.wav), at most TIMBRE_MAX_ARCHIVE_BYTES (200 MB by default)',
});

const ZipResponseSchema = binaryResponse('A voice archive', [ZIP], HEADERS.contentDisposition);
const ARCHIVE_ERRORS = { 400: ['archive_invalid'], 413: ['payload_too_large'], 415: ['unsupported_media_type'] };

const ExportBodySchema = Type.Object(
  {
    voice_ids: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      minItems: 1,
      maxItems: 1000,
      uniqueItems: true,
      description: 'Clone or design voices',
    }),
  },
  { additionalProperties: false },
);

const ProblemSchema = Type.Object({ code: Type.String(), message: Type.String() });

const PreviewSchema = Type.Object({
  voices: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      type: Type.String(),
      conflict: Type.Union([Type.Literal('none'), Type.Literal('id_exists')], {
        description: 'id_exists: import skips it, or renames it with on_conflict=rename',
      }),
    }),
  ),
  problems: Type.Array(ProblemSchema, { description: 'Why the archive cannot be imported; empty when it can' }),
});

const ImportQuerySchema = Type.Object(
  {
    on_conflict: Type.Optional(
      Type.Union([Type.Literal('skip'), Type.Literal('rename')], { default: 'skip', description: 'What to do with a voice whose id exists here' }),
    ),
  },
  { additionalProperties: false },
);

const ImportResultSchema = Type.Object({
  imported: Type.Array(Type.String(), { description: 'Ids of the imported voices, in manifest order' }),
  skipped: Type.Array(Type.String(), { description: 'Archive ids not imported because they exist here' }),
  renamed: Type.Record(Type.String(), Type.String(), { description: 'Archive id → new id' }),
});

const read = { scope: 'voices:read' } as const;
const write = { scope: 'voices:write' } as const;
const tags = ['Voices'];

export const voiceArchiveRoutes: FastifyPluginAsyncTypebox<{ voices: VoiceService; dataDir: string; maxArchiveBytes: number }> = async (
  app,
  { voices, dataDir, maxArchiveBytes },
) => {
  // Only the routes of this plugin take zip bodies, and they read them themselves (withArchive).
  app.addContentTypeParser(ZIP, (_request, _body, done) => done(null));

  /** Streams the zip body to a temporary file for `use`, and removes the file afterwards. */
  async function withArchive<T>(request: FastifyRequest, reply: FastifyReply, use: (zipPath: string) => Promise<T>): Promise<T> {
    if (request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== ZIP) {
      throw new ApiError(415, 'unsupported_media_type', `Send the archive as the request body with Content-Type: ${ZIP}`);
    }
    const zipPath = await receiveBody(request, reply, uploadTempDir(dataDir), maxArchiveBytes);
    try {
      return await use(zipPath);
    } finally {
      await rm(zipPath, { force: true });
    }
  }

  app.post('/api/voices/export', {
    config: read,
    schema: {
      operationId: 'exportVoices',
      tags,
      summary: 'Download clone and design voices with their samples as a zip archive',
      description: 'Presets are refused with 400 voice_not_exportable; an unknown id gives 404 voice_not_found.',
      body: ExportBodySchema,
      response: withErrors({ 200: ZipResponseSchema }, { 400: ['voice_not_exportable'], 404: ['voice_not_found'] }),
    },
    handler: async (request, reply) => {
      const zip = await voices.archive.export(request.body.voice_ids);
      return reply.type(ZIP).header('content-disposition', 'attachment; filename="timbre-voices.zip"').send(zip);
    },
  });

  app.post('/api/voices/import/preview', {
    config: write,
    schema: {
      operationId: 'previewVoiceImport',
      tags,
      summary: 'What importing an archive would do, without writing anything',
      description: 'Lists the same problems an import would refuse the archive for. A body over TIMBRE_MAX_ARCHIVE_BYTES gets 413 payload_too_large.',
      consumes: [ZIP],
      body: ZipBodySchema,
      response: withErrors({ 200: PreviewSchema }, ARCHIVE_ERRORS),
    },
    handler: async (request, reply) => withArchive(request, reply, (zipPath) => voices.archive.preview(zipPath)),
  });

  app.post('/api/voices/import', {
    config: write,
    schema: {
      operationId: 'importVoices',
      tags,
      summary: 'Import the voices of an archive',
      description:
        'An archive with any problem (see the preview) is refused with 400 archive_invalid and details.problems; nothing is written then. A body over TIMBRE_MAX_ARCHIVE_BYTES gets 413 payload_too_large.',
      consumes: [ZIP],
      querystring: ImportQuerySchema,
      body: ZipBodySchema,
      response: withErrors({ 200: ImportResultSchema }, ARCHIVE_ERRORS),
    },
    handler: async (request, reply) => withArchive(request, reply, (zipPath) => voices.archive.import(zipPath, request.query.on_conflict ?? 'skip')),
  });
};
