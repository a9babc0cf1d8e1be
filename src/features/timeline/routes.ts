import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rm } from 'node:fs/promises';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { uploadTempDir, type AssetService } from '../assets/index.js';
import { LIMITS } from './layout.js';
import { ImportedPictureSchema, ImportedTrackSchema, ImportTrackJsonSchema, LayoutBodySchema } from './schemas.js';
import type { TimelineService } from './service.js';
import { callerOf } from '../access/index.js';
import type { TaskService } from '../tasks/index.js';
import { UPLOAD_ERRORS, withErrors } from '../../platform/http/responses.js';
import { receiveUpload } from '../../platform/http/uploads.js';
import { bodyRequired, multipartForm } from '../../platform/http/multipart-body.js';

const AUDIO_FILE = { name: 'file', description: 'Audio in any format ffmpeg reads' };
const PICTURE_FILE = { name: 'file', description: 'A video or an image' };
const Params = Type.Object({ task_id: Type.String({ minLength: 1, maxLength: 64 }) });
const NOT_FOUND = { 404: ['task_not_found', 'timeline_not_found'] };
const IMPORT_ERRORS = { 400: ['invalid_track'], 409: ['timeline_version_conflict'] };
const config = { scope: 'tts:timeline' } as const;
const tags = ['Timeline'];

export const timelineRoutes: FastifyPluginAsyncTypebox<{ timeline: TimelineService; tasks: TaskService; assets: AssetService; dataDir: string }> = async (
  app,
  options,
) => {
  const { timeline, tasks, assets } = options;
  const tempDir = uploadTempDir(options.dataDir);

  app.get('/api/timeline/:task_id', {
    config,
    schema: {
      operationId: 'getTimeline',
      tags,
      summary: 'The timeline of a chunked task (the default layout until first saved)',
      params: Params,
      response: withErrors({ 200: Type.Ref('Timeline') }, NOT_FOUND),
    },
    handler: async (request) => timeline.view(tasks.owned(request.params.task_id, callerOf(request).keyId)),
  });

  app.post('/api/timeline/:task_id/layout', {
    config,
    schema: {
      operationId: 'saveTimelineLayout',
      tags,
      summary: 'Save block positions and properties (all at once, guarded by the version)',
      description:
        'A block left out is removed; a later layout listing a removed block’s id brings it back. ' +
        '400 `invalid_layout` lists every problem as {block_id, problem}; 409 `timeline_version_conflict` gives current_version.',
      params: Params,
      body: LayoutBodySchema,
      response: withErrors({ 200: Type.Ref('Timeline') }, NOT_FOUND, { 400: ['invalid_layout'], 409: ['timeline_version_conflict'] }),
    },
    handler: async (request) => {
      const task = tasks.owned(request.params.task_id, callerOf(request).keyId);
      return timeline.view(task, timeline.saveLayout(task, request.body));
    },
  });

  app.post('/api/timeline/:task_id/import-track', {
    config,
    schema: {
      operationId: 'importTimelineTrack',
      tags,
      summary: 'Add audio (an upload, which becomes an asset, or an existing asset) as a block on a named audio track',
      description: `Multipart: "file" plus optional fields track (default music), start, gain_db; uploads at most TIMBRE_MAX_UPLOAD_BYTES. JSON: {asset_id, track?, start?, gain_db?}.`,
      params: Params,
      body: {
        content: {
          'application/json': { schema: ImportTrackJsonSchema },
          'multipart/form-data': { schema: multipartForm({ track: 'Track name', start: 'seconds', gain_db: 'dB' }, AUDIO_FILE) },
        },
      },
      response: withErrors({ 201: ImportedTrackSchema }, NOT_FOUND, UPLOAD_ERRORS, IMPORT_ERRORS, { 404: ['asset_not_found'], 422: ['duration_unknown'] }),
    },
    handler: async (request, reply) => {
      const keyId = callerOf(request).keyId;
      const task = tasks.owned(request.params.task_id, keyId);
      // Without a content type Fastify validates no body at all.
      if (!request.isMultipart() && (request.body === undefined || request.body === null)) throw bodyRequired();
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
      operationId: 'importTimelinePicture',
      tags,
      summary: 'Set the picture of the video track from an uploaded video or image',
      description:
        'Multipart "file" (any video or image ffprobe reads; at most TIMBRE_MAX_UPLOAD_BYTES) plus optional fields duration (image seconds; default the timeline length, or 5 s), ' +
        'include_audio (true: the video’s sound is added on the "video audio" track) and start. Anything else is 415 `media_unreadable` and is not kept.',
      params: Params,
      body: {
        content: { 'multipart/form-data': { schema: multipartForm({ duration: 'seconds', include_audio: 'true or false', start: 'seconds' }, PICTURE_FILE) } },
      },
      response: withErrors({ 201: ImportedPictureSchema }, NOT_FOUND, UPLOAD_ERRORS, IMPORT_ERRORS, { 415: ['media_unreadable'] }),
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
