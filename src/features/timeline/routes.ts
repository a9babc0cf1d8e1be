import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rm } from 'node:fs/promises';
import { Type } from 'typebox';
import type { Config } from '../../platform/config.js';
import { ApiError } from '../../platform/errors.js';
import { uploadTempDir, type AssetService } from '../assets/index.js';
import { LIMITS } from './layout.js';
import type { TimelineService } from './service.js';
import { callerOf } from '../access/index.js';
import type { TaskService } from '../tasks/index.js';
import { withErrors } from '../../platform/http/schemas.js';
import { receiveUpload } from '../../platform/http/uploads.js';

const Seconds = (description: string) => Type.Number({ minimum: 0, maximum: 86_400, description });
const Fade = Type.Number({ minimum: 0, maximum: LIMITS.maxFade, description: 'seconds' });
const GainDb = Type.Number({ minimum: LIMITS.minGainDb, maximum: LIMITS.maxGainDb });
const TrackName = Type.String({ minLength: 1, maxLength: 64 });

const TrackSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
    kind: Type.Unsafe<'voice' | 'audio' | 'video'>({ type: 'string', enum: ['voice', 'audio', 'video'] }),
    name: TrackName,
    muted: Type.Boolean(),
  },
  { additionalProperties: false },
);

const LayoutBody = Type.Object(
  {
    version: Type.Integer({ minimum: 0, description: 'The version the layout was made from; another version gets 409' }),
    tracks: Type.Optional(Type.Array(TrackSchema, { maxItems: 100, description: 'Every track; absent: unchanged' })),
    blocks: Type.Array(
      Type.Object(
        {
          id: Type.String({ minLength: 1, maxLength: 64 }),
          track: Type.String({ minLength: 1, maxLength: 64 }),
          start: Seconds('Where the block starts on the timeline'),
          trim_start: Seconds('Where in the source it starts'),
          trim_end: Seconds('Where in the source it ends (at most the source length)'),
          gain_db: Type.Optional(GainDb),
          fade_in: Type.Optional(Fade),
          fade_out: Type.Optional(Fade),
          muted: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
      { maxItems: 10_000, description: 'Every block that stays: one left out is removed; blocks are only made by imports' },
    ),
  },
  { additionalProperties: false },
);

const ImportTrackJson = Type.Object(
  {
    asset_id: Type.String({ minLength: 1, maxLength: 64 }),
    track: Type.Optional(TrackName),
    start: Type.Optional(Seconds('Default 0')),
    gain_db: Type.Optional(GainDb),
  },
  { additionalProperties: false },
);

/** `receiveUpload` streams multipart bodies, so Fastify validates null, which the schema must accept. */
const multipartBody = (fields: Record<string, string>) => ({
  type: ['object', 'null'],
  properties: {
    file: { type: 'string', contentEncoding: 'binary' },
    ...Object.fromEntries(Object.entries(fields).map(([name, description]) => [name, { type: 'string', description }])),
  },
});

const Params = Type.Object({ task_id: Type.String({ minLength: 1, maxLength: 64 }) });
const TimelineView = Type.Object(
  {},
  { additionalProperties: true, description: 'version, duration (derived), tracks, blocks (with end and source_duration), media' },
);
const config = { scope: 'tts:timeline' } as const;
const tags = ['Timeline'];
const error = Type.Ref('ErrorEnvelope');

export const timelineRoutes: FastifyPluginAsyncTypebox<{ timeline: TimelineService; tasks: TaskService; assets: AssetService; config: Config }> = async (
  app,
  options,
) => {
  const { timeline, tasks, assets } = options;
  const tempDir = uploadTempDir(options.config.dataDir);

  app.get('/api/timeline/:task_id', {
    config,
    schema: {
      tags,
      summary: 'The timeline of a chunked task (the default layout until first saved)',
      params: Params,
      response: withErrors({ 200: TimelineView, 404: error }),
    },
    handler: async (request) => timeline.view(tasks.owned(request.params.task_id, callerOf(request).keyId)),
  });

  app.post('/api/timeline/:task_id/layout', {
    config,
    schema: {
      tags,
      summary: 'Save block positions and properties (all at once, guarded by the version)',
      description: '400 `invalid_layout` lists every problem as {block_id, problem}; 409 `timeline_version_conflict` gives current_version.',
      params: Params,
      body: LayoutBody,
      response: withErrors({ 200: TimelineView, 404: error, 409: error }),
    },
    handler: async (request) => {
      const task = tasks.owned(request.params.task_id, callerOf(request).keyId);
      return timeline.view(task, timeline.saveLayout(task, request.body));
    },
  });

  app.post('/api/timeline/:task_id/import-track', {
    config,
    schema: {
      tags,
      summary: 'Add audio (an upload, which becomes an asset, or an existing asset) as a block on a named audio track',
      description: `Multipart: "file" plus optional fields track (default music), start, gain_db; uploads at most TIMBRE_MAX_UPLOAD_BYTES. JSON: {asset_id, track?, start?, gain_db?}.`,
      params: Params,
      body: {
        content: {
          'application/json': { schema: ImportTrackJson },
          'multipart/form-data': { schema: multipartBody({ track: 'Track name', start: 'seconds', gain_db: 'dB' }) },
        },
      },
      response: withErrors({ 201: TimelineView, 404: error, 409: error, 413: error, 415: error, 422: error }),
    },
    handler: async (request, reply) => {
      const keyId = callerOf(request).keyId;
      const task = tasks.owned(request.params.task_id, keyId);
      let body = request.body as { asset_id: string; track?: string; start?: number; gain_db?: number };
      if (request.isMultipart()) {
        const upload = await receiveUpload(request, tempDir);
        const { fields } = upload;
        const settings = await orDiscard(upload.tempPath, () => ({
          track: fields.track || undefined,
          start: numberField(fields, 'start', 0, 86_400),
          gain_db: numberField(fields, 'gain_db', LIMITS.minGainDb, LIMITS.maxGainDb),
        }));
        const asset = await assets.importFile(upload.tempPath, { origin: 'upload', originalName: upload.originalName }, keyId);
        body = { asset_id: asset.id, ...settings };
      }
      const result = timeline.importTrack(task, { assetId: body.asset_id }, { track: body.track, start: body.start, gainDb: body.gain_db }, keyId);
      return reply.code(201).send({ block_id: result.blockId, asset_id: body.asset_id, timeline: timeline.view(task, result.document) });
    },
  });

  app.post('/api/timeline/:task_id/import-video', {
    config,
    schema: {
      tags,
      summary: 'Set the picture of the video track from an uploaded video or image',
      description:
        'Multipart "file" (any video or image ffprobe reads; at most TIMBRE_MAX_UPLOAD_BYTES) plus optional fields duration (image seconds; default the timeline length, or 5 s), ' +
        'include_audio (true: the video’s sound is added on the "video audio" track) and start. Anything else is 415 `media_unreadable` and is not kept.',
      params: Params,
      body: { content: { 'multipart/form-data': { schema: multipartBody({ duration: 'seconds', include_audio: 'true or false', start: 'seconds' }) } } },
      response: withErrors({ 201: TimelineView, 404: error, 409: error, 413: error, 415: error }),
    },
    handler: async (request, reply) => {
      const task = tasks.owned(request.params.task_id, callerOf(request).keyId);
      const upload = await receiveUpload(request, tempDir);
      const { fields } = upload;
      const settings = await orDiscard(upload.tempPath, () => ({
        duration: numberField(fields, 'duration', 0.001, 86_400),
        start: numberField(fields, 'start', 0, 86_400),
        includeAudio: ['true', '1'].includes(fields.include_audio ?? ''),
      }));
      const result = await timeline.importPicture(task, upload.tempPath, { originalName: upload.originalName, ...settings });
      return reply.code(201).send({
        media_id: result.media.id,
        kind: result.media.kind,
        block_id: result.blockId,
        audio_block_id: result.audioBlockId,
        timeline: timeline.view(task, result.document),
      });
    },
  });
};

/** Reads the form fields of an upload; when they are invalid, the received file is removed. */
async function orDiscard<T>(tempPath: string, read: () => T): Promise<T> {
  try {
    return read();
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  }
}

/** A numeric form field within a range; absent: undefined. */
function numberField(fields: Record<string, string>, name: string, min: number, max: number): number | undefined {
  const raw = fields[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new ApiError(400, 'invalid_request', `${name} must be a number within ${min}..${max}`, {
      fields: [{ field: `body.${name}`, message: `must be within ${min}..${max}` }],
    });
  }
  return value;
}
