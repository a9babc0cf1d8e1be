/**
 * The values of `<prosody>`, `<emphasis>` and `<break>` attributes as numbers (see docs/ssml.md).
 * Rate and pitch are factors applied to the enclosing ones; volume is decibels added to the
 * enclosing level, except a bare 0–100 level, which sets it.
 */
import { SsmlValueError } from './ssml-error.js';

const RATE_WORDS: Record<string, number> = { 'x-slow': 0.5, slow: 0.75, medium: 1, default: 1, fast: 1.5, 'x-fast': 2 };
const PITCH_WORDS: Record<string, number> = { 'x-low': 0.75, low: 0.88, medium: 1, default: 1, high: 1.15, 'x-high': 1.3 };
const VOLUME_WORDS: Record<string, number> = { silent: -Infinity, 'x-soft': -12, soft: -6, medium: 0, default: 0, loud: 6, 'x-loud': 10 };
const BREAK_STRENGTHS: Record<string, number> = { none: 0, 'x-weak': 0.1, weak: 0.25, medium: 0.4, strong: 0.7, 'x-strong': 1.2 };

/** The effective rate and pitch factors a run may have (engines and ffmpeg go no further while staying intelligible). */
export const RATE_RANGE = [0.25, 4] as const;
export const PITCH_RANGE = [0.5, 2] as const;
/** The loudest gain asked for; more only clips. */
export const MAX_VOLUME_DB = 24;
/** Hertz values: an absolute pitch above this, or a shift beyond it either way, is no voice's. */
export const MAX_PITCH_HZ = 1000;

const NUMBER = String.raw`(\d+(?:\.\d+)?|\.\d+)`;
const PERCENT = new RegExp(String.raw`^([+-]?)${NUMBER}%$`);
const PLAIN = new RegExp(`^${NUMBER}$`);
const SEMITONES = new RegExp(String.raw`^([+-])${NUMBER}st$`);
const HERTZ = new RegExp(String.raw`^([+-]?)${NUMBER}Hz$`);
const DECIBELS = new RegExp(String.raw`^([+-])${NUMBER}dB$`);
const DURATION = new RegExp(String.raw`^${NUMBER}(ms|s)$`);

function word(words: Record<string, number>, value: string): number | undefined {
  return Object.hasOwn(words, value) ? words[value] : undefined;
}

/** "+20%" → 1.2, "-20%" → 0.8, "80%" → 0.8. */
function percentFactor(match: RegExpExecArray): number {
  const percent = Number(match[2]);
  return match[1] === '-' ? 1 - percent / 100 : match[1] === '+' ? 1 + percent / 100 : percent / 100;
}

function positive(factor: number, value: string, attribute: string): number {
  if (!(factor > 0)) throw new SsmlValueError(`${attribute}="${value}" would make it zero or less`, { attribute, value });
  return factor;
}

/** `prosody rate`: a keyword, a factor ("0.8"), a percentage of the default ("80%") or a change ("+20%"). */
export function rateFactor(value: string): number {
  const trimmed = value.trim();
  const named = word(RATE_WORDS, trimmed);
  if (named !== undefined) return named;
  const plain = PLAIN.exec(trimmed);
  if (plain) return positive(Number(plain[1]), value, 'rate');
  const percent = PERCENT.exec(trimmed);
  if (percent) return positive(percentFactor(percent), value, 'rate');
  throw new SsmlValueError(`rate="${value}" is not a rate (x-slow … x-fast, a number such as 0.8, or a percentage such as 80% or +20%)`, {
    attribute: 'rate',
    value,
  });
}

/** `prosody pitch`: a factor, or hertz (`pitchHz`) the speech plan turns into one once it knows the voice. */
export type PitchChange = { factor: number } | { hz: number; relative: boolean };

export function pitchChange(value: string): PitchChange {
  const trimmed = value.trim();
  const named = word(PITCH_WORDS, trimmed);
  if (named !== undefined) return { factor: named };
  const percent = PERCENT.exec(trimmed);
  if (percent) return { factor: positive(percentFactor(percent), value, 'pitch') };
  const semitones = SEMITONES.exec(trimmed);
  if (semitones) return { factor: 2 ** (((semitones[1] === '-' ? -1 : 1) * Number(semitones[2])) / 12) };
  const hertz = HERTZ.exec(trimmed);
  if (hertz) {
    const hz = Number(hertz[2]);
    if (hz > MAX_PITCH_HZ || (!hertz[1] && hz === 0))
      throw new SsmlValueError(`pitch="${value}" is outside 0–${MAX_PITCH_HZ} Hz`, { attribute: 'pitch', value });
    return hertz[1] ? { hz: hertz[1] === '-' ? -hz : hz, relative: true } : { hz, relative: false };
  }
  throw new SsmlValueError(`pitch="${value}" is not a pitch (x-low … x-high, a change such as +30% or +2st, or hertz such as 180Hz or +20Hz)`, {
    attribute: 'pitch',
    value,
  });
}

/** `prosody volume`: decibels to add (`{ db }`), or a level (`{ level }`) that replaces the enclosing one. */
export type VolumeChange = { addDb: number } | { levelDb: number };

export function volumeChange(value: string): VolumeChange {
  const trimmed = value.trim();
  const named = word(VOLUME_WORDS, trimmed);
  if (named !== undefined) return named === -Infinity ? { levelDb: named } : { addDb: named };
  const decibels = DECIBELS.exec(trimmed);
  if (decibels) return { addDb: (decibels[1] === '-' ? -1 : 1) * Number(decibels[2]) };
  const plain = PLAIN.exec(trimmed);
  if (plain && Number(plain[1]) <= 100) return { levelDb: 20 * Math.log10(Number(plain[1]) / 100) };
  throw new SsmlValueError(`volume="${value}" is not a volume (silent, x-soft … x-loud, a change such as +6dB, or a level 0–100)`, {
    attribute: 'volume',
    value,
  });
}

/** `break time` ("1500ms", "1.5s") or `strength` in seconds; time wins when both are given, medium when neither is. */
export function breakSeconds(time: string | undefined, strength: string | undefined): number {
  if (time !== undefined) {
    const duration = DURATION.exec(time.trim());
    if (!duration) throw new SsmlValueError(`time="${time}" is not a duration such as 1500ms or 1.5s`, { attribute: 'time', value: time });
    return duration[2] === 'ms' ? Number(duration[1]) / 1000 : Number(duration[1]);
  }
  const seconds = word(BREAK_STRENGTHS, (strength ?? 'medium').trim());
  if (seconds === undefined)
    throw new SsmlValueError(`strength="${strength}" is not one of ${Object.keys(BREAK_STRENGTHS).join(', ')}`, { attribute: 'strength', value: strength });
  return seconds;
}

/** What `<emphasis level>` does to rate, pitch and volume. */
export interface Emphasis {
  rate: number;
  pitch: number;
  addDb: number;
}

const EMPHASIS_LEVELS: Record<string, Emphasis> = {
  strong: { rate: 0.85, pitch: 1.1, addDb: 4 },
  moderate: { rate: 0.92, pitch: 1.05, addDb: 2 },
  reduced: { rate: 1.05, pitch: 0.95, addDb: -3 },
  none: { rate: 1, pitch: 1, addDb: 0 },
};

export function emphasis(level: string | undefined): Emphasis {
  const key = (level ?? 'moderate').trim();
  if (!Object.hasOwn(EMPHASIS_LEVELS, key))
    throw new SsmlValueError(`level="${level}" is not one of ${Object.keys(EMPHASIS_LEVELS).join(', ')}`, { attribute: 'level', value: level });
  return EMPHASIS_LEVELS[key]!;
}
