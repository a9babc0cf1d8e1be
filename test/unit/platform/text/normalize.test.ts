import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NORMALIZED_LANGUAGES, normalizeText } from '../../../../src/platform/text/normalize.js';
import { cardinalEn, numberEn, ordinalEn, yearEn } from '../../../../src/platform/text/numbers-en.js';

/** Input → expected output, one row per English rule. */
const ENGLISH: ReadonlyArray<readonly [string, string]> = [
  // Currencies
  ['$3.50', 'three dollars and fifty cents'],
  ['€20', 'twenty euros'],
  ['£5', 'five pounds'],
  ['¥100', 'one hundred yen'],
  ['$1.2 million', 'one point two million dollars'],
  ['$1', 'one dollar'],
  ['It costs $0.99.', 'It costs ninety-nine cents.'],
  ['£5.20 and £1.01', 'five pounds and twenty pence and one pound and one penny'],
  ['20 € each', 'twenty euros each'],
  ['$1,000,000', 'one million dollars'],
  ['a $5m budget', 'a five million dollars budget'],
  // Percentages
  ['50%', 'fifty percent'],
  ['12.5 %', 'twelve point five percent'],
  // Times
  ['10:30', 'ten thirty'],
  ['9:05 am', 'nine oh five a m'],
  ['3pm', 'three p m'],
  ['Meet at 10:00.', "Meet at ten o'clock."],
  ['We left at 9 a.m. Then we ate.', 'We left at nine a m. Then we ate.'],
  ['at 7 P.M. sharp', 'at seven p m sharp'],
  // Dates and years
  ['2024-03-05', 'March fifth, twenty twenty-four'],
  ['March 5, 2024', 'March fifth, twenty twenty-four'],
  ['March 5th, 2024 was cold.', 'March fifth, twenty twenty-four was cold.'],
  ['5 March 2024', 'the fifth of March, twenty twenty-four'],
  ['On March 5 we met.', 'On March fifth we met.'],
  ['in 1999', 'in nineteen ninety-nine'],
  ['since 2005', 'since two thousand five'],
  ['by 2024', 'by twenty twenty-four'],
  ['in 1905 and in 1900', 'in nineteen oh five and in nineteen hundred'],
  ['the 1990s', 'the nineteen nineties'],
  ["the '80s", 'the eighties'],
  ['from 1990-1995', 'from nineteen ninety to nineteen ninety-five'],
  // Numbers
  ['1,234,567', 'one million two hundred thirty-four thousand five hundred sixty-seven'],
  ['3.14', 'three point one four'],
  ['-5', 'minus five'],
  ['21st', 'twenty-first'],
  ['the 2nd, 3rd, 12th and 100th', 'the second, third, twelfth and one hundredth'],
  ['007', 'zero zero seven'],
  ['version 1.2.3', 'version one dot two dot three'],
  ['an MP3 player', 'an MP three player'],
  ['1999', 'one thousand nine hundred ninety-nine'],
  // Ranges
  ['10-20', 'ten to twenty'],
  ['pages 10–20.', 'pages ten to twenty.'],
  ['10-20%', 'ten to twenty percent'],
  // Abbreviations
  ['Dr. Smith', 'Doctor Smith'],
  ['Mr. and Mrs. Jones', 'Mister and Missus Jones'],
  ['Ms. Lee met Prof. Xavier.', 'Miz Lee met Professor Xavier.'],
  ['St. Louis', 'Saint Louis'],
  ['We live on Baker St.', 'We live on Baker Street.'],
  ['John Smith Jr. went home.', 'John Smith Junior went home.'],
  ['Bob Sr. is here', 'Bob Senior is here'],
  ['apples, pears, etc. and more', 'apples, pears, et cetera and more'],
  ['apples, pears, etc. Then more.', 'apples, pears, et cetera. Then more.'],
  ['fruit, e.g. apples', 'fruit, for example apples'],
  ['one, i.e. the first', 'one, that is the first'],
  ['cats vs. dogs', 'cats versus dogs'],
  ['approx. 5 km', 'approximately five kilometers'],
  ['No. 5', 'number five'],
  ['#1 hit', 'number one hit'],
  // Units
  ['1 km', 'one kilometer'],
  ['5km', 'five kilometers'],
  ['5 kg, 3 cm, 2 mm, 10 m and 500 g', 'five kilograms, three centimeters, two millimeters, ten meters and five hundred grams'],
  ['60 mph or 100 km/h', 'sixty miles per hour or one hundred kilometers per hour'],
  ['20°C', 'twenty degrees Celsius'],
  ['70 °F', 'seventy degrees Fahrenheit'],
  ['It fell to -1°C.', 'It fell to minus one degree Celsius.'],
  ['10-20 km', 'ten to twenty kilometers'],
  // Symbols, emails and web addresses
  ['Tom & Jerry', 'Tom and Jerry'],
  ['2+2', 'two plus two'],
  ['Mail john.doe@example.com now.', 'Mail john dot doe at example dot com now.'],
  ['See https://www.example.com/docs-page.', 'See www dot example dot com slash docs dash page.'],
  ['visit example.org today', 'visit example dot org today'],
  [
    'Read example.com/page2, then https://a.io/x?id=42#top.',
    'Read example dot com slash page two, then a dot io slash x question mark id equals forty-two hash top.',
  ],
];

for (const [input, expected] of ENGLISH) {
  test(`English: ${JSON.stringify(input)}`, () => assert.equal(normalizeText(input, 'en-US'), expected));
}

test('English output never contains digits for the inputs of the table', () => {
  for (const [input] of ENGLISH) assert.doesNotMatch(normalizeText(input, 'en'), /\d/, input);
});

test('text without numbers, symbols or abbreviations comes back unchanged but for whitespace', () => {
  const plain = [
    'The quick brown fox jumps over the lazy dog.',
    "No, I won't! Is it St Elmo or Dr Who? Ms Smith said: \u201Cyes\u201D \u2014 maybe\u2026",
    'Café, naïve; Straße. ¿Qué? Привет, 你好!',
    'Am I a vsop fan, eg, or an ie user, etcetera?',
  ];
  for (const text of plain) {
    assert.equal(normalizeText(`  ${text.replace(/ /g, '   ')}\t`, 'en'), text);
  }
});

test('the language tag is matched by its primary subtag, in any case', () => {
  for (const tag of ['en', 'en-US', 'en-GB', 'EN', 'en_AU']) assert.equal(normalizeText('5%', tag), 'five percent');
  assert.deepEqual([...NORMALIZED_LANGUAGES].sort(), ['de', 'en', 'es', 'fr']);
});

test('unknown languages get only whitespace and Unicode clean-up', () => {
  assert.equal(normalizeText('  5 $ 10:30\u00A0Uhr\u200B  ok ', 'ja-JP'), '5 $ 10:30 Uhr ok');
  // NFC: e + combining acute becomes one é.
  assert.equal(normalizeText('cafe\u0301', 'xx'), 'caf\u00E9');
});

test('paragraph breaks survive as one line break; other whitespace becomes one space', () => {
  assert.equal(normalizeText('One.  Two!\n\n  Three?\r\nFour', 'en'), 'One. Two!\nThree?\nFour');
});

const OTHER_LANGUAGES: ReadonlyArray<readonly [string, string, string]> = [
  ['de-DE', '0', 'null'],
  ['de-DE', '1', 'eins'],
  ['de-DE', '17', 'siebzehn'],
  ['de-DE', '21', 'einundzwanzig'],
  ['de-DE', '101', 'hunderteins'],
  ['de-DE', '1001', 'tausendeins'],
  ['de-AT', '21000', 'einundzwanzigtausend'],
  ['de', '1.234', 'tausendzweihundertvierunddreißig'],
  ['de', '999999', 'neunhundertneunundneunzigtausendneunhundertneunundneunzig'],
  ['de', '-3,14', 'minus drei Komma eins vier'],
  ['de', 'Nur 1 % und 50 %.', 'Nur ein Prozent und fünfzig Prozent.'],
  ['de', '1000000', '1000000'],
  ['fr', '21', 'vingt et un'],
  ['fr', '70', 'soixante-dix'],
  ['fr', '71', 'soixante et onze'],
  ['fr', '80', 'quatre-vingts'],
  ['fr', '81', 'quatre-vingt-un'],
  ['fr', '90', 'quatre-vingt-dix'],
  ['fr', '99', 'quatre-vingt-dix-neuf'],
  ['fr', '180', 'cent quatre-vingts'],
  ['fr', '200', 'deux cents'],
  ['fr', '201', 'deux cent un'],
  ['fr', '1000', 'mille'],
  ['fr', '80000', 'quatre-vingt mille'],
  ['fr-FR', '2\u202F000', 'deux mille'],
  ['fr-CA', '50 %', 'cinquante pour cent'],
  ['es', '21', 'veintiuno'],
  ['es', '16', 'dieciséis'],
  ['es', '31', 'treinta y uno'],
  ['es', '100', 'cien'],
  ['es', '101', 'ciento uno'],
  ['es', '500', 'quinientos'],
  ['es', '1.000', 'mil'],
  ['es', '21000', 'veintiún mil'],
  ['es', '100000', 'cien mil'],
  ['es-MX', '2,5 %', 'dos coma cinco por ciento'],
];

for (const [language, input, expected] of OTHER_LANGUAGES) {
  test(`${language}: ${JSON.stringify(input)}`, () => assert.equal(normalizeText(input, language), expected));
}

test('English cardinals reach 999 trillion; longer numbers are read digit by digit', () => {
  assert.equal(cardinalEn(0), 'zero');
  assert.equal(cardinalEn(-42), 'minus forty-two');
  assert.equal(cardinalEn(1_000_001), 'one million one');
  assert.equal(
    cardinalEn(999_999_999_999_999),
    'nine hundred ninety-nine trillion nine hundred ninety-nine billion nine hundred ninety-nine million ' +
      'nine hundred ninety-nine thousand nine hundred ninety-nine',
  );
  assert.throws(() => cardinalEn(1e15), RangeError);
  assert.equal(numberEn('1000000000000000'), 'one zero zero zero zero zero zero zero zero zero zero zero zero zero zero zero');
});

test('English ordinals and years', () => {
  assert.deepEqual([1, 2, 3, 5, 8, 9, 12, 20, 21, 100, 1000].map(ordinalEn), [
    'first',
    'second',
    'third',
    'fifth',
    'eighth',
    'ninth',
    'twelfth',
    'twentieth',
    'twenty-first',
    'one hundredth',
    'one thousandth',
  ]);
  assert.deepEqual([1999, 2005, 2024, 2000, 2010, 1900, 1905, 2100, 999].map(yearEn), [
    'nineteen ninety-nine',
    'two thousand five',
    'twenty twenty-four',
    'two thousand',
    'twenty ten',
    'nineteen hundred',
    'nineteen oh five',
    'twenty-one hundred',
    'nine hundred ninety-nine',
  ]);
});
