"""Tests of the console parsers and the wrk summary: python3 -m unittest discover -s gatling/scripts"""

import contextlib
import io
import json
import re
import tempfile
import unittest
from pathlib import Path

import benchreport

GATLING_WITH_ERRORS = """\
Simulation io.sprout.gatling.DbSimulation completed in 2 seconds
========================================================================================================================
---- Global Information -------------------------------------------------------------|---Total---|-----OK----|----KO----
> request count                                                                      |     1,305 |     1,000 |       305
> min response time (ms)                                                             |         0 |         1 |         0
> max response time (ms)                                                             |     1,066 |     1,066 |        66
> mean response time (ms)                                                            |         2 |         3 |         2
> response time std deviation (ms)                                                   |         8 |         8 |         8
> response time 50th percentile (ms)                                                 |         1 |         2 |         1
> response time 75th percentile (ms)                                                 |         1 |         2 |         1
> response time 95th percentile (ms)                                                 |        17 |        20 |        17
> response time 99th percentile (ms)                                                 |        66 |        70 |        66
> mean throughput (rps)                                                              |     152.5 |       100 |      52.5
---- Response Time Distribution ----------------------------------------------------------------------------------------
> OK: t < 800 ms                                                                                            999  (76.6%)
> OK: 800 ms <= t < 1200 ms                                                                                   1   (0.1%)
> OK: t >= 1200 ms                                                                                            0     (0%)
> KO                                                                                                        305  (23.4%)
---- Errors ------------------------------------------------------------------------------------------------------------
> j.n.ConnectException: finishConnect(..) failed with error(-111): Connection refused                       300  (98.4%)
> status.find.is(200), but actually found 500                                                                 5   (1.6%)
========================================================================================================================

Global: 95th percentile of response time is less than 1000.0 : true (actual : 17.0)
Global: percentage of successful events is greater than 99.0 : false (actual : 76.6)
"""

WRK = """\
Running 5s test @ http://127.0.0.1:8080/benchmark/hello
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     7.24ms    7.13ms 103.95ms   95.69%
    Req/Sec     7.42k     1.49k    9.33k    76.00%
  Latency Distribution
     50%  640.00us
     75%    7.78ms
     90%   11.11ms
     99%    1.04s
  37497 requests in 5.08s, 4.55MB read
  Socket errors: connect 0, read 3, write 0, timeout 2
  Non-2xx or 3xx responses: 7
Requests/sec:   7385.39
Transfer/sec:      0.90MB
"""


class ParseGatlingTest(unittest.TestCase):

    def test_reads_global_information_errors_and_assertions(self):
        row = benchreport.parse_gatling(GATLING_WITH_ERRORS)
        self.assertEqual((row["requests"], row["ok"], row["ko"]), (1305, 1000, 305))
        self.assertEqual(row["max_ms"], 1066.0)
        self.assertEqual(row["p95_ms"], 17.0)
        self.assertEqual(row["rps"], 152.5)
        self.assertEqual(row["errors"], "j.n.ConnectException: finishConnect(..) failed with error(-111): "
                                        "Connection refused x300; status.find.is(200), but actually found 500 x5")
        self.assertEqual(row["assertions"], "fail")

    def test_returns_none_without_global_information(self):
        self.assertIsNone(benchreport.parse_gatling("Run crashed\n"))


def report_row(name, values):
    """A statistics-table row as Gatling 3.15's index.html writes it (whitespace trimmed)."""
    cells = "".join(f'<td class="value total col-{column}">{value}</td>\n'
                    for column, value in enumerate(values, 2))
    return (f'<tr id="req_x{abs(hash(name))}" data-parent="ROOT">\n<td class="total col-1"><a href="x.html">'
            f'<span class="ellipsed-name">{name}</span></a></td>\n{cells}</tr>')


class ParseGatlingLevelTest(unittest.TestCase):

    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        index = Path(self.directory.name) / "index.html"
        index.write_text("<table><tbody>"
                         + report_row("warm-up", (10000, 10000, 0, 0, 625, 145, 467, 629, 1680, 1791, 1997, 669, 495))
                         + report_row("latency ms=100 c=500", (10000, 9990, 10, 0.1, 625, 107, 141, 151, 281, 323,
                                                                341, 150, 39))
                         + report_row("latency ms=100 c=1000", (10000, 10000, 0, 0, 625, 102, 231, 253, 372, 387,
                                                                 395, 233, 61))
                         + "</tbody></table>")
        self.console = ("concurrency-level clients=500 requests=10000 millis=3200\n"
                        "concurrency-level clients=1000 requests=10000 millis=2500\n"
                        + GATLING_WITH_ERRORS.split("Global: ")[0]
                        + f"Reports generated, please open the following file: file://{index}\n"
                        "latency ms=100 c=500: percentage of successful events is greater than 99.0 : true (actual : 99.9)\n"
                        "latency ms=100 c=1000: percentage of successful events is greater than 99.0 : false (actual : 98.0)\n")

    def tearDown(self):
        self.directory.cleanup()

    def test_reads_the_level_row_its_span_and_its_assertion(self):
        row = benchreport.parse_gatling_level(self.console, "500")
        self.assertEqual((row["requests"], row["ok"], row["ko"]), (10000, 9990, 10))
        self.assertEqual((row["min_ms"], row["p50_ms"], row["p99_ms"], row["max_ms"], row["mean_ms"]),
                         (107.0, 141.0, 323.0, 341.0, 150.0))
        self.assertEqual(row["rps"], 3125.0)
        self.assertEqual(row["assertions"], "pass")
        self.assertIn("Connection refused x300", row["errors"])

    def test_does_not_confuse_levels_or_the_warm_up(self):
        row = benchreport.parse_gatling_level(self.console, "1000")
        self.assertEqual((row["mean_ms"], row["rps"], row["assertions"], row["errors"]), (233.0, 4000.0, "fail", ""))
        self.assertIsNone(benchreport.parse_gatling_level(self.console, "2000"))

    def test_returns_none_without_a_report(self):
        self.assertIsNone(benchreport.parse_gatling_level("Simulation crashed\n", "500"))


class ParseWrkTest(unittest.TestCase):

    def test_reads_throughput_latency_and_errors(self):
        row = benchreport.parse_wrk(WRK)
        self.assertEqual(row["requests"], 37497)
        self.assertEqual(row["rps"], 7385.39)
        self.assertAlmostEqual(row["mean_ms"], 7.24)
        self.assertAlmostEqual(row["p50_ms"], 0.64)
        self.assertAlmostEqual(row["p99_ms"], 1040.0)
        self.assertEqual(row["ko"], 12)
        self.assertEqual(row["errors"], "non-2xx x7; socket read x3; socket timeout x2")

    def test_flags_a_run_without_requests(self):
        row = benchreport.parse_wrk("  0 requests in 2.01s, 0.00B read\nRequests/sec:      0.00\n")
        self.assertEqual(row["errors"], "no request completed")


class WrkSummaryTest(unittest.TestCase):

    def test_takes_the_median_of_rounds_and_ratios_against_tomcat(self):
        rows = []
        for target, threads, values in (("tomcat-platform", "platform", (100, 110, 90)),
                                        ("tomcat-virtual", "virtual", (50, 60, 40)),
                                        ("sprout-nio-virtual", "virtual", (150, 120, 130))):
            for round_number, rps in enumerate(values, 1):
                rows.append({"target": target, "threads": threads, "tool": "wrk", "status": "ok",
                             "simulation": "wrk-hello", "round": round_number, "rps": rps, "requests": rps * 5,
                             "ok": rps * 5, "ko": 0})
        summary = {row["target"]: row for row in benchreport.summarise_wrk(rows)}
        self.assertEqual(summary["tomcat-platform"]["rps"], 100)
        self.assertEqual(summary["sprout-nio-virtual"]["rps"], 130)
        self.assertEqual(summary["sprout-nio-virtual"]["ratio_vs_tomcat_platform"], 1.3)
        self.assertEqual(summary["sprout-nio-virtual"]["ratio_vs_tomcat_same_threads"], 2.6)


class AsyncLatencyLevelsTest(unittest.TestCase):

    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        index = Path(self.directory.name) / "index.html"
        index.write_text("<table><tbody>"
                         + report_row("warm-up", (90000, 90000, 0, 0, 1000, 101, 180, 240, 900, 1500, 2100, 230, 120))
                         + report_row("latency-async ms=100 c=500", (96000, 96000, 0, 0, 1000, 100, 103, 105, 111,
                                                                      130, 250, 104, 6))
                         + report_row("latency-async ms=100 c=1000", (150000, 149000, 1000, 0.7, 1500, 100, 125, 140,
                                                                       180, 240, 30001, 132, 40))
                         + "</tbody></table>")
        self.console = ("async-level clients=500 millis=20000\n"
                        "async-level clients=1000 millis=20500\n"
                        + GATLING_WITH_ERRORS.split("Global: ")[0]
                        + f"Reports generated, please open the following file: file://{index}\n"
                        "latency-async ms=100 c=500: percentage of successful events is greater than 99.0 : true "
                        "(actual : 100.0)\n"
                        "latency-async ms=100 c=1000: percentage of successful events is greater than 99.0 : false "
                        "(actual : 99.3)\n")

    def tearDown(self):
        self.directory.cleanup()

    def test_reads_each_level_with_the_throughput_of_its_span(self):
        row = benchreport.parse_gatling_level(self.console, "500")
        self.assertEqual((row["requests"], row["ko"], row["mean_ms"], row["p99_ms"]), (96000, 0, 104.0, 130.0))
        self.assertEqual((row["rps"], row["assertions"], row["errors"]), (4800.0, "pass", ""))
        row = benchreport.parse_gatling_level(self.console, "1000")
        self.assertEqual((row["ko"], row["rps"], row["assertions"]), (1000, 7317.1, "fail"))
        self.assertIsNone(benchreport.parse_gatling_level(self.console, "2000"))

    def test_orders_levels_by_clients_after_concurrency(self):
        names = ["Db", "AsyncLatency-2000", "wrk-hello", "AsyncLatency-500", "Concurrency-1000", "AsyncLatency-1000",
                 "Concurrency-500", "ColdStart"]
        self.assertEqual(sorted(names, key=benchreport.simulation_order),
                         ["ColdStart", "Concurrency-500", "Concurrency-1000", "AsyncLatency-500", "AsyncLatency-1000",
                          "AsyncLatency-2000", "Db", "wrk-hello"])

    def test_tabulates_each_target_across_levels(self):
        rows = []
        for target, level, mean, rps in (("sprout-nio-platform", 500, 104, 4800),
                                         ("sprout-nio-platform", 1000, 132, 7317),
                                         ("tomcat-platform", 500, 110, 4500)):
            rows.append({"target": target, "tool": "gatling", "status": "ok", "simulation": f"AsyncLatency-{level}",
                         "requests": 10, "ok": 10, "ko": 1 if level == 1000 else 0, "mean_ms": mean, "p99_ms": 200,
                         "rps": rps})
        table = benchreport.markdown(rows, [])
        self.assertIn("### AsyncLatency by number of clients (mean ms / p99 ms / req/s)", table)
        self.assertIn("| target | 500 clients | 1,000 clients | KO |", table)
        self.assertIn("| sprout-nio-platform | 104 / 200 / 4,800 | 132 / 200 / 7,317 | 1 |", table)
        self.assertIn("| tomcat-platform | 110 / 200 / 4,500 | – | 0 |", table)


GATLING_CLEAN = GATLING_WITH_ERRORS.replace("|     1,305 |     1,000 |       305", "|    10,007 |    10,007 |         0")


class WebSocketBroadcastTest(unittest.TestCase):

    LINE = ("ws-broadcast sessions=10000 broadcasts=5 messages=10 size=64 expected=500000 delivered=499000 "
            "malformed=0 mean_ms=41.5 p50_ms=35 p95_ms=90 p99_ms=120 max_ms=300 delivering_millis=2000 rate=249500.0\n")

    def test_counts_each_accepted_message_as_a_request_and_its_delivery_time_as_its_response_time(self):
        row = benchreport.parse_ws_broadcast(self.LINE + GATLING_CLEAN
                                             + "broadcast: percentage of successful events is 100.0 : true\n")
        self.assertEqual((row["requests"], row["ok"], row["ko"]), (500000, 499000, 1000))
        self.assertEqual((row["mean_ms"], row["p50_ms"], row["p95_ms"], row["p99_ms"], row["max_ms"]),
                         (41.5, 35.0, 90.0, 120.0, 300.0))
        self.assertEqual(row["rps"], 249500.0)
        self.assertEqual((row["errors"], row["assertions"]), ("", "pass"))

    def test_reports_failed_handshakes_and_a_broadcast_that_reached_nobody(self):
        line = self.LINE.replace("expected=500000 delivered=499000", "expected=0 delivered=0")
        row = benchreport.parse_ws_broadcast(line + GATLING_WITH_ERRORS)
        self.assertEqual((row["requests"], row["ok"], row["ko"]), (0, 0, 0))
        self.assertIn("305 failed Gatling requests (handshakes, broadcasts): j.n.ConnectException", row["errors"])
        self.assertIn("no broadcast reached a session", row["errors"])
        self.assertNotIn("assertions", row)

    def test_returns_none_when_the_simulation_printed_nothing(self):
        self.assertIsNone(benchreport.parse_ws_broadcast(GATLING_CLEAN))


class WebSocketIdleTest(unittest.TestCase):

    def test_divides_the_rss_growth_by_the_open_sessions(self):
        row = benchreport.parse_ws_idle(GATLING_CLEAN, "10000", ("300000", "402400"), ("20000", "45000"))
        self.assertEqual((row["requests"], row["ko"], row["sessions_open"]), (10007, 0, 10000))
        self.assertEqual(row["rss_growth_mb"], 100.0)
        self.assertEqual(row["rss_per_session_kb"], 10.24)
        self.assertEqual(row["heap_per_session_kb"], 2.5)

    def test_leaves_per_session_out_when_nothing_was_open_or_measured(self):
        row = benchreport.parse_ws_idle(GATLING_WITH_ERRORS, "0", ("300000", "301024"), ("20000", "20000"))
        self.assertEqual((row["sessions_open"], row["rss_growth_mb"]), (0, 1.0))
        self.assertNotIn("rss_per_session_kb", row)
        self.assertNotIn("heap_per_session_kb", row)
        row = benchreport.parse_ws_idle(GATLING_WITH_ERRORS, "5", ("300000", ""), ("", "1"))
        self.assertNotIn("rss_growth_mb", row)
        self.assertNotIn("heap_per_session_kb", row)

    def test_the_command_records_a_gatling_row_with_the_measurements(self):
        with tempfile.TemporaryDirectory() as directory:
            log = Path(directory) / "idle.log"
            log.write_text(GATLING_CLEAN)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                benchreport.parse_command("wsidle", log, ["target=tomcat-platform", "simulation=WebSocketIdle",
                                                          "rss_before_kb=1000", "rss_after_kb=3048",
                                                          "heap_before_kb=100", "heap_after_kb=1124",
                                                          "sessions_open=1024"])
            row = json.loads(out.getvalue())
        self.assertEqual((row["tool"], row["status"], row["simulation"]), ("gatling", "ok", "WebSocketIdle"))
        self.assertEqual((row["rss_growth_mb"], row["rss_per_session_kb"], row["heap_per_session_kb"]),
                         (2.0, 2.0, 1.0))


class WebSocketTableTest(unittest.TestCase):

    @staticmethod
    def rows(target, echo_rps, broadcast_rps, per_session_kb):
        common = {"target": target, "tool": "gatling", "status": "ok"}
        return [dict(common, simulation="WebSocketEcho-1000", requests=100, ok=100, ko=0, rps=echo_rps, p99_ms=4,
                     mean_ms=2),
                dict(common, simulation="WebSocketBroadcast", requests=500000, ok=499990, ko=10, rps=broadcast_rps,
                     p99_ms=120, mean_ms=40),
                dict(common, simulation="WebSocketIdle", requests=10000, ok=10000, ko=0, sessions_open=10000,
                     rss_growth_mb=round(per_session_kb * 10000 / 1024, 1), rss_per_session_kb=per_session_kb,
                     heap_per_session_kb=per_session_kb / 2)]

    def test_puts_each_targets_three_simulations_on_one_row_with_ratios_against_tomcat(self):
        rows = self.rows("tomcat-platform", 20000, 100000, 12.5) + self.rows("sprout-nio-platform", 30000, 150000, 5.0)
        table = benchreport.markdown(rows, [])
        self.assertIn("### WebSocket (echo: round trips/s and p99 ms;", table)
        self.assertIn("| sprout-nio-platform | 1,000 | 30,000 | 1.50 | 4 | 499,990 of 500,000 | 150,000 | 1.50 | 120 "
                      "| 10,000 | 48.8 | 5.0 | 2.5 | 10 |", table)
        self.assertIn("| tomcat-platform | 1,000 | 20,000 | 1.00 | 4 |", table)
        self.assertLess(table.index("| sprout-nio-platform | 1,000"), table.index("| tomcat-platform | 1,000"))

    def test_a_target_without_websocket_results_gets_dashes(self):
        rows = self.rows("tomcat-platform", 20000, 100000, 12.5)[:1]
        table = benchreport.markdown(rows, [])
        self.assertIn("| tomcat-platform | 1,000 | 20,000 | 1.00 | 4 | – | – | – | – | – | – | – | – | 0 |", table)

    def test_no_table_without_websocket_rows(self):
        rows = [{"target": "tomcat-platform", "tool": "gatling", "status": "ok", "simulation": "HelloWorld",
                 "requests": 1, "ok": 1, "ko": 0}]
        self.assertNotIn("### WebSocket", benchreport.markdown(rows, []))

    def test_writes_the_rss_chart_and_orders_websocket_simulations_last(self):
        with tempfile.TemporaryDirectory() as directory:
            written = benchreport.charts(Path(directory), self.rows("netty", 1, 1, 3.0), [])
            self.assertIn("websocket-rss-per-session.svg", written)
            self.assertIn("3.0", (Path(directory) / "websocket-rss-per-session.svg").read_text())
        names = ["WebSocketBroadcast", "WebSocketEcho-1000", "Db", "WebSocketIdle", "wrk-hello"]
        self.assertEqual(sorted(names, key=benchreport.simulation_order),
                         ["Db", "WebSocketEcho-1000", "WebSocketIdle", "WebSocketBroadcast", "wrk-hello"])


class ChartLegendTest(unittest.TestCase):

    TARGETS = ["sprout-nio-platform", "sprout-nio-virtual", "sprout-hybrid-platform", "sprout-hybrid-virtual",
               "tomcat-platform", "jetty-platform", "netty"]

    def test_every_target_gets_a_legend_entry_inside_the_chart_and_its_own_colour(self):
        # Two groups of seven: the legend of one line used to run off the 640-pixel chart after four targets.
        values = {(load, target): 1000 for load in ("wrk-hello", "wrk-json") for target in self.TARGETS}
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / "chart.svg"
            benchreport.grouped_bars("wrk", "req/s", ["wrk-hello", "wrk-json"], self.TARGETS, values, path)
            svg = path.read_text()
        width = int(re.search(r'<svg [^>]*width="(\d+)"', svg).group(1))
        legend = re.findall(r'<rect x="(\d+)" y="\d+" width="10" height="10" fill="([^"]+)"/>\s*<text [^>]*>([^<]+)<',
                            svg)
        self.assertEqual([name for _, _, name in legend], self.TARGETS)
        self.assertEqual(len({colour for _, colour, _ in legend}), len(self.TARGETS))
        for x, _, name in legend:
            self.assertLessEqual(int(x) + 14 + 7 * len(name), width, name)
        bars = dict(re.findall(r'fill="([^"]+)"><title>wrk-hello / ([^:]+):', svg))
        self.assertEqual({colour for _, colour, _ in legend}, set(bars))

    def test_a_target_keeps_its_colour_whichever_targets_share_the_chart(self):
        self.assertEqual(benchreport.colour_of("netty", 0), benchreport.colour_of("netty", 5))
        self.assertNotEqual(benchreport.colour_of("p50", 0), benchreport.colour_of("p95", 1))


def ab_rows(old, new, target="sprout-nio-platform", endpoint="hello"):
    rows = []
    for side, values in (("old", old), ("new", new)):
        for round_number, rps in enumerate(values, 1):
            if rps is None:
                rows.append({"target": target, "side": side, "round": str(round_number), "tool": "-",
                             "status": "failed", "note": "not ready"})
            else:
                rows.append({"target": target, "side": side, "round": str(round_number), "tool": "wrk",
                             "status": "ok", "simulation": f"wrk-{endpoint}", "rps": rps, "requests": rps * 10,
                             "ok": rps * 10, "ko": 0, "errors": ""})
    return rows


class AbSummaryTest(unittest.TestCase):

    def test_compares_the_medians_and_each_rounds_pair(self):
        summary = benchreport.summarise_ab(ab_rows((100, 90, 110), (105, 99, 99))
                                           + ab_rows((50, 50, 50), (40, 60, 50), endpoint="json"))
        hello, json_row = summary[0], summary[1]
        self.assertEqual((json_row["endpoint"], hello["endpoint"]), ("json", "hello"))
        self.assertEqual((hello["old_median"], hello["new_median"], hello["ratio"]), (100, 99, 0.99))
        self.assertEqual(hello["paired_ratios"], [1.05, 1.1, 0.9])
        self.assertEqual(json_row["ratio"], 1.0)

    def test_leaves_a_failed_round_out_and_says_so(self):
        summary = benchreport.summarise_ab(ab_rows((100, None, 120), (110, 130, 150)))
        self.assertEqual((summary[0]["old_median"], summary[0]["new_median"]), (110, 130))
        self.assertEqual(summary[0]["paired_ratios"], [1.1, 1.25])

    def test_writes_the_report_and_fails_on_a_missing_round(self):
        with tempfile.TemporaryDirectory() as directory:
            run_dir = Path(directory)
            (run_dir / "machine.md").write_text("## A/B run\n")
            (run_dir / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ab_rows((100, 90), (110, 99))))
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(benchreport.ab_command(run_dir), 0)
            results = (run_dir / "results.md").read_text()
            self.assertTrue(results.startswith("## A/B run"))
            self.assertIn("| sprout-nio-platform | /hello | 100, 90 | 110, 99 | 95 | 104 | **1.100** | 1.100, 1.100 |",
                          results)
            with open(run_dir / "results.csv") as csv_file:
                medians = [line for line in csv_file if ",median," in line]
            self.assertEqual(len(medians), 2)
            (run_dir / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ab_rows((100, None), (110, 99))))
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(benchreport.ab_command(run_dir), 1)
            self.assertIn("- sprout-nio-platform, old, round 2: not ready", (run_dir / "results.md").read_text())


if __name__ == "__main__":
    unittest.main()
