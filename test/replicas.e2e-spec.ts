import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { createDataSource } from '../src/database/data-source-options.js';
import { importDataset } from '../src/dataset/import-dataset.js';
import { KEYS, testDataset } from './support/dataset.js';
import { createTestApp } from './support/test-app.js';
import { createTestDatabase, dropTestDatabase } from './support/test-database.js';

describe('DATABASE_REPLICA_URLS', () => {
  it('sends the /v1 reads to the replica and key lookups to the primary', async () => {
    // A second database stands in for a streaming replica; its data differs so the answer shows where a query went.
    const replicaUrl = await createTestDatabase();
    const replica = createDataSource({ url: replicaUrl, poolSize: 1 });
    await replica.initialize();
    await importDataset(replica, testDataset(), { replace: false });
    await replica.query(`UPDATE products SET name = 'Cola (served by the replica)' WHERE id = 'prd_a1_cola'`);
    await replica.query(`UPDATE stock_levels SET quantity = 999 WHERE product_id = 'prd_a1_cola'`);
    // A key that exists only on the replica must not authenticate: keys are checked on the primary.
    await replica.query(
      `INSERT INTO api_keys (id, client_id, key_digest, key_hint)
       VALUES ('key_replica_only', 'cli_a_all', encode(sha256('ck_test_ReplicaOnlyKey00000000000000000000000001'::bytea), 'hex'), 'x')`,
    );

    const t = await createTestApp({ dataset: testDataset(), env: { DATABASE_REPLICA_URLS: replicaUrl } });
    try {
      const product = await t.get('/v1/catalog/products/prd_a1_cola', KEYS.tenantA).expect(200);
      expect(product.body.name).toBe('Cola (served by the replica)');
      const list = await t.get('/v1/catalog/products?sku=COLA-330&storeId=sto_a1', KEYS.tenantA).expect(200);
      expect(list.body.rows[0].name).toBe('Cola (served by the replica)');
      const stock = await t.get('/v1/inventory/stock?productId=prd_a1_cola', KEYS.tenantA).expect(200);
      expect(stock.body.rows[0].quantity).toBe('999.000');
      await t.get('/v1/catalog/products', 'ck_test_ReplicaOnlyKey00000000000000000000000001').expect(401);
      const primary = await t.db.query(`SELECT name FROM products WHERE id = 'prd_a1_cola'`);
      expect(primary[0].name).toBe('Cola 330ml can');
    } finally {
      await t.close();
      await replica.destroy();
      await dropTestDatabase(replicaUrl);
    }
  });

  it('is not ready while a read replica does not answer', async () => {
    // The replica sits behind a TCP proxy of the test's own, which is then stopped.
    const replicaUrl = new URL(await createTestDatabase());
    const sockets = new Set<Socket>();
    const proxy = createServer((client) => {
      const upstream = connect(Number(replicaUrl.port || 5432), replicaUrl.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => undefined).on('close', () => sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxied = new URL(replicaUrl);
    proxied.hostname = '127.0.0.1';
    proxied.port = String((proxy.address() as AddressInfo).port);
    const t = await createTestApp({ dataset: testDataset(), env: { DATABASE_REPLICA_URLS: proxied.toString() } });
    try {
      expect((await t.http().get('/health/ready').expect(200)).body.info.replicas).toEqual({
        status: 'up',
        answering: 1,
        of: 1,
      });
      await new Promise<void>((resolve) => {
        proxy.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      const res = await t.http().get('/health/ready').expect(503);
      expect(res.body.error.replicas).toEqual({ status: 'down', answering: 0, of: 1 });
      await t.http().get('/health/live').expect(200);
    } finally {
      await t.close();
      await dropTestDatabase(replicaUrl.toString());
    }
  });
});
