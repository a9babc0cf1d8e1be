import { ApiError } from '../../platform/errors.js';
import { SlidingWindowLimiter } from './sliding-window.js';

const WINDOW_MS = 60_000;

/** A sign-in refused because its address failed too often; the route sends the wait as Retry-After. */
export class SignInThrottled extends ApiError {
  constructor(
    readonly retryAfterSeconds: number,
    limit: number,
  ) {
    super(429, 'sign_in_throttled', `Too many failed sign-ins from this address: try again in ${retryAfterSeconds} s`, {
      limit,
      retry_after_seconds: retryAfterSeconds,
    });
  }
}

/**
 * Failed sign-ins per client address, in a sliding minute. An address that has used up its
 * failures is refused every attempt, a right key's included, until its oldest failure leaves the
 * window: guessing costs a minute per `limit` guesses, and a refusal says nothing about the key.
 */
export class SignInThrottle {
  private readonly failures = new SlidingWindowLimiter(WINDOW_MS);

  constructor(private readonly limit: number) {}

  /** Runs a sign-in attempt from `address`; the 401 it may throw counts as a failure. */
  attempt<T>(address: string, signIn: () => T): T {
    const budget = [{ id: address, limit: this.limit }];
    const room = this.failures.peek(budget, Date.now());
    if (room.remaining === 0) throw new SignInThrottled(Math.max(1, room.resetSeconds), this.limit);
    try {
      return signIn();
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 401) this.failures.take(budget, Date.now());
      throw error;
    }
  }
}
