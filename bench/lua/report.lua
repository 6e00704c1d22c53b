-- Appended to every load script: prints one machine-readable line that bench/lib/wrk.ts parses.
-- Latencies are in microseconds, as wrk records them.
function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"p50Us":%d,"p90Us":%d,"p99Us":%d,"maxUs":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout))
end
