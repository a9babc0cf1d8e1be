/**
 * The audio every block plays, fetched and decoded once per source and kept for the page's life:
 * the waveforms draw its peaks and the preview plays it. A chunk's audio comes from the service; an
 * imported file is kept from its upload, as the service has no route that hands an asset back.
 */
import { api, ok } from '../../api.js';
import type { Block } from './model.js';

export interface SourceAudio {
  buffer: AudioBuffer;
  /** The loudest sample of each 1/PEAKS_PER_SECOND s of the source, 0..1. */
  peaks: Float32Array;
}

export const PEAKS_PER_SECOND = 200;

/** Decoding resamples to this rate; the preview's context plays it at its own. */
const DECODE_RATE = 48_000;

const decoded = new Map<string, Promise<SourceAudio | undefined>>();
const uploads = new Map<string, Blob>();
let decoder: OfflineAudioContext | undefined;

/**
 * The cache key of a block's source. A chunk's includes its length, so a new take of the chunk
 * (another length) is fetched again.
 */
export function sourceKey(taskId: string, block: Pick<Block, 'source' | 'source_duration'>): string {
  const source = block.source;
  if (source.kind === 'chunk') return `chunk:${taskId}:${source.index}:${block.source_duration ?? ''}`;
  return source.kind === 'asset' ? `asset:${source.asset_id}` : `media:${source.media_id}`;
}

/** Keeps an uploaded file as the audio of the asset or video it became. */
export function rememberUpload(source: Block['source'], file: Blob): void {
  if (source.kind !== 'chunk') uploads.set(sourceKey('', { source, source_duration: null }), file);
}

async function fetchBytes(taskId: string, block: Block): Promise<ArrayBuffer | undefined> {
  const source = block.source;
  if (source.kind === 'chunk') {
    const path = { task_id: taskId, index: source.index };
    return ok(api.GET('/api/tasks/{task_id}/chunks/{index}/audio', { params: { path }, parseAs: 'arrayBuffer' }));
  }
  return uploads.get(sourceKey(taskId, block))?.arrayBuffer();
}

function peaksOf(buffer: AudioBuffer): Float32Array {
  const samples = buffer.getChannelData(0);
  const size = Math.max(1, Math.round(buffer.sampleRate / PEAKS_PER_SECOND));
  const peaks = new Float32Array(Math.ceil(samples.length / size));
  for (let index = 0; index < samples.length; index++) {
    const bucket = Math.floor(index / size);
    peaks[bucket] = Math.max(peaks[bucket] ?? 0, Math.abs(samples[index] ?? 0));
  }
  return peaks;
}

async function decode(taskId: string, block: Block): Promise<SourceAudio | undefined> {
  const bytes = await fetchBytes(taskId, block);
  if (!bytes) return undefined;
  decoder ??= new OfflineAudioContext(1, 1, DECODE_RATE);
  const buffer = await decoder.decodeAudioData(bytes);
  return { buffer, peaks: peaksOf(buffer) };
}

/**
 * A block's decoded source, or undefined when the studio has no copy of it (a file imported on an
 * earlier visit) or cannot decode it. Asked again for the same source, the first answer is reused.
 */
export function sourceAudio(taskId: string, block: Block): Promise<SourceAudio | undefined> {
  const key = sourceKey(taskId, block);
  let pending = decoded.get(key);
  if (!pending) {
    pending = decode(taskId, block).catch(() => undefined);
    decoded.set(key, pending);
  }
  return pending;
}
