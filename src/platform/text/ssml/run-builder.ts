/**
 * Collects the runs of an SSML document as its parser walks it: text joins the run before it
 * when it sounds the same, whitespace never starts a run of its own, pauses add up, and sentence
 * and paragraph ends are marked so every engine hears them.
 */
import type { MarkedRun, Phonemes, SpeechRun } from './segments.js';

/** How the words inside an element are spoken: what the elements around them decided. */
export interface RunStyle {
  voice?: string;
  language?: string;
  rate: number;
  pitch: number;
  pitchHz?: { hz: number; relative: boolean };
  volumeDb: number;
}

export const PLAIN_STYLE: RunStyle = { rate: 1, pitch: 1, volumeDb: 0 };

/** The pause after a paragraph (`</p>`), on top of the engine's own pause after a sentence. */
export const PARAGRAPH_PAUSE_SECONDS = 0.4;

/** Sentence-final punctuation in the scripts Timbre speaks, then any closing quotes or brackets. */
const SENTENCE_END = /[.!?…。！？؟।][\p{Pf}\p{Pe}"']*$/u;

/** Chinese and Japanese end a sentence with an ideographic full stop. */
const WIDE_STOP_AFTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;

function sameStyle(run: SpeechRun, style: RunStyle): boolean {
  return (
    run.voice === style.voice &&
    run.language === style.language &&
    run.rate === style.rate &&
    run.pitch === style.pitch &&
    run.volumeDb === style.volumeDb &&
    run.pitchHz?.hz === style.pitchHz?.hz &&
    run.pitchHz?.relative === style.pitchHz?.relative
  );
}

function speechRun(text: string, literal: boolean, style: RunStyle, phonemes?: Phonemes): SpeechRun {
  const run: SpeechRun = { kind: 'speech', text, literal, rate: style.rate, pitch: style.pitch, volumeDb: style.volumeDb };
  if (style.voice !== undefined) run.voice = style.voice;
  if (style.language !== undefined) run.language = style.language;
  if (style.pitchHz !== undefined) run.pitchHz = { ...style.pitchHz };
  if (phonemes !== undefined) run.phonemes = phonemes;
  return run;
}

export class RunBuilder {
  private readonly runs: MarkedRun[] = [];
  /** A paragraph ended: its pause goes in before the next words, unless a `<break>` says how long to pause. */
  private paragraphPausePending = false;

  private last(): MarkedRun | undefined {
    return this.runs.at(-1);
  }

  /** The author's own words. */
  text(text: string, style: RunStyle): void {
    if (/^[\s\p{P}]*$/u.test(text)) {
      // Whitespace and punctuation only separate words: they belong to the run before, whatever its style.
      const last = this.last();
      if (last?.kind === 'speech') last.text += text;
      return;
    }
    this.startWords();
    const last = this.last();
    if (last?.kind === 'speech' && last.literal && !last.phonemes && sameStyle(last, style)) last.text += text;
    else this.runs.push(speechRun(text, true, style));
  }

  /** Words the markup decided (`say-as`, `sub`, `phoneme`): a word of their own, never rewritten by a dictionary. */
  decided(text: string, style: RunStyle, phonemes?: Phonemes): void {
    this.startWords();
    const last = this.last();
    if (!phonemes && last?.kind === 'speech' && !last.literal && !last.phonemes && sameStyle(last, style)) last.text += ` ${text}`;
    else this.runs.push(speechRun(text, false, style, phonemes));
  }

  pause(seconds: number): void {
    this.paragraphPausePending = false;
    const last = this.last();
    // A break of no time still parts the words either side of it.
    if (seconds <= 0 && last?.kind === 'speech') last.text += ' ';
    if (seconds <= 0) return;
    if (last?.kind === 'break') last.seconds += seconds;
    else this.runs.push({ kind: 'break', seconds });
  }

  /** The words so far end a sentence: a full stop where they have no sentence punctuation. */
  endSentence(): void {
    const lastSpeech = this.runs.findLast((run) => run.kind === 'speech');
    if (!lastSpeech || lastSpeech.kind !== 'speech') return;
    const trimmed = lastSpeech.text.trimEnd();
    if (trimmed && !SENTENCE_END.test(trimmed)) lastSpeech.text = `${trimmed}${WIDE_STOP_AFTER.test(trimmed) ? '。' : '.'} `;
  }

  endParagraph(): void {
    this.endSentence();
    if (this.runs.some((run) => run.kind === 'speech')) this.paragraphPausePending = true;
  }

  private startWords(): void {
    if (!this.paragraphPausePending) return;
    this.pause(PARAGRAPH_PAUSE_SECONDS);
  }

  /** The runs, whitespace collapsed; a paragraph pause at the very end is dropped (nothing follows it). */
  finish(): MarkedRun[] {
    return this.runs.flatMap((run): MarkedRun[] => {
      if (run.kind === 'break') return [run];
      const text = run.text.replace(/\s+/g, ' ').trim();
      return text ? [{ ...run, text }] : [];
    });
  }
}
