"""Tests of the Autobahn summary: python3 -m unittest discover -s gatling/autobahn"""

import json
import tempfile
import unittest
from pathlib import Path

import summarize

DEFAULT = {"text": 65536, "binary": 65536}
RAISED = {"text": 16 * 1024 * 1024, "binary": 16 * 1024 * 1024}
FAILED_TWICE = {"behavior": "FAILED", "behaviorClose": "FAILED"}
SERVER_CLOSED = {"closedByMe": False}


def case(code, **results):
    return dict(FAILED_TWICE, remoteCloseCode=code, **results)


class MessageTest(unittest.TestCase):

    def test_reads_the_size_cases_off_the_suite(self):
        self.assertEqual(("text", 16 * 1024 * 1024), summarize.message("9.1.6"))
        self.assertEqual(("binary", 256 * 1024), summarize.message("9.2.2"))
        self.assertEqual(("binary", 4 * 1024 * 1024), summarize.message("9.4.9"))
        self.assertEqual(("text", 65536), summarize.message("10.1.1"))
        self.assertEqual(("binary", 65535), summarize.message("1.2.6"))

    def test_knows_which_compression_data_is_binary(self):
        self.assertEqual(("text", 131072), summarize.message("12.1.10"))
        self.assertEqual(("binary", 131072), summarize.message("12.2.18"))
        self.assertEqual(("text", 16), summarize.message("13.7.1"))

    def test_has_no_size_for_small_cases(self):
        self.assertIsNone(summarize.message("2.5"))
        self.assertIsNone(summarize.message("9.7.6"))


class OutcomeTest(unittest.TestCase):

    def test_counts_1009_over_the_limit_as_limit(self):
        self.assertEqual("LIMIT 1009", summarize.outcome("9.1.2", case(1009), SERVER_CLOSED, DEFAULT))

    def test_counts_1009_under_the_limit_as_failed(self):
        self.assertEqual("FAILED", summarize.outcome("9.1.6", case(1009), SERVER_CLOSED, RAISED))

    def test_counts_1011_over_the_limit_as_failed(self):
        self.assertEqual("FAILED", summarize.outcome("9.1.2", case(1011), SERVER_CLOSED, DEFAULT))

    def test_counts_1009_as_failed_when_the_client_closed_first(self):
        self.assertEqual("FAILED", summarize.outcome("9.1.2", case(1009), {"closedByMe": True}, DEFAULT))

    def test_counts_1009_as_failed_without_known_limits_or_size(self):
        self.assertEqual("FAILED", summarize.outcome("9.1.2", case(1009), SERVER_CLOSED, None))
        self.assertEqual("FAILED", summarize.outcome("2.5", case(1009), SERVER_CLOSED, DEFAULT))

    def test_counts_other_suite_verdicts_as_failed(self):
        wrong_code = {"behavior": "OK", "behaviorClose": "WRONG CODE", "remoteCloseCode": 1011}
        self.assertEqual("FAILED", summarize.outcome("2.5", wrong_code, SERVER_CLOSED, DEFAULT))

    def test_keeps_informational_even_over_the_limit(self):
        informational = {"behavior": "INFORMATIONAL", "behaviorClose": "INFORMATIONAL", "remoteCloseCode": 1009}
        self.assertEqual("INFORMATIONAL", summarize.outcome("7.1.6", informational, SERVER_CLOSED, DEFAULT))


class RenderTest(unittest.TestCase):

    def test_counts_and_lists_every_run_found(self):
        with tempfile.TemporaryDirectory() as reports:
            run = Path(reports, "default-limits", "nio-platform")
            run.mkdir(parents=True)
            index = {"1.1.1": {"behavior": "OK", "behaviorClose": "OK", "remoteCloseCode": 1000, "reportfile": "a.json"},
                     "9.1.2": dict(case(1009), reportfile="b.json"),
                     "9.2.2": dict(case(1011), reportfile="c.json")}
            (run / "index.json").write_text(json.dumps({"default-limits-nio-platform": index}))
            for name in ("a.json", "b.json", "c.json"):
                (run / name).write_text(json.dumps(dict(SERVER_CLOSED, result="Did not receive message.",
                                                        resultClose="Failed by the wrong endpoint.")))
            Path(reports, "default-limits", "nio-platform-limits.json").write_text(json.dumps(DEFAULT))

            page = summarize.render(summarize.load(reports), "2026-01-01", "host")

        self.assertIn("| default-limits | nio-platform | 3 | 1 | 0 | 0 | 0 | 1 | 1 |", page)
        self.assertIn("- 9.1.2 LIMIT 1009 (nio-platform): message text, 256 KiB over the 64 KiB limit; server "
                      "closed first, server's code 1009", page)
        self.assertIn("- 9.2.2 FAILED (nio-platform):", page)
        self.assertNotIn("- 1.1.1 ", page)

    def test_lists_the_webflux_target_after_the_spring_mvc_ones_and_netty_after_sprout(self):
        ok = {"1.1.1": {"behavior": "OK", "behaviorClose": "OK", "remoteCloseCode": 1000}}
        with tempfile.TemporaryDirectory() as reports:
            for target, combination in (("reactive", "netty"), ("reactive", "hybrid-virtual"), ("spring", "tomcat")):
                run = Path(reports, target, combination)
                run.mkdir(parents=True)
                (run / "index.json").write_text(json.dumps({f"{target}-{combination}": ok}))
            page = summarize.render(summarize.load(reports), "2026-01-01", "host")
        rows = [line for line in page.splitlines() if line.startswith("| ") and " | 1 | 1 | " in line]
        self.assertEqual([row.split(" | ")[:2] for row in rows],
                         [["| spring", "tomcat"], ["| reactive", "hybrid-virtual"], ["| reactive", "netty"]])
        self.assertIn("- `reactive`: a Spring WebFlux `WebSocketHandler` echo", page)
        self.assertIn("### reactive\n\nEvery case is OK in every combination.", page)


if __name__ == "__main__":
    unittest.main()
