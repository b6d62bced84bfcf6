"""Reads the HTTP/2 measurements of gatling/compare.sh's h2 preset (Python 3 standard library only; used by
benchreport.py, which turns them into rows).

- h2load's console output (nghttp2 1.52) with its --log-file: one line per request, tab-separated: start time in
  microseconds since the epoch, HTTP status (-1 for a request that got no response), microseconds until the end of
  the response. h2load prints only min/max/mean/sd of a sample of its requests, so the percentiles come from the
  request log; so does the mean, that both describe the same requests.
"""

import math
import re

H2_PROTOCOLS = ("h2", "h2c")
UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def parse_h2load(text, request_log=None):
    """Requests, throughput, latency and failures of one `h2load -D` run; None when h2load printed no result.

    `request_log` is the text of its --log-file (or None). A run whose connections did not speak HTTP/2 (no
    "Application protocol: h2" or "h2c" line: the server refused the preface, or ALPN chose nothing) is a failed row,
    not a measurement."""
    finished = re.search(r"^finished in [\d.]+\w+, ([\d.]+) req/s", text, re.M)
    counts = re.search(r"^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, "
                       r"(\d+) errored, (\d+) timeout", text, re.M)
    if not finished or not counts:
        return unfinished(text)
    _, _, done, succeeded, failed, errored, timeout = (int(value) for value in counts.groups())
    row = {"requests": done, "ok": succeeded, "ko": failed, "rps": float(finished.group(1))}
    errors = []
    statuses = re.search(r"^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", text, re.M)
    if statuses:
        for name, value in zip(("3xx", "4xx", "5xx"), statuses.groups()[1:]):
            if int(value):
                errors.append(f"{name} x{value}")
    if errored:
        errors.append(f"errored x{errored}")
    if timeout:
        errors.append(f"timeout x{timeout}")
    if done == 0:
        errors.append("no request completed")
    row["errors"] = "; ".join(errors)
    row.update(request_log_latency(request_log) if request_log else {})
    if "mean_ms" not in row:
        mean = re.search(r"^time for request:\s+\S+\s+\S+\s+([\d.]+)(us|ms|s)\s", text, re.M)
        if mean and done:
            row["mean_ms"] = round(float(mean.group(1)) * UNITS_MS[mean.group(2)], 3)
    protocol = re.search(r"^Application protocol: (\S+)", text, re.M)
    if not protocol or protocol.group(1) not in H2_PROTOCOLS:
        row["status"] = "failed"
        row["note"] = ("h2load negotiated %s, not HTTP/2" % protocol.group(1) if protocol
                       else "no HTTP/2 connection (h2load reports no application protocol)")
    return row


def unfinished(text):
    """A run that h2load started but never ended (the runner's time limit killed it) as a failed row saying how far
    it got; None for anything else. In duration mode h2load ends once every client has started and every stream in
    flight has ended: a connection that never completes its handshake, or streams a server never answers, keep it
    waiting."""
    if "starting benchmark..." not in text:
        return None
    started = re.findall(r"^progress: (\d+)% of clients started", text, re.M)
    how = f"{started[-1] if started else 0}% of its clients had started"
    if "Stopping all clients" in text:
        how += ", its duration was over, it was waiting for its connections to end"
    return {"status": "failed", "errors": "", "note": f"h2load did not finish, killed after the time limit: {how}"}


def request_log_latency(text):
    """Mean and p50/p75/p99 in ms over the requests of an h2load --log-file that got a response (nearest rank)."""
    durations = []
    for line in text.splitlines():
        fields = line.split("\t")
        if len(fields) == 3 and fields[1] != "-1":
            durations.append(int(fields[2]))
    if not durations:
        return {}
    durations.sort()
    row = {"mean_ms": round(sum(durations) / len(durations) / 1000, 3)}
    for pct, key in ((50, "p50_ms"), (75, "p75_ms"), (99, "p99_ms")):
        row[key] = durations[max(0, math.ceil(pct / 100 * len(durations)) - 1)] / 1000
    return row
