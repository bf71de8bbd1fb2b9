import type pgModule from 'pg';

export declare const RUN_ENV: { runId: string; serverUrl: string; tempDir: string };
export declare function runDatabasePrefix(): string;
export declare function runDatabaseName(suffix: string): string;
export declare function serverUrlWith(serverUrl: string, database: string): string;
export declare function adminQuery(
  pg: typeof pgModule,
  serverUrl: string,
  sql: string,
  params?: unknown[],
): Promise<pgModule.QueryResult>;
