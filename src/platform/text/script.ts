/**
 * Dialogue scripts: plain text with one utterance per `Name: text` line, each name mapped to a
 * voice. The format is described in the README ("Dialogue scripts"); in short:
 *
 * - `Name: text` starts an utterance. The name (letters, digits, spaces, `.` `_` `-` `'`, at most
 *   40 characters, starting with a letter or digit) is trimmed and matched case-insensitively
 *   against the voices map. A full-width colon `：` works too, for CJK scripts.
 * - Any other non-blank line continues the previous utterance, joined with a space, so long
 *   speeches can be wrapped and `Name:` may stand alone on its line with the text below it.
 * - Blank lines and lines whose first non-blank character is `#` are ignored.
 *
 * Every problem is reported at once, with its line number, so a writer can fix a script in one go.
 */
import { ApiError } from '../errors.js';

export interface ScriptSegment {
  /** The speaker's name as spelled in the voices map. */
  speaker: string;
  voice_id: string;
  text: string;
  /** 1-based line of the `Name:` line that starts the utterance. */
  line: number;
}

export interface ScriptProblem {
  /** 1-based line number; 0 for the script as a whole (an empty script). */
  line: number;
  problem: string;
}

// `(?!\/\/)` keeps a continuation line that starts with a URL ("https://…") from reading as a name.
const SPEAKER_LINE = /^\s*([\p{L}\p{N}][\p{L}\p{M}\p{N} ._'’-]{0,39}?)\s*[:：](?!\/\/)(.*)$/u;
const IGNORED_LINE = /^\s*(#|$)/;

interface Utterance {
  /** Undefined when the name was not in the voices map (already reported). */
  voice?: { speaker: string; voice_id: string };
  parts: string[];
  line: number;
}

/** The voices map keyed by lower-cased, trimmed name; names that differ only in case are refused. */
function voicesByName(voices: Record<string, string>): Map<string, { speaker: string; voice_id: string }> {
  const byName = new Map<string, { speaker: string; voice_id: string }>();
  for (const [speaker, voice_id] of Object.entries(voices)) {
    const key = speaker.trim().toLowerCase();
    const other = byName.get(key);
    if (other) {
      // Which voice "alice:" means would be a guess.
      const message = `Voice names "${other.speaker}" and "${speaker}" differ only in case`;
      throw new ApiError(400, 'invalid_request', message, { fields: [{ field: 'voices', message }] });
    }
    byName.set(key, { speaker: speaker.trim(), voice_id });
  }
  return byName;
}

/** The script's utterances in order, each with its speaker's voice; ApiError `script_invalid` listing every problem. */
export function parseScript(script: string, voices: Record<string, string>): ScriptSegment[] {
  const byName = voicesByName(voices);
  const utterances: Utterance[] = [];
  const problems: ScriptProblem[] = [];
  script.split(/\r?\n/).forEach((text, index) => {
    const line = index + 1;
    if (IGNORED_LINE.test(text)) return;
    const match = SPEAKER_LINE.exec(text);
    if (match) {
      const name = match[1]!.trim();
      const voice = byName.get(name.toLowerCase());
      if (!voice) problems.push({ line, problem: unknownSpeaker(name, byName) });
      utterances.push({ voice, parts: [match[2]!.trim()], line });
      return;
    }
    const current = utterances.at(-1);
    if (current) current.parts.push(text.trim());
    else problems.push({ line, problem: 'Text before the first "Name:" line: whose line is it?' });
  });
  const segments = utterances.flatMap((utterance) => toSegment(utterance, problems));
  if (segments.length === 0 && problems.length === 0) problems.push({ line: 0, problem: 'The script has no utterances' });
  if (problems.length > 0) {
    problems.sort((a, b) => a.line - b.line);
    throw new ApiError(400, 'script_invalid', summary(problems), { problems });
  }
  return segments;
}

function unknownSpeaker(name: string, byName: Map<string, { speaker: string }>): string {
  const known = [...byName.values()].map((voice) => voice.speaker);
  return `Unknown speaker "${name}"; known: ${known.length > 0 ? known.join(', ') : 'none (the voices map is empty)'}`;
}

/** The utterance as a segment, or nothing when its speaker is unknown or its text empty (reported). */
function toSegment(utterance: Utterance, problems: ScriptProblem[]): ScriptSegment[] {
  const text = utterance.parts.filter(Boolean).join(' ');
  if (!text) problems.push({ line: utterance.line, problem: 'Empty text: nothing to say after the name' });
  if (!text || !utterance.voice) return [];
  return [{ ...utterance.voice, text, line: utterance.line }];
}

function summary(problems: ScriptProblem[]): string {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
  return `Invalid script: ${first.line > 0 ? `line ${first.line}: ` : ''}${first.problem}${more}`;
}
