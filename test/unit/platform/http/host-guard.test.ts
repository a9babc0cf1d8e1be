import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hostName, isLoopbackName } from '../../../../src/platform/http/host-guard.js';

test('host names are read without port or brackets', () => {
  assert.equal(hostName('LocalHost:8765'), 'localhost');
  assert.equal(hostName('[::1]:8765'), '::1');
  assert.equal(hostName('127.0.0.1'), '127.0.0.1');
});

test('only loopback names and addresses count as loopback', () => {
  for (const name of ['localhost', 'app.localhost', '127.0.0.1', '127.1.2.3', '::1']) assert.ok(isLoopbackName(name), name);
  for (const name of ['localhost.evil.com', 'evil.com', '10.0.0.1', '0.0.0.0', '::', '128.0.0.1', 'localhostx']) assert.ok(!isLoopbackName(name), name);
});
