import { ExpensiveAdmission } from './admission.js';
import { DatabaseBusyError } from './deadline.js';

/** A small linear congruential generator: the same sequence for the same seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Generated sequences of expensive reads starting and ending, several clients, several limits
 * (ADMISSION_SEED replays one): never more permits than the capacity, never more than the share of a
 * client, and nobody left waiting who could take a free permit.
 */
describe('ExpensiveAdmission under generated sequences (ADMISSION_SEED)', () => {
  const seed = Number(process.env.ADMISSION_SEED ?? Math.floor(Math.random() * 2 ** 31));

  it('keeps its limits and leaves no one waiting for a permit it could have', async () => {
    const random = seeded(seed);
    const problems: string[] = [];
    for (let run = 0; run < 40 && problems.length === 0; run++) {
      const capacity = 1 + Math.floor(random() * 4);
      const perClient = 1 + Math.floor(random() * capacity);
      const admission = new ExpensiveAdmission({ capacity, perClient, waitMs: 60_000, retryAfterSeconds: 1 });
      const clients = ['a', 'b', 'c', 'd'].slice(0, 1 + Math.floor(random() * 4));
      const holding: string[] = [];
      const waiting = new Map<number, string>();
      let next = 0;
      for (let step = 0; step < 60; step++) {
        if (holding.length > 0 && random() < 0.45) {
          const [client] = holding.splice(Math.floor(random() * holding.length), 1);
          admission.release(client);
        } else {
          const client = clients[Math.floor(random() * clients.length)];
          const id = next++;
          waiting.set(id, client);
          void admission.acquire(client, Date.now() + 60_000).then(() => {
            waiting.delete(id);
            holding.push(client);
          });
        }
        await flush();
        const held = (c: string): number => holding.filter((h) => h === c).length;
        const canTake = [...waiting.values()].filter((c) => holding.length < capacity && held(c) < perClient);
        const at = `run ${run} (capacity ${capacity}, ${perClient} per client), step ${step}`;
        if (holding.length > capacity) problems.push(`${at}: ${holding.length} permits held`);
        for (const c of clients) if (held(c) > perClient) problems.push(`${at}: client ${c} holds ${held(c)}`);
        if (canTake.length > 0) problems.push(`${at}: ${canTake.join(', ')} wait(s) while a permit is free to them`);
      }
      // The rest get their permits as the holders finish.
      while (holding.length > 0) {
        admission.release(holding.pop()!);
        await flush();
      }
      if (waiting.size > 0) problems.push(`run ${run}: ${waiting.size} still waiting once every permit was free`);
    }
    expect([`ADMISSION_SEED=${seed}`, problems.slice(0, 5)]).toEqual([`ADMISSION_SEED=${seed}`, []]);
  });

  it('refuses a read that waits past the admission wait with DatabaseBusyError', async () => {
    const admission = new ExpensiveAdmission({ capacity: 1, perClient: 1, waitMs: 20, retryAfterSeconds: 1 });
    await admission.acquire('a', Date.now() + 60_000);
    await expect(admission.acquire('b', Date.now() + 60_000)).rejects.toBeInstanceOf(DatabaseBusyError);
    admission.release('a');
    await expect(admission.acquire('b', Date.now() + 60_000)).resolves.toBeUndefined();
  });
});
