import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { injectRequest, inProcessWithAdmin } from '../../../helpers/in-process.js';

const LIMITS = ['--rate-limit', 'voices:read=10000', '--rate-limit', 'voices:write=10000'];
const voicePath = (id: string) => `/api/voices/${encodeURIComponent(id)}`;

interface ListedVoice {
  id: string;
  name: string;
  description: string | null;
  engine: string;
  language: string;
  tags: string[];
  library_tags: string[];
  library_category: string;
}

describe('the library’s tags, built-in categories, clearest-first order and samples on first request', () => {
  const fixture = inProcessWithAdmin({ keyArgs: LIMITS });
  const call = (method: string, path: string, json?: unknown) => injectRequest(fixture.server, method, path, { key: fixture.admin.key, json });
  const list = async (query: string): Promise<ListedVoice[]> => {
    const { status, body } = await call('GET', `/api/voices?limit=500&${query}`);
    assert.equal(status, 200, JSON.stringify(body));
    return body.voices;
  };

  test('presets carry tags derived from their engine, measured clarity, region and gender', async () => {
    const voices = await list('type=preset');
    const byId = new Map(voices.map((voice) => [voice.id, voice]));
    const pico = byId.get('pico:en-US');
    assert.ok(pico, 'pico:en-US listed');
    assert.deepEqual(pico.library_tags, ['classic', 'american', 'female']);
    assert.equal(pico.library_category, 'Classic');
    assert.deepEqual(byId.get('pico:en-GB')?.library_tags, ['classic', 'british', 'female']);
    const rhvoice = voices.filter((voice) => voice.engine === 'rhvoice');
    assert.ok(rhvoice.length > 0, 'RHVoice voices listed');
    assert.ok(
      rhvoice.every((voice) => voice.library_tags.includes('clear')),
      'RHVoice measured clear',
    );
    const espeak = voices.filter((voice) => voice.engine === 'espeak');
    assert.ok(espeak.length > 0, 'eSpeak voices listed');
    assert.ok(espeak.every((voice) => voice.library_tags.includes('robotic') && voice.library_category === 'Robotic'));
    assert.ok(!espeak.some((voice) => voice.library_tags.includes('clear')));
  });

  test('the default order puts a measured-clear voice first and every eSpeak voice after the clearer engines', async () => {
    const voices = await list('');
    assert.ok(voices[0]?.library_tags.includes('clear'), `first is clear: ${voices[0]?.id}`);
    assert.notEqual(voices[0]?.engine, 'espeak');
    const lastClear = voices.findLastIndex((voice) => voice.library_tags.includes('clear'));
    const firstUnclear = voices.findIndex((voice) => !voice.library_tags.includes('clear'));
    assert.ok(lastClear < firstUnclear, 'clear voices come first');
    assert.ok(voices.findLastIndex((voice) => voice.engine === 'pico') < voices.findIndex((voice) => voice.engine === 'espeak'), 'pico before eSpeak');
    const byName = await list('sort=name');
    const names = byName.map((voice) => voice.name.toLowerCase());
    assert.deepEqual(
      names,
      [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  });

  test('search matches library tags, languages and built-in categories', async () => {
    const british = await list('q=british');
    assert.ok(
      british.some((voice) => voice.id === 'pico:en-GB'),
      'british finds en-GB',
    );
    assert.ok(!british.some((voice) => voice.id === 'pico:en-US'), 'british leaves en-US out');
    const clear = await list('q=clear');
    assert.ok(clear.some((voice) => voice.engine === 'rhvoice'));
    assert.ok(
      clear.length > 0 && clear.every((voice) => voice.library_tags.includes('clear') || /clear/i.test(`${voice.name} ${voice.description}`)),
      `clear: ${clear.map((voice) => voice.id).join()}`,
    );
    const robotic = await list('q=robotic&type=preset');
    assert.ok(robotic.length > 0 && robotic.every((voice) => voice.engine === 'espeak'), `robotic: ${robotic.map((voice) => voice.id).join()}`);
    const german = await list('q=de-DE');
    assert.ok(
      german.some((voice) => voice.id === 'pico:de-DE'),
      'de-DE finds German',
    );
  });

  test('built-in categories are listed, filter the list and cannot be assigned, created or deleted', async () => {
    const { body } = await call('GET', '/api/categories');
    const classic = body.categories.find((category: { name: string }) => category.name === 'Classic');
    assert.ok(classic, 'Classic listed');
    assert.equal(classic.built_in, true);
    assert.equal(classic.id, 'library:classic');
    assert.ok(classic.voice_count > 0);

    const byId = await list('category=library:robotic');
    assert.ok(byId.length > 0 && byId.every((voice) => voice.engine === 'espeak'));
    const byName = await list('category=classic');
    assert.equal(byName.length, classic.voice_count);

    assert.equal((await call('POST', '/api/categories', { name: 'classic' })).status, 409);
    const deleted = await call('DELETE', '/api/categories/library:classic');
    assert.equal(deleted.status, 403);
    assert.equal(deleted.body.error.code, 'category_built_in');
    const assigned = await call('PUT', voicePath('pico:en-US'), { category: 'Classic' });
    assert.equal(assigned.status, 400);
    assert.equal(assigned.body.error.code, 'category_built_in');
  });

  test('a user’s tags and category stay apart from the library’s, and both are searched', async () => {
    assert.equal((await call('POST', '/api/categories', { name: 'Audiobooks' })).status, 201);
    const updated = await call('PUT', voicePath('pico:en-GB'), { tags: ['narration'], category: 'Audiobooks' });
    assert.equal(updated.status, 200);
    assert.deepEqual(updated.body.tags, ['narration']);
    assert.deepEqual(updated.body.library_tags, ['classic', 'british', 'female']);
    assert.deepEqual(
      (await list('q=narration')).map((voice) => voice.id),
      ['pico:en-GB'],
    );
    assert.deepEqual(
      (await list('q=audiobooks')).map((voice) => voice.id),
      ['pico:en-GB'],
    );
    assert.ok(
      (await list('category=Classic')).some((voice) => voice.id === 'pico:en-GB'),
      'still in its built-in category',
    );
  });

  test('a voice’s sample is made on the first request, once for concurrent requests, and reused', async () => {
    const previews = async () => (await readdir(join(fixture.server.dataDir, 'audio')).catch(() => [])).filter((name) => name.startsWith('preview_'));
    const before = await previews();
    const path = `${voicePath('pico:de-DE')}/preview`;
    const first = await Promise.all(
      [1, 2, 3].map(() => fixture.server.fetch(new URL(path, fixture.server.url), { headers: { 'x-api-key': fixture.admin.key } })),
    );
    assert.deepEqual(
      first.map((response) => response.status),
      [200, 200, 200],
    );
    assert.deepEqual(first.map((response) => response.headers.get('x-preview-cached')).sort(), ['false', 'true', 'true'], 'rendered once');
    const bodies = await Promise.all(first.map(async (response) => Buffer.from(await response.arrayBuffer())));
    assert.ok(bodies.every((body) => body.equals(bodies[0]!)));
    assert.equal((await previews()).length, before.length + 1, 'one file stored');

    const again = await fixture.server.fetch(new URL(path, fixture.server.url), { headers: { 'x-api-key': fixture.admin.key } });
    assert.equal(again.headers.get('x-preview-cached'), 'true');
    assert.ok(Buffer.from(await again.arrayBuffer()).equals(bodies[0]!));
    assert.equal((await call('GET', voicePath('pico:de-DE'))).body.preview_url, path);
  });
});
