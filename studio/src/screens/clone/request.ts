import { api, formData, ok } from '../../api.js';
import { usedWhole, type Sample } from './samples.js';

export const CLONE_METHODS = ['zero_shot', 'voice_search', 'timbre_match'] as const;
export type CloneMethod = (typeof CLONE_METHODS)[number];

export interface CloneOptions {
  name: string;
  language: string;
  description: string;
  gender: '' | 'female' | 'male';
  /** Empty: the service picks the best method it can run. */
  method: '' | CloneMethod;
}

export type CloneRoute = '/api/clone/create' | '/api/clone/create-multi' | '/api/clone/create-clips';

/**
 * Whole samples go to create (one) or create-multi (several); as soon as a part of a sample is
 * chosen, or a sample gives several parts, the parts go as regions of clips to create-clips.
 */
export function routeFor(samples: readonly Sample[]): CloneRoute {
  if (!samples.every(usedWhole)) return '/api/clone/create-clips';
  return samples.length === 1 ? '/api/clone/create' : '/api/clone/create-multi';
}

/** The samples as the route will use them, in words. */
export function describeSamples(samples: readonly Sample[]): string {
  const route = routeFor(samples);
  if (route === '/api/clone/create') return 'one whole sample';
  if (route === '/api/clone/create-multi') return `${samples.length} whole samples of one speaker`;
  const regions = samples.reduce((count, sample) => count + sample.parts.length, 0);
  return `${regions} ${regions === 1 ? 'part' : 'parts'} of ${samples.length} ${samples.length === 1 ? 'recording' : 'recordings'}`;
}

/** Two decimals, never past the clip: containers round their length, and a region past it is refused. */
const floor2 = (seconds: number) => Math.floor(seconds * 100) / 100;
function regionOf(sample: Sample, clip: number, part: { start: number; end: number }) {
  return { clip, start: floor2(Math.max(0, part.start)), end: floor2(Math.min(part.end, sample.duration - 0.02)) };
}

/** Sends the samples to the route they call for; the answer (202) names the clone job. */
export async function startClone(samples: readonly Sample[], options: CloneOptions): Promise<string> {
  const common = {
    name: options.name.trim(),
    language: options.language.trim() || undefined,
    description: options.description.trim() || undefined,
    gender: options.gender || undefined,
    method: options.method || undefined,
    async: true,
  };
  const route = routeFor(samples);
  const files = samples.map((sample) => sample.audio);
  const words = samples.flatMap((sample) => sample.parts.map((part) => part.words.trim()));
  // Absent when no words were given; empty entries keep the order of the others.
  const transcripts = words.some((text) => text !== '') ? words : undefined;
  if (route === '/api/clone/create') {
    const [file] = files;
    const answer = await ok(api.POST(route, { body: { ...common, file, transcript: transcripts?.[0] }, bodySerializer: formData }));
    return answer.job_id;
  }
  if (route === '/api/clone/create-multi') {
    const answer = await ok(api.POST(route, { body: { ...common, files, transcripts }, bodySerializer: formData }));
    return answer.job_id;
  }
  const regions = samples.flatMap((sample, clip) => sample.parts.map((part) => regionOf(sample, clip, part)));
  const answer = await ok(api.POST(route, { body: { ...common, files, transcripts, regions }, bodySerializer: formData }));
  return answer.job_id;
}
