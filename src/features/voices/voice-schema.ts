import { Type } from 'typebox';
import { TimestampSchema } from '../../platform/http/schemas.js';

/** A voice as the API shows it: the metadata a client may change with PUT, and what is read-only. */

export const VoiceTypeSchema = Type.Union([Type.Literal('preset'), Type.Literal('clone'), Type.Literal('design')]);
const LanguageSchema = Type.String({ description: 'BCP-47 tag, e.g. en-US' });

/** The fields PUT changes. */
export const METADATA = {
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  category: Type.Union([Type.String(), Type.Null()], { description: 'Category name' }),
  tags: Type.Array(Type.String()),
  favorite: Type.Boolean(),
  pronunciation_ids: Type.Array(Type.String(), {
    description: 'Pronunciation dictionaries generations with this voice apply by default, after their own and their project’s',
  }),
};

/** How well a clone or design keeps its words; null for presets and where no recognizer handles the language. */
export const IntelligibilitySchema = Type.Object({
  intelligibility: Type.Union([Type.Number(), Type.Null()], {
    description: 'Clones and designs: word accuracy (1 − word error rate) of the voice speaking the probe sentences, heard by the best installed recognizer',
  }),
  baseline_intelligibility: Type.Union([Type.Number(), Type.Null()], {
    description: 'The same for the voice it was made from, unconverted (null for zero_shot, which has none)',
  }),
  intelligibility_measure: Type.Union([Type.String(), Type.Null()], { description: 'Which recognizer heard it' }),
});

/** What GET shows and PUT accepts back unchanged only. */
export const READ_ONLY = {
  id: Type.String({ description: 'Preset voices: the engine voice id, e.g. pico:en-US. Clones and designs: voice_…' }),
  type: VoiceTypeSchema,
  engine: Type.String(),
  language: LanguageSchema,
  languages: Type.Array(LanguageSchema, { description: 'Every language the voice can speak' }),
  gender: Type.Union([Type.Literal('female'), Type.Literal('male'), Type.Null()]),
  license: Type.Union([Type.String(), Type.Null()], { description: 'License of the voice data' }),
  sample_rate: Type.Union([Type.Integer(), Type.Null()], { description: 'Native output rate in Hz' }),
  category_id: Type.Union([Type.String(), Type.Null()]),
  library_tags: Type.Array(Type.String(), {
    description:
      'Tags the library derives from what it knows (engine family neural/classic/robotic or clone/design, clear where measured intelligible, accent of the language region, gender, and from its measured sample deep or high-pitched and warm or bright); kept apart from `tags`, which are the user’s',
  }),
  library_category: Type.String({ description: 'The built-in category: Natural (neural), Classic, Robotic, Cloned or Designed' }),
  available: Type.Boolean({ description: 'False when the engine of a preset is no longer installed; favorites and tags are kept' }),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
  preview_url: Type.Union([Type.String(), Type.Null()]),
  sample_measures: Type.Union(
    [
      Type.Object({
        median_f0_hz: Type.Union([Type.Number(), Type.Null()], { description: 'Median fundamental frequency over voiced frames, Hz' }),
        centroid_hz: Type.Union([Type.Number(), Type.Null()], {
          description: 'Spectral centroid of the voiced frames up to 8 kHz, Hz (higher sounds brighter)',
        }),
      }),
      Type.Null(),
    ],
    {
      description:
        'What was measured of the voice’s sample (preview_url), from which the pitch and brightness library_tags come; null until measured, or when no frame of the sample was voiced',
    },
  ),
  samples: Type.Array(
    Type.Object({
      id: Type.String(),
      duration: Type.Number({ description: 'seconds' }),
      sample_rate: Type.Integer(),
      transcript: Type.Union([Type.String(), Type.Null()]),
    }),
    { description: 'Reference recordings of a clone; empty for presets' },
  ),
  settings: Type.Record(Type.String(), Type.Unknown(), {
    description: 'How a clone or design was made and speaks (method, fitted parameters, target analysis, design attributes); empty for presets',
  }),
  clone_method: Type.Union([Type.Literal('zero_shot'), Type.Literal('voice_search'), Type.Literal('timbre_match'), Type.Null()], {
    description: 'Clones: how the clone speaks',
  }),
  similarity: Type.Union([Type.Number(), Type.Null()], {
    description: 'Clones: similarity of the clone speaking the test sentences to the target samples, 0..1, by a measure the fit never saw',
  }),
  baseline_similarity: Type.Union([Type.Number(), Type.Null()], { description: 'Clones: the same measure for the nearest unconverted preset' }),
  similarity_measure: Type.Union([Type.String(), Type.Null()], {
    description: 'speaker-embedding when installed, else acoustic-check (settings.fit_measure names the measure that chose the fit)',
  }),
  ...IntelligibilitySchema.properties,
  warnings: Type.Array(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: true }), {
    description: 'Clones and designs: soft problems of the samples and of the result (low_intelligibility)',
  }),
};

export const VoiceSchema = Type.Object({ ...METADATA, ...READ_ONLY }, { $id: 'Voice' });

export const CategorySchema = Type.Object(
  {
    id: Type.String({ description: 'cat_… for a user’s category, library:<kind> for a built-in one' }),
    name: Type.String(),
    built_in: Type.Boolean({ description: 'Built-in categories group voices by kind; they cannot be assigned, created or deleted' }),
    created_at: Type.Union([TimestampSchema, Type.Null()], { description: 'null for a built-in category' }),
    voice_count: Type.Integer({ minimum: 0 }),
  },
  { $id: 'Category' },
);
