/**
 * The RateLimit and RateLimit-Policy response headers of draft-ietf-httpapi-ratelimit-headers-11
 * (`RateLimit: "per-client";r=598;t=42`, `RateLimit-Policy: "per-client";q=600;w=60`), and the
 * pacing they allow: when the budget is spent, wait until it is whole again instead of being refused
 * (a refusal blocks the client for a whole window on this service).
 */

/** Where the budget stands: `remaining` requests, whole again in `resetSeconds`. */
export interface RateLimitState {
  readonly remaining: number;
  readonly resetSeconds: number;
}

/** The parameters of each item of a structured-field list (`"name";a=1;b=2, "other";a=3`). */
function items(header: string): Map<string, number>[] {
  return header.split(',').map((item) => {
    const params = new Map<string, number>();
    for (const part of item.split(';').slice(1)) {
      const match = /^\s*([a-z][a-z0-9_.*-]*)\s*=\s*(\d+)\s*$/.exec(part);
      if (match) params.set(match[1], Number(match[2]));
    }
    return params;
  });
}

/** The most restrictive item of a RateLimit header (the one with the fewest requests left), or null. */
export function parseRateLimit(header: string | null): RateLimitState | null {
  if (header === null) return null;
  let state: RateLimitState | null = null;
  for (const params of items(header)) {
    const remaining = params.get('r');
    if (remaining === undefined) continue;
    if (state === null || remaining < state.remaining) state = { remaining, resetSeconds: params.get('t') ?? 0 };
  }
  return state;
}

/** The most restrictive item of a RateLimit-Policy header (the smallest quota), or null. */
export function parsePolicy(header: string | null): { quota: number; windowSeconds: number } | null {
  if (header === null) return null;
  let policy: { quota: number; windowSeconds: number } | null = null;
  for (const params of items(header)) {
    const quota = params.get('q');
    if (quota === undefined) continue;
    if (policy === null || quota < policy.quota) policy = { quota, windowSeconds: params.get('w') ?? 1 };
  }
  return policy;
}

/** Retry-After in milliseconds (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(header: string | null, now: number): number | null {
  if (header === null) return null;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Added to every wait for a window's end: `t` is whole seconds rounded up, this covers timer slack. */
const RESET_MARGIN_MS = 250;

/**
 * Counts the budget down as requests leave (so that concurrent requests share it), resets it from
 * each response's headers, and makes a request wait when none is left until the window ends.
 */
export class Pacer {
  /** Requests left in the current window; null while unknown. */
  private remaining: number | null = null;
  /** When the current window ends (epoch ms). */
  private resetAt = 0;
  private policy: { quota: number; windowSeconds: number } | null = null;

  /** How long a request must wait before it is sent (0: now); counts it when it may go now. */
  take(now: number): number {
    if (this.remaining !== null && now >= this.resetAt) {
      // A new window: whole again, until the next response tells where it really stands.
      this.remaining = this.policy?.quota ?? null;
      this.resetAt = now + (this.policy?.windowSeconds ?? 0) * 1000;
    }
    if (this.remaining === null) return 0;
    if (this.remaining > 0) {
      this.remaining--;
      return 0;
    }
    return this.resetAt - now;
  }

  observe(headers: Headers, now: number): void {
    const state = parseRateLimit(headers.get('RateLimit'));
    if (state === null) return;
    this.policy = parsePolicy(headers.get('RateLimit-Policy')) ?? this.policy;
    this.remaining = state.remaining;
    this.resetAt = now + state.resetSeconds * 1000 + RESET_MARGIN_MS;
  }
}
