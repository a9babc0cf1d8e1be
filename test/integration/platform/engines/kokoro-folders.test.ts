import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createKokoroEngine } from '../../../../src/platform/engines/sherpa/kokoro.js';
import type { JobContext } from '../../../../src/platform/engines/types.js';
import { buildKokoro } from '../../../helpers/stand-in-models.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

// What a Kokoro folder offers depends on the files it holds, as in the official archive:
// Chinese only with lexicon-zh.txt, Japanese never, and its own espeak-ng-data/ before the system's.

const job = (): JobContext => ({ signal: new AbortController().signal, progress: () => undefined });

describe('Kokoro folders (stand-in model)', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir('timbre-kokoro-folders-');
  });
  after(() => removeDir(dir));

  test('without lexicon-zh.txt Chinese is not offered, and Japanese never is', async () => {
    await buildKokoro(join(dir, 'plain'));
    const kokoro = await createKokoroEngine(join(dir, 'plain')).load();
    assert.deepEqual(kokoro.capabilities.languages, ['en-US', 'en-GB', 'es', 'fr', 'hi', 'it', 'pt-BR']);
    const voices = await kokoro.listVoices();
    assert.equal(voices.length, 53 - 5 - 8, 'no Japanese (5) or Mandarin (8) voices');
    assert.ok(voices.every((voice) => !/^kokoro:[jz]/.test(voice.id)));
    await assert.rejects(kokoro.synthesize({ text: '你好。', voice: 'kokoro:af_heart', language: 'zh' }, job()), {
      code: 'language_not_supported',
    });
    await assert.rejects(kokoro.synthesize({ text: '你好。', voice: 'kokoro:zf_xiaoxiao' }, job()), { code: 'voice_not_found' });
  });

  test('a folder with its own espeak-ng-data/ speaks with no system espeak data at all', async () => {
    await buildKokoro(join(dir, 'bundled'), { espeakData: true, lexiconZh: true });
    const engine = createKokoroEngine(join(dir, 'bundled'), { systemEspeakData: [] });
    assert.deepEqual(await engine.probe(), { available: true });
    const kokoro = await engine.load();
    const { pcm } = await kokoro.synthesize({ text: 'Hello there.', voice: 'kokoro:bf_emma' }, job());
    assert.ok(pcm.samples.length > 0);
  });

  test('without espeak data anywhere, or with an incomplete copy, the folder is refused with the files it lacks', async () => {
    await buildKokoro(join(dir, 'no-espeak'));
    const nowhere = await createKokoroEngine(join(dir, 'no-espeak'), { systemEspeakData: [] }).probe();
    assert.equal(nowhere.available, false);
    assert.match(nowhere.reason ?? '', /espeak-ng data missing; no system copy found either \(apt-get install espeak-ng-data\)/);
    await buildKokoro(join(dir, 'partial'), { espeakData: true });
    await rm(join(dir, 'partial/espeak-ng-data/intonations'));
    const partial = await createKokoroEngine(join(dir, 'partial'), { systemEspeakData: [] }).probe();
    assert.match(partial.reason ?? '', /the model's copy lacks intonations/);
    // The system copy stands in for an incomplete bundled one.
    assert.deepEqual(await createKokoroEngine(join(dir, 'partial')).probe(), { available: true });
  });
});
