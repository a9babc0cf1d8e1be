import type { VoiceFiles } from '../../platform/speech/voice-files.js';
import type { EngineId } from '../../platform/engines/engine-ids.js';
import type { Gender } from '../../platform/engines/types.js';
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

/** What a new clone or design is made of; everything else starts empty (no category, tags, preview). */
export interface CustomVoiceParts {
  id: string;
  type: 'clone' | 'design';
  name: string;
  engine: EngineId;
  engineVoice: string;
  language: string;
  gender: Gender | null;
  description: string | null;
  settings: Record<string, unknown>;
}

export function newCustomVoice(parts: CustomVoiceParts): VoiceRecord {
  const at = new Date().toISOString();
  return {
    ...parts,
    languages: [parts.language],
    license: null,
    sampleRate: null,
    categoryId: null,
    category: null,
    tags: [],
    favorite: false,
    pronunciationIds: [],
    available: true,
    previewPath: null,
    medianF0Hz: null,
    centroidHz: null,
    createdAt: at,
    updatedAt: at,
  };
}
