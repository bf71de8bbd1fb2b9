import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { ArgumentsHost } from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import { pino } from 'pino';
import { DatabaseBusyError, DatabaseDeadlineError, DatabaseOverloadedError } from '../database/deadline.js';
import { ErrorEnvelopeFilter } from '../http/error-envelope.filter.js';
import type { MetricsService } from './metrics.service.js';
import { requestObserver } from './request-observer.middleware.js';

/**
 * The level of a request's log line (docs/operations.md#logs): a fault (500) is an `error` with its
 * cause; a refusal for load is not a fault: a 429 is `info` like any answer, a 503 (the service over
 * capacity, docs/rate-limits.md#overload) a `warn` without a cause (the attacks of a stranger logged
 * 33,768 of them at `error`); a request whose client went away first is a `warn` too.
 */
describe('the request log', () => {
  const lines: Record<string, unknown>[] = [];
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    const logger = pino({ level: 'info', formatters: { level: (label) => ({ level: label }) } }, sink);
    const metrics = { observeRequest: () => undefined } as unknown as MetricsService;
    const app = express();
    app.use(requestObserver(metrics, app, logger));
    const failWith = (error: Error) => (_req: Request, _res: Response, next: NextFunction) => next(error);
    app.get('/ok', (_req, res) => void res.json({}));
    app.get('/busy', failWith(new DatabaseBusyError(1)));
    app.get('/overloaded', failWith(new DatabaseOverloadedError(1)));
    app.get('/deadline', failWith(new DatabaseDeadlineError('a statement outlived the request deadline')));
    app.get('/bug', failWith(new TypeError('x is not a function')));
    app.get('/hang', () => undefined);
    const filter = new ErrorEnvelopeFilter();
    app.use((error: unknown, req: Request, res: Response, _next: NextFunction) =>
      filter.catch(error, {
        switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
      } as unknown as ArgumentsHost),
    );
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const lineOf = async (path: string) => {
    const status = (await fetch(`${base}${path}`)).status;
    // The line is written on the response's 'close', after the client has its answer.
    for (let i = 0; i < 50 && !lines.some((l) => (l.req as { url: string }).url === path); i++)
      await new Promise((r) => setTimeout(r, 10));
    const line = lines.find((l) => (l.req as { url: string }).url === path);
    return { status, level: line?.level, err: (line?.err as { message?: string } | undefined)?.message };
  };

  it('a 200 and a 429 are info, a 503 (load shed) is warn without a cause, a 500 is error with its cause', async () => {
    expect(await lineOf('/ok')).toEqual({ status: 200, level: 'info', err: undefined });
    expect(await lineOf('/busy')).toEqual({ status: 429, level: 'info', err: undefined });
    expect(await lineOf('/overloaded')).toEqual({ status: 503, level: 'warn', err: undefined });
    expect(await lineOf('/deadline')).toEqual({
      status: 500,
      level: 'error',
      err: 'a statement outlived the request deadline',
    });
    expect(await lineOf('/bug')).toEqual({ status: 500, level: 'error', err: 'x is not a function' });
  });

  it('a request whose client went away first is warn', async () => {
    const { hostname, port } = new URL(base);
    await new Promise<void>((resolve) => {
      const req = http.get({ hostname, port, path: '/hang' });
      req.on('error', () => resolve());
      setTimeout(() => req.destroy(), 100);
    });
    for (let i = 0; i < 50 && !lines.some((l) => (l.req as { url: string }).url === '/hang'); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(lines.find((l) => (l.req as { url: string }).url === '/hang')).toMatchObject({
      level: 'warn',
      res: { statusCode: null },
    });
  });
});
