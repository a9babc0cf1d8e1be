/**
 * Changes to a project's script, each answering a new script (the editor keeps the service's shape,
 * so what it saves is what it shows), and the script as the segments of a multi-voice task.
 */
import type { Schemas } from '../../api.js';

export type Script = Schemas['ProjectScript'];
export type Speaker = Script['speakers'][number];
export type Line = Script['lines'][number];

/** A name no speaker has yet: "Speaker 3". */
function freshName(script: Script): string {
  const taken = new Set(script.speakers.map((speaker) => speaker.name.toLowerCase()));
  let number = script.speakers.length + 1;
  while (taken.has(`speaker ${number}`)) number += 1;
  return `Speaker ${number}`;
}

export const addSpeaker = (script: Script): Script => ({ ...script, speakers: [...script.speakers, { name: freshName(script), voice_id: null }] });

/** Changes a speaker; a new name follows it into every line it speaks. */
export function changeSpeaker(script: Script, index: number, changes: Partial<Speaker>): Script {
  const before = script.speakers[index];
  if (!before) return script;
  const after = { ...before, ...changes };
  const lines =
    after.name === before.name ? script.lines : script.lines.map((line) => (line.speaker === before.name ? { ...line, speaker: after.name } : line));
  return { speakers: script.speakers.map((speaker, at) => (at === index ? after : speaker)), lines };
}

export const speaksLines = (script: Script, name: string) => script.lines.some((line) => line.speaker === name);

export const removeSpeaker = (script: Script, index: number): Script => ({ ...script, speakers: script.speakers.filter((_, at) => at !== index) });

/** A new last line, spoken by the speaker after the one of the line before (a dialogue alternates). */
export function addLine(script: Script): Script {
  const names = script.speakers.map((speaker) => speaker.name);
  const last = script.lines.at(-1)?.speaker;
  const speaker = names[(last === undefined ? -1 : names.indexOf(last)) + 1] ?? names[0];
  return speaker === undefined ? script : { ...script, lines: [...script.lines, { speaker, text: '' }] };
}

export const changeLine = (script: Script, index: number, changes: Partial<Line>): Script => ({
  ...script,
  lines: script.lines.map((line, at) => (at === index ? { ...line, ...changes } : line)),
});

export const removeLine = (script: Script, index: number): Script => ({ ...script, lines: script.lines.filter((_, at) => at !== index) });

/** Moves a line one place up (-1) or down (+1). */
export function moveLine(script: Script, index: number, step: -1 | 1): Script {
  const target = index + step;
  const [line, other] = [script.lines[index], script.lines[target]];
  if (!line || !other) return script;
  const lines = [...script.lines];
  lines[index] = other;
  lines[target] = line;
  return { ...script, lines };
}

export type Segment = { voice_id: string; text: string; speaker: string; language?: string };

/**
 * The lines with text as segments of a multi-voice task, each with its speaker's voice and
 * language; or the speakers that still need a voice.
 */
export function segmentsOf(script: Script): { segments: Segment[]; voiceless: string[] } {
  const spoken = script.lines.filter((line) => line.text.trim() !== '');
  const speakers = new Map(script.speakers.map((speaker) => [speaker.name, speaker]));
  const voiceless = [...new Set(spoken.map((line) => line.speaker))].filter((name) => !speakers.get(name)?.voice_id);
  const segments = spoken.flatMap((line) => {
    const speaker = speakers.get(line.speaker);
    if (!speaker?.voice_id) return [];
    return [{ voice_id: speaker.voice_id, text: line.text.trim(), speaker: line.speaker, ...(speaker.language ? { language: speaker.language } : {}) }];
  });
  return { segments, voiceless };
}
