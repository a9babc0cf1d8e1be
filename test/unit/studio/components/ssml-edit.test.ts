import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { asSsml, insertBreak, isSsml, wrapSelection } from '../../../../studio/src/components/ssml-edit.js';

describe('SSML edits of the Speak text box', () => {
  test('the first edit makes a plain text SSML that still says the same, its special characters as entities', () => {
    const text = 'Tom & Jerry <3 fish';
    const edit = asSsml({ text, start: text.indexOf('fish'), end: text.length });
    assert.equal(edit.text, '<speak>Tom &amp; Jerry &lt;3 fish</speak>');
    assert.equal(edit.text.slice(edit.start, edit.end), 'fish', 'the selection follows the characters it held');
  });

  test('a text already rooted in <speak> is kept as written, markup in the selection included', () => {
    const text = '<speak>A <emphasis>big</emphasis> day</speak>';
    const wrapped = wrapSelection({ text, start: text.indexOf('<emphasis>'), end: text.indexOf('</speak>') }, 'prosody', { rate: 'slow' });
    assert.equal(wrapped.text, '<speak>A <prosody rate="slow"><emphasis>big</emphasis> day</prosody></speak>');
    assert.ok(isSsml('<?xml version="1.0"?>\n<speak version="1.1">x</speak>'));
    assert.equal(isSsml('<speaker> is a word'), false);
  });

  test('attribute values escape quotes, ampersands and angle brackets', () => {
    const wrapped = wrapSelection({ text: 'AT&T', start: 0, end: 4 }, 'sub', { alias: 'A "T" & <T>' });
    assert.equal(wrapped.text, '<speak><sub alias="A &quot;T&quot; &amp; &lt;T&gt;">AT&amp;T</sub></speak>');
  });

  test('markup never lands outside the root: a selection over the whole text wraps only its content', () => {
    const text = '<speak>Hello</speak>';
    assert.equal(
      wrapSelection({ text, start: 0, end: text.length }, 'emphasis', { level: 'strong' }).text,
      '<speak><emphasis level="strong">Hello</emphasis></speak>',
    );
    const paused = insertBreak({ text: 'One. Two.', start: 4, end: 4 }, '500ms');
    assert.equal(paused.text, '<speak>One.<break time="500ms"/> Two.</speak>');
    assert.equal(paused.start, paused.text.indexOf(' Two'), 'the caret goes after the pause');
  });
});
