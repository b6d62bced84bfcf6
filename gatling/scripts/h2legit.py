"""The legitimate HTTP/2 client of the abuse harness's h2 rows: `GET /benchmark/hello` at a steady rate over one h2c
connection with prior knowledge, in its own process (like abuselegit.py, whose output format it shares), using the
`h2` library (PyPI, installed by gatling/h2tools.sh).

An open model on one connection: a request starts on a new stream every 1/rate seconds whether or not earlier ones
have finished, as a browser multiplexes. When the server ends the connection (GOAWAY, close, reset), every stream in
flight on it fails with that outcome and the next request opens a new connection, whose set-up counts in that
request's latency. One line per request, flushed as it completes:

    <start, epoch seconds> <milliseconds> <outcome> <lag, milliseconds>

where the outcome is "200" (or another status) once the response has ended, or why not: "timeout" (5 s),
"reset:CODE" (RST_STREAM), "goaway:CODE", "closed", "reset" or "refused" (the connection), "stream-limit" (the
server's SETTINGS_MAX_CONCURRENT_STREAMS were all in flight). Connections come from 127.0.0.251.
"""

import asyncio
import time

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions

import abusenet

SOURCE = "127.0.0.251"


class H2Client:
    """One h2c connection at a time from `source`, opened when needed; `get(path)` runs one request on a new stream
    and returns its outcome (see the module's text) and how many body bytes arrived."""

    def __init__(self, port, source=SOURCE, timeout=5.0):
        self.port = port
        self.source = source
        self.timeout = timeout
        self._sock = None
        self._conn = None
        self._pending = {}  # stream id -> (future of the outcome, [status, body bytes])
        self._reader = None
        self._connecting = None

    async def get(self, path):
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        try:
            await asyncio.wait_for(self._connected(), self.timeout)
        except (OSError, asyncio.TimeoutError) as error:
            return abusenet.failure_kind(error), 0
        conn = self._conn
        if conn is None:
            return "closed", 0  # lost again between the connect and this request
        try:
            stream = conn.get_next_available_stream_id()
            conn.send_headers(stream, [(":method", "GET"), (":scheme", "http"), (":path", path),
                                       (":authority", "127.0.0.1")], end_stream=True)
        except h2.exceptions.TooManyStreamsError:
            return "stream-limit", 0
        except h2.exceptions.ProtocolError:
            return "closed", 0  # the connection ended between the check and the request
        done = loop.create_future()
        state = [None, 0]
        self._pending[stream] = (done, state)
        try:
            await loop.sock_sendall(self._sock, conn.data_to_send())
            return await asyncio.wait_for(done, max(0.001, deadline - loop.time())), state[1]
        except asyncio.TimeoutError:
            self._pending.pop(stream, None)
            try:
                conn.reset_stream(stream)
                await loop.sock_sendall(self._sock, conn.data_to_send())
            except (h2.exceptions.ProtocolError, OSError):
                pass  # the stream or the connection is gone already: nothing left to cancel
            return "timeout", state[1]
        except OSError as error:
            self._lost(abusenet.failure_kind(error))
            return abusenet.failure_kind(error), state[1]

    async def _connected(self):
        if self._sock is not None:
            return
        if self._connecting is None:
            self._connecting = asyncio.get_running_loop().create_task(self._connect())
        try:
            await asyncio.shield(self._connecting)
        finally:
            if self._connecting is not None and self._connecting.done():
                self._connecting = None

    async def _connect(self):
        loop = asyncio.get_running_loop()
        sock = await abusenet.connect(self.port, self.source, self.timeout)
        conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="ascii"))
        conn.initiate_connection()
        try:
            await loop.sock_sendall(sock, conn.data_to_send())
        except OSError:
            abusenet.abort(sock)
            raise
        self._sock, self._conn = sock, conn
        self._reader = loop.create_task(self._read(sock, conn))

    async def _read(self, sock, conn):
        loop = asyncio.get_running_loop()
        while True:
            try:
                data = await loop.sock_recv(sock, 65536)
            except OSError as error:
                return self._lost(abusenet.failure_kind(error), sock)
            if not data:
                return self._lost("closed", sock)
            try:
                events = conn.receive_data(data)
            except h2.exceptions.ProtocolError as error:
                return self._lost("client-" + type(error).__name__, sock)
            for event in events:
                self._on(event, conn)
            outgoing = conn.data_to_send()
            try:
                if outgoing:
                    await loop.sock_sendall(sock, outgoing)
            except OSError as error:
                return self._lost(abusenet.failure_kind(error), sock)
            terminated = next((e for e in events if isinstance(e, h2.events.ConnectionTerminated)), None)
            if terminated:
                return self._lost("goaway:" + _name(terminated.error_code), sock)

    def _on(self, event, conn):
        if isinstance(event, h2.events.ResponseReceived):
            entry = self._pending.get(event.stream_id)
            if entry:
                entry[1][0] = dict(event.headers).get(":status", "?")
        elif isinstance(event, h2.events.DataReceived):
            conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            entry = self._pending.get(event.stream_id)
            if entry:
                entry[1][1] += len(event.data)
        elif isinstance(event, h2.events.StreamEnded):
            self._finish(event.stream_id, None)
        elif isinstance(event, h2.events.StreamReset):
            self._finish(event.stream_id, "reset:" + _name(event.error_code))

    def _finish(self, stream, outcome):
        entry = self._pending.pop(stream, None)
        if entry and not entry[0].done():
            entry[0].set_result(outcome or str(entry[1][0]))

    def _lost(self, outcome, sock=None):
        """The connection ended: every stream in flight on it fails with `outcome`; the next request reconnects."""
        if sock is not None and sock is not self._sock:
            return
        if self._sock is not None:
            abusenet.abort(self._sock)
        self._sock = self._conn = None
        pending, self._pending = self._pending, {}
        for done, _ in pending.values():
            if not done.done():
                done.set_result(outcome)

    def close(self):
        if self._reader is not None:
            self._reader.cancel()
        self._lost("closed")


def _name(code):
    try:
        return h2.errors.ErrorCodes(code).name
    except ValueError:
        return f"0x{code:x}"


async def one_request(client, out, due):
    start = time.time()
    began = time.perf_counter()
    lag = asyncio.get_running_loop().time() - due
    outcome, _ = await client.get("/benchmark/hello")
    out.write(f"{start:.3f} {(time.perf_counter() - began) * 1000:.2f} {outcome} {lag * 1000:.1f}\n")
    out.flush()


async def run(port, rate, seconds, output, timeout=5.0):
    client = H2Client(port, timeout=timeout)
    try:
        await abusenet.paced(rate, seconds, output, lambda out, due: one_request(client, out, due))
    finally:
        client.close()


async def warm_up(port, requests, path):
    """Unmeasured: `requests` GETs of `path` over one connection, 32 in flight at a time; fails if none succeeded."""
    client = H2Client(port, source="127.0.0.249", timeout=30.0)
    answered = 0
    try:
        for first in range(0, requests, 32):
            outcomes = await asyncio.gather(*(client.get(path) for _ in range(min(32, requests - first))))
            answered += sum(1 for outcome, _ in outcomes if outcome == "200")
    finally:
        client.close()
    if answered == 0:
        raise ConnectionError(f"h2 warm-up: the server answered no GET {path} over h2c")
    return answered
