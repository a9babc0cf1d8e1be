import type { MarkedRun, SpeechRun } from './segments.js';

/**
 * Runs written back as SSML that parses into the same runs: how a long-form chunk cut out of a
 * marked-up text keeps its markup (the chunk's text is this, spoken and retaken like any SSML).
 * Words markup already decided (`literal: false`) are written as a `sub` of themselves, so that
 * dictionaries do not rewrite them again.
 */
export function runsToSsml(runs: readonly MarkedRun[]): string {
  return `<speak>${runs.map(runToSsml).join(' ')}</speak>`;
}

function runToSsml(run: MarkedRun): string {
  if (run.kind === 'break') return `<break time="${Math.round(run.seconds * 1000)}ms"/>`;
  let body = run.phonemes
    ? `<phoneme alphabet="${run.phonemes.alphabet}" ph="${escaped(run.phonemes.value)}">${escaped(run.text)}</phoneme>`
    : run.literal
      ? escaped(run.text)
      : `<sub alias="${escaped(run.text)}">${escaped(run.text)}</sub>`;
  const prosody = prosodyAttributes(run);
  if (prosody) body = `<prosody${prosody}>${body}</prosody>`;
  if (run.language !== undefined) body = `<lang xml:lang="${escaped(run.language)}">${body}</lang>`;
  if (run.voice !== undefined) body = `<voice name="${escaped(run.voice)}">${body}</voice>`;
  return body;
}

function prosodyAttributes(run: SpeechRun): string {
  const attributes: string[] = [];
  if (run.rate !== 1) attributes.push(`rate="${run.rate}"`);
  if (run.pitchHz) attributes.push(`pitch="${run.pitchHz.relative ? signed(run.pitchHz.hz) : run.pitchHz.hz}Hz"`);
  else if (run.pitch !== 1) attributes.push(`pitch="${signed((run.pitch - 1) * 100)}%"`);
  if (!Number.isFinite(run.volumeDb)) attributes.push('volume="silent"');
  else if (run.volumeDb !== 0) attributes.push(`volume="${signed(run.volumeDb)}dB"`);
  return attributes.map((attribute) => ` ${attribute}`).join('');
}

function signed(value: number): string {
  const rounded = Math.round(value * 1e6) / 1e6;
  return rounded >= 0 ? `+${rounded}` : String(rounded);
}

function escaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
