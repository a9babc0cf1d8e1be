import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/platform/config.js';

test('defaults: loopback, port 8765, data under the XDG data home', () => {
  const config = loadConfig({ HOME: '/home/ada', XDG_DATA_HOME: '/home/ada/.local/share' });
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 8765);
  assert.equal(config.dataDir, '/home/ada/.local/share/timbre');
  assert.equal(config.modelsDir, join(config.dataDir, 'models'));
  assert.deepEqual(config.corsOrigins, []);
});

test('environment variables override defaults and flags override the environment', () => {
  const env = { TIMBRE_PORT: '9000', TIMBRE_HOST: '0.0.0.0', TIMBRE_DATA_DIR: '/srv/timbre', TIMBRE_ALLOWED_HOSTS: 'box.lan, tts.lan' };
  const fromEnv = loadConfig(env);
  assert.equal(fromEnv.port, 9000);
  assert.equal(fromEnv.host, '0.0.0.0');
  assert.deepEqual(fromEnv.allowedHosts, ['box.lan', 'tts.lan']);
  const fromFlags = loadConfig(env, { port: '0', 'models-dir': '/models' });
  assert.equal(fromFlags.port, 0);
  assert.equal(fromFlags.modelsDir, '/models');
  assert.equal(fromFlags.dataDir, '/srv/timbre');
});

test('a malformed number names the setting it came from', () => {
  assert.throws(
    () => loadConfig({ TIMBRE_PORT: 'eighty' }),
    (error: Error) => error instanceof ConfigError && /TIMBRE_PORT/.test(error.message),
  );
  assert.throws(() => loadConfig({}, { port: '70000' }), /--port must be an integer from 0 to 65535/);
});

test('clones start from every built-in engine unless the setting names some of them', () => {
  assert.deepEqual(loadConfig({}).cloneBaseEngines, ['pico', 'espeak', 'festival', 'flite', 'openjtalk', 'rhvoice']);
  assert.deepEqual(loadConfig({ TIMBRE_CLONE_BASE_ENGINES: 'rhvoice, flite,rhvoice' }).cloneBaseEngines, ['rhvoice', 'flite']);
  assert.throws(() => loadConfig({ TIMBRE_CLONE_BASE_ENGINES: 'rhvoice,kokoro' }), /TIMBRE_CLONE_BASE_ENGINES must list some of pico, espeak/);
  assert.throws(() => loadConfig({}, { 'clone-base-engines': ' , ' }), /--clone-base-engines must list some of/);
});
