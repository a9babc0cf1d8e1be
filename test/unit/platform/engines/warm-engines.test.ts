import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pieceCommand } from '../../../../src/platform/engines/festival.js';
import { completionOf, schemeString } from '../../../../src/platform/engines/festival-session.js';
import { pieceFeatures, segmentTimings } from '../../../../src/platform/engines/flite.js';
import { voiceLibrary } from '../../../../src/platform/engines/native/libflite.js';

test('a Scheme string literal escapes backslashes and quotes, nothing else', () => {
  assert.equal(schemeString('/tmp/a b/piece-0.txt'), '"/tmp/a b/piece-0.txt"');
  assert.equal(schemeString('say "hi" \\ bye'), '"say \\"hi\\" \\\\ bye"');
  assert.equal(schemeString(''), '""');
});

test("a festival command's completion is its own marker's line, ok or error", () => {
  const marker = 'timbre-0a1b2c-7';
  assert.equal(completionOf(['something else', `${marker} ok`], marker), 'ok');
  assert.equal(completionOf([`${marker} error`], marker), 'error');
  // Output without a newline before it lands on the marker's line.
  assert.equal(completionOf([`partial output${marker} ok`], marker), 'ok');
  assert.equal(completionOf(['timbre-0a1b2c-6 ok', 'timbre-0a1b2c-71 ok'], marker), undefined);
  assert.equal(completionOf([], marker), undefined);
});

test('a festival piece command names its files as strings and its speed and pitch as decimals', () => {
  const files = { txt: '/tmp/x/piece-3.txt', wav: '/tmp/x/piece-3.wav', tsv: '/tmp/x/piece-3.tsv' };
  assert.equal(pieceCommand(files, 1.5, 0.75), '(t_piece "/tmp/x/piece-3.txt" "/tmp/x/piece-3.wav" "/tmp/x/piece-3.tsv" 1.500000 0.750000)');
  assert.match(pieceCommand({ ...files, txt: '/tmp/"q"/a.txt' }, 1, 1), /^\(t_piece "\/tmp\/\\"q\\"\/a\.txt" /);
});

test("flite's segment ends become phoneme timings; pauses advance time only", () => {
  const segments = [
    { name: 'pau', end: 0.164 },
    { name: 'hh', end: 0.255 },
    { name: 'ax', end: 0.304 },
    { name: 'pau', end: 0.4 },
    { name: 'l', end: 0.5 },
  ];
  assert.deepEqual(segmentTimings(segments), [
    { phoneme: 'hh', start: 0.164, end: 0.255 },
    { phoneme: 'ax', start: 0.255, end: 0.304 },
    { phoneme: 'l', start: 0.4, end: 0.5 },
  ]);
  assert.deepEqual(segmentTimings([]), []);
});

test('flite piece features: speed scales the voice stretch, pitch sets the F0 mean, defaults set nothing', () => {
  assert.deepEqual(pieceFeatures('slt', 1, 1), {});
  assert.deepEqual(pieceFeatures('slt', 2, 1), { duration_stretch: 0.5 });
  assert.deepEqual(pieceFeatures('kal16', 0.5, 1, 1.1), { duration_stretch: 2.2 });
  assert.deepEqual(pieceFeatures('slt', 1, 1.5), { int_f0_target_mean: 251 });
  assert.deepEqual(pieceFeatures('unknown', 1, 2), {});
});

test('each flite voice comes from its own library', () => {
  assert.deepEqual(voiceLibrary('slt'), { soname: 'libflite_cmu_us_slt.so.1', symbol: 'cmu_us_slt' });
  assert.deepEqual(voiceLibrary('kal16'), { soname: 'libflite_cmu_us_kal16.so.1', symbol: 'cmu_us_kal16' });
  assert.deepEqual(voiceLibrary('awb_time'), { soname: 'libflite_cmu_time_awb.so.1', symbol: 'cmu_time_awb' });
});
