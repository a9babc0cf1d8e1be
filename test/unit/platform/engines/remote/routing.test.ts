import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import type { WorkerAnnouncement } from '../../../../../src/platform/engines/remote/announcements.js';
import { checkedCall, checkedJob } from '../../../../../src/platform/engines/remote/checked-call.js';
import { CallRouter, voiceSetsOf } from '../../../../../src/platform/engines/remote/routing.js';
import { publishVoiceSets, voiceSet } from '../../../../../src/platform/engines/remote/voice-sets.js';
import { fromPieces, PIECE_BYTES, toPieces } from '../../../../../src/platform/engines/remote/wire.js';
import { startRedis, type RunningRedis } from '../../../../helpers/redis.js';

const worker = (id: string, sets: WorkerAnnouncement['voice_sets'], slots = 2, running = 0): WorkerAnnouncement => ({
  id,
  host: 'machine',
  slots,
  running,
  completed: 0,
  engines: [],
  voice_sets: sets,
  last_seen: new Date().toISOString(),
});
const speak = (voice: string) => ({ method: 'synthesize' as const, args: [{ text: 'Hello.', voice }] as [{ text: string; voice: string }] });

describe('what crosses Redis', () => {
  test('a value with audio goes in bounded pieces and comes back whole, typed arrays included', () => {
    const samples = Float32Array.from({ length: 300_000 }, (_, n) => Math.sin(n / 10));
    const pieces = toPieces({ pcm: { samples, sampleRate: 24000 } });
    assert.ok(pieces.length > 1 && pieces.every((piece) => piece.length <= PIECE_BYTES));
    assert.deepEqual(fromPieces(pieces), { pcm: { samples, sampleRate: 24000 } });
  });

  test('a worker refuses a job or arguments that are not a call, before any engine sees them', () => {
    const job = { call: 'c1', engine: 'espeak', method: 'synthesize', pieces: 1, stream: true, timeoutMs: 1000, quick: false };
    assert.deepEqual(checkedJob(job), job);
    for (const bad of [
      null,
      { ...job, engine: 'rm -rf' },
      { ...job, method: 'eval' },
      { ...job, call: '../../x' },
      { ...job, pieces: 0 },
      { ...job, timeoutMs: -1 },
    ]) {
      assert.throws(() => checkedJob(bad), { code: 'invalid_engine_call' }, JSON.stringify(bad));
    }
    assert.deepEqual(checkedCall('synthesize', [{ text: 'Hi.', voice: 'v' }]), { method: 'synthesize', args: [{ text: 'Hi.', voice: 'v' }] });
    for (const [method, args] of [
      ['synthesize', [{ text: 3, voice: 'v' }]],
      ['synthesize', [{ text: 'Hi.', voice: 'v' }, 'extra']],
      ['extract', [{ samples: [1, 2], sampleRate: 16000 }]],
      ['listVoices', ['x']],
    ] as const) {
      assert.throws(() => checkedCall(method, args), { code: 'invalid_engine_call' }, method);
    }
  });
});

describe('routing a call to a voice set', () => {
  let redis: RunningRedis;
  let client: Redis;
  before(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
  });
  after(async () => {
    client.disconnect();
    await redis.close();
  });

  test('a voice set is named by its voices, whatever their order', () => {
    assert.equal(voiceSet(['b', 'a', 'a']).id, voiceSet(['a', 'b']).id);
    assert.notEqual(voiceSet(['a', 'b']).id, voiceSet(['a', 'c']).id);
  });

  test('the live workers of an engine are grouped by voice set with their free slots', () => {
    const sets = voiceSetsOf([worker('w1', { espeak: 's1' }, 2, 1), worker('w2', { espeak: 's1', vits: 'p' }, 4, 0), worker('w3', { vits: 'q' })], 'espeak');
    assert.deepEqual(sets, [{ id: 's1', free: 5 }]);
    assert.deepEqual(voiceSetsOf([worker('w1', { espeak: 's1' })], 'kokoro'), []);
  });

  test('a call for a voice goes to a set that has it, even a busier one; other calls go where slots are free', async () => {
    const lessac = voiceSet(['vits:lessac']);
    const amy = voiceSet(['vits:amy']);
    await publishVoiceSets(client, new Map([['vits', lessac]]), 60_000).exec();
    await publishVoiceSets(client, new Map([['vits', amy]]), 60_000).exec();
    const workers = [worker('busy', { vits: lessac.id }, 1, 1), worker('idle', { vits: amy.id }, 4, 0)];
    const router = new CallRouter(client);
    assert.equal(await router.route(workers, 'vits', speak('vits:lessac')), lessac.id);
    assert.equal(await router.route(workers, 'vits', speak('vits:amy')), amy.id);
    assert.equal(await router.route(workers, 'vits', speak('vits:unlisted')), amy.id, 'a voice no set lists: the engine decides, on the roomiest set');
    assert.equal(await router.route(workers, 'vits', { method: 'listVoices', args: [] }), amy.id);
    await assert.rejects(router.route(workers, 'kokoro', speak('kokoro:af_heart')), { code: 'no_worker_for_engine', details: { engine: 'kokoro' } });
  });
});
