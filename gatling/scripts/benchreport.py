#!/usr/bin/env python3
"""Parses Gatling and wrk console output and writes the comparison report (Python 3 standard library only).

Used by gatling/compare.sh (through bench-lib.sh's record) and gatling/ab-wrk.sh:
  benchreport.py row ROWS KIND LOG key=value...   append one row to ROWS, parsed from the tool's log LOG, judged by
                                            verdict.py (the words exit_status=, limit=, stopped_early=, load_before=
                                            and max_load= are what it judges by), and print its summary. KIND:
    gatling          a Gatling console log; with clients=N, the level of N clients of a multi-level run
    wrk              `wrk --latency` output
    h2load           h2load's output, with request_log=PATH (its --log-file) for the percentiles; failed unless the
                     run spoke HTTP/2 (h2c or h2)
    idle             the result line of idleconns.py: the server's memory per idle HTTP/1.1 or HTTP/2 connection
    launchload       LaunchLoad's output (the warmup preset): first answer, answers per 1 s window from the JVM's
                     launch, peak and time to 90 % of it (launchresults.py), with variant=plain|aot|aot-warmup|aot-compiled
    startfailure     a failed row for a server that did not start, with Spring Boot's failure description from its
                     log LOG as the note (and its exit status, when it exited)
    wsbroadcast      WebSocketBroadcast: its deliveries, from the line the simulation prints, and its Gatling errors
                     and assertions
    wsidle           WebSocketIdle: its handshakes, and the server's memory growth from rss_before_kb, rss_after_kb,
                     heap_before_kb, heap_after_kb and sessions_open
  benchreport.py report RUN_DIR [key=value...]  read RUN_DIR/rows.jsonl, write results.csv, results.md and SVG charts
                                            into RUN_DIR, print the verdict and the Markdown tables, exit with the
                                            run's verdict (verdict.exit_code: 0 ok, 1 failed, 3 refused); words:
                                            max_spread_percent= (10), max_load= (for the rules paragraph),
                                            fail_on_ko=1 (the CI smoke: any KO fails its row)
  benchreport.py ab RUN_DIR [key=value...]  the same for gatling/ab-wrk.sh: wrk rows with side=old|new, compared as
                                            medians over rounds and the ratio new/old (none when a side's rounds
                                            spread more than max_spread_percent)

Gatling's simulation.log is binary and it writes no stats JSON, so the "---- Global Information ----" block of the
console output is the source of the numbers (REFERENCE.md section 1). The console has no per-request numbers, so one
level of a multi-level Concurrency run comes from its row of the HTML report's statistics table instead, with its
throughput from the level's wall-clock span that the simulation prints.
"""

import csv
import html
import math
import re
import statistics
import sys
from pathlib import Path

import h2results
import launchresults
import machineload
import runrows
import verdict

CSV_COLUMNS = [
    "target", "server", "stack", "threads", "mode", "tool", "simulation", "round", "status", "requests", "ok", "ko",
    "success_pct", "mean_ms", "p50_ms", "p75_ms", "p95_ms", "p99_ms", "max_ms", "rps", "ratio_vs_tomcat_platform",
    "ratio_vs_tomcat_same_threads", "assertions", "ready_ms", "errors", "note", "sessions_open", "rss_before_kb",
    "rss_after_kb", "rss_growth_mb", "rss_per_session_kb", "heap_before_kb", "heap_after_kb", "heap_per_session_kb",
    # Appended (older results.csv files end before them): what the verdict was made of.
    "exit_status", "load_before", "max_load",
    # The warmup preset's (LaunchLoad, from the JVM's launch).
    "variant", "first_answer_ms", "t90_ms",
    # Idle connections (idleconns.py): the server's RSS as the load left it, before the full collection.
    "rss_loaded_kb",
    # With pinning, the busy % of the server's CPU and of the load generator's while the tool ran (machineload.py).
    "server_cpu_pct", "load_cpu_pct",
]

BASELINE = "tomcat-platform"

# Tools whose runs are interleaved rounds against every target, summarised as the median of the rounds.
LOAD_TOOLS = ("wrk", "h2load")

GLOBAL_LINES = {
    "request count": "requests",
    "min response time": "min_ms",
    "max response time": "max_ms",
    "mean response time": "mean_ms",
    "response time 50th percentile": "p50_ms",
    "response time 75th percentile": "p75_ms",
    "response time 95th percentile": "p95_ms",
    "response time 99th percentile": "p99_ms",
    "mean throughput": "rps",
    "mean requests/sec": "rps",
}


def number(text):
    """'1,095' -> 1095.0; '-' -> None."""
    text = text.strip().replace(",", "")
    if text in ("", "-"):
        return None
    return float(text)


def parse_gatling(text):
    """Numbers of the Global Information block, the error kinds and the assertion outcome of one Gatling run."""
    row = {}
    lines = text.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if "---- Global Information" in line)
    except StopIteration:
        return None
    section = "global"
    errors = []
    for line in lines[start + 1:]:
        if line.startswith("===="):
            break
        if line.startswith("---- Errors"):
            section = "errors"
            continue
        if line.startswith("----"):
            section = "other"
            continue
        if not line.startswith("> "):
            continue
        if section == "global" and "|" in line:
            label, total, ok, ko = [part.strip() for part in line[2:].split("|")[:4]]
            label = re.sub(r"\s*\(.*\)$", "", label)
            key = GLOBAL_LINES.get(label)
            if key == "requests":
                row["requests"] = int(number(total) or 0)
                row["ok"] = int(number(ok) or 0)
                row["ko"] = int(number(ko) or 0)
            elif key:
                # Percentiles and means of all requests (OK and KO), as Gatling's own assertions use.
                row[key] = number(total)
        elif section == "errors":
            match = re.match(r"> (.*?)\s+(\d[\d,]*)\s+\(\s*[\d.]+%\)\s*$", line)
            if match:
                errors.append(f"{match.group(1).strip()} x{match.group(2).replace(',', '')}")
    row["errors"] = "; ".join(errors)
    assertion_lines = [line for line in lines if re.match(r"^Global: .* : (true|false)", line)]
    if assertion_lines:
        row["assertions"] = "fail" if any(": false" in line for line in assertion_lines) else "pass"
    return row


REPORT_COLUMNS = {2: "requests", 3: "ok", 4: "ko", 7: "min_ms", 8: "p50_ms", 9: "p75_ms", 10: "p95_ms",
                  11: "p99_ms", 12: "max_ms", 13: "mean_ms"}


def parse_gatling_level(text, clients):
    """One level of a multi-level closed-model run (Concurrency, AsyncLatency): the requests named '... c=<clients>'
    of the run whose console log is `text`."""
    report = re.search(r"please open the following file: file://(\S+/index\.html)", text)
    if not report or not Path(report.group(1)).exists():
        return None
    row = report_row(Path(report.group(1)).read_text(errors="replace"), f" c={clients}")
    if row is None:
        return None
    # "concurrency-level clients=500 requests=10000 millis=4321" (Concurrency), "async-level clients=500 millis=20104"
    # (AsyncLatency).
    span = re.search(rf"^[a-z]+-level clients={clients} (?:\S+ )*millis=(\d+)\s*$", text, re.M)
    if span and int(span.group(1)) > 0:
        row["rps"] = round(row["requests"] * 1000 / int(span.group(1)), 1)
    assertion = re.search(rf"^\S.* c={clients}: .* : (true|false)", text, re.M)
    if assertion:
        row["assertions"] = "pass" if assertion.group(1) == "true" else "fail"
    # The console lists errors for the whole run, not per request.
    row["errors"] = (parse_gatling(text) or {}).get("errors", "") if row["ko"] else ""
    return row


def report_row(report_html, name_suffix):
    """Numbers of the statistics-table row of Gatling's index.html whose request name ends with `name_suffix`."""
    for match in re.finditer(r'<tr id="req_[^"]*" data-parent="ROOT">(.*?)</tr>', report_html, re.S):
        name = re.search(r'class="ellipsed-name">([^<]*)<', match.group(1))
        if not name or not html.unescape(name.group(1)).endswith(name_suffix):
            continue
        row = {}
        for column, value in re.findall(r'<td class="value [^"]*col-(\d+)">([^<]*)</td>', match.group(1)):
            key = REPORT_COLUMNS.get(int(column))
            if key:
                row[key] = number(value)
        if "requests" not in row:
            return None
        for key in ("requests", "ok", "ko"):
            row[key] = int(row.get(key) or 0)
        return row
    return None


def parse_wrk(text):
    """Requests, throughput, latency mean/percentiles and socket errors of one `wrk --latency` run."""
    row = {}
    match = re.search(r"(\d+) requests in ([\d.]+)(\w+),", text)
    if not match:
        return None
    row["requests"] = int(match.group(1))
    rps = re.search(r"Requests/sec:\s+([\d.]+)", text)
    row["rps"] = float(rps.group(1)) if rps else None
    mean = re.search(r"Latency\s+([\d.]+)(us|ms|s)\s", text)
    if mean:
        row["mean_ms"] = to_ms(mean.group(1), mean.group(2))
    for pct, key in (("50", "p50_ms"), ("75", "p75_ms"), ("99", "p99_ms")):
        match = re.search(rf"^\s+{pct}%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
        if match:
            row[key] = to_ms(match.group(1), match.group(2))
    bad = 0
    errors = []
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    if non2xx:
        bad += int(non2xx.group(1))
        errors.append(f"non-2xx x{non2xx.group(1)}")
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    if sockets:
        for name, value in zip(("connect", "read", "write", "timeout"), sockets.groups()):
            if int(value):
                errors.append(f"socket {name} x{value}")
                bad += int(value)
    if row["requests"] == 0:
        errors.append("no request completed")
    row["ko"] = bad
    row["ok"] = max(0, row["requests"] - bad)
    row["errors"] = "; ".join(errors)
    return row


def to_ms(value, unit):
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


BROADCAST_LINE = re.compile(r"^ws-broadcast (.*)$", re.M)


def parse_ws_broadcast(text):
    """WebSocketBroadcast: every message the server accepted for a session is one 'request', delivered or not; the
    delivery times (trigger to arrival) are its response times and the deliveries per second its throughput.
    Failed handshakes or broadcast requests show in errors and fail the assertion."""
    line = BROADCAST_LINE.search(text)
    if not line:
        return None
    values = dict(pair.split("=", 1) for pair in line.group(1).split())
    expected, delivered = int(values["expected"]), int(values["delivered"])
    row = {"requests": expected, "ok": min(delivered, expected), "ko": max(0, expected - delivered),
           "mean_ms": float(values["mean_ms"]), "rps": float(values["rate"])}
    for key in ("p50_ms", "p95_ms", "p99_ms", "max_ms"):
        row[key] = float(values[key])
    gatling = parse_gatling(text) or {}
    errors = []
    if gatling.get("ko"):
        errors.append(f"{gatling['ko']} failed Gatling requests (handshakes, broadcasts): {gatling.get('errors', '')}")
    if int(values.get("malformed", 0)):
        errors.append(f"malformed messages x{values['malformed']}")
    if expected == 0:
        errors.append("no broadcast reached a session")
    # Either makes the round incomparable with the others: see ServerHeap.java and the simulation's comment.
    if values.get("heap_collected") == "no":
        row["status"] = "failed"
        row["note"] = "the server's heap could not be collected before the broadcasts (jcmd GC.run failed)"
    elif int(values.get("warm_up_delivered", 0)) < int(values.get("warm_up_expected", 0)):
        row["status"] = "failed"
        row["note"] = (f"the warm-up broadcasts had not all arrived when the measured ones began: "
                       f"{int(values['warm_up_delivered']):,} of {int(values['warm_up_expected']):,} messages")
    row["errors"] = "; ".join(errors)
    # The simulation asserts on its broadcast requests only (Gatling prints "broadcast: ... : true").
    assertion = re.search(r"^broadcast: .* : (true|false)", text, re.M)
    if assertion:
        row["assertions"] = "pass" if assertion.group(1) == "true" else "fail"
    return row


def parse_ws_idle(text, sessions_open, rss=(None, None), heap=(None, None)):
    """WebSocketIdle: Gatling's numbers of the handshakes, the server's RSS growth while `sessions_open` sessions
    were open, and its live heap growth (each a (before, after) pair in kB; per session only when some were open)."""
    row = parse_gatling(text)
    if row is None:
        return None
    return add_memory_growth(row, sessions_open, rss, heap)


def add_memory_growth(row, sessions_open, rss, heap):
    """The RSS growth and the RSS and live heap growth per open session (or connection) into `row`."""
    row["sessions_open"] = int(sessions_open or 0)
    if all(rss):
        growth_kb = int(rss[1]) - int(rss[0])
        row["rss_growth_mb"] = round(growth_kb / 1024, 1)
        if row["sessions_open"] > 0:
            row["rss_per_session_kb"] = round(growth_kb / row["sessions_open"], 2)
    if all(heap) and row["sessions_open"] > 0:
        row["heap_per_session_kb"] = round((int(heap[1]) - int(heap[0])) / row["sessions_open"], 2)
    return row


IDLE_LINE = re.compile(r"^idle (.*)$", re.M)
IDLE_START_LINE = re.compile(r"^idle-start (.*)$", re.M)
IDLE_PROGRESS = re.compile(r"^idleconns: (\d+) connections tried, (\d+) open$", re.M)


def idle_result(text):
    """The result line of idleconns.py as a dict of strings (its free-text `error` last), or None without one."""
    line = IDLE_LINE.search(text)
    if not line:
        return None
    values, _, error = line.group(1).partition(" error=")
    result = dict(pair.split("=", 1) for pair in values.split())
    result["error"] = error.strip()
    return result


def parse_unfinished_idle(text):
    """idleconns.py stopped before its result line (its server died holding the connections, say): the RSS the load
    left and how far it got, as a failed row; None when it did not even start."""
    start = IDLE_START_LINE.search(text)
    if not start:
        return None
    values = dict(pair.split("=", 1) for pair in start.group(1).split())
    progress = IDLE_PROGRESS.findall(text)
    still_open = int(progress[-1][1]) if progress else 0
    connections = int(values["connections"])
    return {"requests": connections, "ok": still_open, "ko": connections - still_open,
            "rss_loaded_kb": values["rss_loaded_kb"] or None, "status": "failed",
            "errors": f"stopped with {still_open:,} of {connections:,} open (the last count it printed)"}


def parse_idle(text):
    """idleconns.py's result: each connection asked for is a request, OK when its GET was answered; the memory
    growth is divided by the connections still open when the RSS was read."""
    result = idle_result(text)
    if result is None:
        return parse_unfinished_idle(text)
    connections, opened = int(result["connections"]), int(result["opened"])
    row = {"requests": connections, "ok": opened, "ko": connections - opened,
           "rss_loaded_kb": result["rss_loaded_kb"] or None,
           "rss_before_kb": result["rss_before_kb"], "rss_after_kb": result["rss_after_kb"],
           "heap_before_kb": result["heap_before_kb"], "heap_after_kb": result["heap_after_kb"],
           "closed_by_server": int(result["closed_by_server"]), "open_seconds": float(result["open_seconds"])}
    add_memory_growth(row, result["open"], (row["rss_before_kb"], row["rss_after_kb"]),
                      (row["heap_before_kb"], row["heap_after_kb"]))
    errors = [result["error"]] if result["error"] else []
    if row["closed_by_server"]:
        errors.append(f"{row['closed_by_server']} closed by the server while held")
    row["errors"] = "; ".join(errors)
    if opened == 0:
        row["status"] = "failed"
        row["note"] = f"{result['protocol']} idle: no connection opened" + (
            f" ({result['error']})" if result["error"] else "")
    return row


def start_failure(text, log_name):
    """Why a server did not start: Spring Boot's "Description:" block, else its first exception line."""
    description = re.search(r"^Description:\s*\n(.*?)\n\s*(?:Action:|$)", text, re.M | re.S)
    if description and description.group(1).strip():
        reason = " ".join(description.group(1).split())
    else:
        exception = re.search(r"^\S*(?:Exception|Error)\b.*$", text, re.M)
        reason = exception.group(0).strip() if exception else "it exited or did not answer /benchmark/health"
    return f"did not start: {reason} (see {log_name})"


# The tool each kind of row comes from, as a failure note names it.
TOOL_OF_KIND = {"gatling": "Gatling", "wsidle": "Gatling", "wsbroadcast": "Gatling", "wrk": "wrk", "h2load": "h2load",
                "idle": "idleconns.py", "launchload": "LaunchLoad", "startfailure": "the server"}


def make_row(kind, log_path, assignments):
    """One result row from a tool's log and the runner's key=value words (among them the tool's exit_status, its
    time limit, and the machine's load_before and the max_load allowed), judged by verdict.judge_row."""
    text = Path(log_path).read_text(errors="replace") if Path(log_path).exists() else ""
    row = runrows.words(assignments)
    clients = row.pop("clients", None)
    cpu_before, cpu_after = row.pop("cpu_before", None), row.pop("cpu_after", None)
    if cpu_before and cpu_after:
        row["server_cpu_pct"], row["load_cpu_pct"] = machineload.cpu_percentages(cpu_before, cpu_after)
    if kind == "startfailure":
        row.update(tool="-", status="failed", note=start_failure(text, Path(log_path).name))
        return verdict.judge_row(row, TOOL_OF_KIND[kind])
    if kind == "wrk":
        parsed = parse_wrk(text)
    elif kind == "h2load":
        request_log = Path(row.pop("request_log", "") or "/nonexistent")
        parsed = h2results.parse_h2load(text, request_log.read_text() if request_log.is_file() else None)
    elif kind == "idle":
        parsed = parse_idle(text)
    elif kind == "launchload":
        parsed = launchresults.summary(text)
    elif kind == "wsbroadcast":
        parsed = parse_ws_broadcast(text)
    elif kind == "wsidle":
        parsed = parse_ws_idle(text, row.get("sessions_open"), (row.get("rss_before_kb"), row.get("rss_after_kb")),
                               (row.get("heap_before_kb"), row.get("heap_after_kb")))
    elif clients:
        parsed = parse_gatling_level(text, clients)
    else:
        parsed = parse_gatling(text)
    # The WebSocket kinds are Gatling runs read differently: they belong in the Gatling tables.
    row["tool"] = kind if kind in LOAD_TOOLS + ("idle", "launchload") else "gatling"
    if parsed is None:
        row["status"] = "crashed"
        row.setdefault("note", f"no results in {Path(log_path).name}")
    else:
        row.update(parsed)
        row.setdefault("status", "ok")
    return verdict.judge_row(row, TOOL_OF_KIND[kind])


def summary_line(row):
    """What the runner prints under its progress line once a row is written."""
    if row.get("status") not in ("ok", "refused"):
        return "   -> " + row.get("status", "?") + ": " + row.get("note", "")
    if row["tool"] in LOAD_TOOLS:
        line = "   -> %.0f req/s, p99 %s ms, errors: %s" % (row.get("rps") or 0, row.get("p99_ms"),
                                                         row.get("errors") or "none")
    elif row["tool"] == "launchload":
        line = ("   -> first answer %s ms after the launch; peak %s req/s, 90 %% of it %s ms after the launch; burst "
                "p99 %s ms; errors %d" % (fmt(row.get("first_answer_ms")), fmt(row.get("rps")), fmt(row.get("t90_ms")),
                                          fmt(row.get("burst_p99_ms")), row.get("ko", 0)))
    elif row["tool"] == "idle":
        line = ("   -> %d of %d connections opened, %d open when measured: RSS +%s MB, %s kB per connection, live heap "
                "%s kB per connection%s" % (row["ok"], row["requests"], row["sessions_open"], row.get("rss_growth_mb"),
                                            row.get("rss_per_session_kb"), row.get("heap_per_session_kb"),
                                            (", errors: " + row["errors"]) if row["errors"] else ""))
    else:
        line = "   -> %d requests, KO %d, mean %s ms, p99 %s ms, %.1f req/s, assertions %s%s" % (
            row.get("requests", 0), row.get("ko", 0), row.get("mean_ms"), row.get("p99_ms"), row.get("rps") or 0,
            row.get("assertions", "-"), (", errors: " + row["errors"]) if row.get("errors") else "")
        if row.get("rss_growth_mb") is not None:
            line += "\n   -> %s sessions open: RSS +%s MB, %s kB per session" % (
                row.get("sessions_open"), row["rss_growth_mb"], row.get("rss_per_session_kb"))
    if row["status"] == "refused":
        line += "\n   -> REFUSED: " + row.get("note", "")
    return line


def row_command(rows_path, kind, log_path, assignments):
    row = make_row(kind, log_path, assignments)
    runrows.append(rows_path, row)
    print(summary_line(row))


# ---------------------------------------------------------------- report


def load_rows(run_dir):
    rows = runrows.read(run_dir / "rows.jsonl")
    for row in rows:
        requests = row.get("requests")
        if requests:
            row["success_pct"] = round(100.0 * int(row.get("ok") or 0) / int(requests), 3)
    return rows


def summarise_load(rows, max_spread_percent=verdict.MAX_SPREAD_PERCENT):
    """One row per (target, load: wrk-hello, h2-hello-c16m10...): the median over the interleaved rounds of wrk or
    h2load, with ratios against Tomcat. Failed and refused rounds are left out of the median; the summary itself is
    refused when its rounds disagree by more than max_spread_percent, or when fewer than two valid rounds are left of
    several (nothing to check their agreement against); failed when none is. Only ok summaries get ratios."""
    groups = rounds_by_load([row for row in rows if row.get("tool") in LOAD_TOOLS])
    summary = [summarise_rounds(group, max_spread_percent) for group in groups]
    valid = {(r["target"], r["simulation"]): r for r in summary if r["status"] == "ok"}
    for row in summary:
        base = valid.get((BASELINE, row["simulation"]))
        same = valid.get(("tomcat-" + (row.get("threads") or "platform"), row["simulation"]))
        mine = row.get("rps") if row["status"] == "ok" else None
        row["ratio_vs_tomcat_platform"] = ratio(mine, base and base.get("rps"))
        row["ratio_vs_tomcat_same_threads"] = ratio(mine, same and same.get("rps"))
    return summary


def rounds_by_load(rounds):
    """The rounds grouped by target and load (simulation), in the order each group first appears."""
    groups = {}
    for row in rounds:
        groups.setdefault((row["target"], row["simulation"]), []).append(row)
    return list(groups.values())


def summarise_rounds(rounds, max_spread_percent, unit="req/s"):
    """The median row of one target's rounds of one load, with its verdict."""
    first = rounds[0]
    merged = {k: first.get(k) for k in ("target", "server", "stack", "threads", "mode", "tool", "simulation")}
    valid = [r for r in rounds if r.get("status") == "ok"]
    left_out = len(rounds) - len(valid)
    merged["round"] = "median of %d" % len(valid) + (" (%d left out)" % left_out if left_out else "")
    for key in ("rps", "mean_ms", "p50_ms", "p75_ms", "p95_ms", "p99_ms", "max_ms", "server_cpu_pct", "load_cpu_pct"):
        values = [float(r[key]) for r in valid if r.get(key) is not None]
        merged[key] = round(statistics.median(values), 2) if values else None
    merged["requests"] = sum(int(r.get("requests") or 0) for r in valid)
    merged["ok"] = sum(int(r.get("ok") or 0) for r in valid)
    merged["ko"] = sum(int(r.get("ko") or 0) for r in valid)
    merged["success_pct"] = round(100.0 * merged["ok"] / merged["requests"], 3) if merged["requests"] else None
    merged["errors"] = "; ".join(sorted({r["errors"] for r in valid if r.get("errors")}))
    rates = [float(r["rps"]) for r in valid if r.get("rps") is not None]
    if not valid:
        merged["status"] = verdict.worst_status({r.get("status") for r in rounds})
        merged["note"] = "no valid round"
    elif len(rounds) > 1 and len(rates) < 2:
        merged["status"] = "refused"
        merged["note"] = f"only {len(rates)} of {len(rounds)} rounds valid: nothing to check it against"
    else:
        refusal = verdict.rounds_refusal(rates, max_spread_percent, unit)
        merged["status"] = "refused" if refusal else "ok"
        if refusal:
            merged["note"] = refusal
    return merged


def summarise_repeats(rows, max_spread_percent=verdict.MAX_SPREAD_PERCENT):
    """The Gatling simulations run in rounds (the WebSocket echo and broadcast, WS_ROUNDS: each round a Gatling run of
    its own against the same server, one after the other): each target's rounds of one simulation become one median
    row, judged as wrk's medians are. Returns (the rows with each simulation's rounds replaced by their median, the
    rounds themselves)."""
    def repeated(row):
        return row.get("tool") == "gatling" and row.get("round") not in (None, "")

    repeats = [row for row in rows if repeated(row)]
    rest = [row for row in rows if not repeated(row)]
    for group in rounds_by_load(repeats):
        # The WebSocket simulations count messages: round trips (echo) or deliveries (broadcast).
        merged = summarise_rounds(group, max_spread_percent, "msg/s")
        merged["ready_ms"] = group[0].get("ready_ms")
        rest.append(merged)
    return rest, repeats


def ratio(value, base):
    if value is None or not base:
        return None
    return round(float(value) / float(base), 3)


def write_csv(run_dir, rows):
    with open(run_dir / "results.csv", "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if row.get(k) is None else row.get(k)) for k in CSV_COLUMNS})


def fmt(value, digits=0):
    if value is None or value == "":
        return "–"
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return value
    if digits == 0:
        return f"{value:,.0f}"
    return f"{value:,.{digits}f}"


LOAD_TABLE_TITLES = {
    "wrk": "wrk throughput (server on CPU 0, wrk on CPU 1, median of interleaved rounds)",
    "h2load": "HTTP/2 throughput, h2load (h2-<endpoint>-c<connections>m<streams per connection>; server on CPU 0, "
              "h2load on CPU 1, median of interleaved rounds)",
}


def markdown(rows, load_summary):
    out = []
    gatling = [r for r in rows if r.get("tool") == "gatling" and r.get("status") != "skipped"]
    if gatling:
        out.append("### Gatling scenarios\n")
        out.append("| simulation | target | requests | OK | KO | success % | mean ms | p50 | p95 | p99 | max | req/s "
                   "| CPU % server / load | rounds | assertions | errors | verdict |")
        out.append("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|---|---|")
        for r in sorted(gatling, key=lambda r: (simulation_order(r["simulation"]), target_order(r["target"]))):
            out.append("| {sim} | {target} | {req} | {ok} | {ko} | {succ} | {mean} | {p50} | {p95} | {p99} | {max} "
                       "| {rps} | {cpu} | {rounds} | {asrt} | {err} | {verdict} |".format(
                           sim=r["simulation"], target=r["target"], req=fmt(r.get("requests")), ok=fmt(r.get("ok")),
                           ko=fmt(r.get("ko")), succ=fmt(r.get("success_pct"), 2), mean=fmt(r.get("mean_ms")),
                           p50=fmt(r.get("p50_ms")), p95=fmt(r.get("p95_ms")), p99=fmt(r.get("p99_ms")),
                           max=fmt(r.get("max_ms")), rps=fmt(r.get("rps"), 1), cpu=cpu_cell(r),
                           rounds=r.get("round") or "–", asrt=r.get("assertions", "–"),
                           err=cell(r.get("errors")), verdict=verdict_cell(r)))
        out.append("")
    out.extend(level_tables(gatling))
    out.extend(websocket_table(gatling))
    for tool in LOAD_TOOLS:
        out.extend(load_table(tool, [r for r in load_summary if r.get("tool") == tool]))
    out.extend(idle_tables(rows))
    out.extend(launch_table(rows))
    ready = {}
    for r in rows:
        if r.get("ready_ms") not in (None, "") and r.get("tool") == "gatling":
            ready.setdefault(r["target"], r["ready_ms"])
    if ready:
        out.append("### Start-up (JVM launch to first 200 from /benchmark/health)\n")
        out.append("| target | ready ms |")
        out.append("|---|--:|")
        for target in sorted(ready, key=target_order):
            out.append(f"| {target} | {fmt(ready[target])} |")
        out.append("")
    not_ok = [r for r in rows + load_summary if r.get("status", "ok") != "ok"]
    if not_ok:
        out.append("### Not measured, or not to be trusted (failed, crashed, refused or skipped)\n")
        for r in not_ok:
            what = "" if r.get("simulation") in (None, "-") else " " + r["simulation"]
            what += f" round {r['round']}" if r.get("round") not in (None, "") else ""
            what += f" ({r['variant']})" if r.get("variant") else ""
            out.append(f"- {r['target']}{what}: {r['status']}: {r.get('note', '')}")
        out.append("")
    return "\n".join(out)


def cell(text):
    """Free text in a Markdown table cell."""
    return (text or "").replace("|", "/")


def cpu_cell(row):
    """'68 / 100': how busy the server's CPU and the load generator's were while the tool ran (pinned runs only). A
    load generator at 100 % was the limit: such a row measures the client as much as the server."""
    server, load = row.get("server_cpu_pct"), row.get("load_cpu_pct")
    return "–" if server is None or load is None else f"{fmt(server)} / {fmt(load)}"


def verdict_cell(row):
    """ok, or the verdict in bold with its reason: a row not to be read as a measurement must look different."""
    status = row.get("status", "ok")
    return "ok" if status == "ok" else f"**{status}**: {cell(row.get('note'))}"


def load_table(tool, summary):
    """wrk's or h2load's medians: one row per load (endpoint, and for h2load the shape) and target, with its verdict
    (a refused median keeps its number, marked, but no ratio)."""
    if not summary:
        return []
    out = [f"### {LOAD_TABLE_TITLES[tool]}\n",
           "| load | target | req/s | × tomcat-platform | × tomcat (same thread type) | mean ms | p50 ms | p99 ms "
           "| CPU % server / load | rounds | errors | verdict |",
           "|---|---|--:|--:|--:|--:|--:|--:|--:|---|---|---|"]
    for r in sorted(summary, key=lambda r: (load_order(r["simulation"]), target_order(r["target"]))):
        out.append("| {sim} | {target} | {rps} | {ratio} | {same} | {mean} | {p50} | {p99} | {cpu} | {rounds} "
                   "| {err} | {verdict} |".format(
                       sim=r["simulation"], target=r["target"], rps=fmt(r.get("rps")),
                       ratio=fmt(r.get("ratio_vs_tomcat_platform"), 2),
                       same=fmt(r.get("ratio_vs_tomcat_same_threads"), 2), mean=fmt(r.get("mean_ms"), 2),
                       p50=fmt(r.get("p50_ms"), 2), p99=fmt(r.get("p99_ms"), 2), cpu=cpu_cell(r),
                       rounds=r.get("round", ""), err=cell(r.get("errors")), verdict=verdict_cell(r)))
    out.append("")
    return out


def load_order(name):
    """h2 loads by endpoint, then by connections and streams ('h2-hello-c16m10' before 'h2-hello-c64m100');
    others by name."""
    match = re.fullmatch(r"h2-(.+)-c(\d+)m(\d+)", name)
    return (match.group(1), int(match.group(2)), int(match.group(3))) if match else (name, 0, 0)


PROTOCOL_NAMES = {"h1": "HTTP/1.1 keep-alive", "h2": "HTTP/2"}


def idle_protocol(row):
    """'h1' or 'h2', from the row's simulation ('h1-idle', 'h2-idle')."""
    return row["simulation"].split("-")[0]


def mb(kb):
    return None if kb in (None, "") else int(kb) / 1024


def idle_tables(rows):
    """Per protocol, per target: the idle connections held and what they cost the server, after the load and
    while they are held."""
    out = []
    for protocol, name in PROTOCOL_NAMES.items():
        # Failed rows too: a server that died holding the connections still has its RSS after the load.
        idle = sorted([r for r in rows if r.get("tool") == "idle" and r.get("status") in ("ok", "failed")
                       and idle_protocol(r) == protocol], key=lambda r: target_order(r["target"]))
        if not idle:
            continue
        out += [f"### Idle {name} connections (server RSS and live heap while they are held)\n",
                "| target | connections opened | open when measured | RSS after the load MB | RSS while held MB "
                "| RSS growth MB | RSS per connection kB | live heap per connection kB | seconds to open | errors | verdict |",
                "|---|--:|--:|--:|--:|--:|--:|--:|--:|---|---|"]
        for r in idle:
            out.append("| {target} | {opened} of {asked} | {open} | {loaded} | {held} | {growth} | {rss} | {heap} "
                       "| {seconds} | {err} | {status} |".format(
                           target=r["target"], opened=fmt(r.get("ok")), asked=fmt(r.get("requests")),
                           open=fmt(r.get("sessions_open")), loaded=fmt(mb(r.get("rss_loaded_kb")), 1),
                           held=fmt(mb(r.get("rss_after_kb")), 1), growth=fmt(r.get("rss_growth_mb"), 1),
                           rss=fmt(r.get("rss_per_session_kb"), 1), heap=fmt(r.get("heap_per_session_kb"), 1),
                           seconds=fmt(r.get("open_seconds"), 1), err=(r.get("errors") or "").replace("|", "/"),
                           status=r["status"]))
        out.append("")
    return out


def level_groups(gatling_rows):
    """{simulation: ([levels], {(target, level): row})} for the multi-level simulations among the measured rows."""
    groups = {}
    for r in gatling_rows:
        base, level = level_of(r["simulation"])
        if level is not None and r.get("status") == "ok":
            levels, cells = groups.setdefault(base, ([], {}))
            if level not in levels:
                levels.append(level)
            cells[(r["target"], level)] = r
    return {base: (sorted(levels), cells) for base, (levels, cells) in groups.items()}


def sorted_levels(gatling_rows):
    return sorted(level_groups(gatling_rows).items(), key=lambda item: simulation_order(item[0]))


def level_tables(gatling_rows):
    """One table per multi-level simulation: per target, mean and p99 response time and req/s at every level."""
    out = []
    for base, (levels, cells) in sorted_levels(gatling_rows):
        targets = sorted({target for target, _ in cells}, key=target_order)
        out.append(f"### {base} by number of clients (mean ms / p99 ms / req/s)\n")
        out.append("| target | " + " | ".join(f"{level:,} clients" for level in levels) + " | KO |")
        out.append("|---|" + "--:|" * len(levels) + "--:|")
        for target in targets:
            row_cells = []
            for level in levels:
                r = cells.get((target, level))
                row_cells.append("–" if r is None else "{} / {} / {}".format(
                    fmt(r.get("mean_ms")), fmt(r.get("p99_ms")), fmt(r.get("rps"))))
            ko = sum(int(r.get("ko") or 0) for (t, _), r in cells.items() if t == target)
            out.append(f"| {target} | " + " | ".join(row_cells) + f" | {fmt(ko)} |")
        out.append("")
    return out


def websocket_table(gatling_rows):
    """One row per target: echo round trips/s and p99 (largest level), broadcast deliveries/s and p99, and the memory
    10,000 idle sessions cost, with the throughputs' ratios against Tomcat platform."""
    # A median of rounds refused for their spread keeps its number, marked, as wrk's does, but gets no ratio.
    measured = [r for r in gatling_rows if r["simulation"].startswith("WebSocket") and (
        r.get("status") == "ok" or r.get("status") == "refused" and str(r.get("round")).startswith("median"))]
    if not measured:
        return []
    per_target = {}
    for r in measured:
        cells = per_target.setdefault(r["target"], {})
        base, level = level_of(r["simulation"])
        if base == "WebSocketEcho" and (level or 0) >= cells.get("echo_level", -1):
            cells["echo"], cells["echo_level"] = r, level or 0
        elif base == "WebSocketBroadcast":
            cells["broadcast"] = r
        elif base == "WebSocketIdle":
            cells["idle"] = r
    baseline = per_target.get(BASELINE, {})

    def times_tomcat(cells, kind):
        mine, base = cells.get(kind, {}), baseline.get(kind, {})
        if mine.get("status") != "ok" or base.get("status") != "ok":
            return "–"
        return fmt(ratio(mine.get("rps"), base.get("rps")), 2)

    def rate(row):
        return fmt(row.get("rps")) + (" (refused)" if row.get("status") == "refused" else "")

    out = ["### WebSocket (echo: round trips/s and p99 ms; broadcast: deliveries/s and p99 ms from trigger to "
           "arrival; idle: server RSS)\n",
           "| target | echo sessions | echo msg/s | × tomcat-platform | echo p99 | echo CPU % server / load "
           "| broadcast delivered | broadcast msg/s | × tomcat-platform | broadcast p99 | idle sessions open "
           "| RSS growth MB | RSS per session kB | live heap per session kB | failed |",
           "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for target in sorted(per_target, key=target_order):
        cells = per_target[target]
        echo, broadcast, idle = cells.get("echo", {}), cells.get("broadcast", {}), cells.get("idle", {})
        failed = sum(int(r.get("ko") or 0) for r in (echo, broadcast, idle))
        delivered = ("{} of {}".format(fmt(broadcast.get("ok")), fmt(broadcast.get("requests")))
                     if broadcast else "–")
        out.append("| {target} | {echo_level} | {echo_rps} | {echo_x} | {echo_p99} | {echo_cpu} | {delivered} "
                   "| {bc_rps} | {bc_x} | {bc_p99} | {open} | {growth} | {per_session} | {heap} | {failed} |".format(
                       target=target, echo_level=fmt(cells.get("echo_level")) if echo else "–",
                       echo_rps=rate(echo), echo_x=times_tomcat(cells, "echo"),
                       echo_p99=fmt(echo.get("p99_ms")), echo_cpu=cpu_cell(echo), delivered=delivered,
                       bc_rps=rate(broadcast),
                       bc_x=times_tomcat(cells, "broadcast"), bc_p99=fmt(broadcast.get("p99_ms")),
                       open=fmt(idle.get("sessions_open")), growth=fmt(idle.get("rss_growth_mb"), 1),
                       per_session=fmt(idle.get("rss_per_session_kb"), 1),
                       heap=fmt(idle.get("heap_per_session_kb"), 1), failed=fmt(failed)))
    out.append("")
    return out


SIMULATION_ORDER = ["ColdStart", "HelloWorld", "CpuIntensive", "Latency", "Concurrency", "AsyncLatency", "Db",
                    "HeavyLoad", "WebSocketEcho", "WebSocketIdle", "WebSocketBroadcast"]
# WebFlux on Sprout last, next to Reactor Netty: appended, so every other target keeps its colour.
TARGET_ORDER = ["sprout-nio-platform", "sprout-nio-virtual", "sprout-hybrid-platform", "sprout-hybrid-virtual",
                "tomcat-platform", "tomcat-virtual", "jetty-platform", "jetty-virtual", "netty",
                "sprout-webflux-nio-platform", "sprout-webflux-nio-virtual", "sprout-webflux-hybrid-platform",
                "sprout-webflux-hybrid-virtual", "tomcat-webflux-platform"]


def level_of(name):
    """'Concurrency-500' -> ('Concurrency', 500); 'Latency' -> ('Latency', None)."""
    match = re.fullmatch(r"(.+)-(\d+)", name)
    return (match.group(1), int(match.group(2))) if match else (name, None)


def simulation_order(name):
    """The order of SIMULATION_ORDER, the levels of one simulation by their number of clients, others last."""
    base, level = level_of(name)
    position = SIMULATION_ORDER.index(base) if base in SIMULATION_ORDER else len(SIMULATION_ORDER)
    return (position, base, -1 if level is None else level)


def target_order(name):
    return (TARGET_ORDER.index(name) if name in TARGET_ORDER else len(TARGET_ORDER), name)


# ---------------------------------------------------------------- SVG charts

# One colour per target of TARGET_ORDER. The sprout-webflux ones are darker shades of their Spring MVC twins' hues
# (blue, orange, green, pink), so a chart of both stacks pairs them at a glance and still tells them apart;
# tomcat-webflux-platform is a darker shade of tomcat-platform's purple.
PALETTE = ["#2b6cb0", "#dd6b20", "#38a169", "#d53f8c", "#805ad5", "#d69e2e", "#319795", "#e53e3e", "#4a5568",
           "#1a365d", "#7b341e", "#1c4532", "#702459", "#44337a"]
LEGEND_ROW = 16


# The reactive targets on Spring's WebFlux (after netty in TARGET_ORDER) are hatched as well: their dark shades sit as
# close as 20 CIE76 units to netty's slate and to each other, too close to tell apart in a 10-pixel legend swatch,
# and the stripes say "WebFlux" besides.
HATCHED = {"sprout-webflux-nio-platform", "sprout-webflux-nio-virtual", "sprout-webflux-hybrid-platform",
           "sprout-webflux-hybrid-virtual", "tomcat-webflux-platform"}


def colour_of(name, index):
    """A target keeps its colour in every chart (one per target of TARGET_ORDER); other series go by position."""
    if name in TARGET_ORDER:
        return PALETTE[TARGET_ORDER.index(name) % len(PALETTE)]
    return PALETTE[index % len(PALETTE)]


def paint_of(name, index):
    """The fill of a series' bars and legend swatch: its colour, through a hatch pattern for HATCHED targets (defined
    once per chart by hatch_patterns)."""
    return f"url(#{hatch_id(name)})" if name in HATCHED else colour_of(name, index)


def hatch_id(name):
    return "hatch-" + name


def hatch_patterns(series):
    """SVG definitions of the hatch patterns the series need: their colour crossed by white diagonal stripes."""
    patterns = [f'<pattern id="{hatch_id(name)}" width="5" height="5" patternUnits="userSpaceOnUse" '
                f'patternTransform="rotate(45)"><rect width="5" height="5" fill="{colour_of(name, 0)}"/>'
                f'<line x1="0" y1="0" x2="0" y2="5" stroke="white" stroke-width="2"/></pattern>'
                for name in series if name in HATCHED]
    return ["<defs>" + "".join(patterns) + "</defs>"] if patterns else []


def legend_rows(series, left, right_edge):
    """The legend entries as rows of (name, x) that fit between left and right_edge (wrapped, never cut off)."""
    rows, x = [[]], left
    for name in series:
        entry = 24 + 7 * len(name)
        if rows[-1] and x + entry > right_edge:
            rows.append([])
            x = left
        rows[-1].append((name, x))
        x += entry
    return rows


def nice_max(value):
    if value <= 0:
        return 1.0
    exponent = math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        candidate = step * 10 ** exponent
        if candidate >= value:
            return candidate
    return 10 ** (exponent + 1)


def chart_frame(title, unit, size, margins, top_value, definitions=()):
    """The start of a chart's SVG: its size, definitions (patterns), white background, title, and the y axis of
    `unit` from 0 to top_value in five grid steps. size is (width, height), margins (left, right, top, plot
    height)."""
    (width, height), (left, right, top, plot_h) = size, margins
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           *definitions,
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">'
           f'{html.escape(title)}</text>']
    for i in range(6):
        value = top_value * i / 5
        y = top + plot_h - plot_h * i / 5
        svg.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" stroke="#e2e8f0"/>')
        svg.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{fmt(value, 0 if top_value >= 10 else 1)}'
                   f'</text>')
    svg.append(f'<text x="16" y="{top + plot_h / 2}" transform="rotate(-90 16 {top + plot_h / 2})" '
               f'text-anchor="middle">{html.escape(unit)}</text>')
    return svg


def grouped_bars(title, unit, groups, series, values, path, digits=0, label_skip=None, refused=frozenset()):
    """A grouped bar chart: for each group (x axis) one bar per series. values[(group, series)] -> number.
    Every bar is labelled with its value, except bars equal to label_skip (e.g. 100 % success, the boring case). The
    keys in `refused` are measurements not to be trusted: drawn hollow with a dashed outline and labelled "refused",
    so they are seen but never read as results."""
    label_all = label_skip is None
    width = max(640, 120 + len(groups) * (len(series) * 22 + 30))
    left, right, top, bottom = 70, 20, 50, 120
    legend = legend_rows(series, left, width - right)
    # The plot keeps its height; each legend row past the first adds one below it.
    one_row_height = 380
    height = one_row_height + LEGEND_ROW * (len(legend) - 1)
    plot_w, plot_h = width - left - right, one_row_height - top - bottom
    # Headroom above the tallest bar for its (vertical) value label.
    top_value = nice_max(1.15 * max([v for v in values.values() if v is not None] or [1]))
    svg = chart_frame(title, unit, (width, height), (left, right, top, plot_h), top_value, hatch_patterns(series))
    group_w = plot_w / max(1, len(groups))
    bar_w = min(22, (group_w - 16) / max(1, len(series)))
    for gi, group in enumerate(groups):
        x0 = left + gi * group_w + (group_w - bar_w * len(series)) / 2
        for si, name in enumerate(series):
            value = values.get((group, name))
            if value is None:
                continue
            h = plot_h * value / top_value
            x = x0 + si * bar_w
            y = top + plot_h - h
            is_refused = (group, name) in refused
            paint = (f'fill="none" stroke="{colour_of(name, si)}" stroke-dasharray="3 2"' if is_refused
                     else f'fill="{paint_of(name, si)}"')
            label = "refused" if is_refused else fmt(value, digits)
            svg.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar_w - 2:.1f}" height="{h:.1f}" '
                       f'{paint}><title>{html.escape(f"{group} / {name}: {value}")}'
                       f'{" (refused)" if is_refused else ""}</title></rect>')
            if label_all or value != label_skip or is_refused:
                lx, ly = x + bar_w / 2 + 2, y - 3
                svg.append(f'<text x="{lx:.1f}" y="{ly:.1f}" font-size="9" transform="rotate(-90 {lx:.1f} {ly:.1f})">'
                           f'{label}</text>')
        label_x = left + gi * group_w + group_w / 2
        svg.append(f'<text x="{label_x:.1f}" y="{top + plot_h + 14}" text-anchor="end" '
                   f'transform="rotate(-30 {label_x:.1f} {top + plot_h + 14})">{html.escape(group)}</text>')
    index = {name: si for si, name in enumerate(series)}
    return chart_end(svg, (left, width - right, top + plot_h), legend, one_row_height - 18, path,
                     lambda name, x, y: f'<rect x="{x}" y="{y}" width="10" height="10" '
                                        f'fill="{paint_of(name, index[name])}"/>')


def chart_end(svg, x_axis, legend, legend_top, path, swatch):
    """The end of a chart: its x axis (from, to, at y), the legend rows of legend_rows under legend_top, each entry
    swatch(name, x, y) and the name, and the file at path. Returns the file's name."""
    (x_from, x_to, y_axis) = x_axis
    svg.append(f'<line x1="{x_from}" y1="{y_axis}" x2="{x_to}" y2="{y_axis}" stroke="#4a5568"/>')
    for row_number, row in enumerate(legend):
        y = legend_top + LEGEND_ROW * row_number
        for name, x in row:
            svg.append(swatch(name, x, y))
            svg.append(f'<text x="{x + 14}" y="{y + 9}">{html.escape(name)}</text>')
    svg.append("</svg>")
    path.write_text("\n".join(svg) + "\n")
    return path.name


def line_chart(title, unit, x_unit, lines, path):
    """Lines over whole x steps (seconds, say): lines is [(name, colour, dash, faded, [y at step 0, 1, ...])], each y
    drawn in the middle of its step; dash is an SVG stroke-dasharray, or None for a solid line; a faded line (a refused
    measurement) is drawn pale. Every line has a legend entry with a sample of its stroke, so colour and dash together
    tell the lines apart."""
    steps = max([len(ys) for *_, ys in lines] or [1])
    width = max(640, 120 + 16 * steps)
    left, right, top, bottom = 70, 20, 50, 60
    legend = legend_rows([name for name, *_ in lines], left, width - right)
    one_row_height = 340
    height = one_row_height + LEGEND_ROW * (len(legend) - 1)
    plot_w, plot_h = width - left - right, one_row_height - top - bottom
    top_value = nice_max(1.05 * max([y for *_, ys in lines for y in ys] or [1]))
    svg = chart_frame(title, unit, (width, height), (left, right, top, plot_h), top_value)
    step_w = plot_w / steps
    for step in range(0, steps + 1, 5):
        svg.append(f'<text x="{left + step * step_w:.1f}" y="{top + plot_h + 14}" text-anchor="middle">{step}</text>')
    svg.append(f'<text x="{left + plot_w / 2}" y="{top + plot_h + 30}" text-anchor="middle">{html.escape(x_unit)}</text>')
    style = {name: (f'stroke="{colour}" stroke-width="2" fill="none"' + (f' stroke-dasharray="{dash}"' if dash else "")
                    + (' stroke-opacity="0.35"' if faded else "")) for name, colour, dash, faded, _ in lines}
    for name, *_, ys in lines:
        points = " ".join(f"{left + (i + 0.5) * step_w:.1f},{top + plot_h - plot_h * y / top_value:.1f}"
                          for i, y in enumerate(ys))
        svg.append(f'<polyline points="{points}" {style[name]}><title>{html.escape(name)}</title></polyline>')
    return chart_end(svg, (left, width - right, top + plot_h), legend, one_row_height - 18, path,
                     lambda name, x, y: f'<line x1="{x}" y1="{y + 5}" x2="{x + 11}" y2="{y + 5}" {style[name]}/>')


# The warmup preset's variants in their order, and the stroke of each in the chart (a target keeps its colour).
VARIANTS = ["plain", "aot", "aot-warmup", "aot-compiled"]
VARIANT_DASH = {"plain": None, "aot": "7 3", "aot-warmup": "2 2", "aot-compiled": "1 4"}


def launch_rows(rows):
    """The warmup preset's LaunchLoad rows, by target and variant."""
    return sorted([r for r in rows if r.get("tool") == "launchload"],
                  key=lambda r: (target_order(r["target"]), variant_order(r.get("variant"))))


def variant_order(variant):
    return VARIANTS.index(variant) if variant in VARIANTS else len(VARIANTS)


def launch_chart(run_dir, rows):
    """Answers per 1 s window from the launch, one line per target and variant that was measured: a refused one pale
    and named so (seen, never read as a result, as a refused bar is hollow), a failed one not at all."""
    measured = [r for r in launch_rows(rows) if r.get("status") in ("ok", "refused") and r.get("ok_windows")]
    if not measured:
        return []
    lines = [(f"{r['target']} {r['variant']}" + (" (refused)" if r["status"] == "refused" else ""),
              colour_of(r["target"], i), VARIANT_DASH.get(r["variant"]), r["status"] == "refused", r["ok_windows"])
             for i, r in enumerate(measured)]
    return [line_chart("Answers per second from the JVM's launch (LaunchLoad on /benchmark/hello)", "req/s",
                       "seconds since the launch", lines, run_dir / "launch-throughput.svg")]


def launch_table(rows):
    """Per target and variant: time to the first answer, the peak and the time to 90 % of it, against Tomcat
    (platform threads) with the same AOT cache: what issue 22 sets its goals by."""
    launched = launch_rows(rows)
    if not launched:
        return []
    tomcat = {r["variant"]: r.get("t90_ms") for r in launched
              if r["target"] == BASELINE and r.get("status") == "ok"}
    out = ["### From the JVM's launch: first answer and warm-up (LaunchLoad, 1 s windows from the launch; peak = "
           f"median of the best {launchresults.PEAK_WINDOWS} windows)\n",
           "| target | variant | first answer ms | peak req/s | ms to 90 % of peak | × tomcat-platform's (same AOT "
           "cache) | burst p50 / p99 ms | errors | verdict |",
           "|---|---|--:|--:|--:|--:|--:|--:|---|"]
    for r in launched:
        base = tomcat.get((r.get("variant") or "").removesuffix("-warmup").removesuffix("-compiled"))
        mine = r.get("t90_ms") if r.get("status") == "ok" else None
        out.append(f"| {r['target']} | {r.get('variant', '–')} | {fmt(r.get('first_answer_ms'))} | {fmt(r.get('rps'))} "
                   f"| {fmt(r.get('t90_ms'))} | {fmt(ratio(mine, base), 2)} | {burst_cell(r)} | {fmt(r.get('ko'))} "
                   f"| {verdict_cell(r)} |")
    out.append("")
    return out


def burst_cell(row):
    """The burst at the first answer (LaunchLoad's, LAUNCH_BURST users on new connections): p50 / p99 ms; – without."""
    if row.get("burst_users") is None:
        return "–"
    return f"{fmt(row.get('burst_p50_ms'))} / {fmt(row.get('burst_p99_ms'))}"


def charts(run_dir, rows, load_summary):
    written = []
    gatling = [r for r in rows if r.get("tool") == "gatling" and r.get("status") == "ok"]
    simulations = sorted({r["simulation"] for r in gatling}, key=simulation_order)
    for simulation in simulations:
        sim_rows = sorted([r for r in gatling if r["simulation"] == simulation], key=lambda r: target_order(r["target"]))
        targets = [r["target"] for r in sim_rows]
        series = ["p50_ms", "p95_ms", "p99_ms", "mean_ms"]
        values = {(r["target"], s.replace("_ms", "")): r.get(s) for r in sim_rows for s in series}
        slug = simulation.lower()
        written.append(grouped_bars(f"{simulation}: response time percentiles", "ms", targets,
                                    [s.replace("_ms", "") for s in series], values,
                                    run_dir / f"latency-{slug}.svg"))
        written.append(grouped_bars(f"{simulation}: mean throughput", "req/s", targets, ["req/s"],
                                    {(r["target"], "req/s"): r.get("rps") for r in sim_rows},
                                    run_dir / f"throughput-{slug}.svg", 1))
    for base, (levels, cells) in sorted_levels(gatling):
        targets = sorted({target for target, _ in cells}, key=target_order)
        groups = [f"{level:,} clients" for level in levels]
        for key, unit, slug, digits in (("mean_ms", "mean ms", "mean", 0), ("rps", "req/s", "throughput", 1)):
            values = {(f"{level:,} clients", target): cells[(target, level)].get(key)
                      for (target, level) in cells}
            written.append(grouped_bars(f"{base}: {unit} by number of clients", unit, groups, targets, values,
                                        run_dir / f"levels-{slug}-{base.lower()}.svg", digits))
    idle = sorted([r for r in gatling if r["simulation"] == "WebSocketIdle" and r.get("rss_per_session_kb") is not None],
                  key=lambda r: target_order(r["target"]))
    if idle:
        written.append(grouped_bars("WebSocketIdle: server RSS per open idle session", "kB per session",
                                    [r["target"] for r in idle], ["kB"],
                                    {(r["target"], "kB"): r["rss_per_session_kb"] for r in idle},
                                    run_dir / "websocket-rss-per-session.svg", 1))
    if gatling:
        targets = sorted({r["target"] for r in gatling}, key=target_order)
        values = {(r["simulation"], r["target"]): r.get("success_pct") for r in gatling}
        written.append(grouped_bars("Success rate per simulation", "% successful", simulations, targets, values,
                                    run_dir / "success-rate.svg", 1, label_skip=100.0))
    for tool in LOAD_TOOLS:
        summary = [r for r in load_summary if r.get("tool") == tool]
        if not summary:
            continue
        loads = sorted({r["simulation"] for r in summary}, key=load_order)
        # Every target that ran keeps its legend entry; a refused median is drawn hollow, a failed one not at all.
        targets = sorted({r["target"] for r in summary}, key=target_order)
        shown = [r for r in summary if r["status"] in ("ok", "refused")]
        written.append(grouped_bars(f"{tool} throughput (pinned, median)", "req/s", loads, targets,
                                    {(r["simulation"], r["target"]): r.get("rps") for r in shown},
                                    run_dir / f"{tool}-throughput.svg",
                                    refused={(r["simulation"], r["target"]) for r in shown if r["status"] == "refused"}))
    for protocol, name in PROTOCOL_NAMES.items():
        idle = sorted([r for r in rows if r.get("tool") == "idle" and r.get("status") in ("ok", "failed")
                       and idle_protocol(r) == protocol], key=lambda r: target_order(r["target"]))
        held = [r for r in idle if r["status"] == "ok" and r.get("rss_per_session_kb") is not None]
        if held:
            per_connection = {}
            for r in held:
                per_connection[(r["target"], "RSS")] = r["rss_per_session_kb"]
                per_connection[(r["target"], "live heap")] = r.get("heap_per_session_kb")
            written.append(grouped_bars(f"Server memory per idle {name} connection", "kB per connection",
                                        [r["target"] for r in held], ["RSS", "live heap"], per_connection,
                                        run_dir / f"{protocol}-memory-per-connection.svg", 1))
        # A server that died holding the connections keeps its bar for the RSS after the load.
        rss = {}
        for r in idle:
            rss[(r["target"], "after the load")] = mb(r.get("rss_loaded_kb"))
            if r in held:
                rss[(r["target"], f"{r['sessions_open']:,} idle held")] = mb(r.get("rss_after_kb"))
        if any(value is not None for value in rss.values()):
            series = sorted({series for _, series in rss}, key=lambda series: series != "after the load")
            written.append(grouped_bars(f"Server RSS after the load and with idle {name} connections held", "MB",
                                        [r["target"] for r in idle], series, rss, run_dir / f"{protocol}-rss.svg"))
    written.extend(launch_chart(run_dir, rows))
    return written


def report_command(run_dir, settings):
    """Writes the report of compare.sh's run in run_dir and returns the run's exit status (verdict.exit_code).
    settings: max_spread_percent, max_load (for the rules paragraph: each row carries the limit it was judged by)
    and fail_on_ko=1 (the CI smoke: any failed request fails its row)."""
    run_dir = Path(run_dir)
    max_spread = settings.get("max_spread_percent", verdict.MAX_SPREAD_PERCENT)
    rows = load_rows(run_dir)
    if settings.get("fail_on_ko") == "1":
        for row in rows:
            fail_on_ko(row)
    rows, repeats = summarise_repeats(rows, max_spread)
    load_summary = summarise_load(rows, max_spread)
    other_rows = [r for r in rows if r.get("tool") not in LOAD_TOOLS]
    load_rounds = [r for r in rows if r.get("tool") in LOAD_TOOLS]
    write_csv(run_dir, other_rows + load_summary + load_rounds + repeats)
    code = verdict.exit_code(rows + load_summary + repeats)
    verdicts = (f"### Verdict: {verdict.RUN_VERDICTS[code]}\n\n"
                f"{verdict.rules(max_spread, settings.get('max_load', verdict.MAX_LOAD))}\n")
    table = markdown(rows, load_summary)
    written = charts(run_dir, rows, load_summary)
    header = (run_dir / "machine.md").read_text() if (run_dir / "machine.md").exists() else ""
    chart_md = "\n".join(f"![{name}]({name})" for name in written)
    (run_dir / "results.md").write_text(f"{header}\n{verdicts}\n{table}\n### Charts\n\n{chart_md}\n")
    print(f"{verdicts}\n{table}")
    return code


def fail_on_ko(row):
    """The smoke's rule: a row with any failed request is failed, whatever its assertions allow."""
    if row.get("status") == "ok" and int(row.get("ko") or 0) > 0:
        row["status"] = "failed"
        row["note"] = f"{row['ko']} failed requests, and this run allows none (fail_on_ko)"


# ---------------------------------------------------------------- A/B of two builds (gatling/ab-wrk.sh)

AB_COLUMNS = ["target", "endpoint", "side", "round", "status", "requests", "ko", "rps", "mean_ms", "p50_ms", "p99_ms",
              "ratio_new_vs_old", "errors", "note"]


def summarise_ab(rows, max_spread_percent=verdict.MAX_SPREAD_PERCENT):
    """Per (target, endpoint): each side's req/s per round and median, the ratio new/old of the medians and of each
    round's pair. A round without a valid result (a server that failed, a busy machine) is left out of its side's
    median; a side whose rounds disagree by more than max_spread_percent refuses the comparison (no ratio)."""
    groups = {}
    for row in rows:
        if row.get("tool") != "wrk" or row.get("side") not in ("old", "new"):
            continue
        group = groups.setdefault((row["target"], row["simulation"]), {"old": {}, "new": {}, "errors": set()})
        if row.get("status") == "ok" and row.get("rps") is not None:
            group[row["side"]][str(row.get("round"))] = float(row["rps"])
        if row.get("errors") or row.get("status") != "ok":
            group["errors"].add("%s round %s: %s" % (row["side"], row.get("round"),
                                                     row.get("errors") or row.get("note") or row.get("status")))
    summary = []
    for (target, simulation), group in groups.items():
        old, new = group["old"], group["new"]
        old_median = statistics.median(old.values()) if old else None
        new_median = statistics.median(new.values()) if new else None
        paired = [ratio(new[r], old[r]) for r in sorted(old, key=round_key) if r in new]
        refusals = [f"{side}: {refusal}" for side, values in (("old", old), ("new", new))
                    if (refusal := verdict.rounds_refusal(list(values.values()), max_spread_percent))]
        summary.append({"target": target, "endpoint": simulation.removeprefix("wrk-"), "old_rps": old,
                        "new_rps": new, "old_median": old_median, "new_median": new_median,
                        "ratio": None if refusals else ratio(new_median, old_median), "paired_ratios": paired,
                        "status": "refused" if refusals else "ok", "note": "; ".join(refusals),
                        "errors": "; ".join(sorted(group["errors"]))})
    return sorted(summary, key=lambda r: (target_order(r["target"]), r["endpoint"]))


def round_key(name):
    return (0, int(name)) if name.isdigit() else (1, name)


def per_round(values):
    """{'1': 100.0, '2': 110.0} -> '100, 110' in round order."""
    return ", ".join(fmt(values[k]) for k in sorted(values, key=round_key)) or "–"


def ab_markdown(summary, failures):
    out = ["### A/B: wrk req/s, new against old (median of rounds; one server at a time, fresh JVM per round)\n",
           "| target | endpoint | old, per round | new, per round | old median | new median | **new / old** "
           "| new / old per round | errors |",
           "|---|---|---|---|--:|--:|--:|---|---|"]
    for r in summary:
        out.append("| {target} | /{endpoint} | {old} | {new} | {old_median} | {new_median} | {ratio} | {paired} "
                   "| {errors} |".format(target=r["target"], endpoint=r["endpoint"], old=per_round(r["old_rps"]),
                                         new=per_round(r["new_rps"]), old_median=fmt(r["old_median"]),
                                         new_median=fmt(r["new_median"]),
                                         # The ratio in bold; a refusal is marked by verdict_cell's own.
                                         ratio=f"**{fmt(r['ratio'], 3)}**" if r["status"] == "ok" else verdict_cell(r),
                                         paired=", ".join(fmt(p, 3) for p in r["paired_ratios"]) or "–",
                                         errors=(r["errors"] or "").replace("|", "/")))
    out.append("")
    if failures:
        out.append("### Not run, failed or refused\n")
        for r in failures:
            out.append(f"- {r['target']}, {r.get('side')}, round {r.get('round')}: {r.get('status')}: "
                       f"{r.get('note', '')}")
        out.append("")
    return "\n".join(out)


def ab_command(run_dir, settings):
    """Writes the A/B report of gatling/ab-wrk.sh's run in run_dir; returns the run's exit status: failed when a round
    failed or an endpoint has no ratio, refused when a comparison was refused."""
    run_dir = Path(run_dir)
    max_spread = settings.get("max_spread_percent", verdict.MAX_SPREAD_PERCENT)
    rows = load_rows(run_dir)
    summary = summarise_ab(rows, max_spread)
    failures = [r for r in rows if r.get("status") not in ("ok", None)]
    with open(run_dir / "results.csv", "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=AB_COLUMNS, extrasaction="ignore")
        writer.writeheader()
        for r in summary:
            for side in ("old", "new"):
                writer.writerow({"target": r["target"], "endpoint": r["endpoint"], "side": side, "round": "median",
                                 "status": r["status"], "rps": r[f"{side}_median"], "note": r["note"],
                                 "ratio_new_vs_old": r["ratio"] if side == "new" else ""})
        for row in rows:
            if row.get("side") in ("old", "new"):
                values = dict(row, endpoint=row.get("simulation", "").removeprefix("wrk-"))
                writer.writerow({k: ("" if values.get(k) is None else values.get(k)) for k in AB_COLUMNS})
    code = verdict.exit_code(rows + summary)
    if code == verdict.EXIT_OK and not (summary and all(r["ratio"] is not None for r in summary)):
        code = verdict.EXIT_FAILED
    verdicts = (f"### Verdict: {verdict.RUN_VERDICTS[code]}\n\n"
                f"{verdict.rules(max_spread, settings.get('max_load', verdict.MAX_LOAD))}\n")
    table = ab_markdown(summary, failures)
    header = (run_dir / "machine.md").read_text() if (run_dir / "machine.md").exists() else ""
    (run_dir / "results.md").write_text(f"{header}\n{verdicts}\n{table}")
    print(f"{verdicts}\n{table}")
    return code


def main(argv):
    if len(argv) >= 4 and argv[1] == "row" and argv[3] in TOOL_OF_KIND:
        row_command(argv[2], argv[3], argv[4], argv[5:])
    elif len(argv) >= 3 and argv[1] == "report":
        return report_command(argv[2], runrows.words(argv[3:]))
    elif len(argv) >= 3 and argv[1] == "ab":
        return ab_command(argv[2], runrows.words(argv[3:]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
