/**
 * Marking up a text in SSML as a person edits it: each edit works on the text and the selection of a
 * text box, and answers the new text and the new selection. A plain text becomes SSML on its first
 * edit: wrapped in `<speak>`, its `&`, `<` and `>` written as entities so that it still says the same.
 */

export interface Edit {
  text: string;
  start: number;
  end: number;
}

/** Characters a text node may not hold as they are. */
export const escapeText = (value: string) => value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** Characters an attribute value in double quotes may not hold as they are. */
export const escapeAttribute = (value: string) => escapeText(value).replaceAll('"', '&quot;');

/** The rule the service applies when no `text_type` is sent: SSML when the text's root is `<speak>`. */
export const isSsml = (text: string) => /^\s*(<\?xml[^>]*\?>\s*)?<speak[\s>/]/.test(text);

/** The text as SSML, with the selection moved to where the same characters are now. */
export function asSsml(edit: Edit): Edit {
  if (isSsml(edit.text)) return insideRoot(edit);
  const open = '<speak>';
  const at = (offset: number) => open.length + escapeText(edit.text.slice(0, offset)).length;
  return { text: `${open}${escapeText(edit.text)}</speak>`, start: at(edit.start), end: at(edit.end) };
}

/** The selection moved inside `<speak>…</speak>`: markup put before or after the root would not be SSML. */
function insideRoot(edit: Edit): Edit {
  const first = edit.text.indexOf('>', edit.text.indexOf('<speak')) + 1;
  const closing = edit.text.lastIndexOf('</speak>');
  const last = closing < first ? edit.text.length : closing;
  const clamp = (offset: number) => Math.min(Math.max(offset, first), last);
  return { text: edit.text, start: clamp(edit.start), end: clamp(edit.end) };
}

/** Puts `element` with its attributes around the selection (SSML source, kept as it is); the wrapped words stay selected. */
export function wrapSelection(edit: Edit, element: string, attributes: Record<string, string> = {}): Edit {
  const ssml = asSsml(edit);
  const written = Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');
  const open = `<${element}${written}>`;
  const text = `${ssml.text.slice(0, ssml.start)}${open}${ssml.text.slice(ssml.start, ssml.end)}</${element}>${ssml.text.slice(ssml.end)}`;
  return { text, start: ssml.start + open.length, end: ssml.end + open.length };
}

/** Inserts a pause at the end of the selection; the caret goes after it. */
export function insertBreak(edit: Edit, time: string): Edit {
  const ssml = asSsml(edit);
  const tag = `<break time="${escapeAttribute(time)}"/>`;
  const at = ssml.end;
  return { text: `${ssml.text.slice(0, at)}${tag}${ssml.text.slice(at)}`, start: at + tag.length, end: at + tag.length };
}
