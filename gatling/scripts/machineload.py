"""The machine's load just before a measurement: how many CPUs other work kept busy over a short window (Python 3
standard library only).

  machineload.py [SECONDS [RUNNER_PID]]   prints the CPUs busy over the next SECONDS (1), e.g. 0.04, leaving out the
                                          CPU time of RUNNER_PID and every process below it (the runner, its servers,
                                          its tools, this sampler)
  machineload.py jiffies CPU...           prints each CPU's busy and total jiffies so far, "busy:total,..." (a
                                          measured run's reading before and after it, for the busy % of the pinned
                                          server's CPU and the load generator's)

What it measures is what would compete with the measurement and is not the measurement's own: the runner's servers
may still be starting or compiling (a server measured right after its start, by design in ColdStart or Concurrency's
warm-up level) and that is theirs to pay. Why not the 1-minute figure of /proc/loadavg: it decays over minutes and
counts every process, so in the middle of a run it holds the runner's own previous round (after a few minutes of
interleaved rounds, the pinned server and load generator alone hold it near 2 on a 2-CPU machine) and would refuse
every round. The figure is in the load average's unit (CPUs' worth of work); /proc/loadavg is still recorded in
machine.md at the start and the end of every run.
"""

import os
import sys
import time
from pathlib import Path

# /proc/stat's "cpu" line: user nice system idle iowait irq softirq steal (guest time is inside user already).
IDLE_FIELDS = (3, 4)
COUNTED_FIELDS = 8


def busy_and_total(fields):
    """(busy, total) jiffies from the fields of one "cpu" line of /proc/stat, its name first."""
    values = [int(v) for v in fields[1:1 + COUNTED_FIELDS]]
    return sum(values) - sum(values[i] for i in IDLE_FIELDS), sum(values)


def cpu_times(stat_text):
    """(busy, total) jiffies of all CPUs together, from the text of /proc/stat."""
    for line in stat_text.splitlines():
        fields = line.split()
        if fields and fields[0] == "cpu":
            return busy_and_total(fields)
    raise ValueError("no aggregate cpu line in /proc/stat")


def process_entry(stat_text):
    """(parent pid, utime + stime jiffies of all its threads) from the text of /proc/PID/stat."""
    # The command name, in parentheses, may hold spaces and parentheses: the fields start after the last ')'.
    fields = stat_text[stat_text.rindex(")") + 2:].split()
    return int(fields[1]), int(fields[11]) + int(fields[12])


def tree_of(processes, root):
    """root and every process below it, from {pid: (parent, jiffies)}."""
    children = {}
    for pid, (parent, _) in processes.items():
        children.setdefault(parent, []).append(pid)
    tree, todo = set(), [root]
    while todo:
        pid = todo.pop()
        if pid not in tree:
            tree.add(pid)
            todo.extend(children.get(pid, []))
    return tree


def own_jiffies(before, after, root):
    """CPU time the tree under root used between two process tables (a process started in between counts whole)."""
    return sum(after[pid][1] - (before[pid][1] if pid in before else 0)
               for pid in tree_of(after, root) if pid in after)


def busy_cpus(before, after, cpus, own=0):
    """CPUs busy between two /proc/stat readings, less `own` jiffies: the busy share of all CPU time, times the number
    of CPUs (never below 0)."""
    busy_before, total_before = cpu_times(before)
    busy_after, total_after = cpu_times(after)
    elapsed = total_after - total_before
    if elapsed <= 0:
        return 0.0
    return max(0.0, cpus * (busy_after - busy_before - own) / elapsed)


def cpu_jiffies(stat_text, cpus):
    """"busy:total" jiffies of each of the given CPUs, comma-separated in their order, from the text of /proc/stat:
    what a measured run records before and after it (cpu_percentages turns two of them into its CPUs' busy %)."""
    lines = {fields[0]: fields for fields in (line.split() for line in stat_text.splitlines()) if fields}
    return ",".join("%d:%d" % busy_and_total(lines["cpu%d" % int(cpu)]) for cpu in cpus)


def cpu_percentages(before, after):
    """Each CPU's busy % between two cpu_jiffies readings of the same CPUs (None for one whose clock did not move)."""
    percentages = []
    for first, last in zip(before.split(","), after.split(",")):
        busy_first, total_first = (int(v) for v in first.split(":"))
        busy_last, total_last = (int(v) for v in last.split(":"))
        elapsed = total_last - total_first
        percentages.append(round(100.0 * (busy_last - busy_first) / elapsed) if elapsed > 0 else None)
    return percentages


def read_stat():
    return Path("/proc/stat").read_text()


def read_processes():
    processes = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                processes[int(entry.name)] = process_entry((entry / "stat").read_text())
            except (OSError, ValueError):
                pass  # it exited between the listing and the read: it has nothing more to count
    return processes


def sample(seconds, runner_pid=None):
    stat_before, processes_before = read_stat(), read_processes()
    time.sleep(seconds)
    stat_after, processes_after = read_stat(), read_processes()
    own = own_jiffies(processes_before, processes_after, runner_pid) if runner_pid else 0
    return busy_cpus(stat_before, stat_after, os.cpu_count() or 1, own)


def main(argv):
    if len(argv) > 1 and argv[1] == "jiffies":
        print(cpu_jiffies(read_stat(), argv[2:]))
        return 0
    seconds = float(argv[1]) if len(argv) > 1 else 1.0
    runner_pid = int(argv[2]) if len(argv) > 2 else None
    print(f"{sample(seconds, runner_pid):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
