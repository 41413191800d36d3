import { Histogram, Registry, type Metric } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestDurations } from './request-durations';

const observations: Array<[string, string, number, number]> = [
  ['GET', '/v3/sso/me', 200, 0.0004],
  ['GET', '/v3/sso/me', 200, 0.005],
  ['GET', '/v3/sso/me', 200, 0.03],
  ['GET', '/v3/sso/me', 401, 0.002],
  ['POST', '/v3/sso/auth', 200, 0.07],
  ['POST', '/v3/sso/auth', 200, 3.5],
  ['GET', 'unmatched', 404, 0.001],
];

describe('RequestDurations', () => {
  it('prints what prom-client’s own Histogram prints for the same observations', async () => {
    const ours = new Registry();
    const durations = new RequestDurations();
    ours.registerMetric(durations as unknown as Metric);
    const theirs = new Registry();
    const histogram = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method, route and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [theirs],
    });
    for (const [method, route, status, seconds] of observations) {
      durations.observe(method, route, status, seconds);
      histogram.observe({ method, route, status: String(status) }, seconds);
    }
    const lines = (text: string) => text.trim().split('\n').sort();
    expect(lines(await ours.metrics())).toEqual(lines(await theirs.metrics()));
    expect(await ours.metrics()).toContain('http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/v3/sso/auth",status="200"} 2');
  });
});
