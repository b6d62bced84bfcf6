"""Tests of the attacks over real loopback sockets, against a small asyncio server whose behaviour each test sets:
the attacks must report what the server did (answered 408, closed, served) and leave no connection open."""

import asyncio
import os
import unittest
from unittest import mock

import abuse
import abuseattacks
import abusenet
from abuseprobe import ServerProbe

HELLO = b"HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!"
TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"


class TestServer:
    """Serves /hello on keep-alive connections; a connection whose head is still incomplete after `head_limit`
    bytes is answered 408 and closed, as a minimum-rate rule would."""

    def __init__(self, head_limit=None, keep_alive_limit=None):
        self.head_limit = head_limit
        self.keep_alive_limit = keep_alive_limit
        self.open = 0
        self.served = 0

    async def start(self):
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader, writer):
        self.open += 1
        buffer = b""
        answered = 0
        try:
            while True:
                data = await reader.read(4096)
                if not data:
                    return
                buffer += data
                while b"\r\n\r\n" in buffer:
                    _, buffer = buffer.split(b"\r\n\r\n", 1)
                    writer.write(HELLO)
                    answered += 1
                    self.served += 1
                    if answered == self.keep_alive_limit:
                        await writer.drain()
                        return
                if self.head_limit is not None and len(buffer) >= self.head_limit:
                    writer.write(TIMEOUT)
                    await writer.drain()
                    return
        except ConnectionError:
            pass  # the attacks end with resets
        finally:
            self.open -= 1
            writer.close()

    async def stop(self):
        self.server.close()
        await self.server.wait_closed()


def attack(port, scale, seconds=10.0, trickle=0.01):
    return abuseattacks.Attack(port=port, scale=scale, seconds=seconds, sources=abusenet.SourceAddresses(2),
                               probe=ServerProbe(os.getpid()), trickle_seconds=trickle)


class AttackTest(unittest.IsolatedAsyncioTestCase):

    async def test_slowloris_reports_every_slow_client_answered_408(self):
        server = TestServer(head_limit=60)
        port = await server.start()
        result = await abuseattacks.slowloris(attack(port, scale=0.02))
        await server.stop()
        slow = result["slow"]
        self.assertEqual(slow["count"], 20)
        self.assertEqual(slow["outcomes"], {"408": 20})
        self.assertEqual(slow["answered_408_in_time"], 20)

    async def test_slow_clients_the_server_never_answers_stay_open_until_the_deadline(self):
        server = TestServer()
        port = await server.start()
        result = await abuseattacks.slowloris(attack(port, scale=0.01, seconds=0.5, trickle=0.1))
        await server.stop()
        self.assertEqual(result["slow"]["outcomes"], {"open": 10})
        self.assertEqual(result["slow"]["answered_408"], 0)

    async def test_flood_split_over_client_processes_counts_every_connection_and_releases_them(self):
        server = TestServer()
        port = await server.start()
        with mock.patch.object(abuseattacks, "FLOOD_SHARD", 15):
            result = await abuseattacks.flood(attack(port, scale=0.002, seconds=0.2))
        for _ in range(100):
            if server.open == 0:
                break
            await asyncio.sleep(0.05)
        await server.stop()
        self.assertEqual(result["client_processes"], 3)
        self.assertEqual(result["first_request"], {"200": 40})
        # Each process holds all of its connections at once; the processes themselves may not overlap.
        self.assertEqual(result["peak_open"], 40)
        self.assertEqual(server.open, 0)

    async def test_a_slow_body_the_server_answers_anyway_is_reported_with_its_status(self):
        server = TestServer()
        port = await server.start()
        result = await abuseattacks.slow_bodies(attack(port, scale=0.05, seconds=0.5, trickle=0.1))
        await server.stop()
        self.assertEqual(result["slow"]["outcomes"], {"200": 10})
        self.assertEqual(result["slow"]["answered_408"], 0)

    async def test_slow_uploads_replace_each_upload_that_ends_until_the_deadline(self):
        server = TestServer()
        port = await server.start()
        result = await abuseattacks.slow_uploads(attack(port, scale=0.02, seconds=1.5))
        await server.stop()
        slow = result["slow"]
        # Four slots; the server answers each upload at once, so each slot opens one after the other.
        self.assertGreater(slow["count"], 4)
        self.assertEqual(set(slow["outcomes"]), {"200"})

    async def test_warm_up_reconnects_when_the_server_ends_keep_alive_connections(self):
        server = TestServer(keep_alive_limit=100)
        port = await server.start()
        await abuse.warm_up(port)
        await server.stop()
        self.assertEqual(server.served, 8 * 500 + 8 * 50 + 8 * 250)

    async def test_aborts_cut_off_every_connection(self):
        server = TestServer()
        port = await server.start()
        result = await abuseattacks.aborts(attack(port, scale=0.004))
        await server.stop()
        self.assertEqual(sum(result["aborted"].values()), 40)
        self.assertEqual(set(result["aborted"]), set(abuseattacks.ABORT_KINDS))


if __name__ == "__main__":
    unittest.main()
