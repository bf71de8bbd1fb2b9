import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * The tenant boundary is structural: the code of /v1 data (src/catalog, src/inventory, src/lists)
 * reaches the database only through the list engine, which reads only through ScopedReader (which
 * refuses a statement not bound to the request's tenant and stores), and every read of the engine
 * takes the caller or the DataScope that only DataScopeService makes (or a ListRead, which holds
 * one). These checks read the source, so a new query that skips a rule fails the build before any
 * request could show it.
 */
const ROOT = new URL('..', import.meta.url).pathname;
const V1_DATA = ['src/catalog', 'src/inventory', 'src/lists'];
/** Where /v1 data is read: the list engine, for every list (paginated or read whole). */
const READERS = ['src/lists/list-engine.ts'];

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

const source = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
const v1Files = V1_DATA.flatMap(files).filter((f) => !f.endsWith('.spec.ts'));
const repositories = v1Files.filter((f) => f.endsWith('.repository.ts'));
const others = v1Files.filter((f) => !f.endsWith('.repository.ts') && !READERS.includes(f));

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
  // A repository would be a second way to write a scoped read, with its own statement-cache keys.
  it('finds no repository of /v1 resources: every read of them is a list declaration the engine runs', () => {
    expect(repositories.map((f) => relative('src', f)).sort()).toEqual([]);
  });

  it.each(others)('%s does not reach the database', (file) => {
    const text = source(file);
    expect(DATABASE_ACCESS.filter((pattern) => pattern.test(text)).map(String)).toEqual([]);
  });

  it.each([...repositories, ...READERS])('%s reads only through ScopedReader', (file) => {
    const text = source(file);
    expect(text).toMatch(/\bScopedReader\b/);
    const forbidden = DATABASE_ACCESS.filter((p) => !String(p).includes('ScopedReader')).filter((p) => p.test(text));
    expect(forbidden.map(String)).toEqual([]);
    expect(text).not.toMatch(/\bSqlReader\b/);
  });

  it('every method of the list engine takes a definition, then the caller or the scope', () => {
    const file = READERS[0];
    const sourceFile = ts.createSourceFile(file, source(file), ts.ScriptTarget.ES2023, true);
    const methods: { name: string; params: (string | undefined)[] }[] = [];
    sourceFile.forEachChild((node) => {
      if (!ts.isClassDeclaration(node)) return;
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member)) continue;
        if (member.modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword)) continue;
        const params = member.parameters.slice(0, 2).map((p) => p.type?.getText(sourceFile));
        methods.push({ name: member.name.getText(sourceFile), params });
      }
    });
    expect(methods.length).toBeGreaterThan(0);
    const wrong = methods.filter(
      (m) =>
        !/^ListDefinition(<\w+>)?$/.test(m.params[0] ?? '') ||
        !['ApiCaller', 'DataScope', 'ListRead'].includes(m.params[1] ?? ''),
    );
    expect(wrong).toEqual([]);
  });

  it('makes a DataScope only in DataScopeService', () => {
    const makers = files('src')
      .filter((f) => !f.endsWith('.spec.ts') && f !== 'src/tenancy/data-scope.ts')
      .filter((f) => /as (unknown as )?DataScope\b/.test(source(f)));
    expect(makers).toEqual([]);
  });
});

describe('the folders of src/', () => {
  /** Top-level folders each import points into (files at the top, main.ts and the app module, compose all). */
  function folderImports(): Map<string, Set<string>> {
    const edges = new Map<string, Set<string>>();
    const top = (file: string): string | null => {
      const parts = relative('src', file).split('/');
      return parts.length > 1 ? parts[0] : null;
    };
    for (const file of files('src').filter((f) => !f.endsWith('.spec.ts'))) {
      for (const m of source(file).matchAll(/from '(\.[^']+)'/g)) {
        const from = top(file);
        const to = top(join(file, '..', m[1]));
        if (from === null || to === null || from === to) continue;
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)!.add(to);
      }
    }
    return edges;
  }

  it('import each other without a cycle', () => {
    const edges = folderImports();
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      [...(edges.get(from) ?? [])].some(
        (next) => next === to || (!seen.has(next) && (seen.add(next), reaches(next, to, seen))),
      );
    const cycles = [...edges].flatMap(([from, tos]) =>
      [...tos].filter((to) => reaches(to, from)).map((to) => `${from} -> ${to}`),
    );
    expect(cycles).toEqual([]);
  });

  it('the schema imports no feature', () => {
    expect([...(folderImports().get('schema') ?? [])]).toEqual([]);
  });
});
