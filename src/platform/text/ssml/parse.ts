/**
 * SSML into runs (segments.ts). The XML is read by saxes, a strict non-validating parser that
 * never reads a DTD: a DOCTYPE is refused outright, so no entity beyond XML's five and numeric
 * character references can exist and an expansion bomb fails at its DOCTYPE. Every limit
 * is checked as the parser reaches it, so a hostile document stops at the first violation.
 */
import { SaxesParser } from 'saxes';
import { type Attributes, type TextElement, elementEffect, isKnownElement, refusedElement } from './elements.js';
import { PLAIN_STYLE, RunBuilder, type RunStyle } from './run-builder.js';
import { breakSeconds } from './prosody-values.js';
import { sayAs } from './say-as.js';
import type { MarkedRun } from './segments.js';
import { type SsmlPosition, SsmlValueError, invalidSsml } from './ssml-error.js';

export interface SsmlLimits {
  maxDepth: number;
  maxElements: number;
  maxBreakSeconds: number;
}

/** The language `say-as` reads in when no `xml:lang` is in scope and the caller knows none. */
const DEFAULT_READING_LANGUAGE = 'en';

/** After a BOM, comments and a DOCTYPE (which parsing then refuses): `<speak`; or an XML declaration, which no plain text starts with. */
const SSML_START = /^\uFEFF?\s*(?:<\?xml[^>]*\?>|(?:<!--(?:[^-]|-(?!->))*-->\s*)*(?:<!DOCTYPE|<speak[\s/>]))/;

/** Whether `text` is an SSML document rather than plain text (see docs/ssml.md: text_type's default). */
export function looksLikeSsml(text: string): boolean {
  return SSML_START.test(text);
}

interface Frame {
  name: string;
  at: SsmlPosition;
  style: RunStyle;
  textElement?: TextElement;
  /** The text inside a text-only element, collected until it closes. */
  content: string;
}

/**
 * The runs `text` (an SSML document) says. `language` (BCP 47) is the request's, used for
 * `say-as` readings outside any `xml:lang`. Throws 400 `invalid_ssml` with the line, column
 * and element of the first problem.
 */
export function parseSsml(text: string, limits: SsmlLimits, language?: string): MarkedRun[] {
  return new SsmlReader(text, limits, language).read();
}

/** Runs `step` for the element at `at`, turning a bad value into an error there. */
function atElement<T>(at: SsmlPosition, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof SsmlValueError) throw invalidSsml(error.message, at, error.details);
    throw error;
  }
}

function limitDetails(limit: keyof SsmlLimits, setting: string, limits: SsmlLimits): Record<string, unknown> {
  return { limit, setting, value: limits[limit] };
}

/** One document's walk: saxes calls the handlers, which throw at the first problem and so stop the parse. */
class SsmlReader {
  private readonly parser = new SaxesParser({ position: true });
  private readonly builder = new RunBuilder();
  private readonly stack: Frame[] = [];
  private elements = 0;
  private breakSeconds = 0;
  private rootClosed = false;
  private tagAt: SsmlPosition = { line: 1, column: 1 };

  constructor(
    private readonly text: string,
    private readonly limits: SsmlLimits,
    private readonly language: string | undefined,
  ) {
    this.parser.on('error', (error) => {
      throw invalidSsml(`malformed XML: ${error.message.replace(/^\d+:\d+: /, '')}`, this.here());
    });
    this.parser.on('doctype', () => {
      const reason = 'a DOCTYPE is not allowed (Timbre reads no DTDs and no entities beyond &amp; &lt; &gt; &quot; &apos;)';
      throw invalidSsml(reason, positionOf(text, text.indexOf('<!DOCTYPE')));
    });
    this.parser.on('opentagstart', ({ name }) => this.countElement(name));
    this.parser.on('opentag', ({ name, attributes }) => this.open(name, plainAttributes(attributes)));
    this.parser.on('text', (content) => this.addText(content));
    this.parser.on('cdata', (content) => this.addText(content));
    this.parser.on('closetag', () => this.close());
  }

  read(): MarkedRun[] {
    this.parser.write(this.text).close();
    if (!this.rootClosed) throw invalidSsml('no <speak> element', this.here());
    const runs = this.builder.finish();
    if (!runs.some((run) => run.kind === 'speech')) throw invalidSsml('<speak> holds nothing to say', { line: 1, column: 1, element: 'speak' });
    return runs;
  }

  private here(): SsmlPosition {
    return { line: this.parser.line, column: this.parser.column + 1 };
  }

  /** Counted as soon as the name is read, so a flood of elements or a deep nest stops at the limit. */
  private countElement(name: string): void {
    // saxes has read the name and the character after it; the tag's `<` is just before the name.
    this.tagAt = { line: this.parser.line, column: this.parser.column - name.length - 1, element: name };
    this.elements += 1;
    const { limits } = this;
    if (this.elements > limits.maxElements)
      throw invalidSsml(`more than ${limits.maxElements} elements`, this.tagAt, limitDetails('maxElements', 'TIMBRE_SSML_MAX_ELEMENTS', limits));
    if (this.stack.length + 1 > limits.maxDepth)
      throw invalidSsml(`elements nested more than ${limits.maxDepth} deep`, this.tagAt, limitDetails('maxDepth', 'TIMBRE_SSML_MAX_DEPTH', limits));
  }

  private open(name: string, attributes: Attributes): void {
    const at = this.tagAt;
    const parent = this.stack.at(-1);
    if (!parent && name !== 'speak') throw invalidSsml(`the root element must be <speak>, not <${name}>`, at);
    if (parent && name === 'speak') throw invalidSsml('<speak> may only be the root element', at);
    const refusal = refusedElement(name);
    if (refusal) throw invalidSsml(refusal, at);
    if (!isKnownElement(name)) throw invalidSsml(`unknown element <${name}>`, at);
    if (parent?.name === 'break') throw invalidSsml('<break> must be empty', parent.at);
    if (parent?.textElement) throw invalidSsml(`<${parent.name}> may hold only text, not <${name}>`, at);
    const effect = atElement(at, () => elementEffect(name, attributes, parent?.style ?? PLAIN_STYLE));
    this.stack.push({ name, at, content: '', ...effect });
    if (name === 'p' || name === 's') this.builder.endSentence();
    if (name === 'break')
      this.pause(
        at,
        atElement(at, () => breakSeconds(attributes.time, attributes.strength)),
      );
  }

  private pause(at: SsmlPosition, seconds: number): void {
    this.breakSeconds += seconds;
    const { limits } = this;
    if (this.breakSeconds > limits.maxBreakSeconds)
      throw invalidSsml(`breaks add up to more than ${limits.maxBreakSeconds} s`, at, limitDetails('maxBreakSeconds', 'TIMBRE_SSML_MAX_BREAK_SECONDS', limits));
    this.builder.pause(seconds);
  }

  private addText(content: string): void {
    const frame = this.stack.at(-1);
    if (!frame) return; // Whitespace around the root (saxes refuses anything else there).
    if (frame.name === 'break' && /\S/.test(content)) throw invalidSsml('<break> must be empty', frame.at);
    if (frame.textElement) frame.content += content;
    else this.builder.text(content, frame.style);
  }

  private close(): void {
    const frame = this.stack.pop();
    if (!frame) return;
    const { textElement } = frame;
    if (textElement) atElement(frame.at, () => this.closeTextElement(frame, textElement));
    if (frame.name === 's') this.builder.endSentence();
    if (frame.name === 'p') this.builder.endParagraph();
    if (this.stack.length === 0) this.rootClosed = true;
  }

  private closeTextElement(frame: Frame, element: TextElement): void {
    const content = frame.content.replace(/\s+/g, ' ').trim();
    if (element.kind === 'sub') this.builder.decided(element.alias, frame.style);
    else if (element.kind === 'phoneme') {
      if (!content) throw new SsmlValueError('<phoneme> needs the written word as its content (engines that take no phonemes say it)');
      this.builder.decided(content, frame.style, { alphabet: element.alphabet, value: element.ph });
    } else {
      const language = frame.style.language ?? this.language ?? DEFAULT_READING_LANGUAGE;
      this.builder.decided(sayAs(element.interpretAs, element.format, content, language), frame.style);
    }
  }
}

/** The 1-based line and column of `index` in `text`. */
function positionOf(text: string, index: number): SsmlPosition {
  const before = text.slice(0, Math.max(index, 0)).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** saxes gives plain strings for attributes when namespaces are off; this keeps the type honest. */
function plainAttributes(attributes: Record<string, string | { value: string }>): Attributes {
  return Object.fromEntries(Object.entries(attributes).map(([key, value]) => [key, typeof value === 'string' ? value : value.value]));
}
