"""The legitimate clients of the abuse harness: `GET /benchmark/hello` at a steady rate, each on a new connection,
in their own process (so an attack that keeps the attacking process busy does not delay them).

An open model: a request starts every 1/rate seconds whether or not earlier ones have finished, so a stalled server
shows up as slow or failed requests instead of as fewer requests. Each request uses a new connection from its own
source address (127.0.0.250), because "new clients locked out" is one of the failures to catch, and ends with
`Connection: close`. One line per request is appended to the output as it completes:

    <start, epoch seconds> <milliseconds> <outcome>

where the outcome is the status code ("200", "503") or why there was none ("timeout", "refused", "reset",
"closed"). Lines are flushed one by one, so a run cut short still leaves every finished request on disk.
"""

import asyncio
import time

import abusenet

SOURCE = "127.0.0.250"
HELLO = abusenet.request("GET", "/benchmark/hello", keep_alive=False)


async def one_request(port, timeout, out):
    start = time.time()
    began = time.perf_counter()
    outcome, _ = await abusenet.exchange(port, SOURCE, HELLO, timeout)
    out.write(f"{start:.3f} {(time.perf_counter() - began) * 1000:.2f} {outcome}\n")
    out.flush()


async def run(port, rate, seconds, output, timeout=5.0):
    loop = asyncio.get_running_loop()
    interval = 1.0 / rate
    pending = set()
    with open(output, "a", encoding="ascii") as out:
        begin = loop.time()
        sent = 0
        while sent * interval < seconds:
            delay = begin + sent * interval - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            task = loop.create_task(one_request(port, timeout, out))
            pending.add(task)
            task.add_done_callback(pending.discard)
            sent += 1
        if pending:
            await asyncio.wait(pending)
