"""Tests of the abuse harness's summaries, verdicts and report: python3 -B -m unittest discover -s gatling/scripts"""

import copy
import json
import math
import tempfile
import unittest.mock
from pathlib import Path

import abusereport


def legit(requests=1000, failed=0, p50=2.0, p99=20.0, failures=None, lag=1.0):
    return {"requests": requests, "failed": failed, "failures": failures or ({"timeout": failed} if failed else {}),
            "p50_ms": p50, "p99_ms": p99, "max_ms": p99, "client_lag_p99_ms": lag}


def server(rss_base=300_000, rss_peak=310_000, fds_base=60, fds_peak=1100, fds_after=61, alive=True):
    return {"alive": alive, "rss_base_kib": rss_base, "rss_peak_kib": rss_peak, "fds_base": fds_base,
            "fds_peak": fds_peak, "fds_after": fds_after, "fds_settle_seconds": 0.5, "threads_base": 40,
            "threads_peak": 60, "threads_after": 41, "cpu_pct": 30}


def slow(count, answered_in_time, answered=None, outcomes=None):
    answered = answered_in_time if answered is None else answered
    outcomes = outcomes or {name: n for name, n in (("408", answered), ("open", count - answered)) if n}
    return {"count": count, "outcomes": outcomes,
            "answered_408": answered, "answered_408_in_time": answered_in_time,
            "ended_seconds_p50": 10.2, "ended_seconds_max": 10.9}


def row(attack, result, during=None, after=None, srv=None, target="sprout-nio-platform"):
    return {"target": target, "attack": attack, "scale": 1, "seconds": 60, "rate": 200, "attack_result": result,
            "legit": {"baseline": legit(), "attack": during or legit(), "after": after or legit(requests=600)},
            "server": srv or server()}


def h2_row(during=None, h2_during=None, h2_after=None, srv=None, cpu_quiet=3):
    result = {"connections": 181, "fates": {"goaway:ENHANCE_YOUR_CALM": 180, "open": 1}, "ended_by_server": 180,
              "ended_seconds_p50": 0.1, "ended_seconds_max": 0.9, "frames_sent": 5_000_000,
              "frames_per_second": 330_000, "streams_opened": 2_500_000, "data_frames_received": 0, "seconds": 15.1}
    attacked = row("h2-rapid-reset", result, during=during, srv=srv or server())
    attacked["server"].update(cpu_pct=95, cpu_quiet_pct=cpu_quiet)
    attacked["legit_h2"] = {"baseline": legit(), "attack": h2_during or legit(),
                            "after": h2_after or legit(requests=600)}
    return attacked


class PercentileTest(unittest.TestCase):

    def test_takes_the_nearest_rank(self):
        values = list(range(1, 101))
        self.assertEqual(abusereport.percentile(values, 50), 50)
        self.assertEqual(abusereport.percentile(values, 99), 99)
        self.assertEqual(abusereport.percentile(values, 100), 100)
        self.assertEqual(abusereport.percentile([7.0], 99), 7.0)

    def test_has_no_value_when_it_lands_on_a_failure_or_nothing_was_measured(self):
        self.assertIsNone(abusereport.percentile([1.0] * 98 + [math.inf] * 2, 99))
        self.assertEqual(abusereport.percentile([1.0] * 99 + [math.inf], 99), 1.0)
        self.assertIsNone(abusereport.percentile([], 50))


class SummaryTest(unittest.TestCase):

    def test_ranks_failed_legitimate_requests_slowest(self):
        samples = [(0.0, 3.0, "200", 0.5)] * 97 + [(0.0, 1.0, "refused", 0.5), (0.0, 5000.0, "timeout", 0.5),
                                                    (0.0, 2.0, "503", 80.0)]
        summary = abusereport.summarise_legit(samples)
        self.assertEqual(summary["client_lag_p99_ms"], 0.5)
        self.assertEqual(summary["requests"], 100)
        self.assertEqual(summary["failed"], 3)
        self.assertEqual(summary["failures"], {"refused": 1, "timeout": 1, "503": 1})
        self.assertEqual(summary["p50_ms"], 3.0)
        self.assertIsNone(summary["p99_ms"])

    def test_counts_slow_clients_answered_408_in_time(self):
        fates = [("408", 10.0), ("408", 16.0), ("closed", 30.0), ("open", 60.0), ("connect-refused", 0.0)]
        summary = abusereport.summarise_fates(fates)
        self.assertEqual(summary["count"], 5)
        self.assertEqual(summary["answered_408"], 2)
        self.assertEqual(summary["answered_408_in_time"], 1)
        self.assertEqual(summary["outcomes"]["open"], 1)
        # Only connections the server ended count for when it ended them.
        self.assertEqual(summary["ended_seconds_p50"], 16.0)
        self.assertEqual(summary["ended_seconds_max"], 30.0)


class VerdictTest(unittest.TestCase):

    def test_slowloris_passes_with_a_fast_p99_and_every_slow_client_answered_in_time(self):
        self.assertEqual(abusereport.verdict(row("slowloris", {"slow": slow(1000, 1000)})), (True, []))

    def test_slowloris_fails_on_a_slow_p99_or_a_slow_client_left_open(self):
        passed, reasons = abusereport.verdict(row("slowloris", {"slow": slow(1000, 990)}, during=legit(p99=150.0)))
        self.assertFalse(passed)
        self.assertEqual(reasons, ["legit p99 150 ms > 100 ms", "408 within 15 s: 990/1000"])

    def test_says_when_a_slow_p99_was_measured_by_a_lagging_client(self):
        passed, reasons = abusereport.verdict(row("slowloris", {"slow": slow(10, 10)}, during=legit(p99=150.0, lag=80.0)))
        self.assertEqual(reasons, ["legit p99 150 ms > 100 ms (client lag p99 80 ms: not the server's alone)"])

    def test_every_legitimate_request_timing_out_fails_as_not_served(self):
        starved = legit(requests=1000, failed=1000, p50=None, p99=None)
        passed, reasons = abusereport.verdict(row("slow-readers", {}, during=starved))
        self.assertFalse(passed)
        self.assertEqual(reasons, ["legit failures 1000/1000 (timeout x1000)", "legit p99 failed > 1000 ms"])

    def test_idle_fails_on_rss_growth_over_64_mib(self):
        result = {"first_request": {"200": 10000}, "peak_open": 10000, "closed_while_idle": None}
        grown = server(rss_base=300_000, rss_peak=300_000 + 65 * 1024)
        passed, reasons = abusereport.verdict(row("idle", result, srv=grown))
        self.assertFalse(passed)
        self.assertEqual(reasons, ["RSS growth 65.0 MiB > 64 MiB"])
        self.assertTrue(abusereport.verdict(row("idle", result))[0])

    def test_slow_bodies_need_a_408_each(self):
        self.assertTrue(abusereport.verdict(row("slow-bodies", {"slow": slow(200, 150, answered=200)}))[0])
        passed, reasons = abusereport.verdict(row("slow-bodies", {"slow": slow(200, 0, answered=0)}))
        self.assertEqual(reasons, ["slow bodies answered 408: 0/200"])

    def test_slow_uploads_need_every_legitimate_request_served_fast(self):
        uploads = {"slow": slow(3000, 0, answered=2800)}
        self.assertEqual(abusereport.verdict(row("slow-uploads", uploads)), (True, []))
        passed, reasons = abusereport.verdict(row("slow-uploads", uploads, during=legit(failed=1)))
        self.assertFalse(passed)
        self.assertEqual(reasons, ["legit failures 1/1000 (timeout x1)"])
        passed, reasons = abusereport.verdict(row("slow-uploads", uploads, during=legit(p99=3000.0)))
        self.assertEqual(reasons, ["legit p99 3000 ms > 100 ms"])

    def test_h2_rows_need_both_legitimate_clients_served_fast_and_the_server_bounded(self):
        self.assertEqual(abusereport.verdict(h2_row()), (True, []))
        self.assertEqual(abusereport.verdict(h2_row(h2_during=legit(failed=1)))[1],
                         ["h2 legit failures 1/1000 (timeout x1)"])
        self.assertEqual(abusereport.verdict(h2_row(during=legit(p99=150.0)))[1], ["legit p99 150 ms > 100 ms"])
        grown = server(rss_base=300_000, rss_peak=300_000 + 65 * 1024)
        self.assertEqual(abusereport.verdict(h2_row(srv=grown))[1], ["RSS growth 65.0 MiB > 64 MiB"])
        self.assertEqual(abusereport.verdict(h2_row(cpu_quiet=80))[1],
                         ["server CPU 80% > 25% with nothing running after the attack"])
        self.assertEqual(abusereport.verdict(h2_row(h2_after=legit(requests=600, failed=600, p99=None)))[1],
                         ["after the attack: h2 legit failures 600/600 (timeout x600)",
                          "after the attack: h2 legit p99 failed > 1000 ms"])

    def test_h2_rows_show_both_legitimate_clients_and_what_the_server_did_to_the_attackers(self):
        attacked = h2_row()
        self.assertEqual(abusereport.matrix_cell(attacked),
                         "pass p99 h1 20 ms / h2 20 ms, RSS +9.8 MiB, 180/181 attackers ended")
        line = abusereport.detail_line(attacked)
        self.assertIn("| h2-rapid-reset | h1 2 ms / 20 ms; h2 2 ms / 20 ms | h1 0/1000; h2 0/1000 | - | "
                      "181 attacking connections: goaway:ENHANCE_YOUR_CALM x180, open x1; 180 ended by the server "
                      "after 0.1 s (p50), 0.9 s (max); 5000000 frames written (330000/s), 2500000 streams; "
                      "server CPU 95% during, 3% quiet after |", line)

    def test_clean_needs_the_server_alive_its_files_back_and_legit_served_afterwards(self):
        result = {"aborted": {"reset-mid-head": 10000}, "seconds": 12.0}
        self.assertTrue(abusereport.verdict(row("aborts", result))[0])
        leaked = abusereport.verdict(row("aborts", result, srv=server(fds_after=900)))
        self.assertEqual(leaked, (False, ["open files 900 after, baseline 60"]))
        starved = abusereport.verdict(row("aborts", result, during=legit(failed=20)))
        self.assertEqual(starved, (False, ["during the attack: legit failures 20/1000 (timeout x20)"]))
        dead = abusereport.verdict(row("flood", result, srv=server(alive=False), after=legit(requests=0)))
        self.assertEqual(dead, (False, ["the server died", "after the attack: no legitimate request was measured"]))

    def test_fd_exhaustion_needs_recovery_within_15_s(self):
        result = {"fd_limit": 1100, "fd_limit_lowered_from": 20000, "connections": 1060,
                  "first_request": {"200": 1000, "timeout": 60}, "peak_open": 1060, "fds_at_exhaustion": 1100,
                  "server_cpu_pct_while_exhausted": 3, "recovery_seconds": 0.4}
        self.assertTrue(abusereport.verdict(row("fd-exhaustion", result))[0])
        stuck = dict(result, recovery_seconds=None)
        self.assertEqual(abusereport.verdict(row("fd-exhaustion", stuck)),
                         (False, ["not serving within 15 s of the release"]))

    def test_graceful_counts_every_in_flight_request_that_did_not_complete(self):
        result = {"in_flight": {"200": 197, "reset": 3}, "exit_seconds": 3.2}
        self.assertEqual(abusereport.verdict(row("graceful", result)), (False, ["dropped 3/200 in flight (reset x3)"]))
        self.assertTrue(abusereport.verdict(row("graceful", {"in_flight": {"200": 200}, "exit_seconds": 3.1}))[0])

    def test_a_target_that_did_not_run_fails_with_its_note(self):
        failed = {"target": "jetty-platform", "attack": "idle", "status": "failed", "note": "not ready within 180 s"}
        self.assertEqual(abusereport.verdict(failed), (False, ["not ready within 180 s"]))


class RenderTest(unittest.TestCase):

    ROWS = [
        row("slowloris", {"slow": slow(1000, 1000)}),
        row("slowloris", {"slow": slow(1000, 0, outcomes={"open": 1000})}, during=legit(p99=None, failed=1000),
            target="tomcat-platform"),
        row("graceful", {"in_flight": {"200": 200}, "exit_seconds": 3.1}, srv=server(fds_after=None)),
    ]

    def test_writes_the_matrix_and_one_table_per_target_with_verdicts(self):
        text = abusereport.render(copy.deepcopy(self.ROWS))
        self.assertIn("2 of 3 target x attack rows pass", text)
        self.assertIn("| attack | sprout-nio-platform | tomcat-platform |", text)
        self.assertIn("| slowloris | pass p99 20 ms, 408 1000/1000 | **FAIL** p99 failed, 408 0/1000 |", text)
        self.assertIn("| graceful | pass 200/200 completed | not run |", text)
        self.assertIn("### tomcat-platform", text)
        self.assertIn("| slowloris | 2 ms / 20 ms | 0/1000 | yes (1000/1000) | 408 x1000; answered or closed after "
                      "10.2 s (p50), 10.9 s (max) | 9.8 MiB | 60 → 1100 → 61 (back); threads 40 → 60 → 41 | pass |", text)
        self.assertIn("**FAIL**: legit failures 1000/1000 (timeout x1000); legit p99 failed > 1000 ms; "
                      "408 within 15 s: 0/1000", text)

    def test_shows_how_the_slow_uploads_ended_without_judging_it(self):
        uploads = row("slow-uploads", {"slow": slow(3000, 0, answered=2800, outcomes={"408": 2800, "open": 200})})
        self.assertEqual(abusereport.matrix_cell(uploads), "pass p99 20 ms, 2800/3000 uploads 408")
        self.assertIn("| slow-uploads | 2 ms / 20 ms | 0/1000 | 2800/3000 (not judged) | 408 x2800, open x200;",
                      abusereport.detail_line(uploads))

    def test_judges_fd_exhaustion_in_the_matrix_by_its_recovery(self):
        result = {"fd_limit": 1100, "fd_limit_lowered_from": 20000, "connections": 1060,
                  "first_request": {"200": 1000, "timeout": 60}, "peak_open": 1060, "fds_at_exhaustion": 1100,
                  "server_cpu_pct_while_exhausted": 3, "recovery_seconds": 0.4}
        exhausted = row("fd-exhaustion", result, during=legit(failed=900, p50=None, p99=None))
        self.assertEqual(abusereport.matrix_cell(exhausted),
                         "pass files back, after: p99 20 ms, serving again after 0.4 s")

    def test_shows_the_kernel_buffers_slow_readers_pinned_when_measured(self):
        readers = {"readers": {"count": 250, "outcomes": {"open": 250}, "ended_seconds_p50": None},
                   "received_kib_median": 59}
        measured = server()
        measured.update(tcp_memory_base_kib=1024, tcp_memory_peak_kib=1024 + 251 * 1024)
        self.assertEqual(abusereport.describe_outcome(row("slow-readers", readers, srv=measured)),
                         "open x250; median read 59 KiB; kernel TCP buffers +251.0 MiB (peak, machine-wide)")
        self.assertEqual(abusereport.describe_outcome(row("slow-readers", readers)),
                         "open x250; median read 59 KiB", "rows of runs before the measurement existed")

    def test_report_writes_results_and_replaces_the_summary_section(self):
        with tempfile.TemporaryDirectory() as temp:
            run_dir = Path(temp) / "abuse" / "2026-11-23-abuse-120000"
            run_dir.mkdir(parents=True)
            (run_dir / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in self.ROWS))
            (run_dir / "machine.md").write_text("## Abuse run\n")
            doc = Path(temp) / "abuse.md"
            doc.write_text("# Abuse\n\nintro\n\n<!-- abuse-results:begin -->\nold\n<!-- abuse-results:end -->\nrest\n")
            with unittest.mock.patch("sys.stdout"):
                abusereport.report(run_dir, doc)
            self.assertTrue((run_dir / "results.md").read_text().startswith("## Abuse run\n"))
            updated = doc.read_text()
            self.assertNotIn("\nold\n", updated)
            self.assertIn("From the run [2026-11-23-abuse-120000](abuse/2026-11-23-abuse-120000/results.md)", updated)
            self.assertTrue(updated.endswith("<!-- abuse-results:end -->\nrest\n"))
            self.assertIn("| slowloris | pass", updated)

    def test_refuses_a_document_without_the_summary_markers(self):
        with self.assertRaises(ValueError):
            abusereport.replace_summary("# Abuse\n", "table")


if __name__ == "__main__":
    unittest.main()
