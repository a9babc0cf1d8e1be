import { errorText } from '../../api.js';

function ssmlPlace(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('error' in error)) return undefined;
  const body = error.error;
  if (typeof body !== 'object' || body === null || !('details' in body)) return undefined;
  const details = body.details;
  if (typeof details !== 'object' || details === null || !('line' in details) || !('column' in details)) return undefined;
  const element = 'element' in details && typeof details.element === 'string' && details.element !== '' ? `, <${details.element}>` : '';
  return `line ${String(details.line)}, column ${String(details.column)}${element}`;
}

/** The service's message; for a text whose SSML it refused, with where in the text the fault is. */
export function generationErrorText(error: unknown): string {
  const place = ssmlPlace(error);
  return place ? `${errorText(error)} at ${place}` : errorText(error);
}
