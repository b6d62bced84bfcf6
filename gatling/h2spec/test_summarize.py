"""Tests of the h2spec summary: python3 -m unittest discover -s gatling/h2spec"""

import contextlib
import io
import shutil
import tempfile
import unittest
from pathlib import Path

import summarize

# A cut-down h2spec 2.2.1 JUnit report in its own layout: failures filed as <error>, cases numbered by position.
FIXTURE = Path(__file__).parent / "fixtures" / "jetty-tls.xml"


class ParseTest(unittest.TestCase):

    def test_numbers_cases_by_their_position_in_the_group_as_h2spec_does(self):
        cases = summarize.parse_cases(FIXTURE.read_text())
        self.assertEqual(["generic/2/1", "generic/2/2", "generic/2/3", "generic/2/4", "generic/2/5",
                          "http2/6.9.2/1", "http2/6.9.2/2", "http2/6.9.2/3"], [case.id for case in cases])

    def test_counts_errors_as_failed_and_keeps_skipped(self):
        outcomes = [case.outcome for case in summarize.parse_cases(FIXTURE.read_text())]
        self.assertEqual(["failed", "passed", "passed", "failed", "passed", "passed", "skipped", "passed"], outcomes)

    def test_keeps_what_h2spec_expected_and_saw_on_one_line(self):
        case = summarize.parse_cases(FIXTURE.read_text())[3]
        self.assertEqual("Sends a RST_STREAM frame on half-closed (remote) stream", case.description)
        self.assertEqual("Connection closed Timeout", case.detail)

    def test_reads_the_raw_payload_bytes_h2spec_writes_unescaped(self):
        report = ('<testsuites><testsuite package="http2/6.7"><testcase classname="Sends a PING frame">'
                  '<error>PING Frame (opaque_data:h2spec\x00\x00)</error></testcase></testsuite></testsuites>')
        case = summarize.parse_cases(report)[0]
        self.assertEqual(("http2/6.7/1", "failed"), (case.id, case.outcome))
        self.assertEqual("PING Frame (opaque_data:h2spec\\x00\\x00)", case.detail)


class RunNameTest(unittest.TestCase):

    def test_splits_target_and_transport(self):
        self.assertEqual(("hybrid-virtual", "tls"), summarize.parse_name("hybrid-virtual-tls"))
        self.assertEqual(("tomcat", "h2c"), summarize.parse_name("tomcat-h2c"))

    def test_rejects_an_unknown_transport(self):
        with self.assertRaises(ValueError):
            summarize.parse_name("tomcat-h3")


def exit_status(*argv):
    with contextlib.redirect_stdout(io.StringIO()):
        return summarize.main(["summarize.py", *argv])


class RenderTest(unittest.TestCase):

    def setUp(self):
        self.reports = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.reports)
        shutil.copy(FIXTURE, self.reports / "jetty-tls.xml")

    def test_counts_every_run_and_lists_the_failed_cases(self):
        (self.reports / "nio-platform-h2c.error").write_text("the server did not start\n")
        page = summarize.render(summarize.load(str(self.reports)), "2026-01-01", "host")
        self.assertIn("| nio-platform | h2c | - | - | - | not run: the server did not start |", page)
        self.assertIn("| jetty | tls | 5 | 2 | 1 | 8 |", page)
        self.assertIn("## jetty tls: 2 failed", page)
        self.assertIn("- `generic/2/4` Sends a RST_STREAM frame on half-closed (remote) stream: Connection closed "
                      "Timeout", page)
        self.assertNotIn("`generic/2/2`", page)
        self.assertLess(page.index("| nio-platform |"), page.index("| jetty |"))

    def test_fails_only_for_sprout_targets(self):
        self.assertEqual(0, exit_status(str(self.reports)))
        shutil.copy(FIXTURE, self.reports / "hybrid-virtual-h2c.xml")
        self.assertEqual(1, exit_status(str(self.reports)))

    def test_fails_for_a_sprout_target_that_did_not_run(self):
        (self.reports / "nio-virtual-tls.error").write_text("h2spec wrote no report\n")
        self.assertEqual(1, exit_status(str(self.reports)))

    def test_reads_only_the_runs_named(self):
        shutil.copy(FIXTURE, self.reports / "hybrid-virtual-h2c.xml")
        self.assertEqual(0, exit_status(str(self.reports), "jetty-tls"))
        self.assertEqual(1, exit_status(str(self.reports), "nio-platform-h2c"))


if __name__ == "__main__":
    unittest.main()
