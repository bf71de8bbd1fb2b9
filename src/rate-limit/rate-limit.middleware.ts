import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { ApiCaller } from '../auth/api-caller.js';
import { CallerResolver } from '../auth/caller-resolver.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { ApiError } from '../http/api-error.js';
import type { ConnectionCharge } from '../http/client-error.js';
import { MetricsService } from '../observability/metrics.service.js';
import { clientAddressKey } from './client-address.js';
import { RateLimitStore, WINDOW_SECONDS } from './rate-limit.store.js';

/** A connection's address budget key, kept on its socket when no proxy is trusted (it cannot change). */
const ADDRESS = Symbol('rate-limit-address');
type AddressedSocket = Request['socket'] & { [ADDRESS]?: string };

/**
 * Every /v1 request spends from one budget: its API client's (all keys of a client share it) when
 * the key is valid, else its address's; except a request whose key could not be looked up (a 500,
 * which spends nothing). Once an address has spent its budget on requests without a
 * valid key, every request from it is refused until the block ends, before its key is looked at:
 * otherwise a guesser would still tell a right key (200) from a wrong one (429) at full speed. Every
 * /v1 response carries the RateLimit-Policy and RateLimit headers of draft-ietf-httpapi-ratelimit-headers-11.
 */
@Injectable()
export class RateLimitMiddleware implements NestMiddleware {
  constructor(
    private readonly callers: CallerResolver,
    private readonly store: RateLimitStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  use(req: Request, res: Response, next: NextFunction): void | Promise<void> {
    if (!this.spendInProcess(req, res, next)) return this.spend(req, res, next);
  }

  /**
   * The same decisions as `spend`, made at once when nothing needs waiting for (no Redis, and the
   * key answered from the cache): a request of a busy client passes without a promise. False when
   * `spend` must decide (nothing has been spent or set then).
   */
  private spendInProcess(req: Request, res: Response, next: NextFunction): boolean {
    const counts = this.store.inProcess;
    if (counts === null) return false;
    const address = this.addressOf(req);
    const addressLimit = this.config.rateLimitUnauthenticatedPerMinute;
    const blockedSeconds = counts.blockedSeconds(address);
    if (blockedSeconds > 0) {
      this.refuse(res, next, 'per-ip', addressLimit, blockedSeconds);
      return true;
    }
    const caller = this.callers.resolveNow(req);
    if (caller === undefined) return false;
    if (caller) req.caller = caller;
    const [policy, key, limit] = this.budgetOf(caller, address);
    const decision = counts.hit(key, limit);
    if (decision.exceeded) this.refuse(res, next, policy, limit, decision.resetSeconds);
    else {
      setHeaders(res, policy, limit, decision.remaining, decision.resetSeconds);
      next();
    }
    return true;
  }

  private async spend(req: Request, res: Response, next: NextFunction): Promise<void> {
    try {
      const address = this.addressOf(req);
      const addressLimit = this.config.rateLimitUnauthenticatedPerMinute;
      const blockedSeconds = await this.store.blockedSeconds(address);
      if (blockedSeconds > 0) {
        this.refuse(res, next, 'per-ip', addressLimit, blockedSeconds);
        return;
      }
      let failure: unknown;
      const caller = await this.callers.resolve(req).catch((error: unknown): typeof LOOKUP_FAILED => {
        failure = error;
        return LOOKUP_FAILED;
      });
      if (caller === LOOKUP_FAILED) {
        // The key could not be looked up (the database is away, or the lookup was refused for load):
        // that is no failed authentication, so nothing is spent from the address's budget (an outage
        // must not lock valid keys out once it is over); the headers say where the budget the request
        // would spend from stands: its key's client's when this process has found the key before
        // (a valid key is not told about an address budget it does not spend), else the address's.
        const [policy, key, limit] = this.budgetOf(this.callers.knownCaller(req) ?? null, address);
        const standing = await this.store.peek(key, limit);
        setHeaders(res, policy, limit, standing.remaining, standing.resetSeconds);
        next(failure);
        return;
      }
      // Known from here on: a 429 of this client is logged with its client and tenant, as its 200s are.
      if (caller) req.caller = caller;
      const [policy, key, limit] = this.budgetOf(caller, address);
      const decision = await this.store.hit(key, limit);
      if (decision.exceeded) {
        this.refuse(res, next, policy, limit, decision.resetSeconds);
        return;
      }
      setHeaders(res, policy, limit, decision.remaining, decision.resetSeconds);
      next();
    } catch (error) {
      next(error);
    }
  }

  /**
   * The key of the request's address budget. With no proxy trusted, Express's `req.ip` is the
   * connection's address, so it is worked out once per connection (about 1.5 µs a request on Node 26
   * through proxy-addr and forwarded); behind a trusted proxy each request's X-Forwarded-For counts.
   */
  private addressOf(req: Request): string {
    if (this.config.trustProxy !== false) return `ip:${clientAddressKey(req.ip)}`;
    const socket = req.socket as AddressedSocket;
    return (socket[ADDRESS] ??= `ip:${clientAddressKey(socket.remoteAddress)}`);
  }

  /** The budget a request spends from: its client's with a valid key, else its address's. */
  private budgetOf(
    caller: Pick<ApiCaller, 'clientId' | 'rateLimitPerMinute'> | null,
    address: string,
  ): [policy: string, key: string, limit: number] {
    return caller
      ? ['per-client', `client:${caller.clientId}`, caller.rateLimitPerMinute ?? this.config.rateLimitPerMinute]
      : ['per-ip', address, this.config.rateLimitUnauthenticatedPerMinute];
  }

  /**
   * For a request Node's parser refused, whose key and path cannot be read: spends from the budget of
   * its connection's address (with TRUST_PROXY, the proxy's: X-Forwarded-For cannot be read either).
   */
  async chargeConnection(remoteAddress: string | undefined): Promise<ConnectionCharge> {
    const address = `ip:${clientAddressKey(remoteAddress)}`;
    const limit = this.config.rateLimitUnauthenticatedPerMinute;
    const blockedSeconds = await this.store.blockedSeconds(address);
    const decision =
      blockedSeconds > 0
        ? { remaining: 0, resetSeconds: blockedSeconds, exceeded: true }
        : await this.store.hit(address, limit);
    if (decision.exceeded) this.metrics.countRateLimited('per-ip');
    return {
      headers: {
        'RateLimit-Policy': policyValue('per-ip', limit),
        RateLimit: remainingValue('per-ip', decision.remaining, decision.resetSeconds),
      },
      retryAfterSeconds: decision.exceeded ? decision.resetSeconds : null,
    };
  }

  private refuse(res: Response, next: NextFunction, policy: string, limit: number, retryAfterSeconds: number): void {
    setHeaders(res, policy, limit, 0, retryAfterSeconds);
    this.metrics.countRateLimited(policy);
    next(ApiError.rateLimited(retryAfterSeconds));
  }
}

const LOOKUP_FAILED = Symbol('key lookup failed');

const policyValue = (policy: string, limit: number): string => `"${policy}";q=${limit};w=${WINDOW_SECONDS}`;
const remainingValue = (policy: string, remaining: number, resetSeconds: number): string =>
  `"${policy}";r=${remaining};t=${resetSeconds}`;

function setHeaders(res: Response, policy: string, limit: number, remaining: number, resetSeconds: number): void {
  res.setHeader('RateLimit-Policy', policyValue(policy, limit));
  res.setHeader('RateLimit', remainingValue(policy, remaining, resetSeconds));
}
