import { Type } from 'typebox';
import { MERGE_DEFAULTS } from '../../platform/audio/merge.js';
import { GENERATION_FORMATS } from '../../platform/speech/speech.js';
import { languageSchema } from '../../platform/http/schemas.js';
import { ProjectIdField } from '../projects/index.js';
import { PronunciationIdsField } from '../../platform/speech/markup.js';

/** The bodies and answers of the long-form routes. */
const Language = languageSchema(
  'BCP-47 language of the text. When absent: the voice’s own language, or another language the voice speaks only when the text is confidently in it',
);
const VoiceId = Type.String({ minLength: 1, maxLength: 200 });
const Speaker = Type.String({ minLength: 1, maxLength: 100, description: 'Who speaks the segment (kept on its chunks); absent: the name of its voice' });
const Text = Type.String({ minLength: 1, description: 'Plain text, or SSML when its root element is `<speak>` (docs/ssml.md)' });
const Common = {
  speed: Type.Optional(Type.Number({ minimum: 0.5, maximum: 2 })),
  seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1, description: 'One seed for every chunk; random when absent' })),
  max_chars: Type.Optional(Type.Integer({ minimum: 20, maximum: 5000, description: 'Longest chunk; longer sentences are split at clauses (default 400)' })),
  project_id: ProjectIdField,
  pronunciation_ids: PronunciationIdsField,
};

export const ChunkedBody = Type.Object({ voice_id: VoiceId, text: Text, language: Type.Optional(Language), ...Common }, { additionalProperties: false });

export const MultiVoiceBody = Type.Object(
  {
    segments: Type.Optional(
      Type.Array(
        Type.Object({ voice_id: VoiceId, text: Text, language: Type.Optional(Language), speaker: Type.Optional(Speaker) }, { additionalProperties: false }),
        { minItems: 1, maxItems: 1000 },
      ),
    ),
    script: Type.Optional(Type.String({ minLength: 1, description: 'Lines of `Name: text`; see `voices`. Each line’s name is its chunks’ speaker' })),
    voices: Type.Optional(Type.Record(Type.String(), VoiceId, { description: 'Speaker name → voice id, for `script`' })),
    language: Type.Optional(languageSchema('The language of every line of `script`; absent: each line in its voice’s language')),
    ...Common,
  },
  { additionalProperties: false },
);

export const MultiLangBody = Type.Object(
  {
    voice_id: VoiceId,
    segments: Type.Optional(
      Type.Array(
        Type.Object(
          { text: Text, language: Type.Optional(Language), voice_id: Type.Optional(VoiceId), speaker: Type.Optional(Speaker) },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 1000 },
      ),
    ),
    text: Type.Optional(Type.String({ minLength: 1, description: 'One text; the language of each sentence is detected' })),
    languages: Type.Optional(Type.Array(Language, { minItems: 1, description: 'Languages detection may choose from' })),
    ...Common,
  },
  { additionalProperties: false },
);

export const RegenerateBody = Type.Object(
  {
    task_id: Type.String({ minLength: 1 }),
    index: Type.Integer({ minimum: 0 }),
    text: Type.Optional(Text),
    voice_id: Type.Optional(VoiceId),
    seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 })),
  },
  { additionalProperties: false },
);

export const MergeBody = Type.Object(
  {
    task_id: Type.String({ minLength: 1 }),
    format: Type.Optional(Type.Unsafe<(typeof GENERATION_FORMATS)[number]>({ type: 'string', enum: [...GENERATION_FORMATS], default: 'wav' })),
    pause_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: MERGE_DEFAULTS.pauseMs })),
    paragraph_pause_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: MERGE_DEFAULTS.paragraphPauseMs })),
    crossfade_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 2000, default: MERGE_DEFAULTS.crossfadeMs, description: 'Applies where the pause is 0' })),
    normalize: Type.Optional(Type.Boolean({ default: true, description: `Loudness to ${MERGE_DEFAULTS.targetLufs} LUFS` })),
  },
  { additionalProperties: false },
);

export const ChunkedAcceptedSchema = Type.Object(
  { task_id: Type.String(), job_id: Type.String(), status: Type.String(), task_url: Type.String(), chunks: Type.Array(Type.Ref('Chunk')) },
  { description: 'The task with its chunks; follow `job.progress` (with `chunk_index`) on /ws' },
);
export const RegenerateAcceptedSchema = Type.Object({
  task_id: Type.String(),
  index: Type.Integer(),
  take: Type.Integer({ description: 'The new take, now selected' }),
  job_id: Type.String(),
  status: Type.String(),
  audio_url: Type.String(),
});
