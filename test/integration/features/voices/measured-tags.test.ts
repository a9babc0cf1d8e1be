import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { brightnessTag, pitchTag } from '../../../../src/features/voices/measured-tags.js';
import { openDatabase } from '../../../../src/platform/store/database.js';
import { injectRequest, inProcessWithAdmin, startInProcess } from '../../../helpers/in-process.js';
import { removeDir } from '../../../helpers/timbre.js';

const LIMITS = ['--rate-limit', 'voices:read=10000'];
const voicePath = (id: string) => `/api/voices/${encodeURIComponent(id)}`;

interface ListedVoice {
  id: string;
  name: string;
  description: string | null;
  gender: 'female' | 'male' | null;
  tags: string[];
  library_tags: string[];
  sample_measures: { median_f0_hz: number | null; centroid_hz: number | null } | null;
}

describe('pitch and brightness tags measured of each voice’s sample', () => {
  const fixture = inProcessWithAdmin({ keyArgs: LIMITS });
  const call = (method: string, path: string) => injectRequest(fixture.server, method, path, { key: fixture.admin.key });
  const voice = async (id: string): Promise<ListedVoice> => (await call('GET', voicePath(id))).body;
  const list = async (query: string): Promise<ListedVoice[]> => {
    const { status, body } = await call('GET', `/api/voices?limit=500&${query}`);
    assert.equal(status, 200, JSON.stringify(body));
    return body.voices;
  };

  test('a preset is measured when its sample is made, and carries the tags its measures give', async () => {
    const before = await voice('pico:en-GB');
    assert.equal(before.sample_measures, null);
    assert.ok(!before.library_tags.includes('warm'));

    assert.equal((await call('GET', `${voicePath('pico:en-GB')}/preview`)).status, 200);
    const measured = await voice('pico:en-GB');
    const f0 = measured.sample_measures?.median_f0_hz ?? 0;
    const centroid = measured.sample_measures?.centroid_hz ?? 0;
    assert.ok(f0 > 140 && f0 < 220, `a woman’s speaking pitch: ${f0} Hz`);
    // Pico's British voice is among the warmest built-in presets (docs/api.md).
    assert.equal(brightnessTag(centroid), 'warm');
    const expected = [pitchTag(f0, 'female'), brightnessTag(centroid)].filter((tag) => tag !== undefined);
    assert.deepEqual(measured.library_tags, ['classic', 'british', 'female', ...expected]);
  });

  test('search finds exactly the voices measured warm, or bright', async () => {
    // eSpeak NG's Hebrew voice is among the brightest built-in presets.
    assert.equal((await call('GET', `${voicePath('espeak:he')}/preview`)).status, 200);
    const all = await list('');
    const mentions = (voice: ListedVoice, word: string) => `${voice.name} ${voice.description ?? ''} ${voice.tags.join(' ')}`.toLowerCase().includes(word);
    for (const [word, sampled] of [
      ['warm', 'pico:en-GB'],
      ['bright', 'espeak:he'],
    ] as const) {
      const tagged = all.filter((voice) => voice.library_tags.includes(word)).map((voice) => voice.id);
      assert.ok(tagged.includes(sampled), `${sampled} is ${word}`);
      assert.ok(!all.some((voice) => mentions(voice, word)), `no voice says ${word} otherwise`);
      const found = (await list(`q=${word}`)).map((voice) => voice.id);
      assert.deepEqual(found.sort(), tagged.sort());
    }
  });
});

test('the background fill makes and measures presets’ samples after start, and does nothing once closed', async () => {
  const server = await startInProcess({ env: { TIMBRE_MEASURE_VOICES_AFTER_SECONDS: '1' } });
  const measured = () => server.services.db.prepare<[], number>('SELECT count(*) FROM voice_measures').pluck().get() ?? 0;
  try {
    while (measured() < 2) await sleep(200);
    const sampled = server.services.db.prepare<[], string>("SELECT count(*) FROM voices WHERE type = 'preset' AND preview_path IS NOT NULL").pluck().get();
    assert.ok(Number(sampled) >= 2, 'the samples are kept as the voices’ previews');
  } finally {
    await server.app.close();
    await server.services.close();
  }
  const previews = async () => (await readdir(join(server.dataDir, 'audio'))).filter((name) => name.startsWith('preview_')).length;
  const count = () => {
    const db = openDatabase(server.dataDir);
    try {
      return db.prepare<[], number>('SELECT count(*) FROM voice_measures').pluck().get();
    } finally {
      db.close();
    }
  };
  try {
    const [measuresAtClose, previewsAtClose] = [count(), await previews()];
    await sleep(2000);
    assert.equal(count(), measuresAtClose, 'no voice measured after close');
    assert.equal(await previews(), previewsAtClose, 'no sample made after close');
  } finally {
    await removeDir(server.dataDir);
  }
});
