import type { Schemas } from '../../api.js';

export type Voice = Schemas['Voice'];

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** "English (United States)" for en-US; the tag itself when the browser does not know it. */
export function languageName(tag: string): string {
  try {
    return languageNames.of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** The language of a tag without its region: en for en-US (what the language filter matches on). */
export function baseLanguage(tag: string): string {
  return tag.split('-')[0]?.toLowerCase() ?? tag;
}

export const TYPE_LABELS: Record<Voice['type'], string> = { preset: 'Preset', clone: 'Clone', design: 'Design' };

export function percent(value: number): string {
  return `${Math.round(value * 100)} %`;
}

/** A stable element id for a voice (ids such as pico:en-US hold characters ids are better without). */
export function elementId(prefix: string, voiceId: string): string {
  return `${prefix}-${voiceId.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/** Clones and designs belong to the person; presets come with the engines and keep their name. */
export function isCustom(voice: Voice): boolean {
  return voice.type !== 'preset';
}

/** What a tag measured of the voice's sample rests on, as a tooltip (docs/api.md gives the thresholds); undefined for other tags. */
export function measuredTagNote(voice: Voice, tag: string): string | undefined {
  const measures = voice.sample_measures;
  if (!measures) return undefined;
  if ((tag === 'deep' || tag === 'high-pitched') && measures.median_f0_hz !== null) return `Measured: median pitch ${Math.round(measures.median_f0_hz)} Hz`;
  if ((tag === 'warm' || tag === 'bright') && measures.centroid_hz !== null) return `Measured: spectral centroid ${Math.round(measures.centroid_hz)} Hz`;
  return undefined;
}
