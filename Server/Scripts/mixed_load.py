#!/usr/bin/env python3
"""Creation and visits at the same time against a running waypoint-links, on loopback.

`load` runs creator and visitor threads (each on its own keep-alive connection) until the time is
up, a stop file appears, or the service stops answering; it writes down every answer it got, with
the wall-clock time it arrived: what the service acknowledged. `verify` reads the service again
(after a restart) and compares what is stored with what was acknowledged:

- every link answered 201 is there, whole;
- every visit answered before `--lost-window` seconds ahead of `--stop-time` is counted; with a
  window of 0 (SIGTERM, or `--click-window 0`) every acknowledged visit is.

Engine-agnostic: everything goes through the HTTP API. Bounded in count and time; loopback only.
"""

import argparse
import http.client
import json
import os
import sys
import threading
import time
import urllib.parse

DESKTOP = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/18.6 Safari/605.1.15"
VISITED = 20  # links visited, created before the load starts


def connect(base):
    url = urllib.parse.urlsplit(base)
    if url.hostname not in ("127.0.0.1", "::1", "localhost"):
        sys.exit(f"{base} is not on loopback; this load goes to loopback only")
    return http.client.HTTPConnection(url.hostname, url.port, timeout=10)


class Client:
    """One keep-alive connection that reconnects once after the service closed it."""

    def __init__(self, base, token=None):
        self.base = base
        self.token = token
        self.connection = connect(base)

    def request(self, method, path, body=None, headers=None):
        headers = dict(headers or {})
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(body)
        for attempt in range(2):
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                return response.status, response.read()
            except (ConnectionError, http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = connect(self.base)
                if attempt == 1:
                    return None, b""
        return None, b""


def link_body(code, number):
    return {
        "code": code,
        "deepLink": f"readapp://books/{number}",
        "fallbacks": {"web": f"https://read.example.com/b/{number}"},
        "preview": {"title": f"Book {number} ({code})"},
    }


def load(args):
    setup = Client(args.base, args.token)
    for n in range(VISITED):
        status, body = setup.request("POST", "/api/links", link_body(f"{args.run}v{n}", n))
        if status != 201:
            sys.exit(f"could not create visit{n}: {status} {body[:200]!r}")
    deadline = time.time() + args.seconds
    stop = threading.Event()
    lock = threading.Lock()
    results = {"links": [], "visits": {f"{args.run}v{n}": [] for n in range(VISITED)}, "failures": [], "sent": 0}

    def running():
        return not stop.is_set() and time.time() < deadline and not (args.stop_file and os.path.exists(args.stop_file))

    def failure(what):
        with lock:
            if len(results["failures"]) < 50:
                results["failures"].append(what)

    def creator(worker):
        client = Client(args.base, args.token)
        i = 0
        while running() and i < 1_000_000:
            code = f"{args.run}c{worker}-{i}"
            status, body = client.request("POST", "/api/links", link_body(code, i))
            if status is None:
                stop.set()
                return
            if status == 201:
                with lock:
                    results["links"].append(code)
            else:
                failure(f"POST /api/links {code}: {status} {body[:200]!r}")
            i += 1

    def visitor(worker):
        client = Client(args.base)
        i = 0
        while running() and i < 10_000_000:
            code = f"{args.run}v{(worker * 7 + i) % VISITED}"
            with lock:
                results["sent"] += 1
            status, body = client.request("GET", f"/{code}", headers={"User-Agent": DESKTOP})
            if status is None:
                stop.set()
                return
            if status == 302:
                arrived = time.time()
                with lock:
                    results["visits"][code].append(arrived)
            else:
                failure(f"GET /{code}: {status} {body[:200]!r}")
            i += 1

    threads = [threading.Thread(target=creator, args=(w,)) for w in range(args.creators)]
    threads += [threading.Thread(target=visitor, args=(w,)) for w in range(args.visitors)]
    started = time.time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results["seconds"] = time.time() - started
    with open(args.out, "w") as file:
        json.dump(results, file)
    visits = sum(len(times) for times in results["visits"].values())
    print(
        f"load: {len(results['links'])} links and {visits} visits acknowledged in {results['seconds']:.1f} s "
        f"({len(results['links']) / results['seconds']:.0f} links/s, {visits / results['seconds']:.0f} visits/s), "
        f"{len(results['failures'])} other answers"
    )
    for what in results["failures"][:10]:
        print(f"  {what}")
    if results["failures"]:
        sys.exit("the service answered something other than 201 or 302 under load")


def verify(args):
    with open(args.results) as file:
        results = json.load(file)
    client = Client(args.base, args.token)
    stored = {}
    after = None
    while True:
        path = "/api/links?limit=200" + (f"&after={after}" if after else "")
        status, body = client.request("GET", path)
        if status != 200:
            sys.exit(f"GET {path}: {status} {body[:200]!r}")
        page = json.loads(body)
        for link in page["links"]:
            stored[link["code"]] = link
        after = page.get("next")
        if not after:
            break
    missing = [code for code in results["links"] if code not in stored]
    broken = []
    for code in results["links"]:
        link = stored.get(code)
        if link is None:
            continue
        number = code.rsplit("-", 1)[1]
        if link["deepLink"] != f"readapp://books/{number}" or link["preview"]["title"] != f"Book {number} ({code})":
            broken.append(code)
    acknowledged = sum(len(times) for times in results["visits"].values())
    # A window of 0 promises every acknowledged visit, those answered while the service drained too.
    cutoff = args.stop_time - args.lost_window if args.lost_window > 0 else float("inf")
    must_have = 0
    counted = 0
    short = []
    for code, times in results["visits"].items():
        status, body = client.request("GET", f"/api/links/{code}/clicks")
        if status != 200:
            sys.exit(f"GET /api/links/{code}/clicks: {status} {body[:200]!r}")
        total = json.loads(body)["total"]
        counted += total
        required = sum(1 for t in times if t <= cutoff)
        must_have += required
        if total < required:
            short.append(f"{code}: {total} counted, {required} acknowledged before the window, {len(times)} in all")
    lost = max(0, acknowledged - counted)
    # How far back from the stop the losses reach, were they the latest acknowledged visits.
    arrivals = sorted(t for times in results["visits"].values() for t in times)
    reach = f", the last {args.stop_time - arrivals[-lost]:.2f} s of them" if 0 < lost <= len(arrivals) else ""
    print(
        f"verify: links {len(results['links'])} acknowledged, {len(missing)} missing, {len(broken)} not as written; "
        f"visits {acknowledged} acknowledged ({results['sent']} sent), {counted} counted, {lost} lost{reach} "
        f"(allowed: those in the last {args.lost_window:g} s, {acknowledged - must_have})"
    )
    failed = False
    if missing or broken:
        print(f"  missing: {missing[:10]}, not as written: {broken[:10]}")
        failed = True
    if short:
        for line in short[:10]:
            print(f"  {line}")
        failed = True
    if counted > results["sent"]:
        print(f"  {counted} visits counted but only {results['sent']} sent")
        failed = True
    if failed:
        sys.exit("acknowledged writes were lost")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("load")
    run.add_argument("--base", required=True)
    run.add_argument("--token", required=True)
    run.add_argument("--seconds", type=float, default=20)
    run.add_argument("--creators", type=int, default=4)
    run.add_argument("--visitors", type=int, default=8)
    run.add_argument("--stop-file")
    run.add_argument("--out", required=True)
    run.add_argument("--run", default="r", help="a prefix for every code, new for each run on one database")
    check = sub.add_parser("verify")
    check.add_argument("--base", required=True)
    check.add_argument("--token", required=True)
    check.add_argument("--results", required=True)
    check.add_argument("--stop-time", type=float, required=True, help="when the service was stopped (epoch seconds)")
    check.add_argument("--lost-window", type=float, default=0, help="seconds before the stop whose visits may be lost")
    args = parser.parse_args()
    load(args) if args.command == "load" else verify(args)


if __name__ == "__main__":
    main()
