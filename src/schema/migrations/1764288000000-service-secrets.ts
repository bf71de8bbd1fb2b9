import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Secrets the service makes for itself and shares between its replicas through the database: the key
 * that signs pagination cursors (so that a cursor that was altered is refused). 256 random bits from
 * gen_random_uuid's strong random source, made once per database.
 */
export class ServiceSecrets1764288000000 implements MigrationInterface {
  name = 'ServiceSecrets1764288000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE service_secrets (name text PRIMARY KEY, value text NOT NULL)`);
    await q.query(`INSERT INTO service_secrets (name, value)
      VALUES ('cursor_signing_key', replace(gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text, '-', ''))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE service_secrets`);
  }
}
