"""Tests of the abuse harness's raw HTTP client: the response reader fed whole, byte by byte and split at every
index, and one exchange over a real loopback socket per way a server can answer."""

import asyncio
import socket
import threading
import unittest

import abusenet

HELLO = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!"
CHUNKED = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nHello\r\n8\r\n, World!\r\n0\r\n\r\n"
TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"


def feed_split(payload, index):
    reader = abusenet.ResponseReader()
    reader.feed(payload[:index])
    reader.feed(payload[index:])
    return reader


class ResponseReaderTest(unittest.TestCase):

    def test_completes_a_content_length_response_however_it_is_split(self):
        for index in range(len(HELLO) + 1):
            reader = feed_split(HELLO, index)
            self.assertEqual((reader.status, reader.completed, reader.complete), (200, 1, True), f"split at {index}")

    def test_completes_a_chunked_response_however_it_is_split(self):
        for index in range(len(CHUNKED) + 1):
            reader = feed_split(CHUNKED, index)
            self.assertEqual((reader.status, reader.completed), (200, 1), f"split at {index}")

    def test_knows_the_status_before_the_head_is_complete(self):
        reader = abusenet.ResponseReader()
        for byte in TIMEOUT[:TIMEOUT.index(b"\r\n") + 2]:
            reader.feed(bytes([byte]))
        self.assertEqual(reader.status, 408)
        self.assertFalse(reader.complete)

    def test_counts_pipelined_responses_one_after_the_other(self):
        reader = abusenet.ResponseReader()
        payload = HELLO + CHUNKED + TIMEOUT
        for byte in payload:
            reader.feed(bytes([byte]))
        self.assertEqual((reader.completed, reader.status, reader.bytes), (3, 408, len(payload)))

    def test_incomplete_body_is_not_complete(self):
        reader = feed_split(HELLO[:-1], 0)
        self.assertEqual((reader.status, reader.completed, reader.complete), (200, 0, False))


class CannedServer:
    """A loopback server that reads one request head and then does `behaviour` (answer bytes, or close)."""

    def __init__(self, answer):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.answer = answer
        self.peers = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        connection, peer = self.listener.accept()
        self.peers.append(peer[0])
        with connection:
            head = b""
            while b"\r\n\r\n" not in head:
                data = connection.recv(4096)
                if not data:
                    return
                head += data
            if self.answer:
                connection.sendall(self.answer)

    def close(self):
        self.thread.join(5)
        self.listener.close()


class ExchangeTest(unittest.TestCase):

    def exchange(self, answer):
        server = CannedServer(answer)
        try:
            outcome, sock = asyncio.run(abusenet.exchange(server.port, "127.0.0.3", abusenet.request("GET", "/"), 5.0))
        finally:
            server.close()
        self.assertIsNone(sock)
        self.assertEqual(server.peers, ["127.0.0.3"])
        return outcome

    def test_reports_the_status_of_a_complete_response_from_the_chosen_source_address(self):
        self.assertEqual(self.exchange(HELLO), "200")
        self.assertEqual(self.exchange(TIMEOUT), "408")

    def test_reports_a_close_without_an_answer(self):
        self.assertEqual(self.exchange(b""), "closed")

    def test_reports_a_refused_connection(self):
        listener = socket.create_server(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        listener.close()
        outcome, _ = asyncio.run(abusenet.exchange(port, "127.0.0.2", abusenet.request("GET", "/"), 5.0))
        self.assertEqual(outcome, "refused")

    def test_source_addresses_go_round_and_refuse_to_leave_loopback_slash_24(self):
        sources = abusenet.SourceAddresses(3)
        self.assertEqual([sources.next() for _ in range(4)], ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.2"])
        with self.assertRaises(ValueError):
            abusenet.SourceAddresses(300)


if __name__ == "__main__":
    unittest.main()
