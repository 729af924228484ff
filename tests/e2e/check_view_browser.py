#!/usr/bin/env python3
"""The timeline page in a real browser (issue 49): headless Chromium opens the page `simtsync
view` writes for a small run and the test reads what the page drew from its own state (the
<pre id="view-state"> the viewer publishes: tracks, spans drawn, states, the wait-for graph),
not from pixels. Exit 77 (CTest skip) only when no Chromium is installed.

    check_view_browser.py SIMTSYNC OUTDIR
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def browser():
    for name in ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def page_state(chrome, page, out):
    args = [chrome, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            f"--user-data-dir={os.path.join(out, 'profile')}", "--window-size=1400,900",
            "--virtual-time-budget=5000", "--dump-dom", "file://" + os.path.abspath(page)]
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    # The element the viewer added (its script mentions the name too: take the last match).
    found = re.findall(r'<pre id="view-state" style="display: none;">(.*?)</pre>', p.stdout, re.S)
    if not found:
        fail(f"{page}: the page published no state (exit {p.returncode}):\n{p.stderr[-2000:]}")
    return json.loads(html.unescape(found[-1]))


def main():
    exe, out = sys.argv[1], sys.argv[2]
    chrome = browser()
    if not chrome:
        print("skipped: no Chromium (scripts/setup.sh installs Debian's chromium)")
        sys.exit(77)
    os.makedirs(out, exist_ok=True)

    def make(name, args, rc):
        t = os.path.join(out, name + ".json.gz")
        p = subprocess.run([exe, "run", *args, "--trace", t], stdout=subprocess.DEVNULL)
        if p.returncode != rc:
            fail(f"run {args} exited {p.returncode}")
        page = os.path.join(out, name + ".html")
        subprocess.run([exe, "view", t, "-o", page], check=True, stdout=subprocess.DEVNULL)
        return page

    s = page_state(chrome, make("ht", ["ht", "--size", "test"], 0), out)
    print("ht:", json.dumps(s))
    if not s.get("ready"):
        fail("ht: the viewer did not finish")
    if s["tracks"].get("warp", 0) < 8 or s["tracks"].get("lock", 0) < 1 or s["drawn"] < 100:
        fail("ht: expected warp tracks, a lock track and drawn spans")
    if s["states"].get("spin", 0) < 1 or s["states"].get("issue", 0) < 1:
        fail("ht: no spin or issue spans drawn")
    reasons = ("not picked", "data", "memory", "structural", "control", "fetch")
    if s["states"].get("spin (DDOS)", 0) < 1 or not any(s["states"].get(k) for k in reasons):
        fail("ht: no spin (DDOS) spans or none named by a scheduler reason drawn")
    if "atomic waiting" not in s.get("counters", []):
        fail("ht: no atomic-unit occupancy panel")

    s = page_state(chrome, make("lockq", ["ht_lockinst", "--size", "test", "--config", "gtx480",
                                          "--set", "mem.lock_queue.mode=ideal"], 0), out)
    print("lockq:", json.dumps(s))
    if s["tracks"].get("lockq", 0) < 1 or s.get("handovers", 0) < 1 or s.get("queued_max", 0) < 2:
        fail("lockq: expected lock queue tracks with hand-overs and queues of 2 or more")

    s = page_state(chrome, make("naive_lock", ["naive_lock", "--size", "test"], 3), out)
    print("naive_lock:", json.dumps(s))
    g = s.get("graph") or {}
    if g.get("warps", 0) != 2 or g.get("edges", 0) < 2:
        fail("naive_lock: the wait-for graph should hold the two spinning warps")
    if s.get("highlighted", 0) < 1:
        fail("naive_lock: no warp highlighted on the timeline")
    print("browser OK")


if __name__ == "__main__":
    main()
