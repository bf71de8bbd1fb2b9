/**
 * A narrowing of a client's stores takes a SHARE lock on products (api_clients_view_narrowed, the
 * RemovalsFailSafe migration), giving up after 10 s. In a transaction that holds nothing another
 * product writer may wait for, that is safe. Taken late in a transaction that has already written
 * products (db:import writes its clients last), or that already holds the client's row (an UPDATE of
 * api_clients takes the row first, its trigger the lock after), it waits for every other product writer
 * while such a writer may be waiting for that transaction: a deadlock, which PostgreSQL ends by failing
 * one of them. Code of the service that narrows takes the lock itself, first, before anything else
 * another writer could wait for; the trigger's own LOCK then finds it held.
 *
 * The mode:
 * - `SHARE` (the trigger's) for a transaction that writes no products: the admin tool.
 * - `SHARE ROW EXCLUSIVE` for one that writes products after it (db:import). A transaction holding
 *   SHARE that then writes products would wait for the ROW EXCLUSIVE lock those writes need while
 *   another SHARE holder (an admin narrowing) waits for it; SHARE ROW EXCLUSIVE conflicts with SHARE,
 *   ROW EXCLUSIVE and itself (so no one else can hold a lock its writes would wait for), and with no
 *   mode a plain read or a foreign-key check takes (ACCESS SHARE, ROW SHARE): reads go on.
 */
export type NarrowingLockMode = 'SHARE' | 'SHARE ROW EXCLUSIVE';

/**
 * Takes the lock on products a narrowing takes, in `mode`, with the trigger's 10 s limit (the session's
 * lock_timeout is put back after it). Run it inside the transaction, before its first write.
 */
export function lockProductsForNarrowingSql(mode: NarrowingLockMode): string {
  return `DO $narrowing$ DECLARE waited text := current_setting('lock_timeout'); BEGIN
  PERFORM set_config('lock_timeout', '10s', true);
  LOCK TABLE public.products IN ${mode} MODE;
  PERFORM set_config('lock_timeout', waited, true);
END $narrowing$`;
}

/**
 * Whether setting a client's allow-list from `before` to `after` (null: every store of its tenant)
 * may take a store out of its view: when it may, the narrowing trigger will lock products. Errs on
 * the side of yes (an allow-list naming a store that no longer exists).
 */
export function mayNarrow(before: readonly string[] | null, after: readonly string[] | null): boolean {
  if (after === null) return false;
  if (before === null) return true;
  return before.some((store) => !after.includes(store));
}
