import { jest } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config.js';
import { MetricsService } from '../observability/metrics.service.js';
import { RateLimitStore } from './rate-limit.store.js';

const inProcessStore = (): RateLimitStore =>
  new RateLimitStore(loadConfig({}), new MetricsService({ driver: {} } as unknown as DataSource));

describe('RateLimitStore in process', () => {
  let store: RateLimitStore;
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-11-23T12:00:00.000Z') });
    store = inProcessStore();
  });
  afterEach(() => {
    store.onModuleDestroy();
    jest.useRealTimers();
  });

  it('counts in fixed windows: t is the time left in the window, and the budget is whole when it ends', async () => {
    expect(await store.hit('client:a', 5)).toMatchObject({ remaining: 4, resetSeconds: 60, exceeded: false });
    jest.advanceTimersByTime(25_000);
    expect(await store.hit('client:a', 5)).toMatchObject({ remaining: 3, resetSeconds: 35, exceeded: false });
    jest.advanceTimersByTime(34_500);
    expect(await store.hit('client:a', 5)).toMatchObject({ remaining: 2, resetSeconds: 1, exceeded: false });
    jest.advanceTimersByTime(500);
    expect(await store.hit('client:a', 5)).toMatchObject({ remaining: 4, resetSeconds: 60, exceeded: false });
  });

  it('blocks a key for one window from the request that went over, and reports the block', async () => {
    for (let i = 0; i < 3; i++) await store.hit('ip:198.51.100.7', 3);
    jest.advanceTimersByTime(10_000);
    expect(await store.hit('ip:198.51.100.7', 3)).toMatchObject({ exceeded: true, resetSeconds: 60 });
    expect(await store.blockedSeconds('ip:198.51.100.7')).toBe(60);
    jest.advanceTimersByTime(59_000);
    expect(await store.blockedSeconds('ip:198.51.100.7')).toBe(1);
    jest.advanceTimersByTime(1_000);
    expect(await store.blockedSeconds('ip:198.51.100.7')).toBe(0);
    expect(await store.blockedSeconds('ip:203.0.113.1')).toBe(0);
  });

  it('tells where a key stands without spending from it', async () => {
    expect(await store.peek('ip:198.51.100.8', 3)).toMatchObject({ remaining: 3, resetSeconds: 0 });
    await store.hit('ip:198.51.100.8', 3);
    jest.advanceTimersByTime(20_000);
    for (let i = 0; i < 3; i++)
      expect(await store.peek('ip:198.51.100.8', 3)).toMatchObject({ remaining: 2, resetSeconds: 40 });
    expect(await store.hit('ip:198.51.100.8', 3)).toMatchObject({ remaining: 1 });
  });

  it('keeps one record per key whatever its traffic, and sweeps the keys whose window and block are over', async () => {
    for (let i = 0; i < 10_000; i++) await store.hit('client:busy', 1_000_000);
    await store.hit('client:quiet', 10);
    expect(store.inProcessKeys()).toBe(2);
    // The sweep runs once a window and drops every key whose window (and block) is over.
    jest.advanceTimersByTime(60_000);
    await store.hit('client:busy', 1_000_000);
    expect(store.inProcessKeys()).toBe(1);
    jest.advanceTimersByTime(60_000);
    expect(store.inProcessKeys()).toBe(0);
  });
});
