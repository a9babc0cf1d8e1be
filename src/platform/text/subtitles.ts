/** One subtitle: text shown from `start` to `end`, in seconds, said by `speaker` when known. */
export interface Cue {
  start: number;
  end: number;
  text: string;
  speaker?: string;
}

import { looksLikeSsml } from './ssml/parse.js';

const XML_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * The words a text shows on screen: an SSML document without its markup (a `sub` shows the written
 * word, not its alias), on one line; plain text as it is.
 */
export function shownText(text: string): string {
  if (!looksLikeSsml(text)) return text;
  return text
    .replace(/<!--[\s\S]*?-->|<[^>]*>/g, ' ')
    .replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]!)
    .replace(/\s+/g, ' ')
    .trim();
}

/** A word with its times in seconds. */
export interface TimedWord {
  text: string;
  start: number;
  end: number;
}

/** How long a sentence cue cut from word times may be: the usual subtitle rules of one line of 42 characters and 7 seconds on screen. */
export interface CueLimits {
  maxChars: number;
  maxSeconds: number;
}

export const CUE_LIMITS: Readonly<CueLimits> = Object.freeze({ maxChars: 42, maxSeconds: 7 });

const SENTENCE_END = /[.!?。！？…]/u;
/** How far past the last word found (characters) the next word is looked for in the text: further, it is some other occurrence. */
const SEARCH_REACH = 60;

/**
 * Sentence cues from word times: a cue ends after a word the text follows with a sentence end, and
 * before a word that would take its line past `maxChars` or the cue past `maxSeconds` (a single
 * longer word is a cue of its own). A cue shows the text as written from its first word to its last
 * with the marks around it; words not found in `text` (an engine's reading of a number, say) are
 * shown as the engine named them. It runs from its first word's start to its last word's end.
 */
export function cuesFromWords(words: readonly TimedWord[], text: string, limits: CueLimits = CUE_LIMITS): Cue[] {
  const places = locate(words, text);
  const cues: Cue[] = [];
  let group: number[] = [];
  const lineOf = (indices: number[]) => {
    const [first, last] = [places[indices[0]!], places[indices[indices.length - 1]!]];
    const written = indices.every((i) => places[i]) && first && last ? text.slice(withOpening(text, first.from), withClosing(text, last.to)) : undefined;
    return (written ?? indices.map((i) => words[i]!.text).join(' ')).replace(/\s+/g, ' ').trim();
  };
  const flush = () => {
    if (group.length > 0) cues.push({ start: words[group[0]!]!.start, end: words[group[group.length - 1]!]!.end, text: lineOf(group) });
    group = [];
  };
  for (const [i, word] of words.entries()) {
    const tooLong = group.length > 0 && (lineOf([...group, i]).length > limits.maxChars || word.end - words[group[0]!]!.start > limits.maxSeconds);
    if (tooLong) flush();
    group.push(i);
    const place = places[i];
    const after = place ? text.slice(place.to, places[i + 1]?.from ?? withClosing(text, place.to)) : word.text.slice(-1);
    if (SENTENCE_END.test(after)) flush();
  }
  flush();
  return cues;
}

/** Where each word is in the text, looked for in order (case aside) a little past the last one found; undefined where it is not. */
function locate(words: readonly TimedWord[], text: string): ({ from: number; to: number } | undefined)[] {
  let cursor = 0;
  return words.map((word) => {
    const pattern = new RegExp(word.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
    pattern.lastIndex = cursor;
    const found = word.text === '' ? null : pattern.exec(text);
    if (!found || found.index - cursor > SEARCH_REACH) return undefined;
    cursor = found.index + found[0].length;
    return { from: found.index, to: cursor };
  });
}

/** The offset of the opening marks (quotes, brackets) right before `at`. */
function withOpening(text: string, at: number): number {
  let start = at;
  while (start > 0 && /[^\s\p{L}\p{N}]/u.test(text[start - 1]!)) start--;
  return start;
}

/** The offset past the punctuation and closing marks right after `at`. */
function withClosing(text: string, at: number): number {
  let end = at;
  while (end < text.length && /[^\s\p{L}\p{N}]/u.test(text[end]!)) end++;
  return end;
}

/**
 * SubRip: numbered blocks (from 1) of a `00:00:01,500 --> 00:00:02,000` line and the text,
 * separated by blank lines. SubRip has no speaker markup: a speaker's cue reads `Name: text`.
 */
export function toSrt(cues: readonly Cue[]): string {
  return joinBlocks(cues.map((cue, i) => `${i + 1}\n${timing(cue, ',')}\n${srtText(cue.speaker ? `${oneLine(cue.speaker)}: ${cue.text}` : cue.text)}`));
}

/**
 * WebVTT: the `WEBVTT` header, then blocks of a `00:00:01.500 --> 00:00:02.000` line and the text;
 * a speaker's cue is a voice span, `<v Name>text`.
 */
export function toVtt(cues: readonly Cue[]): string {
  return `WEBVTT\n\n${joinBlocks(cues.map((cue) => `${timing(cue, '.')}\n${cue.speaker ? `<v ${vttEscape(oneLine(cue.speaker))}>` : ''}${vttText(cue.text)}`))}`;
}

/** Reads SubRip: every block with a timing line is a cue; its text is the lines after that. */
export function parseSrt(content: string): Cue[] {
  return blocks(content).flatMap(readCue);
}

/** Reads WebVTT cues: skips the header and blocks without a timing line (NOTE, STYLE, REGION). */
export function parseVtt(content: string): Cue[] {
  const [header, ...rest] = blocks(content);
  if (!header?.[0]?.startsWith('WEBVTT')) throw new SyntaxError('WebVTT must start with a WEBVTT line');
  return rest.flatMap(readCue).map((cue) => ({ ...cue, text: unescapeVtt(cue.text) }));
}

function joinBlocks(blocks: string[]): string {
  return blocks.map((block) => `${block}\n`).join('\n');
}

function timing(cue: Cue, separator: ',' | '.'): string {
  if (!Number.isFinite(cue.start) || !Number.isFinite(cue.end) || cue.start < 0 || cue.end < cue.start) {
    throw new RangeError(`cue times must satisfy 0 <= start <= end, got ${cue.start} to ${cue.end}`);
  }
  return `${timestamp(cue.start, separator)} --> ${timestamp(cue.end, separator)}`;
}

/** `HH:MM:SS,mmm` (SRT) or `HH:MM:SS.mmm` (VTT), rounded to the millisecond; hours may pass 99. */
function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.round(seconds * 1000);
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const secs = Math.floor(ms / 1000) % 60;
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(secs, 2)}${separator}${pad(ms % 1000, 3)}`;
}

/**
 * Blank lines end a cue in both formats, so text loses its empty lines. SubRip has no escapes and
 * readers take any line with `-->` for a timing line, so that arrow becomes `-- >`.
 */
function srtText(text: string): string {
  return textLines(text).replaceAll('-->', '-- >');
}

/** WebVTT cue text must escape `&` and `<` (markup), and must not contain `-->`: `>` becomes `&gt;`. */
function vttText(text: string): string {
  return vttEscape(textLines(text));
}

/** The escapes of WebVTT cue text, which a voice span's annotation (the speaker) takes too: there `>` would end the tag. */
function vttEscape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A name on one line: its line breaks would end the cue's first line. */
function oneLine(text: string): string {
  return normalizeNewlines(text)
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

function textLines(text: string): string {
  return normalizeNewlines(text)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .join('\n');
}

function unescapeVtt(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&nbsp;', '\u00a0').replaceAll('&amp;', '&');
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** The blocks of a subtitle file: runs of non-blank lines, without a byte order mark. */
function blocks(content: string): string[][] {
  const groups: string[][] = [[]];
  for (const line of normalizeNewlines(content.replace(/^\uFEFF/, '')).split('\n')) {
    if (line.trim() !== '') groups[groups.length - 1]!.push(line);
    else if (groups[groups.length - 1]!.length > 0) groups.push([]);
  }
  return groups.filter((lines) => lines.length > 0);
}

/** Hours optional (WebVTT allows `MM:SS.mmm`); either decimal separator. */
const TIMING = /^\s*((?:\d+:)?\d{2}:\d{2}[,.]\d{3})\s+-->\s+((?:\d+:)?\d{2}:\d{2}[,.]\d{3})/;

function readCue(lines: string[]): Cue[] {
  const at = lines.findIndex((line) => TIMING.test(line));
  if (at < 0) return [];
  const [, start, end] = TIMING.exec(lines[at]!)!;
  return [{ start: seconds(start!), end: seconds(end!), text: lines.slice(at + 1).join('\n') }];
}

function seconds(stamp: string): number {
  const [clock, millis] = stamp.split(/[,.]/) as [string, string];
  const parts = clock.split(':').map(Number);
  const whole = parts.reduce((total, part) => total * 60 + part, 0);
  // One division, so that a written time reads back as the same double it was written from.
  return (whole * 1000 + Number(millis)) / 1000;
}
