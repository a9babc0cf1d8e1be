import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { injectRequest, inProcessWithAdmin, type InProcessFixture } from '../../../helpers/in-process.js';
import { durationSeconds } from '../../../helpers/speech-measures.js';
import { ENGLISH_BUILT_INS, speak } from './families.js';

/**
 * Hostile SSML and dictionaries get a clear 4xx naming the problem, never a 5xx, and another
 * client's cheap request keeps being answered while each is handled (the service shares one event
 * loop, so a parser that expanded a bomb or walked 10,000 levels would hold that request too). The
 * text and body limits are raised here so that the SSML and dictionary limits are the ones met.
 */

const MIB = 1024 * 1024;
const VOICE = { voice_id: ENGLISH_BUILT_INS[0]!.voice, language: ENGLISH_BUILT_INS[0]!.language };
/** The slowest another request may be answered while a bad one is handled (as the upload limit tests hold). */
const STALL_MS = 1000;

/** Runs `work` while another client asks for the categories over and over; the slowest answer it got. */
async function whileProbing<T>(fixture: InProcessFixture, work: () => Promise<T>): Promise<{ result: T; slowestMs: number }> {
  let slowestMs = 0;
  let done = false;
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      const answer = await injectRequest(fixture.server, 'GET', '/api/categories', { key: fixture.admin.key });
      assert.equal(answer.status, 200);
      slowestMs = Math.max(slowestMs, performance.now() - started);
      await sleep(10);
    }
  })();
  try {
    return { result: await work(), slowestMs };
  } finally {
    done = true;
    await probe;
  }
}

describe('bad SSML and dictionaries: a clear 4xx, no 5xx, no stall of other requests', () => {
  const fixture = inProcessWithAdmin({ flags: { 'max-text-chars': '1000000', 'max-body-bytes': String(64 * MIB) } });

  async function refused(path: string, json: unknown, status: number, code: string, options: { body?: string; headers?: Record<string, string> } = {}) {
    const { result, slowestMs } = await whileProbing(fixture, () =>
      injectRequest(fixture.server, 'POST', path, { key: fixture.admin.key, ...(options.body === undefined ? { json } : options) }),
    );
    assert.equal(result.status, status, result.text.slice(0, 500));
    const error = (result.body as { error: { code: string; message: string; details: Record<string, unknown> } }).error;
    assert.equal(error.code, code, result.text.slice(0, 500));
    assert.ok(error.message.length > 0);
    assert.ok(slowestMs < STALL_MS, `another request waited ${Math.round(slowestMs)} ms`);
    return error;
  }
  const ssml = (text: string) => refused('/api/generate/preset', { ...VOICE, text }, 400, 'invalid_ssml');

  test('malformed XML names the line and column', async () => {
    const error = await ssml('<speak>\nHello <break time="1s"></speak>');
    assert.equal(error.details.line, 2);
    assert.equal(typeof error.details.column, 'number');
  });

  test('an unknown element is named, with its place', async () => {
    const error = await ssml('<speak>Hello <blink>there</blink>.</speak>');
    assert.deepEqual([error.details.element, error.details.line, error.details.column], ['blink', 1, 14]);
  });

  test('a break of an hour is over TIMBRE_SSML_MAX_BREAK_SECONDS', async () => {
    const error = await ssml('<speak>Wait <break time="3600s"/> for it.</speak>');
    assert.equal(error.details.element, 'break');
    assert.match(JSON.stringify(error.details), /TIMBRE_SSML_MAX_BREAK_SECONDS/);
  });

  test('10,000 nested prosody elements are over TIMBRE_SSML_MAX_DEPTH', async () => {
    const error = await ssml(`<speak>${'<prosody rate="fast">'.repeat(10_000)}deep${'</prosody>'.repeat(10_000)}</speak>`);
    assert.equal(error.details.element, 'prosody');
    assert.match(JSON.stringify(error.details), /TIMBRE_SSML_MAX_DEPTH/);
  });

  test('an entity-expansion bomb is refused without expanding', async () => {
    const levels = Array.from({ length: 9 }, (_, level) => `<!ENTITY l${level + 1} "${`&l${level};`.repeat(10)}">`).join('\n');
    await ssml(`<?xml version="1.0"?>\n<!DOCTYPE speak [\n<!ENTITY l0 "laugh">\n${levels}\n]>\n<speak>&l9;</speak>`);
  });

  test('a dictionary of 100,000 rules is 413 dictionary_too_large, as JSON and as PLS', async () => {
    const graphemes = Array.from({ length: 100_000 }, (_, index) => `w${index}`);
    const rules = graphemes.map((grapheme) => ({ grapheme, alias: 'word' }));
    await refused('/api/pronunciations', { name: 'Huge', language: 'en', rules }, 413, 'dictionary_too_large');
    const lexemes = graphemes.map((grapheme) => `<lexeme><grapheme>${grapheme}</grapheme><alias>word</alias></lexeme>`).join('\n');
    const pls = `<?xml version="1.0" encoding="UTF-8"?>\n<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-US">\n${lexemes}\n</lexicon>`;
    await refused('/api/pronunciations?name=Huge', undefined, 413, 'dictionary_too_large', { body: pls, headers: { 'content-type': 'application/pls+xml' } });
    const listed = await injectRequest(fixture.server, 'GET', '/api/pronunciations', { key: fixture.admin.key });
    assert.deepEqual((listed.body as { dictionaries: unknown[] }).dictionaries, [], 'nothing was stored');
  });

  test('a rule whose alias holds its own grapheme is applied once: "a" → "a a" in "banana" speaks a few syllables', async () => {
    const created = await injectRequest(fixture.server, 'POST', '/api/pronunciations', {
      key: fixture.admin.key,
      json: { name: 'Echo', language: 'en', rules: [{ grapheme: 'a', case_sensitive: false, whole_word: false, alias: 'a a' }] },
    });
    assert.equal(created.status, 201, created.text);
    const id = (created.body as { id: string }).id;
    const { result, slowestMs } = await whileProbing(fixture, () => speak(fixture, ENGLISH_BUILT_INS[0]!, 'banana', { pronunciation_ids: [id] }));
    // Applied once, "b a a n a a n a a" is longer than "banana" but a matter of seconds; applied to its own output it would never end.
    const [plainSeconds, seconds] = [await durationSeconds(await speak(fixture, ENGLISH_BUILT_INS[0]!, 'banana')), await durationSeconds(result)];
    assert.ok(seconds > 1.3 * plainSeconds && seconds < 5, `${seconds} s with the rule, ${plainSeconds} s without`);
    assert.ok(slowestMs < STALL_MS, `another request waited ${Math.round(slowestMs)} ms`);
  });
});
