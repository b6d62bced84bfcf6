#!/usr/bin/env python3
"""Rows and report of gatling/alloc.sh: bytes allocated per request from a JFR recording's heap summaries.

    allocreport.py row ROWS HEAP_JSON WRK_LOG key=value...          appends one row to ROWS and prints it; wrk's
                                                                    exit_status (and limit) among the words
    allocreport.py report ROWS_JSONL RAW_DIR LOAD_BEFORE LOAD_AFTER prints results.md; exits 1 if a row failed
"""
import json
import os
import platform
import re
import sys
from datetime import datetime

import runrows
from verdict import EXIT_FAILED, EXIT_OK, tool_failure

TOP_LINES = 16


def timestamp(value):
    """JFR's ISO-8601 start time, as seconds."""
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


def allocation_rate(heap_events):
    """Bytes allocated per second between the first collection's end and the last one's start.

    The heap grows only by allocation between two collections, so each 'Before GC' heap used less the previous
    'After GC' heap used is what was allocated in between. Returns (bytes per second, collections counted)."""
    summaries = {}
    for event in heap_events:
        values = event["values"]
        summaries.setdefault(values["gcId"], {})[values["when"]] = (timestamp(values["startTime"]),
                                                                    values["heapUsed"])
    ids = sorted(summaries)
    allocated, start, end, counted = 0, None, None, 0
    for previous, current in zip(ids, ids[1:]):
        after = summaries[previous].get("After GC")
        before = summaries[current].get("Before GC")
        if after is None or before is None:
            continue
        allocated += before[1] - after[1]
        start = after[0] if start is None else start
        end = before[0]
        counted += 1
    if counted == 0 or end <= start:
        return None, counted
    return allocated / (end - start), counted


def wrk_figures(text):
    """Requests per second and the errors wrk reported (non-2xx/3xx answers and socket errors)."""
    rate = re.search(r"^Requests/sec:\s*([0-9.]+)", text, re.M)
    errors = 0
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s*(\d+)", text)
    if non_2xx:
        errors += int(non_2xx.group(1))
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    if sockets:
        errors += sum(int(n) for n in sockets.groups())
    return (float(rate.group(1)) if rate else None), errors


def make_row(heap_json, wrk_log, pairs):
    row = runrows.words(pairs)
    with open(heap_json) as f:
        events = json.load(f)["recording"]["events"]
    with open(wrk_log) as f:
        rate, errors = wrk_figures(f.read())
    per_second, collections = allocation_rate(events)
    row.update(requests_per_second=rate, errors=errors, collections=collections,
               allocated_mb_per_second=None if per_second is None else round(per_second / 2**20, 1),
               bytes_per_request=None if per_second is None or not rate else round(per_second / rate))
    failed = []
    failure = tool_failure("wrk", row.get("exit_status"), row.get("limit"), bool(row.get("stopped_early")))
    if failure:
        failed.append(failure)
    if errors:
        failed.append("%d errors" % errors)
    if row["bytes_per_request"] is None:
        failed.append("fewer than two collections recorded" if collections == 0 else "no request rate")
    row["status"] = "failed: " + ", ".join(failed) if failed else "ok"
    return row


def report(rows_path, raw_dir, load_before, load_after):
    rows = runrows.read(rows_path)
    out = ["# Allocation per request (JFR)", ""]
    out.append("Machine: %s, %d CPUs, %s; load average %s before, %s after." % (
        platform.machine(), os.cpu_count(), platform.platform(), load_before, load_after))
    out.append("")
    out.append("| target | path | req/s | MB/s allocated | bytes / request | GCs | status |")
    out.append("|---|---|---|---|---|---|---|")
    for row in rows:
        out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            row["target"], row.get("path", "-"), fmt(row["requests_per_second"], "%.0f"),
            fmt(row["allocated_mb_per_second"], "%.1f"), fmt(row["bytes_per_request"], "{:,}"),
            row["collections"], row["status"]))
    for row in rows:
        for view in ("allocation-by-class", "allocation-by-site"):
            path = os.path.join(raw_dir, "%s-%s.txt" % (row["target"], view))
            if os.path.exists(path):
                with open(path) as f:
                    lines = f.read().strip().splitlines()[:TOP_LINES]
                out += ["", "## %s: %s" % (row["target"], view), "", "```"] + lines + ["```"]
    print("\n".join(out))
    return EXIT_FAILED if any(row["status"] != "ok" for row in rows) else EXIT_OK


def fmt(value, pattern):
    if value is None:
        return "-"
    return pattern.format(value) if "{" in pattern else pattern % value


def main(argv):
    if len(argv) >= 5 and argv[1] == "row":
        row = make_row(argv[3], argv[4], argv[5:])
        runrows.append(argv[2], row)
        print(json.dumps(row))
        return 0
    if len(argv) == 6 and argv[1] == "report":
        return report(*argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
