"""The machine's load just before a measurement: how many CPUs were busy over a short window (Python 3 standard library).

  machineload.py [SECONDS]     prints the CPUs busy (user, system, interrupts, steal) over the next SECONDS (1), e.g. 0.04

Why not the 1-minute figure of /proc/loadavg: it decays over minutes, so in the middle of a run it counts the runner's
own previous round (after a few minutes of interleaved rounds, the pinned server and load generator alone hold it
near 2 on a 2-CPU machine) and would refuse every round. The runners sample just before each measured run, when
their own servers are idle and no load is running, so what is busy then is what will compete with the measurement:
other work on the machine, or a server of this run still compiling. The figure is in the load average's unit (CPUs'
worth of work), and /proc/loadavg is still recorded in machine.md at the start and the end of every run.
"""

import os
import sys
import time

# /proc/stat's "cpu" line: user nice system idle iowait irq softirq steal (guest time is inside user already).
IDLE_FIELDS = (3, 4)
COUNTED_FIELDS = 8


def cpu_times(stat_text):
    """(busy, total) jiffies of all CPUs together, from the text of /proc/stat."""
    for line in stat_text.splitlines():
        fields = line.split()
        if fields and fields[0] == "cpu":
            values = [int(v) for v in fields[1:1 + COUNTED_FIELDS]]
            idle = sum(values[i] for i in IDLE_FIELDS)
            return sum(values) - idle, sum(values)
    raise ValueError("no aggregate cpu line in /proc/stat")


def busy_cpus(before, after, cpus):
    """CPUs busy between two /proc/stat readings: the busy share of all CPU time, times the number of CPUs."""
    busy_before, total_before = cpu_times(before)
    busy_after, total_after = cpu_times(after)
    elapsed = total_after - total_before
    if elapsed <= 0:
        return 0.0
    return cpus * (busy_after - busy_before) / elapsed


def read_stat():
    with open("/proc/stat") as stat:
        return stat.read()


def sample(seconds):
    before = read_stat()
    time.sleep(seconds)
    return busy_cpus(before, read_stat(), os.cpu_count() or 1)


def main(argv):
    seconds = float(argv[1]) if len(argv) > 1 else 1.0
    print(f"{sample(seconds):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
