import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classifyFailure, ytDlpArgs, type YtDlpRequest } from '../../../../src/features/downloads/yt-dlp.js';

const LIMITS = { maxSeconds: 60, maxBytes: 1000 };

describe('yt-dlp', () => {
  test('its messages become clear error codes', () => {
    const cases: [string, number, string][] = [
      ['[generic] x: does not pass filter (!is_live & duration <=? 60), skipping ..', 413, 'media_too_long'],
      ['[download] File is larger than max-filesize (5000 bytes > 1000 bytes). Aborting.', 413, 'media_too_large'],
      ['ERROR: Unsupported URL: http://example.com/', 422, 'unsupported_url'],
      ['ERROR: [generic] Unable to download webpage: The read operation timed out', 504, 'download_timeout'],
      ['ERROR: Unable to download webpage: <urlopen error [Errno 111] Connection refused>', 502, 'host_unreachable'],
      ['ERROR: [generic] Unable to download webpage: HTTP Error 404: Not Found', 502, 'download_failed'],
    ];
    for (const [log, status, code] of cases) {
      const error = classifyFailure(log, LIMITS);
      assert.equal(error.statusCode, status, log);
      assert.equal(error.code, code, log);
    }
    assert.equal(classifyFailure('ERROR: HTTP Error 404: Not Found', LIMITS).details.http_status, 404);
  });

  test('arguments: limits, proxy, no playlists, the URL after --, and a section end when only start is given', () => {
    const request: YtDlpRequest = {
      url: 'https://example.com/watch?v=1',
      dir: '/tmp/d',
      proxy: 'http://127.0.0.1:9',
      maxSeconds: 60,
      maxBytes: 1000,
      socketTimeoutSeconds: 5,
      start: 10,
      signal: new AbortController().signal,
      onProgress: () => {},
      onStage: () => {},
    };
    const args = ytDlpArgs(request);
    const after = (flag: string) => args[args.indexOf(flag) + 1];
    assert.equal(after('--proxy'), 'http://127.0.0.1:9');
    assert.equal(after('--max-filesize'), '1000');
    assert.equal(after('--match-filter'), '!is_live & duration <=? 70');
    assert.equal(after('--download-sections'), '*10-71');
    assert.ok(args.includes('--no-playlist') && args.includes('--ignore-config'));
    assert.deepEqual(args.slice(-2), ['--', request.url]);
    assert.equal(ytDlpArgs({ ...request, start: undefined }).includes('--download-sections'), false);
  });
});
