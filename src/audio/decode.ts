import { runChecked } from '../util/run.js';
import type { Pcm } from './pcm.js';

/**
 * Decodes anything ffmpeg reads (a file path, or bytes through stdin) to mono float32 PCM at the
 * given rate.
 */
export async function decodeToPcm(input: string | Buffer, sampleRate: number, signal?: AbortSignal): Promise<Pcm> {
  const source = typeof input === 'string' ? input : 'pipe:0';
  const args = ['-nostdin', '-hide_banner', '-v', 'error', '-i', source, '-map', '0:a:0', '-ac', '1', '-ar', String(sampleRate), '-f', 'f32le', 'pipe:1'];
  const { stdout } = await runChecked('ffmpeg', typeof input === 'string' ? args : args.filter((arg) => arg !== '-nostdin'), {
    input: typeof input === 'string' ? undefined : input,
    signal,
  });
  const samples = new Float32Array(stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + stdout.length - (stdout.length % 4)));
  return { samples, sampleRate };
}
