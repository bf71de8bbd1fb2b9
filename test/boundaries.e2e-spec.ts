import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * The tenant boundary is structural: the code of /v1 data (src/catalog, src/inventory) reaches the
 * database only through repositories, the repositories only through ScopedReader (which refuses a
 * statement not bound to the request's tenant), and every repository method takes the DataScope that
 * only DataScopeService makes. These checks read the source, so a new query that skips a rule fails
 * the build before any request could show it.
 */
const ROOT = new URL('..', import.meta.url).pathname;
const V1_DATA = ['src/catalog', 'src/inventory'];

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

const source = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
const v1Files = V1_DATA.flatMap(files).filter((f) => !f.endsWith('.spec.ts'));
const repositories = v1Files.filter((f) => f.endsWith('.repository.ts'));
const others = v1Files.filter((f) => !f.endsWith('.repository.ts'));

/** What reaches the database other than a repository of src/catalog or src/inventory. */
const DATABASE_ACCESS = [
  /createQueryBuilder/,
  /\.query\s*\(/,
  /getRepository|InjectRepository|InjectDataSource|TypeOrmModule/,
  /\bDataSource\b|\bEntityManager\b|\bQueryRunner\b/,
  /from ['"]pg['"]|\bPool\b|PoolClient/,
  /\bSqlReader\b|\bScopedReader\b/,
];

describe('the tenant boundary', () => {
  it('finds the repositories of every /v1 resource', () => {
    expect(repositories.map((f) => relative('src', f)).sort()).toEqual([
      'catalog/categories/categories.repository.ts',
      'catalog/products/products.repository.ts',
      'catalog/promotions/promotions.repository.ts',
      'inventory/stock/stock.repository.ts',
    ]);
  });

  it.each(others)('%s does not reach the database', (file) => {
    const text = source(file);
    expect(DATABASE_ACCESS.filter((pattern) => pattern.test(text)).map(String)).toEqual([]);
  });

  it.each(repositories)('%s reads only through ScopedReader', (file) => {
    const text = source(file);
    expect(text).toMatch(/\bScopedReader\b/);
    const forbidden = DATABASE_ACCESS.filter((p) => !String(p).includes('ScopedReader')).filter((p) => p.test(text));
    expect(forbidden.map(String)).toEqual([]);
    expect(text).not.toMatch(/\bSqlReader\b/);
  });

  it.each(repositories)('every method of %s takes a DataScope first', (file) => {
    const sourceFile = ts.createSourceFile(file, source(file), ts.ScriptTarget.ES2023, true);
    const methods: { name: string; first: string | undefined }[] = [];
    sourceFile.forEachChild(function visit(node) {
      if (ts.isClassDeclaration(node)) {
        for (const member of node.members) {
          if (!ts.isMethodDeclaration(member)) continue;
          const isPrivate = member.modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword);
          if (isPrivate) continue;
          methods.push({
            name: member.name.getText(sourceFile),
            first: member.parameters[0]?.type?.getText(sourceFile),
          });
        }
      }
    });
    expect(methods.length).toBeGreaterThan(0);
    expect(methods.filter((m) => m.first !== 'DataScope')).toEqual([]);
  });

  it('makes a DataScope only in DataScopeService', () => {
    const makers = files('src')
      .filter((f) => !f.endsWith('.spec.ts') && f !== 'src/tenancy/data-scope.ts')
      .filter((f) => /as (unknown as )?DataScope\b/.test(source(f)));
    expect(makers).toEqual([]);
  });
});
