import { createRequire } from 'node:module';
import type { LoggerService } from '@nestjs/common';
import { type DestinationStream, pino, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { redactKeys } from '../values/api-key-format.js';
import type { AppConfig } from '../config/app-config.js';

/**
 * JSON lines on stdout, as deployments collect them; on a terminal (`npm start`), lines for a person
 * instead (terminalDestination), when pino-pretty, a development dependency, is installed.
 */
export function createLogger(
  config: Pick<AppConfig, 'logLevel'>,
  destination: DestinationStream | undefined = process.stdout.isTTY ? (terminalDestination() ?? undefined) : undefined,
): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { service: 'catalog-inventory-read-api' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination as never,
  );
}

/** Nest's start-up chatter (modules loaded, routes mapped): one line each, nothing a person needs. */
const NEST_STARTUP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);
/** Fields that terminalLine() writes itself. */
const SHOWN = new Set(['level', 'time', 'service', 'msg', 'context', 'req', 'res', 'route', 'tenantId', 'err']);
SHOWN.add('durationMs').add('clientId').add('requestId');

type Entry = Record<string, unknown> & { level?: string; msg?: string; context?: string; req?: { url?: string } };

/** Lines a person at a terminal does not want: Nest's start-up chatter, and probes and scrapes that went well. */
function isRoutine(entry: Entry): boolean {
  if (entry.level !== 'info') return false;
  if (typeof entry.context === 'string' && NEST_STARTUP_CONTEXTS.has(entry.context)) return true;
  const path = entry.req?.url?.split('?')[0];
  return path !== undefined && (path.startsWith('/health/') || path === '/metrics');
}

/** `GET /v1/catalog/products 200 · 4 ms · cli_a_all · req_…`, then any other field as key=value. */
function terminalLine(entry: Entry): string {
  const parts = [entry.context ? `[${entry.context}] ${entry.msg ?? ''}` : String(entry.msg ?? '')];
  if (typeof entry.durationMs === 'number') parts.push(`${Math.round(entry.durationMs)} ms`);
  for (const key of ['clientId', 'requestId'] as const) if (typeof entry[key] === 'string') parts.push(entry[key]);
  const err = entry.err as { message?: string } | undefined;
  if (err?.message) parts.push(`error: ${err.message}`);
  for (const [key, value] of Object.entries(entry))
    if (!SHOWN.has(key) && value !== null && typeof value !== 'object') parts.push(`${key}=${String(value)}`);
  return parts.join(' · ');
}

/**
 * Writes each JSON line of the logger as one short, coloured line on stdout (pino-pretty), without
 * the routine lines; null where pino-pretty is not installed (production dependencies only).
 */
export function terminalDestination(): DestinationStream | null {
  let pretty: typeof PinoPretty;
  try {
    pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  } catch {
    return null;
  }
  const prettify = pretty.prettyFactory({
    colorize: pretty.isColorSupported,
    translateTime: 'SYS:HH:MM:ss',
    hideObject: true,
    messageFormat: (log) => terminalLine(log as Entry),
  });
  return {
    write(line: string): void {
      const entry = JSON.parse(line) as Entry;
      if (!isRoutine(entry)) process.stdout.write(prettify(entry));
    },
  };
}

/** Nest's own log lines (start-up, errors) in the same JSON form. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string): void {
    this.logger.info({ context }, redactKeys(String(message)));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace: trace ? redactKeys(trace) : undefined }, redactKeys(String(message)));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, redactKeys(String(message)));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, redactKeys(String(message)));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, redactKeys(String(message)));
  }
  fatal(message: unknown, context?: string): void {
    this.logger.fatal({ context }, redactKeys(String(message)));
  }
}
