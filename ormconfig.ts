/**
 * The TypeORM DataSource for TypeORM's own CLI (migration:show, migration:revert, …).
 * The service and `npm run db:migrate` use the same options through src/database/data-source-options.ts.
 */
import { loadConfig } from './src/config/app-config.js';
import { createDataSource } from './src/database/data-source-options.js';

const config = loadConfig();
if (config.databaseUrl === null) {
  throw new Error('ormconfig.ts needs DATABASE_URL (the embedded database is started only by npm start and npm test).');
}
export default createDataSource({ url: config.databaseUrl, replicaUrls: [] });
