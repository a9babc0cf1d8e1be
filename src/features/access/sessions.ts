import { createHash, randomBytes } from 'node:crypto';
import { ApiError } from '../../platform/errors.js';
import type { ApiKeyRecord } from './repository.js';
import type { KeyService } from './service.js';
import type { SessionRepository } from './session-repository.js';
import { SignInThrottle } from './sign-in-throttle.js';

/** The cookie that carries a studio session: HttpOnly, SameSite=Strict, never readable by scripts. */
export const SESSION_COOKIE = 'timbre_session';
const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface SessionLimits {
  /** How long a session lasts after sign-in. */
  sessionHours: number;
  /** How long a link printed by `timbre studio` may be used (once). */
  signInLinkMinutes: number;
  /** Live sessions one key may have; opening one more ends its oldest. */
  sessionsPerKey: number;
  /** Failed sign-ins one client address may make in any minute; then every attempt from it waits. */
  signInFailuresPerMinute: number;
}

export interface OpenedSession {
  token: string;
  key: ApiKeyRecord;
  expiresAt: string;
}

/** Only the hash of a token is stored, as for keys: a copy of the database opens no session. */
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(TOKEN_BYTES).toString('base64url');
const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();

/**
 * Browser sessions of the studio. A session acts as the key it was opened with and ends with it:
 * revoking or deleting the key ends every session of the key at its next request.
 */
export class SessionService {
  private readonly signIns: SignInThrottle;

  constructor(
    private readonly sessions: SessionRepository,
    private readonly keys: KeyService,
    private readonly limits: SessionLimits,
  ) {
    this.signIns = new SignInThrottle(limits.signInFailuresPerMinute);
  }

  /**
   * Signs in with a key, or with a one-time link token, from a client address (failed attempts
   * are limited per address). A key keeps at most `sessionsPerKey` sessions: the oldest ends.
   */
  open(credentials: { api_key: string } | { sign_in_token: string }, address: string): OpenedSession {
    const key = this.signIns.attempt(address, () =>
      'api_key' in credentials ? this.keys.authenticate(credentials.api_key) : this.redeem(credentials.sign_in_token),
    );
    const token = newToken();
    const expiresAt = inFuture(this.limits.sessionHours * 3_600_000);
    this.sessions.deleteExpired(new Date().toISOString());
    this.sessions.insertSession({ tokenHash: hashToken(token), keyId: key.keyId, expiresAt }, new Date().toISOString(), this.limits.sessionsPerKey);
    return { token, key, expiresAt };
  }

  /** The key a session cookie acts as and when the session ends; 401 when it is over. */
  authenticate(token: string): { key: ApiKeyRecord; expiresAt: string } {
    const session = TOKEN_PATTERN.test(token) ? this.sessions.findSession(hashToken(token)) : undefined;
    if (!session || session.expiresAt <= new Date().toISOString()) {
      throw new ApiError(401, 'session_expired', 'The studio session has ended: sign in again');
    }
    return { key: this.keys.authenticateById(session.keyId), expiresAt: session.expiresAt };
  }

  close(token: string): void {
    if (TOKEN_PATTERN.test(token)) this.sessions.deleteSession(hashToken(token));
  }

  /** A link for `timbre studio`: one use, a few minutes, acting as the given key. */
  createSignInLink(keyId: string): { token: string; expiresAt: string } {
    const token = newToken();
    const expiresAt = inFuture(this.limits.signInLinkMinutes * 60_000);
    this.sessions.deleteExpired(new Date().toISOString());
    this.sessions.insertLink({ tokenHash: hashToken(token), keyId, expiresAt });
    return { token, expiresAt };
  }

  private redeem(token: string): ApiKeyRecord {
    const link = TOKEN_PATTERN.test(token) ? this.sessions.takeLink(hashToken(token)) : undefined;
    if (!link || link.expiresAt <= new Date().toISOString()) {
      throw new ApiError(401, 'sign_in_link_invalid', 'This sign-in link was used already or has expired: run `npx timbre studio` again');
    }
    return this.keys.authenticateById(link.keyId);
  }
}
