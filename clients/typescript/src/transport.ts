import { ApiConnectionError, ApiError, errorOfResponse } from './errors.js';
import { Pacer, parseRetryAfter } from './rate-limit.js';

/** The `fetch` the client calls: the platform's by default. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Retries of 429, 5xx and network errors (never of other 4xx: the same request would fail the same way). */
export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retries off. Default 5. */
  readonly maxRetries: number;
  /** Backoff before the first retry of a 5xx or network error; it doubles with each retry. Default 500 ms. */
  readonly initialDelayMs: number;
  /** The longest backoff between two attempts. Default 20 000 ms. */
  readonly maxDelayMs: number;
}

export interface RateLimitOptions {
  /**
   * Wait until the budget is whole again when the RateLimit header says it is spent, instead of being
   * refused with a 429 (which on this service blocks the client for a whole window). Default true.
   */
  readonly pace: boolean;
  /**
   * The longest wait for the rate limit, when pacing or after a 429's Retry-After: a 429 asking for
   * longer is thrown. Default 120 000 ms (the service blocks for 60 s).
   */
  readonly maxWaitMs: number;
}

/** Why the client waits before a request: told to `onWait` (for logs and metrics). */
export interface WaitEvent {
  readonly reason: 'pacing' | 'rate_limited' | 'server_error' | 'network_error';
  readonly delayMs: number;
  /** The attempt that failed (0 for pacing, which waits before an attempt). */
  readonly attempt: number;
  /** The status of the failed attempt, for rate_limited and server_error. */
  readonly status?: number;
  /** The failure, for network_error. */
  readonly error?: unknown;
}

export interface TransportOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly fetch?: FetchLike;
  readonly retry?: Partial<RetryOptions>;
  readonly rateLimit?: Partial<RateLimitOptions>;
  /** How long one attempt may take, answer body included, before it counts as a network error. Default 30 000 ms. */
  readonly timeoutMs?: number;
  /** Called before every wait (pacing, Retry-After, backoff). */
  readonly onWait?: (event: WaitEvent) => void;
}

export const DEFAULT_RETRY: RetryOptions = { maxRetries: 5, initialDelayMs: 500, maxDelayMs: 20_000 };
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { pace: true, maxWaitMs: 120_000 };
export const DEFAULT_TIMEOUT_MS = 30_000;

/** A successful answer: its parsed body and its headers. */
export interface Answer<T> {
  readonly body: T;
  readonly headers: Headers;
}

export interface RequestOptions {
  readonly signal?: AbortSignal;
  readonly requestId?: string;
}

/** One timer that an abort ends early (with the abort's reason). */
function timer(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timeout);
      reject(signal?.reason as Error);
    };
    const timeout = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits at least `ms` by the clock (timers may fire a millisecond early), unless aborted. */
async function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  const until = Date.now() + ms;
  do await timer(until - Date.now(), signal);
  while (Date.now() < until);
}

class AttemptTimeout extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * GET requests to the service with its key: paced by the RateLimit header, retried on 429 (after
 * Retry-After), 5xx and network errors (capped, jittered exponential backoff), errors as ApiError.
 */
export class Transport {
  private readonly baseUrl: string;
  private readonly fetch: FetchLike;
  private readonly retry: RetryOptions;
  private readonly rateLimit: RateLimitOptions;
  private readonly timeoutMs: number;
  private readonly pacer = new Pacer();

  constructor(private readonly options: TransportOptions) {
    if (!/^https?:\/\//.test(options.baseUrl))
      throw new TypeError(`baseUrl must be an http(s) URL, got "${options.baseUrl}"`);
    if (options.apiKey.trim() === '') throw new TypeError('apiKey is empty');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    // The base URL is the server's root everywhere (npm start's banner, the docs, openapi.json's
    // servers): every path the client sends starts with /v1, and a base ending in /v1 would request
    // /v1/v1/… and get a bare 404. Refused here, with the way out, rather than guessed at.
    if (/\/v1$/i.test(new URL(this.baseUrl).pathname))
      throw new TypeError(
        `baseUrl must be the server's root, without /v1 (the client adds /v1 to every path): ` +
          `got "${options.baseUrl}", use "${this.baseUrl.replace(/\/v1$/i, '')}"`,
      );
    // Called unbound: browsers refuse a fetch called on another object than the window.
    const fetchImpl = options.fetch ?? globalThis.fetch;
    this.fetch = (input, init) => fetchImpl(input, init);
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.rateLimit = { ...DEFAULT_RATE_LIMIT, ...options.rateLimit };
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The absolute URL of a path of the service (`/v1/...`, as Link headers give them). */
  url(path: string): string {
    return /^https?:\/\//.test(path) ? path : `${this.baseUrl}${path}`;
  }

  async get<T>(path: string, options: RequestOptions = {}): Promise<Answer<T>> {
    const url = this.url(path);
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.options.apiKey}`,
      Accept: 'application/json',
      // Pages compress about 15 to 1. fetch decompresses what it asked for; a browser sets this itself.
      'Accept-Encoding': 'br, gzip',
    };
    if (options.requestId !== undefined) headers['X-Request-Id'] = options.requestId;
    for (let attempt = 1; ; attempt++) {
      await this.paced(options.signal);
      let response: Response;
      let text: string;
      try {
        [response, text] = await this.attempt(url, headers, options.signal);
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (attempt > this.retry.maxRetries) {
          throw new ApiConnectionError(
            `${url} could not be reached in ${attempt} attempt(s): ${String(error)}`,
            attempt,
            {
              cause: error,
            },
          );
        }
        await this.wait({ reason: 'network_error', delayMs: this.backoff(attempt), attempt, error }, options.signal);
        continue;
      }
      if (response.ok) return { body: this.parse<T>(response, text, attempt), headers: response.headers };
      const error = errorOfResponse(response.status, response.headers, text, attempt);
      const delayMs = this.retryDelay(response, attempt);
      if (delayMs === null || attempt > this.retry.maxRetries) throw error;
      const reason = response.status === 429 ? 'rate_limited' : 'server_error';
      await this.wait({ reason, delayMs, attempt, status: response.status }, options.signal);
    }
  }

  /** Waits, when the budget is spent, until the window ends (unless that is longer than maxWaitMs). */
  private async paced(signal: AbortSignal | undefined): Promise<void> {
    if (!this.rateLimit.pace) return;
    for (let delayMs = this.pacer.take(Date.now()); delayMs > 0; delayMs = this.pacer.take(Date.now())) {
      if (delayMs > this.rateLimit.maxWaitMs) return;
      await this.wait({ reason: 'pacing', delayMs, attempt: 0 }, signal);
    }
  }

  /** One request, its body read within the attempt's timeout. */
  private async attempt(
    url: string,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<[Response, string]> {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new AttemptTimeout(`no complete answer within ${this.timeoutMs} ms`)),
      this.timeoutMs,
    );
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.fetch(url, { method: 'GET', headers, signal: controller.signal });
      const text = await response.text();
      this.pacer.observe(response.headers, Date.now());
      return [response, text];
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private parse<T>(response: Response, text: string, attempt: number): T {
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError(
        response.status,
        'unexpected_response',
        `HTTP ${response.status} whose body is not JSON`,
        {},
        response.headers.get('X-Request-Id'),
        attempt,
      );
    }
  }

  /** How long to wait before retrying a failed answer; null when it is not retried. */
  private retryDelay(response: Response, attempt: number): number | null {
    const { status } = response;
    if (status !== 429 && status < 500) return null;
    const retryAfter = parseRetryAfter(response.headers.get('Retry-After'), Date.now());
    if (retryAfter === null) return this.backoff(attempt);
    return retryAfter > this.rateLimit.maxWaitMs ? null : retryAfter;
  }

  /** Exponential backoff, capped, with "equal jitter": half the delay fixed, half random. */
  private backoff(attempt: number): number {
    const delay = Math.min(this.retry.maxDelayMs, this.retry.initialDelayMs * 2 ** (attempt - 1));
    return delay / 2 + Math.random() * (delay / 2);
  }

  private async wait(event: WaitEvent, signal: AbortSignal | undefined): Promise<void> {
    this.options.onWait?.(event);
    await sleep(event.delayMs, signal);
  }
}
