import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError } from '../../../../src/platform/errors.js';
import { looksLikeSsml, parseSsml, type SsmlLimits } from '../../../../src/platform/text/ssml/parse.js';
import type { MarkedRun, SpeechRun } from '../../../../src/platform/text/ssml/segments.js';

const LIMITS: SsmlLimits = { maxDepth: 32, maxElements: 2000, maxBreakSeconds: 120 };

function parse(body: string, limits = LIMITS): MarkedRun[] {
  return parseSsml(`<speak>${body}</speak>`, limits);
}

function speech(runs: MarkedRun[]): SpeechRun[] {
  return runs.filter((run): run is SpeechRun => run.kind === 'speech');
}

/** The 400 invalid_ssml `action` throws, for its details to be checked. */
function ssmlError(action: () => unknown): ApiError {
  try {
    action();
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    assert.equal(error.statusCode, 400);
    assert.equal(error.code, 'invalid_ssml');
    return error;
  }
  assert.fail('expected invalid_ssml');
}

describe('looksLikeSsml', () => {
  test('a <speak> root, after an XML declaration and comments, is SSML; plain text and other markup are not', () => {
    assert.equal(looksLikeSsml('  <speak>Hi</speak>'), true);
    assert.equal(looksLikeSsml('<?xml version="1.0"?>\n<!-- a -->\n<speak version="1.1">Hi</speak>'), true);
    assert.equal(looksLikeSsml('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]><lolz>&lol;</lolz>'), true);
    assert.equal(looksLikeSsml('<!-- generated --><!DOCTYPE speak><speak/>'), true);
    assert.equal(looksLikeSsml('Use <speak> tags'), false);
    assert.equal(looksLikeSsml('<speaker>Hi</speaker>'), false);
    assert.equal(looksLikeSsml('<b>Hi</b>'), false);
  });
});

describe('parseSsml runs', () => {
  test('plain words are one literal run with whitespace collapsed', () => {
    assert.deepEqual(parse('  Hello,\n\n   world. '), [{ kind: 'speech', text: 'Hello, world.', literal: true, rate: 1, pitch: 1, volumeDb: 0 }]);
  });

  test('break: time in ms or s, strengths, medium by default, adjacent breaks add up', () => {
    const runs = parse('One.<break time="1500ms"/>Two.<break time="1.5s"/><break strength="x-strong"/>Three<break/>four<break strength="none"/>five');
    assert.deepEqual(
      runs.map((run) => (run.kind === 'break' ? run.seconds : run.text)),
      ['One.', 1.5, 'Two.', 2.7, 'Three', 0.4, 'four five'],
    );
  });

  test('p and s end sentences with a full stop; a paragraph pauses 0.4 s before the next words only', () => {
    const runs = parse('<p>First line</p><p><s>Second</s><s>Third!</s></p>');
    assert.deepEqual(
      runs.map((run) => (run.kind === 'break' ? run.seconds : run.text)),
      ['First line.', 0.4, 'Second. Third!'],
    );
  });

  test('a sentence in Japanese ends with an ideographic full stop', () => {
    assert.deepEqual(
      speech(parse('<s>これは最初の文です</s><s>次の文</s>')).map((run) => run.text),
      ['これは最初の文です。 次の文。'],
    );
  });

  test('prosody keywords, numbers, percentages, semitones, hertz and decibels; nesting multiplies and adds', () => {
    const [slow, nested, hz, relativeHz, level, silent] = speech(
      parse(
        '<prosody rate="x-slow" pitch="+30%" volume="loud">a</prosody>' +
          '<prosody rate="80%" pitch="+2st" volume="-3dB"><prosody rate="+50%" pitch="x-low" volume="+6dB">b</prosody></prosody>' +
          '<prosody pitch="x-high"><prosody pitch="180Hz">c</prosody></prosody>' +
          '<prosody pitch="-20Hz">d</prosody><prosody volume="50">e</prosody><prosody volume="silent">f</prosody>',
      ),
    );
    assert.deepEqual([slow!.rate, slow!.pitch, slow!.volumeDb], [0.5, 1.3, 6]);
    assert.ok(Math.abs(nested!.rate - 1.2) < 1e-9);
    assert.ok(Math.abs(nested!.pitch - 0.75 * 2 ** (2 / 12)) < 1e-9);
    assert.equal(nested!.volumeDb, 3);
    assert.deepEqual([hz!.pitch, hz!.pitchHz], [1, { hz: 180, relative: false }]);
    assert.deepEqual(relativeHz!.pitchHz, { hz: -20, relative: true });
    assert.ok(Math.abs(level!.volumeDb - 20 * Math.log10(0.5)) < 1e-9);
    assert.equal(silent!.volumeDb, -Infinity);
  });

  test('nesting holds rate within 0.25–4× and pitch within 0.5–2×, volume at most +24 dB', () => {
    const [run] = speech(parse(`${'<prosody rate="x-fast" pitch="x-high" volume="x-loud">'.repeat(4)}x${'</prosody>'.repeat(4)}`));
    assert.deepEqual([run!.rate, run!.pitch, run!.volumeDb], [4, 2, 24]);
  });

  test('emphasis levels change rate, pitch and volume; none changes nothing and merges with its neighbours', () => {
    const runs = speech(
      parse('<emphasis level="strong">a</emphasis> <emphasis>b</emphasis> <emphasis level="reduced">c</emphasis> d<emphasis level="none">e</emphasis>'),
    );
    assert.deepEqual(
      runs.map((run) => [run.text, run.rate, run.pitch, run.volumeDb]),
      [
        ['a', 0.85, 1.1, 4],
        ['b', 0.92, 1.05, 2],
        ['c', 1.05, 0.95, -3],
        ['de', 1, 1, 0],
      ],
    );
  });

  test('sub says its alias, phoneme keeps the written word with its phonemes; neither is literal', () => {
    const runs = speech(
      parse('<sub alias="National Aeronautics and Space Administration">NASA</sub> says <phoneme alphabet="x-sampa" ph="t@\'mA:t@U">tomato</phoneme>'),
    );
    assert.deepEqual(
      runs.map((run) => [run.text, run.literal, run.phonemes]),
      [
        ['National Aeronautics and Space Administration', false, undefined],
        ['says', true, undefined],
        ['tomato', false, { alphabet: 'x-sampa', value: "t@'mA:t@U" }],
      ],
    );
  });

  test('voice and xml:lang set the voice and the language of the runs inside', () => {
    const runs = parseSsml(
      '<speak xml:lang="en-us">Hi <voice name="espeak-de">Hallo</voice> <lang xml:lang="fr-FR">bonjour</lang> <p xml:lang="es">hola</p></speak>',
      LIMITS,
    );
    assert.deepEqual(
      speech(runs).map((run) => [run.text, run.voice, run.language]),
      [
        ['Hi', undefined, 'en-US'],
        ['Hallo', 'espeak-de', 'en-US'],
        // The paragraph that follows ends the sentence before it.
        ['bonjour.', undefined, 'fr-FR'],
        ['hola.', undefined, 'es'],
      ],
    );
  });

  test('say-as readings are decided words, in the language in scope', () => {
    const said = (body: string, language?: string) => speech(parseSsml(`<speak>${body}</speak>`, LIMITS, language)).map((run) => [run.text, run.literal]);
    assert.deepEqual(said('<say-as interpret-as="characters">NASA</say-as>'), [['N A S A', false]]);
    assert.deepEqual(said('<say-as interpret-as="cardinal">1,234</say-as>'), [['one thousand two hundred thirty-four', false]]);
    assert.deepEqual(said('<say-as interpret-as="cardinal">1.234</say-as>', 'de'), [['tausendzweihundertvierunddreißig', false]]);
    assert.deepEqual(said('<say-as interpret-as="number">42</say-as>', 'ja'), [['42', false]]);
  });

  test('mark and comments are ignored, CDATA is text, entities and character references are read', () => {
    assert.deepEqual(
      speech(parse('Fish <mark name="m1"/>&amp; chips<!-- note --> &#8364;<![CDATA[ <5 ]]>')).map((run) => run.text),
      ['Fish & chips € <5'],
    );
  });
});

describe('parseSsml refusals', () => {
  const refusals: ReadonlyArray<readonly [string, string, string, RegExp]> = [
    ['unknown element', '<speak>Hi\n  <foo>x</foo></speak>', 'foo', /unknown element <foo>/],
    ['audio', '<speak><audio src="a.wav"/></speak>', 'audio', /audio> is not supported/],
    ['a root other than speak', '<root>Hi</root>', 'root', /root element must be <speak>/],
    ['break with content', '<speak><break time="1s">x</break></speak>', 'break', /must be empty/],
    ['malformed break time', '<speak><break time="-1s"/></speak>', 'break', /not a duration/],
    ['unknown break strength', '<speak><break strength="huge"/></speak>', 'break', /strength="huge"/],
    ['rate out of range', '<speak><prosody rate="5">x</prosody></speak>', 'prosody', /rate="5" is 5×, outside 0.25–4×/],
    ['rate zero', '<speak><prosody rate="-100%">x</prosody></speak>', 'prosody', /zero or less/],
    ['malformed rate', '<speak><prosody rate="quick">x</prosody></speak>', 'prosody', /not a rate/],
    ['pitch out of range', '<speak><prosody pitch="+200%">x</prosody></speak>', 'prosody', /pitch="\+200%" is 3×/],
    ['volume too loud', '<speak><prosody volume="+40dB">x</prosody></speak>', 'prosody', /above \+24 dB/],
    ['contour', '<speak><prosody contour="(0%,+20Hz)">x</prosody></speak>', 'prosody', /contour is not supported/],
    ['duration', '<speak><prosody duration="2s">x</prosody></speak>', 'prosody', /duration is not supported/],
    ['voice by gender', '<speak><voice gender="female">x</voice></speak>', 'voice', /gender: choose a voice with name/],
    ['voice without a name', '<speak><voice>x</voice></speak>', 'voice', /name is required/],
    ['bad language tag', '<speak><lang xml:lang="english!">x</lang></speak>', 'lang', /not a BCP 47 language tag/],
    ['sub without alias', '<speak><sub>x</sub></speak>', 'sub', /alias is required/],
    ['phoneme without ph', '<speak><phoneme alphabet="ipa">x</phoneme></speak>', 'phoneme', /ph is required/],
    ['phoneme in another alphabet', '<speak><phoneme alphabet="sapi" ph="h eh">x</phoneme></speak>', 'phoneme', /alphabet="sapi" is not supported/],
    ['an element inside say-as', '<speak><say-as interpret-as="cardinal"><mark name="m"/></say-as></speak>', 'mark', /may hold only text/],
    ['unknown interpret-as', '<speak><say-as interpret-as="currency">$5</say-as></speak>', 'say-as', /interpret-as="currency" is not supported/],
    ['unreadable cardinal', '<speak><say-as interpret-as="cardinal">many</say-as></speak>', 'say-as', /"many" is not a number/],
    ['impossible date', '<speak><say-as interpret-as="date" format="mdy">13/45/2024</say-as></speak>', 'say-as', /not a date written as mdy/],
    ['unknown attribute', '<speak><emphasis loudness="9">x</emphasis></speak>', 'emphasis', /unknown attribute loudness/],
    ['a nested speak', '<speak><speak>x</speak></speak>', 'speak', /only be the root/],
  ];
  for (const [name, ssml, element, reason] of refusals) {
    test(`${name}: 400 invalid_ssml naming <${element}>`, () => {
      const error = ssmlError(() => parseSsml(ssml, LIMITS));
      assert.equal(error.details.element, element);
      assert.match(error.message, reason);
      assert.match(error.message, new RegExp(`<${element}> at line \\d+, column \\d+`));
    });
  }

  test('the position is the 1-based line and column of the element', () => {
    const error = ssmlError(() => parseSsml('<speak>Hi\n  <foo>x</foo></speak>', LIMITS));
    assert.deepEqual([error.details.line, error.details.column], [2, 3]);
  });

  test('malformed XML reports where it breaks', () => {
    const error = ssmlError(() => parseSsml('<speak>\nOne <emphasis>two</speak>', LIMITS));
    assert.match(error.message, /malformed XML/);
    assert.equal(error.details.line, 2);
    assert.equal(typeof error.details.column, 'number');
  });

  test('content after the root is refused', () => {
    assert.match(ssmlError(() => parseSsml('<speak>a</speak><speak>b</speak>', LIMITS)).message, /only one root/);
    assert.match(ssmlError(() => parseSsml('<speak>a</speak> trailing', LIMITS)).message, /outside of root/);
  });

  test('a DOCTYPE is refused, so an entity-expansion bomb never expands', () => {
    const lol = ['<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`)].join('');
    const error = ssmlError(() => parseSsml(`<?xml version="1.0"?>\n<!DOCTYPE speak [${lol}]>\n<speak>&lol9;</speak>`, LIMITS));
    assert.match(error.message, /DOCTYPE is not allowed/);
    assert.deepEqual([error.details.line, error.details.column], [2, 1]);
  });

  test('an undeclared entity is refused', () => {
    assert.match(ssmlError(() => parse('&nbsp;')).message, /undefined entity/);
  });

  test('10,000 nested prosody stop at the depth limit, naming its setting', () => {
    const error = ssmlError(() => parse(`${'<prosody rate="fast">'.repeat(10_000)}x${'</prosody>'.repeat(10_000)}`));
    assert.equal(error.details.element, 'prosody');
    assert.deepEqual([error.details.setting, error.details.value], ['TIMBRE_SSML_MAX_DEPTH', 32]);
  });

  test('too many elements, naming the setting', () => {
    const error = ssmlError(() => parse('<mark name="m"/>'.repeat(20), { ...LIMITS, maxElements: 10 }));
    assert.deepEqual([error.details.setting, error.details.value], ['TIMBRE_SSML_MAX_ELEMENTS', 10]);
  });

  test('a break of an hour exceeds the total break limit, naming the setting', () => {
    const error = ssmlError(() => parse('Wait <break time="3600s"/> done'));
    assert.deepEqual([error.details.element, error.details.setting, error.details.value], ['break', 'TIMBRE_SSML_MAX_BREAK_SECONDS', 120]);
  });

  test('a document with nothing to say is refused', () => {
    assert.match(ssmlError(() => parse('<break time="1s"/>')).message, /nothing to say/);
  });
});
