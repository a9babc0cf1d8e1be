import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseUtterances } from '../../../../src/platform/engines/pocketsphinx.js';

/** pocketsphinx_continuous -time yes on the padded jfk.wav (Debian 12), its first two utterances. */
const RECOGNIZED = `and i got my arm arrow
<s> 0.440 0.570 0.999300
[SPEECH] 0.580 0.800 0.554900
and(2) 0.810 1.050 0.510136
i 1.060 1.150 0.193904
got 1.160 1.500 0.946384
arrow 2.280 2.820 0.000972
</s> 2.830 2.960 1.000000
and not
<s> 3.670 3.780 0.999400
and(2) 3.790 4.230 0.985504
<sil> 4.240 4.480 0.809268
not 4.490 4.800 0.646650
</s> 4.810 5.260 1.000000
`;

/** The same CLI with a JSGF grammar (forced alignment): 1.000000 for every word, no posterior. */
const ALIGNED = `and so my
<sil> 0.440 0.800 1.000000
and(2) 0.810 1.080 1.000000
so 1.090 1.410 1.000000
my 1.480 1.760 1.000000
`;

describe('PocketSphinx output', () => {
  test('free recognition: each word keeps its lattice posterior as its probability; fillers and sentence marks are dropped', () => {
    assert.deepEqual(parseUtterances(RECOGNIZED, true), [
      [
        { word: 'and', start: 0.81, end: 1.05, probability: 0.510136 },
        { word: 'i', start: 1.06, end: 1.15, probability: 0.193904 },
        { word: 'got', start: 1.16, end: 1.5, probability: 0.946384 },
        { word: 'arrow', start: 2.28, end: 2.82, probability: 0.000972 },
      ],
      [
        { word: 'and', start: 3.79, end: 4.23, probability: 0.985504 },
        { word: 'not', start: 4.49, end: 4.8, probability: 0.64665 },
      ],
    ]);
  });

  test('forced alignment: the words are the grammar’s, so they carry no probability', () => {
    const [words] = parseUtterances(ALIGNED, false);
    assert.deepEqual(
      words?.map((word) => [word.word, word.probability]),
      [
        ['and', null],
        ['so', null],
        ['my', null],
      ],
    );
  });
});
