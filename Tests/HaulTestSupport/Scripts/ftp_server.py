"""A real FTP server for haul's tests (pyftpdlib, from PyPI in .build/venv): serves ROOT on
127.0.0.1 at an ephemeral port, to user "haul" (password "secret") and to anonymous, and prints
"port N" once it listens. Every command it receives is logged to LOG (RETR, REST, SIZE…).

usage: ftp_server.py ROOT LOG [--tls CERT KEY] [--rate BYTES_PER_SECOND] [--size TEXT]
  --tls   explicit FTPS (AUTH TLS); plain FTP is still allowed, as most servers allow it
  --rate  caps each data connection, so a test can stop a transfer half way
  --size  answers every SIZE with "213 TEXT", as a lying or broken server does
"""
import logging
import sys

from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler, ThrottledDTPHandler
from pyftpdlib.servers import FTPServer

root, log = sys.argv[1], sys.argv[2]
rest = sys.argv[3:]
handler = FTPHandler
if "--tls" in rest:
    from pyftpdlib.handlers import TLS_FTPHandler

    at = rest.index("--tls")
    handler = TLS_FTPHandler
    handler.certfile = rest[at + 1]
    handler.keyfile = rest[at + 2]
authorizer = DummyAuthorizer()
authorizer.add_user("haul", "secret", root, perm="elr")
authorizer.add_anonymous(root, perm="elr")
handler.authorizer = authorizer
handler.permit_foreign_addresses = False
if "--rate" in rest:
    dtp = ThrottledDTPHandler
    dtp.write_limit = int(rest[rest.index("--rate") + 1])
    handler.dtp_handler = dtp
    # sendfile() would send the file past the throttle.
    handler.use_sendfile = False
if "--size" in rest:
    lie = rest[rest.index("--size") + 1]

    class LyingHandler(handler):
        def ftp_SIZE(self, path):
            self.respond("213 " + lie)

    handler = LyingHandler
logging.basicConfig(filename=log, level=logging.DEBUG, format="%(message)s")
server = FTPServer(("127.0.0.1", 0), handler)
print("port", server.address[1], flush=True)
server.serve_forever(handle_exit=True)
