import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { renderOpenApiDocument } from '../../../../src/app/openapi-document.js';
import { renderClientTypes } from '../../../../scripts/client-types.js';
import { REPO_ROOT } from '../../../helpers/paths.js';

// Built in this process from the route schemas, as `npm run openapi` builds it: no server needed.
describe('OpenAPI document', () => {
  test('the checked-in docs/openapi.json and the client types are the ones the code generates (run npm run openapi)', async () => {
    const checkedIn = await readFile(join(REPO_ROOT, 'docs/openapi.json'), 'utf8');
    const document = await renderOpenApiDocument();
    assert.equal(checkedIn, document, 'docs/openapi.json is stale: run `npm run openapi`');
    const types = await readFile(join(REPO_ROOT, 'src/client/schema.d.ts'), 'utf8');
    assert.equal(types, await renderClientTypes(document), 'src/client/schema.d.ts is stale: run `npm run openapi`');
  });
});
