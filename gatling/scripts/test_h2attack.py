"""Tests of the HTTP/2 attacker and the legitimate HTTP/2 client over real loopback sockets, against a small
asyncio server speaking just enough h2c (SETTINGS, then GOAWAY after a number of bytes, or h2 answering GETs):
the frames written by hand must be what the protocol says, and the attacks must report what the server did."""

import asyncio
import struct
import unittest

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
import h2.settings
import hpack

import abusenet
import h2attack
import h2legit


class FrameTest(unittest.TestCase):

    def test_request_block_decodes_to_a_get_without_touching_the_dynamic_table(self):
        decoder = hpack.Decoder()
        block = h2attack.request_block("/benchmark/hello")
        self.assertEqual(decoder.decode(block), [(":method", "GET"), (":scheme", "http"),
                                                 (":path", "/benchmark/hello"), (":authority", "127.0.0.1")])
        self.assertEqual(decoder.header_table_size, 4096)
        self.assertEqual(len(decoder.header_table.dynamic_entries), 0)

    def test_filler_fields_are_whole_header_fields(self):
        fields = hpack.Decoder().decode(h2attack.filler_fields(16000))
        self.assertGreater(len(fields), 100)
        self.assertTrue(all(name == "x-filler" and value == "a" * 126 for name, value in fields))

    def test_scanner_finds_goaway_resets_and_settings_split_at_every_index(self):
        stream = (h2attack.frame(h2attack.SETTINGS, 0, 0, struct.pack(">HI", 3, 100))
                  + h2attack.frame(h2attack.SETTINGS, h2attack.ACK, 0)
                  + h2attack.frame(h2attack.RST_STREAM, 0, 1, struct.pack(">I", 7))
                  + h2attack.frame(h2attack.DATA, 0, 3, b"x" * 40)
                  + h2attack.frame(h2attack.GOAWAY, 0, 0, struct.pack(">II", 3, 0xb) + b"calm"))
        for split in range(len(stream) + 1):
            scanner = h2attack.FrameScanner()
            scanner.feed(stream[:split])
            scanner.feed(stream[split:])
            self.assertEqual(scanner.server_settings, {3: 100})
            self.assertTrue(scanner.settings_acked)
            self.assertEqual(scanner.resets, {"REFUSED_STREAM": 1})
            self.assertEqual(scanner.counts[h2attack.DATA], 1)
            self.assertEqual(scanner.goaway, "ENHANCE_YOUR_CALM", f"split at {split}")


class CalmServer:
    """Sends SETTINGS, then a GOAWAY(ENHANCE_YOUR_CALM) and a close once a connection sent `limit` bytes."""

    def __init__(self, limit):
        self.limit = limit
        self.connections = 0

    async def start(self):
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader, writer):
        self.connections += 1
        writer.write(h2attack.frame(h2attack.SETTINGS, 0, 0, struct.pack(">HI", 3, 100)))
        taken = 0
        try:
            while taken < self.limit:
                data = await reader.read(65536)
                if not data:
                    return
                taken += len(data)
            writer.write(h2attack.frame(h2attack.GOAWAY, 0, 0, struct.pack(">II", 0, 0xb)))
            await writer.drain()
        except ConnectionError:
            return
        finally:
            writer.close()

    async def stop(self):
        self.server.close()
        await self.server.wait_closed()


class AttackTest(unittest.IsolatedAsyncioTestCase):

    async def test_floods_report_each_connection_the_server_ended_and_reconnect_until_the_deadline(self):
        server = CalmServer(limit=200_000)
        port = await server.start()
        try:
            for attack in (h2attack.rapid_reset, h2attack.ping_flood, h2attack.continuation):
                result = await attack(port, 4, 1.5, abusenet.SourceAddresses(2))
                self.assertGreater(result["connections"], 4, attack.__name__)
                self.assertGreater(result["fates"].get("goaway:ENHANCE_YOUR_CALM", 0), 4, result)
                self.assertEqual(result["connections"], result["ended_by_server"] + result["fates"].get("open", 0))
                self.assertGreater(result["frames_sent"], 0)
        finally:
            await server.stop()

    async def test_zero_window_keeps_its_streams_open_and_receives_no_data(self):
        server = H2Server()
        port = await server.start()
        try:
            result = await h2attack.zero_window(port, 2, 1.0, abusenet.SourceAddresses(2))
        finally:
            await server.stop()
        self.assertEqual(result["fates"], {"open": 2})
        self.assertEqual(result["streams_opened"], 2 * 10)  # the server's limit below
        self.assertEqual(result["data_frames_received"], 0)
        self.assertEqual(result["streams"]["outcomes"], {"open": 20})

    async def test_data_dribble_receives_one_byte_per_window_update(self):
        server = H2Server()
        port = await server.start()
        try:
            result = await h2attack.data_dribble(port, 1, 1.0, abusenet.SourceAddresses(2))
        finally:
            await server.stop()
        self.assertGreater(result["data_frames_received"], 10)
        self.assertEqual(server.largest_data, 1)

    async def test_data_dribble_reports_a_goaway_that_came_with_the_data(self):
        server = H2Server(goaway_after_data=True)
        port = await server.start()
        try:
            result = await h2attack.data_dribble(port, 1, 1.0, abusenet.SourceAddresses(2))
        finally:
            await server.stop()
        self.assertGreater(result["fates"]["goaway:ENHANCE_YOUR_CALM"], 0, result)
        self.assertEqual(result["connections"], result["ended_by_server"] + result["fates"].get("open", 0))

    async def test_the_legitimate_client_gets_answers_over_one_connection(self):
        server = H2Server()
        port = await server.start()
        try:
            client = h2legit.H2Client(port, source="127.0.0.2")
            outcomes = await asyncio.gather(*(client.get("/benchmark/hello") for _ in range(8)))
            client.close()
        finally:
            await server.stop()
        self.assertEqual(outcomes, [("200", 5)] * 8)
        self.assertEqual(server.connections, 1)


class H2Server:
    """An h2c server on the h2 library: 10 concurrent streams at most; answers "hello" to any GET, as flow control
    allows, and remembers the largest DATA frame it sent."""

    def __init__(self, goaway_after_data=False):
        self.connections = 0
        self.largest_data = 0
        self.goaway_after_data = goaway_after_data

    async def start(self):
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader, writer):
        self.connections += 1
        conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False))
        conn.local_settings = h2.settings.Settings(client=False, initial_values={
            h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS: 10})
        conn.initiate_connection()
        writer.write(conn.data_to_send())
        pending = {}
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    return
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.RequestReceived):
                        conn.send_headers(event.stream_id, [(":status", "200")])
                        pending[event.stream_id] = b"hello"
                for stream, body in list(pending.items()):
                    window = conn.local_flow_control_window(stream)
                    if window > 0:
                        chunk = body[:window]
                        self.largest_data = max(self.largest_data, len(chunk))
                        conn.send_data(stream, chunk, end_stream=len(chunk) == len(body))
                        pending[stream] = body[len(chunk):]
                        if not pending[stream]:
                            del pending[stream]
                        if self.goaway_after_data:
                            conn.close_connection(error_code=h2.errors.ErrorCodes.ENHANCE_YOUR_CALM)
                            writer.write(conn.data_to_send())
                            return
                writer.write(conn.data_to_send())
                await writer.drain()
        except (ConnectionError, h2.exceptions.ProtocolError):
            return
        finally:
            writer.close()

    async def stop(self):
        self.server.close()
        await self.server.wait_closed()


if __name__ == "__main__":
    unittest.main()
