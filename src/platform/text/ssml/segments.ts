/**
 * What a marked-up text says, flattened: speech runs with how each is spoken, and pauses.
 * SSML parses into these (ssml/parse.ts), a plain text is one run, pronunciation dictionaries
 * rewrite the runs they may touch, and speaking drives an engine per run (speech/speech-plan.ts).
 */

export type PhonemeAlphabet = 'ipa' | 'x-sampa';

export interface Phonemes {
  alphabet: PhonemeAlphabet;
  value: string;
}

export interface SpeechRun {
  kind: 'speech';
  /** The words to say, as written (not yet normalised); for a phoneme run, the written word, spoken where the engine takes no phonemes. */
  text: string;
  /**
   * True for the author's own words, which pronunciation dictionaries may rewrite; false for
   * words that markup already decided (a `sub` alias, a `say-as` reading, a `phoneme`).
   */
  literal: boolean;
  /** A Timbre voice id (`<voice name>`); absent: the request's voice. */
  voice?: string;
  /** BCP 47 (`xml:lang`, `<lang>`); absent: the request's language. */
  language?: string;
  /** Multiplies the request's speed (`prosody rate`, `emphasis`). */
  rate: number;
  /** Multiplies the voice's pitch (`prosody pitch`, `emphasis`). */
  pitch: number;
  /**
   * A pitch in hertz (`prosody pitch="180Hz"`, `"+20Hz"`): absolute, or added to the voice's own
   * median pitch; the plan turns it into a factor (times `pitch`) once it knows the voice.
   */
  pitchHz?: { hz: number; relative: boolean };
  /** Gain in decibels (`prosody volume`, `emphasis`); -Infinity is silent. */
  volumeDb: number;
  /** Say these sounds instead of the text (`<phoneme>`, a dictionary's phoneme rule). */
  phonemes?: Phonemes;
}

export interface PauseRun {
  kind: 'break';
  seconds: number;
}

export type MarkedRun = SpeechRun | PauseRun;

/** A plain text as the one run it is. */
export function plainRuns(text: string): MarkedRun[] {
  return [{ kind: 'speech', text, literal: true, rate: 1, pitch: 1, volumeDb: 0 }];
}

/** What the runs say, as one text: for language detection, excerpts and length checks. */
export function spokenText(runs: readonly MarkedRun[]): string {
  return runs
    .flatMap((run) => (run.kind === 'speech' ? [run.text] : []))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
