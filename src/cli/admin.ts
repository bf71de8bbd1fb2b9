import 'reflect-metadata';
import { AdminService } from '../admin/admin.service.js';
import { runAdmin } from '../admin/admin-cli.js';
import { ConfigError, loadConfig } from '../config/app-config.js';
import { createDataSource } from '../database/data-source-options.js';
import { runningEmbeddedUrl } from '../database/embedded-postgres.js';
import { EMBEDDED_DATABASE, prepareDatabase } from '../database/prepare-database.js';

async function main(): Promise<number> {
  const config = loadConfig(process.env);
  return runAdmin(process.argv.slice(2), async () => {
    // Without DATABASE_URL: the embedded database of `npm start`, running or not.
    let url = config.databaseUrl ?? runningEmbeddedUrl(config.dataDir, EMBEDDED_DATABASE);
    let stopEmbedded = async (): Promise<void> => undefined;
    if (url === null) {
      const prepared = await prepareDatabase(config, () => undefined);
      url = prepared.config.databaseUrl!;
      stopEmbedded = async () => prepared.embedded?.stop();
    }
    const db = createDataSource({ url, poolSize: 2 });
    await db.initialize();
    return {
      service: new AdminService(db),
      close: async () => {
        await db.destroy();
        await stopEmbedded();
      },
    };
  }, { env: config.appEnv, out: (line) => console.log(line), err: (line) => console.error(line) });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : `Error: ${(error as Error).message ?? error}`);
    process.exit(1);
  },
);
