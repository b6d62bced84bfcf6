"""Tests of the console parsers and the wrk summary: python3 -m unittest discover -s gatling/scripts"""

import contextlib
import io
import json
import re
import tempfile
import unittest
from pathlib import Path

import benchreport
import h2results
import runrows
import verdict

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
        # Rounds this far apart would be refused (SpreadRefusalTest): here only the arithmetic is under test.
        summary = {row["target"]: row for row in benchreport.summarise_load(rows, max_spread_percent="none")}
        self.assertEqual(summary["tomcat-platform"]["rps"], 100)
        self.assertEqual(summary["sprout-nio-virtual"]["rps"], 130)
        self.assertEqual(summary["sprout-nio-virtual"]["ratio_vs_tomcat_platform"], 1.3)
        self.assertEqual(summary["sprout-nio-virtual"]["ratio_vs_tomcat_same_threads"], 2.6)

    def test_compares_webflux_on_sprout_with_tomcat_of_its_thread_type_and_keeps_its_stack(self):
        rows = []
        for target, stack, threads, rps in (("tomcat-platform", "servlet", "platform", 100),
                                            ("tomcat-virtual", "servlet", "virtual", 50),
                                            ("sprout-webflux-hybrid-virtual", "reactive", "virtual", 150)):
            rows.append({"target": target, "server": target.split("-")[0], "stack": stack, "threads": threads,
                         "mode": "hybrid", "tool": "wrk", "status": "ok", "simulation": "wrk-json", "round": 1,
                         "rps": rps, "requests": rps * 5, "ok": rps * 5, "ko": 0})
        summary = {row["target"]: row for row in benchreport.summarise_load(rows)}
        webflux = summary["sprout-webflux-hybrid-virtual"]
        self.assertEqual((webflux["server"], webflux["stack"], webflux["mode"]), ("sprout", "reactive", "hybrid"))
        self.assertEqual((webflux["ratio_vs_tomcat_platform"], webflux["ratio_vs_tomcat_same_threads"]), (1.5, 3.0))


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

    def test_fails_a_round_whose_server_heap_could_not_be_collected(self):
        collected = benchreport.parse_ws_broadcast(self.LINE.replace("\n", " heap_collected=yes\n") + GATLING_CLEAN)
        self.assertNotIn("status", collected)
        failed = benchreport.parse_ws_broadcast(self.LINE.replace("\n", " heap_collected=no\n") + GATLING_CLEAN)
        self.assertEqual(failed["status"], "failed")
        self.assertIn("jcmd GC.run failed", failed["note"])

    def test_fails_a_round_whose_measured_broadcasts_began_before_the_warm_up_had_arrived(self):
        warm = " warm_up_broadcasts=5 warm_up_expected=500000 warm_up_delivered=%d\n"
        arrived = benchreport.parse_ws_broadcast(self.LINE.replace("\n", warm % 500000) + GATLING_CLEAN)
        self.assertNotIn("status", arrived)
        late = benchreport.parse_ws_broadcast(self.LINE.replace("\n", warm % 499999) + GATLING_CLEAN)
        self.assertEqual(late["status"], "failed")
        self.assertIn("499,999 of 500,000 messages", late["note"])


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
            row = benchreport.make_row("wsidle", log, ["target=tomcat-platform", "simulation=WebSocketIdle",
                                                       "rss_before_kb=1000", "rss_after_kb=3048",
                                                       "heap_before_kb=100", "heap_after_kb=1124",
                                                       "sessions_open=1024"])
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
        self.assertIn("| sprout-nio-platform | 1,000 | 30,000 | 1.50 | 4 | – | 499,990 of 500,000 | 150,000 | 1.50 "
                      "| 120 "
                      "| 10,000 | 48.8 | 5.0 | 2.5 | 10 |", table)
        self.assertIn("| tomcat-platform | 1,000 | 20,000 | 1.00 | 4 |", table)
        self.assertLess(table.index("| sprout-nio-platform | 1,000"), table.index("| tomcat-platform | 1,000"))

    def test_a_target_without_websocket_results_gets_dashes(self):
        rows = self.rows("tomcat-platform", 20000, 100000, 12.5)[:1]
        table = benchreport.markdown(rows, [])
        self.assertIn("| tomcat-platform | 1,000 | 20,000 | 1.00 | 4 | – | – | – | – | – | – | – | – | – "
                      "| 0 |", table)

    @staticmethod
    def echo_round(target, round_number, rps, p99_ms):
        return {"target": target, "tool": "gatling", "status": "ok", "simulation": "WebSocketEcho-1000",
                "round": str(round_number), "requests": 100, "ok": 100, "ko": 0, "rps": rps, "p99_ms": p99_ms,
                "server_cpu_pct": 60 + round_number, "load_cpu_pct": 100, "ready_ms": "900"}

    def test_rounds_of_a_simulation_become_their_median_judged_by_their_spread(self):
        rows = ([self.echo_round("netty", n, rps, p99) for n, rps, p99 in ((1, 90000, 30), (2, 92000, 40),
                                                                            (3, 91000, 35))]
                + [self.echo_round("sprout-webflux-nio-platform", n, rps, 30) for n, rps in ((1, 80000), (2, 95000),
                                                                                             (3, 88000))]
                + [{"target": "netty", "tool": "gatling", "status": "ok", "simulation": "WebSocketIdle"}])
        summarised, rounds = benchreport.summarise_repeats(rows)
        self.assertEqual(len(rounds), 6)
        medians = {r["target"]: r for r in summarised if r["simulation"] == "WebSocketEcho-1000"}
        netty = medians["netty"]
        self.assertEqual((netty["status"], netty["rps"], netty["p99_ms"], netty["server_cpu_pct"]),
                         ("ok", 91000, 35, 62))
        self.assertEqual((netty["round"], netty["requests"], netty["ready_ms"]), ("median of 3", 300, "900"))
        sprout = medians["sprout-webflux-nio-platform"]
        self.assertEqual((sprout["status"], sprout["rps"]), ("refused", 88000))
        self.assertIn("rounds disagree: 80,000-95,000 msg/s", sprout["note"])
        self.assertEqual(sum(1 for r in summarised if r["simulation"] == "WebSocketIdle"), 1)
        table = benchreport.markdown(summarised, [])
        self.assertIn("| netty | 1,000 | 91,000 | – | 35 | 62 / 100 |", table)
        self.assertIn("| WebSocketEcho-1000 | netty | 300 | 300 | 0 | 100.00 | – | – | – | 35 | – | 91,000.0 "
                      "| 62 / 100 | median of 3 |", table)
        # A refused median keeps its number in the WebSocket table, marked, and gets no ratio.
        self.assertIn("| sprout-webflux-nio-platform | 1,000 | 88,000 (refused) | – | 30 | 62 / 100 |", table)

    def test_the_report_keeps_every_round_in_the_csv_and_a_refused_median_refuses_the_run(self):
        with tempfile.TemporaryDirectory() as directory:
            run_dir = Path(directory)
            for n, rps in ((1, 80000), (2, 95000)):
                runrows.append(run_dir / "rows.jsonl", self.echo_round("netty", n, rps, 30))
            with contextlib.redirect_stdout(io.StringIO()):
                code = benchreport.report_command(run_dir, {})
            lines = (run_dir / "results.csv").read_text().splitlines()
        self.assertEqual(code, verdict.EXIT_REFUSED)
        self.assertEqual([line.split(",")[7] for line in lines[1:]], ["median of 2", "1", "2"])

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


# h2load 1.52 against Tomcat, h2c prior knowledge, `-t1 -c16 -m10 -D3` (progress lines shortened).
H2LOAD_H2C = """\
starting benchmark...
spawning thread #0: 16 total client(s). Timing-based test with 0s of warm-up time and 3s of main duration for measurements.
Warm-up started for thread #0.
progress: 6% of clients started
progress: 100% of clients started
Warm-up phase is over for thread #0.
Main benchmark duration is started for thread #0.
Application protocol: h2c
Main benchmark duration is over for thread #0. Stopping all clients.
Stopped all clients for thread #0

finished in 3.00s, 1269.00 req/s, 82.23KB/s
requests: 3807 total, 3967 started, 3807 done, 3807 succeeded, 0 failed, 0 errored, 0 timeout
status codes: 3808 2xx, 0 3xx, 0 4xx, 0 5xx
traffic: 246.68KB (252598) total, 130.78KB (133916) headers (space savings 62.98%), 48.33KB (49491) data
                     min         max         mean         sd        +/- sd
time for request:     1.59ms       1.29s    123.25ms     93.35ms    84.32%
time for connect:       61us       261us       165us        62us    62.50%
time to 1st byte:   107.84ms    258.62ms    166.38ms     52.20ms    62.50%
req/s           :      55.98       97.96       79.28       11.47    68.75%
"""

# h2 over TLS (ALPN) against Tomcat, a path that answers 404.
H2LOAD_TLS_404 = """\
starting benchmark...
spawning thread #0: 1 total client(s). 10 total requests
TLS Protocol: TLSv1.3
Cipher: TLS_AES_128_GCM_SHA256
Server Temp Key: X25519 253 bits
Application protocol: h2
progress: 100% done

finished in 126.06ms, 79.33 req/s, 12.65KB/s
requests: 10 total, 10 started, 10 done, 0 succeeded, 10 failed, 2 errored, 1 timeout
status codes: 0 2xx, 0 3xx, 8 4xx, 0 5xx
traffic: 1.59KB (1633) total, 312B (312) headers (space savings 56.06%), 1010B (1010) data
                     min         max         mean         sd        +/- sd
time for request:      999us     95.76ms     24.28ms     37.70ms    80.00%
"""

# `--npn-list=h2` against a server that does not offer h2: no application protocol, every request errored.
H2LOAD_NOT_H2 = """\
starting benchmark...
spawning thread #0: 2 total client(s). 200 total requests

finished in 1.14ms, 0.00 req/s, 0B/s
requests: 200 total, 0 started, 0 done, 0 succeeded, 200 failed, 200 errored, 0 timeout
status codes: 0 2xx, 0 3xx, 0 4xx, 0 5xx
traffic: 0B (0) total, 0B (0) headers (space savings 0.00%), 0B (0) data
                     min         max         mean         sd        +/- sd
time for request:        0us         0us         0us         0us     0.00%
"""


def request_log(durations_us, failed=0):
    lines = [f"1795649750{i:06d}\t200\t{d}" for i, d in enumerate(durations_us)]
    return "\n".join(lines + [f"1795649751000000\t-1\t5000000"] * failed) + "\n"


class ParseH2loadTest(unittest.TestCase):

    def test_reads_throughput_and_takes_the_latencies_from_the_request_log(self):
        # 100 responses of 1..100 ms; failed requests (status -1) have no response time.
        row = h2results.parse_h2load(H2LOAD_H2C, request_log([ms * 1000 for ms in range(100, 0, -1)], failed=3))
        self.assertEqual((row["requests"], row["ok"], row["ko"], row["rps"]), (3807, 3807, 0, 1269.0))
        self.assertEqual((row["mean_ms"], row["p50_ms"], row["p75_ms"], row["p99_ms"]), (50.5, 50.0, 75.0, 99.0))
        self.assertEqual(row["errors"], "")
        self.assertNotIn("status", row)

    def test_takes_h2loads_mean_without_a_request_log(self):
        row = h2results.parse_h2load(H2LOAD_H2C)
        self.assertEqual(row["mean_ms"], 123.25)
        self.assertNotIn("p99_ms", row)

    def test_counts_non_2xx_errored_and_timed_out_requests_as_failed(self):
        row = h2results.parse_h2load(H2LOAD_TLS_404, request_log([999]))
        self.assertEqual((row["requests"], row["ok"], row["ko"]), (10, 0, 10))
        self.assertEqual(row["errors"], "4xx x8; errored x2; timeout x1")
        self.assertEqual(row["p50_ms"], 0.999)
        self.assertNotIn("status", row)

    def test_fails_a_run_that_did_not_speak_http2(self):
        row = h2results.parse_h2load(H2LOAD_NOT_H2)
        self.assertEqual(row["status"], "failed")
        self.assertEqual(row["note"], "no HTTP/2 connection (h2load reports no application protocol)")
        self.assertIn("no request completed", row["errors"])
        row = h2results.parse_h2load(H2LOAD_H2C.replace("protocol: h2c", "protocol: http/1.1"))
        self.assertEqual((row["status"], row["note"]), ("failed", "h2load negotiated http/1.1, not HTTP/2"))

    def test_fails_a_run_the_time_limit_killed_and_says_how_far_it_got(self):
        # h2load 1.52, -c64 -m100 -D3 over TLS on a loaded machine: never ended, killed by the runner's timeout.
        killed = H2LOAD_H2C.split("Stopped all clients")[0].replace("progress: 100% of clients started\n", "")
        row = h2results.parse_h2load(killed)
        self.assertEqual(row["status"], "failed")
        self.assertEqual(row["note"], "h2load did not finish, killed after the time limit: 6% of its clients had "
                                      "started, its duration was over, it was waiting for its connections to end")
        self.assertNotIn("rps", row)

    def test_returns_none_when_h2load_did_not_run(self):
        self.assertIsNone(h2results.parse_h2load("h2load: command not found\n"))

    def test_the_command_records_an_h2load_row_with_the_request_log(self):
        with tempfile.TemporaryDirectory() as directory:
            log, requests = Path(directory) / "h2.log", Path(directory) / "h2-requests.log"
            log.write_text(H2LOAD_H2C)
            requests.write_text(request_log([2000, 4000]))
            row = benchreport.make_row("h2load", log, ["target=jetty-platform", "simulation=h2-hello-c16m10",
                                                       "round=1", f"request_log={requests}"])
        self.assertEqual((row["tool"], row["status"], row["simulation"], row["p99_ms"]),
                         ("h2load", "ok", "h2-hello-c16m10", 4.0))
        self.assertNotIn("request_log", row)


IDLE_LINE = ("idle protocol=h2 connections=2000 opened=2000 open=1998 closed_by_server=2 rss_loaded_kb=330000 "
             "rss_before_kb=324188 rss_after_kb=421400 heap_before_kb=26012 heap_after_kb=130817 open_seconds=5.8 "
             "error=\n")


class IdleTest(unittest.TestCase):

    def test_divides_the_memory_growth_by_the_connections_open_when_measured(self):
        row = benchreport.parse_idle("idleconns: 500 connections tried, 500 open\n" + IDLE_LINE)
        self.assertEqual((row["requests"], row["ok"], row["ko"], row["sessions_open"]), (2000, 2000, 0, 1998))
        self.assertEqual(row["rss_loaded_kb"], "330000")
        self.assertEqual((row["rss_growth_mb"], row["rss_per_session_kb"], row["heap_per_session_kb"]),
                         (94.9, 48.65, 52.45))
        self.assertEqual(row["errors"], "2 closed by the server while held")
        self.assertNotIn("status", row)

    def test_fails_when_no_connection_opened_and_keeps_the_reason(self):
        line = ("idle protocol=h1 connections=50 opened=0 open=0 closed_by_server=0 rss_loaded_kb=410564 "
                "rss_before_kb=410564 rss_after_kb=410568 heap_before_kb= heap_after_kb= open_seconds=0.0 "
                "error=connection 1: ConnectionRefusedError: [Errno 111] Connection refused (gave up after 20 failures "
                "in a row)\n")
        row = benchreport.parse_idle(line)
        self.assertEqual((row["status"], row["ko"]), ("failed", 50))
        self.assertTrue(row["note"].startswith("h1 idle: no connection opened"))
        self.assertIn("ConnectionRefusedError: [Errno 111] Connection refused (gave up", row["note"])
        self.assertNotIn("rss_per_session_kb", row)
        self.assertNotIn("heap_per_session_kb", row)

    def test_a_run_stopped_before_its_result_keeps_the_rss_after_the_load_and_how_far_it_got(self):
        text = ("idle-start protocol=h1 connections=10000 rss_loaded_kb=245760\n"
                "idleconns: 500 connections tried, 500 open\nidleconns: 1000 connections tried, 998 open\n")
        row = benchreport.parse_idle(text)
        self.assertEqual((row["status"], row["requests"], row["ok"], row["ko"], row["rss_loaded_kb"]),
                         ("failed", 10000, 998, 9002, "245760"))
        self.assertIn("stopped with 998 of 10,000 open", row["errors"])

    def test_a_server_that_died_holding_them_is_in_the_table_and_the_rss_chart_with_its_rss_after_the_load(self):
        died = {"target": "tomcat-platform", "tool": "idle", "simulation": "h1-idle", "status": "failed",
                "requests": 10000, "ok": 5500, "ko": 4500, "rss_loaded_kb": "262144", "errors": "stopped",
                "note": "idleconns.py was stopped early"}
        held = {"target": "sprout-nio-platform", "tool": "idle", "simulation": "h1-idle", "status": "ok",
                "requests": 10000, "ok": 10000, "ko": 0, "sessions_open": 10000, "rss_loaded_kb": "225280",
                "rss_after_kb": "251904", "rss_growth_mb": 26.0, "rss_per_session_kb": 2.66, "heap_per_session_kb": 2.5,
                "open_seconds": 20.0, "errors": ""}
        rows = [died, held]
        table = benchreport.markdown(rows, benchreport.summarise_load(rows))
        self.assertIn("### Idle HTTP/1.1 keep-alive connections", table)
        self.assertIn("| tomcat-platform | 5,500 of 10,000 | – | 256.0 | – |", table)
        self.assertIn("| sprout-nio-platform | 10,000 of 10,000 | 10,000 | 220.0 | 246.0 | 26.0 |", table)
        with tempfile.TemporaryDirectory() as directory:
            written = benchreport.charts(Path(directory), rows, benchreport.summarise_load(rows))
            self.assertEqual(written, ["h1-memory-per-connection.svg", "h1-rss.svg"])
            rss = (Path(directory) / "h1-rss.svg").read_text()
        self.assertIn("tomcat-platform / after the load: 256", rss)
        self.assertIn("sprout-nio-platform / 10,000 idle held: 246", rss)

    def test_returns_none_without_a_result_line(self):
        self.assertIsNone(benchreport.parse_idle("Traceback (most recent call last):\n"))


SPROUT_REFUSES_H2 = """\
2026-11-26T00:00:01.000Z  INFO 1 --- [main] io.sprout.sample.BenchmarkApplication : Starting BenchmarkApplication
2026-11-26T00:00:02.000Z ERROR 1 --- [main] o.s.b.d.LoggingFailureAnalysisReporter :

***************************
APPLICATION FAILED TO START
***************************

Description:

Sprout does not support server.http2.enabled=true (HTTP/2):
the engine speaks HTTP/1.1 only so far

Action:

Remove server.http2.enabled or set it to false.

"""


class StartFailureTest(unittest.TestCase):

    def test_records_spring_boots_failure_description(self):
        with tempfile.TemporaryDirectory() as directory:
            log = Path(directory) / "sprout-nio-platform-wrk-server.log"
            log.write_text(SPROUT_REFUSES_H2)
            row = benchreport.make_row("startfailure", log, ["target=sprout-nio-platform", "simulation=-"])
        self.assertEqual((row["status"], row["tool"]), ("failed", "-"))
        self.assertEqual(row["note"], "did not start: Sprout does not support server.http2.enabled=true (HTTP/2): "
                                      "the engine speaks HTTP/1.1 only so far (see sprout-nio-platform-wrk-server.log)")

    def test_falls_back_to_the_first_exception_or_a_plain_reason(self):
        self.assertEqual(benchreport.start_failure("java.net.BindException: Address already in use\n\tat x\n", "s.log"),
                         "did not start: java.net.BindException: Address already in use (see s.log)")
        self.assertEqual(benchreport.start_failure("", "s.log"),
                         "did not start: it exited or did not answer /benchmark/health (see s.log)")


SEVEN_TARGETS = ["sprout-nio-platform", "sprout-nio-virtual", "sprout-hybrid-platform", "sprout-hybrid-virtual",
                 "tomcat-platform", "jetty-platform", "netty"]


class H2ReportTest(unittest.TestCase):

    @staticmethod
    def rounds():
        rows = []
        for number, target in enumerate(SEVEN_TARGETS):
            for load in ("h2-json-c16m10", "h2-hello-c64m100", "h2-hello-c16m10"):
                for round_number in (1, 2, 3):
                    rows.append({"target": target, "threads": "platform", "tool": "h2load", "status": "ok",
                                 "simulation": load, "round": round_number, "rps": 1000 * (number + 1) + round_number,
                                 "requests": 100, "ok": 100, "ko": 0, "p99_ms": 3.0, "mean_ms": 1.0, "errors": ""})
        rows.append({"target": "netty", "tool": "h2load", "status": "failed", "simulation": "h2-hello-c16m10",
                     "round": "4", "note": "no HTTP/2 connection (h2load reports no application protocol)"})
        rows.append({"target": "netty", "tool": "idle", "status": "ok", "simulation": "h2-idle", "requests": 2000,
                     "ok": 2000, "ko": 0, "sessions_open": 2000, "rss_growth_mb": 20.0, "rss_per_session_kb": 10.24,
                     "heap_per_session_kb": 5.5, "open_seconds": 4.0, "errors": "", "rss_loaded_kb": "307200",
                     "rss_after_kb": "327680"})
        return rows

    def test_tabulates_h2load_medians_by_endpoint_and_shape_with_ratios(self):
        rows = self.rounds()
        summary = benchreport.summarise_load(rows)
        table = benchreport.markdown(rows, summary)
        self.assertIn("### HTTP/2 throughput, h2load", table)
        self.assertNotIn("### wrk throughput", table)
        self.assertIn("| h2-hello-c16m10 | netty | 7,002 | 1.40 | 1.40 | 1.00 | – | 3.00 | – "
                      "| median of 3 (1 left out) |  "
                      "| ok |", table)
        self.assertLess(table.index("| h2-hello-c16m10 | sprout"), table.index("| h2-hello-c64m100 | sprout"))
        self.assertLess(table.index("| h2-hello-c64m100 | sprout"), table.index("| h2-json-c16m10 | sprout"))
        self.assertIn("- netty h2-hello-c16m10 round 4: failed: no HTTP/2 connection", table)
        self.assertIn("### Idle HTTP/2 connections", table)
        self.assertIn("| netty | 2,000 of 2,000 | 2,000 | 300.0 | 320.0 | 20.0 | 10.2 | 5.5 | 4.0 |  |", table)

    def test_charts_the_h2load_medians_and_the_memory_per_connection(self):
        rows = self.rounds()
        with tempfile.TemporaryDirectory() as directory:
            written = benchreport.charts(Path(directory), rows, benchreport.summarise_load(rows))
            self.assertEqual(written, ["h2load-throughput.svg", "h2-memory-per-connection.svg", "h2-rss.svg"])
            throughput = (Path(directory) / "h2load-throughput.svg").read_text()
            memory = (Path(directory) / "h2-memory-per-connection.svg").read_text()
            rss = (Path(directory) / "h2-rss.svg").read_text()
        self.assertIn("h2-hello-c64m100 / netty: 7002", throughput)
        self.assertIn("netty / RSS: 10.24", memory)
        self.assertIn("netty / live heap: 5.5", memory)
        self.assertIn("netty / after the load: 300", rss)
        self.assertIn("netty / 2,000 idle held: 320", rss)

    def test_orders_loads_by_endpoint_then_connections_and_streams(self):
        names = ["h2-json-c16m10", "h2-hello-c64m100", "h2-hello-c16m10", "h2-hello-c16m100"]
        self.assertEqual(sorted(names, key=benchreport.load_order),
                         ["h2-hello-c16m10", "h2-hello-c16m100", "h2-hello-c64m100", "h2-json-c16m10"])


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

    def test_every_one_of_all_the_targets_gets_a_legend_entry_and_a_paint_of_its_own(self):
        # All fourteen: the legend wraps into rows and the chart grows to hold them, each paint used by one target.
        targets = benchreport.TARGET_ORDER
        values = {("wrk-hello", target): 1000 + i for i, target in enumerate(targets)}
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / "chart.svg"
            benchreport.grouped_bars("wrk", "req/s", ["wrk-hello"], targets, values, path)
            svg = path.read_text()
        width, height = map(int, re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg).groups())
        legend = re.findall(r'<rect x="(\d+)" y="(\d+)" width="10" height="10" fill="([^"]+)"/>\s*<text [^>]*>([^<]+)<',
                            svg)
        self.assertEqual([name for *_, name in legend], targets)
        self.assertEqual(len({paint for _, _, paint, _ in legend}), len(targets))
        self.assertGreater(len({y for _, y, _, _ in legend}), 1)
        for x, y, _, name in legend:
            self.assertLessEqual(int(x) + 14 + 7 * len(name), width, name)
            self.assertLessEqual(int(y) + 10, height, name)
        bars = dict(re.findall(r'fill="([^"]+)"><title>wrk-hello / ([^:]+):', svg))
        self.assertEqual({paint for _, _, paint, _ in legend}, set(bars))
        for name in benchreport.HATCHED:
            self.assertIn(f'<pattern id="hatch-{name}"', svg)

    def test_targets_painted_alike_differ_clearly_in_colour(self):
        # Solid or hatched, two targets of the same fill style are at least 25 CIE76 units apart (about the
        # difference between two named colours; ~2 is the smallest the eye sees side by side).
        for style in (set(benchreport.TARGET_ORDER) - benchreport.HATCHED, benchreport.HATCHED):
            colours = {name: benchreport.colour_of(name, 0) for name in style}
            for a in colours:
                for b in colours:
                    if a < b:
                        self.assertGreaterEqual(delta_e(colours[a], colours[b]), 25, (a, b))

    def test_a_target_keeps_its_colour_whichever_targets_share_the_chart(self):
        self.assertEqual(benchreport.colour_of("netty", 0), benchreport.colour_of("netty", 5))
        self.assertNotEqual(benchreport.colour_of("p50", 0), benchreport.colour_of("p95", 1))

    def test_no_two_targets_share_a_colour(self):
        colours = [benchreport.colour_of(name, 0) for name in benchreport.TARGET_ORDER]
        self.assertEqual(len(set(colours)), len(benchreport.TARGET_ORDER))

    def test_the_webflux_comparison_lists_each_target_once_after_the_references(self):
        # compare.sh's webflux preset: the four Sprout-on-WebFlux targets, netty, and two Spring MVC references.
        preset = ["sprout-webflux-nio-platform", "sprout-webflux-nio-virtual", "sprout-webflux-hybrid-platform",
                  "sprout-webflux-hybrid-virtual", "netty", "sprout-nio-platform", "tomcat-platform"]
        targets = sorted(preset, key=benchreport.target_order)
        self.assertEqual(targets, ["sprout-nio-platform", "tomcat-platform", "netty", "sprout-webflux-nio-platform",
                                   "sprout-webflux-nio-virtual", "sprout-webflux-hybrid-platform",
                                   "sprout-webflux-hybrid-virtual"])
        values = {("wrk-hello", target): 1000 for target in targets}
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / "chart.svg"
            benchreport.grouped_bars("wrk", "req/s", ["wrk-hello"], targets, values, path)
            svg = path.read_text()
        width = int(re.search(r'<svg [^>]*width="(\d+)"', svg).group(1))
        legend = re.findall(r'<rect x="(\d+)" y="\d+" width="10" height="10" fill="([^"]+)"/>\s*<text [^>]*>([^<]+)<',
                            svg)
        self.assertEqual([name for _, _, name in legend], targets)
        self.assertEqual(len({colour for _, colour, _ in legend}), len(targets))
        for x, _, name in legend:
            self.assertLessEqual(int(x) + 14 + 7 * len(name), width, name)


def delta_e(first, second):
    """CIE76 colour difference of two '#rrggbb' colours (sRGB, D65)."""
    def lab(colour):
        def linear(c):
            return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
        r, g, b = (linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
        x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
        return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])
    return sum((p - q) ** 2 for p, q in zip(lab(first), lab(second))) ** 0.5


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
                                           + ab_rows((50, 50, 50), (40, 60, 50), endpoint="json"),
                                           max_spread_percent="none")
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
                # 100 and 90 are 10.5 % apart: refused by default (the next test); the arithmetic is under test here.
                self.assertEqual(benchreport.ab_command(run_dir, {"max_spread_percent": "none"}), 0)
            results = (run_dir / "results.md").read_text()
            self.assertTrue(results.startswith("## A/B run"))
            self.assertIn("| sprout-nio-platform | /hello | 100, 90 | 110, 99 | 95 | 104 | **1.100** | 1.100, 1.100 |",
                          results)
            with open(run_dir / "results.csv") as csv_file:
                medians = [line for line in csv_file if ",median," in line]
            self.assertEqual(len(medians), 2)
            (run_dir / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ab_rows((100, None), (110, 99))))
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(benchreport.ab_command(run_dir, {}), 1)
            self.assertIn("- sprout-nio-platform, old, round 2: failed: not ready", (run_dir / "results.md").read_text())

    def test_a_comparison_whose_rounds_disagree_is_refused_with_the_reason_in_its_ratio_cell(self):
        with tempfile.TemporaryDirectory() as directory:
            run_dir = Path(directory)
            (run_dir / "machine.md").write_text("## A/B run\n")
            (run_dir / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ab_rows((100, 90), (110, 99))))
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(benchreport.ab_command(run_dir, {}), 3)
            results = (run_dir / "results.md").read_text()
        self.assertIn("| 95 | 104 | **refused**: old: rounds disagree", results)
        self.assertNotIn("***", results)


if __name__ == "__main__":
    unittest.main()
