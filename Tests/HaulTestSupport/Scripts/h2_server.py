"""An HTTP/2 server over TLS for haul's tests (the h2 package, from PyPI in .build/venv): serves
GET /f/NAME as SIZE bytes of TestPattern's (HaulTestSupport) from the offset that is the sum of
NAME's bytes, on 127.0.0.1 at an ephemeral port, and prints "port N" once
it listens. It allows 128 streams on a connection, as nginx does.

After each request it writes to STATS (as JSON): the requests each path got, the most streams
that were open at once on any one connection, and how many connections were made.

usage: h2_server.py CERT KEY STATS [--size BYTES] [--delay MS] [--reset PATH]... [--goaway-after N] [--refuse]
  --delay         each body starts MS milliseconds after its request, as a server that works
                  on each answer (so many streams are open at once)
  --reset         the first request for PATH gets its headers and a quarter of its body, then
                  its stream is reset (RST_STREAM, INTERNAL_ERROR); later ones are served
  --goaway-after  each connection says GOAWAY after N requests: the streams it had not begun
                  are refused, as a server going down gracefully refuses them
  --refuse        every stream is refused (RST_STREAM, REFUSED_STREAM), as an overloaded server
                  refuses them; counted as "refused"
"""
import asyncio
import json
import os
import ssl
import sys

from h2.config import H2Configuration
from h2.connection import H2Connection
from h2.errors import ErrorCodes
from h2.events import ConnectionTerminated, RequestReceived, StreamEnded, StreamReset, WindowUpdated
from h2.exceptions import ProtocolError, StreamClosedError
from h2.settings import SettingCodes
from hyperframe.frame import GoAwayFrame

cert, key, stats_path = sys.argv[1], sys.argv[2], sys.argv[3]
rest = sys.argv[4:]
size = int(rest[rest.index("--size") + 1]) if "--size" in rest else 16384
to_reset = {rest[i + 1] for i, word in enumerate(rest) if word == "--reset"}
goaway_after = int(rest[rest.index("--goaway-after") + 1]) if "--goaway-after" in rest else None
delay = int(rest[rest.index("--delay") + 1]) / 1000 if "--delay" in rest else 0
refuse_all = "--refuse" in rest

stats = {"requests": {}, "peakStreams": 0, "connections": 0, "resets": 0, "goaways": 0, "refused": 0}


PERIOD = 65521


def pattern_table():
    state, table = 0x9E3779B9, bytearray(PERIOD)
    for index in range(PERIOD):
        state = (state * 1664525 + 1013904223) & 0xFFFFFFFF
        table[index] = state >> 24
    return bytes(table)


TABLE = pattern_table()


def body_for(name):
    start = sum(name.encode())
    return bytes(TABLE[(start + i) % PERIOD] for i in range(size))


def save_stats():
    temporary = stats_path + ".new"
    with open(temporary, "w") as file:
        json.dump(stats, file)
    os.replace(temporary, stats_path)


class Connection:
    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.h2 = H2Connection(H2Configuration(client_side=False, header_encoding="utf-8"))
        self.open_streams = set()
        self.served = 0
        self.pending = {}  # stream id -> bytes still to send
        self.going_away = False

    async def run(self):
        stats["connections"] += 1
        self.h2.initiate_connection()
        self.h2.update_settings({SettingCodes.MAX_CONCURRENT_STREAMS: 128})
        self.writer.write(self.h2.data_to_send())
        while True:
            data = await self.reader.read(65536)
            if not data:
                break
            try:
                events = self.h2.receive_data(data)
            except ProtocolError:
                break
            for event in events:
                if isinstance(event, RequestReceived):
                    self.request(event)
                elif isinstance(event, StreamReset):
                    self.open_streams.discard(event.stream_id)
                    self.pending.pop(event.stream_id, None)
                elif isinstance(event, WindowUpdated):
                    pass
                elif isinstance(event, ConnectionTerminated):
                    self.writer.write(self.h2.data_to_send())
                    self.writer.close()
                    return
                elif isinstance(event, StreamEnded):
                    pass
            self.send_pending()
            self.writer.write(self.h2.data_to_send())
            await self.writer.drain()
        self.writer.close()

    def request(self, event):
        headers = dict(event.headers)
        path = headers.get(":path", "")
        stream = event.stream_id
        if self.going_away or refuse_all:
            try:
                self.h2.reset_stream(stream, ErrorCodes.REFUSED_STREAM)
            except StreamClosedError:
                pass
            if refuse_all:
                stats["refused"] += 1
                save_stats()
            return
        count = stats["requests"].get(path, 0) + 1
        stats["requests"][path] = count
        self.open_streams.add(stream)
        stats["peakStreams"] = max(stats["peakStreams"], len(self.open_streams))
        if not path.startswith("/f/"):
            self.h2.send_headers(stream, [(":status", "404"), ("content-length", "0")], end_stream=True)
            self.open_streams.discard(stream)
            save_stats()
            return
        body = body_for(path[len("/f/"):])
        self.h2.send_headers(stream, [(":status", "200"), ("content-length", str(len(body)))])
        if path in to_reset and count == 1:
            self.h2.send_data(stream, body[: len(body) // 4])
            self.h2.reset_stream(stream, ErrorCodes.INTERNAL_ERROR)
            self.open_streams.discard(stream)
            stats["resets"] += 1
        else:
            asyncio.get_running_loop().call_later(delay, self.start_body, stream, body)
        self.served += 1
        if goaway_after is not None and self.served >= goaway_after and not self.going_away:
            # A graceful GOAWAY: the streams up to this one are still answered. Written past h2's
            # state machine, whose close_connection would stop them too.
            self.going_away = True
            self.writer.write(self.h2.data_to_send())
            self.writer.write(GoAwayFrame(stream_id=0, last_stream_id=stream, error_code=0).serialize())
            stats["goaways"] += 1
        save_stats()

    def start_body(self, stream, body):
        if stream not in self.open_streams:
            return
        self.pending[stream] = body
        self.send_pending()
        self.writer.write(self.h2.data_to_send())

    def send_pending(self):
        """Sends what the flow-control windows allow of each open stream's body."""
        for stream in list(self.pending):
            body = self.pending[stream]
            try:
                window = min(self.h2.local_flow_control_window(stream), self.h2.max_outbound_frame_size)
            except (StreamClosedError, ProtocolError):
                self.pending.pop(stream)
                self.open_streams.discard(stream)
                continue
            try:
                while body and window > 0:
                    piece, body = body[:window], body[window:]
                    self.h2.send_data(stream, piece)
                    window = min(self.h2.local_flow_control_window(stream), self.h2.max_outbound_frame_size)
                if not body:
                    self.h2.end_stream(stream)
            except (StreamClosedError, ProtocolError):
                # The client reset it meanwhile.
                body = b""
            if body:
                self.pending[stream] = body
            else:
                self.pending.pop(stream)
                self.open_streams.discard(stream)
        if self.going_away and not self.open_streams:
            self.writer.write(self.h2.data_to_send())
            self.writer.close()


async def main():
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["h2"])

    async def serve(reader, writer):
        try:
            await Connection(reader, writer).run()
        except (ConnectionError, ssl.SSLError):
            pass

    server = await asyncio.start_server(serve, "127.0.0.1", 0, ssl=context)
    print("port", server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
