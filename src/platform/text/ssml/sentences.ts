import { splitSentences, type Sentence } from '../split.js';
import type { MarkedRun } from './segments.js';
import { runsToSsml } from './serialize.js';

/** A sentence of a marked-up text: its own SSML (markup kept), and where its words lie in the text's spoken words. */
export interface MarkedSentence extends Sentence {
  /** The sentence as SSML (`<speak>…</speak>`), spoken like any SSML. */
  ssml: string;
}

const SENTENCE_END = /[.!?…。！？]["'”’)\]]*\s*$/u;

/**
 * The sentences of marked runs, for long-form chunks: each run's text is split as plain text
 * would be (splitSentences), a sentence carries the settings of its run, a run that does not end
 * a sentence continues into the next run's, and a pause after a finished sentence goes with it.
 * `text`, `start` and `end` are of the spoken words (spokenText).
 */
export function markedSentences(runs: readonly MarkedRun[], options: { language?: string; maxChars?: number }): MarkedSentence[] {
  const groups: { runs: MarkedRun[]; paragraphEnd: boolean }[] = [];
  let current: MarkedRun[] = [];
  let paragraphEnd = false;
  const close = () => {
    if (current.length > 0) groups.push({ runs: current, paragraphEnd });
    current = [];
    paragraphEnd = false;
  };
  for (const run of runs) {
    if (run.kind === 'break') {
      const finished = current.length === 0 ? groups.at(-1) : undefined;
      (finished?.runs ?? current).push(run);
      continue;
    }
    const parts = splitSentences(run.text, { language: run.language ?? options.language, maxChars: options.maxChars });
    parts.forEach((part, index) => {
      current.push({ ...run, text: part.text });
      paragraphEnd = part.paragraphEnd;
      if (index < parts.length - 1 || SENTENCE_END.test(part.text)) close();
    });
  }
  close();
  let offset = 0;
  return groups.map((group, index) => {
    const text = group.runs.flatMap((run) => (run.kind === 'speech' ? [run.text.trim()] : [])).join(' ');
    const sentence = { index, text, start: offset, end: offset + text.length, paragraphEnd: group.paragraphEnd, ssml: runsToSsml(group.runs) };
    offset += text.length + 1;
    return sentence;
  });
}
