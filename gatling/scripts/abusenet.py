"""Raw loopback sockets for the abuse harness (Python 3 standard library only): connecting from one of several
127.0.0.x source addresses, aborting with a reset, and reading just enough of an HTTP/1.1 response to know its status
and where it ends. The attacks need byte-level control (a head trickled one byte at a time, a body at one byte per
second, a receive window of a few KiB), which no HTTP client library offers.
"""

import asyncio
import errno
import itertools
import signal
import socket
import struct

# Linux: bind() to a source address without reserving a port until connect(), so the port is chosen per 4-tuple and
# each source address offers the whole ephemeral range to every destination (not defined by Python's socket module).
IP_BIND_ADDRESS_NO_PORT = 24
SERVER_ADDRESS = "127.0.0.1"


class SourceAddresses:
    """Round-robin over 127.0.0.2 .. 127.0.0.(1 + count): 28,000 ephemeral ports per address are not enough for a
    20,000-connection flood next to the TIME_WAIT sockets of earlier phases."""

    def __init__(self, count, first=2):
        if not 1 <= count <= 250 or not 2 <= first <= 254 - count:
            raise ValueError(f"source addresses: count {count} from 127.0.0.{first} does not fit in 127.0.0.0/24")
        self.count = count
        self._cycle = itertools.cycle([f"127.0.0.{first + i}" for i in range(count)])

    def next(self):
        return next(self._cycle)


async def connect(port, source, timeout, receive_buffer=None):
    """A non-blocking socket connected from `source` to the server, or an OSError / asyncio.TimeoutError."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    try:
        sock.setsockopt(socket.SOL_IP, IP_BIND_ADDRESS_NO_PORT, 1)
        if receive_buffer:
            # Before connect(), so the advertised window is small from the handshake on.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((source, 0))
        await asyncio.wait_for(loop.sock_connect(sock, (SERVER_ADDRESS, port)), timeout)
    except BaseException:
        abort(sock)
        raise
    return sock


def abort(sock):
    """Closes with a reset (SO_LINGER 0): no TIME_WAIT left on the client, and the server sees an abrupt peer."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass  # already closed or never connected: close() below is all that is left to do
    sock.close()


def failure_kind(error):
    """A short name for why a connection or an exchange failed, for the counters of the report."""
    if isinstance(error, (asyncio.TimeoutError, TimeoutError)):
        return "timeout"
    if isinstance(error, ConnectionRefusedError):
        return "refused"
    if isinstance(error, (ConnectionResetError, BrokenPipeError)):
        return "reset"
    if isinstance(error, OSError) and error.errno == errno.EADDRNOTAVAIL:
        return "no-port"
    if isinstance(error, OSError) and error.errno in (errno.EMFILE, errno.ENFILE):
        return "client-fds"
    return type(error).__name__


def request(method, path, headers=(), keep_alive=True):
    """The bytes of a request head."""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"] + list(headers)
    if not keep_alive:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii")


class ResponseReader:
    """Incremental reader of HTTP/1.1 responses on one connection: feed() bytes as they arrive; `status` is known
    once the status line is complete, `complete` once the message ends (Content-Length, chunked, or no body).
    Pipelined responses are counted one after the other."""

    def __init__(self):
        self._buffer = b""
        self._remaining = None  # body bytes still expected; None while reading a head
        self._chunked = False
        self.status = None
        self.completed = 0
        self.bytes = 0

    @property
    def complete(self):
        return self.completed > 0 and self._remaining is None and not self._buffer

    def feed(self, data):
        self.bytes += len(data)
        self._buffer += data
        while self._step():
            pass

    def _step(self):
        if self._remaining is None:
            line_end = self._buffer.find(b"\r\n")
            if line_end > 0 and self._buffer.startswith(b"HTTP/"):
                parts = self._buffer[:line_end].split(b" ")
                if len(parts) >= 2 and parts[1].isdigit():
                    self.status = int(parts[1])
            end = self._buffer.find(b"\r\n\r\n")
            if end < 0:
                return False
            head = self._buffer[:end].decode("latin-1").lower()
            self._buffer = self._buffer[end + 4:]
            self._chunked = "transfer-encoding: chunked" in head
            length = 0
            for line in head.split("\r\n")[1:]:
                name, _, value = line.partition(":")
                if name.strip() == "content-length":
                    length = int(value.strip())
            if self.status in (204, 304) or 100 <= (self.status or 0) < 200:
                length = 0
            self._remaining = -1 if self._chunked else length
            return True
        if self._chunked:
            end = self._buffer.find(b"0\r\n\r\n")
            if end < 0:
                # Keep only what a terminator split across reads needs.
                self._buffer = self._buffer[-4:]
                return False
            self._buffer = self._buffer[end + 5:]
            return self._finish()
        taken = min(self._remaining, len(self._buffer))
        self._buffer = self._buffer[taken:]
        self._remaining -= taken
        return self._finish() if self._remaining == 0 else False

    def _finish(self):
        self.completed += 1
        self._remaining = None
        return True


async def exchange(port, source, payload, timeout, keep_alive=False):
    """One request on a new connection: (outcome, socket or None). The outcome is the status code as text
    ("200", "503", ...) once the response is complete, or why there was none ("timeout", "refused", "closed",
    "reset"). With keep_alive the open socket is returned for the caller to hold; otherwise it is closed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    try:
        sock = await connect(port, source, timeout)
    except (OSError, asyncio.TimeoutError) as error:
        return failure_kind(error), None
    reader = ResponseReader()
    try:
        await asyncio.wait_for(loop.sock_sendall(sock, payload), max(0.001, deadline - loop.time()))
        while not reader.complete:
            data = await asyncio.wait_for(loop.sock_recv(sock, 65536), max(0.001, deadline - loop.time()))
            if not data:
                outcome = str(reader.status) if reader.status else "closed"
                abort(sock)
                return outcome, None
            reader.feed(data)
    except (OSError, asyncio.TimeoutError) as error:
        abort(sock)
        return failure_kind(error), None
    if keep_alive:
        return str(reader.status), sock
    sock.close()
    return str(reader.status), None


async def watch_until_closed(sock, deadline):
    """Waits for the server to answer or end a connection: (outcome, seconds waited), where the outcome is the
    status code of the first response line that arrives ("408"), "closed" or "reset" if the connection ends without
    one, or "open" at the deadline. Returns as soon as a status line is complete: when the server answered is what
    counts, not when it closed afterwards."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    reader = ResponseReader()
    while True:
        left = deadline - loop.time()
        if left <= 0:
            return "open", loop.time() - start
        try:
            data = await asyncio.wait_for(loop.sock_recv(sock, 65536), left)
        except asyncio.TimeoutError:
            return "open", loop.time() - start
        except OSError as error:
            return failure_kind(error), loop.time() - start
        if not data:
            return (str(reader.status) if reader.status else "closed"), loop.time() - start
        reader.feed(data)
        if reader.status:
            return str(reader.status), loop.time() - start


async def paced(rate, seconds, output, start_one):
    """Starts `start_one(out, due)` `rate` times a second for `seconds` (an open model: a slow answer never delays
    the next request), until SIGTERM; waits for those in flight; `out` is `output` opened for appending."""
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stopping.set)
    interval = 1.0 / rate
    pending = set()
    with open(output, "a", encoding="ascii") as out:
        begin = loop.time()
        sent = 0
        while sent * interval < seconds and not stopping.is_set():
            due = begin + sent * interval
            if due > loop.time():
                await asyncio.sleep(due - loop.time())
            if stopping.is_set():
                break
            task = loop.create_task(start_one(out, due))
            pending.add(task)
            task.add_done_callback(pending.discard)
            sent += 1
        if pending:
            await asyncio.wait(pending)
