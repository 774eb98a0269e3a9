"""A server for the live queue's picture (contrib/screenshot/screenshot.sh), on 127.0.0.1.

/NAME?size=N&rate=R sends N bytes at R bytes a second (Content-Length, ETag, ranges not taken);
/missing/NAME answers 404. usage: demo_server.py PORT
"""
import http.server
import sys
import time
from urllib.parse import parse_qs, urlparse


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlparse(self.path)
        if url.path.startswith("/missing/"):
            body = b"not here\n"
            self.send_response(404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        query = parse_qs(url.query)
        size = int(query.get("size", ["1048576"])[0])
        rate = int(query.get("rate", ["0"])[0])
        self.send_response(200)
        self.send_header("Content-Length", str(size))
        self.send_header("ETag", '"demo"')
        self.end_headers()
        chunk = 16384
        sent = 0
        try:
            while sent < size:
                piece = min(chunk, size - sent)
                self.wfile.write(b"\0" * piece)
                sent += piece
                if rate:
                    time.sleep(piece / rate)
        except (BrokenPipeError, ConnectionResetError):
            pass


http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
