import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { ApiError } from '../../../../src/platform/errors.js';
import { startGuardProxy } from '../../../../src/features/downloads/download-proxy.js';
import { assertDownloadable, blockedKind } from '../../../../src/features/downloads/url-guard.js';

// Every URL here is refused by scheme or by its resolved address before any connection is made;
// the only DNS name is localhost, which resolves from /etc/hosts.
const GUARDED = { allowPrivate: false };
const OPEN = { allowPrivate: true };

async function refusal(url: string, options = GUARDED): Promise<ApiError> {
  try {
    await assertDownloadable(url, options);
  } catch (error) {
    assert.ok(error instanceof ApiError, `${url}: ${String(error)}`);
    return error;
  }
  assert.fail(`${url} was allowed`);
}

describe('download URL guard', () => {
  test('only http and https are allowed, whatever the configuration', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://localhost/', 'data:text/plain,hi', 'javascript:alert(1)']) {
      for (const options of [GUARDED, OPEN]) {
        const error = await refusal(url, options);
        assert.equal(error.statusCode, 400, url);
        assert.equal(error.code, 'url_scheme_not_allowed', url);
      }
    }
  });

  test('a URL that cannot be parsed is a bad request', async () => {
    const error = await refusal('not a url');
    assert.equal(error.statusCode, 400);
    assert.equal(error.code, 'invalid_url');
  });

  test('loopback, link-local, private and other internal addresses are refused with the host and address', async () => {
    const cases: [string, string][] = [
      ['http://169.254.169.254/', '169.254.169.254'],
      ['http://10.0.0.1/', '10.0.0.1'],
      ['http://172.16.5.4/', '172.16.5.4'],
      ['http://192.168.1.1/', '192.168.1.1'],
      ['http://127.0.0.1:8765/', '127.0.0.1'],
      ['http://0.0.0.0/', '0.0.0.0'],
      ['http://100.64.0.1/', '100.64.0.1'],
      ['http://224.0.0.1/', '224.0.0.1'],
      ['http://[::1]/', '::1'],
      ['http://[::]/', '::'],
      ['http://[fe80::1]/', 'fe80::1'],
      ['http://[fd00::1]/', 'fd00::1'],
      ['http://[ff02::1]/', 'ff02::1'],
      // The URL parser writes these as ::ffff:a00:1 and 127.0.0.1; both still name internal hosts.
      ['http://[::ffff:10.0.0.1]/', '::ffff:a00:1'],
      ['http://2130706433/', '127.0.0.1'],
      ['https://0x7f.1/', '127.0.0.1'],
      // Addresses that lead to an internal IPv4 address through a translation or an old notation.
      ['http://[64:ff9b::a9fe:a9fe]/', '64:ff9b::a9fe:a9fe'],
      ['http://[2002:7f00:1::1]/', '2002:7f00:1::1'],
      ['http://[::a00:1]/', '::a00:1'],
      ['http://[fec0::1]/', 'fec0::1'],
      ['http://198.18.0.1/', '198.18.0.1'],
      ['http://192.0.0.8/', '192.0.0.8'],
      ['http://[64:ff9b:1::1]/', '64:ff9b:1::1'],
      ['http://[2001::1]/', '2001::1'],
      ['http://[2001:db8::1]/', '2001:db8::1'],
      ['http://255.255.255.255/', '255.255.255.255'],
    ];
    for (const [url, address] of cases) {
      const error = await refusal(url);
      assert.equal(error.statusCode, 403, url);
      assert.equal(error.code, 'url_address_not_allowed', url);
      assert.equal(error.details.address, address, url);
      assert.equal(typeof error.details.host, 'string', url);
    }
  });

  test('localhost is refused by default: the name is resolved, not trusted', async () => {
    const error = await refusal('http://localhost/');
    assert.equal(error.code, 'url_address_not_allowed');
    assert.equal(error.details.host, 'localhost');
    assert.ok(blockedKind(String(error.details.address)) === 'loopback');
  });

  test('with private downloads allowed, the same addresses pass', async () => {
    for (const url of ['http://localhost/', 'http://[::1]/', 'http://10.0.0.1/', 'http://169.254.169.254/', 'https://127.0.0.1:9/x.mp4']) {
      const parsed = await assertDownloadable(url, OPEN);
      assert.equal(parsed.href, new URL(url).href);
    }
  });

  test('public addresses pass (checked by literal, no lookup leaves the machine)', async () => {
    for (const url of ['http://93.184.215.14/video', 'https://[2606:4700::1111]/']) {
      const parsed = await assertDownloadable(url, GUARDED);
      assert.equal(parsed.protocol.startsWith('http'), true);
    }
  });

  test('range boundaries are exact', () => {
    assert.equal(blockedKind('172.15.255.255'), undefined);
    assert.equal(blockedKind('172.32.0.0'), undefined);
    assert.equal(blockedKind('100.63.255.255'), undefined);
    assert.equal(blockedKind('100.128.0.0'), undefined);
    assert.equal(blockedKind('8.8.8.8'), undefined);
    assert.equal(blockedKind('fec0::1'), 'site-local');
    assert.equal(blockedKind('198.17.255.255'), undefined);
    assert.equal(blockedKind('198.20.0.0'), undefined);
    assert.equal(blockedKind('64:ff9b::808:808'), undefined, 'NAT64 to a public address, as DNS64 networks answer');
    assert.equal(blockedKind('2002:808:808::1'), undefined, '6to4 from a public address');
    assert.match(blockedKind('64:ff9b::a00:1') ?? '', /^private .*NAT64/);
    assert.match(blockedKind('2002:c0a8:101::1') ?? '', /^private .*6to4/);
    assert.equal(blockedKind('172.31.255.255'), 'private');
    assert.equal(blockedKind('100.127.255.255'), 'shared (CGNAT)');
    assert.equal(blockedKind('febf::1'), 'link-local');
    assert.equal(blockedKind('::ffff:169.254.169.254'), 'link-local');
  });
});

/** Sends one proxied request (absolute-form GET, or CONNECT) and answers the proxy's status. */
function throughProxy(proxyUrl: string, method: 'GET' | 'CONNECT', target: string): Promise<number> {
  const proxy = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: proxy.hostname, port: proxy.port, method, path: target, headers: { host: target } });
    outgoing.once('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.once('connect', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    outgoing.once('error', reject);
    outgoing.end();
  });
}

describe('guard proxy (every hop yt-dlp makes, redirects included)', () => {
  test('internal targets are refused before any connection and the refusal is kept', async () => {
    // A real server on loopback that must never be reached through the guarded proxy.
    let reached = 0;
    const target = http.createServer((_request, response) => {
      reached += 1;
      response.end('reached');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const { port } = target.address() as AddressInfo;
    const proxy = await startGuardProxy({ allowPrivate: false, connectTimeoutMs: 1000 });
    try {
      assert.equal(await throughProxy(proxy.url, 'GET', `http://localhost:${port}/media.mp4`), 403);
      assert.equal(proxy.refusal()?.code, 'url_address_not_allowed');
      assert.equal(await throughProxy(proxy.url, 'CONNECT', '169.254.169.254:443'), 403);
      assert.equal(await throughProxy(proxy.url, 'GET', 'http://10.0.0.1/'), 403);
      assert.equal(await throughProxy(proxy.url, 'CONNECT', '[::1]:443'), 403);
      assert.equal(reached, 0);
      // The first refusal is the one reported.
      assert.equal(proxy.refusal()?.details.host, 'localhost');
    } finally {
      await proxy.close();
      await new Promise((resolve) => target.close(resolve));
    }
  });

  test('with private downloads allowed it forwards to the checked address', async () => {
    const target = http.createServer((request, response) => response.end(`path ${request.url}`));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const { port } = target.address() as AddressInfo;
    const proxy = await startGuardProxy({ allowPrivate: true, connectTimeoutMs: 1000 });
    try {
      assert.equal(await throughProxy(proxy.url, 'GET', `http://localhost:${port}/a?b=1`), 200);
      assert.equal(proxy.refusal(), undefined);
    } finally {
      await proxy.close();
      await new Promise((resolve) => target.close(resolve));
    }
  });
});
