/**
 * Voice archives: export, preview and import of clone and design voices (the format is in
 * voice-archive-format.ts, reading in voice-archive-reader.ts). The archive is read from a file:
 * its entries are extracted into a work folder beside the voices and checked there; only when the
 * whole archive checks out are the voices' folders moved to `<dataDir>/voices/<id>/` and the rows
 * inserted in one transaction. A failure removes whatever was written, and the work folder always
 * goes (a crash leaves it to the start-up sweep of `.import-*` folders).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ApiError } from '../../platform/errors.js';
import { type VoiceRecord, type VoiceRepository, type VoiceSampleRecord } from './voice-repository.js';
import { VOICE_FILE, voiceFolder } from '../../platform/speech/voice-files.js';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, packArchive, sampleEntry, voiceFileEntry, type ArchiveProblem, type ManifestVoice } from './archive-format.js';
import { extractedVoiceFolder, readArchive, type ArchiveLimits, type MeasuredSample } from './archive-reader.js';
import { renderingFileNames } from '../../platform/speech/voice-rendering.js';
import { newId } from '../../platform/util/ids.js';

export type ConflictPolicy = 'skip' | 'rename';

export interface ImportResult {
  imported: string[];
  skipped: string[];
  /** Archive id → new id, for voices imported under a new id (`on_conflict=rename`). */
  renamed: Record<string, string>;
}

export function voiceNotFound(id: string): ApiError {
  return new ApiError(404, 'voice_not_found', `No voice ${id}`, { voice_id: id });
}

function newVoiceId(): string {
  return newId('voice', 12);
}

/** Export and import of clone and design voices with their sample files. */
export class VoiceArchive {
  constructor(
    private readonly voices: VoiceRepository,
    private readonly dataDir: string,
    private readonly limits: ArchiveLimits,
    /** Resolves once presets are in the store, so a preset id is refused as such and not as unknown. */
    private readonly presetsReady: () => Promise<void> = async () => undefined,
  ) {}

  /** The archive as a stream, read from the voices' files as it is sent. */
  async export(ids: string[]): Promise<Readable> {
    await this.presetsReady();
    const voices = ids.map((id) => this.exportable(id));
    const files = new Map<string, string>();
    const entries: ManifestVoice[] = [];
    for (const voice of voices) {
      const samples = this.voices.samplesOf([voice.id]);
      for (const [index, sample] of samples.entries()) files.set(sampleEntry(voice.id, index + 1), join(this.dataDir, sample.path));
      const spokenWith = renderingFileNames(voice.settings).filter((name) => VOICE_FILE.test(name));
      for (const name of spokenWith) files.set(voiceFileEntry(voice.id, name), join(voiceFolder(this.dataDir, voice.id), name));
      entries.push({ ...manifestVoice(voice, samples), ...(spokenWith.length > 0 ? { files: spokenWith } : {}) });
    }
    return packArchive({ format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, exported_at: new Date().toISOString(), voices: entries }, files);
  }

  /** What importing the archive at `zipPath` would do; writes nothing that outlives the call. */
  async preview(
    zipPath: string,
  ): Promise<{ voices: { id: string; name: string; type: string; conflict: 'none' | 'id_exists' }[]; problems: ArchiveProblem[] }> {
    return this.inWorkFolder(async (dir) => {
      const { manifest, problems } = await readArchive(zipPath, dir, this.limits);
      const voices = (manifest?.voices ?? []).map((voice) => ({
        id: voice.id,
        name: voice.name,
        type: voice.type,
        conflict: this.taken(voice.id) ? ('id_exists' as const) : ('none' as const),
      }));
      return { voices, problems };
    });
  }

  /** Imports the archive at `zipPath`: all of it, or with any problem (400 `archive_invalid`) nothing. */
  async import(zipPath: string, onConflict: ConflictPolicy): Promise<ImportResult> {
    return this.inWorkFolder(async (dir) => {
      const { manifest, samples, problems } = await readArchive(zipPath, dir, this.limits);
      if (!manifest || problems.length > 0) throw new ApiError(400, 'archive_invalid', 'The archive cannot be imported', { problems });
      const result: ImportResult = { imported: [], skipped: [], renamed: {} };
      const planned: { voice: ManifestVoice; id: string }[] = [];
      for (const voice of manifest.voices) {
        if (!this.taken(voice.id)) planned.push({ voice, id: voice.id });
        else if (onConflict === 'skip') result.skipped.push(voice.id);
        else planned.push({ voice, id: (result.renamed[voice.id] = newVoiceId()) });
      }
      await this.store(planned, samples, dir);
      result.imported = planned.map(({ id }) => id);
      return result;
    });
  }

  /** A work folder beside the voices, so moving a voice's folder into place is one rename on the same disk. */
  private async inWorkFolder<T>(work: (dir: string) => Promise<T>): Promise<T> {
    const root = join(this.dataDir, 'voices');
    await mkdir(root, { recursive: true });
    const dir = await mkdtemp(join(root, '.import-'));
    try {
      return await work(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** The extracted folders moved into place, then the rows in one transaction; any failure undoes it all. */
  private async store(planned: { voice: ManifestVoice; id: string }[], samples: ReadonlyMap<string, MeasuredSample>, dir: string): Promise<void> {
    const moved: string[] = [];
    try {
      const at = new Date().toISOString();
      const rows = planned.map(({ voice, id }) => importedRows(voice, id, samples, at));
      for (const { voice, id } of planned) {
        const extracted = extractedVoiceFolder(dir, voice.id);
        await mkdir(extracted, { recursive: true });
        await rename(extracted, voiceFolder(this.dataDir, id));
        moved.push(voiceFolder(this.dataDir, id));
      }
      this.voices.transaction(() => rows.forEach(({ record, sampleRows }) => this.voices.insert(record, sampleRows)));
    } catch (error) {
      await Promise.all(moved.map((folder) => rm(folder, { recursive: true, force: true })));
      throw error;
    }
  }

  private exportable(id: string): VoiceRecord {
    const voice = this.voices.findById(id);
    if (!voice) throw voiceNotFound(id);
    if (voice.type === 'preset')
      throw new ApiError(400, 'voice_not_exportable', `${id} is a preset voice; only clones and designs are exported`, { voice_id: id });
    return voice;
  }

  /** An id is taken by a voice row, or by a leftover folder that a new voice must not merge into. */
  private taken(id: string): boolean {
    return this.voices.findById(id) !== undefined || existsSync(voiceFolder(this.dataDir, id));
  }
}

function manifestVoice(voice: VoiceRecord, samples: VoiceSampleRecord[]): ManifestVoice {
  return {
    id: voice.id,
    name: voice.name,
    type: voice.type as ManifestVoice['type'],
    engine: voice.engine,
    engine_voice: voice.engineVoice,
    language: voice.language,
    languages: voice.languages,
    gender: voice.gender,
    description: voice.description,
    tags: voice.tags,
    settings: voice.settings,
    license: voice.license,
    sample_rate: voice.sampleRate,
    samples: samples.map((sample, index) => ({
      file: sampleEntry(voice.id, index + 1),
      duration: sample.duration,
      sample_rate: sample.sampleRate,
      transcript: sample.transcript,
    })),
  };
}

function importedRows(voice: ManifestVoice, id: string, samples: ReadonlyMap<string, MeasuredSample>, at: string) {
  const record: VoiceRecord = {
    id,
    type: voice.type,
    name: voice.name,
    engine: voice.engine,
    engineVoice: voice.engine_voice,
    language: voice.language,
    languages: voice.languages,
    gender: voice.gender,
    description: voice.description,
    license: voice.license ?? null,
    sampleRate: voice.sample_rate ?? null,
    categoryId: null,
    category: null,
    tags: voice.tags,
    favorite: false,
    pronunciationIds: [],
    available: true,
    settings: voice.settings,
    previewPath: null,
    medianF0Hz: null,
    centroidHz: null,
    createdAt: at,
    updatedAt: at,
  };
  const sampleRows: VoiceSampleRecord[] = voice.samples.map((sample, index) => {
    const audio = samples.get(sample.file)!;
    return {
      id: newId('smp'),
      voiceId: id,
      path: `voices/${id}/${index + 1}.wav`,
      duration: audio.duration,
      sampleRate: audio.sampleRate,
      transcript: sample.transcript,
      createdAt: at,
    };
  });
  return { record, sampleRows };
}
