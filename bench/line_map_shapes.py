#!/usr/bin/env python3
"""The line map's cost on the shapes of change that make it work hardest, against git.

Each shape is one file of N look-alike lines (`int value_K = compute(K, 7K);`, every line
unique and every two lines at least half alike) in a scratch repository, changed in one
commit, and a TOUCHED anchor of three lines on it, so that the line map settles the region
around the anchor:

  alternate   every other line edited: hunks one kept line apart, which regions would join
              into one region the size of the file but for their 400-line cap
  shuffled    the file cut into runs of 100 lines put in a random order, one line of the
              anchor's run edited: a few huge hunks, blocks moved between them
  reversed    the anchor's function, 400 lines, in reverse order: reordered look-alike lines
  grown       N/4 functions of four lines put in a random order, each signature given a
              parameter and a guard put in below it: every moved body goes on to its header
              past the guard, each header looked up among all the changed lines
  long        60 lines of N/5 words each, every one rewritten: each compared with every
              other by the bigrams made once a line

For each shape it times `context-pack --format json --anchor FILE:L-L+2` (the whole process)
and, as the baseline, `git diff -U0` of the same two commits, the work the line map adds to
(median of --runs, after one warm-up run), and prints the ratio, both peak RSS (GNU time's
%M) and the anchor's answer: its status, `best` and relocation's `found_at` (exit status 1
unless TOUCHED). Standard library only; everything is written to a temporary directory,
removed unless --keep.

    python3 bench/line_map_shapes.py --tool build/context-pack [--lines 100000] [--runs 5]
"""

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

GIT_ENV = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.com",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.com",
               GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")


def line(k):
    return "int value_%d = compute(%d, %d);" % (k, k, 7 * k)


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, env=GIT_ENV,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout.decode()


def make(root, name, base, target):
    """A repository of `base` then `target` as f.c; returns its directory."""
    repo = os.path.join(root, name)
    os.makedirs(repo)
    git(repo, "init", "-q")
    for i, lines in enumerate((base, target)):
        with open(os.path.join(repo, "f.c"), "w") as f:
            f.write("\n".join(lines) + "\n")
        git(repo, "add", "f.c")
        git(repo, "commit", "-q", "-m", "v%d" % (i + 1))
    return repo


def shapes(n, rng):
    """(name, base lines, target lines, anchored first line) for each shape."""
    base = [line(k) for k in range(n)]
    middle = n // 2 + 1  # 1-based, an odd line: edited in `alternate`
    alternate = [l + " /* x */" if i % 2 == 0 else l for i, l in enumerate(base)]
    runs = [base[i:i + 100] for i in range(0, n, 100)]
    rng.shuffle(runs)
    shuffled = [l for run in runs for l in run]
    at = shuffled.index(base[middle])  # the anchor's middle line, edited where it went
    shuffled[at] = shuffled[at].replace("compute", "calc")
    head, body = base[:middle - 1], base[middle - 1:middle - 1 + 400]
    reversed_ = head + body[::-1] + base[middle - 1 + 400:]
    functions = [function(k, grown=False) for k in range(n // 4)]
    moved = [function(k, grown=True) for k in range(n // 4)]
    rng.shuffle(moved)
    grown = [l for f in moved for l in f]
    return [("alternate", base, alternate, middle), ("shuffled", base, shuffled, middle),
            ("reversed", base, reversed_, middle + 10),
            ("grown", [l for f in functions for l in f], grown, 4 * (n // 8) + 1),
            long_lines(n, rng)]


def long_lines(n, rng):
    """60 lines of n/5 words each, every one rewritten: its words shuffled, five dropped."""
    base, target = ["int head(void) {"], ["int head(void) {"]
    for _ in range(60):
        words = ["w%d" % rng.randrange(5000) for _ in range(n // 5)]
        base.append(" ".join(words) + ";")
        rng.shuffle(words)
        target.append(" ".join(words[:-5]) + ";")
    return ("long", base + ["}"], target + ["}"], 30)


def function(k, grown):
    """Function k in four lines; grown: its signature given a parameter and a guard put in
    below it, as a moved function's header goes on to past lines put in."""
    if not grown:
        return ["int func_%d(int a, int b) {" % k, "\t" + line(k), "\treturn value_%d;" % k, "}"]
    return ["int func_%d(int a, int b, int flags) {" % k, "\tif (flags < 0) return -%d;" % k,
            "\t" + line(k), "\treturn value_%d;" % k, "}"]


def timed(cmd, runs):
    """Median wall seconds over `runs` (after a warm-up) and peak RSS in MB (GNU time)."""
    rss = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=GIT_ENV)
    peak = int(rss.stderr.decode().strip().splitlines()[-1]) / 1024
    walls = []
    for _ in range(runs):
        start = time.monotonic()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=GIT_ENV)
        walls.append(time.monotonic() - start)
    return statistics.median(walls), peak


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", required=True, help="the context-pack binary (copied first)")
    ap.add_argument("--lines", type=int, default=100000, help="lines in each file")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    args = ap.parse_args()
    if args.lines < 2000:
        ap.error("--lines must be at least 2000")
    if not os.path.exists("/usr/bin/time"):
        ap.error("GNU time (/usr/bin/time) is needed for peak RSS")
    scratch = tempfile.mkdtemp(prefix="cp-line-map-shapes-")
    try:
        tool = os.path.join(scratch, "context-pack")
        shutil.copy2(args.tool, tool)
        rng = random.Random(args.seed)
        print("| shape | tool | git diff -U0 | ratio | tool RSS | git RSS | answer |")
        print("|---|--:|--:|--:|--:|--:|---|")
        failed = False
        for name, base, target, first in shapes(args.lines, rng):
            repo = make(scratch, name, base, target)
            anchor = "f.c:%d-%d" % (first, first + 2)
            cmd = [tool, "-C", repo, "--base", "HEAD~1", "--target", "HEAD", "--anchor", anchor,
                   "--format", "json"]
            out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 env=GIT_ENV)
            if out.returncode > 1:
                print("%s: context-pack failed: %s" % (name, out.stderr.decode().strip()),
                      file=sys.stderr)
                return 2
            a = json.loads(out.stdout)["specs"][0]["anchors"][0]
            best = a.get("best") or {}
            answer = "%s, best %s" % (a["status"], best.get("tier", "-"))
            if best.get("line"):
                answer += " %d-%d" % (best["line"], best["end_line"])
            if a.get("found_at"):
                answer += ", found at %d-%d" % (a["found_at"]["line"], a["found_at"]["end_line"])
            failed = failed or a["status"] != "TOUCHED"
            tool_s, tool_mb = timed(cmd, args.runs)
            git_s, git_mb = timed(["git", "-C", repo, "diff", "-U0", "HEAD~1", "HEAD"],
                                  args.runs)
            print("| %s | %.3f s | %.3f s | %.2fx | %.0f MB | %.0f MB | %s |" %
                  (name, tool_s, git_s, tool_s / git_s, tool_mb, git_mb, answer))
        return 1 if failed else 0
    finally:
        if args.keep:
            print("kept %s" % scratch, file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
