import type { LoggerService } from '@nestjs/common';
import type { Request, Response } from 'express';
import { pino, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { redactKeys } from '../auth/api-key-format.js';
import type { AppConfig } from '../config/app-config.js';
import { routeLabel, statusLabel } from './request-observer.middleware.js';

export function createLogger(config: Pick<AppConfig, 'logLevel'>, destination?: NodeJS.WritableStream): Logger {
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

const caller = (req: Request) => ({
  clientId: req.caller?.clientId ?? null,
  tenantId: req.caller?.tenantId ?? null,
  route: routeLabel(req),
});

/**
 * One JSON line per request: request id, client, tenant, route, status and duration. Headers are
 * never logged (the Authorization header carries the key), and key-shaped text in URLs is redacted.
 */
export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req) => (req as unknown as Request).requestId,
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: redactKeys(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: (err: Error) => ({ type: err.name, message: redactKeys(err.message) }),
    },
    customLogLevel: (_req, res, error) => {
      if (statusLabel(res as unknown as Response) === 'aborted') return 'warn';
      return error || res.statusCode >= 500 ? 'error' : 'info';
    },
    customSuccessMessage: (req, res) =>
      `${req.method} ${routeLabel(req as unknown as Request)} ${statusLabel(res as unknown as Response)}`,
    customErrorMessage: (req, res) =>
      `${req.method} ${routeLabel(req as unknown as Request)} ${statusLabel(res as unknown as Response)}`,
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    customSuccessObject: (req, _res, value) => ({ ...value, ...caller(req as unknown as Request) }),
    customErrorObject: (req, _res, _error, value) => ({ ...value, ...caller(req as unknown as Request) }),
    quietReqLogger: true,
  });
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
