"""Tests of the runners' bash plumbing, without a server: fake tools on PATH, run through bench-lib.sh's functions
that run them and record their rows (python3 -m unittest discover -s gatling/scripts). Each test takes about a second."""

import json
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from test_benchreport import WRK

SCRIPTS = Path(__file__).parent
BENCH_LIB = SCRIPTS / "bench-lib.sh"


class Plumbing:
    """A temporary directory with a bin/ of fake tools first on PATH, and bash sourcing bench-lib.sh as a runner
    does (REPORT, ROWS, no pinning, a short load sample)."""

    def __init__(self, directory):
        self.dir = Path(directory)
        self.bin = self.dir / "bin"
        self.bin.mkdir()
        self.rows = self.dir / "rows.jsonl"

    def fake(self, name, script):
        tool = self.bin / name
        tool.write_text("#!/usr/bin/env bash\n" + script)
        tool.chmod(0o755)

    def bash(self, script, max_load="0.5"):
        prelude = (f'. "{BENCH_LIB}"\nSTART_EPOCH=$(date +%s)\nREPORT="{SCRIPTS / "benchreport.py"}"\n'
                   f'ROWS="{self.rows}"\nON_LOAD_CPU=()\nMAX_LOAD={max_load}\nLOAD_SAMPLE_SECONDS=0.1\n')
        env = dict(os.environ, PATH=f"{self.bin}:{os.environ['PATH']}")
        return subprocess.run(["bash", "-c", prelude + script], capture_output=True, text=True, env=env, timeout=30,
                              cwd=self.dir)

    def rows_written(self):
        return [json.loads(line) for line in self.rows.read_text().splitlines()]


class RecordedExitStatusTest(unittest.TestCase):

    def setUp(self):
        self.temp = tempfile.TemporaryDirectory()
        self.plumbing = Plumbing(self.temp.name)
        (self.plumbing.dir / "wrk-output.txt").write_text(WRK)

    def tearDown(self):
        self.temp.cleanup()

    def measure_with_wrk(self, max_load="0.5"):
        return self.plumbing.bash('sample_load\nrun_wrk 50 1 wrk.log --latency http://127.0.0.1:1/benchmark/hello\n'
                                  'record wrk wrk.log target=netty simulation=wrk-hello round=1 "${MEASURED[@]}"',
                                  max_load)

    def test_a_wrk_that_exits_1_fails_its_row_though_its_output_has_numbers(self):
        self.plumbing.fake("wrk", 'cat wrk-output.txt\nexit 1\n')
        result = self.measure_with_wrk(max_load="none")
        (row,) = self.plumbing.rows_written()
        self.assertEqual((row["status"], row["exit_status"], row["requests"]), ("failed", "1", 37497))
        self.assertEqual(row["note"], "wrk exited with status 1")
        self.assertIn("-> failed: wrk exited with status 1", result.stdout)

    def test_a_wrk_that_exits_0_on_a_quiet_enough_machine_is_ok(self):
        self.plumbing.fake("wrk", 'cat wrk-output.txt\n')
        # MAX_LOAD 64: whatever else this machine runs while the tests do, it is not refused for it here.
        self.measure_with_wrk(max_load="64")
        (row,) = self.plumbing.rows_written()
        self.assertEqual((row["status"], row["exit_status"], row["limit"]), ("ok", "0", "31"))
        self.assertGreaterEqual(float(row["load_before"]), 0.0)

    def test_a_busy_machine_refuses_the_row(self):
        self.plumbing.fake("wrk", 'cat wrk-output.txt\n')
        # Nothing is ever quieter than -1 busy CPUs.
        self.measure_with_wrk(max_load="-1")
        (row,) = self.plumbing.rows_written()
        self.assertEqual(row["status"], "refused")
        self.assertTrue(row["note"].startswith("the machine was busy before it: load "))

    def test_a_pinned_run_records_how_busy_the_servers_cpu_and_the_load_generators_were(self):
        self.plumbing.fake("wrk", 'cat wrk-output.txt\n')
        # Pinned as compare.sh pins (a taskset prefix), with both roles on CPU 0, which every machine has.
        self.plumbing.bash('ON_LOAD_CPU=(env)\nSERVER_CPU=0\nLOAD_CPU=0\n'
                           'run_wrk 50 1 wrk.log http://127.0.0.1:1/benchmark/hello\n'
                           'record wrk wrk.log target=netty simulation=wrk-hello round=1 "${MEASURED[@]}"',
                           max_load="none")
        (row,) = self.plumbing.rows_written()
        self.assertNotIn("cpu_before", row)
        self.assertEqual(row["server_cpu_pct"], row["load_cpu_pct"])
        self.assertTrue(0 <= row["load_cpu_pct"] <= 100, row)

    def test_an_unpinned_run_records_no_cpu(self):
        self.plumbing.fake("wrk", 'cat wrk-output.txt\n')
        self.measure_with_wrk(max_load="none")
        (row,) = self.plumbing.rows_written()
        self.assertNotIn("load_cpu_pct", row)

    def measure_with_gatling(self, limit, before=""):
        """A fake Gatling that would run for 20 s, run as compare.sh runs Gatling; its one row."""
        self.plumbing.fake("gatling", 'sleep 20\n')
        self.plumbing.bash(f'{before}\nrun_measured {limit} gatling.log gatling\n'
                           'record gatling gatling.log target=netty simulation=HelloWorld "${MEASURED[@]}"')
        (row,) = self.plumbing.rows_written()
        return row

    def test_a_tool_past_its_limit_is_stopped_and_its_row_says_it_timed_out(self):
        row = self.measure_with_gatling(1)
        self.assertEqual((row["status"], row["exit_status"]), ("failed", "124"))
        self.assertIn("Gatling timed out: still running at its time limit of 1 s", row["note"])

    def test_a_tool_stopped_because_its_server_died_says_so(self):
        # The "server" dies after 0.3 s; run_child watches it.
        row = self.measure_with_gatling(30, before="sleep 0.3 & WATCH_PID=$!")
        self.assertEqual((row["status"], row["stopped_early"]), ("failed", "1"))
        self.assertIn("stopped early", row["note"])

    def test_a_status_row_is_valid_json_whatever_its_note_says(self):
        self.plumbing.bash('record_status tomcat-platform failed "answered as \\"nothing\\" \\\\ {odd}" side=old')
        (row,) = self.plumbing.rows_written()
        self.assertEqual((row["target"], row["server"], row["status"], row["side"], row["tool"]),
                         ("tomcat-platform", "tomcat", "failed", "old", "-"))
        self.assertEqual(row["note"], 'answered as "nothing" \\ {odd}')

    def test_an_identity_probe_that_curl_could_not_make_names_curls_exit_status(self):
        self.plumbing.fake("curl", 'exit 7\n')
        result = self.plumbing.bash('check_identity tomcat-platform 1 || echo "failed"')
        self.assertEqual(result.stdout.splitlines(),
                         ["answered as 'nothing', expected 'tomcat' (curl exited with status 7)", "failed"])


class BuildTargetsTest(unittest.TestCase):

    def test_a_target_whose_jar_cannot_be_built_is_skipped_with_a_row_per_attack(self):
        with tempfile.TemporaryDirectory() as directory:
            plumbing = Plumbing(directory)
            # A built Tomcat jar, and a tree without Sprout's starter, so nothing is built for real.
            jar = plumbing.dir / "sample-boot-app/target/tomcat/sample-boot-app-tomcat.jar"
            jar.parent.mkdir(parents=True)
            jar.touch()
            result = plumbing.bash(f'ROOT="{plumbing.dir}" SKIP_BUILD=1 RAW_DIR="{plumbing.dir}"\n'
                                   'TARGETS=(tomcat-platform sprout-nio-platform)\n'
                                   'build_targets attack idle flood\necho "runnable: ${RUNNABLE[*]}"')
            rows = plumbing.rows_written()
        self.assertEqual(result.stdout.splitlines()[-1], "runnable: tomcat-platform")
        self.assertEqual([(row["target"], row["status"], row["attack"]) for row in rows],
                         [("sprout-nio-platform", "skipped", "idle"), ("sprout-nio-platform", "skipped", "flood")])
        self.assertEqual(rows[0]["note"], "Sprout's starter (sprout-spring-boot-starter) has no sources yet")


class WebSocketArgumentsTest(unittest.TestCase):

    def test_broadcast_asks_gatling_to_collect_the_servers_heap_unless_told_not_to(self):
        with tempfile.TemporaryDirectory() as directory:
            plumbing = Plumbing(directory)
            result = plumbing.bash(f'. "{SCRIPTS / "websocket-lib.sh"}"\nJAVA_HOME=/jdk\n'
                                   'WS_COLLECT_HEAP=1; echo "[$(ws_heap_collection 42)]"\n'
                                   'WS_COLLECT_HEAP=0; echo "[$(ws_heap_collection 42)]"')
        self.assertEqual(result.stdout.splitlines(), ["[-DserverPid=42 -Djcmd=/jdk/bin/jcmd]", "[]"])


if __name__ == "__main__":
    unittest.main()
