import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { Refusal } from '../admission/fair-scheduler.js';

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** Prometheus metrics of one application instance (its own registry, so tests can run several). */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route, method and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route, method and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter({
    name: 'rate_limited_requests_total',
    help: 'Requests refused with 429, by budget policy.',
    labelNames: ['policy'],
    registers: [this.registry],
  });
  private readonly shed = new Counter({
    name: 'overload_shed_requests_total',
    help: 'Reads and held requests refused with 503 because the service was over capacity (docs/rate-limits.md#overload).',
    registers: [this.registry],
  });
  private readonly redisFailOpen = new Counter({
    name: 'ratelimit_redis_fail_open_total',
    help: 'Requests counted in process because Redis did not answer.',
    registers: [this.registry],
  });

  constructor(@InjectDataSource() dataSource: DataSource) {
    collectDefaultMetrics({ register: this.registry });
    const pools = (): PgPool[] => {
      const driver = dataSource.driver as unknown as { master?: PgPool; slaves?: PgPool[] };
      return [driver.master, ...(driver.slaves ?? [])].filter((p): p is PgPool => p !== undefined);
    };
    const sum = (pick: (p: PgPool) => number): number => pools().reduce((n, p) => n + pick(p), 0);
    new Gauge({
      name: 'db_pool_connections_in_use',
      help: 'Database connections checked out of the pools.',
      registers: [this.registry],
      collect() {
        this.set(sum((p) => p.totalCount - p.idleCount));
      },
    });
    new Gauge({
      name: 'db_pool_connections_idle',
      help: 'Open, idle database connections.',
      registers: [this.registry],
      collect() {
        this.set(sum((p) => p.idleCount));
      },
    });
    new Gauge({
      name: 'db_pool_waiting_requests',
      help: 'Queries waiting for a database connection.',
      registers: [this.registry],
      collect() {
        this.set(sum((p) => p.waitingCount));
      },
    });
  }

  /** The request metrics of one label set, looked up once (see RequestSeries). */
  private readonly series = new Map<string, RequestSeries>();

  observeRequest(method: string, route: string, status: string, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let series = this.series.get(key);
    if (series === undefined) {
      // Bounded: methods, route templates and statuses, never raw paths.
      series = new RequestSeries(this.requests, this.duration, { method, route, status });
      this.series.set(key, series);
    }
    series.observe(seconds);
  }

  countRateLimited(policy: string): void {
    this.rateLimited.inc({ policy });
  }

  /**
   * A read refused admission (src/admission/fair-scheduler.ts): a client over its share is a 429 like
   * the budgets' own; a service over capacity is a 503, counted apart.
   */
  countAdmissionRefused(refusal: Refusal): void {
    if (refusal === 'client') this.rateLimited.inc({ policy: 'admission' });
    else this.shed.inc();
  }

  countRedisFailOpen(): void {
    this.redisFailOpen.inc();
  }
}

/** prom-client's value of one counter series (lib/counter.js), as its `hashMap` holds it. */
interface CounterValue {
  value: number;
  labels: Record<string, string>;
}

/** prom-client's value of one histogram series (lib/histogram.js `createBaseValues`). */
interface HistogramValue {
  labels: Record<string, string>;
  bucketValues: Record<number, number>;
  sum: number;
  count: number;
}

type Values<V> = { hashMap: Record<string, V> };

const sameLabels = (a: Record<string, string>, b: Record<string, string>): boolean =>
  Object.keys(b).every((k) => a[k] === b[k]) && Object.keys(a).length === Object.keys(b).length;

/**
 * One request series of the counter and the histogram, counted in place: prom-client hashes a
 * series' labels and checks them on every `inc` and `observe`, even through `labels(...)` (about 3.5
 * µs a request on Node 26). The values are prom-client's own objects, found once after `zero` /
 * `inc(0)` made them, so its exposition is unchanged (`metrics.service.spec.ts` compares the text
 * with prom-client's own counting); if its maps are replaced (a reset), they are found again.
 */
class RequestSeries {
  private counted: CounterValue | undefined;
  private observed: HistogramValue | undefined;
  private countedIn: object | undefined;
  private observedIn: object | undefined;
  private readonly bounds: readonly number[];

  constructor(
    private readonly requests: Counter,
    private readonly duration: Histogram,
    private readonly labels: Record<string, string>,
  ) {
    this.bounds = (duration as unknown as { upperBounds: number[] }).upperBounds;
  }

  observe(seconds: number): void {
    const counters = (this.requests as unknown as Values<CounterValue>).hashMap;
    if (this.countedIn !== counters || this.counted === undefined) {
      this.requests.inc(this.labels, 0);
      this.counted = Object.values(counters).find((v) => sameLabels(v.labels, this.labels));
      this.countedIn = counters;
    }
    const histograms = (this.duration as unknown as Values<HistogramValue>).hashMap;
    if (this.observedIn !== histograms || this.observed === undefined) {
      if (!Object.values(histograms).some((v) => sameLabels(v.labels, this.labels))) this.duration.zero(this.labels);
      this.observed = Object.values(histograms).find((v) => sameLabels(v.labels, this.labels));
      this.observedIn = histograms;
    }
    if (this.counted === undefined || this.observed === undefined || !Number.isFinite(seconds)) {
      // Not prom-client's shape (another version): its own way.
      this.requests.inc(this.labels);
      this.duration.observe(this.labels, seconds);
      return;
    }
    this.counted.value += 1;
    const observed = this.observed;
    observed.sum += seconds;
    observed.count += 1;
    for (const bound of this.bounds)
      if (seconds <= bound) {
        observed.bucketValues[bound] += 1;
        break;
      }
  }
}
