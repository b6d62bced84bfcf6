#!/usr/bin/env python3
"""Summaries, verdicts and the Markdown report of the abuse harness (Python 3 standard library only).

  abusereport.py row ROWS OUT key=value...     append the row of one attack to ROWS: abuse.py's result line in OUT,
                                                or, when the attack client exited non-zero (exit_status=, limit=) or
                                                wrote nothing, a crashed row saying so (target=, attack=,
                                                client_log=); print its summary and verdict
  abusereport.py report RUN_DIR [SUMMARY_DOC]   read RUN_DIR/rows.jsonl, write RUN_DIR/results.md (and print it);
                                                with SUMMARY_DOC, also replace the part of that file between
                                                <!-- abuse-results:begin --> and <!-- abuse-results:end -->;
                                                exit 1 when an attack could not be measured (a crashed or failed row:
                                                a server that did not start, an attack client that failed), not when
                                                a server failed an attack, which is a result

The acceptance of issue 11, as this harness reads it (every threshold is a constant below):
  slowloris      legit p99 <= 100 ms, and every slow client answered 408 within 15 s of connecting
  idle           legit p99 <= 100 ms, and server RSS growth <= 64 MiB
  slow-readers   legit served: at most 1 % of legitimate requests failed, and their p99 <= 1 s
  slow-bodies    legit served, and every slow body answered 408 (the rate rule) before the attack's end
  slow-uploads   no legitimate request failed, and legit p99 <= 100 ms (issue 18: 200 slow uploads into a blocking
                 endpoint must not take every worker); how the uploads ended is reported, not judged
  aborts         legit served, and clean: the server is alive, its open files back to the baseline (read with no
                 connection open, before and after), legit served after the attack
  flood          clean
  fd-exhaustion  clean: alive, serving again within 15 s of the release, open files back to the baseline
  graceful       every in-flight request completed with 200, and the process exited within 30 s
  h2-*           (the HTTP/2 rows: h2-rapid-reset, h2-continuation, h2-ping-flood, h2-settings-flood, h2-zero-window,
                 h2-data-dribble) no legitimate request failed and legit p99 <= 100 ms, for the HTTP/1.1 clients
                 and for the HTTP/2 client alike; server RSS growth <= 64 MiB; server CPU <= 25 % of a core in the
                 2 s of quiet after the release (no work left running); and clean, with the HTTP/2 client served
                 afterwards too. What the server did to the attacking connections is reported, not judged.
A legitimate request that failed ranks slower than any that succeeded, so a p99 that lands on a failure has no
value ("failed") and fails the threshold. When the legitimate client itself started its requests late (p99 lag over
50 ms: its CPU was taken), a failed latency threshold says so, because the latency is then not the server's alone.
"""

import json
import math
import re
import sys
from collections import Counter
from pathlib import Path

import runrows
from verdict import EXIT_FAILED, EXIT_OK, tool_failure

P99_LIMIT_MS = 100.0
SERVED_P99_LIMIT_MS = 1000.0
SERVED_FAILURE_RATIO = 0.01
ANSWER_WITHIN_SECONDS = 15.0
RSS_GROWTH_LIMIT_KIB = 64 * 1024
RECOVERY_LIMIT_SECONDS = 15.0
FDS_TOLERANCE = 8
CLIENT_LAG_LIMIT_MS = 50.0
QUIET_CPU_LIMIT_PCT = 25

H2_ATTACKS = ["h2-rapid-reset", "h2-continuation", "h2-ping-flood", "h2-settings-flood", "h2-zero-window",
              "h2-data-dribble"]
ATTACK_ORDER = ["slowloris", "idle", "slow-readers", "slow-bodies", "slow-uploads", "aborts", "flood", "fd-exhaustion",
                "graceful"] + H2_ATTACKS
TARGET_ORDER = ["sprout-nio-platform", "sprout-nio-virtual", "sprout-hybrid-platform", "sprout-hybrid-virtual",
                "tomcat-platform", "tomcat-virtual", "jetty-platform", "jetty-virtual"]
SUMMARY_BEGIN = "<!-- abuse-results:begin -->"
SUMMARY_END = "<!-- abuse-results:end -->"


# ------------------------------------------------------------------ summaries (used while measuring)
def percentile(values, pct):
    """Nearest-rank percentile of `values` (math.inf for a failure); None if empty or if it lands on a failure."""
    if not values:
        return None
    ordered = sorted(values)
    value = ordered[max(0, math.ceil(pct / 100 * len(ordered)) - 1)]
    return None if math.isinf(value) else round(value, 1)


def summarise_legit(samples):
    """[(start epoch, ms, outcome, client lag ms)] -> requests, failures by kind, latency percentiles (failures
    slowest) and the p99 of how late the client started requests (its own CPU starvation)."""
    latencies = [millis if outcome == "200" else math.inf for _, millis, outcome, _ in samples]
    failures = Counter(outcome for _, _, outcome, _ in samples if outcome != "200")
    return {
        "requests": len(samples), "failed": sum(failures.values()), "failures": dict(failures),
        "p50_ms": percentile(latencies, 50), "p99_ms": percentile(latencies, 99),
        "max_ms": percentile(latencies, 100), "client_lag_p99_ms": percentile([s[3] for s in samples], 99),
    }


def summarise_fates(fates):
    """[(outcome, seconds from connect)] of slow connections -> counts by outcome, how many were answered 408 in
    time, and when the server answered or closed the ones it ended."""
    ended = sorted(seconds for outcome, seconds in fates if outcome != "open" and not outcome.startswith("connect-"))
    return {
        "count": len(fates),
        "outcomes": dict(Counter(outcome for outcome, _ in fates)),
        "answered_408": sum(1 for outcome, _ in fates if outcome == "408"),
        "answered_408_in_time": sum(1 for outcome, seconds in fates
                                    if outcome == "408" and seconds <= ANSWER_WITHIN_SECONDS),
        "ended_seconds_p50": percentile(ended, 50),
        "ended_seconds_max": percentile(ended, 100),
    }


# ------------------------------------------------------------------ verdicts
def served(legit):
    """Reasons the legitimate clients were not served (empty when they were)."""
    if not legit or legit["requests"] == 0:
        return ["no legitimate request was measured"]
    reasons = []
    if legit["failed"] > SERVED_FAILURE_RATIO * legit["requests"]:
        reasons.append(f"legit failures {legit['failed']}/{legit['requests']} ({describe_counts(legit['failures'])})")
    if legit["p99_ms"] is None or legit["p99_ms"] > SERVED_P99_LIMIT_MS:
        reasons.append(f"legit p99 {ms(legit['p99_ms'])} > {SERVED_P99_LIMIT_MS:.0f} ms")
    return reasons


def fast(legit):
    reasons = served(legit)
    if legit and legit["requests"] and legit["p99_ms"] is not None and legit["p99_ms"] > P99_LIMIT_MS:
        reasons = [r for r in reasons if "p99" not in r] + [f"legit p99 {ms(legit['p99_ms'])} > {P99_LIMIT_MS:.0f} ms"]
    return with_client_lag(reasons, legit)


def with_client_lag(reasons, legit):
    """Marks latency failures measured while the legitimate client was itself short of CPU."""
    lag = (legit or {}).get("client_lag_p99_ms")
    if lag is None or lag <= CLIENT_LAG_LIMIT_MS:
        return reasons
    return [f"{reason} (client lag p99 {lag:g} ms: not the server's alone)" if "p99" in reason else reason
            for reason in reasons]


def strictly_fast(legit):
    """fast(), and not a single failure."""
    reasons = fast(legit)
    if legit and legit["failed"] and not any(reason.startswith("legit failures") for reason in reasons):
        reasons.insert(0, f"legit failures {legit['failed']}/{legit['requests']} ({describe_counts(legit['failures'])})")
    return reasons


def h2_verdict(row):
    server = row["server"]
    reasons = strictly_fast(row["legit"]["attack"])
    reasons += [f"h2 {reason}" for reason in strictly_fast(row["legit_h2"]["attack"])]
    growth = rss_growth_kib(server)
    if growth is None or growth > RSS_GROWTH_LIMIT_KIB:
        reasons.append(f"RSS growth {mib(growth)} > {RSS_GROWTH_LIMIT_KIB // 1024} MiB")
    quiet = server.get("cpu_quiet_pct")
    if server["alive"] and (quiet is None or quiet > QUIET_CPU_LIMIT_PCT):
        reasons.append(f"server CPU {quiet}% > {QUIET_CPU_LIMIT_PCT}% with nothing running after the attack")
    reasons += clean(row)
    after = row["legit_h2"]["after"]
    if server["alive"]:
        reasons += [f"after the attack: h2 {reason}" for reason in with_client_lag(served(after), after)]
    return reasons


def clean(row):
    server = row["server"]
    reasons = []
    if not server["alive"]:
        reasons.append("the server died")
    elif not fds_back(server):
        reasons.append(f"open files {server['fds_after']} after, baseline {server['fds_base']}")
    after = row["legit"]["after"]
    reasons += [f"after the attack: {reason}" for reason in with_client_lag(served(after), after)]
    return reasons


def fds_back(server):
    return server["fds_after"] is not None and server["fds_after"] <= server["fds_base"] + FDS_TOLERANCE


def rss_growth_kib(server):
    if server["rss_peak_kib"] is None or server["rss_base_kib"] is None:
        return None
    return max(0, server["rss_peak_kib"] - server["rss_base_kib"])


def verdict(row):
    """(passed, reasons) of one target x attack row against the acceptance above."""
    if row.get("status", "ok") != "ok":
        return False, [row.get("note") or row["status"]]
    attack, result, legit = row["attack"], row["attack_result"], row["legit"]["attack"]
    if attack == "slowloris":
        reasons = fast(legit)
        slow = result["slow"]
        if slow["answered_408_in_time"] < slow["count"]:
            reasons.append(f"408 within {ANSWER_WITHIN_SECONDS:.0f} s: {slow['answered_408_in_time']}/{slow['count']}")
    elif attack == "idle":
        reasons = fast(legit)
        growth = rss_growth_kib(row["server"])
        if growth is None or growth > RSS_GROWTH_LIMIT_KIB:
            reasons.append(f"RSS growth {mib(growth)} > {RSS_GROWTH_LIMIT_KIB // 1024} MiB")
    elif attack == "slow-readers":
        reasons = with_client_lag(served(legit), legit)
    elif attack == "slow-bodies":
        reasons = with_client_lag(served(legit), legit)
        slow = result["slow"]
        if slow["answered_408"] < slow["count"]:
            reasons.append(f"slow bodies answered 408: {slow['answered_408']}/{slow['count']}")
    elif attack == "slow-uploads":
        reasons = fast(legit)
        if legit["failed"] and not any(reason.startswith("legit failures") for reason in reasons):
            reasons.insert(0, f"legit failures {legit['failed']}/{legit['requests']} "
                              f"({describe_counts(legit['failures'])})")
    elif attack == "aborts":
        reasons = [f"during the attack: {reason}" for reason in with_client_lag(served(legit), legit)] + clean(row)
    elif attack == "flood":
        reasons = clean(row)
    elif attack == "fd-exhaustion":
        reasons = [r for r in clean(row) if not r.startswith("after the attack")]
        recovery = result.get("recovery_seconds")
        if recovery is None or recovery > RECOVERY_LIMIT_SECONDS:
            reasons.append(f"not serving within {RECOVERY_LIMIT_SECONDS:.0f} s of the release")
    elif attack in H2_ATTACKS:
        reasons = h2_verdict(row)
    elif attack == "graceful":
        in_flight = result["in_flight"]
        total = sum(in_flight.values())
        reasons = []
        if in_flight.get("200", 0) < total:
            dropped = {outcome: count for outcome, count in in_flight.items() if outcome != "200"}
            reasons.append(f"dropped {total - in_flight.get('200', 0)}/{total} in flight ({describe_counts(dropped)})")
        if result["exit_seconds"] is None:
            reasons.append("still running 30 s after SIGTERM")
    else:
        raise ValueError(f"unknown attack '{attack}'")
    return not reasons, reasons


# ------------------------------------------------------------------ text
def ms(value):
    return "failed" if value is None else f"{value:g} ms"


def mib(kib):
    return "-" if kib is None else f"{kib / 1024:.1f} MiB"


def describe_counts(counts):
    return ", ".join(f"{name} x{count}" for name, count in sorted(counts.items(), key=lambda item: -item[1]))


def describe_fates(slow):
    text = describe_counts(slow["outcomes"])
    if slow["ended_seconds_p50"] is not None:
        text += f"; answered or closed after {slow['ended_seconds_p50']:g} s (p50), {slow['ended_seconds_max']:g} s (max)"
    return text


def describe_h2_attack(result, server):
    text = (f"{result['connections']} attacking connections: {describe_counts(result['fates'])}; "
            f"{result['ended_by_server']} ended by the server")
    if result["ended_seconds_p50"] is not None:
        text += f" after {result['ended_seconds_p50']:g} s (p50), {result['ended_seconds_max']:g} s (max)"
    text += f"; {result['frames_sent']} frames written ({result['frames_per_second']}/s)"
    if result["streams_opened"]:
        text += f", {result['streams_opened']} streams"
    if result["data_frames_received"]:
        text += f", {result['data_frames_received']} DATA frames received"
    streams = result.get("streams")
    if streams:
        text += f"; streams: {describe_counts(streams['outcomes'])}"
        if streams["ended_seconds_p50"] is not None:
            text += f", ended after {streams['ended_seconds_p50']:g} s (p50), {streams['ended_seconds_max']:g} s (max)"
    text += f"; server CPU {server.get('cpu_pct')}% during, {server.get('cpu_quiet_pct')}% quiet after"
    return text


def describe_outcome(row):
    attack, result, server = row["attack"], row["attack_result"], row["server"]
    if attack in H2_ATTACKS:
        return describe_h2_attack(result, server)
    if attack in ("slowloris", "slow-bodies", "slow-uploads"):
        return describe_fates(result["slow"])
    if attack == "idle":
        text = f"first request: {describe_counts(result['first_request'])}; peak {result['peak_open']} open"
        growth = rss_growth_kib(server)
        if growth is not None and result["peak_open"]:
            text += f", {growth / result['peak_open']:.1f} KiB each"
        if result.get("closed_while_idle"):
            text += f"; closed while idle: {describe_fates(result['closed_while_idle'])}"
        return text
    if attack == "slow-readers":
        text = f"{describe_fates(result['readers'])}; median read {result['received_kib_median']:g} KiB"
        if server.get("tcp_memory_peak_kib") and server.get("tcp_memory_base_kib") is not None:
            # Machine-wide: the slow readers' own receive buffers count too.
            grown = max(0, server["tcp_memory_peak_kib"] - server["tcp_memory_base_kib"])
            text += f"; kernel TCP buffers +{mib(grown)} (peak, machine-wide)"
        return text
    if attack == "aborts":
        return f"{describe_counts(result['aborted'])} in {result['seconds']:g} s"
    if attack == "flood":
        return (f"{describe_counts(result['first_request'])}; peak {result['peak_open']} open; all answered in "
                f"{result['seconds_to_answer_all']:g} s")
    if attack == "fd-exhaustion":
        lowered = result.get("fd_limit_lowered_from")
        limit = f"fd limit {result['fd_limit']}" + (f" (lowered from {lowered})" if lowered else "")
        recovery = result.get("recovery_seconds")
        return (f"{limit}; {result['connections']} connections: {describe_counts(result['first_request'])}; "
                f"server CPU {result['server_cpu_pct_while_exhausted']}% while exhausted; "
                + ("serving again after " + f"{recovery:g} s" if recovery is not None else "not serving again"))
    if attack == "graceful":
        exited = f"exited {result['exit_seconds']:g} s after SIGTERM" if result["exit_seconds"] is not None \
            else "did not exit"
        return f"in flight: {describe_counts(result['in_flight'])}; {exited}"
    return json.dumps(result)


def slow_column(row):
    if row["attack"] == "slow-uploads":
        slow = row["attack_result"]["slow"]
        return f"{slow['answered_408']}/{slow['count']} (not judged)"
    if row["attack"] in ("slowloris", "slow-bodies"):
        slow = row["attack_result"]["slow"]
        answered = slow["answered_408_in_time"] if row["attack"] == "slowloris" else slow["answered_408"]
        return f"{'yes' if answered == slow['count'] else 'no'} ({answered}/{slow['count']})"
    return "-"


def detail_line(row):
    passed, reasons = verdict(row)
    if row.get("status", "ok") != "ok":
        return f"| {row['attack']} | - | - | - | - | - | - | **FAIL**: {'; '.join(reasons)} |"
    legit, server = row["legit"]["attack"], row["server"]
    fds = f"{server['fds_base']} → {server['fds_peak']} → {server['fds_after'] if server['fds_after'] is not None else '-'}"
    if row["attack"] != "graceful":
        fds += " (back)" if fds_back(server) else " (**not back**)"
    fds += f"; threads {server['threads_base']} → {server['threads_peak']} → {server['threads_after'] or '-'}"
    latency, failures = legit_cells(legit)
    if "legit_h2" in row:
        latency_h2, failures_h2 = legit_cells(row["legit_h2"]["attack"])
        latency, failures = f"h1 {latency}; h2 {latency_h2}", f"h1 {failures}; h2 {failures_h2}"
    verdict_text = "pass" if passed else "**FAIL**: " + "; ".join(reasons)
    return (f"| {row['attack']} | {latency} | {failures} | {slow_column(row)} | {describe_outcome(row)} | "
            f"{mib(rss_growth_kib(server))} | {fds} | {verdict_text} |")


def legit_cells(legit):
    latency = f"{ms(legit['p50_ms'])} / {ms(legit['p99_ms'])}" if legit["requests"] else "-"
    failures = f"{legit['failed']}/{legit['requests']}" + (
        f" ({describe_counts(legit['failures'])})" if legit["failed"] else "")
    return latency, failures


def matrix_cell(row):
    if row is None:
        return "not run"
    passed, reasons = verdict(row)
    if row.get("status", "ok") != "ok":
        return "**FAIL** " + reasons[0]
    legit = row["legit"]["attack"]
    text = f"p99 {ms(legit['p99_ms'])}" if legit["requests"] else ""
    if row["attack"] in ("slowloris", "slow-bodies"):
        text += f", 408 {slow_column(row).split(' ', 1)[1].strip('()')}"
    if row["attack"] == "slow-uploads":
        slow = row["attack_result"]["slow"]
        text += f", {slow['answered_408']}/{slow['count']} uploads 408"
    if row["attack"] == "idle":
        text += f", RSS +{mib(rss_growth_kib(row['server']))}"
    if row["attack"] in ("flood", "fd-exhaustion"):
        # Judged on recovery, not on the legitimate requests during the attack.
        text = "files back" if fds_back(row["server"]) else "files **not back**"
        after = row["legit"]["after"]
        text += f", after: p99 {ms(after['p99_ms'])}" if after["requests"] else ""
        recovery = row["attack_result"].get("recovery_seconds")
        if row["attack"] == "fd-exhaustion":
            text += f", serving again after {recovery:g} s" if recovery is not None else ", not serving again"
    if row["attack"] == "graceful":
        in_flight = row["attack_result"]["in_flight"]
        text = f"{in_flight.get('200', 0)}/{sum(in_flight.values())} completed"
    if row["attack"] in H2_ATTACKS:
        h2 = row["legit_h2"]["attack"]
        result = row["attack_result"]
        text = (f"p99 h1 {ms(legit['p99_ms'])} / h2 {ms(h2['p99_ms'])}, RSS +{mib(rss_growth_kib(row['server']))}, "
                f"{result['ended_by_server']}/{result['connections']} attackers ended")
    return ("pass " if passed else "**FAIL** ") + text


def ordered(names, order):
    return sorted(names, key=lambda name: (order.index(name) if name in order else len(order), name))


def render(rows, machine=""):
    """The Markdown report: the matrix (attacks x targets, like the issue's table), then one table per target."""
    by_key = {(row["target"], row["attack"]): row for row in rows}
    targets = ordered({row["target"] for row in rows}, TARGET_ORDER)
    attacks = ordered({row["attack"] for row in rows}, ATTACK_ORDER)
    failed = sum(1 for row in rows if not verdict(row)[0])
    lines = []
    if machine:
        lines += [machine.rstrip(), ""]
    lines += [f"{len(rows) - failed} of {len(rows)} target x attack rows pass the acceptance of issue 11 "
              "(thresholds in gatling/scripts/abusereport.py).", "",
              "| attack | " + " | ".join(targets) + " |", "|---|" + "---|" * len(targets)]
    for attack in attacks:
        lines.append(f"| {attack} | " + " | ".join(matrix_cell(by_key.get((t, attack))) for t in targets) + " |")
    for target in targets:
        lines += ["", f"### {target}", "",
                  "| attack | legit p50 / p99 | legit failures | slow clients answered 408 | attack outcome | "
                  "RSS growth | open files; threads: base → peak → after | verdict |",
                  "|---|---|---|---|---|---|---|---|"]
        lines += [detail_line(by_key[(target, attack)]) for attack in attacks if (target, attack) in by_key]
    return "\n".join(lines) + "\n"


def replace_summary(document, summary):
    """`document` with the text between the summary markers replaced by `summary`."""
    pattern = re.compile(re.escape(SUMMARY_BEGIN) + ".*?" + re.escape(SUMMARY_END), re.S)
    if not pattern.search(document):
        raise ValueError(f"the document has no {SUMMARY_BEGIN} ... {SUMMARY_END} section")
    return pattern.sub(lambda _: f"{SUMMARY_BEGIN}\n{summary.rstrip()}\n{SUMMARY_END}", document)


def attack_row(out_path, assignments):
    """The row of one attack: abuse.py's last result line, or a crashed row saying why there is none."""
    words = runrows.words(assignments)
    exit_status = words.get("exit_status")
    out = Path(out_path)
    lines = [line for line in (out.read_text().splitlines() if out.exists() else []) if line.strip()]
    failure = tool_failure("the attack client", exit_status, words.get("limit"))
    if failure is None and lines:
        return dict(json.loads(lines[-1]), exit_status=exit_status)
    return {"target": words.get("target"), "attack": words.get("attack"), "status": "crashed",
            "exit_status": exit_status,
            "note": f"{failure or 'the attack client wrote no result'} (see {words.get('client_log', out.name)})"}


def summary_lines(row):
    """What abuse.sh prints under an attack's progress line."""
    passed, reasons = verdict(row)
    lines = []
    if row.get("status", "ok") == "ok":
        legit = row["legit"]["attack"]
        lines.append("   -> legit p50/p99 %s / %s, failed %d/%d; %s" % (
            ms(legit["p50_ms"]), ms(legit["p99_ms"]), legit["failed"], legit["requests"], describe_outcome(row)))
        if "legit_h2" in row:
            legit = row["legit_h2"]["attack"]
            lines.append("   -> legit h2 p50/p99 %s / %s, failed %d/%d" % (
                ms(legit["p50_ms"]), ms(legit["p99_ms"]), legit["failed"], legit["requests"]))
    lines.append("   -> " + ("pass" if passed else "FAIL: " + "; ".join(reasons)))
    return lines


def row_command(rows_path, out_path, assignments):
    row = attack_row(out_path, assignments)
    runrows.append(rows_path, row)
    print("\n".join(summary_lines(row)))


def report(run_dir, summary_doc=None):
    """Writes results.md (and the summary in summary_doc); returns the exit status: failed when an attack could not
    be measured."""
    run_dir = Path(run_dir)
    rows = runrows.read(run_dir / "rows.jsonl")
    machine_file = run_dir / "machine.md"
    machine = machine_file.read_text() if machine_file.exists() else ""
    text = render(rows, machine)
    (run_dir / "results.md").write_text(text)
    print(text)
    if summary_doc:
        doc = Path(summary_doc)
        where = run_dir.resolve().relative_to(doc.parent.resolve()).as_posix()
        link = f"From the run [{run_dir.name}]({where}/results.md) (machine, settings and the full tables there).\n\n"
        doc.write_text(replace_summary(doc.read_text(), link + render(rows)))
    return EXIT_FAILED if any(row.get("status", "ok") in ("crashed", "failed") for row in rows) else EXIT_OK


def main(argv):
    if len(argv) >= 3 and argv[0] == "row":
        row_command(argv[1], argv[2], argv[3:])
        return 0
    if len(argv) in (2, 3) and argv[0] == "report":
        return report(argv[1], argv[2] if len(argv) == 3 else None)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
