import { Type } from 'typebox';
import { applyPronunciations, type PronunciationDictionary } from '../text/pronunciation/apply.js';
import { looksLikeSsml, parseSsml, type SsmlLimits } from '../text/ssml/parse.js';
import { plainRuns, type MarkedRun } from '../text/ssml/segments.js';

export const TEXT_TYPES = ['text', 'ssml'] as const;
export type TextType = (typeof TEXT_TYPES)[number];

/** The fields every synthesis body takes for markup and pronunciation (docs/ssml.md). */
export const TextTypeField = Type.Optional(
  Type.Unsafe<TextType>({
    type: 'string',
    enum: [...TEXT_TYPES],
    description: '`ssml`: the text is SSML (docs/ssml.md); `text`: read as written. Absent: SSML when the text’s root element is `<speak>`',
  }),
);
export const PronunciationIdsField = Type.Optional(
  Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
    maxItems: 100,
    description:
      'Pronunciation dictionaries to apply, with those of the project and the voice after them (at each place the longest match wins; of equal ones, the earlier dictionary’s); at most TIMBRE_PRONUNCIATION_MAX_DICTIONARIES in all',
  }),
);

/** Which dictionaries a request applies: its own, then its project's, then its voice's (the pronunciations service answers). */
export type DictionaryLookup = (
  ids: { request?: readonly string[]; projectId?: string | null; voiceId?: string },
  callerKeyId: string,
) => PronunciationDictionary[];

/** Whether a text is read as SSML: as its type says, else when its root element is `<speak>`. */
export function isSsml(text: string, textType?: TextType): boolean {
  return textType === 'ssml' || (textType === undefined && looksLikeSsml(text));
}

/** What a request asks of markup and pronunciation. */
export interface MarkupRequest {
  text: string;
  textType?: TextType;
  pronunciationIds?: readonly string[];
  projectId?: string | null;
}

/**
 * A synthesis text as runs: SSML parsed within its limits (400 `invalid_ssml`), or the plain text
 * as one run; then the request's, project's and voice's pronunciation dictionaries applied to the
 * author's own words in the language they are spoken in.
 */
export class SpeechMarkup {
  constructor(
    private readonly limits: SsmlLimits,
    private readonly dictionaries: DictionaryLookup,
  ) {}

  /** `language` is what `say-as` reads numbers and dates in outside any `xml:lang` (English when absent). */
  read(text: string, textType?: TextType, language?: string): MarkedRun[] {
    return isSsml(text, textType) ? parseSsml(text, this.limits, language) : plainRuns(text);
  }

  pronounced(runs: readonly MarkedRun[], language: string, request: MarkupRequest & { voiceId: string }, callerKeyId: string): readonly MarkedRun[] {
    const dictionaries = this.dictionaries({ request: request.pronunciationIds, projectId: request.projectId, voiceId: request.voiceId }, callerKeyId);
    return dictionaries.length === 0 ? runs : applyPronunciations(runs, dictionaries, language);
  }
}
