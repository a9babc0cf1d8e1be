import { Type } from 'typebox';

/**
 * A name people see in lists (voices, categories, keys): not blank and without control characters
 * (NUL, tabs, line breaks, C1 codes), which break displays, logs and exports.
 */
export function DisplayNameSchema(maxLength: number) {
  return Type.String({
    minLength: 1,
    maxLength,
    pattern: '^(?=.*\\S)\\P{Cc}+$',
    description: `1 to ${maxLength} characters, not blank, no control characters`,
  });
}
