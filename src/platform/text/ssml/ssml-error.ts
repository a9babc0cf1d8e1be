import { ApiError } from '../../errors.js';

/** Where in the SSML a problem is: 1-based line and column, and the element it concerns (absent: the document itself). */
export interface SsmlPosition {
  line: number;
  column: number;
  element?: string;
}

/**
 * A problem with one value (an attribute, an element's content) found before its position is
 * known; the parser turns it into an `invalid_ssml` error at the element it came from.
 */
export class SsmlValueError extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'SsmlValueError';
  }
}

/** 400 `invalid_ssml`: `reason` says what is wrong, the message adds where. */
export function invalidSsml(reason: string, at: SsmlPosition, details: Record<string, unknown> = {}): ApiError {
  const where = at.element ? `<${at.element}> at line ${at.line}, column ${at.column}` : `line ${at.line}, column ${at.column}`;
  return new ApiError(400, 'invalid_ssml', `Invalid SSML: ${reason} (${where})`, {
    line: at.line,
    column: at.column,
    element: at.element ?? null,
    reason,
    ...details,
  });
}
