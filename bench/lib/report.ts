import { SERVERS, type BenchResults, type DiagnosticResult, type EndpointResult, type Ratio, type ServerKey } from './results.js';
import { round } from './stats.js';

/** The targets that are not per-endpoint ratios. */
export const TARGETS = {
  /** inkwell's speed ÷ bare Hono's doing the same work (the access line included), in CPU time per request, on every endpoint. */
  bareHono: 0.9,
  loginRatio: 0.9,
  probeP99Ms: 15,
  rssMB: 120,
  startupMs: 500,
} as const;

/** How each server is named in the tables. */
const NAMES: Record<ServerKey, string> = { baseline: 'node:http', hono: 'bare Hono', inkwell: 'inkwell', honoDocumented: 'Hono as documented', fastify: 'Fastify', express: 'Express' };

const met = (ok: boolean) => (ok ? '✅' : '❌');
const rps = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
const ratio = (value: Ratio | undefined) => (value ? `${value.cpu.toFixed(2)}× CPU, ${value.rps.toFixed(2)}× req/s` : '–');

/** Whether inkwell is ahead of `other` on `endpoint`: less CPU time per request (the median of the rounds' ratios), as every target is judged. */
function ahead(endpoint: EndpointResult, other: 'honoDocumented' | 'fastify' | 'express'): boolean | undefined {
  const r = endpoint.ratios[other];
  return r && r.cpu > 1;
}

/** The results as docs/performance.md and bench/results/latest.md show them. */
export function markdownReport(results: BenchResults): string {
  const { environment: env, endpoints, loginStorm: storm, memory, startup, scale } = results;
  const lines: string[] = [];
  lines.push(
    `Measured ${env.date.slice(0, 10)} on ${env.cores} × ${env.cpu}, Node ${env.node}, ${env.wrk}; commit \`${env.commit}\`.`,
    `${env.rounds} rounds of ${env.seconds} s per server and endpoint (the servers in a rotating order each round, after ${env.warmupSeconds} s of warm-up each), ` +
      `${env.connections} connections; ${env.pinning}. inkwell: built \`dist\`, memory store, ${env.seededPosts.toLocaleString('en-US')} published posts, ` +
      `LOG_LEVEL=${env.logLevel} (one access-log line per request, stdout to /dev/null), POSTS_ACCESS=${env.postsAccess}. Load average ${env.loadAverage.start} at the start, ${env.loadAverage.end} at the end. ` +
      'Every compared server starts from what inkwell held once seeded and answered each endpoint with inkwell\'s bytes before the load. ' +
      'A ratio is inkwell\'s speed ÷ the other server\'s: its CPU time per request ÷ inkwell\'s, and inkwell\'s req/s ÷ its req/s (medians of the rounds\' ratios). ' +
      'Targets are judged on CPU time, which other work on a shared machine moves far less than req/s.',
    '',
    '### Targets',
    '',
    '| Target | Goal | Measured | Met |',
    '|---|---|---|---|',
  );
  for (const endpoint of endpoints) {
    const hono = endpoint.ratios.hono;
    if (hono)
      lines.push(`| \`${endpoint.name}\` | ≥ ${TARGETS.bareHono}× bare Hono | **${hono.cpu.toFixed(2)}×** CPU (${hono.rps.toFixed(2)}× req/s) | ${met(hono.cpu >= TARGETS.bareHono)} |`);
    for (const other of ['honoDocumented', 'fastify', 'express'] as const) {
      const result = ahead(endpoint, other);
      if (result !== undefined) lines.push(`| \`${endpoint.name}\` | ahead of ${NAMES[other]} | ${ratio(endpoint.ratios[other])} | ${met(result)} |`);
    }
  }
  lines.push(
    `| Login storm (${storm.connections} connections, ${storm.seconds} s) | ≥ ${TARGETS.loginRatio}× bare pool | **${storm.ratio.toFixed(2)}×** (${storm.loginsPerSecond.toFixed(2)} logins/s vs ${storm.bareComparesPerSecond.toFixed(2)} compares/s, ${storm.hashThreads} threads) | ${met(storm.ratio >= TARGETS.loginRatio)} |`,
    `| Probe p99 during the storm | ≤ ${TARGETS.probeP99Ms} ms | **${ms(storm.probeDuringStorm.p99Ms)} ms** (idle ${ms(storm.probeIdle.p99Ms)} ms) | ${met(storm.probeDuringStorm.p99Ms <= TARGETS.probeP99Ms)} |`,
    `| RSS after the read load | ≤ ${TARGETS.rssMB} MB | **${memory.afterReads.rssMB.toFixed(1)} MB** | ${met(memory.afterReads.rssMB <= TARGETS.rssMB)} |`,
    `| RSS after the login storm | ≤ ${TARGETS.rssMB} MB | **${memory.afterLogins.rssMB.toFixed(1)} MB** (peak so far ${memory.afterLogins.peakRssMB.toFixed(1)} MB) | ${met(memory.afterLogins.rssMB <= TARGETS.rssMB)} |`,
    `| Start to first successful response | ≤ ${TARGETS.startupMs} ms | **${Math.round(startup.medianMs)} ms** (median of ${startup.runsMs.map((run) => Math.round(run)).join(', ')}) | ${met(startup.medianMs <= TARGETS.startupMs)} |`,
    `| Page 5 000 vs page 1, ${scale.posts.toLocaleString('en-US')} posts | about the same | **${scale.http.ratio.toFixed(2)}×** req/s over HTTP; ${scale.repository.ratio.toFixed(2)}× time per repository call | ${met(scale.http.ratio >= 0.9 && scale.repository.ratio <= 1.5)} |`,
    '',
    '### Every endpoint, every server (medians)',
    '',
    'req/s and server CPU time per request in µs; the last columns are inkwell\'s speed against each. node:http is the limit: no target.',
    '',
    `| Endpoint | ${SERVERS.map((key) => NAMES[key]).join(' | ')} | ${SERVERS.filter((key) => key !== 'inkwell').map((key) => `inkwell ÷ ${NAMES[key]}`).join(' | ')} |`,
    `|---|${SERVERS.map(() => '---:').join('|')}|${SERVERS.filter((key) => key !== 'inkwell').map(() => '---:').join('|')}|`,
  );
  for (const endpoint of endpoints) {
    const cells = SERVERS.map((key) => {
      const m = endpoint.median[key];
      return m ? `${rps(m.rps)} req/s, ${m.cpuUs.toFixed(1)} µs` : '–';
    });
    const ratios = SERVERS.filter((key): key is Exclude<ServerKey, 'inkwell'> => key !== 'inkwell').map((key) => ratio(endpoint.ratios[key]));
    lines.push(`| \`${endpoint.name}\` (${endpoint.answerBytes} B) | ${cells.join(' | ')} | ${ratios.join(' | ')} |`);
  }
  lines.push(
    '',
    '### Every round',
    '',
    `| Endpoint | Round | ${SERVERS.map((key) => `${NAMES[key]} req/s · p99 ms · CPU µs`).join(' | ')} |`,
    `|---|---|${SERVERS.map(() => '---:').join('|')}|`,
  );
  for (const endpoint of endpoints)
    endpoint.rounds.forEach((figures, i) => {
      const cells = SERVERS.map((key) => {
        const r = figures[key];
        return r ? `${rps(r.rps)} · ${ms(r.p99Ms)} · ${r.cpuUs.toFixed(1)}` : '–';
      });
      lines.push(`| \`${endpoint.name}\` | ${i + 1} | ${cells.join(' | ')} |`);
    });
  const held = SERVERS.filter((key) => memory.postsHeld[key] !== undefined).map((key) => `${NAMES[key]} ${(memory.postsHeld[key] as number).toLocaleString('en-US')}`);
  if (held.length > 0) lines.push('', `Posts held at the end of the \`POST /posts\` rounds (each server stores every post it is sent): ${held.join(', ')}.`);
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
  const diagnostic = (result: DiagnosticResult, what: string) =>
    lines.push(
      `- Diagnostic, not a target: \`${result.name}\` (${what}) against a node:http baseline on its data: ` +
        `CPU ${result.inkwellCpuUs.toFixed(1)} / ${result.baselineCpuUs.toFixed(1)} µs per request (${result.ratio.cpu.toFixed(2)}×), ` +
        `${rps(result.inkwellRps)} vs ${rps(result.baselineRps)} req/s (${result.ratio.rps.toFixed(2)}×).`,
    );
  const { withoutAccessLog } = results.diagnostics;
  if (withoutAccessLog) diagnostic(withoutAccessLog, 'inkwell without its access-log line');
  return `${lines.join('\n')}\n`;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A horizontal bar chart of the median ratios, each with its target as a tick. */
export function ratiosSvg(results: BenchResults): string {
  const bars = [
    ...results.endpoints.flatMap((endpoint) =>
      endpoint.ratios.hono ? [{ label: endpoint.name, value: endpoint.ratios.hono.cpu, target: TARGETS.bareHono, note: 'of bare Hono (CPU)' }] : [],
    ),
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
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="600">inkwell's speed ÷ bare Hono's (median of ${results.environment.rounds} rounds); tick = target</text>`,
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
