"""Tests of the runners' verdicts (verdict.py, and how benchreport applies them): python3 -m unittest discover -s
gatling/scripts"""

import contextlib
import io
import tempfile
import unittest
from pathlib import Path

import benchreport
import machineload
import runrows
import verdict
from test_benchreport import GATLING_WITH_ERRORS, WRK


def wrk_row(log_dir, *words):
    """A wrk row made from a clean wrk log and the runner's words."""
    log = Path(log_dir) / "wrk.log"
    log.write_text(WRK)
    return benchreport.make_row("wrk", log, ["target=tomcat-platform", "simulation=wrk-hello", "round=1", *words])


def rounds(target, rates, threads="platform"):
    return [{"target": target, "threads": threads, "tool": "wrk", "status": "ok", "simulation": "wrk-hello",
             "round": number, "rps": rps, "requests": rps * 10, "ok": rps * 10, "ko": 0}
            for number, rps in enumerate(rates, 1)]


class ToolExitStatusTest(unittest.TestCase):

    def test_a_row_whose_tool_exited_non_zero_is_failed_even_with_numbers_in_its_log(self):
        with tempfile.TemporaryDirectory() as directory:
            row = wrk_row(directory, "exit_status=1")
        self.assertEqual(row["status"], "failed")
        self.assertEqual(row["note"], "wrk exited with status 1")
        self.assertEqual(row["requests"], 37497)

    def test_a_timed_out_tool_says_so_with_its_limit(self):
        with tempfile.TemporaryDirectory() as directory:
            row = wrk_row(directory, "exit_status=124", "limit=40")
        self.assertEqual(row["status"], "failed")
        self.assertIn("wrk timed out: still running at its time limit of 40 s", row["note"])

    def test_a_tool_stopped_because_its_server_died_says_so(self):
        note = verdict.tool_failure("Gatling", "143", "90", stopped_early=True)
        self.assertEqual(note, "Gatling was stopped early (exit status 143): the server it loaded had exited")

    def test_a_gatling_run_whose_assertions_failed_is_failed_and_keeps_its_numbers(self):
        with tempfile.TemporaryDirectory() as directory:
            log = Path(directory) / "Db.log"
            log.write_text(GATLING_WITH_ERRORS)
            row = benchreport.make_row("gatling", log, ["target=netty", "simulation=Db", "exit_status=2"])
        self.assertEqual((row["status"], row["note"], row["ko"]), ("failed", "Gatling exited with status 2", 305))

    def test_exit_status_zero_or_unknown_leaves_the_row_to_its_log(self):
        with tempfile.TemporaryDirectory() as directory:
            self.assertEqual(wrk_row(directory, "exit_status=0")["status"], "ok")
            # Rows of runs before the exit status was recorded.
            self.assertEqual(wrk_row(directory)["status"], "ok")

    def test_a_server_that_exited_before_it_was_ready_names_its_exit_status(self):
        with tempfile.TemporaryDirectory() as directory:
            log = Path(directory) / "server.log"
            log.write_text("java.net.BindException: Address already in use\n")
            row = benchreport.make_row("startfailure", log, ["target=netty", "simulation=-", "exit_status=1"])
        self.assertEqual(row["status"], "failed")
        self.assertEqual(row["note"], "the server exited with status 1; did not start: java.net.BindException: "
                                      "Address already in use (see server.log)")

    def test_the_row_command_appends_the_judged_row_and_prints_its_summary(self):
        with tempfile.TemporaryDirectory() as directory:
            log = Path(directory) / "wrk.log"
            log.write_text(WRK)
            rows = Path(directory) / "rows.jsonl"
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                benchreport.main(["benchreport.py", "row", str(rows), "wrk", str(log), "target=netty",
                                  "simulation=wrk-hello", "exit_status=1"])
            self.assertEqual([row["status"] for row in runrows.read(rows)], ["failed"])
        self.assertEqual(out.getvalue(), "   -> failed: wrk exited with status 1\n")


class RunVerdictTest(unittest.TestCase):

    def test_the_run_fails_when_any_row_failed_or_crashed(self):
        ok = {"status": "ok"}
        self.assertEqual(verdict.exit_code([ok, ok]), verdict.EXIT_OK)
        self.assertEqual(verdict.exit_code([ok, {"status": "failed"}]), verdict.EXIT_FAILED)
        self.assertEqual(verdict.exit_code([ok, {"status": "crashed"}]), verdict.EXIT_FAILED)
        # alloc.sh's rows say why in the status itself.
        self.assertEqual(verdict.exit_code([{"status": "failed: wrk exited with 1"}]), verdict.EXIT_FAILED)

    def test_refused_is_its_own_exit_status_and_failed_outranks_it(self):
        self.assertEqual(verdict.exit_code([{"status": "ok"}, {"status": "refused"}]), verdict.EXIT_REFUSED)
        self.assertEqual(verdict.exit_code([{"status": "refused"}, {"status": "failed"}]), verdict.EXIT_FAILED)
        self.assertNotEqual(verdict.EXIT_REFUSED, verdict.EXIT_FAILED)

    def test_a_skipped_target_does_not_fail_the_run(self):
        self.assertEqual(verdict.exit_code([{"status": "ok"}, {"status": "skipped"}]), verdict.EXIT_OK)

    def test_the_report_writes_everything_then_returns_the_runs_verdict(self):
        with tempfile.TemporaryDirectory() as directory:
            run_dir = Path(directory)
            for row in rounds("tomcat-platform", (100, 101, 102)):
                runrows.append(run_dir / "rows.jsonl", row)
            runrows.append(run_dir / "rows.jsonl", dict(rounds("netty", (100,))[0], status="failed",
                                                        note="wrk exited with status 1"))
            with contextlib.redirect_stdout(io.StringIO()):
                code = benchreport.report_command(run_dir, {})
            results = (run_dir / "results.md").read_text()
            self.assertTrue((run_dir / "wrk-throughput.svg").exists())
        self.assertEqual(code, verdict.EXIT_FAILED)
        self.assertIn("### Verdict: FAILED", results)
        self.assertIn("- netty wrk-hello round 1: failed: wrk exited with status 1", results)

    def test_the_smoke_fails_a_row_with_any_failed_request(self):
        with tempfile.TemporaryDirectory() as directory:
            run_dir = Path(directory)
            runrows.append(run_dir / "rows.jsonl", {"target": "netty", "tool": "gatling", "simulation": "HelloWorld",
                                                    "status": "ok", "requests": 100, "ok": 99, "ko": 1})
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(benchreport.report_command(run_dir, {}), verdict.EXIT_OK)
                self.assertEqual(benchreport.report_command(run_dir, {"fail_on_ko": "1"}), verdict.EXIT_FAILED)


class SpreadRefusalTest(unittest.TestCase):

    def test_rounds_that_disagree_by_more_than_the_spread_are_refused_and_get_no_ratio(self):
        rows = rounds("tomcat-platform", (100, 101, 99)) + rounds("netty", (150, 120, 130))
        summary = {row["target"]: row for row in benchreport.summarise_load(rows, max_spread_percent=10)}
        netty = summary["netty"]
        self.assertEqual(netty["status"], "refused")
        self.assertEqual(netty["note"], "rounds disagree: 120-150 req/s, spread 23 % of the median > "
                                        "MAX_SPREAD_PERCENT 10")
        self.assertEqual(netty["rps"], 130)
        self.assertIsNone(netty["ratio_vs_tomcat_platform"])
        self.assertEqual(summary["tomcat-platform"]["status"], "ok")

    def test_nothing_is_compared_with_a_refused_baseline(self):
        rows = rounds("tomcat-platform", (100, 130, 110)) + rounds("netty", (150, 151, 150))
        summary = {row["target"]: row for row in benchreport.summarise_load(rows, max_spread_percent=10)}
        self.assertEqual(summary["netty"]["status"], "ok")
        self.assertIsNone(summary["netty"]["ratio_vs_tomcat_platform"])

    def test_rounds_within_the_spread_are_averaged(self):
        self.assertIsNone(verdict.rounds_refusal([100, 105, 109], 10))
        self.assertIsNotNone(verdict.rounds_refusal([100, 105, 111], 10))
        self.assertIsNone(verdict.rounds_refusal([100, 200], "none"))
        self.assertIsNone(verdict.rounds_refusal([100], 10))

    def test_a_refused_round_is_left_out_and_a_lone_survivor_is_not_trusted(self):
        rows = rounds("netty", (100, 101, 400))
        rows[2].update(status="refused", note="the machine was busy before it")
        (netty,) = benchreport.summarise_load(rows)
        self.assertEqual((netty["status"], netty["rps"], netty["round"]), ("ok", 100.5, "median of 2 (1 left out)"))
        rows[1].update(status="failed", note="wrk exited with status 1")
        (netty,) = benchreport.summarise_load(rows)
        self.assertEqual(netty["status"], "refused")
        self.assertEqual(netty["note"], "only 1 of 3 rounds valid: nothing to check it against")

    def test_the_table_and_the_chart_show_a_refused_median_as_refused(self):
        rows = rounds("tomcat-platform", (100, 101, 99)) + rounds("netty", (150, 120, 130))
        summary = benchreport.summarise_load(rows)
        table = benchreport.markdown(rows, summary)
        self.assertIn("| wrk-hello | netty | 130 | – | – |", table)
        self.assertIn("| **refused**: rounds disagree: 120-150 req/s", table)
        with tempfile.TemporaryDirectory() as directory:
            benchreport.charts(Path(directory), rows, summary)
            svg = (Path(directory) / "wrk-throughput.svg").read_text()
        self.assertIn('fill="none" stroke="%s" stroke-dasharray="3 2"><title>wrk-hello / netty: 130.0 (refused)'
                      % benchreport.colour_of("netty", 0), svg)
        self.assertIn(">netty</text>", svg)

    def test_an_ab_comparison_with_a_side_whose_rounds_disagree_has_no_ratio(self):
        from test_benchreport import ab_rows
        (hello,) = benchreport.summarise_ab(ab_rows((100, 101, 99), (100, 140, 120)), max_spread_percent=10)
        self.assertEqual(hello["status"], "refused")
        self.assertIsNone(hello["ratio"])
        self.assertTrue(hello["note"].startswith("new: rounds disagree"))


class LoadRefusalTest(unittest.TestCase):

    def test_a_row_measured_on_a_busy_machine_is_refused(self):
        with tempfile.TemporaryDirectory() as directory:
            row = wrk_row(directory, "exit_status=0", "load_before=1.37", "max_load=0.5")
        self.assertEqual(row["status"], "refused")
        self.assertEqual(row["note"], "the machine was busy before it: load 1.37 > MAX_LOAD 0.5")

    def test_a_quiet_machine_or_a_switched_off_check_refuses_nothing(self):
        with tempfile.TemporaryDirectory() as directory:
            self.assertEqual(wrk_row(directory, "load_before=0.3", "max_load=0.5")["status"], "ok")
            # The CI smoke: MAX_LOAD=none, so a busy CI machine still passes.
            self.assertEqual(wrk_row(directory, "load_before=3.9", "max_load=none")["status"], "ok")

    def test_a_failed_tool_stays_failed_on_a_busy_machine(self):
        with tempfile.TemporaryDirectory() as directory:
            row = wrk_row(directory, "exit_status=124", "load_before=1.9", "max_load=0.5")
        self.assertEqual(row["status"], "failed")

    def test_the_load_is_the_cpus_busy_between_two_readings_of_proc_stat(self):
        before = "cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 50 0 50 400 0 0 0 0 0 0\n"
        after = "cpu  250 0 150 900 0 0 0 0 0 0\ncpu0 50 0 50 400 0 0 0 0 0 0\n"
        # 200 of 300 jiffies busy on a 2-CPU machine: 1.33 CPUs' worth of work.
        self.assertAlmostEqual(machineload.busy_cpus(before, after, 2), 4 / 3)
        self.assertEqual(machineload.busy_cpus(before, before, 2), 0.0)

    def test_the_runners_own_processes_are_not_load(self):
        # A runner (10) with a server (11) and a tool started in the window (12); 20 is someone else's.
        before = {1: (0, 0), 10: (1, 5), 11: (10, 100), 20: (1, 50)}
        after = {1: (0, 0), 10: (1, 6), 11: (10, 160), 12: (10, 30), 20: (1, 90)}
        self.assertEqual(machineload.own_jiffies(before, after, 10), 1 + 60 + 30)
        stat_before = "cpu  1000 0 0 1000 0 0 0 0\n"
        stat_after = "cpu  1131 0 0 1200 0 0 0 0\n"
        # 131 busy jiffies of 331, 91 of them the runner's: 40 of other work over 331 / 2 per CPU.
        self.assertAlmostEqual(machineload.busy_cpus(stat_before, stat_after, 2, own=91), 2 * 40 / 331)

    def test_a_process_stat_line_is_read_after_its_command_name(self):
        line = "4242 (C2 Compiler (x)) S 4200 1 1 0 -1 0 0 0 0 0 17 5 0 0 20 0 1 0 0 0 0\n"
        self.assertEqual(machineload.process_entry(line), (4200, 22))

    def test_reads_each_pinned_cpus_busy_and_total_jiffies_and_their_busy_percentages(self):
        before = "cpu  9 0 9 90 0 0 0 0 0 0\ncpu0 3 0 2 95 0 0 0 0 0 0\ncpu1 10 0 0 90 0 0 0 0 0 0\n"
        after = "cpu  9 0 9 90 0 0 0 0 0 0\ncpu0 63 0 12 125 0 0 0 0 0 0\ncpu1 110 0 0 90 0 0 0 0 0 0\n"
        first, last = machineload.cpu_jiffies(before, ["0", "1"]), machineload.cpu_jiffies(after, ["0", "1"])
        self.assertEqual(first, "5:100,10:100")
        self.assertEqual(machineload.cpu_percentages(first, last), [70, 100])
        self.assertEqual(machineload.cpu_percentages(first, first), [None, None])


if __name__ == "__main__":
    unittest.main()
