#!/usr/bin/env python3
"""replay-ab.py ROUNDS NAME=BIN NAME=BIN ...: scripts/bench.sh's replay goals for builds in turn.

Each round runs Python's json.loads of every line of the big recording (the fastest of python3 on
PATH and /usr/bin/python3 that round), then, for each build in turn (the order rotated each
round), replay -o json of the big recording and the 10x pairs (--plain restarts 30 -> 300 and
pods 100 -> 1000, -o json pods 100 -> 1000); NOPAIRS=1 leaves the pairs out. It reads the
recordings scripts/bench.sh makes (run it once first). Copy each binary with cat before
comparing: one go build has just written has more of itself mapped (docs/performance.md).
"""
import glob, os, shutil, statistics, subprocess, sys, time
D = max(glob.glob(os.path.join(os.environ.get("TMPDIR", "/tmp"), "sidecar-top-bench", "*")), key=os.path.getmtime)
BIG = f"{D}/pods-2200.jsonl"
PYS = sorted({subprocess.run(["python3", "-c", "import sys; print(sys.executable)"], capture_output=True, text=True).stdout.strip(), "/usr/bin/python3"} - {""})
PYSRC = 'import json,sys\nfor l in open(sys.argv[1],"rb"):\n    l.strip() and json.loads(l)'

def run(argv):
    t = time.monotonic()
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1); os.dup2(null, 2)
        os.execv(argv[0], argv)
    _, status, ru = os.wait4(pid, 0)
    if status != 0:
        raise SystemExit(f"{argv} failed: {status}")
    return time.monotonic() - t, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024

PAIRS = [] if os.environ.get("NOPAIRS") else [("plain restarts", ["replay", "--plain"], "restarts-30", "restarts-300"),
         ("plain pods", ["replay", "--plain"], "pods-100", "pods-1000"),
         ("json pods", ["replay", "-o", "json"], "pods-100", "pods-1000")]

def main():
    rounds = int(sys.argv[1])
    builds = [a.split("=", 1) for a in sys.argv[2:]]
    res = {n: {"wall": [], "cpu": [], "rss": [], "ratio": [], "cpuratio": [], "pairs": {p[0]: ([], []) for p in PAIRS}} for n, _ in builds}
    for k in range(rounds):
        order = builds[k % len(builds):] + builds[:k % len(builds)]
        py = min(run([p, "-c", PYSRC, BIG])[0] for p in PYS)
        for n, b in order:
            w, c, r = run([b, "replay", "-o", "json", BIG])
            x = res[n]
            x["wall"].append(w); x["cpu"].append(c); x["rss"].append(r); x["ratio"].append(w / py)
            for name, args, small, large in PAIRS:
                x["pairs"][name][0].append(run([b] + args + [f"{D}/{small}.jsonl"])[1])
                x["pairs"][name][1].append(run([b] + args + [f"{D}/{large}.jsonl"])[1])
        print(f"round {k+1}: python {py:.3f}s " + " ".join(f"{n} {res[n]['wall'][-1]:.3f}s/{res[n]['cpu'][-1]:.3f}cpu/{res[n]['ratio'][-1]:.2f}x" for n, _ in builds), flush=True)
    rng = lambda l, f="%.3f": (f % min(l)) + "–" + (f % max(l))
    for n, _ in builds:
        x = res[n]
        print(f"{n}: json big wall {rng(x['wall'])} s (median {statistics.median(x['wall']):.3f}), CPU {rng(x['cpu'])} (median {statistics.median(x['cpu']):.3f}), "
              f"÷ Python wall {rng(x['ratio'], '%.2f')}× (median {statistics.median(x['ratio']):.2f}), peak RSS {rng(x['rss'], '%.0f')} MiB")
        for name, (a, b) in x["pairs"].items():
            print(f"   {name}: best CPU {min(a):.3f} → {min(b):.3f} s ({min(b)/min(a):.1f}×); medians {statistics.median(a):.3f} → {statistics.median(b):.3f}")
main()
