import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSrt, parseVtt, toSrt, toVtt, type Cue } from '../../../../src/platform/text/subtitles.js';

const CUES: Cue[] = [
  { start: 0, end: 1.5, text: 'Hello there.' },
  { start: 1.85, end: 4.2, text: 'A second sentence,\non two lines.' },
  { start: 3725.007, end: 3726.5, text: 'Past the first hour.' },
];

test('SRT: numbered blocks, comma milliseconds, blank lines between', () => {
  assert.equal(
    toSrt(CUES),
    [
      '1',
      '00:00:00,000 --> 00:00:01,500',
      'Hello there.',
      '',
      '2',
      '00:00:01,850 --> 00:00:04,200',
      'A second sentence,',
      'on two lines.',
      '',
      '3',
      '01:02:05,007 --> 01:02:06,500',
      'Past the first hour.',
      '',
    ].join('\n'),
  );
});

test('VTT: WEBVTT header, dot milliseconds, blank lines between', () => {
  assert.equal(
    toVtt(CUES),
    [
      'WEBVTT',
      '',
      '00:00:00.000 --> 00:00:01.500',
      'Hello there.',
      '',
      '00:00:01.850 --> 00:00:04.200',
      'A second sentence,',
      'on two lines.',
      '',
      '01:02:05.007 --> 01:02:06.500',
      'Past the first hour.',
      '',
    ].join('\n'),
  );
});

test('both formats round-trip through their parsers', () => {
  assert.deepEqual(parseSrt(toSrt(CUES)), CUES);
  assert.deepEqual(parseVtt(toVtt(CUES)), CUES);
});

test('times round to the millisecond', () => {
  const [cue] = parseSrt(toSrt([{ start: 0.0004, end: 59.9996, text: 'x' }]));
  assert.deepEqual(cue, { start: 0, end: 60, text: 'x' });
});

test('an arrow in the text cannot be taken for a timing line', () => {
  const cues = [
    { start: 1, end: 2, text: 'A --> B' },
    { start: 2, end: 3, text: 'next' },
  ];
  const srt = toSrt(cues);
  assert.ok(!srt.includes('A -->'), srt);
  assert.deepEqual(
    parseSrt(srt).map((cue) => cue.text),
    ['A -- > B', 'next'],
  );
  const vtt = toVtt(cues);
  assert.ok(!vtt.includes('A -->'), vtt);
  assert.deepEqual(parseVtt(vtt), cues);
});

test('VTT escapes markup characters and gets them back', () => {
  const cues = [{ start: 0, end: 1, text: 'Fish & chips <3' }];
  assert.match(toVtt(cues), /Fish &amp; chips &lt;3/);
  assert.deepEqual(parseVtt(toVtt(cues)), cues);
});

test('a speaker is named: `Name: text` in SRT, a voice span in VTT with its name and text escaped', () => {
  const cues = [
    { start: 0, end: 1, text: 'Hello.', speaker: 'Alice' },
    { start: 1, end: 2, text: 'a < b & c > d', speaker: 'Tom <&> Jerry\nJr' },
    { start: 2, end: 3, text: 'Nobody says this.' },
  ];
  assert.equal(toSrt(cues).split('\n\n')[0], '1\n00:00:00,000 --> 00:00:01,000\nAlice: Hello.');
  const vtt = toVtt(cues);
  assert.match(vtt, /^<v Alice>Hello\.$/m);
  assert.match(vtt, /^<v Tom &lt;&amp;&gt; Jerry Jr>a &lt; b &amp; c &gt; d$/m);
  assert.match(vtt, /^Nobody says this\.$/m);
});

test('blank lines inside text are dropped, since they would end the cue', () => {
  const cues = [{ start: 0, end: 1, text: 'one\n\n  \r\ntwo' }];
  assert.deepEqual(parseSrt(toSrt(cues)), [{ start: 0, end: 1, text: 'one\ntwo' }]);
  assert.deepEqual(parseVtt(toVtt(cues)), [{ start: 0, end: 1, text: 'one\ntwo' }]);
});

test('no cues give an empty SRT and a header-only VTT', () => {
  assert.equal(toSrt([]), '');
  assert.equal(toVtt([]), 'WEBVTT\n\n');
  assert.deepEqual(parseSrt(''), []);
  assert.deepEqual(parseVtt('WEBVTT\n'), []);
});

test('negative, reversed or non-finite times are refused', () => {
  assert.throws(() => toSrt([{ start: -1, end: 1, text: 'x' }]), RangeError);
  assert.throws(() => toVtt([{ start: 2, end: 1, text: 'x' }]), RangeError);
  assert.throws(() => toSrt([{ start: 0, end: Number.NaN, text: 'x' }]), RangeError);
});

test('the parsers read files from other writers: CRLF, BOM, identifiers, settings, short VTT times, NOTE blocks', () => {
  const srt = '\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\nHi\r\n\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\nBye\r\n';
  assert.deepEqual(parseSrt(srt), [
    { start: 1, end: 2.5, text: 'Hi' },
    { start: 3, end: 4, text: 'Bye' },
  ]);
  const vtt = 'WEBVTT - title\n\nNOTE a comment\n\nintro\n00:01.000 --> 00:02.000 align:start\nHi\n';
  assert.deepEqual(parseVtt(vtt), [{ start: 1, end: 2, text: 'Hi' }]);
  assert.throws(() => parseVtt('1\n00:00:01.000 --> 00:00:02.000\nHi\n'), SyntaxError);
});
