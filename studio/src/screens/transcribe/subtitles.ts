/** SubRip and WebVTT files of timed cues (the same layout the service writes for `format=srt|vtt`). */
export interface Cue {
  start: number;
  end: number;
  text: string;
}

/** `HH:MM:SS,mmm` (SRT) or `HH:MM:SS.mmm` (VTT), rounded to the millisecond. */
function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** A blank line would end a cue early in both formats, so the text keeps only its non-blank lines. */
function lines(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .join('\n');
}

function timing(cue: Cue, separator: ',' | '.'): string {
  return `${timestamp(cue.start, separator)} --> ${timestamp(Math.max(cue.start, cue.end), separator)}`;
}

/** Numbered blocks; readers take any line with `-->` for a timing line, so that arrow in the text is broken. */
export function toSrt(cues: readonly Cue[]): string {
  return cues.map((cue, index) => `${index + 1}\n${timing(cue, ',')}\n${lines(cue.text).replaceAll('-->', '-- >')}\n`).join('\n');
}

/** The WEBVTT header, then the cues; `&`, `<` and `>` are markup in cue text and are escaped. */
export function toVtt(cues: readonly Cue[]): string {
  const escape = (text: string) => lines(text).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return `WEBVTT\n\n${cues.map((cue) => `${timing(cue, '.')}\n${escape(cue.text)}\n`).join('\n')}`;
}
