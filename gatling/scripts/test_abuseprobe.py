"""Tests of what the abuse harness reads from /proc: python3 -B -m unittest discover -s gatling/scripts"""

import tempfile
import unittest
from pathlib import Path

import abuseprobe


class TcpMemoryTest(unittest.TestCase):

    def test_reads_the_tcp_lines_memory_pages_in_kib(self):
        with tempfile.TemporaryDirectory() as temp:
            sockstat = Path(temp) / "sockstat"
            sockstat.write_text("sockets: used 180\n"
                                "TCP: inuse 9 orphan 0 tw 3 alloc 12 mem 64342\n"
                                "UDP: inuse 0 mem 7\n")
            self.assertEqual(abuseprobe.tcp_memory_kib(str(sockstat)), 64342 * abuseprobe.PAGE_KIB)

    def test_has_no_value_without_the_file_or_the_line(self):
        with tempfile.TemporaryDirectory() as temp:
            sockstat = Path(temp) / "sockstat"
            self.assertIsNone(abuseprobe.tcp_memory_kib(str(sockstat)))
            sockstat.write_text("UDP: inuse 0 mem 7\n")
            self.assertIsNone(abuseprobe.tcp_memory_kib(str(sockstat)))

    def test_reads_this_machine(self):
        self.assertIsNotNone(abuseprobe.tcp_memory_kib(), "Linux has /proc/net/sockstat")


if __name__ == "__main__":
    unittest.main()
