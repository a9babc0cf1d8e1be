import { Type, type Static } from 'typebox';
import { LANGUAGE_TAG } from '../../platform/http/schemas.js';
import { Enum, SegmentSchema, TRANSCRIPT_FORMATS, TranscriptionFieldsSchema } from './transcription-schemas.js';

/** OpenAI's translation form (audio.translations.create), and the language of the speech as Timbre's addition. */
export const TranslationFieldsSchema = Type.Object(
  {
    model: TranscriptionFieldsSchema.properties.model,
    prompt: TranscriptionFieldsSchema.properties.prompt,
    response_format: Type.Optional(Enum(TRANSCRIPT_FORMATS, 'Default json')),
    temperature: TranscriptionFieldsSchema.properties.temperature,
    language: Type.Optional(
      Type.String({
        maxLength: 35,
        pattern: LANGUAGE_TAG.source,
        description:
          'Timbre’s addition, not OpenAI’s: the language spoken (ISO-639-1 or BCP-47), so that speech no installed recognizer can translate is refused before it is heard; detected when absent',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TranslationFields = Static<typeof TranslationFieldsSchema>;

const VerboseTranslationSchema = Type.Object(
  {
    task: Type.Literal('translate'),
    language: Type.Literal('english', { description: 'The language of the text: always English' }),
    duration: Type.Number({ description: 'Length of the audio' }),
    text: Type.String(),
    segments: Type.Array(SegmentSchema),
  },
  { description: 'response_format verbose_json' },
);

export const TranslationResponse = {
  description: 'The English text: JSON (json, verbose_json), plain text, SRT or WebVTT, as response_format asks',
  content: {
    'application/json': { schema: Type.Union([VerboseTranslationSchema, Type.Object({ text: Type.String() }, { description: 'response_format json' })]) },
    'text/plain': { schema: { type: 'string' } },
    'application/x-subrip': { schema: { type: 'string' } },
    'text/vtt': { schema: { type: 'string' } },
  },
};

export const TRANSLATION_DESCRIPTION =
  'multipart/form-data: `file` (audio or video in any format ffmpeg reads; it becomes an asset of the caller) and the fields below. ' +
  'The installed recognizers transcribe; none translates, so English speech is answered as its English text and speech in another ' +
  'language (as `language` states or the recognizer detects) is refused with 422 `translation_not_supported`.';
