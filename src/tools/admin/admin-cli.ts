import { parseArgs } from 'node:util';
import type { AppEnv } from '../../config/app-config.js';
import { parseRfc3339DateTime } from '../../values/formats.js';
import {
  AdminError,
  type AdminService,
  type ClientChanges,
  type ClientSummary,
  type KeySummary,
} from './admin.service.js';

type Out = (line: string) => void;

interface CommandSpec {
  usage: string;
  summary: string;
  /** More for the command's own --help. */
  details?: string;
  options: Record<string, { type: 'string' | 'boolean'; short?: string }>;
  positional: number;
  run(
    service: AdminService,
    values: Record<string, string | boolean | undefined>,
    args: string[],
    ctx: { env: AppEnv; out: Out },
  ): Promise<void>;
}

const JSON_FLAG = { json: { type: 'boolean' as const } };
const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/**
 * A table of `rows` under `headers`, columns aligned; `after(i)` gives the lines printed under row i
 * (a client's scopes and stores).
 */
function table(out: Out, headers: string[], rows: string[][], after?: (i: number) => string[]): void {
  if (rows.length === 0) {
    out('(none)');
    return;
  }
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  out(line(headers));
  rows.forEach((row, i) => {
    out(line(row));
    for (const text of after?.(i) ?? []) out(text);
  });
}

/** The width a terminal of 100 columns shows without wrapping lines itself. */
export const LIST_WIDTH = 100;

/** `label: a, b, c` wrapped at LIST_WIDTH, continued under the first item. */
function wrapped(indent: string, label: string, items: string[]): string[] {
  const lines: string[] = [];
  let line = `${indent}${label}: `;
  const continuation = ' '.repeat(line.length);
  items.forEach((item, i) => {
    const piece = i < items.length - 1 ? `${item},` : item;
    if (line.trim().endsWith(':') || line.length + 1 + piece.length <= LIST_WIDTH)
      line += line.endsWith(' ') ? piece : ` ${piece}`;
    else {
      lines.push(line);
      line = continuation + piece;
    }
  });
  return [...lines, line];
}

/**
 * One line per client with its short fields, then its scopes and stores on lines of their own,
 * wrapped: within 100 columns however many it has (a table row with them was 220 wide). `--json`
 * has every field as it is.
 */
function printClients(out: Out, clients: ClientSummary[], json: boolean): void {
  if (json) return out(JSON.stringify(clients, null, 2));
  const shorten = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
  const rows = clients.map((c) => [
    c.id,
    c.tenantId,
    shorten(c.name, 28),
    c.status,
    c.rateLimitPerMinute === null ? 'default' : String(c.rateLimitPerMinute),
    String(c.activeKeys),
  ]);
  table(out, ['ID', 'TENANT', 'NAME', 'STATUS', 'RATE/MIN', 'ACTIVE KEYS'], rows, (i) => {
    const c = clients[i];
    const stores =
      c.allowedStoreIds === null ? ['all'] : c.allowedStoreIds.length === 0 ? ['(none)'] : c.allowedStoreIds;
    return [...wrapped('    ', 'scopes', c.scopes), ...wrapped('    ', 'stores', stores)];
  });
}

function printKeys(out: Out, keys: KeySummary[], json: boolean): void {
  if (json) return out(JSON.stringify(keys, null, 2));
  table(
    out,
    ['ID', 'CLIENT', 'KEY', 'STATUS', 'EXPIRES', 'REVOKED', 'CREATED'],
    keys.map((k) => [k.id, k.clientId, k.hint, k.status, k.expiresAt ?? 'never', k.revokedAt ?? '-', k.createdAt]),
  );
}

function wholeNumber(rate: string): number {
  if (!/^[0-9]+$/.test(rate)) throw new AdminError(`--rate-limit: "${rate}" is not a whole number`);
  return Number(rate);
}

/**
 * `2027-01-31` or an RFC 3339 date-time. A date alone means the end of that day in UTC (23:59:59.999),
 * so that a key given "until 31 January" still works on 31 January.
 */
export function parseExpiry(value: string): Date {
  const text = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T23:59:59.999Z` : value;
  const instant = parseRfc3339DateTime(text);
  if (instant === null)
    throw new AdminError(
      `--expires: "${value}" is not a date (2027-01-31) or an RFC 3339 date-time (2027-01-31T09:00:00Z)`,
    );
  return new Date(instant.floorMs);
}

const COMMANDS: Record<string, CommandSpec> = {
  'clients:create': {
    usage: 'clients:create --tenant T --name N --scopes a,b [--stores s1,s2] [--rate-limit 600] [--json]',
    summary: 'register an integration client (no --stores: every store of the tenant, present and future)',
    options: {
      tenant: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      stores: { type: 'string' },
      'rate-limit': { type: 'string' },
      ...JSON_FLAG,
    },
    positional: 0,
    async run(service, v, _args, { out }) {
      for (const required of ['tenant', 'name', 'scopes'])
        if (v[required] === undefined) throw new AdminError(`--${required} is required`);
      const rate = v['rate-limit'] as string | undefined;
      const client = await service.createClient({
        tenantId: v.tenant as string,
        name: v.name as string,
        scopes: list(v.scopes as string),
        storeIds: v.stores === undefined ? null : list(v.stores as string),
        rateLimitPerMinute: rate === undefined ? null : wholeNumber(rate),
      });
      if (v.json) out(JSON.stringify(client, null, 2));
      else
        out(
          `Created client ${client.id} (${client.name}) in tenant ${client.tenantId}. ` +
            `Issue a key with: npm run admin -- keys:issue --client ${client.id}`,
        );
    },
  },
  'clients:update': {
    usage: 'clients:update CLIENT_ID [--name|--scopes|--stores|--add-stores|--remove-stores|--rate-limit …]',
    summary: "change a client's name, scopes, stores or rate limit",
    details:
      '--name N, --scopes a,b, --stores s1,s2 (or all), --add-stores s3, --remove-stores s1, --rate-limit 600 (or ' +
      'default), --json. --stores sets the stores the client may see (all: every store of its tenant, present and future); ' +
      '--add-stores and --remove-stores change the list it has. Rows of a store that comes into view reach the ' +
      "next incremental sync round of the client's keys; a narrowing, a scope change or a new rate limit " +
      'applies on every running server within 5 seconds.',
    options: {
      name: { type: 'string' },
      scopes: { type: 'string' },
      stores: { type: 'string' },
      'add-stores': { type: 'string' },
      'remove-stores': { type: 'string' },
      'rate-limit': { type: 'string' },
      ...JSON_FLAG,
    },
    positional: 1,
    async run(service, v, args, { out }) {
      const changes: ClientChanges = {};
      if (v.name !== undefined) changes.name = v.name as string;
      if (v.scopes !== undefined) changes.scopes = list(v.scopes as string);
      const add = v['add-stores'] as string | undefined;
      const remove = v['remove-stores'] as string | undefined;
      if (v.stores !== undefined && (add !== undefined || remove !== undefined))
        throw new AdminError('--stores sets the list: it cannot be combined with --add-stores or --remove-stores');
      if (v.stores !== undefined) changes.stores = { set: v.stores === 'all' ? null : list(v.stores as string) };
      else if (add !== undefined || remove !== undefined) changes.stores = { add: list(add), remove: list(remove) };
      const rate = v['rate-limit'] as string | undefined;
      if (rate !== undefined) changes.rateLimitPerMinute = rate === 'default' ? null : wholeNumber(rate);
      if (Object.keys(changes).length === 0)
        throw new AdminError(
          'nothing to change: give --name, --scopes, --stores, --add-stores, --remove-stores or --rate-limit',
        );
      const client = await service.updateClient(args[0], changes);
      if (v.json) return out(JSON.stringify(client, null, 2));
      const stores = client.allowedStoreIds === null ? 'every store' : client.allowedStoreIds.join(', ');
      const rateLimit = client.rateLimitPerMinute === null ? 'the default' : `${client.rateLimitPerMinute}`;
      out(`Client ${client.id} (${client.name}): ${client.scopes.join(', ')}; ${stores}; rate limit ${rateLimit}/min.`);
      out('Running servers apply it within 5 seconds; rows of added stores reach the next incremental sync round.');
    },
  },
  'clients:list': {
    usage: 'clients:list [--tenant T] [--json]',
    summary: 'list integration clients',
    options: { tenant: { type: 'string' }, ...JSON_FLAG },
    positional: 0,
    async run(service, v, _args, { out }) {
      printClients(out, await service.listClients(v.tenant as string | undefined), Boolean(v.json));
    },
  },
  ...Object.fromEntries(
    (['disable', 'enable', 'revoke'] as const).map((verb) => [
      `clients:${verb}`,
      {
        usage: `clients:${verb} CLIENT_ID [--json]`,
        summary: {
          disable: "refuse the client's keys until enabled again",
          enable: "accept the client's keys again",
          revoke: "refuse the client's keys for good",
        }[verb],
        options: { ...JSON_FLAG },
        positional: 1,
        async run(service, v, args, { out }) {
          const status = ({ disable: 'DISABLED', enable: 'ACTIVE', revoke: 'REVOKED' } as const)[verb];
          const client = await service.setClientStatus(args[0], status);
          if (v.json) out(JSON.stringify(client, null, 2));
          else out(`Client ${client.id} is now ${client.status}. Running servers apply this within 5 seconds.`);
        },
      } satisfies CommandSpec,
    ]),
  ),
  'keys:issue': {
    usage: 'keys:issue --client CLIENT_ID [--expires 2027-01-31] [--json]',
    summary: 'issue a new key for a client and print it, once',
    details:
      '--expires takes a date (the key works through the end of that day, 23:59:59.999 UTC) or an RFC 3339 ' +
      'date-time (2027-01-31T09:00:00Z); without it the key does not expire.',
    options: { client: { type: 'string' }, expires: { type: 'string' }, ...JSON_FLAG },
    positional: 0,
    async run(service, v, _args, { env, out }) {
      if (v.client === undefined) throw new AdminError('--client is required');
      const expiresAt = v.expires === undefined ? null : parseExpiry(v.expires as string);
      const issued = await service.issueKey(v.client as string, expiresAt, env);
      if (v.json) return out(JSON.stringify(issued, null, 2));
      out(`Issued key ${issued.id} for client ${issued.clientId} (${env}; expires ${issued.expiresAt ?? 'never'}):`);
      out('');
      out(`  ${issued.key}`);
      out('');
      out('This is the only time the key is shown: only its SHA-256 digest is stored. Hand it to the integration now.');
    },
  },
  'keys:list': {
    usage: 'keys:list --client CLIENT_ID [--json]',
    summary: "list a client's keys (hints only, never the keys)",
    options: { client: { type: 'string' }, ...JSON_FLAG },
    positional: 0,
    async run(service, v, _args, { out }) {
      if (v.client === undefined) throw new AdminError('--client is required');
      printKeys(out, await service.listKeys(v.client as string), Boolean(v.json));
    },
  },
  'sync:restarted-in-place': {
    usage: 'sync:restarted-in-place [--json]',
    summary: 'honour sync positions again after PostgreSQL restarted from its own files',
    details: [
      'After a restart of the primary PostgreSQL server, every sync position handed out before is refused',
      '(a restart cannot be told from a start of a copy of its files, which has gone back in time). Run this',
      'once the server has started again from its own data directory after a clean shutdown (pg_ctl stop -m',
      'smart or fast: a planned restart, a minor-version update), never after a crash, an immediate stop, a',
      'restore, a snapshot or a copy (it refuses a run that began with crash recovery): the',
      'positions of the start before are then honoured again, and integrations need no full copy. You vouch',
      'for it: if the server did go back in time, copies kept by integrations drift without a sign.',
      'See docs/sync.md#restarts-of-postgresql.',
    ].join('\n'),
    options: { ...JSON_FLAG },
    positional: 0,
    async run(service, v, _args, { out }) {
      const restart = await service.restartedInPlace();
      if (v.json) out(JSON.stringify(restart, null, 2));
      else if (restart.already)
        out(
          `The server's start of ${restart.started} already continues its start of ${restart.continues}: nothing changed.`,
        );
      else
        out(
          `The server's start of ${restart.started} continues its start of ${restart.continues}: sync positions ` +
            'handed out under that one are honoured again.',
        );
    },
  },
  'keys:revoke': {
    usage: 'keys:revoke KEY_ID [--json]',
    summary: 'revoke a key for good',
    options: { ...JSON_FLAG },
    positional: 1,
    async run(service, v, args, { out }) {
      const { key, alreadyRevoked } = await service.revokeKey(args[0]);
      // Exit code 0 either way (the key ends up revoked, as asked): the text says which it was.
      if (v.json) out(JSON.stringify(key, null, 2));
      else if (alreadyRevoked)
        out(`Key ${key.id} (${key.hint}) was already revoked (at ${key.revokedAt}): nothing changed.`);
      else out(`Key ${key.id} (${key.hint}) is revoked. Running servers refuse it within 5 seconds.`);
    },
  },
};

export function usage(): string {
  const width = Math.max(...Object.values(COMMANDS).map((c) => c.usage.length));
  return [
    'Usage: npm run admin -- <command> [options]',
    '',
    'Manages integration clients and their API keys in the database of DATABASE_URL (unset: the embedded database of npm start),',
    'and sync positions after a restart of that database server.',
    '',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`),
    '',
    'Every command takes --help and --json. More in docs/clients-and-keys.md.',
  ].join('\n');
}

/** Parses the command line; returns the exit code. Errors are one line on `err`. */
export async function runAdmin(
  argv: string[],
  open: () => Promise<{ service: AdminService; close(): Promise<void> }>,
  ctx: { env: AppEnv; out: Out; err: Out },
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    ctx.out(usage());
    return name === undefined ? 64 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    ctx.err(`Unknown command "${name}". Run "npm run admin -- --help" for the list.`);
    return 64;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    ctx.err(`${(error as Error).message.split(/\n|\. /)[0]} (usage: npm run admin -- ${command.usage})`);
    return 64;
  }
  // parseArgs keeps the last of a repeated option; a command that writes must not guess which was meant.
  const given = parsed.tokens.flatMap((t) => (t.kind === 'option' ? [t.name] : []));
  const repeated = given.find((option, i) => given.indexOf(option) !== i);
  if (repeated !== undefined) {
    ctx.err(`--${repeated} is given more than once (usage: npm run admin -- ${command.usage})`);
    return 64;
  }
  if (parsed.values.help) {
    ctx.out(
      `Usage: npm run admin -- ${command.usage}\n\n${command.summary}.${command.details ? `\n${command.details}` : ''}`,
    );
    return 0;
  }
  if (parsed.positionals.length !== command.positional) {
    ctx.err(
      `${name} takes ${command.positional === 0 ? 'no arguments besides options' : 'exactly one id'} ` +
        `(usage: npm run admin -- ${command.usage})`,
    );
    return 64;
  }
  const db = await open();
  try {
    await command.run(
      db.service,
      parsed.values as Record<string, string | boolean | undefined>,
      parsed.positionals,
      ctx,
    );
    return 0;
  } catch (error) {
    if (error instanceof AdminError) {
      ctx.err(`Error: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await db.close();
  }
}
