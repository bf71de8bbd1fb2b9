import * as crypto from 'node:crypto';
import { createHash, randomBytes } from 'node:crypto';
import type { AppEnv } from '../config/app-config.js';

/** `ck_live_` keys work only on production servers, `ck_test_` keys only on development servers. */
export const KEY_PREFIX: Record<AppEnv, string> = { production: 'ck_live_', development: 'ck_test_' };
export const KEY_PATTERN = /^ck_(live|test)_[A-Za-z0-9]{32,64}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Anything shaped like an API key, also when percent-encoded (`ck%5Ftest%5F…`) or in another case:
 * what logs redact and what a request id may not carry.
 */
const KEY_LIKE = /ck(?:_|%5f)(live|test)(?:_|%5f)(?:[A-Za-z0-9]|%[0-9a-f]{2})+/gi;
export const redactKeys = (text: string): string => text.replace(KEY_LIKE, 'ck_$1_[REDACTED]');
export const containsKeyLike = (text: string): boolean => text.search(KEY_LIKE) !== -1;

/** Node's one-shot digest (20.12 and later): no Hash object per request. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export function digestKey(key: string): string {
  return oneShot ? oneShot('sha256', key, 'hex') : createHash('sha256').update(key, 'utf8').digest('hex');
}

/** What lists and logs may show of a key: its prefix and last 4 characters. */
export function keyHint(key: string): string {
  return `${key.slice(0, 8)}…${key.slice(-4)}`;
}

export function isKeyForEnvironment(key: string, env: AppEnv): boolean {
  return KEY_PATTERN.test(key) && key.startsWith(KEY_PREFIX[env]);
}

/** 40 characters from a cryptographic source, without modulo bias (about 238 bits). */
export function generateKey(env: AppEnv, length = 40): string {
  let body = '';
  while (body.length < length) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && body.length < length) body += ALPHABET[byte % 62];
    }
  }
  return KEY_PREFIX[env] + body;
}

/** `Bearer` in any case, exactly one space, then the key. */
const BEARER = /^bearer ([^\s]+)$/i;

/** The key an `Authorization` header presents, or undefined when it is not one. */
export function bearerKey(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}
