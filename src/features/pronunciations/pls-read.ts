import { SaxesParser, type SaxesTagNS } from 'saxes';
import { ApiError } from '../../platform/errors.js';
import { LANGUAGE_TAG } from '../../platform/http/schemas.js';
import { PLS_NAMESPACE, TIMBRE_PLS_NAMESPACE } from './pls-format.js';
import type { PronunciationRuleInput } from './schemas.js';

/** What a PLS document holds: its language and one rule per grapheme, with the line of its lexeme (for errors). */
export interface PlsLexicon {
  language: string;
  rules: PronunciationRuleInput[];
  lines: number[];
}

type Alphabet = 'ipa' | 'x-sampa';
const ALPHABETS: readonly string[] = ['ipa', 'x-sampa'];

interface Pronunciation {
  alias?: string;
  phonemes?: string;
  alphabet?: Alphabet;
  preferred: boolean;
}

interface Lexeme {
  line: number;
  graphemes: Omit<PronunciationRuleInput, 'alias' | 'phonemes' | 'alphabet'>[];
  pronunciations: Pronunciation[];
}

/** Elements of PLS whose content says nothing about pronunciation. */
const SKIPPED = new Set(['meta', 'metadata', 'example']);

/**
 * Reads a PLS document as it streams through the parser, counting rules as they come: a lexicon
 * past `maxRules` is refused at the first rule too many (413 `dictionary_too_large`), never built
 * whole. Document type declarations are refused, so no entity is ever expanded.
 */
export function readPls(document: string, maxRules: number): PlsLexicon {
  const reader = new PlsReader(maxRules);
  const parser = new SaxesParser({ xmlns: true, position: true });
  const fail = (message: string): never => {
    throw new ApiError(400, 'invalid_pls', `Invalid PLS at line ${parser.line}, column ${parser.column}: ${message}`, {
      line: parser.line,
      column: parser.column,
    });
  };
  parser.on('error', (error) => fail(error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '')));
  parser.on('doctype', () => fail('a document type declaration (DTD) is not accepted'));
  parser.on('opentag', (tag) => reader.open(tag, parser.line, fail));
  parser.on('text', (text) => reader.text(text));
  parser.on('cdata', (text) => reader.text(text));
  parser.on('closetag', (tag) => reader.close(tag, fail));
  parser.write(document).close();
  if (reader.language === undefined) return fail('the document has no <lexicon> root');
  return { language: reader.language, rules: reader.rules, lines: reader.lines };
}

class PlsReader {
  language: string | undefined;
  readonly rules: PronunciationRuleInput[] = [];
  readonly lines: number[] = [];
  private alphabet: Alphabet = 'ipa';
  private lexeme: Lexeme | undefined;
  private collected: string | undefined;
  private skipDepth = 0;
  private depth = 0;

  constructor(private readonly maxRules: number) {}

  open(tag: SaxesTagNS, line: number, fail: (message: string) => never): void {
    this.depth++;
    if (this.skipDepth > 0 || tag.uri !== PLS_NAMESPACE) {
      if (this.depth === 1) fail(`the root must be <lexicon> in the namespace ${PLS_NAMESPACE}`);
      this.skipDepth++;
      return;
    }
    const where = this.depth === 1 ? 'root' : this.lexeme ? 'lexeme' : 'lexicon';
    if (where === 'root') return this.openLexicon(tag, fail);
    if (where === 'lexicon' && tag.local === 'lexeme') {
      this.lexeme = { line, graphemes: [], pronunciations: [] };
    } else if (SKIPPED.has(tag.local) && this.depth === (where === 'lexicon' ? 2 : 3)) {
      this.skipDepth++;
    } else if (where === 'lexeme' && this.depth === 3 && ['grapheme', 'phoneme', 'alias'].includes(tag.local)) {
      this.collected = '';
    } else {
      fail(`<${tag.local}> is not expected here`);
    }
  }

  text(text: string): void {
    if (this.collected !== undefined && this.skipDepth === 0) this.collected += text;
  }

  close(tag: SaxesTagNS, fail: (message: string) => never): void {
    this.depth--;
    if (this.skipDepth > 0) {
      this.skipDepth--;
      return;
    }
    const text = (this.collected ?? '').trim();
    this.collected = undefined;
    const lexeme = this.lexeme;
    if (!lexeme) return;
    if (tag.local === 'grapheme') {
      lexeme.graphemes.push({ grapheme: text, case_sensitive: flag(tag, 'case-sensitive', false), whole_word: flag(tag, 'whole-word', true) });
      if (this.rules.length + lexeme.graphemes.length > this.maxRules) throw tooManyRules(this.maxRules);
    } else if (tag.local === 'alias') {
      lexeme.pronunciations.push({ alias: text, preferred: attribute(tag, 'prefer') === 'true' });
    } else if (tag.local === 'phoneme') {
      const alphabet = attribute(tag, 'alphabet') ?? this.alphabet;
      if (!isAlphabet(alphabet)) fail(`the alphabet ${alphabet} is not supported (ipa or x-sampa)`);
      lexeme.pronunciations.push({ phonemes: text, alphabet: isAlphabet(alphabet) ? alphabet : undefined, preferred: attribute(tag, 'prefer') === 'true' });
    } else if (tag.local === 'lexeme') {
      this.closeLexeme(lexeme, fail);
    }
  }

  private openLexicon(tag: SaxesTagNS, fail: (message: string) => never): void {
    if (tag.local !== 'lexicon') fail(`the root must be <lexicon>, not <${tag.local}>`);
    if (attribute(tag, 'version') !== '1.0') fail('<lexicon> needs version="1.0"');
    const language = tag.attributes['xml:lang']?.value;
    if (!language || !LANGUAGE_TAG.test(language)) fail('<lexicon> needs xml:lang, the language of its rules as a BCP 47 tag');
    const alphabet = attribute(tag, 'alphabet') ?? 'ipa';
    if (!isAlphabet(alphabet)) return fail(`the alphabet ${alphabet} is not supported (ipa or x-sampa)`);
    this.language = language;
    this.alphabet = alphabet;
  }

  /** Every grapheme of the lexeme becomes a rule saying its pronunciation: the preferred one, else the first. */
  private closeLexeme(lexeme: Lexeme, fail: (message: string) => never): void {
    this.lexeme = undefined;
    if (lexeme.graphemes.length === 0) fail(`the <lexeme> of line ${lexeme.line} has no <grapheme>`);
    const chosen = lexeme.pronunciations.find((pronunciation) => pronunciation.preferred) ?? lexeme.pronunciations[0];
    if (!chosen) return fail(`the <lexeme> of line ${lexeme.line} has no <phoneme> or <alias>`);
    const said = chosen.alias === undefined ? { phonemes: chosen.phonemes, alphabet: chosen.alphabet } : { alias: chosen.alias };
    for (const grapheme of lexeme.graphemes) {
      this.rules.push({ ...grapheme, ...said });
      this.lines.push(lexeme.line);
    }
  }
}

function isAlphabet(value: string): value is Alphabet {
  return ALPHABETS.includes(value);
}

/** An attribute without a namespace (PLS's own attributes have none). */
function attribute(tag: SaxesTagNS, name: string): string | undefined {
  return Object.values(tag.attributes).find((attr) => attr.local === name && attr.uri === '')?.value;
}

function flag(tag: SaxesTagNS, name: string, fallback: boolean): boolean {
  const value = Object.values(tag.attributes).find((attr) => attr.local === name && attr.uri === TIMBRE_PLS_NAMESPACE)?.value;
  return value === undefined ? fallback : value === 'true';
}

export function tooManyRules(maxRules: number): ApiError {
  return new ApiError(413, 'dictionary_too_large', `A dictionary holds at most ${maxRules} rules (TIMBRE_PRONUNCIATION_MAX_RULES)`, { max_rules: maxRules });
}
