/**
 * The writing systems (Unicode scripts) of a text's letters and digits. A voice reads the scripts
 * of its language and says nothing for others (RHVoice's English voices answered Greek with no
 * audio at all), so letters it cannot read are taken out before it, and a text with nothing left
 * is refused naming the scripts it is written in.
 */

/** The scripts messages name; a letter of any other script is reported as `other`. */
const NAMED_SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Mongolian',
  'Ethiopic',
  'Cherokee',
  'Canadian_Aboriginal',
  'Tifinagh',
  'Hangul',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
  'Yi',
] as const;

const SCRIPT_PATTERNS = NAMED_SCRIPTS.map((name) => [name, new RegExp(`\\p{Script=${name}}`, 'u')] as const);
/** Characters every script uses (digits 0-9, punctuation, `ー`) and combining marks, which take their base's script. */
const SHARED = /[\p{Script=Common}\p{Script=Inherited}]/u;
/** A letter or digit, with the combining marks on it. */
const LETTER = /([\p{L}\p{N}])\p{M}*/gu;

/** The script of one character, `other` for one not in NAMED_SCRIPTS, `Common` for shared ones. */
export function scriptOf(character: string): string {
  if (SHARED.test(character)) return 'Common';
  return SCRIPT_PATTERNS.find(([, pattern]) => pattern.test(character))?.[0] ?? 'other';
}

/** The scripts of the text's letters and digits other than the shared ones, in order of first appearance. */
export function scriptsOf(text: string): string[] {
  const scripts = new Set<string>();
  for (const [, base] of text.matchAll(LETTER)) {
    const script = scriptOf(base!);
    if (script !== 'Common') scripts.add(script);
  }
  return [...scripts];
}

const unreadables = new Map<string, RegExp>();
const SPACES = '[^\\S\\r\\n\\u0085\\u2028\\u2029]*';

/** Runs of letters and digits (with their marks) of scripts other than `scripts` and the shared ones, and the spaces around them. */
function unreadablePattern(scripts: readonly string[]): RegExp {
  const key = scripts.join(',');
  let pattern = unreadables.get(key);
  if (!pattern) {
    const classes = scripts.map((name) => `\\p{Script=${name}}`).join('');
    const letter = `(?=[\\p{L}\\p{N}])[^${classes}\\p{Script=Common}\\p{Script=Inherited}]\\p{M}*`;
    // With the spaces (not line breaks) around and between them, so that a run leaves one space.
    pattern = new RegExp(`(?:${SPACES}(?:${letter})+)+${SPACES}`, 'gu');
    unreadables.set(key, pattern);
  }
  return pattern;
}

/**
 * The text with every run of letters or digits of scripts outside `scripts` (with their combining
 * marks, and the spaces around and between them) made one space, so that words on either side stay
 * apart; line breaks, which end sentences, are kept. Scripts are Unicode script
 * names (`Latin`, `Cyrillic`, `Han`); characters every script shares are kept.
 */
export function keepScripts(text: string, scripts: readonly string[]): string {
  return text.replace(unreadablePattern(scripts), ' ');
}
