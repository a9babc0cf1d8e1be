import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { probeAudio } from '../../platform/audio/probe.js';
import { ApiError } from '../../platform/errors.js';
import type { SampleSource } from './intake.js';

/** A part of clip `clip` (index into the clips), seconds. */
export interface ClipRegion {
  clip: number;
  start: number;
  end: number;
}

export type CloneShape = 'single' | 'multi' | 'clips';

/**
 * Turns what a create request carries (uploaded files, then assets, in that order; transcripts;
 * clip regions) into the samples of the job. Assets are copied into the request's upload folder,
 * so the job never depends on an asset that may expire or be deleted meanwhile.
 */
export async function sampleSources(
  input: { uploadDir: string; uploaded: string[]; assets: string[]; transcripts?: string[]; regions?: ClipRegion[] },
  shape: CloneShape,
  maxSamples: number,
): Promise<SampleSource[]> {
  const files = [...input.uploaded];
  for (const [i, asset] of input.assets.entries()) {
    const copy = join(input.uploadDir, `asset-${i}`);
    await copyFile(asset, copy);
    files.push(copy);
  }
  if (files.length === 0) throw new ApiError(400, 'sample_missing', 'Send the audio as a multipart file, or name an audio asset (asset_id / asset_ids)');
  if (shape === 'single' && files.length > 1)
    throw new ApiError(400, 'too_many_samples', 'create takes one sample; use create-multi for several', { samples: files.length });
  if (files.length > maxSamples)
    throw new ApiError(400, 'too_many_samples', `At most ${maxSamples} samples per clone`, { samples: files.length, max_samples: maxSamples });
  const transcripts = input.transcripts ?? [];
  const countedItems = shape === 'clips' ? (input.regions?.length ?? 0) : files.length;
  if (transcripts.length > countedItems) {
    throw new ApiError(400, 'too_many_transcripts', `${transcripts.length} transcripts for ${countedItems} ${shape === 'clips' ? 'regions' : 'samples'}`, {
      transcripts: transcripts.length,
    });
  }
  if (shape !== 'clips') return files.map((path, index) => ({ path, index, transcript: transcripts[index] }));
  const regions = input.regions ?? [];
  if (regions.length > maxSamples)
    throw new ApiError(400, 'too_many_samples', `At most ${maxSamples} regions per clone`, { regions: regions.length, max_samples: maxSamples });
  const durations = await Promise.all(files.map((path, clip) => clipDuration(path, clip)));
  return regions.map((region, index) => {
    checkRegion(region, index, durations);
    return { path: files[region.clip]!, index, transcript: transcripts[index], region: { start: region.start, end: region.end } };
  });
}

async function clipDuration(path: string, clip: number): Promise<number> {
  const info = await probeAudio(path).catch(() => undefined);
  if (!info || info.duration === null) throw new ApiError(422, 'audio_undecodable', `Clip ${clip} is not audio that can be decoded`, { clip });
  return info.duration;
}

function checkRegion(region: ClipRegion, index: number, durations: number[]): void {
  const duration = durations[region.clip];
  const details = { region: index, clip: region.clip, start: region.start, end: region.end };
  if (duration === undefined) {
    throw new ApiError(422, 'region_invalid', `Region ${index} names clip ${region.clip}, but there are ${durations.length} clips`, {
      ...details,
      clips: durations.length,
    });
  }
  if (region.end <= region.start) throw new ApiError(422, 'region_invalid', `Region ${index} ends before it starts`, details);
  // Containers round their duration; a few milliseconds past it is still the end of the clip.
  if (region.end > duration + 0.01) {
    throw new ApiError(
      422,
      'region_out_of_range',
      `Region ${index} ends at ${region.end} s, past the end of clip ${region.clip} (${Math.round(duration * 1000) / 1000} s)`,
      {
        ...details,
        clip_duration: Math.round(duration * 1000) / 1000,
      },
    );
  }
}
