/** Fixed benchmark inputs, so figures from different runs and machines compare. */
export const SHORT_TEXT = 'The quick brown fox jumps over the lazy dog.';

/** Five simple sentences for recognizer word error rate, spoken by the built-in voices. */
export const WER_SENTENCES = [
  'The quick brown fox jumps over the lazy dog.',
  'Please call me tomorrow at the office.',
  'Open the door and turn on the lights.',
  'It is going to rain later this afternoon.',
  'She bought three apples and a loaf of bread.',
];

export const JFK_TRANSCRIPT = 'And so, my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';

const PARAGRAPHS = [
  'The old lighthouse stood at the edge of the harbor for more than a century.',
  'Every evening the keeper climbed the narrow stairs, lit the lamp, and watched the ships come home.',
  'Fishermen said that on clear nights the beam could be seen from the far side of the bay.',
  'In winter the storms were fierce, and waves broke against the rocks below with a sound like thunder.',
  'Children from the village would visit on Sunday afternoons to hear stories about shipwrecks and rescues.',
  'The keeper kept a journal in which he wrote down the weather, the tides, and the names of passing vessels.',
  'When the lamp was finally replaced by an automatic light, the town gathered to thank him for his years of service.',
  'He moved into a small cottage nearby, but he still walked out to the point each night to see the light turn on.',
  'Visitors today can climb the same stairs and look out over the water he watched for so long.',
  'A small museum at the base of the tower displays his journals, his lantern, and a map of the coast.',
];

/** Plain Japanese prose, for Open JTalk. */
const JAPANESE_PARAGRAPHS = [
  '古い灯台は百年以上も港の端に立っていた。',
  '毎晩、灯台守は狭い階段を上り、明かりをともして、船が帰ってくるのを見守った。',
  '漁師たちは、晴れた夜には湾の向こう側からでも光が見えると言っていた。',
  '冬には嵐が激しく、波は雷のような音を立てて下の岩に砕けた。',
  '日曜日の午後になると、村の子どもたちが難破や救助の話を聞きにやって来た。',
  '灯台守は日記をつけていて、天気や潮の満ち引き、通り過ぎる船の名前を書き留めていた。',
];

/** About `length` characters of the sentences, repeated, ending at a sentence. */
function prose(sentences: readonly string[], length: number, separator: string): string {
  const taken: string[] = [];
  for (let index = 0; taken.join(separator).length < length; index++) taken.push(sentences[index % sentences.length]!);
  while (taken.length > 1 && taken.join(separator).length > length) taken.pop();
  return taken.join(separator);
}

/** About 2,000 characters of plain English prose. */
export const LONG_TEXT = (() =>
  prose(PARAGRAPHS, 2000 + 200, ' ')
    .slice(0, 2000)
    .replace(/\s+\S*$/, '.'))();

/** At most 5,000 characters (the default longest request) of English prose, and of Japanese prose. */
export const FULL_TEXT = { en: prose(PARAGRAPHS, 5000, ' '), ja: prose(JAPANESE_PARAGRAPHS, 5000, '') };

/** Sentences of a text, for time-to-first-audio: long-form generation speaks one sentence at a time. */
export function sentencesOf(text: string): string[] {
  return text.match(/[^.!?]+[.!?]+/g)?.map((sentence) => sentence.trim()) ?? [text];
}
