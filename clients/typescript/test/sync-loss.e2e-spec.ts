import { idOf, type Route, type Row, runLossTest } from '../../../test/support/sync-harness.js';
import { type Client, createClient } from '../src/index.js';

/**
 * The loss test of test/sync-loss.e2e-spec.ts, with the client doing the syncing: while the writer
 * updates, deactivates, reactivates and moves products, changes, creates and deletes stock levels (in
 * SQL and through db:import, with old timestamps, and with a transaction held open across several of
 * the client's pages that commits after later ones), a copy is kept by `client.sync.products(position)`
 * and `client.sync.stock(position)` round after round, as the package README shows. After the writer
 * stops and one last round, the copy equals the service's state field by field; on the primary, then
 * with reads served by two streaming replicas that lag behind by different amounts.
 */

/**
 * A local copy kept with the client, the README's way: upsert every changed row of a round, delete every
 * row its removals list, then store its position.
 */
class ClientCopy {
  readonly copies: Record<Route, Map<string, Row>> = { products: new Map(), stock: new Map() };
  private readonly positions: Partial<Record<Route, string>> = {};

  constructor(private readonly client: Client) {}

  async round(route: Route): Promise<void> {
    const round =
      route === 'products'
        ? this.client.sync.products(this.positions.products, { pageSize: 7 })
        : this.client.sync.stock(this.positions.stock, { pageSize: 7 });
    this.positions[route] = await round.apply({
      onRow: (row) => this.copies[route].set(idOf(row), row),
      onRemove: (removal) => this.copies[route].delete(idOf(removal)),
    });
  }
}

async function lossTest(options: { replicas: boolean }): Promise<void> {
  await runLossTest({
    ...options,
    tempPrefix: 'cia-client-sync-loss-',
    copier: (service, onPage, apiKey) =>
      new ClientCopy(
        createClient({
          baseUrl: service.base,
          apiKey,
          fetch: async (input, init) => {
            const response = await fetch(input, init);
            await onPage();
            return response;
          },
        }),
      ),
  });
}

describe('a copy kept with client.sync', () => {
  it('equals the service after the writer stops, reading from the primary', async () => {
    await lossTest({ replicas: false });
  }, 120_000);

  it('equals the service after the writer stops, reading from streaming replicas that lag', async () => {
    await lossTest({ replicas: true });
  }, 180_000);
});
