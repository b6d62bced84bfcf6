"""Tests of the warmup preset's numbers (launchresults.py), its rows and report (benchreport.py), and of its AOT
training failing a variant (launch-lib.sh, with fake tools): python3 -B -m unittest discover -s gatling/scripts."""

import re
import tempfile
import unittest
from pathlib import Path

import benchreport
import launchresults
from test_runner_plumbing import Plumbing

SCRIPTS = Path(__file__).parent


def launch_output(windows, first_answer_ms=1834, not_ready=57, done=True):
    """LaunchLoad's output with the given answers per window (errors in the last window when a pair is given)."""
    lines = ["launch-load connections=50 seconds=%d path=/benchmark/hello" % len(windows), "first-attempt-ms=95",
             "first-answer-ms=%s" % ("none" if first_answer_ms is None else first_answer_ms),
             "not-ready-attempts=%d" % not_ready]
    for second, window in enumerate(windows):
        ok, errors = window if isinstance(window, tuple) else (window, 0)
        lines.append(f"window second={second} ok={ok} errors={errors}")
    if done:
        lines.append("launch-load done")
    return "\n".join(lines) + "\n"


class LaunchResultsTest(unittest.TestCase):

    def test_counts_answers_and_errors_per_window_in_window_order(self):
        parsed = launchresults.parse(launch_output([0, 0, 1200, (30000, 2), 41000]))
        self.assertEqual([0, 0, 1200, 30000, 41000], parsed["ok_windows"])
        self.assertEqual([0, 0, 0, 2, 0], parsed["error_windows"])

    def test_reads_the_time_to_the_first_answer(self):
        self.assertEqual(1834, launchresults.parse(launch_output([0, 5]))["first_answer_ms"])
        self.assertIsNone(launchresults.parse(launch_output([0, 0], first_answer_ms=None))["first_answer_ms"])

    def test_a_run_that_did_not_finish_has_no_result(self):
        self.assertIsNone(launchresults.parse(launch_output([0, 5], done=False)))
        self.assertIsNone(launchresults.summary(launch_output([0, 5], done=False)))

    def test_the_peak_is_the_median_of_the_best_three_windows(self):
        # One lucky window (50,000) does not set it.
        self.assertEqual(40000, launchresults.peak([0, 100, 38000, 50000, 40000, 39000]))
        self.assertEqual(150, launchresults.peak([100, 200]))
        self.assertIsNone(launchresults.peak([0, 0, 0]))

    def test_time_to_ninety_percent_of_peak_is_the_end_of_the_first_window_that_reached_it(self):
        # Peak 40,000: 36,000 is 90 % of it; it is first reached in window 3, [3 s, 4 s).
        self.assertEqual(4000, launchresults.ms_to_fraction_of_peak([0, 1000, 20000, 36000, 40000, 41000, 40000]))
        self.assertIsNone(launchresults.ms_to_fraction_of_peak([0, 0]))

    def test_reads_the_burst_and_counts_its_unanswered_users_as_errors(self):
        text = launch_output([0, 5]).replace("launch-load done", "burst users=2000 answered=1998 errors=2 p50-ms=180 "
                                             "p99-ms=240 max-ms=251\nlaunch-load done")
        summary = launchresults.summary(text)
        self.assertEqual((2000, 1998, 240, 180), (summary["burst_users"], summary["burst_answered"],
                                                  summary["burst_p99_ms"], summary["burst_p50_ms"]))
        self.assertEqual(2, summary["ko"])
        self.assertIn("2 of the burst's 2000 users not answered 200", summary["errors"])
        self.assertEqual("180 / 240", benchreport.burst_cell(summary))
        self.assertEqual("–", benchreport.burst_cell(launchresults.summary(launch_output([0, 5]))))

    def test_a_lost_request_fails_the_row_in_the_burst_or_after_the_first_answer(self):
        burst = launch_output([0, 5]).replace("launch-load done", "burst users=2000 answered=996 errors=1004 "
                                              "p50-ms=1035 p99-ms=14527 max-ms=15245\nlaunch-load done")
        summary = launchresults.summary(burst)
        self.assertEqual("failed", summary["status"])
        self.assertIn("requests lost: 1004 of the burst's 2000 users not answered 200", summary["note"])
        later = launchresults.summary(launch_output([0, 5, (40000, 3)]))
        self.assertEqual("failed", later["status"])
        self.assertIn("3 errors or non-200 answers after the first answer", later["note"])
        self.assertNotIn("status", launchresults.summary(launch_output([0, 5, 40000])))

    def test_a_burst_nobody_answered_has_no_percentiles(self):
        text = launch_output([0, 0], first_answer_ms=None).replace(
            "launch-load done", "burst users=10 answered=0 errors=10 p50-ms=none p99-ms=none max-ms=none\nlaunch-load done")
        self.assertIsNone(launchresults.summary(text)["burst_p99_ms"])

    def test_a_server_that_never_answered_fails_the_row(self):
        summary = launchresults.summary(launch_output([0, 0, 0], first_answer_ms=None))
        self.assertEqual("failed", summary["status"])
        self.assertIn("no 200 in 3 s", summary["note"])

    def test_an_answer_to_the_first_attempt_is_marked_as_an_upper_bound(self):
        summary = launchresults.summary(launch_output([0, 5], not_ready=0))
        self.assertIn("upper bound", summary["note"])
        self.assertNotIn("note", launchresults.summary(launch_output([0, 5])))


class LaunchRowTest(unittest.TestCase):

    def setUp(self):
        self.temp = tempfile.TemporaryDirectory()
        self.dir = Path(self.temp.name)

    def tearDown(self):
        self.temp.cleanup()

    def row(self, output, *words):
        log = self.dir / "launch.log"
        log.write_text(output)
        return benchreport.make_row("launchload", log, ["target=sprout-nio-platform", "variant=aot", *words])

    def test_a_launch_row_carries_first_answer_peak_and_time_to_ninety_percent(self):
        row = self.row(launch_output([0, 0, 20000, 36000, 40000, 40000, 40000]), "exit_status=0")
        self.assertEqual(("ok", "launchload", 1834, 40000, 4000),
                         (row["status"], row["tool"], row["first_answer_ms"], row["rps"], row["t90_ms"]))
        self.assertEqual(0, row["ko"])

    def test_a_load_client_that_exited_non_zero_fails_the_row_however_good_its_output(self):
        row = self.row(launch_output([0, 40000, 40000]), "exit_status=1")
        self.assertEqual("failed", row["status"])
        self.assertIn("LaunchLoad exited with status 1", row["note"])

    def test_a_load_client_stopped_because_the_server_exited_fails_the_row(self):
        row = self.row(launch_output([0, 40000]), "exit_status=143", "stopped_early=1")
        self.assertEqual("failed", row["status"])
        self.assertIn("the server it loaded had exited", row["note"])

    def test_a_client_without_a_result_crashed(self):
        self.assertEqual("crashed", self.row("Exception in thread main\n", "exit_status=0")["status"])


class LaunchReportTest(unittest.TestCase):

    ROWS = [
        {"target": "sprout-nio-platform", "variant": "plain", "tool": "launchload", "status": "ok",
         "first_answer_ms": 2100, "rps": 40000, "t90_ms": 12000, "ko": 0, "ok_windows": [0, 0, 9000, 40000]},
        {"target": "sprout-nio-platform", "variant": "aot-warmup", "tool": "launchload", "status": "ok",
         "first_answer_ms": 1500, "rps": 41000, "t90_ms": 3000, "ko": 0, "ok_windows": [0, 38000, 41000]},
        {"target": "tomcat-platform", "variant": "aot", "tool": "launchload", "status": "ok",
         "first_answer_ms": 1700, "rps": 30000, "t90_ms": 15000, "ko": 0, "ok_windows": [0, 1000, 30000]},
        {"target": "tomcat-platform", "variant": "plain", "tool": "launchload", "status": "ok",
         "first_answer_ms": 2500, "rps": 30000, "t90_ms": 24000, "ko": 0, "ok_windows": [0, 0, 30000]},
        {"target": "jetty-platform", "variant": "plain", "tool": "launchload", "status": "refused",
         "first_answer_ms": 2600, "rps": 20000, "t90_ms": 20000, "ko": 0, "ok_windows": [0, 0, 20000],
         "note": "the machine was busy before it"},
        {"target": "netty", "variant": "aot", "tool": "launchload", "status": "failed",
         "note": "AOT cache: the training run wrote no AOT cache"},
    ]

    def test_the_table_compares_time_to_ninety_percent_with_tomcat_from_the_same_aot_cache(self):
        table = "\n".join(benchreport.launch_table(self.ROWS))
        # Sprout with the cache and warm-up against Tomcat with the cache: 3,000 / 15,000.
        self.assertIn("| sprout-nio-platform | aot-warmup | 1,500 | 41,000 | 3,000 | 0.20 | – | 0 | ok |", table)
        self.assertIn("| sprout-nio-platform | plain | 2,100 | 40,000 | 12,000 | 0.50 | – | 0 | ok |", table)
        self.assertRegex(table, r"\| netty \| aot \|.*\*\*failed\*\*: AOT cache")

    def test_the_chart_has_one_line_and_one_legend_entry_per_measured_target_and_variant(self):
        with tempfile.TemporaryDirectory() as directory:
            written = benchreport.launch_chart(Path(directory), self.ROWS)
            svg = (Path(directory) / written[0]).read_text()
        names = ["sprout-nio-platform plain", "sprout-nio-platform aot-warmup", "tomcat-platform plain",
                 "tomcat-platform aot", "jetty-platform plain (refused)"]
        self.assertEqual(5, svg.count("<polyline"))
        for name in names:
            self.assertIn(f">{name}</text>", svg)
        strokes = re.findall(r'<polyline points="[^"]*" (stroke="[^"]*" stroke-width="2" fill="none"[^>]*)>', svg)
        self.assertEqual(5, len(set(strokes)), "every line a colour and dash of its own")
        self.assertRegex(svg, r'stroke-opacity="0.35"><title>jetty-platform plain \(refused\)</title>',
                         "the refused line is pale")
        self.assertNotIn("netty", svg)


class AotTrainingTest(unittest.TestCase):
    """launch-lib.sh with a fake java whose training run never writes its cache."""

    def setUp(self):
        self.temp = tempfile.TemporaryDirectory()
        self.plumbing = Plumbing(self.temp.name)
        jar = self.plumbing.dir / "sample-boot-app/target/sprout/sample-boot-app-sprout.jar"
        jar.parent.mkdir(parents=True)
        jar.write_text("jar")
        self.plumbing.fake("java", 'case "$*" in\n'
                                   '  *jarmode=tools*) mkdir -p "${@: -1}"; touch "${@: -1}/sample-boot-app-sprout.jar" ;;\n'
                                   '  *) trap "exit 143" TERM; while :; do sleep 0.05; done ;;\n'
                                   'esac\n')
        self.plumbing.fake("curl", "printf 200\n")
        self.plumbing.fake("wrk", "echo 'fake wrk'\n")

    def tearDown(self):
        self.temp.cleanup()

    def test_a_training_run_that_wrote_no_cache_fails_the_variant_with_a_note(self):
        result = self.plumbing.bash(
            f'. "{SCRIPTS / "launch-lib.sh"}"\nROOT=$PWD RAW_DIR=$PWD/raw JAVA=java JVM_FLAGS=-Xmx1m APP_ARGS= PORT=1\n'
            'mkdir -p raw/logs\nON_SERVER_CPU=()\nWRK_CONNECTIONS=1 AOT_TRAINING_SECONDS=1 AOT_ASSEMBLY_SECONDS=5\n'
            'LAUNCH_VARIANTS=aot LAUNCH_COLD_START=0\nrun_launch_matrix sprout-nio-platform\n')
        rows = self.plumbing.rows_written()
        self.assertEqual(1, len(rows), result.stdout + result.stderr)
        self.assertEqual(("failed", "launch-aot", "aot", "launchload"),
                         (rows[0]["status"], rows[0]["simulation"], rows[0]["variant"], rows[0]["tool"]))
        self.assertIn("wrote no AOT cache", rows[0]["note"])


if __name__ == "__main__":
    unittest.main()
