import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { KEYS } from '../../../test/support/dataset.js';
import { type PostgresServer, startPostgresServer } from '../../../test/support/postgres-server.js';
import {
  idOf,
  prepareDatabase,
  type Route,
  type Row,
  type Service,
  serviceState,
  sleep,
  startService,
  Writer,
} from '../../../test/support/sync-harness.js';
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

/** A local copy kept with the client, the README's way: upsert every row of a round, then store its position. */
class ClientCopy {
  readonly copies: Record<Route, Map<string, Row>> = { products: new Map(), stock: new Map() };
  private readonly positions: Partial<Record<Route, string>> = {};

  constructor(private readonly client: Client) {}

  async round(route: Route): Promise<void> {
    const round =
      route === 'products'
        ? this.client.sync.products(this.positions.products, { pageSize: 7 })
        : this.client.sync.stock(this.positions.stock, { pageSize: 7 });
    for await (const row of round) this.copies[route].set(idOf(row), row);
    this.positions[route] = round.position;
  }
}

async function lossTest(options: { replicas: boolean }): Promise<void> {
  const primary = await startPostgresServer();
  const standbys: PostgresServer[] = [];
  let service: Service | undefined;
  const tempDir = mkdtempSync(join(tmpdir(), 'cia-client-sync-loss-'));
  const url = await prepareDatabase(primary);
  const db = new pg.Pool({ connectionString: url, max: 4 });
  let writer: Writer | undefined;
  try {
    if (options.replicas) {
      for (const applyDelayMs of [100, 900])
        standbys.push(await startPostgresServer({ standbyOf: primary, applyDelayMs }));
    }
    service = await startService(url, { replicaUrl: standbys.map((s) => s.url('catalog')).join(',') || undefined });
    const ids = (await db.query(`SELECT id FROM products WHERE tenant_id = 'ten_a' ORDER BY id`)).rows.map(
      (r) => r.id as string,
    );
    writer = new Writer(
      db,
      ids,
      ids.filter((id) => id.includes('_f')),
      url,
      tempDir,
    );
    // The held transaction commits once the client has received four more pages (seen by its fetch).
    let pagesHeld = 0;
    const client = createClient({
      baseUrl: service.base,
      apiKey: KEYS.tenantA,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (writer?.holding && ++pagesHeld >= 4) await writer.commitHeld();
        return response;
      },
    });
    const copy = new ClientCopy(client);
    await copy.round('products');
    await copy.round('stock');
    const writing = writer.run();
    // At least 16 rounds, and as many more as a slow (shared) machine needs for the writer to write 60 times.
    for (let round = 0; round < 16 || (writer.writes <= 60 && round < 400); round++) {
      if (!writer.holding) {
        pagesHeld = 0;
        await writer.holdOpen();
      }
      await sleep(40);
      await copy.round('products');
      await copy.round('stock');
    }
    await writer.stop();
    await writing;
    for (const standby of standbys) {
      for (let i = 0; !(await standby.caughtUpWith(primary)); i++) {
        if (i > 100) throw new Error('a standby does not catch up');
        await sleep(100);
      }
    }
    await copy.round('products');
    await copy.round('stock');
    expect(writer.writes).toBeGreaterThan(50);
    for (const standby of standbys) expect(await standby.transactions('catalog')).toBeGreaterThan(20);
    for (const route of ['products', 'stock'] as const) {
      const state = await serviceState(service, route);
      expect(state.size).toBe(ids.length);
      const differing = [...state.keys()].filter(
        (id) => JSON.stringify(copy.copies[route].get(id)) !== JSON.stringify(state.get(id)),
      );
      expect({
        route,
        differing: differing.map((id) => ({ copy: copy.copies[route].get(id), service: state.get(id) })),
      }).toEqual({ route, differing: [] });
      expect([...copy.copies[route].keys()].sort()).toEqual([...state.keys()].sort());
    }
  } finally {
    await writer?.stop();
    await service?.close();
    await db.end();
    for (const standby of standbys) await standby.stop();
    await primary.stop();
    rmSync(tempDir, { recursive: true, force: true });
  }
}

describe('a copy kept with client.sync', () => {
  it('equals the service after the writer stops, reading from the primary', async () => {
    await lossTest({ replicas: false });
  }, 120_000);

  it('equals the service after the writer stops, reading from streaming replicas that lag', async () => {
    await lossTest({ replicas: true });
  }, 180_000);
});
