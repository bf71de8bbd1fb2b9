import type { IncomingMessage } from 'node:http';
import { gateClientOf } from './pipeline-depth.js';

const request = (authorization?: string): IncomingMessage =>
  ({ headers: authorization === undefined ? {} : { authorization }, socket: { remoteAddress: '10.0.0.7' } }) as never;

describe('gateClientOf', () => {
  it('counts one key as one client, however its scheme is spelled', () => {
    const spellings = ['Bearer ck_test_k1', 'bearer ck_test_k1', 'BEARER ck_test_k1', 'bEaReR ck_test_k1'];
    expect(new Set(spellings.map((s) => gateClientOf(request(s))))).toEqual(new Set(['key ck_test_k1']));
    expect(gateClientOf(request('Bearer ck_test_k2'))).not.toEqual(gateClientOf(request('Bearer ck_test_k1')));
  });

  it('counts another credential as sent, and no credential by the address', () => {
    expect(gateClientOf(request('Basic abc'))).toBe('credential Basic abc');
    expect(gateClientOf(request())).toBe('address 10.0.0.7');
  });
});
