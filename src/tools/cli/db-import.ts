import '../../startup/exit-without-deadlock.js';
import 'reflect-metadata';
import { readFile } from 'node:fs/promises';
import { ConfigError, loadConfig } from '../../config/app-config.js';
import { commandDatabase } from '../../startup/command-database.js';
import { createDataSource } from '../../database/data-source-options.js';
import { DatasetImportError, importDataset, type ImportSummary } from '../../dataset/import-dataset.js';
import { decodeDatasetFile } from '../../dataset/dataset-file.js';
import { type DatasetProblem, formatProblem } from '../../dataset/validate-dataset.js';
import { count } from '../../values/plural.js';

/** How the summary names each kind of row: [one, more]. */
const NOUNS: Record<keyof ImportSummary['counts'], [string, string]> = {
  tenants: ['tenant', 'tenants'],
  stores: ['store', 'stores'],
  vatRates: ['VAT rate', 'VAT rates'],
  suppliers: ['supplier', 'suppliers'],
  staff: ['staff member', 'staff members'],
  categories: ['category', 'categories'],
  products: ['product', 'products'],
  stockLevels: ['stock level', 'stock levels'],
  stockMovements: ['stock movement', 'stock movements'],
  promotions: ['promotion', 'promotions'],
  apiClients: ['API client', 'API clients'],
  apiKeys: ['API key', 'API keys'],
};

const USAGE = `Usage: npm run db:import -- FILE [--replace]

Loads a data set in one transaction, into DATABASE_URL or, without it, into the embedded database of
\`npm start\` (running or not). The format, with an example: docs/dataset-format.md
  --replace   first delete every row of the tenants named in the file (other tenants are untouched)
Without --replace, rows are upserted by id.`;

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  const unknown = argv.filter((a) => a.startsWith('-') && a !== '--replace');
  const files = argv.filter((a) => !a.startsWith('-'));
  if (unknown.length > 0 || files.length !== 1) {
    console.error(
      unknown.length > 0 ? `Unknown option: ${unknown[0]}\n\n${USAGE}` : `Give exactly one FILE.\n\n${USAGE}`,
    );
    return 64;
  }
  const config = loadConfig(process.env);
  let bytes: Buffer;
  try {
    bytes = await readFile(files[0]);
  } catch (error) {
    console.error(`Cannot read ${files[0]}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return 66;
  }
  const { text, problems } = decodeDatasetFile(bytes);
  if (text === null) {
    printProblems(files[0], problems);
    return 65;
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    console.error(`${files[0]} is not valid JSON: ${(error as Error).message}`);
    return 65;
  }
  const database = await commandDatabase(config);
  const dataSource = createDataSource({ url: database.url, statementTimeoutMs: 10 * 60 * 1000, poolSize: 2 });
  try {
    await dataSource.initialize();
    const summary = await importDataset(dataSource, input, { replace: argv.includes('--replace') });
    const counts = Object.entries(summary.counts)
      .filter(([, n]) => n > 0)
      .map(([collection, n]) => count(n, ...NOUNS[collection as keyof ImportSummary['counts']]))
      .join(', ');
    const replaced =
      summary.replacedTenants.length > 0 ? ` (replaced tenants: ${summary.replacedTenants.join(', ')})` : '';
    console.log(`Imported ${files[0]}${replaced}: ${counts || 'nothing'}.`);
    const { clients, keys } = summary.stillRevoked;
    if (clients.length + keys.length > 0) {
      const named = [...keys.map((id) => `key ${id}`), ...clients.map((id) => `client ${id}`)].join(', ');
      console.log(`These stay revoked although the file gives them as active (revocation is permanent): ${named}.`);
    }
    return 0;
  } catch (error) {
    if (error instanceof DatasetImportError) {
      printProblems(files[0], error.problems);
      return 65;
    }
    throw error;
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await database.release();
  }
}

function printProblems(file: string, problems: readonly DatasetProblem[]): void {
  console.error(`${file}: nothing was written; ${count(problems.length, 'problem')}:`);
  for (const problem of problems) console.error(`  ${formatProblem(problem)}`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : `Import failed: ${(error as Error).message ?? error}`);
    process.exit(1);
  },
);
