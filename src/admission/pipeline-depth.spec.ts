import type { IncomingMessage } from 'node:http';
import { gateClientOf } from './pipeline-depth.js';

const request = (authorization?: string, remoteAddress = '10.0.0.7'): IncomingMessage =>
  ({ headers: authorization === undefined ? {} : { authorization }, socket: { remoteAddress } }) as never;

/** What the key cache knows: two keys of client c1, one of c2 (by the header as sent, for the test). */
const known = (req: IncomingMessage): string | undefined =>
  ({ 'Bearer k1': 'c1', 'bearer k1': 'c1', 'BEARER k1': 'c1', 'Bearer k1b': 'c1', 'Bearer k2': 'c2' })[
    req.headers.authorization!
  ];

describe('gateClientOf', () => {
  it('counts a key known valid as its API client, whatever key of it and however Bearer is spelled', () => {
    const names = ['Bearer k1', 'bearer k1', 'BEARER k1', 'Bearer k1b'].map((h) => gateClientOf(request(h), known));
    expect(new Set(names)).toEqual(new Set(['client c1']));
    expect(gateClientOf(request('Bearer k2'), known)).toBe('client c2');
  });

  it('counts anything else by its address: junk, keys not known valid, no credential', () => {
    // Credentials cost nothing to invent: 300 of them from one address are one client, not 300.
    const junk = ['Basic abc', 'Bearer ck_test_unknownKey000000000000000000000001', 'x'.repeat(50), 'Bearer'];
    expect(new Set(junk.map((h) => gateClientOf(request(h), known)))).toEqual(new Set(['address 10.0.0.7']));
    expect(gateClientOf(request())).toBe('address 10.0.0.7');
    expect(gateClientOf(request('Bearer k1'))).toBe('address 10.0.0.7');
    expect(gateClientOf(request('Basic abc', '10.0.0.8'), known)).toBe('address 10.0.0.8');
  });
});
