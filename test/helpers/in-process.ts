import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { parseArgs } from 'node:util';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app/http.js';
import { createServices, type Services } from '../../src/app/services.js';
import { parseLimits, parseScopes } from '../../src/cli/keys.js';
import { publicView } from '../../src/features/access/index.js';
import { ALL_BUDGETS, type RateLimits } from '../../src/features/access/scopes.js';
import { loadConfig, type Config } from '../../src/platform/config.js';
import { IN_PROCESS_ORIGIN, injectingFetch } from './inject-fetch.js';
import { assertContractKept, GENEROUS_LIMITS, postMultipart, removeDir, tempDir, type CreatedKey, type Response } from './timbre.js';

/**
 * The whole service built in this process and driven through Fastify's `inject()`: the same
 * routes, hooks, store and engine host as `timbre serve`, without a process to start or a port to
 * open. For HTTP behaviour that needs no process of its own (tests that kill, fill or time a real
 * server still use startTimbre).
 */
export interface InProcessTimbre {
  app: FastifyInstance;
  services: Services;
  config: Config;
  dataDir: string;
  /** The origin to build request URLs on; only their path and query reach the service. */
  url: string;
  /** A `fetch` answered by the service through inject (the whole body collected first). */
  fetch: typeof fetch;
  /** A key with every scope and room in every budget, made as the CLI makes keys (no caller). */
  admin: { key: string; keyId: string };
  /** `inject` with the Host the service accepts and, unless `key` is null, the admin's key. */
  call(options: InjectOptions & { key?: string | null }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** Every budget at this limit: a test's own requests never meet the default budgets by accident. */
const ROOMY: RateLimits = Object.fromEntries(ALL_BUDGETS.map((budget) => [budget, 100_000]));

/** `flags` are `timbre serve` flags without their dashes (`{ 'max-text-chars': '100' }`). */
export async function startInProcess(options: { flags?: Record<string, string>; env?: NodeJS.ProcessEnv } = {}): Promise<InProcessTimbre> {
  const dataDir = await tempDir();
  const config = loadConfig(
    { TIMBRE_LOG_LEVEL: 'warn', TIMBRE_CONTRACT_CHECK: 'true', TIMBRE_MEASURE_VOICES_AFTER_SECONDS: '0', ...options.env },
    { 'data-dir': dataDir, port: '0', ...options.flags },
  );
  const services = createServices(config);
  await services.recover();
  const app = await buildApp(config, services);
  await app.ready();
  const created = services.keys.create({ name: 'admin', rateLimits: ROOMY });
  const admin = { key: created.secret, keyId: created.record.keyId };
  const timbre: InProcessTimbre = {
    app,
    services,
    config,
    dataDir,
    url: IN_PROCESS_ORIGIN,
    fetch: (input, init) => injectingFetch(timbre)(input, init),
    admin,
    call: ({ key, headers, ...rest }) =>
      app.inject({
        ...rest,
        headers: { host: '127.0.0.1', ...(key === null ? {} : { 'x-api-key': key ?? admin.key }), ...headers },
      }),
    close: async () => {
      await app.close();
      await services.close();
      await assertContractKept(dataDir);
      await removeDir(dataDir);
    },
  };
  return timbre;
}

/** The in-process counterpart of `serverWithAdmin`: `server` drives the service through inject. */
export interface InProcessFixture {
  server: InProcessTimbre;
  admin: CreatedKey;
}

/**
 * Builds the service in this process before the tests of the enclosing suite (with an admin key
 * minted as `timbre keys create` mints it, `keyArgs` being its flags after GENEROUS_LIMITS) and
 * closes it after them.
 */
export function inProcessWithAdmin(options: { flags?: Record<string, string>; env?: NodeJS.ProcessEnv; keyArgs?: string[] } = {}): InProcessFixture {
  const fixture = {} as InProcessFixture;
  before(async () => {
    fixture.server = await startInProcess({ flags: options.flags, env: options.env });
    fixture.admin = mintKey(fixture.server, 'admin', [...GENEROUS_LIMITS, ...(options.keyArgs ?? [])]);
  });
  after(() => fixture.server.close());
  return fixture;
}

/** A root key made through the service as `timbre keys create --name NAME ...args` makes it (`--scopes`, `--rate-limit`). */
export function mintKey(timbre: InProcessTimbre, name: string, args: string[] = []): CreatedKey {
  const { values } = parseArgs({ args, options: { scopes: { type: 'string' }, 'rate-limit': { type: 'string', multiple: true } } });
  const created = timbre.services.keys.create({ name, scopes: parseScopes(values.scopes), rateLimits: parseLimits(values['rate-limit'] ?? []) });
  return { ...publicView(created.record), key: created.secret };
}

/** `request()` of timbre.ts through inject: the same options and answer, no key unless given. */
export async function injectRequest(
  timbre: InProcessTimbre,
  method: string,
  path: string,
  options: { key?: string; json?: unknown; body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  let payload = options.body;
  if (options.json !== undefined) {
    payload = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const answer = await timbre.call({
    method,
    url: path,
    key: options.key ?? null,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
  let body: unknown;
  try {
    body = answer.body ? JSON.parse(answer.body) : undefined;
  } catch {
    body = undefined;
  }
  const answerHeaders = Object.fromEntries(Object.entries(answer.headers).map(([name, value]) => [name, typeof value === 'number' ? String(value) : value]));
  return { status: answer.statusCode, headers: answerHeaders, text: answer.body, body };
}

/** `postMultipart()` of timbre.ts through inject: the form is encoded by a real `FormData`. */
export function injectMultipart(
  timbre: InProcessTimbre,
  key: string,
  route: string,
  files: { name: string; bytes: Buffer }[],
  fields: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  return postMultipart(timbre.url, key, route, files, fields, timbre.fetch);
}

/** Every file under a data directory but the database's own: what stored work left on disk. */
export async function storedFiles(dataDir: string): Promise<string[]> {
  const entries = await readdir(dataDir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && !entry.name.startsWith('timbre.db')).map((entry) => join(entry.parentPath, entry.name));
}
