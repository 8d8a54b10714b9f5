#!/usr/bin/env python3
"""Catalogue S10's time bucket (issue 24), run by `make bench-load`: a code asked for an address with
an account and for one without must not differ in status, body or time. Tests make no timed
assertions, so the time is measured here: ROUNDS (100) codes for addresses with an account and
ROUNDS for addresses without, interleaved on one keep-alive connection (each kind first in half the
rounds), against `reelforge all` started with the code limits lifted (load.sh). Asserts the answers
are the same; prints the medians and their ratio (goal: within 10 % of 1).

usage: enumeration.py API DATA_DIR   (API: http://127.0.0.1:PORT/diyvrbt; DATA_DIR: its data dir)
"""
import http.client
import json
import statistics
import sys
import time
import urllib.parse

ROUNDS = 100


def main() -> None:
    api, data = sys.argv[1], sys.argv[2]
    url = urllib.parse.urlsplit(api)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)

    def post(path: str, body: dict) -> tuple[float, int, dict]:
        started = time.perf_counter()
        conn.request("POST", url.path + path, json.dumps(body), {"Content-Type": "application/json"})
        answer = conn.getresponse()
        text = answer.read()
        return time.perf_counter() - started, answer.status, json.loads(text)

    def last_code(mail: str) -> str:
        with open(f"{data}/mail-outbox.log", encoding="utf-8") as f:
            lines = [line for line in f if mail in line]
        return lines[-1].split()[-1]

    run = int(time.time())
    known = [f"known-{run}-{i}@example.com" for i in range(ROUNDS)]
    unknown = [f"unknown-{run}-{i}@example.com" for i in range(ROUNDS)]
    for mail in known:
        _, _, sent = post("/user/sendCode", {"mail": mail})
        if sent.get("code") != 2000:
            sys.exit(f"bench-enumeration: sendCode refused: {sent}")
        _, _, login = post("/user/login", {"mail": mail, "code": last_code(mail)})
        if login.get("code") != 2000:
            sys.exit(f"bench-enumeration: login refused: {login}")
    times: dict[str, list[float]] = {"known": [], "unknown": []}
    answers: dict[str, set[str]] = {"known": set(), "unknown": set()}
    for i, (k, u) in enumerate(zip(known, unknown)):
        pair = (("known", k), ("unknown", u))
        # Each kind goes first in half of the rounds: the first of two requests may pay for the
        # client's own work between rounds.
        for kind, mail in pair if i % 2 == 0 else pair[::-1]:
            took, status, body = post("/user/sendCode", {"mail": mail})
            times[kind].append(took)
            answers[kind].add(f"{status} {json.dumps(body, sort_keys=True)}")
    if answers["known"] != answers["unknown"]:
        sys.exit(f"bench-enumeration: the answers differ: {answers}")
    a, b = statistics.median(times["known"]), statistics.median(times["unknown"])
    print(f"code request known ms: {a * 1000:.2f}")
    print(f"code request unknown ms: {b * 1000:.2f}")
    print(f"code request known/unknown: {a / b:.3f}")


if __name__ == "__main__":
    main()
