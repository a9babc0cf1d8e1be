import { Type, type Static } from 'typebox';
import { LANGUAGE_TAG } from '../../platform/http/schemas.js';

export const TRANSCRIPT_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;

export const Enum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description === undefined ? {} : { description }) });

/** The form's text fields as OpenAI's SDKs send them (arrays as repeated `name[]` fields). */
export const TranscriptionFieldsSchema = Type.Object(
  {
    model: Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        '`whisper-1`, `gpt-4o-transcribe` or `gpt-4o-mini-transcribe` (the best installed recognizer for the language), or one: `whisper`, `moonshine`, `pocketsphinx`',
    }),
    language: Type.Optional(Type.String({ maxLength: 35, pattern: LANGUAGE_TAG.source, description: 'ISO-639-1 (or BCP-47); detected when absent' })),
    prompt: Type.Optional(Type.String({ description: 'Accepted and not used: no installed recognizer takes a prompt' })),
    response_format: Type.Optional(Enum(TRANSCRIPT_FORMATS, 'Default json')),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Accepted and not used: recognizers decode greedily' })),
    'timestamp_granularities[]': Type.Optional(
      Type.Array(Enum(['word', 'segment'] as const), { description: 'Accepted; verbose_json always carries both segments and words' }),
    ),
    stream: Type.Optional(Type.Boolean({ description: 'Only false: transcripts are answered whole' })),
    'include[]': Type.Optional(Type.Array(Enum(['logprobs'] as const), { description: 'Accepted and not used: no log probabilities here' })),
    chunking_strategy: Type.Optional(Type.String({ description: 'Accepted and not used: long audio is always cut at pauses' })),
  },
  { additionalProperties: false },
);
export type TranscriptionFields = Static<typeof TranscriptionFieldsSchema>;

/** A segment with Whisper's fields, of transcriptions and translations. */
export const SegmentSchema = Type.Object({
  id: Type.Integer(),
  seek: Type.Integer({ description: 'The segment’s start in 10 ms frames' }),
  start: Type.Number(),
  end: Type.Number(),
  text: Type.String(),
  tokens: Type.Array(Type.Integer(), { description: 'Always empty: the recognizers report no token ids' }),
  temperature: Type.Number({ description: 'Always 0: greedy decoding' }),
  avg_logprob: Type.Number({ description: 'Always 0: not reported by the recognizers' }),
  compression_ratio: Type.Number({ description: 'The text’s bytes over its deflated bytes, as Whisper measures it' }),
  no_speech_prob: Type.Number({ description: 'Always 0: every segment is speech the recognizer heard' }),
});

const UsageSchema = Type.Object({ type: Type.Literal('duration'), seconds: Type.Number({ description: 'Length of the audio' }) });

const JsonTranscriptSchema = Type.Object({ text: Type.String(), usage: UsageSchema }, { description: 'response_format json' });

const VerboseTranscriptSchema = Type.Object(
  {
    task: Type.Literal('transcribe'),
    language: Type.String({ description: 'The language’s English name, lower-case (english)' }),
    duration: Type.Number(),
    text: Type.String(),
    segments: Type.Array(SegmentSchema),
    words: Type.Array(Type.Object({ word: Type.String(), start: Type.Number(), end: Type.Number() }), { description: 'In order of time' }),
    usage: UsageSchema,
  },
  { description: 'response_format verbose_json' },
);

export const TranscriptResponse = {
  description: 'The transcript: JSON (json, verbose_json), plain text, SRT or WebVTT, as response_format asks',
  content: {
    'application/json': { schema: Type.Union([VerboseTranscriptSchema, JsonTranscriptSchema]) },
    'text/plain': { schema: { type: 'string' } },
    'application/x-subrip': { schema: { type: 'string' } },
    'text/vtt': { schema: { type: 'string' } },
  },
};
