import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { VoiceRepository, type VoiceRecord } from '../../../../src/features/voices/index.js';
import { openDatabase } from '../../../../src/platform/store/database.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

const dir = await tempDir('voice-rows-');
after(() => removeDir(dir));

function clone(id: string, settings: Record<string, unknown>): VoiceRecord {
  return {
    ...{ id, type: 'clone', name: id, engine: 'kokoro', engineVoice: 'af_heart', language: 'en-US', languages: ['en-US'], gender: null },
    ...{
      description: null,
      license: null,
      sampleRate: 24000,
      categoryId: null,
      category: null,
      tags: ['warm'],
      favorite: true,
      pronunciationIds: [],
      available: true,
    },
    ...{ settings, previewPath: null, medianF0Hz: null, centroidHz: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' },
  };
}

test('a voice reads back as written, and one whose settings are corrupt still lists, unavailable, with none', () => {
  const db = openDatabase(dir);
  const voices = new VoiceRepository(db);
  const settings = { clone_method: 'voice_search', similarity: 0.8, warnings: [{ code: 'noisy', message: 'Noisy sample' }], rendering: { pitch: 1 } };
  voices.insert(clone('good', settings), []);
  voices.insert(clone('not-json', settings), []);
  voices.insert(clone('wrong-type', settings), []);
  db.prepare("UPDATE voices SET settings = '{not json' WHERE id = 'not-json'").run();
  db.prepare(`UPDATE voices SET settings = '{"similarity": "high"}' WHERE id = 'wrong-type'`).run();

  assert.deepEqual(voices.findById('good'), clone('good', settings));
  const { voices: listed, total } = voices.list({ limit: 10, offset: 0, sort: 'name' });
  assert.equal(total, 3);
  const corrupt = listed.filter((voice) => voice.id !== 'good');
  assert.deepEqual(
    corrupt.map((voice) => [voice.id, voice.available, voice.settings]),
    [
      ['not-json', false, {}],
      ['wrong-type', false, {}],
    ],
  );
  db.close();
});
