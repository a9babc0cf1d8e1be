import { extname } from 'node:path';
import { ApiError } from '../../platform/errors.js';
import { ProgramError, runChecked } from '../../platform/util/run.js';

export interface PictureInfo {
  kind: 'video' | 'image';
  width: number | null;
  height: number | null;
  /** Null for an image. */
  duration: number | null;
  hasAudio: boolean;
  /** The stored file's extension. */
  extension: string;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  nb_frames?: string;
}

interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { format_name?: string; duration?: string };
}

/** Still-image codecs, with the extension the file is stored under. */
const IMAGE_CODECS: Record<string, string> = { png: 'png', mjpeg: 'jpg', webp: 'webp', bmp: 'bmp', tiff: 'tiff', gif: 'gif' };
/** ffmpeg demuxers that "read" any text as a picture (ANSI art, subtitles rendered as video); not media. */
const TEXT_FORMATS = new Set(['tty', 'txt']);
const SAFE_EXTENSION = /^[a-z0-9]{1,8}$/;

/**
 * What ffprobe finds in a picture upload: a video (first video stream, its size and length, whether
 * it has sound) or a still image (an image codec with at most one frame). Anything else, including
 * a file ffprobe cannot read, is 415 `media_unreadable`.
 */
export async function probePicture(path: string, originalName?: string): Promise<PictureInfo> {
  let output: FfprobeOutput;
  try {
    const { stdout } = await runChecked('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path]);
    output = JSON.parse(stdout.toString('utf8')) as FfprobeOutput;
  } catch (error) {
    // ffprobe's own words name the file's path: the reason stays general.
    if (error instanceof ProgramError) throw unreadable('not a file ffprobe can read');
    throw error;
  }
  const format = output.format?.format_name ?? '';
  const video = output.streams?.find((stream) => stream.codec_type === 'video');
  if (!video?.codec_name || TEXT_FORMATS.has(format)) throw unreadable('no video or image stream');
  const size = { width: video.width ?? null, height: video.height ?? null };
  const imageExtension = IMAGE_CODECS[video.codec_name];
  if (imageExtension && Number(video.nb_frames ?? '1') <= 1) return { kind: 'image', ...size, duration: null, hasAudio: false, extension: imageExtension };
  const duration = seconds(video.duration) ?? seconds(output.format?.duration);
  if (duration === null) throw unreadable('the video states no duration');
  const hasAudio = output.streams?.some((stream) => stream.codec_type === 'audio') ?? false;
  return { kind: 'video', ...size, duration, hasAudio, extension: videoExtension(format, originalName) };
}

/** The original name's extension when it is one of the demuxer's names (`mov,mp4,…`), else the first name. */
function videoExtension(format: string, originalName?: string): string {
  const family = format.split(',');
  const given = originalName ? extname(originalName).slice(1).toLowerCase() : '';
  const chosen = family.includes(given) ? given : ((family.includes('mp4') ? 'mp4' : family[0]) ?? 'bin');
  return SAFE_EXTENSION.test(chosen) ? chosen : 'bin';
}

function seconds(value: string | undefined): number | null {
  const number = Number(value);
  return value && Number.isFinite(number) && number > 0 ? number : null;
}

function unreadable(reason: string): ApiError {
  return new ApiError(415, 'media_unreadable', 'The file is not a video or image ffmpeg can read', { reason });
}
