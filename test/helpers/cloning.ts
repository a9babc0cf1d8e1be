import assert from 'node:assert/strict';
import { INTELLIGIBILITY_MARGIN } from '../../src/features/cloning/intelligibility.js';
import { decodeToPcm } from '../../src/platform/audio/decode.js';
import type { Pcm } from '../../src/platform/audio/pcm.js';
import { request, type ServerFixture } from './timbre.js';

/** What the clone and design suites share: speaking with a made voice, waiting for a job, what a made voice reports. */

export const NEW_TEXT = 'Yesterday we walked to the market and bought fresh bread, apples and a bottle of milk for the children.';

/** Speaks a text with a voice through one of the generate routes, as audio and as 16 kHz samples. */
export async function speakWith(fixture: ServerFixture, voiceId: string, route = '/api/generate/clone', text = NEW_TEXT): Promise<{ pcm: Pcm; audio: Buffer }> {
  const response = await fetch(new URL(route, fixture.server.url), {
    method: 'POST',
    headers: { 'x-api-key': fixture.admin.key, 'content-type': 'application/json' },
    body: JSON.stringify({ voice_id: voiceId, text, language: 'en' }),
  });
  assert.equal(response.status, 200);
  const audio = Buffer.from(await response.arrayBuffer());
  return { audio, pcm: await decodeToPcm(audio, 16000) };
}

/** Waits until a job of this kind runs. */
export async function runningJob(fixture: ServerFixture, kind: string): Promise<{ job_id: string }> {
  for (;;) {
    const status = await request(fixture.server.url, 'GET', '/api/queue/status', { key: fixture.admin.key });
    const running = status.body.running.find((job: { kind: string }) => job.kind === kind);
    if (running) return running;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * What a clone or design reports of its words: word accuracy for it and its base voice, the
 * recognizer, and a low_intelligibility warning exactly when it lost more than the margin allows.
 */
export function assertIntelligibilityReported(made: {
  intelligibility: number;
  baseline_intelligibility: number;
  intelligibility_measure: string;
  warnings: { code: string }[];
}) {
  assert.ok(made.intelligibility >= 0 && made.intelligibility <= 1, `intelligibility ${made.intelligibility}`);
  assert.ok(made.baseline_intelligibility >= 0 && made.baseline_intelligibility <= 1, `baseline ${made.baseline_intelligibility}`);
  assert.match(made.intelligibility_measure, /^pocketsphinx /);
  const lost = made.baseline_intelligibility - made.intelligibility > INTELLIGIBILITY_MARGIN + 1e-3;
  assert.equal(
    made.warnings.some((warning) => warning.code === 'low_intelligibility'),
    lost,
    `intelligibility ${made.intelligibility} against ${made.baseline_intelligibility}: ${JSON.stringify(made.warnings)}`,
  );
}
