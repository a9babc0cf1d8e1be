import { splitClauses, trimSpan, type Span } from '../text/clauses.js';
import { estimateSpeechSeconds } from './speech-length.js';
import { primaryLanguage } from '../text/language-tag.js';

/**
 * The parts of a text that go to the engine one call at a time. The engine host runs one call at
 * a time, and a quick job's call goes ahead of a long job's waiting ones: a sentence to speak
 * waits at most for the call in progress, so no call may be long. A part is whole sentences (an
 * engine speaks sentence by sentence anyway, so nothing is heard of the cuts); a sentence longer
 * than CALL_SECONDS of speech is cut at its clauses (after a semicolon, a comma, before a
 * conjunction, at a space; see clauses.ts), and a run without any (digits, a word of thousands of
 * letters) between characters, as the engines cut such runs themselves.
 */

/** Estimated seconds of speech, at the engine's speed, a part may always have (and a sentence is cut to). */
export const CALL_SECONDS = 10;
/** The most a part may have, however fast the engine: a call's audio is whole in the engine host until the call ends. */
export const MAX_CALL_SECONDS = 60;

export interface SpeechPart {
  text: string;
  /** Estimated seconds of speech at normal speed. */
  seconds: number;
}

const SENTENCES = new Intl.Segmenter('und', { granularity: 'sentence' });
const SPEAKABLE = /[\p{L}\p{N}]/u;

interface Piece extends Span {
  seconds: number;
  speakable: boolean;
}

/** A text (normalised) as sentences, or pieces of sentences, taken a part at a time. */
export class SpeechParts {
  /** Estimated seconds of the whole at normal speed. */
  readonly seconds: number;
  private readonly pieces: Piece[];
  private taken = 0;

  constructor(
    private readonly text: string,
    language: string,
    /** The speed the engine speaks at: a part's seconds count at it. */
    private readonly engineSpeed = 1,
  ) {
    this.pieces = piecesOf(text, language, CALL_SECONDS * engineSpeed);
    this.seconds = this.pieces.reduce((sum, piece) => sum + piece.seconds, 0);
  }

  /**
   * The next part: the pieces after the last part, as many as fit `budget` seconds of speech at
   * the engine's speed (at least one; text with nothing to say rides with its neighbours, since an
   * engine refuses it alone); undefined once all are taken. A text with nothing to say at all is
   * one part, for the engine to refuse.
   */
  next(budget = CALL_SECONDS): SpeechPart | undefined {
    if (this.pieces.length === 0) return this.taken++ === 0 ? { text: this.text, seconds: 0 } : undefined;
    const first = this.pieces[this.taken];
    if (!first) return undefined;
    let { end, seconds } = first;
    let speakable = first.speakable;
    for (let piece = this.pieces[++this.taken]; piece; piece = this.pieces[++this.taken]) {
      if (speakable && piece.speakable && (seconds + piece.seconds) / this.engineSpeed > budget) break;
      ({ end } = piece);
      seconds += piece.seconds;
      speakable ||= piece.speakable;
    }
    return { text: this.text.slice(first.start, end), seconds };
  }
}

/** The sentences of `text`, a sentence over `maxSeconds` (at normal speed) cut at its clauses. */
function piecesOf(text: string, language: string, maxSeconds: number): Piece[] {
  const primary = primaryLanguage(language);
  const piece = (span: Span, seconds = estimateSpeechSeconds(text.slice(span.start, span.end), language)) => ({
    ...span,
    seconds,
    speakable: SPEAKABLE.test(text.slice(span.start, span.end)),
  });
  const pieces = [...SENTENCES.segment(text)].flatMap(({ segment, index }) => {
    const sentence = trimSpan(text, index, index + segment.length);
    const seconds = estimateSpeechSeconds(text.slice(sentence.start, sentence.end), language);
    if (seconds <= maxSeconds) return [piece(sentence, seconds)];
    const maxChars = Math.max(1, Math.floor(((sentence.end - sentence.start) * maxSeconds) / seconds));
    return splitClauses(text, sentence, maxChars, primary).map((span) => piece(span));
  });
  const kept = pieces.filter((candidate) => candidate.end > candidate.start);
  return kept.some((candidate) => candidate.speakable) ? kept : [];
}
