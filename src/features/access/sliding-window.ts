/** One budget a request draws from: a key's limit in one scope. */
export interface Budget {
  id: string;
  /** Requests allowed in any window. */
  limit: number;
}

/** What the budget that binds tightest says after a request: for the X-RateLimit-* headers. */
export interface Admission {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until that budget has more room: a free slot when it is full (0 when nothing is counted). */
  resetSeconds: number;
}

/** A budget's accepted request times, oldest first. */
class Log {
  private times: number[] = [];
  private head = 0;

  expire(before: number): void {
    while (this.head < this.times.length && this.times[this.head]! <= before) this.head++;
    // Compacted now and then so the array does not grow with every request ever made.
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }

  get size(): number {
    return this.times.length - this.head;
  }

  /** The `n`th oldest time still in the window (0 = oldest). */
  at(n: number): number | undefined {
    return this.times[this.head + n];
  }

  get newest(): number | undefined {
    return this.times.at(-1);
  }

  add(time: number): void {
    this.times.push(time);
  }
}

/**
 * Sliding-window rate limits: at most `limit` requests of a budget pass in any `windowMs` span, not
 * just within each fixed minute (a fixed window lets twice the limit through across its edge). A
 * request may draw from several budgets at once and passes only if every one has room; then it is
 * counted in all of them. Memory is a time per request still inside the window; budgets idle for
 * a whole window are dropped. The clock is passed in, so a distributed store can take its place
 * and tests need not wait.
 */
export class SlidingWindowLimiter {
  private readonly logs = new Map<string, Log>();
  private lastSweep = 0;

  constructor(private readonly windowMs: number) {}

  /** Counts the request in every budget if all have room; says what the tightest budget has left. */
  take(budgets: readonly Budget[], now: number): Admission {
    return this.admit(budgets, now, true);
  }

  /** What `take` would answer, counting nothing. */
  peek(budgets: readonly Budget[], now: number): Admission {
    return this.admit(budgets, now, false);
  }

  private admit(budgets: readonly Budget[], now: number, count: boolean): Admission {
    this.sweep(now);
    const logs = budgets.map((budget) => {
      const log = this.logs.get(budget.id) ?? new Log();
      this.logs.set(budget.id, log);
      log.expire(now - this.windowMs);
      return { budget, log };
    });
    const allowed = logs.every(({ budget, log }) => log.size < budget.limit);
    if (allowed && count) for (const { log } of logs) log.add(now);
    // The binding budget: least room left; on a tie, the one that frees a slot last.
    const states = logs.map(({ budget, log }) => {
      const remaining = Math.max(0, budget.limit - log.size);
      // Room grows when the oldest counted request leaves the window; for a full (or over-full, after
      // its limit was lowered) budget, when the request that keeps it full does.
      const next = log.at(Math.max(0, log.size - budget.limit));
      const resetMs = next === undefined ? 0 : next + this.windowMs - now;
      return { limit: budget.limit, remaining, resetSeconds: Math.max(0, Math.ceil(resetMs / 1000)) };
    });
    const binding = states.reduce((tightest, state) =>
      state.remaining < tightest.remaining || (state.remaining === tightest.remaining && state.resetSeconds > tightest.resetSeconds) ? state : tightest,
    );
    return { allowed, ...binding };
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [id, log] of this.logs) if ((log.newest ?? -Infinity) <= now - this.windowMs) this.logs.delete(id);
  }
}
