import type { Pcm } from '../../platform/audio/pcm.js';
import { roundTo } from '../../platform/util/round.js';
import type { SampleWarning } from './intake.js';

/**
 * Intelligibility as a constraint of every clone and design: the word error rate of its rendering
 * of the probe sentences, heard by the best installed recognizer, may exceed the base voice's own
 * (the same sentences, unconverted, same recognizer) by this much at most. About three words of
 * the English probe.
 */
export const INTELLIGIBILITY_MARGIN = 0.1;
/**
 * With no base voice to compare with (a zero-shot clone speaks with an engine of its own), the
 * word error rate above which a voice counts as hard to understand.
 */
export const MAX_PROBE_WER = 0.4;
/** Recognition costs about a third of the probe's length: a choice checks this many candidates at most. */
export const MAX_CHECKS = 4;

/** Hears a rendering of the probe sentences and says how many of their words it got wrong. */
export interface IntelligibilityJudge {
  recognizer: string;
  wordErrorRate(pcm: Pcm): Promise<number>;
}

export interface Intelligibility {
  wordErrorRate: number;
  /** The base voice's own rate on the same sentences; null when there is no base voice. */
  baseWordErrorRate: number | null;
  recognizer: string;
}

export function keepsItsWords(measured: Intelligibility): boolean {
  const allowed = measured.baseWordErrorRate === null ? MAX_PROBE_WER : measured.baseWordErrorRate + INTELLIGIBILITY_MARGIN;
  return measured.wordErrorRate <= allowed + 1e-9;
}

/** A voice a clone or design is made from, with its plain rendering of the probe (or how to make it, when not yet heard). */
export interface BaseVoice {
  id: string;
  probe: Pcm | (() => Promise<Pcm>);
}

/**
 * Base voices' own word error rates, kept across clones: a preset speaks the probe sentences the
 * same way every time, so the recognizer hears each (recognizer, language, voice) once per process.
 */
export class BaseRates {
  private readonly rates = new Map<string, Promise<number>>();

  of(key: string, hear: () => Promise<number>): Promise<number> {
    let rate = this.rates.get(key);
    if (!rate) {
      rate = hear();
      this.rates.set(key, rate);
      // A cancelled clone must not leave its failure behind for the next one.
      rate.catch(() => this.rates.delete(key));
    }
    return rate;
  }
}

/** Measures renderings against a base voice, asking the recognizer about each base voice once. */
export class IntelligibilityCheck {
  constructor(
    readonly judge: IntelligibilityJudge,
    private readonly bases: BaseRates,
    /** Says whose rates these are: the recognizer and the language of the probe. */
    private readonly scope: string,
  ) {}

  async measure(rendering: Pcm, base?: BaseVoice): Promise<Intelligibility> {
    const wordErrorRate = await this.judge.wordErrorRate(rendering);
    return { wordErrorRate, baseWordErrorRate: base ? await this.baseRate(base) : null, recognizer: this.judge.recognizer };
  }

  /** A base voice's own word error rate on the probe sentences. */
  baseRate(base: BaseVoice): Promise<number> {
    const { id, probe } = base;
    return this.bases.of(`${this.scope}|${id}`, async () => this.judge.wordErrorRate(typeof probe === 'function' ? await probe() : probe));
  }
}

/**
 * The first candidate (best first) whose rendering keeps its words; when none of the first
 * MAX_CHECKS does, the one understood best. Candidates come lazily, so a milder variant is only
 * rendered when the one before it failed.
 */
export async function firstIntelligible<T>(
  candidates: AsyncIterable<T>,
  measure: (candidate: T) => Promise<Intelligibility>,
): Promise<{ chosen: T; intelligibility: Intelligibility } | undefined> {
  let clearest: { chosen: T; intelligibility: Intelligibility } | undefined;
  let checks = 0;
  for await (const chosen of candidates) {
    const intelligibility = await measure(chosen);
    if (keepsItsWords(intelligibility)) return { chosen, intelligibility };
    if (!clearest || intelligibility.wordErrorRate < clearest.intelligibility.wordErrorRate) clearest = { chosen, intelligibility };
    if (++checks === MAX_CHECKS) break;
  }
  return clearest;
}

/** How a voice record and a create response show it: word accuracy, higher is clearer. */
export function publicIntelligibility(measured: Intelligibility | undefined) {
  const accuracy = (rate: number) => roundTo(Math.max(0, 1 - rate), 3);
  return {
    intelligibility: measured ? accuracy(measured.wordErrorRate) : null,
    baseline_intelligibility: measured?.baseWordErrorRate != null ? accuracy(measured.baseWordErrorRate) : null,
    intelligibility_measure: measured ? `${measured.recognizer} word accuracy on the probe sentences` : null,
  };
}

/** `low_intelligibility` when a voice lost more words than the margin allows; never silent. */
export function intelligibilityWarnings(measured: Intelligibility | undefined): SampleWarning[] {
  if (!measured || keepsItsWords(measured)) return [];
  const base = measured.baseWordErrorRate;
  return [
    {
      code: 'low_intelligibility',
      message:
        base === null
          ? `The voice is hard to understand: ${measured.recognizer} missed ${Math.round(measured.wordErrorRate * 100)} % of the probe's words`
          : `The voice lost words on the way: ${measured.recognizer} missed ${Math.round(measured.wordErrorRate * 100)} % of the probe's words, against ${Math.round(base * 100)} % for the voice it was made from`,
      details: {
        word_error_rate: roundTo(measured.wordErrorRate, 3),
        base_word_error_rate: base === null ? null : roundTo(base, 3),
        margin: INTELLIGIBILITY_MARGIN,
      },
    },
  ];
}
