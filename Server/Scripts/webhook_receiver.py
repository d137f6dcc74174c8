#!/usr/bin/env python3
"""A webhook receiver on loopback for the service's scripts: appends each delivery it is sent to a
file, one JSON object a line ({"event", "delivery", "signature", "body"}), and answers 200.

Usage: webhook_receiver.py PORT FILE   (runs until killed)
"""
import http.server
import json
import sys
import threading

port, path = int(sys.argv[1]), sys.argv[2]
lock = threading.Lock()  # one line at a time, whole, from the server's threads


class Receiver(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: one connection carries many deliveries

    def do_POST(self):
        length = int(self.headers["Content-Length"])
        body = self.rfile.read(length)
        if len(body) < length:
            # The sender went away mid-request (the fault tests kill it): no delivery was made, and the
            # service sends it again; recording the torn half would count a body that never came.
            self.close_connection = True
            return
        record = {
            "event": self.headers["Waypoint-Event"],
            "delivery": self.headers["Waypoint-Delivery"],
            "signature": self.headers["Waypoint-Signature"],
            "body": body.decode(),
        }
        with lock, open(path, "a") as out:
            out.write(json.dumps(record) + "\n")
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *arguments):
        pass


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A service killed mid-connection (the fault tests do it) resets it: expected, not news.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


Server(("127.0.0.1", port), Receiver).serve_forever()
