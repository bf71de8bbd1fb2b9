import '../../startup/exit-without-deadlock.js';
import 'reflect-metadata';
import { AdminService } from '../admin/admin.service.js';
import { runAdmin } from '../admin/admin-cli.js';
import { ConfigError, loadConfig } from '../../config/app-config.js';
import { createDataSource } from '../../database/data-source-options.js';
import { commandDatabase } from '../../startup/command-database.js';

async function main(): Promise<number> {
  const config = loadConfig(process.env);
  return runAdmin(
    process.argv.slice(2),
    async () => {
      const database = await commandDatabase(config);
      const db = createDataSource({ url: database.url, poolSize: 2 });
      await db.initialize();
      return {
        service: new AdminService(db),
        close: async () => {
          await db.destroy();
          await database.release();
        },
      };
    },
    { env: config.appEnv, out: (line) => console.log(line), err: (line) => console.error(line) },
  );
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : `Error: ${(error as Error).message ?? error}`);
    process.exit(1);
  },
);
