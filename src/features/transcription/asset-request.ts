import type { AssetService } from '../assets/index.js';
import type { TranscriptionRequest } from './service.js';

type Asset = Parameters<AssetService['absolutePath']>[0];

/** A transcription of a stored asset: its file and length, with the caller's options. */
export function assetTranscription(
  assets: Pick<AssetService, 'absolutePath'>,
  asset: Asset,
  options: Omit<TranscriptionRequest, 'path' | 'duration'>,
): TranscriptionRequest {
  return { path: assets.absolutePath(asset), duration: asset.duration ?? 0, ...options };
}
