import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RouteTable } from '../../../../src/platform/http/route-table.js';

test('methods are found for concrete paths of parametric routes', () => {
  const table = new RouteTable();
  table.add('/api/api-keys/:key_id', ['PATCH', 'DELETE']);
  table.add('/api/api-keys/:key_id/revoke', 'POST');
  assert.deepEqual(table.methodsFor('/api/api-keys/key_1'), ['DELETE', 'PATCH']);
  assert.deepEqual(table.methodsFor('/api/api-keys/key_1/revoke'), ['POST']);
  assert.deepEqual(table.methodsFor('/api/api-keys/a/b/c'), []);
});
