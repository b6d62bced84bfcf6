"""Tests of allocreport.py: the allocation rate from heap summaries, wrk's figures, and the verdict of a row."""
import json
import os
import tempfile
import unittest

import allocreport


def summary(gc_id, when, seconds, used):
    return {"type": "jdk.GCHeapSummary", "values": {
        "gcId": gc_id, "when": when, "heapUsed": used,
        "startTime": "2026-11-26T05:00:%06.3fZ" % seconds}}


class AllocReportTest(unittest.TestCase):

    def test_allocation_counts_growth_between_collections_only(self):
        events = [summary(1, "Before GC", 1.0, 900), summary(1, "After GC", 1.1, 100),
                  summary(2, "Before GC", 2.1, 1100), summary(2, "After GC", 2.2, 150),
                  summary(3, "Before GC", 3.1, 1050)]

        rate, counted = allocreport.allocation_rate(events)

        # (1100 - 100) + (1050 - 150) bytes from 1.1 s to 3.1 s; the growth before the first collection is unknown.
        self.assertEqual(counted, 2)
        self.assertAlmostEqual(rate, 950)

    def test_no_rate_without_two_collections(self):
        self.assertEqual(allocreport.allocation_rate([summary(1, "Before GC", 1.0, 900)]), (None, 0))

    def test_wrk_errors_are_non_2xx_and_socket_errors(self):
        text = ("Requests/sec:  12345.67\n  Socket errors: connect 0, read 2, write 0, timeout 3\n"
                "  Non-2xx or 3xx responses: 4\n")

        self.assertEqual(allocreport.wrk_figures(text), (12345.67, 9))

    def test_a_row_fails_on_a_wrk_failure_or_errors(self):
        with tempfile.TemporaryDirectory() as directory:
            heap = os.path.join(directory, "heap.json")
            with open(heap, "w") as f:
                json.dump({"recording": {"events": [
                    summary(1, "After GC", 1.0, 0), summary(2, "Before GC", 2.0, 1000)]}}, f)
            wrk = os.path.join(directory, "wrk.log")
            with open(wrk, "w") as f:
                f.write("Requests/sec: 10.0\n")

            ok = allocreport.make_row(heap, wrk, ["target=t", "exit_status=0"])
            failed = allocreport.make_row(heap, wrk, ["target=t", "exit_status=124", "limit=50"])

        self.assertEqual(ok["status"], "ok")
        self.assertEqual(ok["bytes_per_request"], 100)
        self.assertEqual(failed["status"], "failed: wrk timed out: still running at its time limit of 50 s, stopped "
                                           "(exit status 124)")


if __name__ == "__main__":
    unittest.main()
