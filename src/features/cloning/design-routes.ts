import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { DesignService } from './design-service.js';
import { IntelligibilitySchema, VoiceNameSchema, type VoiceService } from '../voices/index.js';
import { callerOf } from '../access/index.js';
import { CancelledSchema, presentCancelled } from '../../platform/http/schemas.js';
import { CANCEL_ERRORS, JOB_ERRORS, withErrors } from '../../platform/http/responses.js';
import { CancelBodySchema, CreationAcceptedSchema, LanguageField, sendAccepted, sendCreated } from './creation-schemas.js';

const Steps = (what: string) =>
  Type.Optional(Type.Number({ minimum: -2, maximum: 2, description: `${what}: −2 … +2 steps from normal; overrides the description` }));

const DesignBodySchema = Type.Object(
  {
    name: VoiceNameSchema,
    description: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'Free text; the README lists the words understood (gender, age, accent, pitch, pace, energy, timbre) in several languages',
    }),
    language: LanguageField,
    gender: Type.Optional(Type.Union([Type.Literal('female'), Type.Literal('male')])),
    age: Type.Optional(Type.Union([Type.Literal('child'), Type.Literal('young'), Type.Literal('adult'), Type.Literal('old')])),
    accent: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2,3}-[A-Za-z0-9]{2,8}$', description: 'A regional tag, e.g. en-GB' })),
    pitch: Steps('Pitch'),
    pace: Steps('Pace'),
    seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 32 - 1, description: 'Without a seed the same description always gives the same voice' })),
    async: Type.Optional(Type.Boolean({ description: 'Answer 202 with the job at once; follow it on /ws' })),
  },
  { additionalProperties: false },
);

const DesignCreatedSchema = Type.Object({
  job_id: Type.String(),
  voice_id: Type.String(),
  base_voice: Type.String(),
  understood: Type.Array(Type.Object({ word: Type.String(), attribute: Type.String(), value: Type.Union([Type.String(), Type.Number()]) })),
  ignored_words: Type.Array(Type.String()),
  measured: Type.Record(Type.String(), Type.Unknown(), { description: 'Median F0 and articulation rate of the design speaking the test sentence' }),
  ...IntelligibilitySchema.properties,
  warnings: Type.Array(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: true }), {
    description: 'low_intelligibility when the design lost words against its base voice',
  }),
  voice: Type.Ref('Voice', { description: 'The new voice, as GET /api/voices/{id} shows it' }),
});

const tags = ['Design'];

export const designRoutes: FastifyPluginAsyncTypebox<{ design: DesignService; voices: VoiceService }> = async (app, { design, voices }) => {
  app.post('/api/design/create', {
    config: { scope: 'clone:create' },
    schema: {
      operationId: 'createDesign',
      tags,
      summary: 'Create a voice from a description',
      description:
        'A job (progress on /ws): without async the response waits for it (201), with async it is 202. The voice records the attributes understood and the words ignored.',
      body: DesignBodySchema,
      response: withErrors({ 201: DesignCreatedSchema, 202: CreationAcceptedSchema }, JOB_ERRORS),
    },
    handler: async (request, reply) => {
      const { async: early, language, ...input } = request.body;
      const designRequest = { ...input, language: language ?? 'en' };
      const keyId = callerOf(request).keyId;
      if (early) return sendAccepted(reply, design.submit(designRequest, keyId));
      return sendCreated(reply, await design.create(designRequest, keyId), voices);
    },
  });

  app.post('/api/design/cancel', {
    config: { scope: 'clone:create' },
    schema: {
      operationId: 'cancelDesigns',
      tags,
      summary: 'Cancel a design job (job_id), or every queued and running design of the caller',
      body: CancelBodySchema,
      response: withErrors({ 200: CancelledSchema }, CANCEL_ERRORS, { 404: ['no_active_design'] }),
    },
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request) => presentCancelled(await design.cancel(request.body.job_id, callerOf(request).keyId)),
  });
};
