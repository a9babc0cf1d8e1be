/**
 * What each SSML element does to the words inside it: the style they are spoken in, or the
 * words it decides itself (`say-as`, `sub`, `phoneme`). One entry per element Timbre accepts;
 * docs/ssml.md describes each.
 */
import { primaryLanguage } from '../language-tag.js';
import { MAX_VOLUME_DB, PITCH_RANGE, RATE_RANGE, emphasis, pitchChange, rateFactor, volumeChange } from './prosody-values.js';
import type { RunStyle } from './run-builder.js';
import type { PhonemeAlphabet } from './segments.js';
import { SsmlValueError } from './ssml-error.js';

export type Attributes = Record<string, string>;

/** An element whose content is text only, turned into words when it closes. */
export type TextElement =
  { kind: 'say-as'; interpretAs: string; format?: string } | { kind: 'sub'; alias: string } | { kind: 'phoneme'; alphabet: PhonemeAlphabet; ph: string };

/** What an open element means for what is inside it. */
export interface ElementEffect {
  style: RunStyle;
  /** Text-only content read by `say-as`, replaced by `sub`, spoken as phonemes by `phoneme`. */
  textElement?: TextElement;
}

const LANGUAGE_ATTRIBUTE = 'xml:lang';
const ALPHABETS: readonly PhonemeAlphabet[] = ['ipa', 'x-sampa'];

/** The attributes each element may have; `speak` also takes any namespace declaration or xsi: attribute. */
const ALLOWED: Record<string, readonly string[]> = {
  speak: ['version', LANGUAGE_ATTRIBUTE, 'xml:base'],
  p: [LANGUAGE_ATTRIBUTE],
  s: [LANGUAGE_ATTRIBUTE],
  voice: ['name', LANGUAGE_ATTRIBUTE],
  lang: [LANGUAGE_ATTRIBUTE],
  break: ['time', 'strength'],
  prosody: ['rate', 'pitch', 'volume'],
  emphasis: ['level'],
  'say-as': ['interpret-as', 'format', 'detail'],
  sub: ['alias'],
  phoneme: ['alphabet', 'ph'],
  mark: ['name'],
};
/** Attributes of SSML that Timbre refuses with a reason rather than as unknown. */
const REFUSED_ATTRIBUTES: Record<string, string> = {
  gender: 'choose a voice with name="<Timbre voice id>"',
  age: 'choose a voice with name="<Timbre voice id>"',
  variant: 'choose a voice with name="<Timbre voice id>"',
  languages: 'choose a voice with name="<Timbre voice id>"',
  contour: 'prosody contour is not supported',
  range: 'prosody range is not supported',
  duration: 'prosody duration is not supported; use rate',
};
/** Elements of SSML (and of vendors' dialects) that Timbre refuses with a reason rather than as unknown. */
const REFUSED_ELEMENTS: Record<string, string> = {
  audio: '<audio> is not supported',
};

export function isKnownElement(name: string): boolean {
  return Object.hasOwn(ALLOWED, name);
}

export function refusedElement(name: string): string | undefined {
  return Object.hasOwn(REFUSED_ELEMENTS, name) ? REFUSED_ELEMENTS[name] : undefined;
}

function checkAttributes(name: string, attributes: Attributes): void {
  const allowed = ALLOWED[name] ?? [];
  for (const attribute of Object.keys(attributes)) {
    if (allowed.includes(attribute)) continue;
    if (name === 'speak' && /^(?:xmlns(?::|$)|xsi:)/.test(attribute)) continue;
    const refusal = Object.hasOwn(REFUSED_ATTRIBUTES, attribute) ? REFUSED_ATTRIBUTES[attribute] : undefined;
    throw new SsmlValueError(refusal ? `${attribute}: ${refusal}` : `unknown attribute ${attribute}`, { attribute });
  }
}

function required(attributes: Attributes, attribute: string): string {
  const value = attributes[attribute]?.trim();
  if (!value) throw new SsmlValueError(`${attribute} is required`, { attribute });
  return value;
}

/** A BCP 47 tag (canonical case), as Intl parses it, with a primary language subtag the text rules know the shape of. */
function languageTag(value: string): string {
  try {
    const [canonical] = Intl.getCanonicalLocales(value.trim());
    if (canonical && /^[a-z]{2,3}$/.test(primaryLanguage(canonical))) return canonical;
  } catch {
    // RangeError: not a tag; reported below.
  }
  throw new SsmlValueError(`xml:lang="${value}" is not a BCP 47 language tag such as en-US`, { attribute: LANGUAGE_ATTRIBUTE, value });
}

/** An element's own factor must be in range (else 400); what nesting multiplies it into is held in range (`held`). */
function ownFactor(factor: number, [low, high]: readonly [number, number], attribute: string, value: string): number {
  if (factor < low || factor > high)
    throw new SsmlValueError(`${attribute}="${value}" is ${Number(factor.toFixed(3))}×, outside ${low}–${high}×`, { attribute, value });
  return factor;
}

function held(value: number, [low, high]: readonly [number, number]): number {
  return Math.min(high, Math.max(low, value));
}

function withVolume(style: RunStyle, volumeDb: number): RunStyle {
  return { ...style, volumeDb: Math.min(volumeDb, MAX_VOLUME_DB) };
}

function prosody(style: RunStyle, attributes: Attributes): RunStyle {
  let next: RunStyle = { ...style };
  const { rate, pitch, volume } = attributes;
  if (rate !== undefined) next.rate = held(style.rate * ownFactor(rateFactor(rate), RATE_RANGE, 'rate', rate), RATE_RANGE);
  if (pitch !== undefined) {
    const change = pitchChange(pitch);
    if ('factor' in change) next.pitch = held(style.pitch * ownFactor(change.factor, PITCH_RANGE, 'pitch', pitch), PITCH_RANGE);
    else if (!change.relative) next = { ...next, pitch: 1, pitchHz: { hz: change.hz, relative: false } };
    else {
      const base = style.pitchHz ?? { hz: 0, relative: true };
      next.pitchHz = { hz: base.hz + change.hz, relative: base.relative };
      if (!base.relative && next.pitchHz.hz <= 0) throw new SsmlValueError(`pitch would be ${next.pitchHz.hz} Hz`, { attribute: 'pitch', value: pitch });
    }
  }
  if (volume !== undefined) {
    const change = volumeChange(volume);
    if ('addDb' in change && change.addDb > MAX_VOLUME_DB)
      throw new SsmlValueError(`volume="${volume}" is above +${MAX_VOLUME_DB} dB`, { attribute: 'volume', value: volume });
    next = withVolume(next, 'levelDb' in change ? change.levelDb : next.volumeDb + change.addDb);
  }
  return next;
}

/** The effect of element `name` (known, not refused) with `attributes` inside `style`. */
export function elementEffect(name: string, attributes: Attributes, style: RunStyle): ElementEffect {
  checkAttributes(name, attributes);
  const language = attributes[LANGUAGE_ATTRIBUTE];
  const inner: RunStyle = language === undefined ? style : { ...style, language: languageTag(language) };
  switch (name) {
    case 'lang':
      return { style: { ...style, language: languageTag(required(attributes, LANGUAGE_ATTRIBUTE)) } };
    case 'voice':
      return { style: { ...inner, voice: required(attributes, 'name') } };
    case 'prosody':
      return { style: prosody(style, attributes) };
    case 'emphasis': {
      const level = emphasis(attributes.level);
      const rate = held(style.rate * level.rate, RATE_RANGE);
      const pitch = held(style.pitch * level.pitch, PITCH_RANGE);
      return { style: withVolume({ ...style, rate, pitch }, style.volumeDb + level.addDb) };
    }
    case 'say-as': {
      const format = attributes.format?.trim();
      return { style, textElement: { kind: 'say-as', interpretAs: required(attributes, 'interpret-as'), ...(format ? { format } : {}) } };
    }
    case 'sub':
      return { style, textElement: { kind: 'sub', alias: required(attributes, 'alias') } };
    case 'phoneme': {
      const alphabet = (attributes.alphabet ?? 'ipa').trim();
      const known = ALPHABETS.find((candidate) => candidate === alphabet);
      if (!known) throw new SsmlValueError(`alphabet="${alphabet}" is not supported (${ALPHABETS.join(', ')})`, { attribute: 'alphabet', value: alphabet });
      return { style, textElement: { kind: 'phoneme', alphabet: known, ph: required(attributes, 'ph') } };
    }
    default:
      // speak, p, s, break and mark change nothing about how the words inside are spoken.
      return { style: inner };
  }
}
