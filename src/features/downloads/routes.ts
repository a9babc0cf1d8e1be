import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { DownloadService } from './service.js';
import { callerOf } from '../access/index.js';
import { JOB_ERRORS, withErrors } from '../../platform/http/responses.js';

const DownloadBodySchema = Type.Object(
  {
    // The scheme is checked by the URL guard, which names it in its error (url_scheme_not_allowed).
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) URL of a video or media page, or of a media file' }),
    start: Type.Optional(Type.Number({ minimum: 0, description: 'Seconds into the media where the audio starts (cut with ffmpeg)' })),
    end: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'Seconds into the media where the audio ends; after start' })),
    async: Type.Optional(Type.Boolean({ description: 'Answer 202 with the job id at once; follow progress on /ws, cancel with POST /api/job/cancel' })),
  },
  { additionalProperties: false },
);

const DESCRIPTION =
  'Extracts the audio of a video URL with yt-dlp into an asset. Runs as a `download` job: progress on /ws, cancel with ' +
  'POST /api/job/cancel. Only http(s); hosts resolving to loopback, link-local or private addresses are refused unless ' +
  'TIMBRE_ALLOW_PRIVATE_DOWNLOADS is set. Limits: TIMBRE_MAX_DOWNLOAD_SECONDS and TIMBRE_MAX_DOWNLOAD_BYTES.';

export const downloadRoutes: FastifyPluginAsyncTypebox<{ downloads: DownloadService }> = async (app, { downloads }) => {
  app.post('/api/download-video', {
    config: { scope: 'audio:process' },
    schema: {
      operationId: 'downloadVideoAudio',
      tags: ['Audio'],
      summary: 'Download the audio of a video URL as an asset',
      description: DESCRIPTION,
      body: DownloadBodySchema,
      response: withErrors(
        {
          200: Type.Intersect([Type.Ref('Asset'), Type.Object({ job_id: Type.String() })], { description: 'The asset, with the job that made it' }),
          202: Type.Object({ job_id: Type.String(), status: Type.String() }),
        },
        JOB_ERRORS,
        {
          400: ['url_scheme_not_allowed', 'invalid_url', 'invalid_section'],
          403: ['url_address_not_allowed'],
          413: ['media_too_long', 'media_too_large'],
          415: ['audio_unreadable'],
          422: ['unsupported_url'],
          502: ['download_failed', 'host_unreachable'],
          504: ['download_timeout'],
        },
      ),
    },
    handler: async (request, reply) => {
      const { url, start, end } = request.body;
      const job = await downloads.submit({ url, start, end }, callerOf(request).keyId);
      if (request.body.async) return reply.code(202).send({ job_id: job.id, status: job.state });
      const { asset_id: assetId, asset } = (await downloads.finish(job.id)) as { asset_id: string; asset: Record<string, unknown> };
      return { asset_id: assetId, ...asset, job_id: job.id };
    },
  });
};
