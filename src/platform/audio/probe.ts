import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProgramError, runChecked } from '../util/run.js';
import { EngineError } from '../errors.js';

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

interface FfprobePackets {
  packets?: { side_data_list?: { skip_samples?: number; discard_padding?: number }[] }[];
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
    // ffprobe's own words name the file's path: the reason stays general.
    if (error instanceof ProgramError) throw unreadable('not a file ffprobe can read');
    throw error;
  }
  const info = audioInfoOf(JSON.parse(stdout.toString('utf8')) as FfprobeOutput);
  if (info.duration !== null && PADDED_CONTAINERS.has(info.formatName)) {
    info.duration = await withoutCodecPadding(path, info.duration, info.sampleRate, info.formatName, signal);
  }
  return info;
}

/**
 * Containers whose stated duration includes the encoder's padding: MP3 counts the LAME delay and
 * the last frame's padding (up to ~50 ms), Ogg the Opus pre-skip (6.5 ms by default). Both
 * declare the padding, and ffmpeg passes it on as `Skip Samples` side data of packets.
 */
const PADDED_CONTAINERS = new Set(['mp3', 'ogg']);

/**
 * The duration less the padding declared on the first packet (delay) and, for MP3, the last
 * (Ogg's final granule position already ends at the last real sample). Reads only the first
 * packet and the packets of the last two seconds, demuxing without decoding.
 */
async function withoutCodecPadding(path: string, duration: number, sampleRate: number, formatName: string, signal?: AbortSignal): Promise<number> {
  const tail = Math.max(0, duration - 2).toFixed(3);
  const args = ['-v', 'error', '-print_format', 'json', '-select_streams', 'a:0', '-read_intervals', `%+#1,${tail}%`];
  const { stdout } = await runChecked('ffprobe', [...args, '-show_entries', 'packet_side_data=skip_samples,discard_padding', path], { signal });
  const packets = (JSON.parse(stdout.toString('utf8')) as FfprobePackets).packets ?? [];
  const sideData = (index: number) => packets.at(index)?.side_data_list?.[0];
  const delay = sideData(0)?.skip_samples ?? 0;
  const padding = formatName === 'mp3' && packets.length > 1 ? (sideData(-1)?.discard_padding ?? 0) : 0;
  const trimmed = duration - (delay + padding) / sampleRate;
  return trimmed > 0 ? trimmed : duration;
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
