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
import { eld } from 'eld/small';

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

/** `en-US` → `en`: the detector and the answer deal in primary subtags only. */
const primary = (tag: string) => tag.split(/[-_]/)[0]!.toLowerCase();

/** The language of `text`, restricted to `options.candidates` when given. */
export function detectLanguage(text: string, options: DetectOptions = {}): DetectedLanguage {
  // An empty list (voices that declare no language) restricts nothing rather than everything.
  const allowed = options.candidates?.length ? options.candidates.map(primary) : undefined;
  const isAllowed = (language: string) => !allowed || allowed.includes(language);
  const cleaned = text.normalize('NFC');
  const scored = isMostlyCjk(cleaned) ? byScript(cleaned, isAllowed) : byDetector(cleaned, isAllowed);
  if (scored?.reliable) return scored;
  const fallback = options.fallback ?? scored?.language ?? allowed?.[0];
  if (!fallback) return { language: 'und', confidence: 0, reliable: false };
  const language = primary(fallback);
  return { language, confidence: language === scored?.language ? scored.confidence : 0, reliable: false };
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
  const scores = Object.entries(eld.detect(text).getScores())
    .filter(([language]) => isAllowed(language))
    .sort(([, a], [, b]) => b - a);
  const [best, runnerUp] = scores;
  if (!best) return null;
  const [language, confidence] = best;
  const long = text.split(/\s+/).filter((word) => HAS_LETTER.test(word)).length >= MIN_WORDS || count(text, LETTER) >= MIN_LETTERS;
  const clear = confidence >= MIN_SCORE && confidence - (runnerUp?.[1] ?? 0) >= MIN_MARGIN;
  return { language, confidence, reliable: long && clear };
}
