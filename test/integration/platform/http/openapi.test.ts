import { join } from 'node:path';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { renderOpenApiDocument } from '../../../../src/app/openapi-document.js';
import { request, serverWithAdmin } from '../../../helpers/timbre.js';
import { REPO_ROOT } from '../../../helpers/paths.js';

describe('OpenAPI document', () => {
  const fixture = serverWithAdmin({ keyArgs: [] });

  test('the checked-in docs/openapi.json is the one the code generates (run npm run openapi)', async () => {
    const checkedIn = await readFile(join(REPO_ROOT, 'docs/openapi.json'), 'utf8');
    assert.equal(checkedIn, await renderOpenApiDocument(), 'docs/openapi.json is stale: run `npm run openapi`');
  });

  test('GET /api/openapi.json serves OpenAPI 3.1 listing every route with its scope', async () => {
    const { status, body } = await request(fixture.server.url, 'GET', '/api/openapi.json', { key: fixture.admin.key });
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
    for (const { path, method, operation } of operations) {
      assert.match(String(operation['x-scope']), /^[a-z]+:[a-z]+$/, `${method} ${path} has no scope`);
      assert.deepEqual(operation.security, [{ ApiKey: [] }]);
    }
    assert.equal(body.paths['/ws'].get['x-scope'], 'ws:connect');
    assert.ok(body.components.schemas.ErrorEnvelope);
  });
});
