import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TObject } from 'typebox';
import { type AssetService } from '../assets/index.js';
import { CLONE_METHODS } from './methods.js';
import { sampleSources, type ClipRegion, type CloneShape } from './requests.js';
import type { CloneService } from './service.js';
import { DescriptionSchema, IntelligibilitySchema, VoiceNameSchema, type VoiceService } from '../voices/index.js';
import { callerOf } from '../access/index.js';
import { bodyRequired, multipartAsBody, withFileParts } from '../../platform/http/multipart-body.js';
import { CancelledSchema, presentCancelled } from '../../platform/http/schemas.js';
import { CANCEL_ERRORS, JOB_ERRORS, UPLOAD_ERRORS, withErrors } from '../../platform/http/responses.js';
import type { UploadedFile } from '../../platform/http/uploads.js';
import { CancelBodySchema, CreationAcceptedSchema, LanguageField, sendAccepted, sendCreated } from './creation-schemas.js';

const MethodSchema = Type.Union(
  CLONE_METHODS.map((method) => Type.Literal(method)),
  { description: 'Force a method; best available when absent (422 clone_method_unavailable when it cannot run here)' },
);
const AssetIdSchema = Type.String({ minLength: 1, maxLength: 64, description: 'An audio asset of the caller (an upload or a downloaded video’s audio)' });
const TranscriptSchema = Type.String({ maxLength: 5000 });

const common = {
  name: VoiceNameSchema,
  language: LanguageField,
  description: Type.Optional(DescriptionSchema),
  gender: Type.Optional(Type.Union([Type.Literal('female'), Type.Literal('male')])),
  method: Type.Optional(MethodSchema),
  async: Type.Optional(Type.Boolean({ description: 'Answer 202 with the job at once; follow it on /ws' })),
};
const several = {
  asset_ids: Type.Optional(Type.Array(AssetIdSchema, { maxItems: 100 })),
  transcripts: Type.Optional(Type.Array(TranscriptSchema, { maxItems: 100, description: 'Words of each sample (clips: of each region), in order' })),
};
const CreateBodySchema = Type.Object(
  { ...common, asset_id: Type.Optional(AssetIdSchema), transcript: Type.Optional(TranscriptSchema) },
  { additionalProperties: false },
);
const MultiBodySchema = Type.Object({ ...common, ...several }, { additionalProperties: false });
const RegionSchema = Type.Object(
  {
    clip: Type.Integer({ minimum: 0, description: 'Index of the clip: uploaded files first, then asset_ids' }),
    start: Type.Number({ minimum: 0 }),
    end: Type.Number({ exclusiveMinimum: 0 }),
  },
  { additionalProperties: false },
);
const ClipsBodySchema = Type.Object(
  { ...common, ...several, regions: Type.Array(RegionSchema, { minItems: 1, maxItems: 100 }) },
  { additionalProperties: false },
);

const CloneCreatedSchema = Type.Object({
  job_id: Type.String(),
  voice_id: Type.String(),
  clone_method: MethodSchema,
  method_reason: Type.String({ description: 'Why this method: what was missing for a better one' }),
  similarity: Type.Union([Type.Number(), Type.Null()], { description: 'By similarity_measure, which the fit never saw: the clone against the target' }),
  baseline_similarity: Type.Union([Type.Number(), Type.Null()], { description: 'The same for the nearest unconverted preset' }),
  similarity_measure: Type.String({ description: 'speaker-embedding when installed, else acoustic-check' }),
  fit_similarity: Type.Union([Type.Number(), Type.Null()], { description: 'By fit_measure, the one that chose the fit' }),
  fit_measure: Type.String({ description: 'acoustic-voiceprint' }),
  ...IntelligibilitySchema.properties,
  warnings: Type.Array(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: true })),
  voice: Type.Ref('Voice', { description: 'The new voice, as GET /api/voices/{id} shows it' }),
});

const MULTIPART_NOTE =
  'JSON with asset ids, or multipart/form-data with the audio files and the same fields (arrays and objects as JSON text). ' +
  'Each sample is decoded, cut to its speech, kept to its best window, loudness-normalised and checked: 422 sample_too_short, sample_silent, ' +
  'sample_too_noisy, audio_undecodable name the sample; soft problems come back as warnings. The voice is created by a job (progress on /ws); ' +
  'without async the response waits for it (201), with async it is 202.';
const tags = ['Cloning'];
const CLONE_ERRORS = {
  400: ['sample_missing', 'too_many_samples', 'too_many_transcripts'],
  404: ['asset_not_found'],
  422: [
    'audio_undecodable',
    'sample_silent',
    'sample_too_short',
    'sample_too_noisy',
    'clone_method_unavailable',
    'region_invalid',
    'region_out_of_range',
    'no_voiced_speech',
    'audio_too_short',
    'reference_text_required',
  ],
};

interface CloneBody {
  name: string;
  language?: string;
  description?: string | null;
  gender?: 'female' | 'male';
  method?: (typeof CLONE_METHODS)[number];
  async?: boolean;
  asset_id?: string;
  asset_ids?: string[];
  transcript?: string;
  transcripts?: string[];
  regions?: ClipRegion[];
}

export const cloneRoutes: FastifyPluginAsyncTypebox<{ cloning: CloneService; assets: AssetService; voices: VoiceService; maxSamples: number }> = async (
  app,
  { cloning, assets, voices, maxSamples },
) => {
  const uploads = new WeakMap<FastifyRequest, { uploadId: string; path: string; files: UploadedFile[] }>();

  /** Multipart requests: the files go to a fresh upload folder and the fields become the body. */
  const receive = (schema: TObject) => async (request: FastifyRequest) => {
    // A body schema per content type validates nothing when no body came at all.
    if (!request.isMultipart() && (request.body === undefined || request.body === null)) throw bodyRequired();
    if (!request.isMultipart()) return;
    const folder = await cloning.newUploadFolder();
    uploads.set(request, { ...folder, files: [] });
    uploads.get(request)!.files = await multipartAsBody(request, schema, folder.path, maxSamples);
  };

  const create = (shape: CloneShape) => async (request: FastifyRequest<{ Body: CloneBody }>, reply: FastifyReply) => {
    const keyId = callerOf(request).keyId;
    const body = request.body;
    const upload = uploads.get(request) ?? { ...(await cloning.newUploadFolder()), files: [] };
    uploads.set(request, upload);
    const assetIds = body.asset_id ? [body.asset_id] : (body.asset_ids ?? []);
    const samples = await sampleSources(
      {
        uploadDir: upload.path,
        uploaded: upload.files.map((file) => file.tempPath),
        assets: assetIds.map((id) => assets.absolutePath(assets.get(id, keyId))),
        transcripts: body.transcript !== undefined ? [body.transcript] : body.transcripts,
        regions: body.regions,
      },
      shape,
      maxSamples,
    );
    const request_ = {
      name: body.name,
      language: body.language ?? 'en',
      description: body.description ?? undefined,
      gender: body.gender,
      method: body.method,
      samples,
      uploadId: upload.uploadId,
    };
    // From here the job owns the upload folder.
    uploads.delete(request);
    if (body.async) return sendAccepted(reply, cloning.submit(request_, keyId));
    return sendCreated(reply, await cloning.create(request_, keyId), voices);
  };

  // Whatever did not reach a job (a refused request) is removed before the error is answered.
  app.addHook('onError', async (request) => {
    const upload = uploads.get(request);
    if (upload) await cloning.discardUploads(upload.uploadId);
  });

  const routes: [string, string, string, TObject, CloneShape][] = [
    ['/api/clone/create', 'createClone', 'Create a clone from one sample (field transcript optional)', CreateBodySchema, 'single'],
    [
      '/api/clone/create-multi',
      'createCloneFromSamples',
      'Create a clone from several samples of one speaker (prints averaged, best windows kept)',
      MultiBodySchema,
      'multi',
    ],
    [
      '/api/clone/create-clips',
      'createCloneFromClips',
      'Create a clone from regions of clips; a region past its clip’s end is refused (422 region_out_of_range, details.region)',
      ClipsBodySchema,
      'clips',
    ],
  ];
  for (const [url, operationId, summary, schema, shape] of routes) {
    app.post(url, {
      config: { scope: 'clone:create' },
      schema: {
        operationId,
        tags,
        summary,
        description: MULTIPART_NOTE,
        body: {
          content: {
            'application/json': { schema },
            'multipart/form-data': {
              schema: withFileParts(schema, { name: shape === 'single' ? 'file' : 'files', description: 'An audio sample', many: shape !== 'single' }),
            },
          },
        },
        response: withErrors({ 201: CloneCreatedSchema, 202: CreationAcceptedSchema }, JOB_ERRORS, UPLOAD_ERRORS, CLONE_ERRORS),
      },
      preValidation: receive(schema),
      // The three schemas share CloneBody's fields; the loop loses the provider's inference of which.
      handler: (request, reply) => create(shape)(request as FastifyRequest<{ Body: CloneBody }>, reply),
    });
  }

  app.post('/api/clone/cancel', {
    config: { scope: 'clone:create' },
    schema: {
      operationId: 'cancelClones',
      tags,
      summary: 'Cancel a clone job (job_id), or every queued and running clone of the caller',
      body: CancelBodySchema,
      response: withErrors({ 200: CancelledSchema }, CANCEL_ERRORS, { 404: ['no_active_clone'] }),
    },
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request) => presentCancelled(await cloning.cancel(request.body.job_id, callerOf(request).keyId)),
  });
};
