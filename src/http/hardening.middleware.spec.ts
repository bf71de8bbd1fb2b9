import { escapeUndecodablePath } from './hardening.middleware.js';

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
