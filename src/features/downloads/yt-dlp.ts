import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ApiError } from '../../platform/errors.js';

/** How yt-dlp is run for one download; every limit is enforced by yt-dlp and checked again here. */
export interface YtDlpRequest {
  url: string;
  /** Folder the audio file is written to (a fresh temporary one). */
  dir: string;
  /** `--proxy`: the guard proxy every connection must pass. */
  proxy: string;
  maxSeconds: number;
  maxBytes: number;
  socketTimeoutSeconds: number;
  /** Seconds; a section is cut by ffmpeg (`--download-sections`). */
  start?: number;
  end?: number;
  signal: AbortSignal;
  onProgress(downloaded: number, total: number | null): void;
  onStage(stage: 'extracting'): void;
}

export interface YtDlpOutcome {
  /** yt-dlp's messages (stdout and stderr), kept for classifying a failure. */
  log: string;
  code: number | null;
}

const PROGRESS_MARK = 'timbre-progress';
const LOG_LIMIT = 64 * 1024;

/**
 * `--download-sections` without an end needs one: this yt-dlp passes `inf` to ffmpeg, which
 * refuses it. One second past the limit keeps "too long" detectable after the download.
 */
function sectionArgs(request: YtDlpRequest): string[] {
  if (request.start === undefined && request.end === undefined) return [];
  const start = request.start ?? 0;
  const end = request.end ?? start + request.maxSeconds + 1;
  return ['--download-sections', `*${start}-${end}`];
}

export function ytDlpArgs(request: YtDlpRequest): string[] {
  // Without a section the whole media must fit; with a start only, what follows the start must.
  const longest = request.end === undefined ? request.maxSeconds + (request.start ?? 0) : null;
  const filter = longest === null ? '!is_live' : `!is_live & duration <=? ${longest}`;
  return [
    // A user's yt-dlp.conf could add --exec or change the output; none of it applies here.
    '--ignore-config',
    '--no-playlist',
    '--no-cache-dir',
    '--no-mtime',
    '--newline',
    '--progress',
    '--progress-template',
    `download:${PROGRESS_MARK} %(progress.downloaded_bytes)s %(progress.total_bytes)s %(progress.total_bytes_estimate)s`,
    '--proxy',
    request.proxy,
    '--socket-timeout',
    String(request.socketTimeoutSeconds),
    '--max-filesize',
    String(request.maxBytes),
    '--match-filter',
    filter,
    '--format',
    'bestaudio/best',
    '--extract-audio',
    ...sectionArgs(request),
    '--output',
    `${request.dir}/audio.%(ext)s`,
    '--',
    request.url,
  ];
}

function parseProgress(line: string): { downloaded: number; total: number | null } | undefined {
  const [mark, downloaded, total, estimate] = line.trim().split(' ');
  if (mark !== PROGRESS_MARK) return undefined;
  const bytes = Number(downloaded);
  if (!Number.isFinite(bytes)) return undefined;
  const whole = Number(total !== 'NA' ? total : estimate);
  return { downloaded: bytes, total: Number.isFinite(whole) && whole > 0 ? whole : null };
}

/**
 * Runs yt-dlp, reporting progress from its `--newline` output. Aborting the signal kills it and
 * rejects with the signal's reason; downloading past the size limit kills it with `media_too_large`
 * (a server need not announce the size, and yt-dlp only checks an announced one).
 */
export function runYtDlp(request: YtDlpRequest): Promise<YtDlpOutcome> {
  return new Promise((resolve, reject) => {
    if (request.signal.aborted) return reject(request.signal.reason);
    const child = spawn('yt-dlp', ytDlpArgs(request), { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    // What ended the run early: the abort's reason or the size limit's error.
    let failure: Error | undefined;
    const kill = (reason: Error) => {
      failure ??= reason;
      child.kill('SIGKILL');
    };
    const onAbort = () => kill(request.signal.reason instanceof Error ? request.signal.reason : new Error('aborted'));
    request.signal.addEventListener('abort', onAbort, { once: true });
    const onLine = (line: string) => {
      const progress = parseProgress(line);
      if (!progress) {
        if (log.length < LOG_LIMIT) log += `${line}\n`;
        if (line.startsWith('[ExtractAudio]')) request.onStage('extracting');
        return;
      }
      if (progress.downloaded > request.maxBytes) kill(tooLarge(request.maxBytes));
      else request.onProgress(progress.downloaded, progress.total);
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    child.once('error', (error) => {
      request.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.once('close', (code) => {
      request.signal.removeEventListener('abort', onAbort);
      if (failure !== undefined) reject(failure);
      else resolve({ log, code });
    });
  });
}

export function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, 'media_too_large', `The media is larger than the limit of ${maxBytes} bytes`, { max_bytes: maxBytes });
}

export function tooLong(maxSeconds: number, duration?: number): ApiError {
  const details = duration === undefined ? { max_seconds: maxSeconds } : { max_seconds: maxSeconds, duration };
  return new ApiError(413, 'media_too_long', `The media is longer than the limit of ${maxSeconds} seconds`, details);
}

/** The last `ERROR:` line yt-dlp printed, for the message of an unclassified failure. */
function lastError(log: string): string {
  const errors = log.split('\n').filter((line) => line.startsWith('ERROR:'));
  return (errors.at(-1) ?? log.trim().split('\n').at(-1) ?? 'yt-dlp failed').replace(/^ERROR:\s*/, '');
}

/**
 * Turns yt-dlp's messages into one clear error. yt-dlp exits 0 when a filter or the size limit
 * skips the media, so the messages are read whatever the exit code.
 */
export function classifyFailure(log: string, limits: { maxSeconds: number; maxBytes: number }): ApiError {
  // A live stream fails the same filter: it has no end, so it is too long as well.
  if (/does not pass filter/.test(log)) return tooLong(limits.maxSeconds);
  if (/larger than max-filesize/.test(log)) return tooLarge(limits.maxBytes);
  const message = lastError(log);
  if (/Unsupported URL/i.test(log)) return new ApiError(422, 'unsupported_url', `No video or audio found at this URL: ${message}`);
  if (/timed out|ETIMEDOUT/i.test(log)) return new ApiError(504, 'download_timeout', `The download timed out: ${message}`);
  if (
    /Connection refused|Name or service not known|Temporary failure in name resolution|No route to host|Network is unreachable|getaddrinfo failed/i.test(log)
  ) {
    return new ApiError(502, 'host_unreachable', `The host cannot be reached: ${message}`);
  }
  const status = /HTTP Error (\d{3})/.exec(log)?.[1];
  return new ApiError(502, 'download_failed', `The download failed: ${message}`, status ? { http_status: Number(status) } : {});
}
