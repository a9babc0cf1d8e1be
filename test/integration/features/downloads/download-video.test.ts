// Black-box (the service as a process): a download is cancelled while its progress is read on /ws.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { removeDir, request, serverWithAdmin, tempDir } from '../../../helpers/timbre.js';
import { openEventSocket } from '../../../helpers/event-socket.js';

// Only loopback is ever contacted: the media server below listens on 127.0.0.1, and every URL
// the default server is given is refused by scheme or address before a connection is made.
const LIMITS = ['--rate-limit', 'audio:process=1000', '--rate-limit', 'system:read=1000', '--rate-limit', 'ws:connect=100'];
const MEDIA_SECONDS = 4;

interface MediaServer {
  base: string;
  /** Resolves when the slow route has sent its first bytes: the download is under way. */
  slowStarted: Promise<void>;
  close(): Promise<void>;
}

/** Streams a file a kilobyte at a time, so a download of it stays running until cancelled. */
function streamSlowly(response: ServerResponse, file: Buffer, onFirstChunk: () => void): void {
  response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': file.length });
  let offset = 0;
  const timer = setInterval(() => {
    response.write(file.subarray(offset, offset + 1024));
    if (offset === 0) onFirstChunk();
    offset += 1024;
    if (offset >= file.length) clearInterval(timer);
  }, 200);
  response.once('close', () => clearInterval(timer));
}

async function startMediaServer(media: string): Promise<MediaServer> {
  const file = await readFile(media);
  let markStarted!: () => void;
  const slowStarted = new Promise<void>((resolve) => (markStarted = resolve));
  const server = http.createServer((req, res) => {
    if (req.url === '/media.mp4') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': file.length });
      createReadStream(media).pipe(res);
    } else if (req.url === '/slow.mp4') {
      streamSlowly(res, file, markStarted);
    } else if (req.url === '/announced-huge.mp4') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 50_000_000 });
      res.end(file);
    } else if (req.url === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><p>No media here.</p></body></html>');
    } else {
      res.writeHead(404).end();
    }
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    slowStarted,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function makeMedia(dir: string): Promise<string> {
  const media = join(dir, 'media.mp4');
  await promisify(execFile)('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${MEDIA_SECONDS}`,
    '-f',
    'lavfi',
    '-i',
    `color=c=blue:s=64x64:d=${MEDIA_SECONDS}`,
    '-shortest',
    '-c:v',
    'libx264',
    '-c:a',
    'aac',
    media,
  ]);
  return media;
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function downloadAssets(dataDir: string): unknown[] {
  const db = new Database(join(dataDir, 'timbre.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT id FROM assets WHERE origin = 'download'").all();
  } finally {
    db.close();
  }
}

/** Leftovers of unfinished downloads in the service's temporary folder (absent counts as empty). */
async function downloadLeftovers(dataDir: string): Promise<string[]> {
  return readdir(join(dataDir, 'downloads')).catch(() => []);
}

let workDir: string;
let media: MediaServer;
before(async () => {
  workDir = await tempDir('timbre-download-test-');
  media = await startMediaServer(await makeMedia(workDir));
});
after(async () => {
  await media.close();
  await removeDir(workDir);
});

describe('POST /api/download-video with private downloads allowed (test configuration)', () => {
  const fixture = serverWithAdmin({ args: ['--allow-private-downloads', 'true', '--max-download-bytes', '200000'], keyArgs: LIMITS });
  const download = (json: Record<string, unknown>) => request(fixture.server.url, 'POST', '/api/download-video', { key: fixture.admin.key, json });

  test('the audio of a local mp4 becomes an asset of plausible duration', async () => {
    const response = await download({ url: `${media.base}/media.mp4` });
    assert.equal(response.status, 200, response.text);
    assert.match(response.body.asset_id, /^asset_/);
    assert.match(response.body.job_id, /^\S+$/);
    assert.ok(Math.abs(response.body.duration - MEDIA_SECONDS) < 0.5, `duration ${response.body.duration}`);
    assert.equal(downloadAssets(fixture.server.dataDir).length, 1);
    assert.deepEqual(await downloadLeftovers(fixture.server.dataDir), []);
  });

  test('start and end cut a section', async () => {
    const response = await download({ url: `${media.base}/media.mp4`, start: 1, end: 3 });
    assert.equal(response.status, 200, response.text);
    assert.ok(Math.abs(response.body.duration - 2) < 0.5, `duration ${response.body.duration}`);
  });

  test('failures get clear codes', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ url: `${media.base}/page.html` }, 422, 'unsupported_url'],
      [{ url: `http://127.0.0.1:${await closedPort()}/x.mp4` }, 502, 'host_unreachable'],
      [{ url: `${media.base}/announced-huge.mp4` }, 413, 'media_too_large'],
      [{ url: `${media.base}/media.mp4`, start: 3, end: 2 }, 400, 'invalid_section'],
    ];
    for (const [body, status, code] of cases) {
      const response = await download(body);
      assert.equal(response.status, status, `${JSON.stringify(body)}: ${response.text}`);
      assert.equal(response.body.error.code, code, JSON.stringify(body));
    }
    assert.deepEqual(await downloadLeftovers(fixture.server.dataDir), []);
  });

  test('a cancelled download ends cancelled and leaves no asset and no temporary files', async () => {
    const before = downloadAssets(fixture.server.dataDir).length;
    const socket = openEventSocket(fixture.server.url, { key: fixture.admin.key });
    const events: { type: string; data: { job_id: string } }[] = [];
    socket.on('message', (raw) => events.push(JSON.parse(String(raw))));
    await new Promise((resolve) => socket.once('open', resolve));
    const accepted = await download({ url: `${media.base}/slow.mp4`, async: true });
    assert.equal(accepted.status, 202, accepted.text);
    const jobId = accepted.body.job_id;
    await media.slowStarted;
    const cancelled = await request(fixture.server.url, 'POST', '/api/job/cancel', { key: fixture.admin.key, json: { job_id: jobId } });
    assert.equal(cancelled.status, 200, cancelled.text);
    while (!events.some((event) => event.data.job_id === jobId && /^job\.(cancelled|completed|failed)$/.test(event.type))) {
      await new Promise((resolve) => socket.once('message', resolve));
    }
    socket.close();
    const final = events.filter((event) => event.data.job_id === jobId).at(-1);
    assert.equal(final?.type, 'job.cancelled');
    assert.equal(downloadAssets(fixture.server.dataDir).length, before);
    assert.deepEqual(await downloadLeftovers(fixture.server.dataDir), []);
  });
});

describe('POST /api/download-video limits', () => {
  const fixture = serverWithAdmin({ args: ['--allow-private-downloads', 'true', '--max-download-seconds', '2'], keyArgs: LIMITS });

  test('media longer than the limit is refused, whole or as a section', async () => {
    for (const body of [{ url: `${media.base}/media.mp4` }, { url: `${media.base}/media.mp4`, start: 0, end: 3 }]) {
      const response = await request(fixture.server.url, 'POST', '/api/download-video', { key: fixture.admin.key, json: body });
      assert.equal(response.status, 413, response.text);
      assert.equal(response.body.error.code, 'media_too_long');
    }
    assert.deepEqual(downloadAssets(fixture.server.dataDir), []);
  });
});

describe('POST /api/download-video on a default server refuses internal URLs', () => {
  const fixture = serverWithAdmin({ keyArgs: LIMITS });

  test('schemes other than http(s) and internal addresses are refused before any connection', async () => {
    const cases: [string, number, string][] = [
      ['file:///etc/passwd', 400, 'url_scheme_not_allowed'],
      ['ftp://example.com/x', 400, 'url_scheme_not_allowed'],
      ['http://169.254.169.254/', 403, 'url_address_not_allowed'],
      ['http://10.0.0.1/', 403, 'url_address_not_allowed'],
      ['http://[::1]/', 403, 'url_address_not_allowed'],
      ['http://localhost/', 403, 'url_address_not_allowed'],
      [`${media.base}/media.mp4`, 403, 'url_address_not_allowed'],
    ];
    for (const [url, status, code] of cases) {
      const response = await request(fixture.server.url, 'POST', '/api/download-video', { key: fixture.admin.key, json: { url } });
      assert.equal(response.status, status, `${url}: ${response.text}`);
      assert.equal(response.body.error.code, code, url);
    }
    const internal = await request(fixture.server.url, 'POST', '/api/download-video', { key: fixture.admin.key, json: { url: 'http://169.254.169.254/' } });
    assert.deepEqual(internal.body.error.details, { host: '169.254.169.254', address: '169.254.169.254' });
    assert.deepEqual(downloadAssets(fixture.server.dataDir), []);
  });

  test('the body is validated', async () => {
    for (const json of [{}, { url: `http://x/${'a'.repeat(2048)}` }, { url: 'http://10.0.0.1/', start: -1 }, { url: 'http://10.0.0.1/', extra: 1 }]) {
      const response = await request(fixture.server.url, 'POST', '/api/download-video', { key: fixture.admin.key, json });
      assert.equal(response.status, 400, JSON.stringify(json).slice(0, 80));
      assert.equal(response.body.error.code, 'invalid_request');
    }
  });
});
