// node bench/open-loop.mjs URL RATE SECONDS [HEADER=VALUE]: requests at a fixed rate, evenly spaced
// (open loop: a slow answer does not delay the next request), each timed from the moment it was due,
// so that queueing counts (no coordinated omission). Prints JSON: sent, ok, failed, p50, p90, p99, max (ms).
// autocannon's --overallRate sends a second's requests in bursts, which measures the bursts, not the server.
import { Agent, request } from 'node:http';

const [url, rateText, secondsText, ...headerArgs] = process.argv.slice(2);
const rate = Number(rateText);
const seconds = Number(secondsText);
const headers = Object.fromEntries(headerArgs.map((h) => [h.slice(0, h.indexOf('=')), h.slice(h.indexOf('=') + 1)]));
const agent = new Agent({ keepAlive: true, maxSockets: 512 });
const target = new URL(url);
const latencies = [];
let failed = 0;
let pending = 0;
const total = Math.round(rate * seconds);
const interval = 1000 / rate;
const start = performance.now();

await new Promise((resolveAll) => {
  let sent = 0;
  const fire = (due) => {
    pending++;
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, headers, agent },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode >= 200 && res.statusCode < 300) latencies.push(performance.now() - due);
          else failed++;
          if (--pending === 0 && sent === total) resolveAll();
        });
      },
    );
    req.on('error', () => {
      failed++;
      if (--pending === 0 && sent === total) resolveAll();
    });
    req.end();
  };
  const tick = () => {
    const now = performance.now();
    // Every request that is due by now goes out, each timed from its own due moment.
    while (sent < total && start + sent * interval <= now) fire(start + sent++ * interval);
    if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
  };
  tick();
});

latencies.sort((a, b) => a - b);
const at = (p) =>
  latencies.length === 0
    ? null
    : Number(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(1));
console.log(
  JSON.stringify({ sent: total, ok: latencies.length, failed, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) }),
);
agent.destroy();
