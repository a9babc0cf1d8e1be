import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { splitSentences, type Sentence } from '../../../../src/platform/text/split.js';

/** Language, input, expected sentences: one row per tricky case. */
const CORPUS: ReadonlyArray<readonly [string, string, readonly string[]]> = [
  // English: abbreviations, acronyms, decimals, money, initials
  [
    'en',
    'Dr. Smith met Mr. Jones in the U.S. last week. It cost $4.50 and pi is 3.14.',
    ['Dr. Smith met Mr. Jones in the U.S. last week.', 'It cost $4.50 and pi is 3.14.'],
  ],
  ['en', 'The U.S. Army arrived. Use e.g. apples, i.e. fruit.', ['The U.S. Army arrived.', 'Use e.g. apples, i.e. fruit.']],
  ['en', 'J. R. R. Tolkien wrote it. George W. Bush read it.', ['J. R. R. Tolkien wrote it.', 'George W. Bush read it.']],
  ['en', 'See Fig. 3 and Sec. 4. Done.', ['See Fig. 3 and Sec. 4.', 'Done.']],
  // "etc." may end a sentence: it does before a capital, not before a lowercase word.
  ['en', 'We sold pears, etc. Then we left. Apples, etc. and more.', ['We sold pears, etc.', 'Then we left.', 'Apples, etc. and more.']],
  ['en', 'So do I. The end.', ['So do I.', 'The end.']],
  // Ellipses end a sentence only before a capital, "..." and "…" alike.
  ['en', 'Wait... what? Hmm… Okay. Really… yes.', ['Wait... what?', 'Hmm…', 'Okay.', 'Really… yes.']],
  ['en', 'Wait... What? No way…  Really?! Yes!!', ['Wait...', 'What?', 'No way…', 'Really?!', 'Yes!!']],
  // Closing quotes belong to the sentence they close.
  ['en', 'He said, "Stop." Then left.', ['He said, "Stop."', 'Then left.']],
  ['en', 'He asked, "Are you sure?" She nodded. "Hi!" she said.', ['He asked, "Are you sure?"', 'She nodded.', '"Hi!" she said.']],
  ['en', 'He said, "Stop. Go away." Then left.', ['He said, "Stop.', 'Go away."', 'Then left.']],
  ['en', 'Mr. Smith (the one from Boston) left. Stop! he cried.', ['Mr. Smith (the one from Boston) left.', 'Stop! he cried.']],
  // Numbered lists: the number goes with its item.
  ['en', '1. First item 2. Second item. I counted to 2. Then I stopped.', ['1. First item', '2. Second item.', 'I counted to 2.', 'Then I stopped.']],
  ['en', 'Plan:\n1. Buy milk.\n2. Call Mr. Lee.\n3. Sleep.', ['Plan:', '1. Buy milk.', '2. Call Mr. Lee.', '3. Sleep.']],
  // Line breaks: a wrapped line continues the sentence, a blank line ends the paragraph.
  ['en', 'A sentence that\nwraps here.\n\nNew paragraph.', ['A sentence that\nwraps here.', 'New paragraph.']],
  // Spanish
  [
    'es',
    '¿Dónde está el Sr. García? ¡Qué sorpresa! La Sra. Ruiz llegó, p. ej. ayer.',
    ['¿Dónde está el Sr. García?', '¡Qué sorpresa!', 'La Sra. Ruiz llegó, p. ej. ayer.'],
  ],
  ['es', '¡Hola!, dijo él. ¿Vienes? Sí.', ['¡Hola!, dijo él.', '¿Vienes?', 'Sí.']],
  // French: guillemets and the space before ? ! ; :
  ['fr', 'Bonjour « mon ami » ! Comment vas-tu ? M. Dupont est là.', ['Bonjour « mon ami » !', 'Comment vas-tu ?', 'M. Dupont est là.']],
  ['fr', 'Il dit : « Oui. » Puis partit. Mme. Martin, p. ex., reste.', ['Il dit : « Oui. »', 'Puis partit.', 'Mme. Martin, p. ex., reste.']],
  // German: "z. B.", ordinals, both quotation styles
  ['de', 'Er kam z. B. am 3. Oktober. Dr. Müller usw. kamen. Nr. 5 ist da.', ['Er kam z. B. am 3. Oktober.', 'Dr. Müller usw. kamen.', 'Nr. 5 ist da.']],
  [
    'de-AT',
    'Er sagte. »Komm!« Dann ging er. „Hallo.“ Die Sitzung beginnt um 9.30 Uhr.',
    ['Er sagte.', '»Komm!«', 'Dann ging er.', '„Hallo.“', 'Die Sitzung beginnt um 9.30 Uhr.'],
  ],
  // Italian and Portuguese
  [
    'it',
    'Il Sig. Rossi e il Dott. Bianchi sono arrivati alle 10.30. Che bello! Il prezzo è 3,50 euro.',
    ['Il Sig. Rossi e il Dott. Bianchi sono arrivati alle 10.30.', 'Che bello!', 'Il prezzo è 3,50 euro.'],
  ],
  [
    'pt-BR',
    'O Sr. Silva e a Sra. Costa chegaram. Que bom! O Dr. Lima, p. ex., não veio. Tudo bem?',
    ['O Sr. Silva e a Sra. Costa chegaram.', 'Que bom!', 'O Dr. Lima, p. ex., não veio.', 'Tudo bem?'],
  ],
  // Chinese and Japanese: full-width punctuation without spaces
  ['zh', '今天天气很好。我们去公园吧！你想去吗？好的', ['今天天气很好。', '我们去公园吧！', '你想去吗？', '好的']],
  ['zh', '他说：“你好！”然后走了。“好。”他回答。', ['他说：“你好！”', '然后走了。', '“好。”', '他回答。']],
  ['ja', '今日は晴れです。「本当？」と彼は言った。行きましょう！はい', ['今日は晴れです。', '「本当？」と彼は言った。', '行きましょう！', 'はい']],
  ['ja', '「行こう。」彼女は笑った。『はい！』って言った。', ['「行こう。」', '彼女は笑った。', '『はい！』って言った。']],
  // Mixed scripts in one text
  ['en', 'I love Tokyo. 東京は大きいです。本当に！ Then we flew home.', ['I love Tokyo.', '東京は大きいです。', '本当に！', 'Then we flew home.']],
];

/** Everything `splitSentences` promises about offsets: rebuilding the input from them is exact. */
function assertRoundTrip(input: string, sentences: Sentence[], maxChars = Infinity): void {
  let rebuilt = '';
  let cursor = 0;
  sentences.forEach((sentence, i) => {
    assert.equal(sentence.index, i);
    assert.ok(sentence.start >= cursor, `sentence ${i} starts before the previous one ends`);
    assert.ok(sentence.end > sentence.start, `sentence ${i} is empty`);
    assert.ok(sentence.end - sentence.start <= maxChars, `sentence ${i} is longer than ${maxChars}`);
    const between = input.slice(cursor, sentence.start);
    assert.match(between, /^\s*$/u, `non-space text lost before sentence ${i}`);
    assert.equal(sentence.text, input.slice(sentence.start, sentence.end));
    assert.equal(sentence.text, sentence.text.trim());
    rebuilt += between + sentence.text;
    cursor = sentence.end;
  });
  assert.match(input.slice(cursor), /^\s*$/u, 'non-space text lost at the end');
  assert.equal(rebuilt + input.slice(cursor), input);
  if (sentences.length > 0) assert.equal(sentences.at(-1)!.paragraphEnd, true);
}

describe('splitSentences over the multilingual corpus', () => {
  for (const [language, input, expected] of CORPUS) {
    test(`${language}: ${input.slice(0, 50)}`, () => {
      const sentences = splitSentences(input, { language });
      assert.deepEqual(
        sentences.map((sentence) => sentence.text),
        expected,
      );
      assertRoundTrip(input, sentences);
    });
  }
});

describe('offsets and paragraphs', () => {
  test('start and end are UTF-16 offsets excluding the whitespace between sentences', () => {
    const input = '  Hi 😀. Bye!\n';
    assert.deepEqual(splitSentences(input), [
      { index: 0, text: 'Hi 😀.', start: 2, end: 8, paragraphEnd: false },
      { index: 1, text: 'Bye!', start: 9, end: 13, paragraphEnd: true },
    ]);
  });

  test('paragraphEnd marks a blank line (with spaces or \\r\\n) and the end of the text', () => {
    const input = 'One. Two.\r\n  \r\nThree.\nFour.';
    assert.deepEqual(
      splitSentences(input).map((s) => [s.text, s.paragraphEnd]),
      [
        ['One.', false],
        ['Two.', true],
        ['Three.', false],
        ['Four.', true],
      ],
    );
  });

  test('empty and whitespace-only text give no sentences', () => {
    assert.deepEqual(splitSentences(''), []);
    assert.deepEqual(splitSentences(' \n\n\t'), []);
  });

  test('an invalid language or maxChars is refused', () => {
    assert.throws(() => splitSentences('Hi.', { language: '1x' }), RangeError);
    assert.throws(() => splitSentences('Hi.', { maxChars: 0 }), RangeError);
  });
});

describe('sentences longer than maxChars', () => {
  const pieces = (input: string, language: string, maxChars: number) => {
    const sentences = splitSentences(input, { language, maxChars });
    assertRoundTrip(input, sentences, maxChars);
    return sentences.map((sentence) => sentence.text);
  };

  test('are cut after semicolons and commas first', () => {
    const input =
      'The committee met on Monday, and after a long discussion about the budget; the members agreed to postpone the vote until the next session because several reports were missing.';
    assert.deepEqual(pieces(input, 'en', 60), [
      'The committee met on Monday,',
      'and after a long discussion about the budget;',
      'the members agreed to postpone the vote',
      'until the next session because several reports were missing.',
    ]);
  });

  test('then before a conjunction', () => {
    const input = 'Llegamos tarde a la estación porque el tren había salido antes de lo previsto y tuvimos que esperar otra hora entera.';
    assert.deepEqual(pieces(input, 'es', 60), [
      'Llegamos tarde a la estación',
      'porque el tren había salido antes de lo previsto',
      'y tuvimos que esperar otra hora entera.',
    ]);
  });

  test('then at a space, as a last resort', () => {
    const input = 'Supercalifragilistic extraordinarily incomprehensible notwithstanding circumstances unquestionably predetermined.';
    assert.deepEqual(pieces(input, 'en', 40), [
      'Supercalifragilistic extraordinarily',
      'incomprehensible notwithstanding',
      'circumstances unquestionably',
      'predetermined.',
    ]);
  });

  test('Chinese is cut after its commas, and between characters when it has none', () => {
    assert.deepEqual(pieces('我们今天去了公园，然后去了博物馆，最后在一家很好的餐厅吃了晚饭，大家都很高兴。', 'zh', 20), [
      '我们今天去了公园，然后去了博物馆，',
      '最后在一家很好的餐厅吃了晚饭，',
      '大家都很高兴。',
    ]);
    const digits = '一二三四五六七八九十'.repeat(5);
    assert.deepEqual(pieces(digits, 'zh', 20), [digits.slice(0, 20), digits.slice(20, 40), digits.slice(40)]);
  });

  test('never cut inside a surrogate pair or before a combining accent', () => {
    assert.deepEqual(pieces('😀'.repeat(30), 'en', 21), Array(3).fill('😀'.repeat(10)));
    const accented = 'e\u0301'.repeat(15);
    assert.deepEqual(pieces(accented, 'fr', 21), ['e\u0301'.repeat(10), 'e\u0301'.repeat(5)]);
  });

  test('a cut sentence marks only its last piece as paragraphEnd', () => {
    const sentences = splitSentences('Alpha beta gamma delta epsilon zeta eta theta.\n\nIota.', { maxChars: 20 });
    assert.deepEqual(
      sentences.map((s) => s.paragraphEnd),
      [false, false, true, true],
    );
  });
});

/** A seeded generator, so a failing random text can be reproduced. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKENS = [
  'word',
  'Word',
  'the',
  'Dr.',
  'U.S.',
  'e.g.',
  'z. B.',
  'J.',
  '3.14',
  '$4.50',
  '1.',
  '2.',
  '3)',
  'etc.',
  '...',
  '…',
  '.',
  '!',
  '?',
  '?!',
  '"',
  '«',
  '»',
  '„',
  '“',
  '”',
  '(',
  ')',
  '「',
  '」',
  '『',
  '』',
  '。',
  '！',
  '？',
  '，',
  '、',
  '；',
  ',',
  ';',
  ':',
  '東京',
  '好',
  'と',
  '😀',
  'e\u0301',
  'Ñandú',
  ' ',
  ' ',
  ' ',
  '  ',
  '\n',
  '\n\n',
  '\r\n',
  '\t',
  '\u00A0',
  '\u3000',
];

describe('round trip', () => {
  test('over the whole corpus with small maxChars', () => {
    for (const [language, input] of CORPUS) {
      for (const maxChars of [20, 37, 400]) assertRoundTrip(input, splitSentences(input, { language, maxChars }), maxChars);
    }
  });

  test('over random texts of tricky tokens, in every language', () => {
    const random = mulberry32(20240611);
    const languages = ['en', 'es', 'fr', 'de', 'it', 'pt', 'zh', 'ja'];
    for (let round = 0; round < 400; round++) {
      const length = Math.floor(random() * 120);
      const input = Array.from({ length }, () => TOKENS[Math.floor(random() * TOKENS.length)]!).join(random() < 0.5 ? '' : ' ');
      const language = languages[round % languages.length]!;
      const maxChars = 20 + Math.floor(random() * 100);
      assertRoundTrip(input, splitSentences(input, { language, maxChars }), maxChars);
    }
  });
});
