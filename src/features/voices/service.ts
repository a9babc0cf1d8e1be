import { rm } from 'node:fs/promises';
import type { EngineClient } from '../../platform/engines/host/calls.js';
import { engineDescriptors } from '../../platform/engines/registry.js';
import type { EngineId } from '../../platform/engines/engine-ids.js';
import type { VoiceInfo } from '../../platform/engines/types.js';
import { ApiError } from '../../platform/errors.js';
import type { AudioStore } from '../../platform/store/audio-store.js';
import type { KeptChannel, KeptWrites } from '../../platform/store/kept-writes.js';
import type { CategoryRecord, CategoryRepository } from './category-repository.js';
import { VoiceCategories, type CategoryEntry } from './categories.js';
import { libraryCategory, libraryTags } from './library-tags.js';
import { type VoiceFilter, type VoiceRecord, type VoiceRepository, type VoiceSampleRecord } from './voice-repository.js';
import { VoiceArchive, voiceNotFound } from './archive.js';
import type { ArchiveLimits } from './archive-reader.js';
import { voiceFolder } from '../../platform/speech/voice-files.js';

/** A voice with its samples, as the service hands it out. */
export type VoiceDetails = VoiceRecord & { samples: VoiceSampleRecord[] };

/** What the engines offer; `failedEngines` could not be asked, so their presets are left as they were. */
interface PresetListing {
  voices: VoiceInfo[];
  failedEngines: EngineId[];
}

/** What the engines offer now. */
export type PresetSource = () => Promise<PresetListing>;

/** The key of the engines' listing among the writes kept while the disk is full (there is one listing). */
const LISTING = 'listing';

export interface VoiceChanges {
  name?: string;
  description?: string | null;
  /** A category name, or null to clear it. */
  category?: string | null;
  tags?: string[];
  favorite?: boolean;
  /** Default pronunciation dictionaries, already checked against the caller. */
  pronunciationIds?: string[];
}

export interface VoiceServiceOptions {
  voices: VoiceRepository;
  categories: CategoryRepository;
  dataDir: string;
  presets: PresetSource;
  /** Where previews live; a deleted voice's preview goes with it. */
  audio: Pick<AudioStore, 'remove'>;
  /** The engines are asked again for their voices at most this often, and whenever this changes. */
  refreshMs: number;
  enginesVersion: () => Promise<string>;
  archiveLimits: ArchiveLimits;
  /** Where the engines' listing waits while the disk is full, until its rows are written. */
  kept: KeptWrites;
}

/** Fields an engine owns on a preset; the user may change only favorite, category and tags. */
const PRESET_OWNED_FIELDS = ['name', 'description'] as const;

function now(): string {
  return new Date().toISOString();
}

/** Asks every available synthesizer for its voices through the engine host (engines run only there). */
export function enginePresets(engines: Pick<EngineClient, 'listVoices' | 'available'>, modelsDir: string): PresetSource {
  return async () => {
    const synthesizers = engineDescriptors(modelsDir).filter((descriptor) => descriptor.kind === 'synthesizer');
    const failedEngines: EngineId[] = [];
    const lists = await Promise.all(
      synthesizers.map(async (descriptor) => {
        if (!(await engines.available(descriptor.id)).available) return [];
        return engines.listVoices(descriptor.id).catch(() => {
          failedEngines.push(descriptor.id);
          return [];
        });
      }),
    );
    return { voices: lists.flat(), failedEngines };
  };
}

function presetRecord(info: VoiceInfo, at: string): VoiceRecord {
  return {
    id: info.id,
    type: 'preset',
    name: info.name,
    engine: info.engine,
    engineVoice: info.id,
    language: info.language,
    languages: info.languages,
    gender: info.gender,
    description: info.description ?? null,
    license: info.license,
    sampleRate: info.sampleRate,
    categoryId: null,
    category: null,
    tags: [],
    favorite: false,
    pronunciationIds: [],
    available: true,
    settings: {},
    previewPath: null,
    medianF0Hz: null,
    centroidHz: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** A voice as clients see it (the `Voice` schema). */
export function publicVoice(voice: VoiceDetails) {
  return {
    id: voice.id,
    name: voice.name,
    type: voice.type,
    engine: voice.engine,
    language: voice.language,
    languages: voice.languages,
    gender: voice.gender,
    description: voice.description,
    license: voice.license,
    sample_rate: voice.sampleRate,
    category: voice.category,
    category_id: voice.categoryId,
    tags: voice.tags,
    library_tags: libraryTags(voice),
    library_category: libraryCategory(voice),
    favorite: voice.favorite,
    pronunciation_ids: voice.pronunciationIds,
    available: voice.available,
    created_at: voice.createdAt,
    updated_at: voice.updatedAt,
    preview_url: voice.previewPath ? `/api/voices/${encodeURIComponent(voice.id)}/preview` : null,
    sample_measures: voice.medianF0Hz === null && voice.centroidHz === null ? null : { median_f0_hz: voice.medianF0Hz, centroid_hz: voice.centroidHz },
    samples: voice.samples.map((sample) => ({ id: sample.id, duration: sample.duration, sample_rate: sample.sampleRate, transcript: sample.transcript })),
    settings: voice.settings,
    clone_method: voice.settings.clone_method ?? null,
    similarity: voice.settings.similarity ?? null,
    baseline_similarity: voice.settings.baseline_similarity ?? null,
    similarity_measure: voice.settings.similarity_measure ?? null,
    intelligibility: voice.settings.intelligibility ?? null,
    baseline_intelligibility: voice.settings.baseline_intelligibility ?? null,
    intelligibility_measure: voice.settings.intelligibility_measure ?? null,
    warnings: voice.settings.warnings ?? [],
  };
}

/**
 * The voice library: presets mirrored from the installed engines (read-only but for favorite,
 * category and tags), clones and designs with their files, categories, and archives.
 */
export class VoiceService {
  readonly archive: VoiceArchive;
  private readonly categories: VoiceCategories;
  private refreshedAt = Number.NEGATIVE_INFINITY;
  private refreshedVersion: string | undefined;
  private refreshing: Promise<void> | undefined;
  /** The engines' listing, written as preset rows; kept in memory (and listed from there) while the disk is full. */
  private readonly presetRows: KeptChannel<PresetListing>;

  constructor(private readonly options: VoiceServiceOptions) {
    this.categories = new VoiceCategories(options.categories, options.voices);
    this.archive = new VoiceArchive(options.voices, options.dataDir, options.archiveLimits, () => this.presetsReady());
    this.presetRows = options.kept.channel('preset voices', {
      write: (_, listing) => this.syncPresets(listing.voices, listing.failedEngines),
      merge: (_, newer) => newer,
    });
  }

  /** Mirrors the engines' voices: new ones appear, known ones are updated, missing ones become unavailable (never deleted, so favorites survive). */
  syncPresets(voices: VoiceInfo[], failedEngines: readonly EngineId[] = []): void {
    const at = now();
    const listed = new Set(voices.map((voice) => voice.id));
    this.options.voices.transaction(() => {
      for (const info of voices) this.options.voices.upsertPreset(presetRecord(info, at));
      const gone = this.options.voices.presets().filter((preset) => !listed.has(preset.id) && !failedEngines.includes(preset.engine));
      this.options.voices.setAvailable(
        gone.map((preset) => preset.id),
        false,
        at,
      );
    });
  }

  /** Asks the engines again; concurrent callers share one refresh. */
  refreshPresets(): Promise<void> {
    this.refreshing ??= this.options
      .presets()
      .then((listing) => {
        // A full disk keeps the listing in memory: voices are listed from it and its rows written once there is room.
        this.presetRows.write(LISTING, listing);
        this.refreshedAt = Date.now();
      })
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  async list(filter: VoiceFilter): Promise<{ voices: VoiceDetails[]; total: number }> {
    await this.presetsReady();
    const category = filter.category === undefined ? undefined : this.categories.filterValue(filter.category);
    const { voices, total } = this.options.voices.list({ ...filter, category }, this.unwrittenPresets());
    return { voices: this.withSamples(voices), total };
  }

  async get(id: string): Promise<VoiceDetails> {
    await this.presetsReady();
    const voice = this.options.voices.findById(id, this.unwrittenPresets());
    if (!voice) throw voiceNotFound(id);
    return this.withSamples([voice])[0]!;
  }

  async update(id: string, changes: VoiceChanges): Promise<VoiceDetails> {
    const voice = await this.get(id);
    if (voice.type === 'preset') {
      const fields = PRESET_OWNED_FIELDS.filter((field) => changes[field] !== undefined);
      if (fields.length > 0) {
        throw new ApiError(403, 'voice_read_only', `Preset voices accept only favorite, category and tags; ${fields.join(', ')} cannot change`, {
          voice_id: id,
          fields,
        });
      }
    }
    const categoryId = changes.category === undefined || changes.category === null ? changes.category : this.categories.named(changes.category).id;
    const tags = changes.tags && [...new Set(changes.tags)];
    this.presetRows.writeKept(LISTING);
    const { name, description, favorite, pronunciationIds } = changes;
    this.options.voices.updateMetadata(id, { name, description, categoryId, tags, favorite, pronunciationIds }, now());
    return this.get(id);
  }

  /** Removes a clone or design: its rows (samples cascade), then its folder, derived from the stored id. */
  async delete(id: string): Promise<void> {
    const voice = await this.get(id);
    if (voice.type === 'preset') {
      throw new ApiError(403, 'voice_read_only', 'Preset voices come from the installed engines and cannot be deleted', { voice_id: id });
    }
    this.options.voices.delete(id);
    // After the rows: a failure here leaves only unreferenced files, never a voice without its samples.
    await rm(voiceFolder(this.options.dataDir, voice.id), { recursive: true, force: true });
    if (voice.previewPath) await this.options.audio.remove(voice.previewPath);
  }

  async toggleFavorite(id: string): Promise<{ voice_id: string; favorite: boolean }> {
    await this.presetsReady();
    // A preset listed from memory gets its row first; on a full disk that is the 507.
    this.presetRows.writeKept(LISTING);
    const favorite = this.options.voices.toggleFavorite(id, now());
    if (favorite === undefined) throw voiceNotFound(id);
    return { voice_id: id, favorite };
  }

  async favorites(): Promise<VoiceDetails[]> {
    // LIMIT -1 is SQLite for "no limit": favorites are a short, hand-picked list.
    return (await this.list({ favorite: true, limit: -1, offset: 0 })).voices;
  }

  listCategories(): CategoryEntry[] {
    return this.categories.list();
  }

  createCategory(name: string): CategoryEntry {
    return this.categories.create(name);
  }

  deleteCategory(id: string): void {
    this.categories.delete(id);
  }

  findCategory(name: string): CategoryRecord | undefined {
    return this.categories.find(name);
  }

  /** The first call, and the first after the engines that can run changed, wait for the engines; later ones refresh in the background after `refreshMs`. */
  private async presetsReady(): Promise<void> {
    const version = await this.options.enginesVersion().catch(() => this.refreshedVersion);
    const changed = version !== this.refreshedVersion;
    if (!changed && Date.now() - this.refreshedAt < this.options.refreshMs) return;
    this.refreshedVersion = version;
    const refresh = this.refreshPresets();
    if (this.refreshedAt === Number.NEGATIVE_INFINITY || changed) await refresh;
    // A failed background refresh keeps the presets last seen; the next list tries again.
    else refresh.catch(() => undefined);
  }

  /** Presets of the listing kept in memory (a full disk), for reads to show while their rows are missing. */
  private unwrittenPresets(): VoiceRecord[] {
    const listing = this.presetRows.kept(LISTING);
    if (!listing) return [];
    const at = now();
    return listing.voices.map((info) => presetRecord(info, at));
  }

  private withSamples(voices: VoiceRecord[]): VoiceDetails[] {
    const samples = this.options.voices.samplesOf(voices.filter((voice) => voice.type !== 'preset').map((voice) => voice.id));
    return voices.map((voice) => ({ ...voice, samples: samples.filter((sample) => sample.voiceId === voice.id) }));
  }
}
