"""The attacks of issue 11 against one server on loopback (Python 3 standard library only, asyncio).

Each attack is a coroutine taking an `Attack` context and returning a dict of what it saw; the counts are the
issue's, multiplied by the scale. Every attack ends by the context's deadline and closes (resets) every socket it
opened before it returns, so the server's open files can be checked against the baseline afterwards.

| name          | what the attacker does                                                                          |
|---------------|-------------------------------------------------------------------------------------------------|
| slowloris     | 1,000 connections send a request line and Host, then one more head byte every TRICKLE seconds   |
| idle          | 10,000 connections make one keep-alive request each, then stay open and silent                   |
| slow-readers  | 250 connections pipeline 6 x GET /benchmark/stream?size=1 MiB, then read 1 KiB per second        |
| aborts        | 10,000 connections, 64 at a time, each cut off by a reset or a close at a different point        |
| slow-bodies   | 200 POST /benchmark/echo with Content-Length 10,000, then one body byte per second                |
| slow-uploads  | 200 POST /benchmark/echo with Content-Length 1 MiB, one body byte per second, each replaced as   |
|               | soon as it ends, so 200 are in flight for the whole attack (a blocking endpoint: issue 18)      |
| flood         | 20,000 connections at once, one keep-alive request each, held open a few seconds                 |
| fd-exhaustion | the server's soft open-file limit lowered to its open files + 5,000, connections until they run  |
|               | out and 500 more, held, released: does it serve again? (the limit is restored afterwards)       |
| graceful      | 200 requests of 3 s in flight, then SIGTERM: how many complete                                   |
"""

import asyncio
import ctypes
import itertools
import json
import os
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import abusenet
import abusereport
from abuseprobe import ServerProbe

HELLO = abusenet.request("GET", "/benchmark/hello")
MIB = 1024 * 1024
PR_SET_PDEATHSIG = 1


def die_with_parent():
    """For a child process, before exec: SIGTERM when the parent ends, however it ends (abuse.sh stops it with
    SIGTERM, which skips `finally` blocks), so no client outlives the run."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


@dataclass
class Attack:
    port: int
    scale: float
    seconds: float
    sources: abusenet.SourceAddresses
    probe: ServerProbe
    trickle_seconds: float = 2.0

    def count(self, full):
        return max(1, round(full * self.scale))

    def deadline(self):
        return asyncio.get_running_loop().time() + self.seconds


def ramp_delay(index, count, ramp_seconds):
    """Connections are opened evenly over the ramp, not in one burst (the flood is the burst)."""
    return ramp_seconds * index / count


# ------------------------------------------------------------------ slow senders: slowloris and slow bodies
async def slow_connection(ctx, head, filler, interval, deadline):
    """One connection that sends `head` at once and then one byte of `filler` (repeated) every `interval` seconds
    until the server answers or closes, or the deadline passes. Returns (outcome, seconds), the seconds counted from
    connect to the answer or close."""
    loop = asyncio.get_running_loop()
    try:
        sock = await abusenet.connect(ctx.port, ctx.sources.next(), 10.0)
    except (OSError, asyncio.TimeoutError) as error:
        return "connect-" + abusenet.failure_kind(error), 0.0
    watcher = loop.create_task(abusenet.watch_until_closed(sock, deadline))
    try:
        await loop.sock_sendall(sock, head)
        for byte in itertools.cycle(filler):
            done, _ = await asyncio.wait({watcher}, timeout=interval)
            if done:
                break
            await loop.sock_sendall(sock, bytes([byte]))
    except OSError:
        pass  # the server ended the connection: the watcher reports how and when
    outcome = await watcher
    abusenet.abort(sock)
    return outcome


async def slow_sender(ctx, count, head, filler, interval, sustained=False):
    """`count` slow connections (see slow_connection), opened over a ramp. With `sustained`, each of the `count`
    slots opens a new one as soon as the last ends, until the deadline, so that `count` stay in flight throughout.
    Returns [(outcome, seconds)] of every connection."""
    loop = asyncio.get_running_loop()
    deadline = ctx.deadline()
    ramp = min(5.0, ctx.seconds / 10)

    async def slot(index):
        await asyncio.sleep(ramp_delay(index, count, ramp))
        fates = [await slow_connection(ctx, head, filler, interval, deadline)]
        while sustained and loop.time() < deadline - interval:
            if fates[-1][0].startswith("connect-"):
                await asyncio.sleep(interval)  # not a tight loop against a server that refuses connections
            fates.append(await slow_connection(ctx, head, filler, interval, deadline))
        return fates

    return [fate for fates in await asyncio.gather(*(slot(i) for i in range(count))) for fate in fates]


async def slowloris(ctx):
    head = b"GET /benchmark/hello HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    fates = await slow_sender(ctx, ctx.count(1000), head, b"X-Slowloris: a\r\n", ctx.trickle_seconds)
    return {"slow": abusereport.summarise_fates(fates)}


async def slow_bodies(ctx):
    head = abusenet.request("POST", "/benchmark/echo",
                            ["Content-Type: application/octet-stream", "Content-Length: 10000"])
    fates = await slow_sender(ctx, ctx.count(200), head, b"x", 1.0)
    return {"slow": abusereport.summarise_fates(fates)}


async def slow_uploads(ctx):
    """Issue 18: 200 uploads declaring a megabyte, kept in flight for the whole attack, into a blocking endpoint
    (Spring MVC's /benchmark/echo reads its body on the worker), at one byte per second. With a 200-thread pool
    every worker is held by one; the question is whether the legitimate clients beside them still get one."""
    head = abusenet.request("POST", "/benchmark/echo",
                            ["Content-Type: application/octet-stream", f"Content-Length: {MIB}"])
    fates = await slow_sender(ctx, ctx.count(200), head, b"x", 1.0, sustained=True)
    return {"slow": abusereport.summarise_fates(fates)}


# ------------------------------------------------------------------ connections held open
class HeldConnections:
    """Sockets the attack holds open, how many at most at once, and closing them all."""

    def __init__(self):
        self.sockets = set()
        self.peak = 0

    def add(self, sock):
        self.sockets.add(sock)
        self.peak = max(self.peak, len(self.sockets))

    def discard(self, sock):
        self.sockets.discard(sock)

    def release(self):
        for sock in self.sockets:
            abusenet.abort(sock)
        self.sockets.clear()


async def idle(ctx):
    loop = asyncio.get_running_loop()
    count = ctx.count(10000)
    deadline = ctx.deadline()
    ramp = min(10.0, ctx.seconds / 4)
    held = HeldConnections()

    async def one(index):
        await asyncio.sleep(ramp_delay(index, count, ramp))
        outcome, sock = await abusenet.exchange(ctx.port, ctx.sources.next(), HELLO, 10.0, keep_alive=True)
        if sock is None:
            return outcome, None
        held.add(sock)
        opened = loop.time()
        fate, _ = await abusenet.watch_until_closed(sock, deadline)
        held.discard(sock)
        abusenet.abort(sock)
        return outcome, (fate, loop.time() - opened)

    try:
        results = await asyncio.gather(*(one(i) for i in range(count)))
    finally:
        held.release()
    closed = [fate for _, fate in results if fate and fate[0] != "open"]
    return {
        "first_request": dict(Counter(outcome for outcome, _ in results)),
        "peak_open": held.peak,
        "closed_while_idle": abusereport.summarise_fates(closed) if closed else None,
    }


async def slow_readers(ctx):
    loop = asyncio.get_running_loop()
    count = ctx.count(250)
    deadline = ctx.deadline()
    # A streaming response (servlet async): the issue asks that a stalled one pins no worker. A blocking response
    # holds its thread until the write timeout on every servlet container: see docs/abuse.md.
    pipelined = abusenet.request("GET", f"/benchmark/stream?size={MIB}") * 6
    held = HeldConnections()

    async def one(index):
        await asyncio.sleep(ramp_delay(index, count, 2.0))
        try:
            # A small receive window: the server's writes stall after a few KiB instead of filling megabytes of
            # kernel buffers.
            sock = await abusenet.connect(ctx.port, ctx.sources.next(), 10.0, receive_buffer=4096)
        except (OSError, asyncio.TimeoutError) as error:
            return "connect-" + abusenet.failure_kind(error), 0.0, 0
        held.add(sock)
        start = loop.time()
        received = 0
        try:
            await loop.sock_sendall(sock, pipelined)
            while True:
                left = deadline - loop.time()
                if left <= 0:
                    return "open", loop.time() - start, received
                data = await asyncio.wait_for(loop.sock_recv(sock, 1024), left)
                if not data:
                    return "closed", loop.time() - start, received
                received += len(data)
                await asyncio.sleep(1.0)
        except asyncio.TimeoutError:
            return "open", loop.time() - start, received
        except OSError as error:
            return abusenet.failure_kind(error), loop.time() - start, received
        finally:
            held.discard(sock)
            abusenet.abort(sock)

    try:
        results = await asyncio.gather(*(one(i) for i in range(count)))
    finally:
        held.release()
    return {
        "readers": abusereport.summarise_fates([(outcome, seconds) for outcome, seconds, _ in results]),
        "received_kib_median": round(sorted(r for _, _, r in results)[len(results) // 2] / 1024, 1),
    }


# ------------------------------------------------------------------ churn: aborts and the flood
ABORT_KINDS = ("reset-after-request", "reset-mid-head", "close-without-reading", "reset-after-connect")


async def aborts(ctx):
    loop = asyncio.get_running_loop()
    count = ctx.count(10000)
    deadline = ctx.deadline()
    gate = asyncio.Semaphore(64)
    outcomes = Counter()
    # The server is mid-request (sleeping 20 ms) when the reset of the first kind arrives.
    full = abusenet.request("GET", "/benchmark/latency?ms=20")
    partial = b"GET /benchmark/hello HTTP/1.1\r\nHost: 127.0"

    async def one(index):
        kind = ABORT_KINDS[index % len(ABORT_KINDS)]
        async with gate:
            if loop.time() >= deadline:
                outcomes["not-started"] += 1
                return
            try:
                sock = await abusenet.connect(ctx.port, ctx.sources.next(), 5.0)
            except (OSError, asyncio.TimeoutError) as error:
                outcomes["connect-" + abusenet.failure_kind(error)] += 1
                return
            try:
                if kind == "reset-after-request" or kind == "close-without-reading":
                    await loop.sock_sendall(sock, full if kind == "reset-after-request" else HELLO)
                elif kind == "reset-mid-head":
                    await loop.sock_sendall(sock, partial)
            except OSError as error:
                outcomes["send-" + abusenet.failure_kind(error)] += 1
            if kind == "close-without-reading":
                sock.close()
            else:
                abusenet.abort(sock)
            outcomes[kind] += 1

    started = loop.time()
    await asyncio.gather(*(one(i) for i in range(count)))
    return {"aborted": dict(outcomes), "seconds": round(loop.time() - started, 1)}


# One process holds at most this many flood connections: the client's open-file limit may be no higher than the
# server's (20,000 on the benchmark machines, and raising it needs CAP_SYS_RESOURCE).
FLOOD_SHARD = 8000


async def flood(ctx):
    """20,000 connections at once, each with one keep-alive request, held a few seconds, then reset. Past
    FLOOD_SHARD connections the flood is split over several client processes started together."""
    count = ctx.count(20000)
    hold = min(ctx.seconds, 25.0)
    shards = -(-count // FLOOD_SHARD)
    if shards == 1:
        return await flood_part(ctx.port, count, hold, ctx.sources)
    sizes = [count // shards + (1 if i < count % shards else 0) for i in range(shards)]
    processes = [await asyncio.create_subprocess_exec(
        sys.executable, "-B", str(Path(__file__).with_name("abuse.py")), "flood-shard", f"port={ctx.port}",
        f"count={size}", f"hold={hold}", f"sources={ctx.sources.count}", stdout=asyncio.subprocess.PIPE,
        preexec_fn=die_with_parent)
        for size in sizes]
    parts = [json.loads((await process.communicate())[0]) for process in processes]
    outcomes = Counter()
    for part in parts:
        outcomes.update(part["first_request"])
    return {"first_request": dict(outcomes), "peak_open": sum(part["peak_open"] for part in parts),
            "seconds_to_answer_all": max(part["seconds_to_answer_all"] for part in parts), "client_processes": shards}


async def flood_part(port, count, hold, sources):
    """`count` connections at once; each holds its connection after the answer until `hold` seconds from the
    start, at most 3 s after the last answer."""
    loop = asyncio.get_running_loop()
    hold_until = loop.time() + hold
    held = HeldConnections()

    async def one():
        outcome, sock = await abusenet.exchange(port, sources.next(), HELLO, 15.0, keep_alive=True)
        if sock is not None:
            held.add(sock)
        return outcome

    started = loop.time()
    try:
        outcomes = Counter(await asyncio.gather(*(one() for _ in range(count))))
        answered = loop.time() - started
        await asyncio.sleep(max(0.0, min(3.0, hold_until - loop.time())))
    finally:
        peak = held.peak
        held.release()
    return {"first_request": dict(outcomes), "peak_open": peak, "seconds_to_answer_all": round(answered, 1)}


# ------------------------------------------------------------------ fd exhaustion
FD_HEADROOM = 5000


async def fd_exhaustion(ctx):
    loop = asyncio.get_running_loop()
    soft, _ = ctx.probe.nofile()
    base = ctx.probe.fds()
    # The server's soft limit is lowered to FD_HEADROOM more than it has open: its files then run out below any
    # connection limit it sized from the original limit at start-up (the case to test is accept() failing with
    # EMFILE), and the client needs fewer connections than its own open-file limit allows.
    limit = min(soft, base + max(64, round(FD_HEADROOM * ctx.scale)))
    if limit != soft:
        ctx.probe.set_nofile_soft(limit)
    needed = (limit - base) + max(20, int(500 * ctx.scale))
    deadline = ctx.deadline()
    gate = asyncio.Semaphore(256)
    held = HeldConnections()

    async def one():
        async with gate:
            if loop.time() >= deadline - 10:
                return "not-started"
            outcome, sock = await abusenet.exchange(ctx.port, ctx.sources.next(), HELLO, 10.0, keep_alive=True)
            if sock is not None:
                held.add(sock)
            return outcome

    try:
        outcomes = Counter(await asyncio.gather(*(one() for _ in range(needed))))
        peak_fds = ctx.probe.fds()
        cpu_before = ctx.probe.cpu_seconds()
        await asyncio.sleep(3.0)
        cpu_after = ctx.probe.cpu_seconds()
        held.release()
        recovery = await seconds_until_served(ctx, 20.0)
    finally:
        held.release()
        if limit != soft and ctx.probe.alive():
            ctx.probe.set_nofile_soft(soft)
    cpu = None if cpu_before is None or cpu_after is None else round((cpu_after - cpu_before) / 3.0 * 100)
    return {
        "fd_limit": limit, "fd_limit_lowered_from": soft if limit != soft else None, "connections": needed,
        "first_request": dict(outcomes), "peak_open": held.peak, "fds_at_exhaustion": peak_fds,
        "server_cpu_pct_while_exhausted": cpu, "recovery_seconds": recovery,
    }


async def seconds_until_served(ctx, timeout):
    """Seconds from now until a new connection gets a 200 for /hello, or None after `timeout`."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    while loop.time() - start < timeout:
        outcome, _ = await abusenet.exchange(ctx.port, ctx.sources.next(),
                                             abusenet.request("GET", "/benchmark/hello", keep_alive=False), 2.0)
        if outcome == "200":
            return round(loop.time() - start, 2)
        await asyncio.sleep(0.1)
    return None


# ------------------------------------------------------------------ graceful stop
async def graceful(ctx):
    loop = asyncio.get_running_loop()
    count = ctx.count(200)
    slow = abusenet.request("GET", "/benchmark/latency?ms=3000", keep_alive=False)
    tasks = [loop.create_task(abusenet.exchange(ctx.port, ctx.sources.next(), slow, 30.0)) for _ in range(count)]
    # Every request is sent and being served (each takes 3 s) when the stop begins.
    await asyncio.sleep(1.0)
    stopped_at = time.time()
    os.kill(ctx.probe.pid, signal.SIGTERM)
    outcomes = Counter(outcome for outcome, _ in await asyncio.gather(*tasks))
    exit_seconds = None
    while time.time() - stopped_at < 30:
        if not ctx.probe.alive():
            exit_seconds = round(time.time() - stopped_at, 1)
            break
        await asyncio.sleep(0.1)
    return {"in_flight": dict(outcomes), "exit_seconds": exit_seconds, "legit_window_end": stopped_at}


ATTACKS = {
    "slowloris": slowloris, "idle": idle, "slow-readers": slow_readers, "aborts": aborts,
    "slow-bodies": slow_bodies, "slow-uploads": slow_uploads, "flood": flood, "fd-exhaustion": fd_exhaustion,
    "graceful": graceful,
}
