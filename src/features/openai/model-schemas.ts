import { Type } from 'typebox';
import { Nullable } from '../../platform/http/schemas.js';

export const ModelSchema = Type.Object({
  id: Type.String({ description: 'An OpenAI model id that resolves here (tts-1, whisper-1, …) or an installed engine (pico, whisper, …)' }),
  object: Type.Literal('model'),
  created: Type.Integer({ description: 'Unix seconds: when this service started (Timbre’s models have no release dates)' }),
  owned_by: Type.Literal('timbre'),
});

export const ModelListSchema = Type.Object({ object: Type.Literal('list'), data: Type.Array(ModelSchema) });

export const ModelParamsSchema = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const VoicesQuerySchema = Type.Object(
  {
    model: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, default: 'tts-1', description: 'Whose mapping of the OpenAI names to show: tts-1 (any alias) or an engine' }),
    ),
  },
  { additionalProperties: false },
);

export const VoiceListSchema = Type.Object({
  voices: Type.Array(
    Type.Object({
      id: Type.String({ description: 'What to send as `voice`' }),
      name: Type.String(),
      kind: Type.Unsafe<'openai' | 'preset' | 'clone' | 'design'>({
        type: 'string',
        enum: ['openai', 'preset', 'clone', 'design'],
        description: '`openai`: an OpenAI voice name, speaking with voice_id; otherwise a Timbre voice',
      }),
      voice_id: Type.String({ description: 'The Timbre voice it speaks with (an OpenAI name: for English text)' }),
      engine: Type.String(),
      language: Type.String({ description: 'BCP-47' }),
      gender: Nullable(Type.Unsafe<'female' | 'male'>({ type: 'string', enum: ['female', 'male'] })),
    }),
  ),
});
