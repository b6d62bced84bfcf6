#!/usr/bin/env python3
"""One attack of the abuse harness against one running server, with legitimate clients alongside (Python 3 standard
library only). Used by gatling/abuse.sh, which starts and stops the servers:

  abuse.py run ATTACK key=value...     warm the server up, start the legitimate clients, measure a baseline, run
                                       the attack, release it, wait for the server's open files to settle, and
                                       print one JSON result row; keys: target, pid, port, scale, seconds, rate,
                                       baseline, sources, trickle, work_dir
  abuse.py legit PORT RATE SECONDS OUT the legitimate clients alone (abuse.py run starts them in a child process)
  abuse.py legit-h2 PORT RATE SECONDS OUT   the legitimate HTTP/2 client alone (h2legit.py; the h2 rows start it too)
  abuse.py flood-shard key=value...    one process's part of a flood too large for one process's open files

The timeline of a run, and the windows the legitimate requests are reported in (by their start time):

  warm-up | quiet | baseline (legit only) | attack (legit + attack) | release, settle | after (legit only, 3 s)

The server's open files are read when no connection at all is open ("quiet", and once the attack is released and
the legitimate clients have stopped), so that a slow server's many legitimate requests in flight do not count.

The h2 attacks (h2attack.py, which needs the `h2` library; imported only when one runs) also warm up the server's
HTTP/2 path, run the legitimate HTTP/2 client beside the HTTP/1.1 one in every window, and read the server's CPU for
2 s with nothing at all running once the attack is released (work the attack left behind shows there).
"""

import asyncio
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import abuseattacks
import abuselegit
import abusenet
import abusereport
from abuseprobe import ServerProbe, tcp_memory_kib

FDS_TOLERANCE = 8
QUIET_CPU_SECONDS = 2.0


def is_h2(attack_name):
    return attack_name.startswith("h2-")


def attack_names():
    import h2attack
    return list(abuseattacks.ATTACKS) + list(h2attack.ATTACKS)


def attack_coroutine(attack_name):
    """The coroutine taking an abuseattacks.Attack context for `attack_name`."""
    if not is_h2(attack_name):
        return abuseattacks.ATTACKS[attack_name]
    import h2attack  # only here: the other attacks need nothing beyond the standard library
    attack, full = h2attack.ATTACKS[attack_name]
    return lambda ctx: attack(ctx.port, ctx.count(full), ctx.seconds, ctx.sources)


def log(message):
    print(f"     {message}", file=sys.stderr, flush=True)


def raise_open_file_limit():
    """As far as allowed: the hard limit, and beyond it up to fs.nr_open when running as root. Only the load
    generator's own limit; the server keeps the limit it was started with."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard
    if os.geteuid() == 0:
        try:
            wanted = max(hard, min(1 << 20, int(Path("/proc/sys/fs/nr_open").read_text())))
        except (OSError, ValueError):
            pass  # keep the hard limit: nr_open is only a ceiling to aim for
    for limit in (wanted, hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
            return limit
        except (ValueError, OSError):
            continue
    return soft


async def warm_up(port):
    """Unmeasured: JIT-compiles the paths the legitimate clients and the slow readers take (/hello, /stream), and
    allocates about 400 MiB through /bytes so the server's young generation has been touched once and does not show
    up later as RSS growth caused by the attack."""
    loop = asyncio.get_running_loop()
    source = "127.0.0.249"

    async def session(path, count):
        answered = 0
        while answered < count:
            more = await keep_alive_run(path, count - answered)
            if more == 0:
                raise ConnectionError(f"warm-up: the server answered nothing on a new connection for {path}")
            answered += more

    async def keep_alive_run(path, count):
        """Requests one after the other on one connection until `count` are answered or the server ends the
        connection (Tomcat does after 100 requests); returns how many were answered."""
        sock = await abusenet.connect(port, source, 10.0)
        reader = abusenet.ResponseReader()
        try:
            for done in range(count):
                await loop.sock_sendall(sock, abusenet.request("GET", path))
                while reader.completed <= done:
                    data = await asyncio.wait_for(loop.sock_recv(sock, 1 << 20), 30.0)
                    if not data:
                        return reader.completed
                    reader.feed(data)
            return count
        except (ConnectionResetError, BrokenPipeError):
            return reader.completed
        finally:
            abusenet.abort(sock)

    await asyncio.gather(*(session("/benchmark/hello", 500) for _ in range(8)))
    await asyncio.gather(*(session(f"/benchmark/bytes?size={abuseattacks.MIB}", 50) for _ in range(8)))
    await asyncio.gather(*(session("/benchmark/stream?size=65536", 250) for _ in range(8)))


def start_legit(port, rate, seconds, output, kind="legit"):
    def in_child():
        abuseattacks.die_with_parent()
        try:
            # The legitimate clients share a CPU with the attack: they go first so that their latency is the
            # server's, not the attacking process's.
            os.nice(-5)
        except OSError:
            pass  # not root: equal priority, noted in the report's machine section
    return subprocess.Popen([sys.executable, "-B", __file__, kind, str(port), str(rate), str(seconds), str(output)],
                            preexec_fn=in_child)


class LegitClients:
    """The legitimate clients of one window: HTTP/1.1 always, and the HTTP/2 client too for an h2 row."""

    def __init__(self, port, rate, seconds, h1_file, h2_file=None):
        self.processes = [start_legit(port, rate, seconds, h1_file)]
        if h2_file:
            self.processes.append(start_legit(port, rate, seconds, h2_file, kind="legit-h2"))

    def stop(self, wait=False):
        for process in self.processes:
            stop_legit(process, wait)


def stop_legit(legit, wait=False):
    """Lets the legitimate clients finish the requests they started (they stop on SIGTERM after at most their
    5 s time-out); `wait` lets them run to their planned end first."""
    if wait:
        try:
            legit.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pass  # terminated below like any other
    legit.terminate()
    try:
        legit.wait(timeout=20)
    except subprocess.TimeoutExpired:
        legit.kill()
        legit.wait()


def read_legit(path):
    samples = []
    if not Path(path).exists():
        return samples
    for line in Path(path).read_text(encoding="ascii").splitlines():
        start, millis, outcome, lag = line.split()
        samples.append((float(start), float(millis), outcome, float(lag)))
    return samples


async def run(attack_name, options):
    port, pid = int(options["port"]), int(options["pid"])
    probe = ServerProbe(pid)
    ctx = abuseattacks.Attack(port=port, scale=float(options["scale"]), seconds=float(options["seconds"]),
                              sources=abusenet.SourceAddresses(int(options["sources"])), probe=probe,
                              trickle_seconds=float(options["trickle"]))
    rate, baseline_seconds = float(options["rate"]), float(options["baseline"])
    work = Path(options["work_dir"]) / f"{options['target']}-{attack_name}"
    h2 = is_h2(attack_name)
    during_file, after_file = Path(f"{work}-legit.txt"), Path(f"{work}-legit-after.txt")
    h2_during, h2_after = (Path(f"{work}-legit-h2.txt"), Path(f"{work}-legit-h2-after.txt")) if h2 else (None, None)
    for stale in (during_file, after_file, h2_during, h2_after):
        if stale:
            stale.unlink(missing_ok=True)
    row = {"target": options["target"], "attack": attack_name, "scale": ctx.scale, "seconds": ctx.seconds,
           "rate": rate, "client_fd_limit": raise_open_file_limit()}

    log("warm-up (unmeasured)")
    await warm_up(port)
    if h2:
        import h2legit
        await h2legit.warm_up(port, 4000, "/benchmark/hello")
        await h2legit.warm_up(port, 200, "/benchmark/stream?size=65536")
    # Open files are compared with no traffic at all, before and after: legitimate requests in flight would
    # otherwise count, and there are many of them exactly when the server is slow.
    fds_base = await quiet_fds(probe)
    legit = LegitClients(port, rate, baseline_seconds + ctx.seconds + 120, during_file, h2_during)
    try:
        await asyncio.sleep(baseline_seconds)
        rss_base, _, threads_base = probe.sample()
        tcp_memory_base = tcp_memory_kib()
        probe.reset_peaks()
        probe.start()
        log(f"baseline: RSS {rss_base} KiB, {fds_base} open files when idle, {threads_base} threads; "
            f"attack {attack_name}")
        attack_start = time.time()
        cpu_start = probe.cpu_seconds()
        result = await attack_coroutine(attack_name)(ctx)
        attack_end = result.pop("legit_window_end", time.time())
        cpu_end = probe.cpu_seconds()
        await probe.stop()
    finally:
        legit.stop()
    fds_after, settle = await probe.settle_fds(fds_base + FDS_TOLERANCE, 20.0)
    cpu_quiet = await quiet_cpu_pct(probe) if h2 else None
    if probe.alive():
        log(f"released: {fds_after} open files after {settle:.1f} s; legitimate clients alone for 3 s")
        LegitClients(port, rate, 3.0, after_file, h2_after).stop(wait=True)
    else:
        fds_after = None  # an exited process not yet reaped shows no open files, which is not "back"
        log("released: the server has exited")
    during = read_legit(during_file)
    row.update({
        "attack_result": result,
        "legit": {
            "baseline": abusereport.summarise_legit([s for s in during if s[0] < attack_start]),
            "attack": abusereport.summarise_legit([s for s in during if attack_start <= s[0] < attack_end]),
            "after": abusereport.summarise_legit(read_legit(after_file)),
        },
        "server": {
            "alive": probe.alive(), "rss_base_kib": rss_base, "rss_peak_kib": probe.peak_rss_kib,
            "fds_base": fds_base, "fds_peak": probe.peak_fds, "fds_after": fds_after,
            "fds_settle_seconds": round(settle, 1), "threads_base": threads_base, "threads_peak": probe.peak_threads,
            "threads_after": probe.threads(),
            "tcp_memory_base_kib": tcp_memory_base, "tcp_memory_peak_kib": probe.peak_tcp_memory_kib,
            "cpu_pct": None if cpu_start is None or cpu_end is None
            else round((cpu_end - cpu_start) / max(0.001, attack_end - attack_start) * 100),
        },
    })
    if h2:
        h2_samples = read_legit(h2_during)
        row["legit_h2"] = {
            "baseline": abusereport.summarise_legit([s for s in h2_samples if s[0] < attack_start]),
            "attack": abusereport.summarise_legit([s for s in h2_samples if attack_start <= s[0] < attack_end]),
            "after": abusereport.summarise_legit(read_legit(h2_after)),
        }
        row["server"]["cpu_quiet_pct"] = cpu_quiet
    return row


async def quiet_cpu_pct(probe):
    """The server's CPU over QUIET_CPU_SECONDS with no client running at all, in % of one core."""
    before = probe.cpu_seconds()
    await asyncio.sleep(QUIET_CPU_SECONDS)
    after = probe.cpu_seconds()
    return None if before is None or after is None else round((after - before) / QUIET_CPU_SECONDS * 100)


async def quiet_fds(probe):
    """The server's open files with no connection open: the fewest of a few readings over a second, since a
    connection the warm-up just reset may take a moment to be closed."""
    readings = []
    for _ in range(5):
        await asyncio.sleep(0.25)
        readings.append(probe.fds())
    return min(reading for reading in readings if reading is not None)


def main(argv):
    if len(argv) >= 2 and argv[0] == "run" and (argv[1] in abuseattacks.ATTACKS or is_h2(argv[1])):
        options = dict(argument.split("=", 1) for argument in argv[2:])
        print(json.dumps(asyncio.run(run(argv[1], options))), flush=True)
        return 0
    if len(argv) >= 1 and argv[0] == "flood-shard":
        options = dict(argument.split("=", 1) for argument in argv[1:])
        raise_open_file_limit()
        part = asyncio.run(abuseattacks.flood_part(int(options["port"]), int(options["count"]), float(options["hold"]),
                                                   abusenet.SourceAddresses(int(options["sources"]))))
        print(json.dumps(part), flush=True)
        return 0
    if len(argv) == 5 and argv[0] == "legit":
        raise_open_file_limit()
        asyncio.run(abuselegit.run(int(argv[1]), float(argv[2]), float(argv[3]), argv[4]))
        return 0
    if len(argv) == 5 and argv[0] == "legit-h2":
        import h2legit
        asyncio.run(h2legit.run(int(argv[1]), float(argv[2]), float(argv[3]), argv[4]))
        return 0
    print(__doc__, file=sys.stderr)
    print("attacks: " + " ".join(attack_names()), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
