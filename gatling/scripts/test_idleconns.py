"""Tests of idleconns.py's HTTP/1.1 side over real loopback sockets: a connection opened and answered under each
framing, refused answers, pings answered while held, and one whole run against a small keep-alive server."""

import contextlib
import io
import os
import socket
import threading
import unittest

import idleconns

HELLO = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHello"
CHUNKED = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nHello\r\n0\r\n\r\n"
NOT_FOUND = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
TIMEOUT_SECONDS = 5


class KeepAliveServer:
    """Answers every request head on every connection with `answer`; `close_after` requests, it closes."""

    def __init__(self, answer, close_after=None):
        self.answer, self.close_after = answer, close_after
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.requests = 0
        self.lock = threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(connection,), daemon=True).start()

    def serve(self, connection):
        with connection:
            received, answered = b"", 0
            while True:
                try:
                    data = connection.recv(4096)
                except OSError:
                    return
                if not data:
                    return
                received += data
                while b"\r\n\r\n" in received:
                    _, _, received = received.partition(b"\r\n\r\n")
                    with self.lock:
                        self.requests += 1
                    connection.sendall(self.answer)
                    answered += 1
                    if self.close_after is not None and answered >= self.close_after:
                        return

    def close(self):
        self.listener.close()


class H1ConnectionTest(unittest.TestCase):

    def connect(self, answer, close_after=None):
        server = KeepAliveServer(answer, close_after)
        self.addCleanup(server.close)
        return server, idleconns.H1Connection("127.0.0.1", server.port, "/hello", None, TIMEOUT_SECONDS)

    def test_opens_on_a_content_length_answer_and_on_a_chunked_one(self):
        for answer in (HELLO, CHUNKED):
            server, connection = self.connect(answer)
            self.assertTrue(connection.on_readable(), answer)
            connection.close()

    def test_refuses_an_answer_that_is_not_200(self):
        server = KeepAliveServer(NOT_FOUND)
        self.addCleanup(server.close)
        with self.assertRaisesRegex(ConnectionError, "status 404"):
            idleconns.H1Connection("127.0.0.1", server.port, "/hello", None, TIMEOUT_SECONDS)

    def test_a_ping_is_one_more_request_on_the_same_connection(self):
        server, connection = self.connect(HELLO)
        opened_at = connection.last_ping
        self.assertTrue(connection.ping_if_due(opened_at + 1, 15), "not due yet: nothing sent, still open")
        self.assertTrue(connection.ping_if_due(opened_at + 15, 15))
        connection.sock.setblocking(True)
        self.assertEqual(connection.sock.recv(4096), HELLO)
        self.assertEqual(server.requests, 2)
        connection.close()

    def test_notices_the_server_closing_while_held(self):
        server, connection = self.connect(HELLO, close_after=1)
        connection.sock.setblocking(True)
        self.assertEqual(connection.sock.recv(4096), b"", "the server closes after its answer")
        connection.sock.setblocking(False)
        self.assertFalse(connection.on_readable())
        connection.close()


class RunTest(unittest.TestCase):

    def test_holds_every_connection_and_reports_one_result_line(self):
        server = KeepAliveServer(HELLO)
        self.addCleanup(server.close)
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            status = idleconns.main(["--protocol", "h1", "--port", str(server.port), "--pid", str(os.getpid()),
                                     "--connections", "20", "--settle", "0.1"])
        self.assertEqual(status, 0)
        start, line = out.getvalue().strip().split("\n")
        self.assertRegex(start, r"^idle-start protocol=h1 connections=20 rss_loaded_kb=\d+$")
        self.assertRegex(line, r"^idle protocol=h1 connections=20 opened=20 open=20 closed_by_server=0 "
                               r"rss_loaded_kb=\d+ rss_before_kb=\d+ rss_after_kb=\d+ heap_before_kb= heap_after_kb= "
                               r"open_seconds=[\d.]+ error=$")

    def test_counts_a_refused_server_as_nothing_opened(self):
        with socket.socket() as unused:  # bound, never listening: every connection is refused
            unused.bind(("127.0.0.1", 0))
            port = unused.getsockname()[1]
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                status = idleconns.main(["--protocol", "h1", "--port", str(port), "--pid", str(os.getpid()),
                                         "--connections", "30", "--settle", "0"])
        self.assertEqual(status, 1)
        self.assertIn("opened=0", out.getvalue())
        self.assertIn("gave up after 20 failures in a row", out.getvalue())


if __name__ == "__main__":
    unittest.main()
