import type { PhonemeTiming, WordTiming } from '../engines/types.js';
import type { SpeechRequest } from './speech-plan.js';
import type { SpeechTimings } from './voice-rendering.js';
import type { LoudnessEnvelope } from './loudness-envelope.js';
import { estimateWordTimings } from './word-estimate.js';

/** Where a task's word times came from: its engines, the estimate from its audio, or both (runs of different engines). */
export type WordSource = 'engine' | 'estimate' | 'mixed';

/** Where a run lies in the audio: from `start` to `end`, its engine's time 0 at `offset`. */
export interface RunSpan {
  start: number;
  end: number;
  offset: number;
}

/** Word and phoneme times of a spoken plan, in seconds of its audio, as a task stores them. */
export interface SpokenTimings {
  words: WordTiming[];
  phonemes: PhonemeTiming[] | null;
  word_source: WordSource;
}

/**
 * The times of a plan's runs joined: each run's engine words moved to where the run lies in the
 * audio, or, for a run whose engine gives none (or that spoke phonemes, whose words the engine
 * cannot name), estimated from the run's audio. Words stay in order and never overlap: an
 * engine's word reaching past its run is cut at the run's end.
 */
export class PlanTimings {
  private readonly words: WordTiming[] = [];
  private phonemes: PhonemeTiming[] | null = null;
  private fromEngine = 0;
  private estimated = 0;

  add(request: SpeechRequest, timings: SpeechTimings, span: RunSpan, envelope: LoudnessEnvelope): void {
    const engineWords = request.phonemes ? [] : (timings.words ?? []);
    const words =
      engineWords.length > 0
        ? engineWords.map((word) => ({ ...word, start: word.start + span.offset, end: word.end + span.offset }))
        : estimateWordTimings(request.text, request.language ?? '', envelope, span);
    if (engineWords.length > 0) {
      this.fromEngine++;
      endAtLastSound(words, envelope, span);
    } else this.estimated++;
    let floor = this.words.at(-1)?.end ?? 0;
    for (const word of words) {
      const start = Math.min(Math.max(word.start, floor, span.start), span.end);
      const end = Math.min(Math.max(word.end, start), span.end);
      this.words.push({ word: word.word, start, end });
      floor = end;
    }
    if (timings.phonemes)
      (this.phonemes ??= []).push(...timings.phonemes.map((item) => ({ ...item, start: item.start + span.start, end: item.end + span.start })));
  }

  joined(): SpokenTimings {
    const source: WordSource = this.estimated === 0 ? 'engine' : this.fromEngine === 0 ? 'estimate' : 'mixed';
    return { words: this.words, phonemes: this.phonemes, word_source: source };
  }
}

/** Frames louder than this (dBFS) are speech, not its fading tail. */
const SOUND_DB = -40;

/**
 * An engine's last word ends where the run's sound ends: engines that count a word's end by the
 * audio handed over so far (RHVoice) end it early, others late, at their padding.
 */
function endAtLastSound(words: WordTiming[], envelope: LoudnessEnvelope, span: RunSpan): void {
  const last = words.at(-1);
  if (!last) return;
  const first = Math.floor(span.start / envelope.frameSeconds);
  for (let frame = Math.min(envelope.frames, Math.ceil(span.end / envelope.frameSeconds)) - 1; frame >= first; frame--) {
    if (envelope.levelAt(frame) <= SOUND_DB) continue;
    const soundEnd = (frame + 1) * envelope.frameSeconds;
    if (soundEnd > last.start) words[words.length - 1] = { ...last, end: Math.min(soundEnd, span.end) };
    return;
  }
}
