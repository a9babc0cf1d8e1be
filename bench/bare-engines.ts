import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProgram } from '../src/platform/util/run.js';
import { timed } from './measure.js';

/**
 * Each built-in voice's own command line, as a user would run it on the whole text: the figure
 * the service is held against (one process, no service around it).
 */
export interface BareVoice {
  voiceId: string;
  command(textFile: string, wavFile: string, text: string): { program: string; args: string[] };
}

export const BARE_VOICES: readonly BareVoice[] = [
  // pico2wave takes its text as an argument only.
  { voiceId: 'pico:en-US', command: (_file, wav, text) => ({ program: 'pico2wave', args: ['-l', 'en-US', '-w', wav, '--', text] }) },
  { voiceId: 'espeak:mb-us1', command: (text, wav) => ({ program: 'espeak-ng', args: ['-v', 'mb-us1', '-w', wav, '-f', text] }) },
  { voiceId: 'espeak:en-us', command: (text, wav) => ({ program: 'espeak-ng', args: ['-v', 'en-us', '-w', wav, '-f', text] }) },
  { voiceId: 'rhvoice:slt', command: (text, wav) => ({ program: 'RHVoice-test', args: ['-p', 'slt', '-i', text, '-o', wav] }) },
  { voiceId: 'flite:slt', command: (text, wav) => ({ program: 'flite', args: ['-voice', 'slt', '-f', text, '-o', wav] }) },
  {
    voiceId: 'festival:cmu_us_slt_arctic_hts',
    command: (text, wav) => ({ program: 'text2wave', args: ['-eval', '(voice_cmu_us_slt_arctic_hts)', text, '-o', wav] }),
  },
];

/** A folder holding the text as a file, for the command lines that read one. */
export async function bareWorkspace(text: string) {
  const dir = await mkdtemp(join(tmpdir(), 'timbre-bench-bare-'));
  const textFile = join(dir, 'text.txt');
  await writeFile(textFile, text);
  return {
    /** Seconds for the voice's command line on the text. */
    async run(voice: BareVoice): Promise<number> {
      const { program, args } = voice.command(textFile, join(dir, 'out.wav'), text);
      const { value, seconds } = await timed(() => runProgram(program, args));
      if (value.code !== 0) throw new Error(`${program} failed: ${value.stderr}`);
      return seconds;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
