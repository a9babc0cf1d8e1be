import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { breakLongWords, hasSpeakableText, readableBy, sentencePieces, shortenPunctuationRuns } from '../../../../src/platform/engines/builtin-text.js';
import { DICTIONARY_DIR, analysisArgs, halfTones, openJtalkArgs } from '../../../../src/platform/engines/openjtalk.js';
import {
  MAX_INPUT_BYTES,
  OPENJTALK_SCRIPTS,
  hasOverlongBreathGroup,
  openJtalkText,
  parseAnalysis,
  parseLabels,
  pieceInput,
  withBreathPauses,
  type AnalysedWord,
} from '../../../../src/platform/engines/openjtalk-text.js';

/** The text as the shared preparation hands it to open_jtalk: the scripts it reads, then its own reshaping. */
const prepared = (text: string) => openJtalkText(readableBy(text, OPENJTALK_SCRIPTS));

/** What open_jtalk reads for a text: the shared pieces of the prepared text, each as its input line. */
function inputs(text: string): string[] {
  return sentencePieces(breakLongWords(shortenPunctuationRuns(prepared(text)))).map(pieceInput);
}

/** An open_jtalk trace of `猫が好き。`, its labels cut to the fields read. */
const TRACE = `[Text analysis result]
猫,名詞,一般,*,*,*,*,猫,ネコ,ネコ,1/2,C3,-1
が,助詞,格助詞,一般,*,*,*,が,ガ,ガ,0/1,名詞%F1,1
好き,名詞,形容動詞語幹,*,*,*,*,好き,スキ,ス’キ,2/2,C4,0
。,記号,句点,*,*,*,*,。,、,、,0/0,*,0

[Output label]
0 3950000 xx^xx-sil+n=e/A:xx+xx+xx/F:xx_xx#xx_xx@xx_xx|xx_xx/G:3_1%0_xx_xx
3950000 4450000 xx^sil-n+e=k/A:0+1+3/F:3_1#0_xx@1_2|1_5/I:2-5@1+1&1-2|1+5
4450000 5100000 sil^n-e+k=o/A:0+1+3/F:3_1#0_xx@1_2|1_5/I:2-5@1+1&1-2|1+5
8300000 8700000 a^s-U+k=i/A:-1+1+2/F:2_2#0_xx@2_1|4_2/I:2-5@1+1&1-2|1+5
10750000 16000000 k^i-sil+xx=xx/A:xx+xx+xx/F:xx_xx#xx_xx@xx_xx|xx_xx/I:xx-xx@xx+xx

[Global parameter]
Sampring frequency                     ->    48000(Hz)
`;

const word = (surface: string, chained = false, pronunciation = 'ア'): AnalysedWord => ({ surface, pronunciation, chained });
const pause = (surface = '、'): AnalysedWord => ({ surface, pronunciation: '、', chained: false });

describe('Open JTalk text', () => {
  test('ASCII becomes full-width and spaces ideographic, so the pieces are the bytes open_jtalk reads', () => {
    assert.equal(openJtalkText('Hello  world, 3.5kg!'), 'Ｈｅｌｌｏ\u3000ｗｏｒｌｄ，\u3000３．５ｋｇ！');
    assert.equal(openJtalkText('一行目\n二行目\r\n'), '一行目\n二行目\r\n');
    assert.equal(pieceInput('一行目\u3000 \t\n'), '一行目');
    assert.equal(pieceInput(' a\nb '), 'a\u3000b');
  });

  test('NFKC for half-width kana and compatibility forms; Latin accents dropped; Japanese left as it is', () => {
    assert.equal(openJtalkText('ﾃｽﾄ ㍻ ①'), 'テスト\u3000平成\u3000１');
    assert.equal(openJtalkText('café Straße'), 'ｃａｆｅ\u3000Ｓｔｒａｓｓｅ');
    for (const japanese of ['吾輩は猫である。名前はまだ無い。', 'スーパー、時々、〆切。', 'ゝゞヽヾ〇']) assert.equal(openJtalkText(japanese), japanese);
  });

  test('letters of scripts Open JTalk cannot read become spaces, so text of them alone has nothing to speak', () => {
    assert.equal(prepared('こんにちは Привет 안녕 Γειά'), 'こんにちは\u3000');
    assert.equal(prepared('東京 ١٢٣ 42'), '東京\u3000４２');
    for (const text of ['Привет мир', '안녕하세요', 'नमस्ते', 'مرحبا']) assert.equal(hasSpeakableText(prepared(text)), false, text);
  });

  test('no piece of any text passes what open_jtalk reads, none holds ASCII (which it widens past its buffer) or a line break', () => {
    const texts = [
      'word '.repeat(400),
      'a '.repeat(1500),
      'x'.repeat(3000),
      `${'ab'.repeat(60)} `.repeat(30),
      '今日は'.repeat(500),
      `${'é'.repeat(120)} ${'9'.repeat(900)}`,
      `見出し\n\n${'本文です。'.repeat(100)}\r\n${'.'.repeat(500)}`,
    ];
    for (const text of texts) {
      for (const input of inputs(text)) {
        assert.ok(Buffer.byteLength(input) <= MAX_INPUT_BYTES, `${Buffer.byteLength(input)} bytes`);
        assert.doesNotMatch(input, /[\p{ASCII}\u0085\u2028\u2029]/u);
        assert.ok(input.length > 0);
      }
    }
  });
});

describe('open_jtalk arguments', () => {
  const files = { text: '/tmp/t/piece-0.txt', wav: '/tmp/t/piece-0.wav', trace: '/tmp/t/piece-0.trace' };
  const args = (speed: number, pitch: number) => openJtalkArgs('/voices/m001.htsvoice', files, speed, pitch);

  test('speed 1 and pitch 1 add nothing; the text file comes last', () => {
    assert.deepEqual(args(1, 1), ['-x', DICTIONARY_DIR, '-m', '/voices/m001.htsvoice', '-ow', files.wav, '-ot', files.trace, files.text]);
    assert.deepEqual(args(Number.NaN, Number.NaN), args(1, 1));
  });

  test('speed is the speech speed rate (-r), within 0.5..2', () => {
    assert.deepEqual(args(1.5, 1).slice(8, 10), ['-r', '1.5']);
    assert.deepEqual(args(5, 1).slice(8, 10), ['-r', '2']);
    assert.deepEqual(args(0.1, 1).slice(8, 10), ['-r', '0.5']);
  });

  test('pitch is additional half-tones (-fm), 12·log2(factor), within an octave either way', () => {
    assert.equal(halfTones(2), 12);
    assert.equal(halfTones(0.5), -12);
    assert.equal(halfTones(8), 12);
    assert.equal(halfTones(0.01), -12);
    assert.ok(Math.abs(halfTones(1.5) - 7.02) < 0.01);
    assert.deepEqual(args(1, 1.5).slice(8), ['-fm', '7.02', files.text]);
    assert.deepEqual(args(2, 0.5).slice(8), ['-r', '2', '-fm', '-12', files.text]);
  });

  test('an analysis run writes the trace alone, fast and at a low rate', () => {
    const analysis = analysisArgs('/voices/m001.htsvoice', files);
    assert.ok(!analysis.includes('-ow'));
    assert.deepEqual(analysis.slice(4, 6), ['-ot', files.trace]);
    assert.equal(analysis.at(-1), files.text);
  });
});

describe('open_jtalk trace', () => {
  test('labels: phoneme, times in seconds, accent phrase position in the breath group', () => {
    assert.deepEqual(parseLabels(TRACE), [
      { phoneme: 'sil', start: 0, end: 0.395, phrase: null },
      { phoneme: 'n', start: 0.395, end: 0.445, phrase: 1 },
      { phoneme: 'e', start: 0.445, end: 0.51, phrase: 1 },
      { phoneme: 'U', start: 0.83, end: 0.87, phrase: 2 },
      { phoneme: 'sil', start: 1.075, end: 1.6, phrase: null },
    ]);
    assert.deepEqual(parseLabels('nothing here'), []);
  });

  test('text analysis: surface, pronunciation and whether the word joins the accent phrase before it', () => {
    assert.deepEqual(parseAnalysis(TRACE), [word('猫', false, 'ネコ'), word('が', true, 'ガ'), word('好き', false, 'ス’キ'), pause('。')]);
  });

  test('a breath group is overlong from its eighth accent phrase', () => {
    const labels = (phrase: number | null) => [{ phoneme: 'a', start: 0, end: 0.1, phrase }];
    assert.equal(hasOverlongBreathGroup(parseLabels(TRACE)), false);
    assert.equal(hasOverlongBreathGroup(labels(7)), false);
    assert.equal(hasOverlongBreathGroup(labels(8)), true);
    assert.equal(hasOverlongBreathGroup(labels(null)), false);
  });

  test('pauses split overlong breath groups between accent phrases, into even parts', () => {
    const phrases = (count: number, from = 0) => Array.from({ length: count }, (_, i) => [word(`語${from + i}`), word('は', true)]).flat();
    assert.deepEqual(withBreathPauses(parseAnalysis(TRACE)), ['猫が好き。']);
    assert.deepEqual(withBreathPauses(phrases(7)), ['語0は語1は語2は語3は語4は語5は語6は']);
    assert.deepEqual(withBreathPauses(phrases(10)), ['語0は語1は語2は語3は語4は、語5は語6は語7は語8は語9は']);
    assert.equal(withBreathPauses(phrases(15))[0]!.split('、').length, 3);
    // A pause in the text starts a new breath group: seven phrases on each side of it need none.
    assert.deepEqual(withBreathPauses([...phrases(7), pause('。'), ...phrases(7, 7)]), [
      '語0は語1は語2は語3は語4は語5は語6は。語7は語8は語9は語10は語11は語12は語13は',
    ]);
    assert.deepEqual(withBreathPauses([pause('「'), word('は', true), word('です', true), pause('」')]), ['「はです」']);
  });

  test('text that grew past what open_jtalk reads is cut into lines between breath groups', () => {
    // Digits come back as kanji numerals, three bytes each.
    const numbers = Array.from({ length: 60 }, () => [word('九千九百九十九'), pause('　')]).flat();
    const lines = withBreathPauses(numbers);
    assert.ok(lines.length > 1);
    assert.equal(lines.join(''), '九千九百九十九　'.repeat(60));
    for (const line of lines) {
      assert.ok(Buffer.byteLength(line) <= MAX_INPUT_BYTES);
      assert.ok(line.endsWith('　'), 'cut after a pause');
    }
    const endless = withBreathPauses([word('あ'.repeat(800))], 7, 1000);
    assert.deepEqual(
      endless.map((line) => line.length),
      [333, 333, 134],
    );
  });
});
