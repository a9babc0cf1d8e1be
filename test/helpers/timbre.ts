import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { statSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { promisify } from 'node:util';
import { ALL_BUDGETS } from '../../src/features/access/scopes.js';

const BIN = fileURLToPath(new URL('../../bin/timbre.mjs', import.meta.url));
const run = promisify(execFile);

/**
 * The CLI and the service run the compiled dist/, as a user's do; `npm test` builds it first. A single
 * test file run by hand after a change in src/ would test the old build, so it fails instead.
 */
let checkedBuild = false;
export function compiledTimbre(): string {
  if (checkedBuild) return BIN;
  const src = fileURLToPath(new URL('../../src', import.meta.url));
  const built = statSync(fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url)), { throwIfNoEntry: false });
  const changed = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .find((file) => statSync(join(src, file)).mtimeMs > (built?.mtimeMs ?? 0));
  if (changed !== undefined) throw new Error(`dist/ is ${built ? `older than src/${changed}` : 'missing'}: run npm run build:server`);
  checkedBuild = true;
  return BIN;
}

export async function tempDir(label = 'timbre-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), label));
}

/** Runs the `timbre` CLI as a user would. */
export async function cli(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; code: number }> {
  const bin = compiledTimbre();
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

export interface CreatedKey {
  key: string;
  key_id: string;
  scopes: string[];
  rate_limits: Record<string, number>;
}

/** A key made through the CLI (no rate limit applies to it), for setting up a test. */
export async function createKeyWithCli(dataDir: string, name: string, extra: string[] = []): Promise<CreatedKey> {
  const result = await cli(['keys', 'create', '--name', name, '--data-dir', dataDir, '--json', ...extra]);
  if (result.code !== 0) throw new Error(`keys create failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as CreatedKey;
}

export interface RunningTimbre {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  /** Waits for a line the service prints on stdout (another listener's address), answering its match. */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
  stop(): Promise<void>;
}

/** The address a starting `timbre serve` prints once it listens; fails with its stderr if it exits first. */
export function listeningUrl(child: ChildProcess): Promise<string> {
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  return new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk) => {
      stdout += String(chunk);
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`timbre exited with ${code} before listening:\n${stderr}`)));
  });
}

/** Starts the real service on a free port (port 0) and waits for the address it prints. */
export async function startTimbre(options: { dataDir?: string; env?: Record<string, string>; args?: string[] } = {}): Promise<RunningTimbre> {
  const dataDir = options.dataDir ?? (await tempDir());
  const child = spawn(process.execPath, [compiledTimbre(), 'serve', '--port', '0', '--data-dir', dataDir, ...(options.args ?? [])], {
    // Every response is checked against the API document; stop() fails on any mismatch.
    env: { ...process.env, TIMBRE_LOG_LEVEL: 'warn', TIMBRE_CONTRACT_CHECK: 'true', TIMBRE_MEASURE_VOICES_AFTER_SECONDS: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout?.on('data', (chunk) => {
    stdout += String(chunk);
  });
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stdout);
        if (!match) return false;
        child.stdout?.off('data', check);
        resolve(match);
        return true;
      };
      if (check()) return;
      child.stdout?.on('data', check);
      child.once('exit', (code) => reject(new Error(`timbre exited with ${code} before printing ${pattern}`)));
    });
  const url = await listeningUrl(child);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await assertContractKept(dataDir);
  };
  return { url, port: Number(new URL(url).port), dataDir, process: child, printed, stop };
}

/** Fails with every response the service sent that its OpenAPI document does not describe. */
export async function assertContractKept(dataDir: string): Promise<void> {
  const file = join(dataDir, 'contract-violations.jsonl');
  const text = await readFile(file, 'utf8').catch(() => '');
  if (!text) return;
  await rm(file, { force: true });
  const unique = [...new Set(text.trim().split('\n'))];
  throw new Error(`Responses the API document does not describe:\n${unique.join('\n')}`);
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export interface Response {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/** One HTTP request with full control over headers (including Host), answering the parsed JSON body. */
export function request(
  base: string,
  method: string,
  path: string,
  options: { key?: string; json?: unknown; body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<Response> {
  const url = new URL(path, base);
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['x-api-key'] = options.key;
  let payload = options.body;
  if (options.json !== undefined) {
    payload = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text, body });
      });
    });
    outgoing.on('error', reject);
    if (payload !== undefined) outgoing.write(payload);
    outgoing.end();
  });
}

export interface ServerFixture {
  server: RunningTimbre;
  admin: CreatedKey;
}

/**
 * Keys a test mints from the admin key share its budget, so the admin gets room in every budget
 * (later `--rate-limit` flags, a suite's own, override these).
 */
export const GENEROUS_LIMITS = ALL_BUDGETS.flatMap((budget) => ['--rate-limit', `${budget}=100000`]);

/**
 * Starts the service before the tests of the enclosing suite (with an admin key made through the
 * CLI, so setting up costs no rate limit) and stops it after them.
 */
export function serverWithAdmin(options: { args?: string[]; keyArgs?: string[] } = {}): ServerFixture {
  const fixture = {} as ServerFixture;
  before(async () => {
    fixture.server = await startTimbre({ args: options.args });
    fixture.admin = await createKeyWithCli(fixture.server.dataDir, 'admin', [...GENEROUS_LIMITS, ...(options.keyArgs ?? [])]);
  });
  after(async () => {
    await fixture.server.stop();
    await removeDir(fixture.server.dataDir);
  });
  return fixture;
}

/** A multipart POST: each file as a part named `file` (in order), then the text fields. */
export async function postMultipart(
  base: string,
  key: string,
  route: string,
  files: { name: string; bytes: Buffer }[],
  fields: Record<string, string> = {},
  send: typeof fetch = fetch,
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  const response = await send(new URL(route, base), { method: 'POST', headers: { 'x-api-key': key }, body: form });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
