import { randomBytes } from 'node:crypto';

/**
 * A new public id: a prefix that names the kind (`task`, `voice`, `job`…) and random base64url.
 * 9 bytes (12 characters) for rows a key creates now and then, 12 for the ones that name folders.
 */
export function newId(prefix: string, bytes: 9 | 12 = 9): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}
