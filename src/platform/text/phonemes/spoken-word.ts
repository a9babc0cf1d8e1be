/**
 * The word timing of a phoneme run: the written word, from its first sound to its last (the
 * pauses an engine puts around a piece are not the word).
 */
export function wordOfSounds(word: string, sounds: readonly { start: number; end: number }[]): { word: string; start: number; end: number }[] {
  const first = sounds[0];
  const last = sounds.at(-1);
  return first && last ? [{ word: word.trim(), start: first.start, end: last.end }] : [];
}
