import { Counter, Histogram, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { MetricsService } from './metrics.service.js';

const NAMES = ['http_requests_total', 'http_request_duration_seconds'];

/** prom-client counting the same requests its own way: what /metrics showed before RequestSeries. */
function reference(): { registry: Registry; observe(method: string, route: string, status: string, s: number): void } {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status'];
  const requests = new Counter({
    name: NAMES[0],
    help: 'HTTP requests by route, method and status.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: NAMES[1],
    help: 'HTTP request duration by route, method and status.',
    labelNames,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return {
    registry,
    observe: (method, route, status, s) => {
      requests.labels(method, route, status).inc();
      duration.labels(method, route, status).observe(s);
    },
  };
}

const text = async (registry: Registry): Promise<string> =>
  (await Promise.all(NAMES.map((name) => registry.getSingleMetricAsString(name)))).join('\n');

describe('MetricsService request series', () => {
  const seed = Number(process.env.METRICS_SEED ?? Math.floor(Math.random() * 2 ** 31));
  let state = seed;
  const random = (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];

  beforeAll(() => console.log(`METRICS_SEED=${seed}`));

  it('exposes exactly what prom-client counting each request itself exposes, across a reset', async () => {
    const metrics = new MetricsService({ driver: {} } as unknown as DataSource);
    let expected = reference();
    const observe = (n: number): void => {
      for (let i = 0; i < n; i++) {
        const labels = [
          pick(['GET', 'HEAD']),
          pick(['/v1/catalog/products', '/v1/inventory/stock', '/health/live']),
          pick(['200', '404', '429']),
        ] as const;
        // Durations on and around the bucket bounds, and far above the last.
        const seconds = pick([0, 0.002, 0.0020001, 0.05, 0.1, 4.9, 5, 7, random() * 0.3, random() * 10]);
        metrics.observeRequest(...labels, seconds);
        expected.observe(...labels, seconds);
      }
    };
    observe(500);
    expect(await text(metrics.registry)).toBe(await text(expected.registry));
    // A reset replaces prom-client's maps: the series find their values again.
    metrics.registry.resetMetrics();
    expected = reference();
    observe(300);
    expect(await text(metrics.registry)).toBe(await text(expected.registry));
  });
});
