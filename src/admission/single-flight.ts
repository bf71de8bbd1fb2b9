/**
 * Concurrent calls for the same key share one call (docs/rate-limits.md#overload): a burst of
 * requests that all miss a cache (a fresh process, an entry just expired) makes one lookup, not one
 * per request. The call is forgotten once it settles, so a failure is not cached.
 */
export class SingleFlight<K, V> {
  private readonly inFlight = new Map<K, Promise<V>>();

  run(key: K, call: () => Promise<V>): Promise<V> {
    let flight = this.inFlight.get(key);
    if (flight === undefined) {
      flight = call().finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, flight);
    }
    return flight;
  }
}
