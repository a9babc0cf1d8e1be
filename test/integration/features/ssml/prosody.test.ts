import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { praatMedianPitch, speechSpan } from '../../../helpers/speech-measures.js';
import { decodeKokoroCalls } from '../../../helpers/stand-in-models.js';
import { ENGLISH_BUILT_INS, KOKORO_STAND_IN, serviceWithStandIn, speak } from './families.js';

/**
 * `prosody rate="x-slow"` makes a sentence at least 1.4× as long as the plain sentence (from the
 * first to the last sound above −40 dBFS), and `pitch="+30%"` raises Praat's median pitch by
 * 20–40 %, in every built-in family but Open JTalk. The Kokoro stand-in's tone lasts as long
 * whatever speed it is given and has no voice pitch, so for it the test reads the speed that
 * reached the model; its pitch is not measured.
 */

const SENTENCE = 'The quick brown fox jumps over the lazy dog.';
const inProsody = (attributes: string) => `<speak><prosody ${attributes}>${SENTENCE}</prosody></speak>`;

async function speechSeconds(audio: Buffer): Promise<number> {
  const span = await speechSpan(audio);
  return span.end - span.start;
}

describe('prosody rate and pitch', () => {
  const fixture = serviceWithStandIn();

  for (const family of ENGLISH_BUILT_INS) {
    test(`${family.name}: x-slow lasts at least 1.4× the plain sentence, +30% pitch is 20–40 % higher`, async () => {
      const plain = await speak(fixture, family, SENTENCE);
      const slow = await speak(fixture, family, inProsody('rate="x-slow"'));
      const raised = await speak(fixture, family, inProsody('pitch="+30%"'));
      const [plainSeconds, slowSeconds] = [await speechSeconds(plain), await speechSeconds(slow)];
      assert.ok(slowSeconds >= 1.4 * plainSeconds, `${family.name}: ${slowSeconds.toFixed(2)} s slow against ${plainSeconds.toFixed(2)} s plain`);
      const [plainHz, raisedHz] = [await praatMedianPitch(plain), await praatMedianPitch(raised)];
      const rise = raisedHz / plainHz - 1;
      assert.ok(rise >= 0.2 && rise <= 0.4, `${family.name}: median pitch ${plainHz.toFixed(1)} Hz → ${raisedHz.toFixed(1)} Hz (${(rise * 100).toFixed(1)} %)`);
    });
  }

  test(`${KOKORO_STAND_IN.name}: x-slow reaches the model as a speed of at most 1/1.4, the plain sentence as 1 (to the 16-bit WAV's precision)`, async () => {
    const speeds = async (text: string) => decodeKokoroCalls(parseWav(await speak(fixture, KOKORO_STAND_IN, text)).samples).map((call) => call.speed);
    const plain = await speeds(SENTENCE);
    const slow = await speeds(inProsody('rate="x-slow"'));
    assert.ok(plain.length > 0 && plain.every((speed) => Math.abs(speed - 1) < 0.001), JSON.stringify(plain));
    assert.ok(slow.length > 0 && slow.every((speed) => speed <= 1 / 1.4), JSON.stringify(slow));
  });
});
