import type { AbEndpointResult, BenchResults } from './results.js';
import { round } from './stats.js';

/** The targets that are not per-endpoint ratios. */
export const TARGETS = {
  loginRatio: 0.9,
  probeP99Ms: 15,
  rssMB: 120,
  startupMs: 500,
} as const;

const met = (ok: boolean) => (ok ? '✅' : '❌');
const rps = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));

/** The results as docs/performance.md and bench/results/latest.md show them. */
export function markdownReport(results: BenchResults): string {
  const { environment: env, endpoints, loginStorm: storm, memory, startup, scale } = results;
  const lines: string[] = [];
  lines.push(
    `Measured ${env.date.slice(0, 10)} on ${env.cores} × ${env.cpu}, Node ${env.node}, ${env.wrk}; commit \`${env.commit}\`.`,
    `${env.rounds} rounds of ${env.seconds} s per server and endpoint (A B A B, after ${env.warmupSeconds} s of warm-up each), ` +
      `${env.connections} connections; ${env.pinning}. inkwell: built \`dist\`, memory store, ${env.seededPosts.toLocaleString('en-US')} published posts, ` +
      `LOG_LEVEL=${env.logLevel} (one access-log line per request, stdout to /dev/null), POSTS_ACCESS=${env.postsAccess}. Load average ${env.loadAverage.start} at the start, ${env.loadAverage.end} at the end. ` +
      'Targets are judged on the req/s ratio; the CPU ratio (server CPU time per request, baseline ÷ inkwell) is shown beside it because it is far less sensitive to other work on a shared machine.',
    '',
    '### Targets',
    '',
    '| Target | Goal | Measured | Met |',
    '|---|---|---|---|',
  );
  for (const endpoint of endpoints)
    lines.push(
      `| \`${endpoint.name}\` | ≥ ${endpoint.target}× baseline | **${endpoint.median.ratio.toFixed(2)}×** (${rps(endpoint.median.inkwellRps)} vs ${rps(endpoint.median.baselineRps)} req/s; CPU ratio ${endpoint.median.cpuRatio.toFixed(2)}×) | ${met(endpoint.median.ratio >= endpoint.target)} |`,
    );
  lines.push(
    `| Login storm (${storm.connections} connections, ${storm.seconds} s) | ≥ ${TARGETS.loginRatio}× bare pool | **${storm.ratio.toFixed(2)}×** (${storm.loginsPerSecond.toFixed(2)} logins/s vs ${storm.bareComparesPerSecond.toFixed(2)} compares/s, ${storm.hashThreads} threads) | ${met(storm.ratio >= TARGETS.loginRatio)} |`,
    `| Probe p99 during the storm | ≤ ${TARGETS.probeP99Ms} ms | **${ms(storm.probeDuringStorm.p99Ms)} ms** (idle ${ms(storm.probeIdle.p99Ms)} ms) | ${met(storm.probeDuringStorm.p99Ms <= TARGETS.probeP99Ms)} |`,
    `| RSS after the read load | ≤ ${TARGETS.rssMB} MB | **${memory.afterReads.rssMB.toFixed(1)} MB** | ${met(memory.afterReads.rssMB <= TARGETS.rssMB)} |`,
    `| RSS after the login storm | ≤ ${TARGETS.rssMB} MB | **${memory.afterLogins.rssMB.toFixed(1)} MB** (peak so far ${memory.afterLogins.peakRssMB.toFixed(1)} MB) | ${met(memory.afterLogins.rssMB <= TARGETS.rssMB)} |`,
    `| Start to first successful response | ≤ ${TARGETS.startupMs} ms | **${Math.round(startup.medianMs)} ms** (median of ${startup.runsMs.map((run) => Math.round(run)).join(', ')}) | ${met(startup.medianMs <= TARGETS.startupMs)} |`,
    `| Page 5 000 vs page 1, ${scale.posts.toLocaleString('en-US')} posts | about the same | **${scale.http.ratio.toFixed(2)}×** req/s over HTTP; ${scale.repository.ratio.toFixed(2)}× time per repository call | ${met(scale.http.ratio >= 0.9 && scale.repository.ratio <= 1.5)} |`,
    '',
    '### Every round',
    '',
    '| Endpoint | Round | inkwell req/s | p50 ms | p99 ms | baseline req/s | p50 ms | p99 ms | ratio | CPU µs/req inkwell / baseline | CPU ratio |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const endpoint of endpoints) {
    for (const r of endpoint.rounds)
      lines.push(
        `| \`${endpoint.name}\` | ${r.round} | ${rps(r.inkwell.rps)} | ${ms(r.inkwell.p50Ms)} | ${ms(r.inkwell.p99Ms)} | ${rps(r.baseline.rps)} | ${ms(r.baseline.p50Ms)} | ${ms(r.baseline.p99Ms)} | ${r.ratio.toFixed(2)} | ${r.inkwellCpuUs.toFixed(1)} / ${r.baselineCpuUs.toFixed(1)} | ${r.cpuRatio.toFixed(2)} |`,
      );
    const m = endpoint.median;
    lines.push(
      `| **\`${endpoint.name}\`** | **median** | **${rps(m.inkwellRps)}** | ${ms(m.inkwellP50Ms)} | ${ms(m.inkwellP99Ms)} | **${rps(m.baselineRps)}** | ${ms(m.baselineP50Ms)} | ${ms(m.baselineP99Ms)} | **${m.ratio.toFixed(2)}** | ${m.inkwellCpuUs.toFixed(1)} / ${m.baselineCpuUs.toFixed(1)} | **${m.cpuRatio.toFixed(2)}** |`,
    );
  }
  lines.push(
    '',
    '### Login storm, memory and scale',
    '',
    `- Bare bcryptjs \`compareSync\` at cost 12 in ${storm.hashThreads} worker threads: **${storm.bareComparesPerSecond.toFixed(2)} compares/s**.`,
    `- \`POST /auth/login\` from ${storm.connections} connections for ${storm.seconds} s: **${storm.loginsPerSecond.toFixed(2)} logins/s** (${storm.non2xx} non-2xx).`,
    `- \`GET /posts/:id\` probe, ${storm.probePerSecond}/s on one keep-alive connection: idle p50 ${ms(storm.probeIdle.p50Ms)} ms, p99 ${ms(storm.probeIdle.p99Ms)} ms; ` +
      `during the storm p50 ${ms(storm.probeDuringStorm.p50Ms)} ms, p99 ${ms(storm.probeDuringStorm.p99Ms)} ms, max ${ms(storm.probeDuringStorm.maxMs)} ms (${storm.probeDuringStorm.failed} failed of ${storm.probeDuringStorm.sent}).`,
    `- Server RSS: ${memory.afterReads.rssMB.toFixed(1)} MB after the read load, ${memory.afterLogins.rssMB.toFixed(1)} MB after the login storm; ` +
      `${memory.afterPosts.rssMB.toFixed(1)} MB after the \`POST /posts\` rounds, which left ${memory.afterPosts.postsStored.toLocaleString('en-US')} posts in memory (data, not a leak).`,
    `- ${scale.posts.toLocaleString('en-US')} published posts (seeded in ${scale.seedSeconds.toFixed(1)} s): \`GET /posts?page=1&perPage=20\` ${rps(scale.http.page1.rps)} req/s (p99 ${ms(scale.http.page1.p99Ms)} ms), ` +
      `\`page=5000\` ${rps(scale.http.page5000.rps)} req/s (p99 ${ms(scale.http.page5000.p99Ms)} ms); the repository alone: ` +
      `${scale.repository.page1MicrosPerCall.toFixed(2)} µs vs ${scale.repository.page5000MicrosPerCall.toFixed(2)} µs per page.`,
    `- One author's ${scale.posts.toLocaleString('en-US')} posts, half of them drafts (what \`GET /me/posts\` reads), on the repository alone: ` +
      `page 1 ${scale.ownPostsRepository.page1MicrosPerCall.toFixed(2)} µs vs page 5 000 ${scale.ownPostsRepository.page5000MicrosPerCall.toFixed(2)} µs per page (${scale.ownPostsRepository.ratio.toFixed(2)}×).`,
  );
  const diagnostic = (result: AbEndpointResult, what: string) =>
    lines.push(
      `- Diagnostic, not a target: \`${result.name}\` (${what}) against the same baseline: ` +
        `**${result.median.ratio.toFixed(2)}×** (${rps(result.median.inkwellRps)} vs ${rps(result.median.baselineRps)} req/s; CPU ${result.median.inkwellCpuUs.toFixed(1)} / ${result.median.baselineCpuUs.toFixed(1)} µs per request, CPU ratio ${result.median.cpuRatio.toFixed(2)}×; rounds ${result.rounds.map((r) => r.ratio.toFixed(2)).join(', ')}).`,
    );
  const { withoutAccessLog, bareHono = [] } = results.diagnostics;
  if (withoutAccessLog) diagnostic(withoutAccessLog, 'inkwell without its access-log line');
  for (const result of bareHono) diagnostic(result, "the baseline's work behind a bare Hono route: the framework's floor");
  return `${lines.join('\n')}\n`;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A horizontal bar chart of the median ratios, each with its target as a tick. */
export function ratiosSvg(results: BenchResults): string {
  const bars = [
    ...results.endpoints.map((endpoint) => ({ label: endpoint.name, value: endpoint.median.ratio, target: endpoint.target, note: 'of baseline' })),
    { label: 'login storm', value: results.loginStorm.ratio, target: TARGETS.loginRatio, note: 'of bare pool' },
  ];
  const [labelWidth, plotWidth, barHeight, gap, top] = [250, 420, 22, 12, 48];
  const max = Math.max(1.2, ...bars.map((bar) => bar.value + 0.1));
  const x = (value: number) => labelWidth + (value / max) * plotWidth;
  const height = top + bars.length * (barHeight + gap) + 40;
  const width = labelWidth + plotWidth + 130;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="13">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="600">inkwell ÷ ceiling (median of ${results.environment.rounds} rounds); tick = target</text>`,
  ];
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    if (tick > max) continue;
    parts.push(
      `<line x1="${x(tick)}" y1="${top - 8}" x2="${x(tick)}" y2="${height - 30}" stroke="#dddddd"/>`,
      `<text x="${x(tick)}" y="${height - 14}" text-anchor="middle" fill="#555555">${tick}×</text>`,
    );
  }
  bars.forEach((bar, i) => {
    const y = top + i * (barHeight + gap);
    const ok = bar.value >= bar.target;
    parts.push(
      `<text x="${labelWidth - 10}" y="${y + barHeight / 2 + 4}" text-anchor="end">${escapeXml(bar.label)}</text>`,
      `<rect x="${labelWidth}" y="${y}" width="${Math.max(1, x(bar.value) - labelWidth)}" height="${barHeight}" fill="${ok ? '#2e7d32' : '#c62828'}"/>`,
      `<line x1="${x(bar.target)}" y1="${y - 4}" x2="${x(bar.target)}" y2="${y + barHeight + 4}" stroke="#000000" stroke-width="2"/>`,
      `<text x="${x(bar.value) + 6}" y="${y + barHeight / 2 + 4}">${round(bar.value).toFixed(2)}× ${bar.note}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
