/**
 * How long a text takes to say, estimated from its characters before any engine runs, so that a
 * request whose text expands into far more speech than its length suggests (digit runs read one
 * by one, numbers read out, symbols named) is refused at once rather than after minutes of work.
 *
 * The estimate works on the text as the engine will read it: after `normalizeText` (which turns
 * numbers and symbols into words for the languages it knows) and with runs of punctuation cut to
 * three, as the built-in engines cut them. It counts what costs time when spoken, at the normal
 * speed, with rates measured on the built-in voices (Pico, eSpeak NG, Festival, Flite, RHVoice,
 * Open JTalk; see docs/limits-and-guarantees.md): a letter of an alphabetic script, a gap between
 * words, a character of Chinese or Japanese (a syllable or two), a digit the engine reads one by
 * one, a symbol it names, a pause at a comma or a sentence end. It aims at the middle of what the
 * voices measure, not at an upper bound: the audio is bounded again while it is made.
 */
import { shortenPunctuationRuns } from '../engines/builtin-text.js';
import { primaryLanguage } from '../text/language-tag.js';

/** Seconds of speech at normal speed per thing said. */
interface Rates {
  letter: number;
  word: number;
  /** A Han, kana or Hangul character. */
  syllabic: number;
  digit: number;
  symbol: number;
  comma: number;
  stop: number;
}

/** Digits left as digits (languages without number rules, numbers past them) are read in groups or one by one: 0.11–0.24 s each. */
const ALPHABETIC: Rates = { letter: 0.056, word: 0.045, syllabic: 0.2, digit: 0.2, symbol: 0.45, comma: 0.2, stop: 0.35 };

/**
 * Languages that read differently: Japanese engines spell unknown Latin words letter by letter
 * and read digits in long runs one by one (`ゼロ`, `ナナ`), about half a second each.
 */
const RATES: Readonly<Record<string, Rates>> = {
  ja: { ...ALPHABETIC, letter: 0.15, syllabic: 0.2, digit: 0.5 },
  zh: { ...ALPHABETIC, syllabic: 0.22, digit: 0.25 },
};

const SYLLABIC = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;
const STOP = /[.!?。！？…\n]/u;
const COMMA = /[,;:、，；：]/u;
/** Symbols engines name (`%` percent, `&` and, `#` hash); other punctuation is a pause or nothing. */
const SYMBOL = /[\p{S}#%&*@/\\]/u;

/** Seconds `text` takes to say at normal speed in `language` (BCP 47); `text` is already normalised (normalizeText). */
export function estimateSpeechSeconds(text: string, language: string): number {
  const rates = RATES[primaryLanguage(language)] ?? ALPHABETIC;
  let seconds = 0;
  let inWord = false;
  for (const char of shortenPunctuationRuns(text)) {
    const wordChar = LETTER.test(char) || DIGIT.test(char);
    if (SYLLABIC.test(char)) seconds += rates.syllabic;
    else if (LETTER.test(char)) seconds += rates.letter;
    else if (DIGIT.test(char)) seconds += rates.digit;
    else if (STOP.test(char)) seconds += rates.stop;
    else if (COMMA.test(char)) seconds += rates.comma;
    else if (SYMBOL.test(char)) seconds += rates.symbol;
    if (wordChar && !inWord && !SYLLABIC.test(char)) seconds += rates.word;
    inWord = wordChar;
  }
  return seconds;
}
