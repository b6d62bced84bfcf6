"""What a result row and a whole run are worth: the runners' verdicts, in one place (Python 3 standard library only).

A row is "ok", "failed" (its tool exited non-zero, was timed out, or the server did not start: the numbers, if any,
are evidence, not a measurement), "crashed" (the tool left no result to read), "refused" (measured, but under
conditions that make the number untrustworthy: the machine was busy just before it, or its interleaved rounds
disagreed) or "skipped" (not run, e.g. a jar that could not be built). Only ok rows enter medians, ratios and charts.

The run's exit status: EXIT_FAILED when any row failed or crashed, else EXIT_REFUSED when any measurement was refused
(the runner worked; run it again on a quieter machine), else 0. Refused is not failed on purpose: a refusal says
something about the machine, a failure about the runner or the server.
"""

import statistics

EXIT_OK = 0
EXIT_FAILED = 1
# 2 is the runners' usage error.
EXIT_REFUSED = 3
# The report's headline for each exit status.
RUN_VERDICTS = {
    EXIT_OK: "ok, every measurement valid",
    EXIT_FAILED: "FAILED: a tool exited non-zero or timed out, a server did not start, or a run left no result "
                 "(the rows below say which)",
    EXIT_REFUSED: "REFUSED: nothing failed, but some measurements are not to be trusted (the machine was busy, or "
                  "rounds disagreed): run again on a quieter machine",
}

# The knobs' defaults, as the runners document them.
MAX_SPREAD_PERCENT = 10.0
MAX_LOAD = 0.5

# What timeout(1) and run_child's early stop make of a tool's exit status.
TIMED_OUT = 124
KILLED = 137
TERMINATED = 143
NOT_FOUND = 127


def tool_failure(tool, exit_status, limit=None, stopped_early=False):
    """Why a tool run failed, from its exit status (an int, or a string from the command line); None when it exited
    with 0 or its status is unknown (rows written before the runners recorded it)."""
    if exit_status in (None, ""):
        return None
    status = int(exit_status)
    if status == 0:
        return None
    within = f" of {limit} s" if limit not in (None, "") else ""
    if stopped_early:
        return f"{tool} was stopped early (exit status {status}): the server it loaded had exited"
    if status == TIMED_OUT:
        return f"{tool} timed out: still running at its time limit{within}, stopped (exit status {TIMED_OUT})"
    if status == KILLED:
        return f"{tool} was killed (SIGKILL, exit status {KILLED}): it ignored the stop at its time limit{within}"
    if status == TERMINATED:
        return f"{tool} was terminated (SIGTERM, exit status {TERMINATED})"
    if status == NOT_FOUND:
        return f"{tool} could not be run (exit status {NOT_FOUND}: command not found)"
    return f"{tool} exited with status {status}"


def load_refusal(load_before, max_load):
    """Why a measurement is refused for the machine's load just before it; None when it was quiet enough or either
    figure is unknown (a knob set to "none" switches the check off)."""
    if load_before in (None, "") or is_off(max_load):
        return None
    if float(load_before) > float(max_load):
        return f"the machine was busy before it: load {float(load_before):.2f} > MAX_LOAD {float(max_load):g}"
    return None


def judge_row(row, tool):
    """The row's status after its tool's exit status and the machine's load before it: a failed tool fails the row
    (whatever its log said), a busy machine refuses a row that would otherwise be ok. Returns the row."""
    failure = tool_failure(tool, row.get("exit_status"), row.get("limit"), bool(row.get("stopped_early")))
    if failure:
        row["status"] = "failed"
        row["note"] = "; ".join(part for part in (failure, row.get("note")) if part)
        return row
    refusal = load_refusal(row.get("load_before"), row.get("max_load"))
    if refusal and row.get("status") == "ok":
        row["status"] = "refused"
        row["note"] = "; ".join(part for part in (refusal, row.get("note")) if part)
    return row


def spread_percent(values):
    """(max - min) of the values as a percentage of their median; None for fewer than two values."""
    if len(values) < 2:
        return None
    median = statistics.median(values)
    if not median:
        return None
    return 100.0 * (max(values) - min(values)) / median


def rounds_refusal(values, max_spread_percent, unit="req/s"):
    """Why a median of interleaved rounds is refused because they disagree; None when they agree within the spread
    (or there is one round only, which nothing can contradict, or the check is off: "none")."""
    spread = spread_percent(values)
    if spread is None or is_off(max_spread_percent) or spread <= float(max_spread_percent):
        return None
    return (f"rounds disagree: {min(values):,.0f}-{max(values):,.0f} {unit}, spread {spread:.0f} % of the median "
            f"> MAX_SPREAD_PERCENT {float(max_spread_percent):g}")


def worst_status(statuses):
    """One status for a group of rounds: failed or crashed before refused before ok."""
    for status in ("failed", "crashed", "refused"):
        if status in statuses:
            return status
    return "ok"


def exit_code(rows):
    """The run's exit status from all its rows (and summaries)."""
    statuses = {str(row.get("status", "ok")) for row in rows}
    if any(status == "crashed" or status.startswith("failed") for status in statuses):
        return EXIT_FAILED
    if "refused" in statuses:
        return EXIT_REFUSED
    return EXIT_OK


def rules(max_spread_percent, max_load):
    """The verdict rules of a run, one Markdown paragraph for its report."""
    load = ("the load check is off (MAX_LOAD=none)" if is_off(max_load) else
            f"a measurement is **refused** when the machine's load just before it exceeded {float(max_load):g} busy CPUs")
    spread = ("the spread check is off (MAX_SPREAD_PERCENT=none)" if is_off(max_spread_percent) else
              f"a median of interleaved rounds is **refused** when their spread (max - min) exceeds "
              f"{float(max_spread_percent):g} % of the median")
    return (f"Verdicts: a row whose tool exited non-zero or timed out is **failed** and fails the run; {load}; "
            f"{spread}. Refused and failed rows are shown, marked, and left out of medians, ratios and charts.")


def is_off(knob):
    """A knob left empty or set to "none" switches its check off."""
    return knob in (None, "", "none")
