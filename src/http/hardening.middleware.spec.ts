import type { NextFunction, Request, Response } from 'express';
import { escapeUndecodablePath, hardeningMiddleware } from './hardening.middleware.js';

describe('escapeUndecodablePath', () => {
  it('leaves paths that decode untouched, query strings included', () => {
    expect(escapeUndecodablePath('/v1/catalog/products/prd_1?q=%E0%A4')).toBe('/v1/catalog/products/prd_1?q=%E0%A4');
    expect(escapeUndecodablePath('/v1/catalog/products/caf%C3%A9')).toBe('/v1/catalog/products/caf%C3%A9');
  });

  it('re-escapes only the segments that do not decode, so they stand for their literal text', () => {
    const escaped = escapeUndecodablePath('/v1/catalog/products/%E0%A4%A?pageSize=1');
    expect(escaped).toBe('/v1/catalog/products/%25E0%25A4%25A?pageSize=1');
    expect(decodeURIComponent(escaped.split('?')[0].split('/')[4])).toBe('%E0%A4%A');
    expect(escapeUndecodablePath('/v1/%zz/products/ok%20')).toBe('/v1/%25zz/products/ok%20');
  });
});

describe('hardeningMiddleware', () => {
  const headersFor = (url: string, path = url.split('?')[0]): Record<string, string> => {
    const headers: Record<string, string> = {};
    const res = { setHeader: (name: string, value: string) => (headers[name] = value) } as unknown as Response;
    hardeningMiddleware({ url, path } as Request, res, (() => undefined) as NextFunction);
    return headers;
  };

  it.each(['/v1', '/v1/catalog/products', '/v1?x=1', 'http://host/v1/catalog/products'])('marks %s no-store', (url) => {
    const path = url.startsWith('http') ? '/v1/catalog/products' : undefined;
    expect(headersFor(url, path)).toEqual({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' });
  });

  it.each(['/v10', '/v1x/a', '/health/live', '/docs'])('does not mark %s', (url) => {
    expect(headersFor(url)).toEqual({ 'X-Content-Type-Options': 'nosniff' });
  });

  // Node's parser lets `\` and `#` through, and Express routes such a target by its path as
  // url.parse reads it: `/v1\catalog\products#x` is the products list (its raw text is not /v1).
  it.each([
    ['/v1\\catalog\\products#x', '/v1/catalog/products'],
    ['/v1#x', '/v1'],
  ])('judges %s by the path it is routed by', (url, path) => {
    expect(headersFor(url, path)).toEqual({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' });
  });
});
