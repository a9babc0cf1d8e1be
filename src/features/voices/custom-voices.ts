import type { VoiceFiles } from '../../platform/speech/voice-files.js';
import type { VoiceRecord, VoiceRepository, VoiceSampleRecord } from './voice-repository.js';

/**
 * Stores a new clone or design: its files into a staging folder, the folder moved into place, the
 * rows inserted in one transaction. A cancelled job stops before the move; any failure removes
 * what was written, so no voice exists without its files and no files without their voice.
 */
export async function saveCustomVoice(
  deps: { voices: VoiceRepository; voiceFiles: VoiceFiles },
  record: VoiceRecord,
  files: ReadonlyMap<string, Uint8Array>,
  samples: VoiceSampleRecord[],
  signal: AbortSignal,
): Promise<void> {
  const staging = await deps.voiceFiles.stage(record.id, files);
  let moved = false;
  try {
    signal.throwIfAborted();
    await deps.voiceFiles.commit(record.id, staging);
    moved = true;
    signal.throwIfAborted();
    deps.voices.insert(record, samples);
  } catch (error) {
    await deps.voiceFiles.discard(moved ? deps.voiceFiles.folder(record.id) : staging);
    throw error;
  }
}
