import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { rms } from '../../../../src/platform/audio/pcm.js';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { buildKokoro, buildPocket, decodeKokoroCalls, SHARED_MODELS } from '../../../helpers/stand-in-models.js';
import { REFERENCE_AUDIO } from '../../../helpers/paths.js';
import { createKeyWithCli, postMultipart, removeDir, request, startTimbre, tempDir, type RunningTimbre } from '../../../helpers/timbre.js';

/**
 * The neural clone methods through the real server, against stand-in models the test builds
 * (Pocket TTS for zero_shot, Kokoro for voice_search): their sound means nothing, but what reaches
 * the models does. The Pocket stand-in's output peak is the RMS of the reference it was given; the
 * Kokoro stand-in writes the style rows it used into its output.
 */

const LIMITS = ['clone:create=1000', 'tts:generate=1000', 'voices:read=1000', 'voices:write=1000'].flatMap((pair) => ['--rate-limit', pair]);
const STYLE_ROW = 256;

describe('zero_shot and voice_search clones with stand-in models', () => {
  let modelsDir: string;
  let server: RunningTimbre;
  let key: string;
  let jfk: Buffer;

  before(async () => {
    modelsDir = await tempDir('timbre-clone-models-');
    await buildPocket(join(modelsDir, 'pocket-tts-int8'));
    await buildKokoro(join(modelsDir, 'kokoro-multi-lang-v1_0-int8'));
    // The real Silero VAD finds the speech of the samples here.
    await mkdir(join(modelsDir, 'silero-vad'));
    await copyFile(join(SHARED_MODELS, 'asr/silero_vad.onnx'), join(modelsDir, 'silero-vad/silero_vad.onnx'));
    // The stand-ins are the subject; built-in presets only give the zero-shot clone its baseline, so Pico's two suffice.
    server = await startTimbre({ args: ['--models-dir', modelsDir, '--clone-base-engines', 'pico'] });
    key = (await createKeyWithCli(server.dataDir, 'neural', LIMITS)).key;
    jfk = await readFile(join(REFERENCE_AUDIO, 'jfk.wav'));
  });
  after(async () => {
    await server.stop();
    await removeDir(server.dataDir);
    await removeDir(modelsDir);
  });

  const made: Record<string, string> = {};

  const generate = async (voiceId: string) => {
    const response = await fetch(new URL('/api/generate/clone', server.url), {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ voice_id: voiceId, text: 'Hello there, this is a test.', language: 'en' }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    return parseWav(Buffer.from(await response.arrayBuffer()));
  };

  test('with Pocket TTS installed a clone is zero_shot, and generation conditions on its stored reference', async () => {
    const { status, body } = await postMultipart(server.url, key, '/api/clone/create', [{ name: 'jfk.wav', bytes: jfk }], { name: 'Zero' });
    assert.equal(status, 201, JSON.stringify(body));
    assert.equal(body.clone_method, 'zero_shot');
    assert.equal(body.method_reason, 'the best method available');
    assert.equal(body.voice.engine, 'pocket-tts');
    // A sine from the stand-in holds no voice to measure: said so, never faked.
    assert.equal(body.similarity, null);
    assert.ok(body.warnings.some((warning: { code: string }) => warning.code === 'similarity_unmeasured'));
    // Nor does it speak a word: with no base voice to compare with, it is held to the fixed limit, and says so.
    const lost = body.warnings.find((warning: { code: string }) => warning.code === 'low_intelligibility');
    assert.ok(lost, JSON.stringify(body.warnings));
    assert.ok(body.intelligibility <= 0.1, `word accuracy ${body.intelligibility}`);
    assert.equal(body.baseline_intelligibility, null);
    assert.ok(lost.details.word_error_rate >= 0.9, JSON.stringify(lost.details));
    assert.deepEqual(body.voice.warnings, body.warnings, 'the voice keeps saying so');
    assert.equal(body.voice.settings.rendering.reference.file, 'reference.wav');
    assert.equal(body.voice.settings.speech_detector, 'silero-vad');
    made.zeroShot = body.voice_id;

    const reference = parseWav(await readFile(join(server.dataDir, 'voices', body.voice_id, 'reference.wav')));
    assert.ok(reference.samples.length / reference.sampleRate > 5 && reference.samples.length / reference.sampleRate <= 10.01);
    const spoken = await generate(body.voice_id);
    let peak = 0;
    for (const value of spoken.samples) peak = Math.max(peak, Math.abs(value));
    assert.ok(Math.abs(peak - rms(reference.samples)) < 0.01, `output peak ${peak.toFixed(4)}, reference RMS ${rms(reference.samples).toFixed(4)}`);
  });

  test('voice_search stores a blended Kokoro style, and generation speaks with it', async () => {
    const { status, body } = await postMultipart(server.url, key, '/api/clone/create', [{ name: 'jfk.wav', bytes: jfk }], {
      name: 'Search',
      method: 'voice_search',
    });
    assert.equal(status, 201, JSON.stringify(body));
    assert.equal(body.clone_method, 'voice_search');
    assert.match(body.method_reason, /^requested/);
    assert.equal(body.voice.engine, 'kokoro');
    const blend = body.voice.settings.parameters.blend as { voice: string; weight: number }[];
    assert.ok(blend.length >= 1 && Math.abs(blend.reduce((sum, part) => sum + part.weight, 0) - 1) < 1e-9, JSON.stringify(blend));

    const bytes = await readFile(join(server.dataDir, 'voices', body.voice_id, 'style.f32'));
    const style = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    assert.equal(style.length, 510 * STYLE_ROW);
    made.search = body.voice_id;
    const spoken = await generate(body.voice_id);
    const calls = decodeKokoroCalls(spoken.samples);
    assert.ok(calls.length >= 1);
    for (const call of calls) {
      const row = style.subarray((call.tokens.length - 2) * STYLE_ROW, (call.tokens.length - 1) * STYLE_ROW);
      // 16-bit WAV keeps about four decimals; values beyond full scale are clipped.
      call.style.forEach((value, i) => {
        if (Math.abs(row[i]!) < 0.99) assert.ok(Math.abs(value - row[i]!) < 1e-3, `style value ${i}: ${value} vs ${row[i]}`);
      });
    }
  });

  test('a design blends two Kokoro voices when Kokoro is installed', async () => {
    const response = await request(server.url, 'POST', '/api/design/create', { key, json: { name: 'Kokoro design', description: 'a warm female voice' } });
    assert.equal(response.status, 201, response.text);
    const body = response.body;
    assert.equal(body.voice.engine, 'kokoro');
    assert.equal(body.voice.settings.design.blend.length, 2);
    const bytes = await readFile(join(server.dataDir, 'voices', body.voice_id, 'style.f32'));
    assert.equal(bytes.length, 510 * STYLE_ROW * 4);
  });

  test('an exported clone carries its reference and style files, and speaks again once imported elsewhere', async () => {
    const ids = [made.zeroShot!, made.search!];
    const exported = await fetch(new URL('/api/voices/export', server.url), {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ voice_ids: ids }),
    });
    assert.equal(exported.status, 200);
    const zip = Buffer.from(await exported.arrayBuffer());
    const before = {
      reference: await readFile(join(server.dataDir, 'voices', ids[0]!, 'reference.wav')),
      style: await readFile(join(server.dataDir, 'voices', ids[1]!, 'style.f32')),
    };
    for (const id of ids) assert.equal((await request(server.url, 'DELETE', `/api/voices/${id}`, { key })).status, 204);
    const imported = await request(server.url, 'POST', '/api/voices/import', { key, body: zip, headers: { 'content-type': 'application/zip' } });
    assert.equal(imported.status, 200, imported.text);
    assert.deepEqual((imported.body as { imported: string[] }).imported, ids);
    assert.ok((await readFile(join(server.dataDir, 'voices', ids[0]!, 'reference.wav'))).equals(before.reference));
    assert.ok((await readFile(join(server.dataDir, 'voices', ids[1]!, 'style.f32'))).equals(before.style));
    for (const id of ids) assert.ok((await generate(id)).samples.length > 0);
  });
});
