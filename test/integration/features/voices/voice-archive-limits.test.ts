// Black-box (the service as a process): the service process's memory and stalls are watched, and a chunked upload is cut off on a real socket.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { zipSync } from 'fflate';
import { encodeWav } from '../../../../src/platform/audio/wav.js';
import { request, serverWithAdmin } from '../../../helpers/timbre.js';
import { whileWatching } from '../../../helpers/watch.js';
import { archiveManifest, deflatedZeros, rawZip } from '../../../helpers/zips.js';

const MIB = 1024 * 1024;
const MAX_ARCHIVE_BYTES = 64 * MIB;
const zipHeaders = { 'content-type': 'application/zip' };

const manifestOf = (ids: string[]) => archiveManifest(ids.map((id) => ({ id })));

const manifestEntry = (ids: string[]) => {
  const bytes = Buffer.from(JSON.stringify(manifestOf(ids)));
  return { name: 'manifest.json', data: bytes, deflated: false, declaredSize: bytes.length };
};

/** Sends `bytes` bytes of body in chunks, without a Content-Length, and answers the response (the server may stop reading early). */
function postChunked(url: string, key: string, bytes: number): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      new URL('/api/voices/import', url),
      { method: 'POST', headers: { ...zipHeaders, 'x-api-key': key, 'transfer-encoding': 'chunked' } },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      },
    );
    // Writes after the server hung up fail; the answer it sent first is what counts.
    outgoing.on('error', (error) => (outgoing.headersSent ? undefined : reject(error)));
    const chunk = Buffer.alloc(MIB);
    let sent = 0;
    const write = () => {
      while (sent < bytes && !outgoing.destroyed) {
        sent += chunk.length;
        if (!outgoing.write(chunk)) return void outgoing.once('drain', write);
      }
      outgoing.end();
    };
    write();
  });
}

describe('voice archive limits', () => {
  const fixture = serverWithAdmin({
    args: ['--max-archive-bytes', String(MAX_ARCHIVE_BYTES)],
    keyArgs: ['--rate-limit', 'voices:read=10000', '--rate-limit', 'voices:write=10000'],
  });
  const leftovers = async () => [
    ...(await readdir(join(fixture.server.dataDir, 'assets')).catch(() => [])),
    ...(await readdir(join(fixture.server.dataDir, 'voices')).catch(() => [])).filter((name) => name.startsWith('.')),
  ];

  test('a zip bomb (4 GiB of zeros declared as 100 bytes) is refused at once, without stalling others or growing memory', async () => {
    const bomb = rawZip([
      manifestEntry(['voice_bomb']),
      { name: 'samples/voice_bomb/1.wav', data: await deflatedZeros(4096), deflated: true, declaredSize: 100 },
    ]);
    for (const path of ['/api/voices/import', '/api/voices/import/preview']) {
      const watched = await whileWatching(fixture.server, fixture.admin.key, () =>
        request(fixture.server.url, 'POST', path, { key: fixture.admin.key, body: bomb, headers: zipHeaders }),
      );
      const { status, body } = watched.result;
      const problems = path.endsWith('preview') ? body.problems : body.error.details.problems;
      if (!path.endsWith('preview')) assert.deepEqual([status, body.error.code], [400, 'archive_invalid']);
      assert.deepEqual(
        problems.map((problem: { code: string }) => problem.code),
        ['entry_size_mismatch'],
      );
      assert.ok(watched.slowestMs < 1000, `another request waited ${Math.round(watched.slowestMs)} ms`);
      assert.ok(watched.rssGrowthBytes < 100 * MIB, `resident memory grew by ${Math.round(watched.rssGrowthBytes / MIB)} MB`);
    }
    assert.equal((await request(fixture.server.url, 'GET', '/api/voices/voice_bomb', { key: fixture.admin.key })).status, 404);
    assert.deepEqual(await leftovers(), []);
  });

  test('an honest archive that would inflate past the limits is refused from the sizes it declares', async () => {
    const zeros = await deflatedZeros(95);
    const ids = Array.from({ length: 11 }, (_, i) => `voice_big${i}`);
    const entries = ids.map((id) => ({ name: `samples/${id}/1.wav`, data: zeros, deflated: true, declaredSize: 95 * MIB }));
    const watched = await whileWatching(fixture.server, fixture.admin.key, () =>
      request(fixture.server.url, 'POST', '/api/voices/import', {
        key: fixture.admin.key,
        body: rawZip([manifestEntry(ids), ...entries]),
        headers: zipHeaders,
      }),
    );
    assert.equal(watched.result.status, 400);
    assert.deepEqual(
      watched.result.body.error.details.problems.map((problem: { code: string }) => problem.code),
      ['archive_too_large'],
    );
    assert.ok(watched.slowestMs < 1000, `another request waited ${Math.round(watched.slowestMs)} ms`);
    const oneHuge = rawZip([
      manifestEntry(['voice_huge']),
      { name: 'samples/voice_huge/1.wav', data: await deflatedZeros(101), deflated: true, declaredSize: 101 * MIB },
    ]);
    const huge = await request(fixture.server.url, 'POST', '/api/voices/import', { key: fixture.admin.key, body: oneHuge, headers: zipHeaders });
    assert.deepEqual(
      huge.body.error.details.problems.map((problem: { code: string }) => problem.code),
      ['entry_too_large'],
    );
  });

  test('an honest archive near the size limit is imported, and exported again, without stalling others or being held in memory', async () => {
    const ids = ['voice_near1', 'voice_near2', 'voice_near3', 'voice_near4'];
    // Four 16 MB samples (500 s at 16 kHz), stored: a 64 MB archive.
    const sample = encodeWav({ samples: Float32Array.from({ length: 16000 * 500 }, (_, i) => Math.sin(i / 9) * 0.3), sampleRate: 16000 });
    const zip = Buffer.from(
      zipSync({
        'manifest.json': Buffer.from(JSON.stringify(manifestOf(ids))),
        ...Object.fromEntries(ids.map((id) => [`samples/${id}/1.wav`, [sample, { level: 0 }]])),
      }),
    );
    assert.ok(zip.length > MAX_ARCHIVE_BYTES * 0.9 && zip.length < MAX_ARCHIVE_BYTES);
    const watched = await whileWatching(fixture.server, fixture.admin.key, () =>
      request(fixture.server.url, 'POST', '/api/voices/import', { key: fixture.admin.key, body: zip, headers: zipHeaders }),
    );
    assert.equal(watched.result.status, 200, watched.result.text);
    assert.deepEqual(watched.result.body.imported, ids);
    assert.ok(watched.slowestMs < 1000, `another request waited ${Math.round(watched.slowestMs)} ms`);
    assert.ok(watched.rssGrowthBytes < 100 * MIB, `resident memory grew by ${Math.round(watched.rssGrowthBytes / MIB)} MB`);
    const voice = (await request(fixture.server.url, 'GET', '/api/voices/voice_near4', { key: fixture.admin.key })).body;
    assert.equal(voice.samples[0].duration, 500);
    assert.deepEqual(await leftovers(), []);

    // Exporting them streams the zip from the files: counted here, never held by the service.
    const exported = await whileWatching(fixture.server, fixture.admin.key, async () => {
      const response = await fetch(new URL('/api/voices/export', fixture.server.url), {
        method: 'POST',
        headers: { 'x-api-key': fixture.admin.key, 'content-type': 'application/json' },
        body: JSON.stringify({ voice_ids: ids }),
      });
      let bytes = 0;
      for await (const chunk of response.body!) bytes += chunk.length;
      return bytes;
    });
    assert.ok(exported.result > 4 * sample.length, `${exported.result} bytes exported`);
    assert.ok(exported.slowestMs < 1000, `another request waited ${Math.round(exported.slowestMs)} ms`);
    assert.ok(exported.rssGrowthBytes < 100 * MIB, `resident memory grew by ${Math.round(exported.rssGrowthBytes / MIB)} MB`);
  });

  test('an archive over TIMBRE_MAX_ARCHIVE_BYTES gets 413, whether it says its length or not', async () => {
    const declared = await request(fixture.server.url, 'POST', '/api/voices/import/preview', {
      key: fixture.admin.key,
      body: Buffer.alloc(MAX_ARCHIVE_BYTES + 1),
      headers: zipHeaders,
    });
    assert.equal(declared.status, 413);
    assert.deepEqual([declared.body.error.code, declared.body.error.details.max_bytes], ['payload_too_large', MAX_ARCHIVE_BYTES]);
    const chunked = await postChunked(fixture.server.url, fixture.admin.key, MAX_ARCHIVE_BYTES + 4 * MIB);
    assert.deepEqual([chunked.status, chunked.body.error.code], [413, 'payload_too_large']);
    assert.deepEqual(await leftovers(), []);
  });
});
