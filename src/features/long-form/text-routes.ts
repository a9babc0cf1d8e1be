import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DEFAULT_LANGUAGE, DEFAULT_MAX_CHARS, splitSentences } from '../../platform/text/split.js';
import { languageSchema } from '../../platform/http/schemas.js';
import { withErrors } from '../../platform/http/responses.js';

const SplitBodySchema = Type.Object(
  {
    text: Type.String({ minLength: 1, maxLength: 100_000, description: 'Text to split into sentences' }),
    language: Type.Optional(languageSchema(`BCP-47 language code of the text; ${DEFAULT_LANGUAGE} when absent`)),
    max_chars: Type.Optional(
      Type.Integer({ minimum: 20, maximum: 5000, default: DEFAULT_MAX_CHARS, description: 'Longer sentences are cut at clause boundaries' }),
    ),
  },
  { additionalProperties: false },
);

const SentenceSchema = Type.Object({
  index: Type.Integer(),
  text: Type.String({ description: 'The sentence with its closing punctuation and quotes, without surrounding whitespace' }),
  start: Type.Integer({ description: 'UTF-16 offset of the sentence in the input' }),
  end: Type.Integer({ description: 'UTF-16 offset just past the sentence: text = input.slice(start, end)' }),
  paragraph_end: Type.Boolean({ description: 'A blank line or the end of the text follows (a longer pause fits)' }),
});

const SplitResponseSchema = Type.Object({
  sentences: Type.Array(SentenceSchema),
  count: Type.Integer(),
  language: Type.String({ description: 'The language the rules were chosen for' }),
});

export const textRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/api/text/split', {
    config: { scope: 'audio:process' },
    schema: {
      operationId: 'splitText',
      tags: ['Text'],
      summary: 'Split text into sentences with their offsets',
      description:
        'Sentences for long-form synthesis: abbreviations, initials, decimals, ellipses, quotes and numbered lists are handled per language; sentences longer than max_chars are cut at clause boundaries. Only whitespace lies between sentences.',
      body: SplitBodySchema,
      response: withErrors({ 200: SplitResponseSchema }),
    },
    handler: async (request) => {
      const { text, language = DEFAULT_LANGUAGE, max_chars: maxChars } = request.body;
      const sentences = splitSentences(text, { language, maxChars }).map(({ paragraphEnd, ...sentence }) => ({
        ...sentence,
        paragraph_end: paragraphEnd,
      }));
      return { sentences, count: sentences.length, language };
    },
  });
};
