"""What the abuse harness reads about the server process from /proc (Linux): resident memory, open files, threads and
CPU time, sampled in the background while an attack runs, plus its open-file limit, which the fd-exhaustion attack
lowers and restores. Beside them, the kernel's TCP buffer memory (machine-wide, so the clients' receive buffers count
too), which is what slow readers pin outside the process."""

import asyncio
import os
import resource

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024


def tcp_memory_kib(sockstat="/proc/net/sockstat"):
    """The kernel's memory in TCP socket buffers, all sockets of the machine (the `mem` pages of the TCP line)."""
    try:
        with open(sockstat) as stats:
            for line in stats:
                if line.startswith("TCP:"):
                    fields = line.split()
                    return int(fields[fields.index("mem") + 1]) * PAGE_KIB
    except (OSError, ValueError):
        return None
    return None


class ServerProbe:
    """Samples one process every `interval` seconds into peaks the attacks and the report read."""

    def __init__(self, pid, interval=0.5):
        self.pid = pid
        self.interval = interval
        self.peak_rss_kib = 0
        self.peak_fds = 0
        self.peak_threads = 0
        self.peak_tcp_memory_kib = 0
        self._task = None

    # ------------------------------------------------------------------ single readings
    def alive(self):
        """False once the process has exited, even while its parent has not reaped it yet (a zombie)."""
        try:
            with open(f"/proc/{self.pid}/stat") as stat:
                return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
        except OSError:
            return False

    def rss_kib(self):
        return self._status_field("VmRSS")

    def threads(self):
        return self._status_field("Threads")

    def fds(self):
        try:
            return len(os.listdir(f"/proc/{self.pid}/fd"))
        except OSError:
            return None

    def cpu_seconds(self):
        """User plus system CPU time of the whole process so far."""
        try:
            with open(f"/proc/{self.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        except (OSError, IndexError, ValueError):
            return None

    def nofile(self):
        """(soft, hard) open-file limit of the process."""
        return resource.prlimit(self.pid, resource.RLIMIT_NOFILE)

    def set_nofile_soft(self, soft):
        """Lowers (or restores) the soft limit only: that needs no privilege up to the hard limit."""
        hard = self.nofile()[1]
        resource.prlimit(self.pid, resource.RLIMIT_NOFILE, (soft, hard))

    def _status_field(self, name):
        try:
            with open(f"/proc/{self.pid}/status") as status:
                for line in status:
                    if line.startswith(name + ":"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    # ------------------------------------------------------------------ background sampling
    def sample(self):
        rss, fds, threads = self.rss_kib(), self.fds(), self.threads()
        self.peak_rss_kib = max(self.peak_rss_kib, rss or 0)
        self.peak_fds = max(self.peak_fds, fds or 0)
        self.peak_threads = max(self.peak_threads, threads or 0)
        self.peak_tcp_memory_kib = max(self.peak_tcp_memory_kib, tcp_memory_kib() or 0)
        return rss, fds, threads

    def reset_peaks(self):
        self.peak_rss_kib = self.peak_fds = self.peak_threads = self.peak_tcp_memory_kib = 0
        self.sample()

    def start(self):
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self):
        if self._task:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass  # the cancellation asked for just above
        self.sample()

    async def _run(self):
        while self.alive():
            self.sample()
            await asyncio.sleep(self.interval)

    async def settle_fds(self, ceiling, timeout):
        """Waits until the process has at most `ceiling` open files: (fds, seconds waited); at the timeout the last
        count, and a dead process gives (None, seconds)."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        while True:
            fds = self.fds()
            if fds is None or fds <= ceiling or loop.time() - start >= timeout:
                return fds, loop.time() - start
            await asyncio.sleep(0.25)
