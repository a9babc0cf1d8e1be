import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { unzipSync, zipSync } from 'fflate';
import { encodeWav } from '../../../../src/platform/audio/wav.js';
import { injectRequest, inProcessWithAdmin, mintKey, startInProcess, type InProcessTimbre } from '../../../helpers/in-process.js';
import type { CreatedKey } from '../../../helpers/timbre.js';

const LIMITS = ['--rate-limit', 'voices:read=10000', '--rate-limit', 'voices:write=10000'];
const CLONE_ID = 'voice_testClone1';

const voicePath = (id: string) => `/api/voices/${encodeURIComponent(id)}`;
const wav = (seconds: number) => encodeWav({ samples: Float32Array.from({ length: 16000 * seconds }, (_, i) => Math.sin(i / 8) * 0.4), sampleRate: 16000 });

/** A hand-built archive, the way another Timbre would export one clone. */
function cloneArchive(id = CLONE_ID, extra: Record<string, Uint8Array> = {}, sample: Uint8Array = wav(1)): Buffer {
  const manifest = {
    format: 'timbre-voices',
    version: 1,
    exported_at: '2024-05-01T12:00:00.000Z',
    voices: [
      {
        id,
        name: 'Grandma Clone',
        type: 'clone',
        engine: 'zipvoice',
        engine_voice: 'zipvoice:reference',
        language: 'en-GB',
        languages: ['en-GB', 'en-US'],
        gender: 'female',
        description: 'Warm storytelling voice',
        tags: ['family', 'stories'],
        settings: { speed: 0.95 },
        samples: [{ file: `samples/${id}/1.wav`, duration: 1, sample_rate: 16000, transcript: 'Once upon a time' }],
      },
    ],
  };
  return Buffer.from(zipSync({ 'manifest.json': new TextEncoder().encode(JSON.stringify(manifest)), [`samples/${id}/1.wav`]: sample, ...extra }));
}

const zipHeaders = { 'content-type': 'application/zip' };

describe('voice library over HTTP', () => {
  const fixture = inProcessWithAdmin({ keyArgs: LIMITS });
  const call = (method: string, path: string, options: { json?: unknown; body?: Buffer; headers?: Record<string, string> } = {}) =>
    injectRequest(fixture.server, method, path, { key: fixture.admin.key, ...options });
  const ids = (voices: { id: string }[]) => voices.map((voice) => voice.id);

  test('presets of the built-in engines are listed with their license', async () => {
    const { status, body } = await call('GET', '/api/voices?type=preset&limit=500');
    assert.equal(status, 200);
    const pico = body.voices.find((voice: { id: string }) => voice.id === 'pico:en-US');
    assert.ok(pico, 'pico:en-US listed');
    assert.equal(pico.type, 'preset');
    assert.equal(pico.license, 'Apache-2.0');
    assert.equal(pico.available, true);
    assert.deepEqual(pico.samples, []);
    assert.equal(body.total, body.voices.length);
    assert.ok(body.voices.every((voice: { type: string }) => voice.type === 'preset'));
  });

  test('language, search and pagination filters', async () => {
    const english = (await call('GET', '/api/voices?language=en&limit=500')).body;
    assert.ok(ids(english.voices).includes('pico:en-US') && ids(english.voices).includes('pico:en-GB'));
    for (const voice of english.voices)
      assert.ok(
        [voice.language, ...voice.languages].some((tag: string) => /^en(-|$)/i.test(tag)),
        voice.id,
      );
    const german = (await call('GET', '/api/voices?language=de-DE&limit=500')).body;
    assert.ok(ids(german.voices).includes('pico:de-DE') && !ids(german.voices).includes('pico:en-US'));
    const search = (await call('GET', '/api/voices?q=PICO&limit=500')).body;
    assert.ok(search.total >= 2 && ids(search.voices).includes('pico:fr-FR'));
    const first = (await call('GET', '/api/voices?limit=2')).body;
    const second = (await call('GET', '/api/voices?limit=2&offset=2')).body;
    assert.equal(first.voices.length, 2);
    assert.equal(first.total, second.total);
    assert.equal(second.offset, 2);
    assert.ok(ids(second.voices).every((id) => !ids(first.voices).includes(id)));
    const invalid = await call('GET', '/api/voices?limit=501&color=red');
    assert.equal(invalid.status, 400);
    assert.deepEqual(invalid.body.error.details.fields.map((field: { field: string }) => field.field).sort(), ['querystring.color', 'querystring.limit']);
  });

  test('the list comes clearest engine first (RHVoice, then Pico, …, eSpeak NG last); sort=name orders by name', async () => {
    const english = (await call('GET', '/api/voices?type=preset&language=en&limit=500')).body.voices as { id: string; engine: string; name: string }[];
    const engines = [...new Set(english.map((voice) => voice.engine))];
    assert.deepEqual(
      engines.filter((engine) => ['rhvoice', 'pico', 'flite', 'festival', 'espeak'].includes(engine)),
      ['rhvoice', 'pico', 'flite', 'festival', 'espeak'],
    );
    assert.equal(english[0]!.engine, 'rhvoice', 'the first English voice is the clearest');
    const rhvoice = english.filter((voice) => voice.engine === 'rhvoice').map((voice) => voice.name.toLowerCase());
    assert.deepEqual(rhvoice, [...rhvoice].sort(), 'by name within an engine');
    const byName = (await call('GET', '/api/voices?type=preset&language=en&limit=500&sort=name')).body.voices as { name: string }[];
    const names = byName.map((voice) => voice.name.toLowerCase());
    assert.deepEqual(names, [...names].sort());
    assert.notEqual(byName[0]!.name, english[0]!.name);
  });

  test('an unknown voice is 404 voice_not_found', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await call(method, voicePath('espeak:nope'));
      assert.equal(response.status, 404);
      assert.equal(response.body.error.code, 'voice_not_found');
    }
  });

  test('an update with an unknown field is refused naming it', async () => {
    const response = await call('PUT', voicePath('pico:en-US'), { json: { tags: ['x'], colour: 'blue' } });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, 'invalid_request');
    assert.deepEqual(response.body.error.details.fields, [{ field: 'body.colour', message: 'is not a known field' }]);
  });

  test('a preset keeps its name and cannot be deleted, but takes tags', async () => {
    const rename = await call('PUT', voicePath('pico:en-US'), { json: { name: 'Mine', tags: ['news'] } });
    assert.equal(rename.status, 403);
    assert.equal(rename.body.error.code, 'voice_read_only');
    assert.deepEqual(rename.body.error.details.fields, ['name']);
    const deleted = await call('DELETE', voicePath('pico:en-US'));
    assert.equal(deleted.status, 403);
    assert.equal(deleted.body.error.code, 'voice_read_only');
    const tagged = await call('PUT', voicePath('pico:en-US'), { json: { tags: ['newsreader', 'newsreader'] } });
    assert.equal(tagged.status, 200);
    assert.deepEqual(tagged.body.tags, ['newsreader']);
    assert.equal(tagged.body.name, 'Pico US English (female)');
    assert.deepEqual(ids((await call('GET', '/api/voices?q=NEWSREADER')).body.voices), ['pico:en-US']);
  });

  test('a voice read with GET may be sent back whole with PUT; a contradicting read-only field is refused naming it', async () => {
    const read = (await call('GET', voicePath('pico:en-US'))).body;
    const echoed = await call('PUT', voicePath('pico:en-US'), { json: { ...read, tags: ['echoed'] } });
    assert.equal(echoed.status, 200, echoed.text);
    assert.deepEqual(echoed.body.tags, ['echoed']);
    assert.equal(echoed.body.name, read.name, 'an unchanged name is no rename, even of a preset');

    const refused = await call('PUT', voicePath('pico:en-US'), { json: { ...echoed.body, engine: 'espeak', sample_rate: 8000 } });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, 'read_only_mismatch');
    assert.deepEqual(
      refused.body.error.details.fields.map((field: { field: string }) => field.field),
      ['body.engine', 'body.sample_rate'],
    );
    assert.deepEqual((await call('GET', voicePath('pico:en-US'))).body.tags, ['echoed'], 'a refused update changes nothing');
  });

  test('favorites toggle both ways', async () => {
    const on = await call('POST', `/api/favorites/${encodeURIComponent('pico:de-DE')}`);
    assert.deepEqual(on.body, { voice_id: 'pico:de-DE', favorite: true });
    assert.ok(ids((await call('GET', '/api/favorites')).body.voices).includes('pico:de-DE'));
    assert.ok(ids((await call('GET', '/api/voices?favorite=true')).body.voices).includes('pico:de-DE'));
    const off = await call('POST', `/api/favorites/${encodeURIComponent('pico:de-DE')}`);
    assert.deepEqual(off.body, { voice_id: 'pico:de-DE', favorite: false });
    assert.ok(!ids((await call('GET', '/api/favorites')).body.voices).includes('pico:de-DE'));
    assert.equal((await call('POST', '/api/favorites/voice_missing')).body.error.code, 'voice_not_found');
  });

  test('categories: create, refuse a duplicate name, assign, filter, delete', async () => {
    const created = await call('POST', '/api/categories', { json: { name: 'Narration' } });
    assert.equal(created.status, 201);
    assert.equal((await call('POST', '/api/categories', { json: { name: 'narration' } })).body.error.code, 'category_exists');
    assert.equal((await call('PUT', voicePath('pico:it-IT'), { json: { category: 'Nope' } })).body.error.code, 'category_not_found');
    const assigned = await call('PUT', voicePath('pico:it-IT'), { json: { category: 'narration' } });
    assert.equal(assigned.body.category, 'Narration');
    assert.equal(assigned.body.category_id, created.body.id);
    const listed = (await call('GET', '/api/categories')).body.categories;
    assert.equal(listed.find((category: { id: string }) => category.id === created.body.id).voice_count, 1);
    assert.deepEqual(ids((await call('GET', '/api/voices?category=Narration')).body.voices), ['pico:it-IT']);
    assert.equal((await call('DELETE', `/api/categories/${created.body.id}`)).status, 204);
    assert.equal((await call('GET', voicePath('pico:it-IT'))).body.category, null);
    assert.equal((await call('DELETE', `/api/categories/${created.body.id}`)).body.error.code, 'category_not_found');
  });

  test('a read-only key lists and exports but cannot change voices', async () => {
    const reader = mintKey(fixture.server, 'reader', ['--scopes', 'voices:read']);
    assert.equal((await injectRequest(fixture.server, 'GET', '/api/categories', { key: reader.key })).status, 200);
    const refused = await injectRequest(fixture.server, 'POST', '/api/categories', { key: reader.key, json: { name: 'x' } });
    assert.equal(refused.body.error.details.required_scope, 'voices:write');
    const exported = await injectRequest(fixture.server, 'POST', '/api/voices/export', { key: reader.key, json: { voice_ids: ['pico:en-US'] } });
    assert.equal(exported.body.error.code, 'voice_not_exportable');
  });

  test('archives with a traversal entry or a non-WAV sample are refused and leave nothing', async () => {
    const evil = await call('POST', '/api/voices/import', { body: cloneArchive('voice_evil', { '../evil.wav': wav(1) }), headers: zipHeaders });
    assert.equal(evil.status, 400);
    assert.equal(evil.body.error.code, 'archive_invalid');
    assert.ok(evil.body.error.details.problems.some((problem: { code: string }) => problem.code === 'unsafe_entry'));
    const noise = await call('POST', '/api/voices/import', {
      body: cloneArchive('voice_noise', {}, new TextEncoder().encode('RIFF but not really')),
      headers: zipHeaders,
    });
    assert.equal(noise.body.error.code, 'archive_invalid');
    for (const id of ['voice_evil', 'voice_noise']) assert.equal((await call('GET', voicePath(id))).status, 404);
    assert.ok(!existsSync(join(fixture.server.dataDir, 'evil.wav')) && !existsSync(join(fixture.server.dataDir, '..', 'evil.wav')));
    const folders = await readdir(join(fixture.server.dataDir, 'voices')).catch(() => []);
    assert.deepEqual(folders, []);
    const json = await call('POST', '/api/voices/import', { json: { voices: [] } });
    assert.equal(json.status, 415);
  });

  test('an archive larger than the JSON body limit is accepted', async () => {
    const noise = encodeWav({ samples: Float32Array.from({ length: 16000 * 100 }, () => Math.random() - 0.5), sampleRate: 16000 });
    const body = cloneArchive('voice_big', {}, noise);
    assert.ok(body.length > 2 * 1024 * 1024);
    const preview = await call('POST', '/api/voices/import/preview', { body, headers: zipHeaders });
    assert.equal(preview.status, 200);
    assert.deepEqual(preview.body.problems, []);
  });

  describe('export and import', () => {
    let fresh: InProcessTimbre;
    let freshAdmin: CreatedKey;
    before(async () => {
      fresh = await startInProcess();
      freshAdmin = mintKey(fresh, 'admin', LIMITS);
    });
    after(() => fresh.close());

    test('a clone round-trips into an empty data directory with its fields and sample bytes', async () => {
      const imported = await call('POST', '/api/voices/import', { body: cloneArchive(), headers: zipHeaders });
      assert.deepEqual(imported.body, { imported: [CLONE_ID], skipped: [], renamed: {} });
      const original = (await call('GET', voicePath(CLONE_ID))).body;
      assert.equal(original.type, 'clone');
      assert.equal(original.samples[0].transcript, 'Once upon a time');
      assert.ok(ids((await call('GET', '/api/voices?type=clone&language=en-US')).body.voices).includes(CLONE_ID));

      // The shared helper decodes bodies as text; fetch keeps the zip's bytes intact.
      const exported = await fixture.server.fetch(new URL('/api/voices/export', fixture.server.url), {
        method: 'POST',
        headers: { 'x-api-key': fixture.admin.key, 'content-type': 'application/json' },
        body: JSON.stringify({ voice_ids: [CLONE_ID] }),
      });
      assert.equal(exported.status, 200);
      assert.equal(exported.headers.get('content-type'), 'application/zip');
      const archive = Buffer.from(await exported.arrayBuffer());

      const preview = await injectRequest(fresh, 'POST', '/api/voices/import/preview', { key: freshAdmin.key, body: archive, headers: zipHeaders });
      assert.deepEqual(preview.body, { voices: [{ id: CLONE_ID, name: 'Grandma Clone', type: 'clone', conflict: 'none' }], problems: [] });
      const into = await injectRequest(fresh, 'POST', '/api/voices/import', { key: freshAdmin.key, body: archive, headers: zipHeaders });
      assert.deepEqual(into.body.imported, [CLONE_ID]);

      const copy = (await injectRequest(fresh, 'GET', voicePath(CLONE_ID), { key: freshAdmin.key })).body;
      const comparable = ({ created_at, updated_at, samples, ...rest }: Record<string, any>) => ({
        ...rest,
        samples: samples.map(({ id, ...sample }: Record<string, unknown>) => sample),
      });
      assert.deepEqual(comparable(copy), comparable(original));
      const sampleBytes = (zip: Buffer) => Buffer.from(unzipSync(zip)[`samples/${CLONE_ID}/1.wav`]!);
      assert.deepEqual(sampleBytes(archive), Buffer.from(wav(1)));
      assert.deepEqual(await readdir(join(fresh.dataDir, 'voices', CLONE_ID)), ['1.wav']);
    });

    test('the preview reports an id that exists; rename imports it under a new id', async () => {
      const preview = await call('POST', '/api/voices/import/preview', { body: cloneArchive(), headers: zipHeaders });
      assert.equal(preview.body.voices[0].conflict, 'id_exists');
      assert.deepEqual((await call('POST', '/api/voices/import', { body: cloneArchive(), headers: zipHeaders })).body.skipped, [CLONE_ID]);
      const renamed = await call('POST', '/api/voices/import?on_conflict=rename', { body: cloneArchive(), headers: zipHeaders });
      const newId = renamed.body.renamed[CLONE_ID];
      assert.deepEqual(renamed.body.imported, [newId]);
      assert.equal((await call('GET', voicePath(newId))).body.name, 'Grandma Clone');
    });

    test('deleting a clone removes its rows and folder', async () => {
      assert.equal((await call('DELETE', voicePath(CLONE_ID))).status, 204);
      assert.equal((await call('GET', voicePath(CLONE_ID))).body.error.code, 'voice_not_found');
      assert.ok(!existsSync(join(fixture.server.dataDir, 'voices', CLONE_ID)));
    });
  });
});
