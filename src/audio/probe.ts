import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineError } from '../engines/types.js';
import { ProgramError, runChecked } from '../util/run.js';

export interface AudioInfo {
  /** Seconds, from the audio stream or else the container; null when neither states it. */
  duration: number | null;
  /** ffprobe's codec name, e.g. `pcm_s16le`, `mp3`, `opus`, `flac`. */
  codec: string;
  /** ffprobe's container name, e.g. `wav`, `mp3`, `ogg`, `flac`, `mov,mp4,m4a,3gp,3g2,mj2`. */
  formatName: string;
  /** The stream's rate; Opus always reports 48000, the rate its decoders produce. */
  sampleRate: number;
  channels: number;
  /** Bits per second, of the stream or else the container; null when unknown. */
  bitRate: number | null;
}

interface FfprobeOutput {
  streams?: { codec_name?: string; sample_rate?: string; channels?: number; duration?: string; bit_rate?: string }[];
  format?: { format_name?: string; duration?: string; bit_rate?: string };
}

/**
 * Describes the first audio stream of a file or of bytes. Throws EngineError `audio_unreadable`
 * when ffprobe cannot read the input or finds no audio in it.
 */
export async function probeAudio(input: string | Buffer, signal?: AbortSignal): Promise<AudioInfo> {
  if (typeof input === 'string') return probeFile(input, signal);
  // Bytes go through a temporary file: on a pipe ffprobe cannot seek to the end, where Ogg keeps
  // the information it needs for the duration.
  const dir = await mkdtemp(join(tmpdir(), 'timbre-probe-'));
  try {
    const file = join(dir, 'input');
    await writeFile(file, input);
    return await probeFile(file, signal);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function probeFile(path: string, signal?: AbortSignal): Promise<AudioInfo> {
  const args = ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-select_streams', 'a:0', path];
  let stdout: Buffer;
  try {
    ({ stdout } = await runChecked('ffprobe', args, { signal }));
  } catch (error) {
    if (error instanceof ProgramError) throw unreadable(error.result.stderr.trim());
    throw error;
  }
  return audioInfoOf(JSON.parse(stdout.toString('utf8')) as FfprobeOutput);
}

function audioInfoOf(output: FfprobeOutput): AudioInfo {
  const stream = output.streams?.[0];
  const sampleRate = numberOrNull(stream?.sample_rate);
  if (!stream || !stream.codec_name || !sampleRate) throw unreadable('no audio stream');
  return {
    duration: numberOrNull(stream.duration) ?? numberOrNull(output.format?.duration),
    codec: stream.codec_name,
    formatName: output.format?.format_name ?? 'unknown',
    sampleRate,
    channels: stream.channels ?? 1,
    bitRate: numberOrNull(stream.bit_rate) ?? numberOrNull(output.format?.bit_rate),
  };
}

/** ffprobe writes numbers as strings, and `N/A` or nothing when it does not know. */
function numberOrNull(value: string | undefined): number | null {
  const number = Number(value);
  return value && Number.isFinite(number) ? number : null;
}

function unreadable(reason: string): EngineError {
  return new EngineError('audio_unreadable', 'The input is not audio that can be read', { reason });
}
