import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { injectRequest, inProcessWithAdmin } from '../../../helpers/in-process.js';
import { postMultipart } from '../../../helpers/timbre.js';
import { REFERENCE_AUDIO } from '../../../helpers/paths.js';

interface Word {
  word: string;
  probability: number | null;
}

describe('transcription: how sure the recognizer was of each word', () => {
  const fixture = inProcessWithAdmin();

  test('every word of jfk.wav has a probability in 0–1, and the words PocketSphinx doubts fall under the unsure threshold', async () => {
    const jfk = await readFile(join(REFERENCE_AUDIO, 'jfk.wav'));
    const { status, body } = await postMultipart(
      fixture.server.url,
      fixture.admin.key,
      '/api/transcribe',
      [{ name: 'jfk.wav', bytes: jfk }],
      { language: 'en', timestamps: 'word' },
      fixture.server.fetch,
    );
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.recognizer, 'pocketsphinx');
    const words: Word[] = body.segments.flatMap((segment: { words: Word[] }) => segment.words);
    assert.ok(words.length >= 10, JSON.stringify(words));
    for (const word of words) assert.ok(typeof word.probability === 'number' && word.probability >= 0 && word.probability <= 1, JSON.stringify(word));
    // Measured on this noisy 1961 recording: posteriors from 0.006 to 0.98, on both sides of the threshold.
    assert.ok(body.unsure_below > 0 && body.unsure_below < 1);
    assert.ok(
      words.some((word) => word.probability! < body.unsure_below),
      'some words are unsure',
    );
    assert.ok(
      words.some((word) => word.probability! >= body.unsure_below),
      'some words are sure',
    );

    // Asked again, the transcript comes from the cache with the same probabilities.
    const again = await injectRequest(fixture.server, 'POST', '/api/transcribe', {
      key: fixture.admin.key,
      json: { asset_id: body.asset_id, timestamps: 'word' },
    });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.segments, body.segments);
  });
});
