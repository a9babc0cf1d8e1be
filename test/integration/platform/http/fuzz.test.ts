// Black-box (the service as a process): the fuzzer drives a URL and the service process must still be running afterwards.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fuzz, prepareFuzzTargets, type OpenApiDocument } from '../../../helpers/fuzz.js';
import { request, serverWithAdmin } from '../../../helpers/timbre.js';

/** Requests per operation in CI; `npm run fuzz -- --runs N` sends more. */
const RUNS = 50;
const SEED = 20261123;

describe('malformed requests to every operation of the OpenAPI document', () => {
  const fixture = serverWithAdmin({ args: ['--queue-max', '100000'] });

  test(`${RUNS} generated requests and nested JSON bodies per operation: no 5xx, every error in the envelope, the service still answering`, async () => {
    const document = (await request(fixture.server.url, 'GET', '/api/openapi.json', { key: fixture.admin.key })).body as OpenApiDocument;
    const known = await prepareFuzzTargets(fixture.server.url, fixture.admin.key);
    const result = await fuzz({ url: fixture.server.url, key: fixture.admin.key, document, known, runs: RUNS, seed: SEED });
    assert.ok(result.operations >= 60, `${result.operations} operations`);
    // Every operation but GETs got a dozen bodies nested at, just past and far past TIMBRE_MAX_JSON_DEPTH.
    const withBodies = Object.values(document.paths).flatMap((operations) => Object.keys(operations).filter((method) => method !== 'get')).length;
    assert.ok(result.nested >= 12 * withBodies, `${result.nested} nested bodies for ${withBodies} operations`);
    assert.deepEqual(result.findings.slice(0, 20), [], `${result.findings.length} of ${result.sent} requests broke a rule`);
    assert.equal(fixture.server.process.exitCode, null, 'the service is still running');
    assert.equal((await request(fixture.server.url, 'GET', '/api/system/info', { key: fixture.admin.key })).status, 200);
  });
});
