import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../../../../src/platform/errors.js';
import { parseScript, type ScriptProblem } from '../../../../src/platform/text/script.js';

const VOICES = { Alice: 'voice-a', Bob: 'voice-b', 'Dr. Watson': 'voice-w' };

/** The problems of a script that must be refused. */
function problemsOf(script: string, voices: Record<string, string> = VOICES): ScriptProblem[] {
  try {
    parseScript(script, voices);
  } catch (error) {
    assert.ok(error instanceof ApiError);
    assert.equal(error.statusCode, 400);
    assert.equal(error.code, 'script_invalid');
    return error.details.problems as ScriptProblem[];
  }
  assert.fail('the script was accepted');
}

test('one utterance per line, with its voice and line number', () => {
  assert.deepEqual(parseScript('Alice: Hello, Bob.\nBob: Hi Alice!', VOICES), [
    { speaker: 'Alice', voice_id: 'voice-a', text: 'Hello, Bob.', line: 1 },
    { speaker: 'Bob', voice_id: 'voice-b', text: 'Hi Alice!', line: 2 },
  ]);
});

test('names are trimmed and case-insensitive; the speaker is spelled as in the voices map', () => {
  const segments = parseScript('  alice  : One.\nBOB:Two.\ndr. watson: Three.', VOICES);
  assert.deepEqual(
    segments.map((s) => [s.speaker, s.voice_id, s.text]),
    [
      ['Alice', 'voice-a', 'One.'],
      ['Bob', 'voice-b', 'Two.'],
      ['Dr. Watson', 'voice-w', 'Three.'],
    ],
  );
  assert.equal(parseScript('Alice: x', { ' Alice ': 'voice-a' })[0]!.speaker, 'Alice');
});

test('blank lines and # comments are ignored; line numbers count them', () => {
  const script = '# Scene 1\n\nAlice: Ready?\n   \n  # stage direction\nBob: Ready.\n';
  assert.deepEqual(
    parseScript(script, VOICES).map((s) => [s.speaker, s.line]),
    [
      ['Alice', 3],
      ['Bob', 6],
    ],
  );
});

test('a line without a name continues the previous utterance', () => {
  const script = 'Alice: It was a long day,\n  and a longer night.\n\nstill talking.\nBob: Indeed.';
  assert.deepEqual(parseScript(script, VOICES), [
    { speaker: 'Alice', voice_id: 'voice-a', text: 'It was a long day, and a longer night. still talking.', line: 1 },
    { speaker: 'Bob', voice_id: 'voice-b', text: 'Indeed.', line: 5 },
  ]);
});

test('a name may stand alone with its text on the following lines', () => {
  assert.deepEqual(parseScript('Alice:\nHello there.', VOICES), [{ speaker: 'Alice', voice_id: 'voice-a', text: 'Hello there.', line: 1 }]);
});

test('Windows line endings, full-width colons and colons inside the text', () => {
  const segments = parseScript('Alice：こんにちは。\r\nBob: See https://example.org at 10:30: now.\r\nhttps://example.org/more', VOICES);
  assert.deepEqual(
    segments.map((s) => s.text),
    ['こんにちは。', 'See https://example.org at 10:30: now. https://example.org/more'],
  );
});

test('an unknown speaker is refused with the known names', () => {
  const [problem, ...rest] = problemsOf('Alice: Hi.\nCarol: Hello.');
  assert.deepEqual(rest, []);
  assert.equal(problem!.line, 2);
  assert.match(problem!.problem, /"Carol".*Alice, Bob, Dr\. Watson/);
});

test('an empty utterance is refused', () => {
  assert.deepEqual(
    problemsOf('Alice: Hi.\nBob:   \n# nothing\nAlice: Bye.').map((p) => p.line),
    [2],
  );
});

test('text before any speaker is refused, line by line', () => {
  const problems = problemsOf('Once upon a time\nthere was a script.\nAlice: Hi.');
  assert.deepEqual(
    problems.map((p) => p.line),
    [1, 2],
  );
  assert.match(problems[0]!.problem, /before the first "Name:" line/);
});

test('an empty script is refused', () => {
  for (const script of ['', '\n\n', '# only a comment\n']) {
    assert.deepEqual(problemsOf(script), [{ line: 0, problem: 'The script has no utterances' }], JSON.stringify(script));
  }
});

test('every problem is listed at once, in line order', () => {
  const script = 'Intro line\nAlice: Fine.\nZed: Who?\n  more from Zed\nBob:\nEve: Hi';
  const error = (() => {
    try {
      parseScript(script, VOICES);
    } catch (caught) {
      return caught as ApiError;
    }
    assert.fail('the script was accepted');
  })();
  const problems = error.details.problems as ScriptProblem[];
  // Zed's continuation line is Zed's, not a second problem.
  assert.deepEqual(
    problems.map((p) => p.line),
    [1, 3, 5, 6],
  );
  assert.match(error.message, /^Invalid script: line 1: .*\(and 3 more problems\)$/);
});

test('voice names that differ only in case are refused as ambiguous', () => {
  assert.throws(
    () => parseScript('alice: Hi.', { Alice: 'voice-a', ALICE: 'voice-b' }),
    (error: unknown) => error instanceof ApiError && error.code === 'invalid_request' && /differ only in case/.test(error.message),
  );
});
