#!/usr/bin/env python3
"""What an idle connection costs a server: opens N connections to it, over HTTP/1.1 (keep-alive) or HTTP/2, each
with one GET answered in full, keeps them open with nothing in flight, and reads the server's memory before and
while they are held (used by gatling/compare.sh's h2 and memory presets; HTTP/2 needs the `h2` package, installed
by gatling/h2tools.sh).

  idleconns.py --protocol h1|h2 --port P --pid PID [--connections N] [--tls] [--path /benchmark/hello]
               [--settle S] [--ping S] [--jcmd PATH]

Order: the server's RSS as the load left it (VmRSS); its live heap (a full collection by `jcmd PID GC.run`, then
the used size of every generation of `GC.heap_info`, as websocket-lib.sh's live_heap_kb reads it) and its RSS again;
the connections, one after the other; `--settle` seconds; its RSS and the connections still open; its live heap
again, the connections still held. A connection counts as opened when its GET got a 200 response (for h2 over h2c
with prior knowledge, or ALPN h2 over TLS; certificates not checked); one the server then closes counts as closed
by the server. Servers close idle connections (Tomcat's HTTP/2 after 20 s without a
frame, Jetty after 30 s), so each connection is woken every `--ping` seconds (default 15; 0: never) while held: h2
sends a PING, which keeps it open without a stream; h1 sends one more GET, whose answer is read and dropped. Not
more often: Tomcat counts PINGs as overhead and closed connections that sent one every 5 s within 75 s (its overhead
protection). Prints progress on stderr and one result line on stdout:

  idle-start protocol=h1|h2 connections=N rss_loaded_kb=K                     (before the first connection)
  idle protocol=h1|h2 connections=N opened=N open=N closed_by_server=N rss_loaded_kb=K rss_before_kb=K
       rss_after_kb=K heap_before_kb=K heap_after_kb=K open_seconds=S error=first failure, free text
"""

import argparse
import re
import resource
import selectors
import socket
import ssl
import subprocess
import sys
import time

import abusenet

try:
    import h2.config
    import h2.connection
    import h2.events
    import h2.exceptions
    H2_ERRORS = (h2.exceptions.ProtocolError,)
except ImportError:  # HTTP/1.1 needs nothing beyond the standard library
    h2 = None
    H2_ERRORS = ()

GIVE_UP_AFTER = 20  # consecutive failed connections: the server is gone or refuses, more attempts only wait


def open_socket(host, port, tls_context, timeout):
    raw = socket.create_connection((host, port), timeout=timeout)
    if not tls_context:
        return raw
    try:
        return tls_context.wrap_socket(raw, server_hostname=host)
    except BaseException:
        raw.close()
        raise


class H1Connection:
    """One HTTP/1.1 keep-alive connection: one GET answered (blocking), then held non-blocking."""

    def __init__(self, host, port, path, tls_context, timeout):
        self.sock = open_socket(host, port, tls_context, timeout)
        self.request = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode("ascii")
        try:
            self.sock.sendall(self.request)
            self.await_response()
        except BaseException:
            self.sock.close()
            raise
        self.sock.setblocking(False)
        self.last_ping = time.monotonic()

    def await_response(self):
        reader = abusenet.ResponseReader()
        while not reader.complete:
            reader.feed(self.receive())
        if reader.status != 200:
            raise ConnectionError(f"status {reader.status}")

    def receive(self):
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("closed by the server before the response ended")
        return data

    def on_readable(self):
        """Drops what the server sent (the answers to the pings); False once the server closed."""
        try:
            while True:
                if not self.sock.recv(65536):
                    return False
        except (BlockingIOError, ssl.SSLWantReadError):
            return True  # drained
        except OSError:
            return False

    def ping_if_due(self, now, every):
        """False when the request could not be sent (the server has gone)."""
        if every <= 0 or now - self.last_ping < every:
            return True
        self.last_ping = now
        try:
            # A few bytes on an otherwise idle socket: the send buffer cannot be full.
            self.sock.sendall(self.request)
        except OSError:
            return False
        return True

    def close(self):
        self.sock.close()


class H2Connection:
    """One HTTP/2 connection: opened and answered once (blocking), then held non-blocking with no stream."""

    def __init__(self, host, port, path, tls_context, timeout):
        self.sock = open_socket(host, port, tls_context, timeout)
        try:
            if tls_context and self.sock.selected_alpn_protocol() != "h2":
                raise ConnectionError(f"ALPN chose {self.sock.selected_alpn_protocol()}, not h2")
            self.h2 = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
            self.h2.initiate_connection()
            stream = self.h2.get_next_available_stream_id()
            self.h2.send_headers(stream, [(":method", "GET"), (":scheme", "https" if tls_context else "http"),
                                          (":authority", f"{host}:{port}"), (":path", path)], end_stream=True)
            self.sock.sendall(self.h2.data_to_send())
            self.await_response(stream)
        except BaseException:
            self.sock.close()
            raise
        self.sock.setblocking(False)
        self.last_ping = time.monotonic()

    def await_response(self, stream):
        status = None
        while True:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("closed by the server before the response ended")
            for event in self.h2.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived):
                    status = dict(event.headers).get(b":status", b"?").decode()
                elif isinstance(event, h2.events.DataReceived):
                    self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                elif isinstance(event, (h2.events.StreamReset, h2.events.ConnectionTerminated)):
                    raise ConnectionError(f"{type(event).__name__} before the response ended")
                elif isinstance(event, h2.events.StreamEnded) and event.stream_id == stream:
                    self.sock.sendall(self.h2.data_to_send())
                    if status != "200":
                        raise ConnectionError(f"status {status}")
                    return
            self.sock.sendall(self.h2.data_to_send())

    def on_readable(self):
        """Answers what the server sent (SETTINGS, PING, WINDOW_UPDATE); False once the server closed."""
        events = []
        try:
            # Until the socket is drained: TLS may hold decrypted bytes that select() no longer reports.
            while True:
                data = self.sock.recv(65536)
                if not data:
                    return False
                events += self.h2.receive_data(data)
        except (BlockingIOError, ssl.SSLWantReadError):
            pass  # drained
        except (OSError, h2.exceptions.ProtocolError):
            return False
        try:
            self.flush()
        except OSError:
            return False
        return not any(isinstance(event, h2.events.ConnectionTerminated) for event in events)

    def ping_if_due(self, now, every):
        """False when the ping could not be sent (the server has gone)."""
        if every <= 0 or now - self.last_ping < every:
            return True
        self.last_ping = now
        try:
            self.h2.ping(b"idle\0\0\0\0")
            self.flush()
        except (OSError, h2.exceptions.ProtocolError):
            return False
        return True

    def flush(self):
        # A few bytes on an otherwise idle socket: the send buffer cannot be full, so non-blocking sendall is safe.
        self.sock.sendall(self.h2.data_to_send())

    def close(self):
        try:
            self.h2.close_connection()
            self.flush()
        except (OSError, ssl.SSLError, h2.exceptions.ProtocolError):
            pass  # the server has closed it already: nothing to say goodbye to
        self.sock.close()


class Holder:
    """The open connections, served from one selector."""

    def __init__(self, ping_seconds):
        self.selector = selectors.DefaultSelector()
        self.ping_seconds = ping_seconds
        self.closed_by_server = 0

    def add(self, connection):
        self.selector.register(connection.sock, selectors.EVENT_READ, connection)

    def open(self):
        return [key.data for key in self.selector.get_map().values()]

    def serve(self, seconds):
        deadline = time.monotonic() + seconds
        while True:
            for key, _ in self.selector.select(max(0.0, min(0.5, deadline - time.monotonic()))):
                if not key.data.on_readable():
                    self.drop(key.data)
            now = time.monotonic()
            for connection in self.open():
                if not connection.ping_if_due(now, self.ping_seconds):
                    self.drop(connection)
            if now >= deadline:
                return

    def drop(self, connection):
        self.selector.unregister(connection.sock)
        connection.sock.close()
        self.closed_by_server += 1

    def close(self):
        for connection in self.open():
            self.selector.unregister(connection.sock)
            connection.close()


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return None


def live_heap_kb(jcmd, pid):
    """Used heap after a full collection, kB; None without jcmd or when it fails."""
    if not jcmd:
        return None
    try:
        subprocess.run([jcmd, str(pid), "GC.run"], capture_output=True, timeout=60, check=True)
        info = subprocess.run([jcmd, str(pid), "GC.heap_info"], capture_output=True, text=True, timeout=60,
                              check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    used = [int(match) for match in re.findall(r" total \d+K, used (\d+)K", info)]
    return sum(used) or None


def raise_open_files(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    if soft != resource.RLIM_INFINITY and soft < needed:
        sys.exit(f"idleconns: {needed} open files needed, the limit is {soft} (raise ulimit -n)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--protocol", choices=("h1", "h2"), required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True, help="the server's process, whose memory is read")
    parser.add_argument("--connections", type=int, default=2000)
    parser.add_argument("--tls", action="store_true")
    parser.add_argument("--path", default="/benchmark/hello")
    parser.add_argument("--settle", type=float, default=3.0)
    parser.add_argument("--ping", type=float, default=15.0)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds for one connection's set-up")
    parser.add_argument("--jcmd", help="the JDK's jcmd, for the live heap (left out without it)")
    args = parser.parse_args(argv)
    if args.protocol == "h2" and h2 is None:
        sys.exit("idleconns: HTTP/2 needs Python's h2 package (gatling/h2tools.sh installs it)")
    raise_open_files(args.connections + 64)
    connection_type = H2Connection if args.protocol == "h2" else H1Connection
    tls_context = None
    if args.tls:
        tls_context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        tls_context.check_hostname = False
        tls_context.verify_mode = ssl.CERT_NONE  # the run's self-signed key; the cost of holding is measured
        tls_context.set_alpn_protocols(["h2" if args.protocol == "h2" else "http/1.1"])

    # Before the full collection: what the load left, as a user's monitoring would see it. Printed at once: a
    # server that dies holding the connections still has this figure.
    rss_loaded = rss_kb(args.pid)
    print(f"idle-start protocol={args.protocol} connections={args.connections} rss_loaded_kb={rss_loaded or ''}",
          flush=True)
    heap_before = live_heap_kb(args.jcmd, args.pid)
    rss_before = rss_kb(args.pid)
    holder = Holder(args.ping)
    opened, failed_in_a_row, first_error = 0, 0, ""
    started = time.monotonic()
    for number in range(args.connections):
        try:
            holder.add(connection_type(args.host, args.port, args.path, tls_context, args.timeout))
            opened += 1
            failed_in_a_row = 0
        except (OSError, ConnectionError) + H2_ERRORS as error:
            first_error = first_error or f"connection {number + 1}: {type(error).__name__}: {error}"
            failed_in_a_row += 1
            if failed_in_a_row >= GIVE_UP_AFTER:
                first_error += f" (gave up after {GIVE_UP_AFTER} failures in a row)"
                break
        holder.serve(0)
        if (number + 1) % 500 == 0:
            print(f"idleconns: {number + 1} connections tried, {len(holder.open())} open", file=sys.stderr, flush=True)
    open_seconds = time.monotonic() - started
    holder.serve(args.settle)
    rss_after = rss_kb(args.pid)
    still_open = len(holder.open())
    heap_after = live_heap_kb(args.jcmd, args.pid)
    holder.serve(0)
    if len(holder.open()) < still_open:
        first_error = first_error or "connections closed while the heap was read"
    holder.close()
    values = {"protocol": args.protocol, "connections": args.connections, "opened": opened, "open": still_open,
              "closed_by_server": holder.closed_by_server, "rss_loaded_kb": rss_loaded, "rss_before_kb": rss_before,
              "rss_after_kb": rss_after,
              "heap_before_kb": heap_before, "heap_after_kb": heap_after, "open_seconds": round(open_seconds, 1)}
    print("idle " + " ".join(f"{key}={'' if value is None else value}" for key, value in values.items())
          + f" error={first_error}", flush=True)
    return 0 if opened else 1


if __name__ == "__main__":
    sys.exit(main())
