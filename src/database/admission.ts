import { DatabaseBusyError } from './deadline.js';

/**
 * What a read costs, which decides the capacity it runs in (docs/rate-limits.md#admission-by-cost).
 * `cheap` reads (a key, a store, one product by id, a list page read through the maintained counts)
 * may use every connection of a pool and never wait for admission. `expensive` reads (searches,
 * counted filters, deep pages, sync rounds, categories and promotions) share the connections the
 * cheap ones do not keep, at most a share of them per API client, and are refused with a 429 when
 * none frees up within the admission wait.
 */
export type Cost = 'cheap' | 'expensive';

/**
 * Who counts refusals of admission (the metrics, beside the budgets' 429s). A token here, provided
 * by the observability module, so that the database layer does not import it.
 */
export const ADMISSION_REFUSALS = Symbol('ADMISSION_REFUSALS');
export interface AdmissionRefusals {
  countAdmissionRefused(): void;
}

/** How many expensive reads may run at once on one pool, how many of them one client, how long one waits. */
export interface AdmissionLimits {
  readonly capacity: number;
  readonly perClient: number;
  readonly waitMs: number;
  /** The Retry-After of a refusal, in whole seconds. */
  readonly retryAfterSeconds: number;
}

interface Waiter {
  readonly client: string;
  grant(): void;
  timer: NodeJS.Timeout;
}

/**
 * The permits of expensive reads on one pool: at most `capacity` at once, at most `perClient` of them
 * held by one API client, first come first served among those that may take one. A read that gets
 * no permit within `waitMs` (or before its deadline, if sooner) is refused with DatabaseBusyError
 * (a 429): it is better told at once to come back than kept waiting for seconds and then failed.
 * Waiting is the rare case (a saturated pool), so only a waiter pays for a timer.
 */
export class ExpensiveAdmission {
  private free: number;
  private readonly held = new Map<string, number>();
  private readonly waiters: Waiter[] = [];

  constructor(private readonly limits: AdmissionLimits) {
    this.free = limits.capacity;
  }

  acquire(client: string, deadlineMs: number): Promise<void> {
    // Anyone still waiting while a permit is free is a client at its share: no one to queue behind.
    if (this.free > 0 && this.mayTake(client)) {
      this.take(client);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        client,
        grant: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(
          () => {
            this.waiters.splice(this.waiters.indexOf(waiter), 1);
            reject(new DatabaseBusyError(this.limits.retryAfterSeconds));
          },
          Math.max(0, Math.min(this.limits.waitMs, deadlineMs - Date.now())),
        ),
      };
      this.waiters.push(waiter);
    });
  }

  release(client: string): void {
    const count = this.held.get(client)! - 1;
    if (count === 0) this.held.delete(client);
    else this.held.set(client, count);
    this.free++;
    for (let i = 0; i < this.waiters.length && this.free > 0;) {
      const waiter = this.waiters[i];
      if (!this.mayTake(waiter.client)) {
        i++;
        continue;
      }
      this.waiters.splice(i, 1);
      this.take(waiter.client);
      waiter.grant();
    }
  }

  private mayTake(client: string): boolean {
    return (this.held.get(client) ?? 0) < this.limits.perClient;
  }

  private take(client: string): void {
    this.free--;
    this.held.set(client, (this.held.get(client) ?? 0) + 1);
  }
}
