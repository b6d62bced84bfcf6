"""The legitimate clients of the abuse harness: `GET /benchmark/hello` at a steady rate, each on a new connection,
in their own process (so an attack that keeps the attacking process busy does not delay them).

An open model: a request starts every 1/rate seconds whether or not earlier ones have finished, so a stalled server
shows up as slow or failed requests instead of as fewer requests. Each request uses a new connection from its own
source address (127.0.0.250), because "new clients locked out" is one of the failures to catch, and ends with
`Connection: close`. One line per request is appended to the output as it completes:

    <start, epoch seconds> <milliseconds> <outcome> <lag, milliseconds>

where the outcome is the status code ("200", "503") or why there was none ("timeout", "refused", "reset",
"closed"), and the lag is how late the request started against its schedule: a lag of more than a few
milliseconds means this process was short of CPU, and its latencies are then not the server's alone. Lines are
flushed one by one, so a run cut short still leaves every finished request on disk. On SIGTERM no new request
starts, and the ones in flight are finished (at most the time-out) and written before the process exits.
"""

import asyncio
import time

import abusenet

SOURCE = "127.0.0.250"
HELLO = abusenet.request("GET", "/benchmark/hello", keep_alive=False)


async def one_request(port, timeout, out, due):
    start = time.time()
    began = time.perf_counter()
    lag = asyncio.get_running_loop().time() - due
    outcome, _ = await abusenet.exchange(port, SOURCE, HELLO, timeout)
    out.write(f"{start:.3f} {(time.perf_counter() - began) * 1000:.2f} {outcome} {lag * 1000:.1f}\n")
    out.flush()


async def run(port, rate, seconds, output, timeout=5.0):
    await abusenet.paced(rate, seconds, output, lambda out, due: one_request(port, timeout, out, due))
