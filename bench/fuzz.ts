/**
 * `npm run fuzz -- [--runs N] [--seed S]`: the fuzz test at any size. Starts the real service on a
 * fresh data directory, sends N generated requests to every operation of its OpenAPI document and
 * prints what broke a rule (a 5xx, an error outside the envelope, no answer) with the figures.
 */
import { parseArgs } from 'node:util';
import { ALL_SCOPES } from '../src/features/access/scopes.js';
import { fuzz, prepareFuzzTargets, type OpenApiDocument } from '../test/helpers/fuzz.js';
import { createKeyWithCli, removeDir, request, startTimbre, tempDir } from '../test/helpers/timbre.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '200' }, seed: { type: 'string', default: String(Date.now() % 1_000_000) } } });
const runs = Number(values.runs);
const seed = Number(values.seed);
const dataDir = await tempDir('timbre-fuzz-');
const admin = await createKeyWithCli(
  dataDir,
  'fuzz',
  ALL_SCOPES.flatMap((scope) => ['--rate-limit', `${scope}=100000`]),
);
const server = await startTimbre({ dataDir, args: ['--queue-max', '100000'] });
try {
  const started = performance.now();
  const document = (await request(server.url, 'GET', '/api/openapi.json', { key: admin.key })).body as OpenApiDocument;
  const known = await prepareFuzzTargets(server.url, admin.key);
  const result = await fuzz({ url: server.url, key: admin.key, document, known, runs, seed });
  const alive = (await request(server.url, 'GET', '/api/system/info', { key: admin.key })).status === 200 && server.process.exitCode === null;
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `seed ${seed}: ${result.sent} requests to ${result.operations} operations in ${seconds.toFixed(0)} s; ${result.findings.length} broke a rule; service ${alive ? 'alive' : 'DOWN'}`,
  );
  console.log(
    `statuses: ${Object.entries(result.statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ')}`,
  );
  for (const finding of result.findings.slice(0, 50)) console.log(`- ${finding.problem}\n    ${finding.request}`);
  process.exitCode = result.findings.length === 0 && alive ? 0 : 1;
} finally {
  await server.stop();
  await removeDir(dataDir);
}
