/**
 * The language of a text, guessed cheaply in the page to choose a voice by (the service checks the
 * language again when it speaks): the script tells most languages apart; among Latin-script ones,
 * the most frequent function words decide. Only languages some installed voice speaks are chosen.
 */

const SCRIPTS: readonly (readonly [RegExp, readonly string[]])[] = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, ['ja']],
  [/\p{Script=Hangul}/u, ['ko']],
  [/\p{Script=Han}/u, ['zh', 'ja']],
  [/\p{Script=Cyrillic}/u, ['ru', 'uk', 'bg', 'sr']],
  [/\p{Script=Greek}/u, ['el']],
  [/\p{Script=Arabic}/u, ['ar', 'fa']],
  [/\p{Script=Hebrew}/u, ['he']],
  [/\p{Script=Devanagari}/u, ['hi', 'mr', 'ne']],
];

/** Ten of the commonest words of each language, none of them common in the others. */
const FUNCTION_WORDS: Readonly<Record<string, readonly string[]>> = {
  en: ['the', 'and', 'is', 'you', 'of', 'to', 'it', 'that', 'this', 'with'],
  de: ['der', 'die', 'und', 'das', 'ist', 'nicht', 'ich', 'mit', 'ein', 'zu'],
  fr: ['le', 'la', 'les', 'et', 'est', 'une', 'des', 'je', 'pas', 'vous'],
  es: ['el', 'los', 'las', 'y', 'es', 'una', 'que', 'por', 'para', 'del'],
  it: ['il', 'gli', 'è', 'una', 'che', 'di', 'non', 'per', 'sono', 'della'],
  pt: ['os', 'é', 'uma', 'não', 'com', 'do', 'da', 'em', 'que', 'para'],
  nl: ['het', 'een', 'en', 'niet', 'ik', 'van', 'dat', 'zijn', 'de', 'is'],
  sv: ['och', 'är', 'det', 'att', 'som', 'inte', 'jag', 'på', 'med', 'en'],
  pl: ['jest', 'nie', 'się', 'na', 'że', 'w', 'z', 'jak', 'to', 'i'],
};

/** A text needs this many function words of a language before it counts as that language. */
const MIN_FUNCTION_WORDS = 2;

/** The primary language (`en`, `ja`…) of a text among `spoken`; undefined when the text does not say. */
export function textLanguage(text: string, spoken: ReadonlySet<string>): string | undefined {
  for (const [script, languages] of SCRIPTS) {
    if (script.test(text)) return languages.find((language) => spoken.has(language));
  }
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  let best: { language: string; count: number } | undefined;
  for (const [language, common] of Object.entries(FUNCTION_WORDS)) {
    if (!spoken.has(language)) continue;
    const count = words.filter((word) => common.includes(word)).length;
    if (count >= MIN_FUNCTION_WORDS && count > (best?.count ?? 0)) best = { language, count };
  }
  return best?.language;
}
