import { join } from 'node:path';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { injectRequest, inProcessWithAdmin } from '../../../helpers/in-process.js';
import { tempDir, removeDir } from '../../../helpers/timbre.js';
import { REPO_ROOT } from '../../../helpers/paths.js';

const run = promisify(execFile);

// The staleness check of docs/openapi.json lives in test/unit/platform/http/openapi-staleness.test.ts.
describe('OpenAPI document', () => {
  const fixture = inProcessWithAdmin({ keyArgs: [] });

  test('Redocly lint --extends=recommended-strict finds no error in the served document', async () => {
    const { body } = await injectRequest(fixture.server, 'GET', '/api/openapi.json', { key: fixture.admin.key });
    const dir = await tempDir();
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(body));
      const redocly = join(REPO_ROOT, 'node_modules/.bin/redocly');
      // Offline: no telemetry and no update check.
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
      const result = await run(redocly, ['lint', '--extends=recommended-strict', '--format=json', file], { env, maxBuffer: 64 * 1024 * 1024 }).catch(
        (error: { stdout: string }) => ({ stdout: error.stdout }),
      );
      const report: { problems: { severity: string; ruleId: string; message: string; location: { pointer: string }[] }[] } = JSON.parse(result.stdout);
      const errors = report.problems.filter((problem) => problem.severity === 'error');
      assert.deepEqual(
        errors.map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`),
        [],
      );
    } finally {
      await removeDir(dir);
    }
  });

  test('GET /api/openapi.json serves OpenAPI 3.1 listing every route with its scope', async () => {
    const { status, body } = await injectRequest(fixture.server, 'GET', '/api/openapi.json', { key: fixture.admin.key });
    assert.equal(status, 200);
    assert.equal(body.openapi, '3.1.0');
    const operations = Object.entries(body.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    for (const expected of [
      'get /api/api-keys',
      'post /api/api-keys',
      'delete /api/api-keys/{key_id}',
      'post /api/api-keys/{key_id}/revoke',
      'get /api/system/stats',
      'get /api/system/info',
      'get /api/system/status',
      'get /api/system/gpu',
      'get /ws',
    ]) {
      assert.ok(
        operations.some(({ path, method }) => `${method} ${path}` === expected),
        `${expected} missing`,
      );
    }
    // Only the studio's files and signing in to it are public; every other operation needs a key or the studio's session.
    const PUBLIC = ['get /', 'get /assets/{file}', 'post /api/session', 'get /api/session', 'delete /api/session'];
    for (const { path, method, operation } of operations) {
      if (PUBLIC.includes(`${method} ${path}`)) {
        assert.deepEqual([operation['x-scope'], operation.security], [undefined, []], `${method} ${path}`);
        continue;
      }
      // The MCP endpoint lets any key in (not the studio's session); each tool then needs the scope of the route it calls.
      if (`${method} ${path}` === 'post /mcp') {
        assert.deepEqual([operation['x-scope'], operation.security], [undefined, [{ ApiKey: [] }]]);
        continue;
      }
      assert.match(String(operation['x-scope']), /^[a-z]+:[a-z]+$/, `${method} ${path} has no scope`);
      assert.deepEqual(operation.security, [{ ApiKey: [] }, { StudioSession: [] }]);
    }
    assert.equal(body.paths['/ws'].get['x-scope'], 'ws:connect');
    assert.ok(body.components.schemas.ErrorEnvelope);
  });
});
