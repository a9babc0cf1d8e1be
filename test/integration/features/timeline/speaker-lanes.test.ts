import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { injectRequest, inProcessWithAdmin } from '../../../helpers/in-process.js';

const LIMITS = ['--rate-limit', 'tts:generate=100', '--rate-limit', 'tts:timeline=100'];

describe('the default timeline of a script', () => {
  const fixture = inProcessWithAdmin({ keyArgs: LIMITS });
  const get = (path: string) => injectRequest(fixture.server, 'GET', path, { key: fixture.admin.key });

  test('puts each speaker’s chunks on a voice track of their own, named after the speaker, one after another in time', async () => {
    const script = 'Anna: Good morning. How are you?\nBen: I am fine, thank you.\nAnna: Shall we begin?';
    const started = await injectRequest(fixture.server, 'POST', '/api/generate/clone-chunked-multivoice', {
      key: fixture.admin.key,
      json: { script, voices: { Anna: 'pico:en-US', Ben: 'flite:rms' } },
    });
    assert.equal(started.status, 202, started.text);
    const taskId: string = started.body.task_id;
    for (;;) {
      const task = (await get(`/api/tasks/${taskId}`)).body;
      if (task.status === 'completed') break;
      assert.ok(['queued', 'running'].includes(task.status), JSON.stringify(task));
      await sleep(100);
    }

    const { status, body } = await get(`/api/timeline/${taskId}`);
    assert.equal(status, 200);
    assert.deepEqual(
      body.tracks.map((track: { id: string; kind: string; name: string }) => [track.id, track.kind, track.name]),
      [
        ['voice', 'voice', 'Anna'],
        ['voice-2', 'voice', 'Ben'],
      ],
    );
    const blocks: { track: string; start: number; end: number; source: { index: number } }[] = body.blocks;
    const trackOf = (index: number) => blocks.find((block) => block.source.index === index)?.track;
    assert.equal(blocks.length, 4);
    assert.deepEqual([0, 1, 2, 3].map(trackOf), ['voice', 'voice', 'voice-2', 'voice']);
    for (let index = 1; index < blocks.length; index++) {
      const [previous, next] = [blocks[index - 1], blocks[index]];
      assert.ok(previous && next && next.start > previous.end, `chunk ${index} follows chunk ${index - 1} across the lanes`);
    }
  });
});
