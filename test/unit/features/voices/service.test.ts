import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { CategoryRepository, VoiceRepository, VoiceService } from '../../../../src/features/voices/index.js';
import type { EngineId } from '../../../../src/platform/engines/engine-ids.js';
import type { VoiceInfo } from '../../../../src/platform/engines/types.js';
import { ApiError } from '../../../../src/platform/errors.js';
import { isStorageFull } from '../../../../src/platform/storage-full.js';
import { KeptWrites } from '../../../../src/platform/store/kept-writes.js';
import { createLog } from '../../../../src/platform/log.js';
import { AudioStore } from '../../../../src/platform/store/audio-store.js';
import { openDatabase, type Db } from '../../../../src/platform/store/database.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

const preset = (engine: EngineId, name: string, language: string, description?: string): VoiceInfo => ({
  id: `${engine}:${name}`,
  engine,
  name: `${engine} ${name}`,
  language,
  languages: [language],
  gender: null,
  sampleRate: 16000,
  license: 'MIT',
  ...(description ? { description } : {}),
});

const PRESETS = [preset('pico', 'en-US', 'en-US'), preset('pico', 'en-GB', 'en-GB'), preset('pico', 'de-DE', 'de-DE', 'Clear German voice')];
const refusedWith = (status: number, code: string) => (error: unknown) => error instanceof ApiError && error.statusCode === status && error.code === code;

describe('the voices service', () => {
  let dir: string;
  let db: Db;
  let voices: VoiceService;

  before(async () => {
    dir = await tempDir();
    db = openDatabase(dir);
    voices = new VoiceService({
      voices: new VoiceRepository(db),
      categories: new CategoryRepository(db),
      dataDir: dir,
      presets: async () => ({ voices: PRESETS, failedEngines: [] }),
      refreshMs: 60_000,
      enginesVersion: () => Promise.resolve(''),
      audio: new AudioStore(dir),
      kept: new KeptWrites(createLog('silent')),
      archiveLimits: { maxExpandedBytes: 1024 * 1024 },
    });
  });

  after(async () => {
    db.close();
    await removeDir(dir);
  });

  test('the library lists the engines’ presets, filtered by language and text, page by page', async () => {
    const ids = async (filter: Parameters<VoiceService['list']>[0]) => (await voices.list(filter)).voices.map((voice) => voice.id).sort();
    assert.deepEqual(await ids({ language: 'en', limit: 50, offset: 0 }), ['pico:en-GB', 'pico:en-US']);
    assert.deepEqual(await ids({ q: 'GERMAN', limit: 50, offset: 0 }), ['pico:de-DE']);
    const page = await voices.list({ limit: 1, offset: 1 });
    assert.deepEqual([page.voices.length, page.total], [1, 3]);
  });

  test('when a worker with other engines comes or goes, the next list asks the engines again and waits for them', async () => {
    const dbDir = await tempDir();
    const ownDb = openDatabase(dbDir);
    let version = '';
    let listed: VoiceInfo[] = [];
    const library = new VoiceService({
      voices: new VoiceRepository(ownDb),
      categories: new CategoryRepository(ownDb),
      dataDir: dbDir,
      presets: async () => ({ voices: listed, failedEngines: [] }),
      refreshMs: 60_000,
      enginesVersion: () => Promise.resolve(version),
      audio: new AudioStore(dbDir),
      kept: new KeptWrites(createLog('silent')),
      archiveLimits: { maxExpandedBytes: 1024 * 1024 },
    });
    const available = async () => (await library.list({ limit: 50, offset: 0 })).voices.filter((voice) => voice.available).map((voice) => voice.id);
    assert.deepEqual(await available(), [], 'no worker yet');
    listed = PRESETS.slice(0, 1);
    assert.deepEqual(await available(), [], 'within refreshMs and nothing changed: the list is not read again');
    version = 'pico';
    assert.deepEqual(await available(), ['pico:en-US']);
    listed = [];
    version = '';
    assert.deepEqual(await available(), [], 'the worker left: its voices are unavailable');
    ownDb.close();
    await removeDir(dbDir);
  });

  test('a preset keeps its name; its favorite, tags and category are the user’s', async () => {
    await assert.rejects(voices.update('pico:en-US', { name: 'Mine now' }), refusedWith(403, 'voice_read_only'));
    await assert.rejects(voices.delete('pico:en-US'), refusedWith(403, 'voice_read_only'));
    voices.createCategory('Narrators');
    const updated = await voices.update('pico:en-US', { tags: ['calm'], category: 'narrators' });
    assert.deepEqual([updated.tags, updated.category], [['calm'], 'Narrators']);
    assert.deepEqual(await voices.toggleFavorite('pico:en-US'), { voice_id: 'pico:en-US', favorite: true });
    assert.deepEqual(
      (await voices.favorites()).map((voice) => voice.id),
      ['pico:en-US'],
    );
    await assert.rejects(voices.get('pico:missing'), refusedWith(404, 'voice_not_found'));
  });

  test('category names are unique whatever their case; deleting one leaves its voices uncategorised', async () => {
    assert.throws(() => voices.createCategory('NARRATORS'), refusedWith(409, 'category_exists'));
    const category = voices.listCategories().find((candidate) => candidate.name === 'Narrators')!;
    voices.deleteCategory(category.id);
    assert.equal((await voices.get('pico:en-US')).category, null);
  });
});

/** A repository whose preset rows the disk refuses while `full` is set, as SQLite does on a full disk. */
class FullDiskVoices extends VoiceRepository {
  full = true;

  override upsertPreset(...args: Parameters<VoiceRepository['upsertPreset']>): void {
    if (this.full) throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
    super.upsertPreset(...args);
  }
}

describe('the voices service when the preset rows cannot be written', () => {
  let dir: string;
  let db: Db;
  let repository: FullDiskVoices;
  let kept: KeptWrites;
  let voices: VoiceService;

  before(async () => {
    dir = await tempDir();
    db = openDatabase(dir);
    repository = new FullDiskVoices(db);
    kept = new KeptWrites(createLog('silent'), { retryMs: 60_000 });
    voices = new VoiceService({
      voices: repository,
      categories: new CategoryRepository(db),
      dataDir: dir,
      presets: async () => ({ voices: PRESETS, failedEngines: [] }),
      refreshMs: 60_000,
      enginesVersion: () => Promise.resolve(''),
      audio: new AudioStore(dir),
      kept,
      archiveLimits: { maxExpandedBytes: 1024 * 1024 },
    });
  });

  after(async () => {
    kept.close();
    db.close();
    await removeDir(dir);
  });

  test('the engines’ presets are listed and found from memory; a change to one is 507, never 404; the rows land at the next retry', async () => {
    const page = await voices.list({ language: 'en', limit: 50, offset: 0 });
    assert.deepEqual(page.voices.map((voice) => voice.id).sort(), ['pico:en-GB', 'pico:en-US']);
    assert.equal((await voices.list({ limit: 1, offset: 0 })).total, 3);
    assert.equal((await voices.get('pico:de-DE')).description, 'Clear German voice');
    assert.equal(repository.findById('pico:de-DE'), undefined, 'no row yet');
    assert.equal(kept.size, 1, 'the listing waits to be written');
    // A full disk's error, which every route answers as 507 insufficient_storage.
    await assert.rejects(voices.toggleFavorite('pico:en-US'), (error) => isStorageFull(error));
    await assert.rejects(voices.update('pico:en-US', { tags: ['calm'] }), (error) => isStorageFull(error));

    repository.full = false;
    kept.retry();
    assert.equal(kept.size, 0);
    assert.equal(repository.findById('pico:de-DE')?.type, 'preset', 'the row is written');
    assert.deepEqual(await voices.toggleFavorite('pico:en-US'), { voice_id: 'pico:en-US', favorite: true });
  });
});
