/**
 * Which language a piece of text is in, so that a sentence can be given to a voice and to the
 * normalisation rules of that language.
 *
 * Latin, Cyrillic and other alphabetic text goes to `eld` (Efficient Language Detector, 60
 * languages, ISO 639-1 codes, which are already BCP 47 primary subtags). Its "small" database was
 * as accurate as the larger ones on short sentences and loads in about half the memory.
 *
 * Chinese, Japanese and Korean are decided by script instead: n-gram detectors are weak on a few
 * CJK characters, while kana means Japanese and Hangul means Korean whatever the length.
 */
import type { eld as EldDetector } from 'eld/small';
import { primaryLanguage } from './language-tag.js';

let detector: typeof EldDetector | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads eld's n-gram database on the first text whose language must be told rather than at
 * start-up: it is about a second of CPU on a busy 2-core machine, a third of what `timbre serve`
 * spent before it listened. detectLanguage and preferredLanguage need it loaded; every caller in
 * the service awaits this first (speakingLanguage, speechLanguage, planChunks).
 */
export function loadLanguageDetector(): Promise<void> {
  loading ??= import('eld/small').then((module) => {
    detector = module.eld;
  });
  return loading;
}

function eld(): typeof EldDetector {
  if (!detector) throw new Error('A language was detected before loadLanguageDetector() finished');
  return detector;
}

export interface DetectOptions {
  /** Allowed answers (BCP 47, e.g. the languages the chosen voices speak); any when absent or empty. */
  candidates?: string[];
  /** The answer when the text is too short or ambiguous to tell (e.g. the previous sentence's). */
  fallback?: string;
}

export interface DetectedLanguage {
  /** BCP 47 primary language subtag (`en`, `zh`), or `und` when nothing could be told. */
  language: string;
  /** 0..1: the detector's score for `language` (a typical correct detection scores about 0.8). */
  confidence: number;
  reliable: boolean;
}

// Below these the detector's answer is a guess: one or two words ("Hotel", "Hello world") look
// like many languages. Letters count for scripts written without spaces (Thai, Lao).
const MIN_WORDS = 3;
const MIN_LETTERS = 16;
// The winner must beat the runner-up by this much; closer than that is a coin toss (the
// Portuguese "Eu te amo" scores Dutch 0.73, Croatian 0.72).
const MIN_MARGIN = 0.03;
// eld rates a correct detection about 0.78 on average; well under that it is guessing.
const MIN_SCORE = 0.55;
// A few Han characters alone can be Japanese as well as Chinese (東京駅).
const MIN_HAN_CHARACTERS = 4;

const LETTER = /\p{L}/gu;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const HANGUL = /\p{Script=Hangul}/gu;
const HAN = /\p{Script=Han}/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
const HAS_LETTER = /\p{L}/u;

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/** The language of `text`, restricted to `options.candidates` when given. */
export function detectLanguage(text: string, options: DetectOptions = {}): DetectedLanguage {
  // An empty list (voices that declare no language) restricts nothing rather than everything.
  const allowed = options.candidates?.length ? options.candidates.map(primaryLanguage) : undefined;
  const isAllowed = (language: string) => !allowed || allowed.includes(language);
  const cleaned = text.normalize('NFC');
  const scored = isMostlyCjk(cleaned) ? byScript(cleaned, isAllowed) : byDetector(cleaned, isAllowed);
  if (scored?.reliable) return scored;
  const fallback = options.fallback ?? scored?.language ?? allowed?.[0];
  if (!fallback) return { language: 'und', confidence: 0, reliable: false };
  const language = primaryLanguage(fallback);
  return { language, confidence: language === scored?.language ? scored.confidence : 0, reliable: false };
}

export interface PreferredOptions {
  /** The language expected (the voice's own, or English for OpenAI's voice names). */
  preferred: string;
  /** The languages another answer may be (BCP 47, e.g. the languages the voices speak); any when empty. */
  candidates: readonly string[];
}

// Leaving the expected language takes more than the detector's best guess: a few words are a guess
// whatever it says ("Hello from Timbre." scores Italian 0.66, Spanish 0.61, English 0.58). Measured
// on the texts of test/unit/platform/text/detect-language.test.ts: everyday sentences of 20 letters
// and more in other languages score at least 0.76 and lead English by at least 0.16; English naming
// foreign people, places and dishes, once the names inside sentences are set aside, gives no other
// language both. (A text of names alone, "Mario Rossi, Luca Bianchi", is judged whole: Italian.)
/** Letters a text needs before its language may differ from the expected one (same script). */
export const SWITCH_MIN_LETTERS = 20;
/** The detector's score the other language needs. */
const SWITCH_MIN_SCORE = 0.7;
/** How far the other language's score must lead the expected language's. */
const SWITCH_MIN_LEAD = 0.15;
// Below this many letters without the names, the names are the text ("Mario Rossi, Luca Bianchi").
const MIN_LETTERS_WITHOUT_NAMES = 8;
// A capitalised word that does not start a sentence: a name, most likely ("Anna and Marco").
const NAME_INSIDE_SENTENCE = /(?<=[\p{L}\p{N},;:]\s+)\p{Lu}[\p{L}\p{M}'’-]*/gu;
// Scripts of the writing-system codes CLDR gives CJK languages (`ja` → Jpan), which are not scripts.
const SCRIPTS_OF: Readonly<Record<string, string[]>> = { Jpan: ['Hani', 'Hira', 'Kana'], Kore: ['Hang', 'Hani'], Hans: ['Hani'], Hant: ['Hani'] };

/**
 * The language to speak `text` in when one is expected: `preferred`, unless the text is
 * confidently in another of `candidates`. Confident means written mostly in a script the
 * preferred language is not written in (Cyrillic, Greek, kana, Hangul, …: then the best language
 * of that script), or at least SWITCH_MIN_LETTERS letters whose language, with the names inside
 * sentences set aside, scores SWITCH_MIN_SCORE and leads the preferred one by SWITCH_MIN_LEAD.
 * Answers a primary subtag.
 */
export function preferredLanguage(text: string, options: PreferredOptions): string {
  const preferred = primaryLanguage(options.preferred);
  const allowed = options.candidates.length > 0 ? options.candidates.map(primaryLanguage) : undefined;
  const isAllowed = (language: string) => language !== preferred && (!allowed || allowed.includes(language));
  const cleaned = text.normalize('NFC');
  const letters = count(cleaned, LETTER);
  if (letters === 0) return preferred;
  const inScript = (language: string) => count(cleaned, scriptPattern(language) ?? LETTER) * 2 >= letters;
  if (isMostlyCjk(cleaned)) return byScript(cleaned, isAllowed)?.language ?? preferred;
  if (!inScript(preferred)) {
    const written = (language: string) => isAllowed(language) && inScript(language);
    return byDetector(cleaned, written)?.language ?? allowed?.find(written) ?? preferred;
  }
  if (letters < SWITCH_MIN_LETTERS) return preferred;
  const withoutNames = cleaned.replace(NAME_INSIDE_SENTENCE, ' ');
  const evidence = count(withoutNames, LETTER) >= MIN_LETTERS_WITHOUT_NAMES ? withoutNames : cleaned;
  const scores = eld().detect(evidence).getScores();
  const [best, score] = Object.entries(scores)
    .filter(([language]) => isAllowed(language))
    .reduce<[string, number]>((top, entry) => (entry[1] > top[1] ? entry : top), [preferred, 0]);
  return score >= SWITCH_MIN_SCORE && score - (scores[preferred] ?? 0) >= SWITCH_MIN_LEAD ? best : preferred;
}

/** Letters of the script a language is written in (CLDR's likely script); undefined when unknown. */
function scriptPattern(language: string): RegExp | undefined {
  let script: string | undefined;
  try {
    script = new Intl.Locale(language).maximize().script;
  } catch {
    return undefined;
  }
  if (!script) return undefined;
  try {
    return new RegExp(`[${(SCRIPTS_OF[script] ?? [script]).map((name) => `\\p{Script=${name}}`).join('')}]`, 'gu');
  } catch {
    return undefined;
  }
}

/** At least half the letters are CJK: mostly Latin text quoting a name ("I flew to 東京") is not. */
function isMostlyCjk(text: string): boolean {
  const letters = count(text, LETTER);
  return letters > 0 && count(text, CJK) * 2 >= letters;
}

/**
 * CJK text decided by script. A language that is not allowed gives no answer rather than a
 * detector's guess at a language of another script.
 */
function byScript(text: string, isAllowed: (language: string) => boolean): DetectedLanguage | null {
  const kana = count(text, KANA);
  const hangul = count(text, HANGUL);
  const han = count(text, HAN);
  const options: DetectedLanguage[] =
    kana > 0
      ? [{ language: 'ja', confidence: 1, reliable: true }]
      : hangul > 0
        ? [{ language: 'ko', confidence: 1, reliable: true }]
        : [
            // Han alone is most often Chinese; Japanese only when Chinese is not a candidate.
            { language: 'zh', confidence: 0.9, reliable: han >= MIN_HAN_CHARACTERS },
            { language: 'ja', confidence: 0.5, reliable: han >= MIN_HAN_CHARACTERS },
          ];
  return options.find((option) => isAllowed(option.language)) ?? null;
}

/** The detector's best allowed language; null when it scored none. */
function byDetector(text: string, isAllowed: (language: string) => boolean): DetectedLanguage | null {
  const scores = Object.entries(eld().detect(text).getScores())
    .filter(([language]) => isAllowed(language))
    .sort(([, a], [, b]) => b - a);
  const [best, runnerUp] = scores;
  if (!best) return null;
  const [language, confidence] = best;
  const long = text.split(/\s+/).filter((word) => HAS_LETTER.test(word)).length >= MIN_WORDS || count(text, LETTER) >= MIN_LETTERS;
  const clear = confidence >= MIN_SCORE && confidence - (runnerUp?.[1] ?? 0) >= MIN_MARGIN;
  return { language, confidence, reliable: long && clear };
}
