import { DatabaseDeadlineError } from './deadline.js';

interface Waiter {
  grant(): void;
  timer: NodeJS.Timeout;
}

/**
 * A counting semaphore whose waiters give up at a deadline, first come first served. Waiting is the
 * rare case (a saturated pool), so only a waiter pays for a timer.
 */
export class Permits {
  private free: number;
  private readonly waiters: Waiter[] = [];

  constructor(count: number) {
    this.free = count;
  }

  acquire(deadlineMs: number): Promise<void> {
    if (this.free > 0 && this.waiters.length === 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(
          () => {
            this.waiters.splice(this.waiters.indexOf(waiter), 1);
            reject(new DatabaseDeadlineError('no database connection before the deadline'));
          },
          Math.max(0, deadlineMs - Date.now()),
        ),
      };
      this.waiters.push(waiter);
    });
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next.grant();
    else this.free++;
  }
}
