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

/** About 2,000 characters of plain English prose. */
export const LONG_TEXT = (() => {
  const sentences: string[] = [];
  for (let index = 0; sentences.join(' ').length < 2000; index++) sentences.push(PARAGRAPHS[index % PARAGRAPHS.length]!);
  return sentences
    .join(' ')
    .slice(0, 2000)
    .replace(/\s+\S*$/, '.');
})();

/** Sentences of a text, for time-to-first-audio: long-form generation speaks one sentence at a time. */
export function sentencesOf(text: string): string[] {
  return text.match(/[^.!?]+[.!?]+/g)?.map((sentence) => sentence.trim()) ?? [text];
}
