import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { KEYS } from './support/dataset.js';
import { type PostgresServer, startPostgresServer } from './support/postgres-server.js';
import {
  idOf,
  nextLink,
  prepareDatabase,
  ROUTES,
  type Route,
  type Row,
  type Service,
  serviceState,
  sleep,
  startService,
  Writer,
} from './support/sync-harness.js';

/**
 * The loss test of the sync recipe: while a writer updates, deactivates, reactivates and moves
 * products and changes, creates and deletes stock levels (in SQL and through db:import, with old
 * timestamps, and with a transaction held open across several of the client's pages that commits
 * after later ones), a client follows the documented recipe round after round. After the writer
 * stops and one last round, the client's copy equals the service's state, field by field, for
 * products and stock rows. Then again with the reads served by real streaming replicas (hot standbys
 * made with pg_basebackup) that lag behind by different amounts.
 *
 * SYNC_RECIPE=updatedSince runs the client with the recipe this service documented before (keep the
 * largest updatedAt, pass it as updatedSince): the test fails, the copy misses changes.
 */
const RECIPE = process.env.SYNC_RECIPE === 'updatedSince' ? 'updatedSince' : 'changedSince';

/** A client that keeps a copy of products and stock rows by the recipe under test. */
class SyncClient {
  readonly copies: Record<Route, Map<string, Row>> = { products: new Map(), stock: new Map() };
  private readonly positions: Partial<Record<Route, string>> = {};
  private readonly largestUpdatedAt: Partial<Record<Route, string>> = {};
  pages = 0;

  constructor(
    private readonly service: Service,
    private readonly onPage: () => Promise<void> = async () => undefined,
  ) {}

  async round(route: Route): Promise<void> {
    let url: string | undefined = this.firstUrl(route);
    let position: string | null = null;
    while (url !== undefined) {
      const res = await fetch(this.service.base + url, { headers: { Authorization: `Bearer ${KEYS.tenantA}` } });
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { rows: Row[] };
      for (const row of body.rows) {
        this.copies[route].set(idOf(row), row);
        const seen = this.largestUpdatedAt[route];
        if (seen === undefined || String(row.updatedAt) > seen) this.largestUpdatedAt[route] = String(row.updatedAt);
      }
      position = res.headers.get('sync-position') ?? position;
      url = nextLink(res.headers.get('link'));
      this.pages++;
      await this.onPage();
    }
    if (RECIPE === 'changedSince') {
      if (position === null) throw new Error(`${route}: the walk handed out no Sync-Position`);
      this.positions[route] = position;
    }
  }

  private firstUrl(route: Route): string {
    if (RECIPE === 'updatedSince') {
      const since = this.largestUpdatedAt[route];
      return `${ROUTES[route]}?pageSize=7${since ? `&updatedSince=${encodeURIComponent(since)}` : ''}`;
    }
    const position = this.positions[route];
    return `${ROUTES[route]}?activeOnly=false&pageSize=7${position ? `&changedSince=${position}` : ''}`;
  }
}

async function lossTest(options: { replicas: boolean }): Promise<void> {
  const primary = await startPostgresServer();
  const standbys: PostgresServer[] = [];
  let service: Service | undefined;
  const tempDir = mkdtempSync(join(tmpdir(), 'cia-sync-loss-'));
  const url = await prepareDatabase(primary);
  const db = new pg.Pool({ connectionString: url, max: 4 });
  let writer: Writer | undefined;
  try {
    // Two standbys that lag by different amounts: one walk's pages may be read from either.
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
    // A transaction is held open across several of the client's pages (four), while later ones
    // commit; then the next one opens at the start of the next round.
    let pagesHeld = 0;
    let laggedRounds = 0;
    const client = new SyncClient(service, async () => {
      if (writer?.holding && ++pagesHeld >= 4) await writer.commitHeld();
    });
    await client.round('products');
    await client.round('stock');
    const writing = writer.run();
    // At least 16 rounds, and on a busy machine as many more as it takes the writer to make 60 writes.
    for (let round = 0; round < 16 || (writer.writes <= 60 && round < 400); round++) {
      if (!writer.holding) {
        pagesHeld = 0;
        await writer.holdOpen();
      }
      await sleep(40);
      await client.round('products');
      await client.round('stock');
      for (const standby of standbys) if (!(await standby.caughtUpWith(primary))) laggedRounds++;
    }
    await writer.stop();
    await writing;
    for (const standby of standbys) {
      for (let i = 0; !(await standby.caughtUpWith(primary)); i++) {
        if (i > 100) throw new Error('a standby does not catch up');
        await sleep(100);
      }
    }
    await client.round('products');
    await client.round('stock');
    expect(writer.writes).toBeGreaterThan(50);
    if (standbys.length > 0) {
      // The replicas did lag behind the writes, and they served the reads.
      expect(laggedRounds).toBeGreaterThan(0);
      for (const standby of standbys) expect(await standby.transactions('catalog')).toBeGreaterThan(20);
    }
    for (const route of ['products', 'stock'] as const) {
      const state = await serviceState(service, route);
      expect(state.size).toBe(ids.length);
      const differing = [...state.keys()].filter(
        (id) => JSON.stringify(client.copies[route].get(id)) !== JSON.stringify(state.get(id)),
      );
      expect({
        route,
        differing: differing.map((id) => ({ copy: client.copies[route].get(id), service: state.get(id) })),
      }).toEqual({
        route,
        differing: [],
      });
      expect([...client.copies[route].keys()].sort()).toEqual([...state.keys()].sort());
    }
  } finally {
    // A failed round must not leave the held transaction open: the writer would wait on it for ever.
    await writer?.stop();
    await service?.close();
    await db.end();
    for (const standby of standbys) await standby.stop();
    await primary.stop();
    rmSync(tempDir, { recursive: true, force: true });
  }
}

describe(`a client following the ${RECIPE} recipe`, () => {
  it('keeps a copy equal to the service, reading from the primary', async () => {
    await lossTest({ replicas: false });
  }, 120_000);

  it('keeps a copy equal to the service, reading from streaming replicas that lag', async () => {
    await lossTest({ replicas: true });
  }, 180_000);
});
