"""What the warmup preset's load client (LaunchLoad, gatling/src/test/java/io/sprout/gatling) measured from a server's
launch, read from its output (Python 3 standard library only; benchreport.py makes the row and the report).

  first-answer-ms=1834             ms from the JVM's launch to the first 200
  window second=3 ok=41234 errors=0    answers in the 1 s window [3 s, 4 s) after the launch
  burst users=2000 answered=2000 errors=0 p50-ms=180 p99-ms=240 max-ms=251
                                   ColdStart's burst at the first answer (LAUNCH_BURST users, one request each)
  launch-load done                 the client ran to its end

Peak: the median of the best PEAK_WINDOWS windows, so one lucky second (or one that a GC pause split unevenly) does
not set it. Time to 90 % of peak: the end of the first window that reached 90 % of that peak, in ms from the launch
(the window's end, because the rate was reached somewhere inside it).
"""

import re
import statistics

PEAK_WINDOWS = 3
PEAK_FRACTION = 0.9
WINDOW = re.compile(r"^window second=(\d+) ok=(\d+) errors=(\d+)\s*$", re.M)
BURST = re.compile(r"^burst users=(\d+) answered=(\d+) errors=(\d+) p50-ms=(\d+|none) p99-ms=(\d+|none) "
                   r"max-ms=(\d+|none)\s*$", re.M)


def parse(text):
    """{first_answer_ms, first_attempt_ms, not_ready, ok_windows, error_windows} of one LaunchLoad run; None when
    it did not finish (no 'launch-load done')."""
    if not re.search(r"^launch-load done\s*$", text, re.M):
        return None
    windows = sorted((int(second), int(ok), int(errors)) for second, ok, errors in WINDOW.findall(text))
    return {"first_answer_ms": value_of(text, "first-answer-ms"), "first_attempt_ms": value_of(text, "first-attempt-ms"),
            "not_ready": value_of(text, "not-ready-attempts"), "ok_windows": [ok for _, ok, _ in windows],
            "error_windows": [errors for _, _, errors in windows], **burst(text)}


def burst(text):
    """{burst_users, burst_answered, burst_errors, burst_p50_ms, burst_p99_ms, burst_max_ms}; {} without a burst."""
    match = BURST.search(text)
    if not match:
        return {}
    names = ["burst_users", "burst_answered", "burst_errors", "burst_p50_ms", "burst_p99_ms", "burst_max_ms"]
    return {name: None if value == "none" else int(value) for name, value in zip(names, match.groups())}


def value_of(text, key):
    """The integer after 'key=' on its own line; None when absent or 'none'."""
    match = re.search(rf"^{key}=(\d+)\s*$", text, re.M)
    return int(match.group(1)) if match else None


def peak(ok_windows):
    """The median of the best PEAK_WINDOWS windows (of all of them when fewer); None without any answer."""
    best = sorted(ok_windows, reverse=True)[:PEAK_WINDOWS]
    return statistics.median(best) if best and best[0] > 0 else None


def ms_to_fraction_of_peak(ok_windows, fraction=PEAK_FRACTION):
    """ms from the launch to the end of the first window whose answers reached fraction x peak; None without one."""
    top = peak(ok_windows)
    if top is None:
        return None
    return next((1000 * (second + 1) for second, ok in enumerate(ok_windows) if ok >= fraction * top), None)


def summary(text):
    """The row's numbers from one run's output: requests, ok, ko (errors after the first answer and users of the
    burst not answered 200), rps (the peak),
    first_answer_ms, t90_ms and the windows themselves (for the chart); with status failed and a note when the
    server never answered or lost a request. None when the client did not finish."""
    parsed = parse(text)
    if parsed is None:
        return None
    ok, errors = sum(parsed["ok_windows"]), sum(parsed["error_windows"])
    burst_ok, burst_errors = parsed.get("burst_answered") or 0, parsed.get("burst_errors") or 0
    row = {"requests": ok + errors + burst_ok + burst_errors, "ok": ok + burst_ok, "ko": errors + burst_errors,
           "rps": peak(parsed["ok_windows"]),
           "t90_ms": ms_to_fraction_of_peak(parsed["ok_windows"]), **parsed,
           "errors": "; ".join(part for part in (
               f"{errors} errors or non-200 answers after the first answer" if errors else "",
               f"{parsed['burst_errors']} of the burst's {parsed['burst_users']} users not answered 200"
               if parsed.get("burst_errors") else "") if part)}
    if parsed["first_answer_ms"] is None:
        row["status"] = "failed"
        row["note"] = f"no 200 in {len(parsed['ok_windows'])} s from the launch"
        return row
    notes = []
    if row["ko"]:
        # Every request counts, as in the Gatling simulations' assertions: LaunchLoad exits 0 whatever it saw, so a
        # row that lost requests would otherwise pass as ok with its losses in a column nobody judges.
        row["status"] = "failed"
        notes.append(f"requests lost: {row['errors']}")
    if parsed["first_attempt_ms"] is not None and parsed["not_ready"] == 0:
        # The port answered the client's very first attempt: the server may have been ready before it.
        notes.append(f"answered the load's first attempt ({parsed['first_attempt_ms']} ms after the launch): the "
                     f"first answer is an upper bound")
    if notes:
        row["note"] = "; ".join(notes)
    return row
