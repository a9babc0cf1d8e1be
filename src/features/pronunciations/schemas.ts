import { Type, type Static } from 'typebox';
import { languageSchema, TimestampSchema } from '../../platform/http/schemas.js';

/** Schema limits of one rule. */
export const RULE_LIMITS = { graphemeChars: 200, replacementChars: 500 } as const;

const NotBlank = (maxLength: number, description: string) => Type.String({ minLength: 1, maxLength, pattern: '\\S', description });

/**
 * A rule as clients write it: exactly one of `alias` and `phonemes` (with `alphabet`), which the
 * service checks, naming the rule's index.
 */
export const PronunciationRuleInput = Type.Object(
  {
    grapheme: NotBlank(RULE_LIMITS.graphemeChars, 'The written form to find; white space in it matches any white space'),
    case_sensitive: Type.Optional(Type.Boolean({ default: false, description: 'False: any case matches' })),
    whole_word: Type.Optional(Type.Boolean({ default: true, description: 'True: only where the match starts and ends at a word boundary' })),
    alias: Type.Optional(NotBlank(RULE_LIMITS.replacementChars, 'Words to say instead')),
    phonemes: Type.Optional(NotBlank(RULE_LIMITS.replacementChars, 'Sounds to say instead, in `alphabet`')),
    alphabet: Type.Optional(Type.Union([Type.Literal('ipa'), Type.Literal('x-sampa')], { description: 'The alphabet of `phonemes`' })),
  },
  { additionalProperties: false },
);
export type PronunciationRuleInput = Static<typeof PronunciationRuleInput>;

/** A rule as stored and answered: defaults filled in, text trimmed, and either an alias or phonemes with their alphabet. */
export const StoredRuleSchema = Type.Union(
  [
    Type.Object({ grapheme: Type.String(), case_sensitive: Type.Boolean(), whole_word: Type.Boolean(), alias: Type.String() }, { additionalProperties: false }),
    Type.Object(
      {
        grapheme: Type.String(),
        case_sensitive: Type.Boolean(),
        whole_word: Type.Boolean(),
        phonemes: Type.String(),
        alphabet: Type.Union([Type.Literal('ipa'), Type.Literal('x-sampa')]),
      },
      { additionalProperties: false },
    ),
  ],
  { $id: 'PronunciationRule' },
);
export type StoredRule = Static<typeof StoredRuleSchema>;

const DictionaryName = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });

export const CreatePronunciationBody = Type.Object(
  {
    name: DictionaryName,
    language: languageSchema('The language the rules apply to (BCP 47): runs of the same primary language'),
    rules: Type.Array(PronunciationRuleInput, { description: 'Applied in one pass; the longest match wins, of equal ones the earlier rule' }),
  },
  { additionalProperties: false },
);

export const UpdatePronunciationBody = Type.Object(
  {
    name: Type.Optional(DictionaryName),
    language: Type.Optional(languageSchema()),
    rules: Type.Optional(Type.Array(PronunciationRuleInput, { description: 'Replaces every rule' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

const SummaryFields = {
  id: Type.String(),
  name: Type.String(),
  language: Type.String(),
  rule_count: Type.Integer(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
};

export const PronunciationSummarySchema = Type.Object(SummaryFields, { $id: 'PronunciationSummary' });

export const PronunciationDictionarySchema = Type.Object(
  { ...SummaryFields, rules: Type.Array(Type.Ref('PronunciationRule')) },
  { $id: 'PronunciationDictionary' },
);

export const PronunciationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const PronunciationReadQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('pls')], { description: '`pls`: the dictionary as a PLS document (as `Accept: application/pls+xml`)' }),
    ),
  },
  { additionalProperties: false },
);

export const PlsImportQuery = Type.Object(
  {
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'With a PLS body: the new dictionary’s name (default “Imported lexicon”)' }),
    ),
  },
  { additionalProperties: false },
);

/** Where a dictionary is a default: a project's or a voice's `pronunciation_ids`. */
export const PronunciationIdsField = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  maxItems: 100,
  uniqueItems: true,
  description: 'Pronunciation dictionaries applied by default, in order (each must be visible to the caller; at most TIMBRE_PRONUNCIATION_MAX_DICTIONARIES)',
});
