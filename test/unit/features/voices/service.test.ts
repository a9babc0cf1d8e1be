import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CategoryRepository, VoiceRepository, VoiceService } from '../../../../src/features/voices/index.js';
import type { VoiceInfo } from '../../../../src/platform/engines/types.js';
import { ApiError } from '../../../../src/platform/errors.js';
import { createLog } from '../../../../src/platform/log.js';
import { AudioStore } from '../../../../src/platform/store/audio-store.js';
import { openDatabase, type Db } from '../../../../src/platform/store/database.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

const preset = (engine: string, name: string, language: string, description?: string): VoiceInfo => ({
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
      audio: new AudioStore(dir),
      log: createLog('silent'),
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
