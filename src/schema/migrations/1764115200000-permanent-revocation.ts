import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Revocation is permanent, whoever writes: a revoked key (by its digest, so under any key id) or a
 * revoked client (by its id) is never valid again, whatever the admin tool, an import (upsert or
 * --replace, which deletes and re-inserts a tenant's rows) or plain SQL writes later. Revocations
 * are kept in tables of their own, which deleting a tenant does not touch, and triggers apply them
 * to every row written.
 */
export class PermanentRevocation1764115200000 implements MigrationInterface {
  name = 'PermanentRevocation1764115200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE api_key_revocations (
      key_digest char(64) PRIMARY KEY,
      revoked_at timestamptz(3) NOT NULL
    )`);
    await q.query(`CREATE TABLE api_client_revocations (
      client_id opaque_id PRIMARY KEY,
      revoked_at timestamptz(3) NOT NULL
    )`);
    await q.query(`INSERT INTO api_key_revocations (key_digest, revoked_at)
      SELECT key_digest, revoked_at FROM api_keys WHERE revoked_at IS NOT NULL`);
    await q.query(`INSERT INTO api_client_revocations (client_id, revoked_at)
      SELECT id, updated_at FROM api_clients WHERE status = 'REVOKED'`);

    // The earliest revocation time wins (LEAST ignores nulls); a key once revoked is recorded.
    await q.query(`CREATE FUNCTION api_keys_keep_revocation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.revoked_at := LEAST(
          NEW.revoked_at,
          CASE WHEN TG_OP = 'UPDATE' THEN OLD.revoked_at END,
          (SELECT revoked_at FROM api_key_revocations WHERE key_digest = NEW.key_digest));
        IF NEW.revoked_at IS NOT NULL THEN
          INSERT INTO api_key_revocations (key_digest, revoked_at) VALUES (NEW.key_digest, NEW.revoked_at)
            ON CONFLICT (key_digest) DO UPDATE SET revoked_at = LEAST(api_key_revocations.revoked_at, EXCLUDED.revoked_at);
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER api_keys_keep_revocation BEFORE INSERT OR UPDATE ON api_keys
      FOR EACH ROW EXECUTE FUNCTION api_keys_keep_revocation()`);

    await q.query(`CREATE FUNCTION api_clients_keep_revocation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (TG_OP = 'UPDATE' AND OLD.status = 'REVOKED')
           OR EXISTS (SELECT 1 FROM api_client_revocations WHERE client_id = NEW.id) THEN
          NEW.status := 'REVOKED';
        END IF;
        IF NEW.status = 'REVOKED' THEN
          INSERT INTO api_client_revocations (client_id, revoked_at) VALUES (NEW.id, now())
            ON CONFLICT (client_id) DO NOTHING;
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER api_clients_keep_revocation BEFORE INSERT OR UPDATE ON api_clients
      FOR EACH ROW EXECUTE FUNCTION api_clients_keep_revocation()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER api_clients_keep_revocation ON api_clients`);
    await q.query(`DROP FUNCTION api_clients_keep_revocation()`);
    await q.query(`DROP TRIGGER api_keys_keep_revocation ON api_keys`);
    await q.query(`DROP FUNCTION api_keys_keep_revocation()`);
    await q.query(`DROP TABLE api_client_revocations`);
    await q.query(`DROP TABLE api_key_revocations`);
  }
}
