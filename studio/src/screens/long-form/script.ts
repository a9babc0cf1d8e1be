/**
 * What a pasted script asks for, read the way the service reads dialogue scripts
 * (src/platform/text/script.ts): `Name: text` lines start an utterance, blank and `#` lines are
 * ignored. The screen uses it to list the speakers to map to voices and to pick the route.
 */
import { api, ok, type Schemas } from '../../api.js';

// The service's own pattern for a speaker line; `(?!\/\/)` keeps "https://…" from reading as a name.
const SPEAKER_LINE = /^\s*([\p{L}\p{N}][\p{L}\p{M}\p{N} ._'’-]{0,39}?)\s*[:：](?!\/\/)(.*)$/u;
const IGNORED_LINE = /^\s*(#|$)/;

/** The speakers of a dialogue script in order of first appearance (first spelling kept); empty for prose. */
export function speakersOf(script: string): string[] {
  const lines = script.split(/\r?\n/).filter((line) => !IGNORED_LINE.test(line));
  // Prose that merely contains a colon later on is not a dialogue: the first line must name a speaker.
  if (lines.length === 0 || !SPEAKER_LINE.test(lines[0]!)) return [];
  const speakers = new Map<string, string>();
  for (const line of lines) {
    const name = SPEAKER_LINE.exec(line)?.[1]?.trim();
    if (name && !speakers.has(name.toLowerCase())) speakers.set(name.toLowerCase(), name);
  }
  return [...speakers.values()];
}

/** The shared options of every chunked route; empty fields are left to the service's defaults. */
export interface ChunkOptions {
  speed?: number;
  seed?: number;
  max_chars?: number;
}

export type Plan =
  | { route: 'dialogue'; script: string; voices: Record<string, string> }
  | { route: 'single'; text: string; voiceId: string; language: string }
  | { route: 'languages'; text: string; voiceId: string; languages: string[] };

/** What each plan does, in the screen's words. */
export const PLAN_WORDS: Record<Plan['route'], string> = {
  dialogue: 'Each speaker is read by the voice chosen for them.',
  single: 'One voice reads the whole text in one language.',
  languages: 'One voice reads the text; each sentence is read in the language it is written in.',
};

/** The route each plan calls, for the "For developers" details. */
export const ROUTE_NAMES: Record<Plan['route'], string> = {
  dialogue: 'POST /api/generate/clone-chunked-multivoice',
  single: 'POST /api/generate/clone-chunked',
  languages: 'POST /api/generate/clone-chunked-multilang',
};

export interface Accepted {
  task_id: string;
  job_id: string;
  status: string;
  chunks: Schemas['Chunk'][];
}

/** Starts the long-form task the plan describes; answers the task id and its chunks (202). */
export async function startLongForm(plan: Plan, options: ChunkOptions): Promise<Accepted> {
  switch (plan.route) {
    case 'dialogue':
      return ok(api.POST('/api/generate/clone-chunked-multivoice', { body: { script: plan.script, voices: plan.voices, ...options } }));
    case 'single':
      return ok(api.POST('/api/generate/clone-chunked', { body: { voice_id: plan.voiceId, text: plan.text, language: plan.language, ...options } }));
    case 'languages':
      return ok(
        api.POST('/api/generate/clone-chunked-multilang', {
          body: { voice_id: plan.voiceId, text: plan.text, ...(plan.languages.length > 0 ? { languages: plan.languages } : {}), ...options },
        }),
      );
  }
}

/** "en, de fr" -> ["en", "de", "fr"] */
export function languageList(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** A number field's value, or undefined when it is empty (the service's default applies). */
export function optionalNumber(value: string): number | undefined {
  if (value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}
