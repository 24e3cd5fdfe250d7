#!/usr/bin/env python3
"""context-pack benchmark suite: the tool against the git CLI doing the same work, in the same run.

    python3 bench/run.py --repo /work/.mirror/git+git/repo --tool build/context-pack [--quick]
        [--packaged build-deb/deb-root/usr/bin/context-pack]

Workloads (issue 4; docs/performance.md has the method and the results):
  batch    >= 500 anchors over >= 10 (base, target) pairs of the repository, one
           `context-pack --table --format json FILE.jsonl` run, against the git CLI floor
           (per pair `git diff -M --name-status B T` + `git diff -U0 -M B T -- <anchored paths>`)
           and against the seed's designs (one `git diff -U0` per distinct path; one rename
           pass per anchor, measured on a sample of anchors and extrapolated).
  large-batch  the same over --large-pairs (300) pairs and --large-anchors (12,000) anchors,
           with the default threads and --jobs 1, against the git floor; and a tenth of it,
           whose peak RSS the large one's is compared with (issue 17: memory that follows the
           pairs in flight, not the batch).
  orient   30 anchors in a throwaway clone's working tree with uncommitted edits, a staged
           rename, an unstaged delete + similar untracked file and an untracked file, against
           `git diff -M --name-status BASE` + `git diff -U0 -M BASE -- paths` + `git status --porcelain`.
  callers  20 symbols of varied frequency, at a commit and in the working tree: the pack
           (windows + callers) against one `git grep -n -w -F -e s1 .. -e s20` and against one
           `git grep` per symbol.
  scale    synthetic repositories of 100,000 and 5,000 files (bench/make_synthetic.py):
           resolving 10 anchors in unchanged files, at a commit and in the working tree.
  history  --history-anchors (30) anchors of 5-40 lines in files changed between a tag some
           thousands of commits back (--history-base, v2.48.0) and the repository's HEAD, some
           in its busiest files, some in renamed ones: `--history --table --format json` against
           the same without --history and against one `git log -L L,E:PATH --format=%H
           --no-patch BASE..HEAD` per anchor, at the range the tool gives at the target; every
           anchor's history must be git's list (else exit 1).

Every measurement is the median of --runs interleaved repetitions (after one warm-up round;
the order of the variants rotates every round) of the wall time of whole processes (cpu time
from os.wait4 is printed beside it). Peak RSS is taken in the warm-up round through GNU time
(/usr/bin/time -f %M): os.wait4's ru_maxrss cannot be used, because Linux keeps the forking
parent's high-water mark (this script's) in the child's maxrss across exec. Multi-process
baselines are the sum of their processes' wall times and the largest peak RSS among them.

--packaged PATH names a second binary, the Debian package's (unpacked with `dpkg -x`): every
workload then runs it with exactly the arguments of --tool, as another variant of the same
interleaved rounds (tools() makes both builds' variants), and every table, the Details and the
--json output report it beneath the build from source (a "packaged" object in --json): its
medians of wall and cpu time, its peak RSS and its ratio against the same baseline, or against
itself where the baseline is the tool too (100k files against 5k, --history against without).
Every target is evaluated for both builds; the exit status is 1 when either fails one.

Standard library only. The repository is only read (git diff/grep/cat-file/clone --shared);
scratch files, the clone and the synthetic repositories live in a temporary directory that is
removed at the end unless --keep.
"""

import argparse
import collections
import importlib.util
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True   # no __pycache__ next to check.py or in bench/
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import make_synthetic  # noqa: E402


def load_check():
    """tests/real_history/check.py, imported (not edited): sampling and git plumbing."""
    path = os.path.join(ROOT, "tests", "real_history", "check.py")
    spec = importlib.util.spec_from_file_location("cp_real_history_check", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


check = load_check()
ENV = dict(check.GIT_ENV)   # no system/global config, GIT_OPTIONAL_LOCKS=0, literal pathspecs


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------
# measuring

class Cmd:
    """One process to run: argv, working directory, accepted exit codes, weight (how many
    times it stands for: >1 only for an extrapolated sample)."""

    def __init__(self, argv, cwd=None, ok=(0,), weight=1.0):
        self.argv, self.cwd, self.ok, self.weight = list(argv), cwd, ok, weight


GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


class Runner:
    """Runs processes with their output to a file. Wall and cpu time come from os.wait4 on a
    direct child. Peak RSS does not: Linux carries the RSS high-water mark of the forked parent
    (this Python process) into the child's ru_maxrss across exec, so wait4 never reports less
    than the script's own size. Peak RSS is therefore measured in the (untimed) warm-up round
    through GNU time, whose own small footprint is the floor; without /usr/bin/time the wait4
    figure is kept and flagged as an upper bound."""

    def __init__(self, scratch):
        self.out = os.path.join(scratch, "stdout.bin")
        self.err = os.path.join(scratch, "stderr.txt")
        self.rss_file = os.path.join(scratch, "rss.txt")

    def one(self, cmd, rss=False):
        """-> (wall seconds, peak RSS KiB, cpu seconds) of one process."""
        argv = cmd.argv
        if rss and GNU_TIME:
            argv = [GNU_TIME, "-f", "%M", "-o", self.rss_file] + argv
        with open(self.out, "wb") as o, open(self.err, "wb") as e:
            t0 = time.perf_counter()
            p = subprocess.Popen(argv, cwd=cmd.cwd, env=ENV, stdin=subprocess.DEVNULL,
                                 stdout=o, stderr=e)
            _, status, ru = os.wait4(p.pid, 0)
            wall = time.perf_counter() - t0
        p.returncode = rc = os.waitstatus_to_exitcode(status)
        if rc not in cmd.ok:
            with open(self.err, "rb") as e:
                msg = e.read().decode(errors="replace")[:2000]
            raise RuntimeError("exit %d: %s\n%s" % (rc, " ".join(cmd.argv)[:500], msg))
        peak = ru.ru_maxrss
        if rss and GNU_TIME:
            with open(self.rss_file) as f:
                peak = int(f.read().split()[-1])
        return wall, peak, ru.ru_utime + ru.ru_stime

    def variant(self, cmds, rss=False):
        wall = cpu = 0.0
        peak = 0
        for c in cmds:
            w, m, u = self.one(c, rss)
            wall += w * c.weight
            cpu += u * c.weight
            peak = max(peak, m)
        return wall, peak, cpu

    def stdout(self, cmd):
        self.one(cmd)
        with open(self.out, "rb") as f:
            return f.read()


class Stat:
    def __init__(self, samples, ncmds, rss):
        self.walls = [s[0] for s in samples]
        self.wall = statistics.median(self.walls)
        self.cpu = statistics.median(s[2] for s in samples)
        self.rss = rss                                  # KiB, largest of one process
        self.ncmds = ncmds

    def spread(self):
        return "min %s max %s" % (fmt_t(min(self.walls)), fmt_t(max(self.walls)))


def compare(runner, variants, runs, warmup=1, label=""):
    """Run every variant once a round, rotating the order, warm-up rounds discarded."""
    names = list(variants)
    samples = {n: [] for n in names}
    rss = {n: 0 for n in names}
    for r in range(warmup + runs):
        k = r % len(names)
        for n in names[k:] + names[:k]:
            s = runner.variant(variants[n], rss=r < warmup)
            if r >= warmup:
                samples[n].append(s)
            else:
                rss[n] = max(rss[n], s[1])
        log("  %s round %d/%d done" % (label, r + 1, warmup + runs))
    return {n: Stat(samples[n], len(variants[n]), rss[n]) for n in names}


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return "/".join(f.read().split()[:3])
    except OSError:
        return "?"


def fmt_t(s):
    return "%.1f ms" % (s * 1e3) if s < 10 else "%.2f s" % s


def fmt_rss(kib):
    return "%.0f MB" % (kib / 1024.0)


PKG = " [packaged]"   # the packaged build's variant: the source build's variant name + PKG


def tools(args, name, rest, cwd=None):
    """The tool variants of one command line (rest: the arguments after the binary): name runs
    the build from source and, with --packaged, name + PKG the packaged build with exactly the
    same arguments. Every workload makes its tool runs here, so compare() interleaves both
    builds in the same rounds and Row reports both."""
    v = {name: [Cmd([args.tool] + rest, cwd=cwd, ok=(0, 1))]}
    if args.packaged:
        v[name + PKG] = [Cmd([args.packaged] + rest, cwd=cwd, ok=(0, 1))]
    return v


def builds(args):
    """The suffixes of the builds measured: the source build's "", the packaged build's PKG."""
    return ["", PKG] if args.packaged else [""]


class Side:
    """One build's measurement in a row: its variant against a baseline. own_base: the
    baseline is that build's own variant (a tool variant against a tool variant)."""

    def __init__(self, build, tool, base, own_base=False):
        self.build, self.tool, self.base, self.own_base = build, tool, base, own_base
        self.ratio = tool.wall / base.wall if base.wall > 0 else float("inf")


class Row:
    """Variant tool of the compare() result st against variant base, for the build from source
    and, when tool + PKG was measured, for the packaged build: against the same baseline, or
    against its own variant where the baseline is a tool variant too (base + PKG)."""

    def __init__(self, workload, st, tool, base, target=None):
        self.workload, self.target = workload, target
        self.sides = [Side("source", st[tool], st[base])]
        if tool + PKG in st:
            own = base + PKG in st
            self.sides.append(Side("packaged", st[tool + PKG], st[base + PKG] if own else st[base],
                                   own))

    def verdict(self, side):
        if self.target is None:
            return "info"
        return "PASS" if side.ratio <= self.target else "FAIL"

    def label(self, side):
        """The table's first cell: the workload, and beneath it the packaged build's line."""
        if side.build == "source":
            return self.workload
        return "  packaged build, " + ("against itself" if side.own_base else "same baseline")


# ----------------------------------------------------------------------------
# helpers on the repository

def git_dir_of(repo):
    git_dir = check.git_dir_of(repo)
    if git_dir is None:
        raise SystemExit("not a git repository: %s" % repo)
    return git_dir


GLOB_ENV = {k: v for k, v in ENV.items() if k != "GIT_LITERAL_PATHSPECS"}


def git_out(git_dir, *args, cwd=None, globs=False):
    cmd = ["git"] + (["--git-dir=" + git_dir] if git_dir else []) + list(args)
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=GLOB_ENV if globs else ENV)
    if p.returncode not in (0, 1):
        raise RuntimeError("%s: %s" % (" ".join(cmd), p.stderr.decode(errors="replace")))
    return p.stdout


def tool_json(runner, argv, cwd=None):
    data = runner.stdout(Cmd(argv, cwd=cwd, ok=(0, 1)))
    return json.loads(data)


def status_counts(doc):
    c = collections.Counter()
    for s in doc["specs"]:
        for a in s["anchors"]:
            c[(a.get("status") or "?") + ("+RENAMED" if a.get("renamed") else "")] += 1
    return c


# ----------------------------------------------------------------------------
# 1. batch drift

def sample_batch(args, scratch, git_dir, n_pairs, n_anchors, name):
    """A JSON Lines batch of n_anchors over n_pairs sampled pairs; returns (pairs, path)."""
    log("%s: sampling %d pairs, %d anchors (seed %d)" % (name, n_pairs, n_anchors, args.seed))
    g = check.Git(git_dir)
    blobs = check.BlobReader(g)
    rng = random.Random(args.seed)
    pairs = check.pick_pairs(g, rng, n_pairs, [])
    for i, pair in enumerate(pairs):
        cnt = n_anchors // len(pairs) + (1 if i < n_anchors % len(pairs) else 0)
        pair["anchors"] = check.sample_anchors(g, blobs, rng, pair, cnt, i)
    blobs.close()

    jsonl = os.path.join(scratch, name.replace(" ", "-") + ".jsonl")
    with open(jsonl, "w") as f:
        for i, pair in enumerate(pairs):
            fc = []
            for j, a in enumerate(pair["anchors"]):
                loc = {k: a[k] for k in ("path", "line", "end_line", "symbol") if k in a}
                fc.append({"location": loc, "change": "anchor %d.%d" % (i, j)})
            f.write(json.dumps({"id": "pair%02d" % i, "base": pair["base"],
                                "target": pair["target"], "file_changes": fc}) + "\n")
    return pairs, jsonl


def batch_tool(args, jsonl):
    """The tool's batch run with the default threads ("tool"), and the same on the main thread
    alone ("alone": how much of the result is the pool's)."""
    return {**tools(args, "tool", ["-C", args.repo, "--table", "--format", "json", jsonl]),
            **tools(args, "alone", ["-C", args.repo, "--jobs", "1", "--table", "--format", "json",
                                    jsonl])}


def pair_floor(pair, git_dir):
    """The git floor of one pair: its renames, and the -U0 hunks of its anchored paths and their
    new names; with the anchored paths and the renames, for the seed's designs."""
    b, t = pair["base"], pair["target"]
    renamed = {x[2]: x[3] for x in pair["ns"] if x[0] == "R"}
    anchored = sorted(set(a["path"] for a in pair["anchors"]))
    paths = sorted(set(anchored) | {renamed[p] for p in anchored if p in renamed})
    gd = ["git", "--git-dir=" + git_dir]
    return ([Cmd(gd + ["diff", "-M", "--name-status", b, t]),
             Cmd(gd + ["diff", "-U0", "-M", b, t, "--"] + paths)], anchored, renamed)


def batch_drift(args, runner, scratch, git_dir, rows, notes):
    pairs, jsonl = sample_batch(args, scratch, git_dir, args.pairs, args.anchors, "batch")
    v = batch_tool(args, jsonl)
    floor, per_path, per_anchor = [], [], []
    n_anchors = n_paths = 0
    for pair in pairs:
        b, t = pair["base"], pair["target"]
        cmds, anchored, renamed = pair_floor(pair, git_dir)
        floor += cmds
        n_anchors += len(pair["anchors"])
        n_paths += len(anchored)
        gd = ["git", "--git-dir=" + git_dir]
        for p in anchored:
            per_path.append(Cmd(gd + ["diff", "-U0", "-M", b, t, "--", p] +
                                ([renamed[p]] if p in renamed else [])))
        # the seed ran one whole-tree rename pass per anchor: the same command for every
        # anchor of a pair, so a sample of k runs a pair stands for all its anchors
        k = min(args.rename_sample, len(pair["anchors"]))
        for _ in range(k):
            per_anchor.append(Cmd(gd + ["diff", "-M", "--name-status", b, t],
                                  weight=len(pair["anchors"]) / k))

    doc = tool_json(runner, v["tool"][0].argv)
    got = sum(len(s["anchors"]) for s in doc["specs"])
    if got != n_anchors:
        raise RuntimeError("the tool reported %d anchors for %d" % (got, n_anchors))
    sc = status_counts(doc)
    notes.append("batch drift: %d anchors, %d pairs, %d distinct (pair, path); statuses: %s" % (
        n_anchors, len(pairs), n_paths, ", ".join("%s %d" % kv for kv in sorted(sc.items()))))
    for i, pair in enumerate(pairs):
        c = collections.Counter(x[0] for x in pair["ns"])
        notes.append("  pair%02d %s..%s gap %s: %d paths changed (%s), %d anchors" % (
            i, pair["base"][:12], pair["target"][:12], pair["gap"], len(pair["ns"]),
            " ".join("%s%d" % kv for kv in sorted(c.items())), len(pair["anchors"])))

    st = compare(runner, dict(v, floor=floor, per_path=per_path), args.runs, label="batch drift")
    # the per-anchor design is slow: a sample of it, a few rounds
    st.update(compare(runner, {"per_anchor": per_anchor}, max(3, args.runs // 3),
                      label="batch drift (seed per-anchor sample)"))
    rows.append(Row("batch drift: %d anchors/%d pairs, --table vs git floor (%d git procs)" % (
        n_anchors, len(pairs), len(floor)), st, "tool", "floor", 0.5))
    rows.append(Row("batch drift, main thread alone (--jobs 1) vs git floor", st, "alone",
                    "floor"))
    rows.append(Row("batch drift vs seed: git diff -U0 per path (%d procs)" % len(per_path),
                    st, "tool", "per_path"))
    rows.append(Row("batch drift vs seed: rename pass per anchor (%d, extrapolated*)" % n_anchors,
                    st, "tool", "per_anchor"))
    notes.append("* rename pass per anchor: %d `git diff -M --name-status B T` runs (%d a pair) "
                 "timed and scaled by anchors/sample of their pair" % (len(per_anchor), args.rename_sample))
    return st


def batch_large(args, runner, scratch, git_dir, rows, notes):
    """The large batch (issue 17): a few hundred pairs, against the git floor, with and without
    the pool; and a tenth of it, whose peak RSS the large one's is compared with: memory
    should follow the pairs in flight, not the batch."""
    peaks = {}
    for n_pairs in (args.large_pairs // 10, args.large_pairs):
        n_anchors = args.large_anchors * n_pairs // args.large_pairs
        name = "large batch %d" % n_pairs
        pairs, jsonl = sample_batch(args, scratch, git_dir, n_pairs, n_anchors, name)
        floor = [cmd for pair in pairs for cmd in pair_floor(pair, git_dir)[0]]
        runs = args.runs if n_pairs == args.large_pairs else max(3, args.runs // 3)
        st = compare(runner, dict(batch_tool(args, jsonl), floor=floor), runs, label=name)
        got = sum(len(p["anchors"]) for p in pairs)
        deleted = sum(1 for p in pairs if any(x[0] == "D" for x in p["ns"]))
        notes.append("%s: %d anchors, %d pairs (%d with a deleted file)" % (
            name, got, len(pairs), deleted))
        for b in builds(args):
            peaks[n_pairs, b] = (st["tool" + b].rss, st["alone" + b].rss)
        if n_pairs == args.large_pairs:
            rows.append(Row("large batch: %d anchors/%d pairs, --table vs git floor (%d git procs)"
                            % (got, len(pairs), len(floor)), st, "tool", "floor", 0.3))
            rows.append(Row("large batch, main thread alone (--jobs 1) vs git floor", st, "alone",
                            "floor", 0.6))
    small, large = args.large_pairs // 10, args.large_pairs
    for b in builds(args):
        for i, how in enumerate(("default --jobs", "--jobs 1")):
            lg, sm = peaks[large, b][i], peaks[small, b][i]
            notes.append("large batch peak RSS%s, %s: %s at %d pairs, %s at %d pairs (%.2fx; "
                         "targets: <= 250 MB, <= 1.5x)" % (b, how, fmt_rss(lg), large, fmt_rss(sm),
                                                          small, lg / max(1, sm)))


# ----------------------------------------------------------------------------
# 2. orient (and the working tree the callers workload reuses)

def text_blob(blobs, rev, path):
    data = blobs.read(rev, path)
    if data is None or not data or check.is_binary(data):
        return None
    return data


CALLED_RE = re.compile(rb"\b([A-Za-z_][A-Za-z0-9_]{3,})\s*\(")
C_WORDS = set("""auto break case char const continue default do double else enum extern float
for goto if inline int long register restrict return short signed sizeof static struct switch
typedef union unsigned void volatile while size_t ssize_t uint32_t uint64_t int64_t uintmax_t
NULL the and that this with from""".split())


def make_worktree(args, scratch, git_dir, rng, notes):
    """A throwaway clone (objects shared with the mirror, which is never written) checked out
    at C = the mirror's HEAD, BASE = C~30; scripted uncommitted changes; 30 anchors at BASE."""
    wt = os.path.join(scratch, "wt")
    c = git_out(git_dir, "rev-parse", "HEAD^{commit}").decode().strip()
    base = git_out(git_dir, "rev-parse", "HEAD~%d^{commit}" % args.orient_gap).decode().strip()
    t0 = time.time()
    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", git_dir, wt],
                   check=True, env=ENV)
    subprocess.run(["git", "-C", wt, "checkout", "-q", "--detach", c], check=True, env=ENV)
    log("  clone --shared + checkout of %s: %.1fs" % (c[:12], time.time() - t0))

    g = check.Git(git_dir)
    blobs = check.BlobReader(g)
    ns = check.name_status(g, base, c)
    changed = {x[2] for x in ns} | {x[3] for x in ns}
    modified = sorted(x[2] for x in ns if x[0] == "M" and x[2].endswith((".c", ".h")))
    files_c = sorted(p for p in git_out(git_dir, "ls-tree", "-r", "--name-only", c).decode().split("\n")
                     if p.endswith(".c") and p not in changed)
    pool = [p for p in files_c if "/" not in p or p.startswith("builtin/")]

    def lines_of(rev, p):
        d = text_blob(blobs, rev, p)
        return check.split_lines(d) if d else []

    anchors = []

    def add(path, s, e, lines, kind, sym=None):
        a = {"path": path, "line": s, "end_line": e, "kind": kind}
        if sym is None and lines and rng.random() < 0.4:
            # a plan names functions and variables: called names first, never C keywords
            text = b"\n".join(lines[s - 1:e])
            ids = sorted(set(m.decode() for m in CALLED_RE.findall(text)) - C_WORDS) or \
                sorted(set(check.identifiers(lines[s - 1:e])) - C_WORDS)
            if ids:
                sym = rng.choice(ids)
        if sym:
            a["symbol"] = sym
        anchors.append(a)

    # 10 anchors in files the commits between BASE and C modified
    for p in rng.sample(modified, min(5, len(modified))):
        ls = lines_of(base, p)
        for _ in range(2):
            s = rng.randint(1, max(1, len(ls) - 12))
            add(p, s, min(len(ls), s + rng.randint(0, 10)), ls, "modified since base")
    picked = []
    for p in rng.sample(pool, len(pool)):          # 12 files long enough for the ranges below
        if len(lines_of(c, p)) >= 120:
            picked.append(p)
            if len(picked) == 12:
                break
    edited, staged_mod, renamed_src, deleted_src = picked[:4], picked[0], picked[4], picked[5]
    unchanged = picked[6:12]
    # 8 anchors in 4 files with unstaged insertions (one of them also staged)
    for p in edited:
        ls = lines_of(c, p)
        add(p, 30, 40, ls, "worktree edit below")        # MOVED
        add(p, 18, 24, ls, "worktree edit inside")       # TOUCHED
    # 3 anchors in the staged rename (with an unstaged edit on top)
    ls_r = lines_of(c, renamed_src)
    for s in (1, 40, 80):
        add(renamed_src, s, min(len(ls_r), s + 8), ls_r, "staged rename")
    # 2 anchors in the file deleted and re-created similar under another, untracked name
    ls_d = lines_of(c, deleted_src)
    for s in (5, 30):
        add(deleted_src, s, min(len(ls_d), s + 6), ls_d, "unstaged delete + untracked copy")
    # 1 anchor on the untracked new file (absent at base)
    untracked = "bench-untracked-new.c"
    anchors.append({"path": untracked, "line": 1, "end_line": 3, "kind": "untracked new file"})
    # 6 anchors in unchanged files
    for p in unchanged:
        ls = lines_of(c, p)
        s = rng.randint(1, max(1, len(ls) - 20))
        add(p, s, min(len(ls), s + rng.randint(0, 15)), ls, "unchanged")
    blobs.close()
    assert len(anchors) == 30, len(anchors)

    # the scripted changes
    def path(p):
        return os.path.join(wt, p)
    for p in edited:
        with open(path(p), "rb") as f:
            ls = f.read().split(b"\n")
        ls[20:20] = [b"/* bench: uncommitted edit */", b"static int bench_edit_%d;" % len(ls), b""]
        with open(path(p), "wb") as f:
            f.write(b"\n".join(ls))
    subprocess.run(["git", "-C", wt, "add", "--", staged_mod], check=True, env=ENV)
    renamed_dst = renamed_src[:-2] + "-renamed.c"
    subprocess.run(["git", "-C", wt, "mv", renamed_src, renamed_dst], check=True, env=ENV)
    with open(path(renamed_dst), "ab") as f:
        f.write(b"/* bench: unstaged edit after the staged rename */\n")
    with open(path(deleted_src), "rb") as f:
        data = f.read()
    os.remove(path(deleted_src))
    copy_dst = deleted_src[:-2] + "-copy.c"
    with open(path(copy_dst), "wb") as f:
        f.write(data + b"/* bench: moved here without git mv */\n")
    with open(path(untracked), "wb") as f:
        f.write(b"/* bench: untracked */\nint bench_untracked(void)\n{\n\treturn 0;\n}\n")
    time.sleep(1.1)   # settle the index's stat data past the files' mtimes, as `git status` would
    subprocess.run(["git", "-C", wt, "update-index", "-q", "--refresh"], env=ENV)

    status = git_out(None, "-C", wt, "status", "--porcelain").decode()
    notes.append("orient: clone of %s, BASE %s (HEAD~%d), 30 anchors; git status --porcelain:" % (
        c[:12], base[:12], args.orient_gap))
    for line in status.rstrip("\n").split("\n"):
        notes.append("  " + line)
    return {"wt": wt, "c": c, "base": base, "anchors": anchors,
            "touched": set(edited) | {renamed_src, renamed_dst, deleted_src, copy_dst, untracked},
            "renamed": {renamed_src: renamed_dst}}


def orient(args, runner, scratch, w, rows, notes):
    wt = w["wt"]
    spec_path = os.path.join(scratch, "orient.json")
    fc = [{"location": {k: a[k] for k in ("path", "line", "end_line", "symbol") if k in a},
           "change": a["kind"]} for a in w["anchors"]]
    with open(spec_path, "w") as f:
        json.dump({"id": "bench-orient", "base": w["base"], "file_changes": fc}, f)

    table = tools(args, "table", ["-C", wt, "--table", "--format", "json", spec_path])
    alone = tools(args, "alone", ["-C", wt, "--jobs", "1", "--table", "--format", "json",
                                  spec_path])
    pack = tools(args, "pack", ["-C", wt, "--color", "never", spec_path])
    anchored = sorted(set(a["path"] for a in w["anchors"]))
    paths = sorted(set(anchored) | {w["renamed"][p] for p in anchored if p in w["renamed"]})
    floor = [Cmd(["git", "-C", wt, "diff", "-M", "--name-status", w["base"]]),
             Cmd(["git", "-C", wt, "diff", "-U0", "-M", w["base"], "--"] + paths),
             Cmd(["git", "-C", wt, "status", "--porcelain"])]
    syms = sorted(set(a["symbol"] for a in w["anchors"] if "symbol" in a))
    grep = [Cmd(["git", "-C", wt, "grep", "-n", "-w", "-F"] + sum((["-e", s] for s in syms), []),
                ok=(0, 1))]

    doc = tool_json(runner, table["table"][0].argv)
    sc = status_counts(doc)
    notes.append("orient: tool statuses: " + ", ".join("%s %d" % kv for kv in sorted(sc.items())))
    notes.append("orient: %d symbols on the anchors (the full pack searches their callers)" % len(syms))

    st = compare(runner, {**table, **alone, "floor": floor, **pack, "floor+grep": floor + grep},
                 args.runs, label="orient")
    rows.append(Row("orient: 30 anchors, working tree, --table vs git floor (3 procs)",
                    st, "table", "floor", 1.0))
    rows.append(Row("orient, main thread alone (--jobs 1) vs git floor", st, "alone", "floor"))
    rows.append(Row("orient: full text pack vs git floor + 1 git grep (%d syms)" % len(syms),
                    st, "pack", "floor+grep"))
    return st


# ----------------------------------------------------------------------------
# 3. callers

def pick_symbols(git_dir, commit, n, avoid_paths):
    """n identifiers used as calls in the C sources at commit, at spread frequencies, each with
    the first line (in a file not in avoid_paths) where it appears as a whole word."""
    out = git_out(git_dir, "grep", "-h", "-o", "-E", r"\b[A-Za-z_][A-Za-z0-9_]{3,}\(", commit,
                  "--", "*.c", "*.h", globs=True).decode(errors="replace")
    counts = collections.Counter(x[:-1] for x in out.split("\n") if x.endswith("("))
    keywords = C_WORDS | {"defined", "typeof"}
    lower = re.compile(r"[a-z_][a-z0-9_]*$")   # functions in git's style, not macros
    cands = sorted((c, s) for s, c in counts.items()
                   if s not in keywords and c >= 2 and lower.match(s))
    top = cands[-1][0]
    targets = [round(2 * (top / 2) ** (k / (n - 1))) for k in range(n)]   # log-spaced
    chosen = []
    for t in targets:
        best = None
        for c, s in cands:
            if s in chosen:
                continue
            d = abs(c - t)
            if best is None or d < best[0]:
                best = (d, s)
        chosen.append(best[1])
    anchors = []
    for s in chosen:
        hits = git_out(git_dir, "grep", "-n", "-w", "-F", "-e", s, commit, "--",
                       "*.c", "*.h", globs=True).decode(errors="replace").split("\n")
        for h in hits:
            parts = h.split(":", 3)       # commit:path:line:text
            if len(parts) == 4 and parts[1] not in avoid_paths:
                anchors.append({"path": parts[1], "line": int(parts[2]),
                                "end_line": int(parts[2]), "symbol": s})
                break
    return anchors, counts


def callers(args, runner, scratch, git_dir, w, rows, notes):
    c = w["c"]
    anchors, counts = pick_symbols(git_dir, c, 20, w["touched"])
    syms = [a["symbol"] for a in anchors]
    e_args = sum((["-e", s] for s in syms), [])
    fc = [{"location": a, "change": "callers"} for a in anchors]
    spec_commit = os.path.join(scratch, "callers-commit.json")
    spec_wt = os.path.join(scratch, "callers-worktree.json")
    with open(spec_commit, "w") as f:
        json.dump({"id": "bench-callers-commit", "base": c, "target": c, "file_changes": fc}, f)
    with open(spec_wt, "w") as f:
        json.dump({"id": "bench-callers-worktree", "base": c, "file_changes": fc}, f)

    gd = ["git", "--git-dir=" + git_dir]
    wtg = ["git", "-C", w["wt"]]
    v = {
        **tools(args, "tool@c", ["-C", args.repo, "--format", "json", spec_commit]),
        **tools(args, "alone@c", ["-C", args.repo, "--jobs", "1", "--format", "json", spec_commit]),
        **tools(args, "table@c", ["-C", args.repo, "--table", "--format", "json", spec_commit]),
        "grep1@c": [Cmd(gd + ["grep", "-n", "-w", "-F"] + e_args + [c], ok=(0, 1))],
        "grepN@c": [Cmd(gd + ["grep", "-n", "-w", "-F", "-e", s, c], ok=(0, 1)) for s in syms],
        **tools(args, "tool@wt", ["-C", w["wt"], "--format", "json", spec_wt]),
        **tools(args, "table@wt", ["-C", w["wt"], "--table", "--format", "json", spec_wt]),
        "grep1@wt": [Cmd(wtg + ["grep", "-n", "-w", "-F"] + e_args, ok=(0, 1))],
        "grepN@wt": [Cmd(wtg + ["grep", "-n", "-w", "-F", "-e", s], ok=(0, 1)) for s in syms],
    }
    doc = tool_json(runner, v["tool@c"][0].argv)
    tot = {x["symbol"]: x["total"] + x["in_windows"] for x in doc["specs"][0]["callers"]}
    git_lines = runner.stdout(v["grep1@c"][0]).count(b"\n")
    notes.append("callers: 20 symbols at %s (whole-word hit lines, from the tool's pack): %s" % (
        c[:12], ", ".join("%s %d" % (s, tot.get(s, -1)) for s in syms)))
    notes.append("callers: tool lines in total %d, one git grep for all printed %d lines" % (
        sum(tot.values()), git_lines))
    sc = status_counts(doc)
    notes.append("callers: anchor statuses " + ", ".join("%s %d" % kv for kv in sorted(sc.items())))

    st = compare(runner, v, args.runs, label="callers")
    rows.append(Row("callers @commit: 20 symbols, pack vs 1 git grep -e x20",
                    st, "tool@c", "grep1@c", 1.0))
    rows.append(Row("callers @commit: pack vs 1 git grep per symbol (20 procs)",
                    st, "tool@c", "grepN@c", 1.0))
    rows.append(Row("callers @commit, main thread alone (--jobs 1) vs 1 git grep",
                    st, "alone@c", "grep1@c"))
    rows.append(Row("callers @commit: --table alone (resolve share) vs 1 git grep",
                    st, "table@c", "grep1@c"))
    rows.append(Row("callers worktree: 20 symbols, pack vs 1 git grep -e x20",
                    st, "tool@wt", "grep1@wt", 1.0))
    rows.append(Row("callers worktree: pack vs 1 git grep per symbol (20 procs)",
                    st, "tool@wt", "grepN@wt", 1.0))
    rows.append(Row("callers worktree: --table alone (resolve share) vs 1 git grep",
                    st, "table@wt", "grep1@wt"))
    return st


# ----------------------------------------------------------------------------
# 4. scale

def scale(args, runner, scratch, rows, notes, ref_rows):
    v = {}
    infos = {}
    for n in (args.scale_small, args.scale_large):
        d = os.path.join(scratch, "syn%d" % n)
        t0 = time.time()
        info = make_synthetic.make(d, n, checkout=True, log=log)
        log("  synthetic %d files: %.1fs" % (n, time.time() - t0))
        infos[n] = info
        spec = os.path.join(scratch, "scale%d.json" % n)
        with open(spec, "w") as f:
            json.dump({"id": "bench-scale-%d" % n, "base": info["c1"],
                       "file_changes": [{"location": a, "change": "scale"} for a in info["anchors"]]}, f)
        paths = [a["path"] for a in info["anchors"]]
        g = ["git", "-C", d]
        tv = {**tools(args, "tool@c %d" % n, ["-C", d, "--target", info["c2"], "--table",
                                              "--format", "json", spec]),
              **tools(args, "tool@wt %d" % n, ["-C", d, "--table", "--format", "json", spec])}
        v.update(tv)
        v["git@c %d" % n] = [Cmd(g + ["diff", "-M", "--name-status", info["c1"], info["c2"]]),
                             Cmd(g + ["diff", "-U0", "-M", info["c1"], info["c2"], "--"] + paths)]
        v["git@wt %d" % n] = [Cmd(g + ["diff", "-M", "--name-status", info["c1"]]),
                              Cmd(g + ["diff", "-U0", "-M", info["c1"], "--"] + paths),
                              Cmd(g + ["status", "--porcelain"])]
        for key in tv:                    # every build's answers checked
            doc = tool_json(runner, tv[key][0].argv)
            sc = status_counts(doc)
            if sc != collections.Counter({"SAME": 10}):
                raise RuntimeError("scale %s: expected 10 SAME, got %s" % (key, dict(sc)))
    notes.append("scale: %d and %d files; c2 changes %d paths; working tree: %d edited, 1 untracked; "
                 "10 anchors in unchanged files, all SAME" % (
                     args.scale_small, args.scale_large, len(infos[args.scale_large]["changed_in_c2"]),
                     len(infos[args.scale_large]["edited_in_worktree"])))
    st = compare(runner, v, args.runs, label="scale")
    L, S = args.scale_large, args.scale_small
    kl, ks = "%dk" % (L // 1000), "%dk" % (S // 1000)
    rows.append(Row("scale @commit: 10 anchors, tool %s files vs tool %s" % (kl, ks),
                    st, "tool@c %d" % L, "tool@c %d" % S, 2.0))
    rows.append(Row("scale worktree: 10 anchors, tool %s files vs tool %s" % (kl, ks),
                    st, "tool@wt %d" % L, "tool@wt %d" % S, 2.0))
    ref_rows.append(Row("scale @commit: git floor %s vs git floor %s" % (kl, ks),
                        st, "git@c %d" % L, "git@c %d" % S))
    ref_rows.append(Row("scale worktree: git floor %s vs git floor %s" % (kl, ks),
                        st, "git@wt %d" % L, "git@wt %d" % S))
    # the 10-anchor small job at each size: each build against the git floor
    for k, n in ((kl, L), (ks, S)):
        ref_rows.append(Row("scale @commit %s: tool vs git floor" % k, st, "tool@c %d" % n,
                            "git@c %d" % n))
        ref_rows.append(Row("scale worktree %s: tool vs git floor" % k, st, "tool@wt %d" % n,
                            "git@wt %d" % n))
    return st


# ----------------------------------------------------------------------------
# 5. history

def history_base(args, git_dir):
    """--history-base as a commit id; on a repository without that tag, HEAD~1500."""
    rev = args.history_base
    p = subprocess.run(["git", "--git-dir=" + git_dir, "rev-parse", "--verify", "-q",
                        rev + "^{commit}"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       env=ENV)
    if p.returncode != 0:
        if args.history_base_given:
            raise SystemExit("--history-base names no commit: %s" % rev)
        rev = "HEAD~1500"
        log("history: no %s here, base %s" % (args.history_base, rev))
        return rev, git_out(git_dir, "rev-parse", rev + "^{commit}").decode().strip()
    return rev, p.stdout.decode().strip()


def sample_history_anchors(args, git_dir, base, target, notes):
    """--history-anchors anchors at base in files modified or renamed in base..target: a third in
    the busiest of them (most commits touching them), a sixth in renamed ones when there are
    renames, the rest in any. check.py's sample_anchors picks them, on the pair's name-status
    limited to each group's files; its kinds outside those files (unchanged files, absent
    files, lines past the end) are dropped, symbols too, and each range is stretched or cut to
    5-40 lines."""
    g = check.Git(git_dir)
    blobs = check.BlobReader(g)
    rng = random.Random(args.seed)
    ns = [x for x in check.name_status(g, base, target) if x[0] in "MR"]
    touches = collections.Counter(
        p for p in git_out(git_dir, "log", "--format=", "--name-only", "--no-renames",
                           "%s..%s" % (base, target)).decode(errors="replace").split("\n") if p)
    busy = sorted(ns, key=lambda x: -(touches[x[2]] + (touches[x[3]] if x[3] != x[2] else 0)))[:10]
    renamed = [x for x in ns if x[0] == "R"]
    n = args.history_anchors
    groups = [("busy", busy, n // 3)]
    if renamed:
        groups.append(("renamed", renamed, n // 6))
    groups.append(("changed", ns, n - sum(g_[2] for g_ in groups)))

    anchors, seen = [], set()
    for gi, (name, group_ns, want) in enumerate(groups):
        got = 0
        for attempt in range(20):
            if got >= want:
                break
            pair = {"base": base, "target": target, "ns": group_ns}
            for a in check.sample_anchors(g, blobs, rng, pair, 2 * (want - got), gi):
                if got >= want or a["kind"] not in ("M", "R"):
                    continue
                data = text_blob(blobs, base, a["path"])
                nl = len(check.split_lines(data)) if data else 0
                if nl < 5:
                    continue
                width = min(40, nl, max(5, a["end_line"] - a["line"] + 1))
                s = min(a["line"], nl - width + 1)
                key = (a["path"], s)
                if key in seen:
                    continue
                seen.add(key)
                anchors.append({"path": a["path"], "line": s, "end_line": s + width - 1,
                                "group": name})
                got += 1
    blobs.close()
    count = collections.Counter(a["group"] for a in anchors)
    top = busy[0] if busy else None
    notes.append("history: %d anchors at %s: %s; %d files modified or renamed (%d renamed), "
                 "the busiest %s (%d commits touch it)" % (
                     len(anchors), base[:12], ", ".join("%s %d" % (k, count[k]) for k, _, _ in groups),
                     len(ns), len(renamed), top[3] if top else "-",
                     touches[top[2]] + (touches[top[3]] if top[3] != top[2] else 0) if top else 0))
    return anchors


def history(args, runner, scratch, git_dir, rows, notes, failures):
    base_name, base = history_base(args, git_dir)
    target = git_out(git_dir, "rev-parse", "HEAD^{commit}").decode().strip()
    n_commits = int(git_out(git_dir, "rev-list", "--count", "%s..%s" % (base, target)))
    log("history: sampling %d anchors, %s..%s" % (args.history_anchors, base_name, target[:12]))
    anchors = sample_history_anchors(args, git_dir, base, target, notes)
    spec = os.path.join(scratch, "history.json")
    with open(spec, "w") as f:
        json.dump({"id": "bench-history", "base": base, "file_changes": [
            {"location": {k: a[k] for k in ("path", "line", "end_line")},
             "change": "history, %s" % a["group"]} for a in anchors]}, f)

    rest = ["--table", "--format", "json", "--target", target, spec]
    v = {**tools(args, "tool", ["-C", args.repo, "--history"] + rest),
         **tools(args, "without", ["-C", args.repo] + rest)}

    # the ranges at the target, from one run without --history, name git's commands
    plain = tool_json(runner, v["without"][0].argv)["specs"][0]["anchors"]
    if [(a["path"], a["line"]) for a in plain] != [(a["path"], a["line"]) for a in anchors]:
        raise RuntimeError("history: the tool's anchors are not the spec's")
    tos = [a["to"] for a in plain]
    gd = ["git", "--git-dir=" + git_dir]
    followed = [(i, to) for i, to in enumerate(tos) if to]
    git = [Cmd(gd + ["log", "-L", "%d,%d:%s" % (to["line"], to["end_line"], to["path"]),
                     "--format=%H", "--no-patch", "%s..%s" % (base, target)])
           for _, to in followed]

    # agreement: the tool's history (and history_more's count) is git log -L's list, in order
    doc = tool_json(runner, v["tool"][0].argv)
    got = doc["specs"][0]["anchors"]
    sc = status_counts(doc)
    agree, listed, longest, bad = 0, 0, 0, []
    for (i, to), cmd in zip(followed, git):
        want = runner.stdout(cmd).decode().split()
        a = got[i]
        mine = [h["commit"] for h in (a.get("history") or [])]
        more = (a.get("history_more") or {}).get("count", 0)
        listed += len(want)
        longest = max(longest, len(want))
        name = "%s:%d-%d (at base %s:%d-%d)" % (to["path"], to["line"], to["end_line"],
                                               anchors[i]["path"], anchors[i]["line"],
                                               anchors[i]["end_line"])
        if a.get("to") != to:
            bad.append("%s: --history moved the range to %s" % (name, a.get("to")))
        elif a.get("history") is None:
            bad.append("%s: no history, git lists %d commits" % (name, len(want)))
        elif mine != want[:len(mine)] or len(mine) + more != len(want):
            j = next((k for k, (x, y) in enumerate(zip(mine, want)) if x != y), min(len(mine), len(want)))
            bad.append("%s: the tool lists %d (+%d more), git %d; first difference at #%d" % (
                name, len(mine), more, len(want), j + 1))
        else:
            agree += 1
    skipped = len(anchors) - len(followed)
    agreement = "%d/%d anchors agree" % (agree, len(followed))
    log("history: " + agreement)
    notes.append("history: %s..%s (%s..HEAD), %d commits; statuses: %s" % (
        base[:12], target[:12], base_name, n_commits,
        ", ".join("%s %d" % kv for kv in sorted(sc.items()))))
    notes.append("history: %s with git log -L (%d skipped: no range at the target); git lists "
                 "%d commits in all, at most %d for one anchor, none for %d" % (
                     agreement, skipped, listed, longest,
                     sum(1 for (i, _) in followed if not (got[i].get("history") or []))))
    for b in bad:
        notes.append("history: DISAGREES: " + b)
        failures.append("history: " + b)
        log("history: DISAGREES: " + b)

    st = compare(runner, dict(v, git=git), args.runs, label="history")
    rows.append(Row("history: %d anchors, --history --table vs git log -L per anchor (%d procs)" % (
        len(followed), len(git)), st, "tool", "git", 0.5))
    rows.append(Row("history: --history vs the same without it (what history adds)",
                    st, "tool", "without"))
    return st, agreement


# ----------------------------------------------------------------------------

def print_table(title, rows, base_label):
    head = ["workload", "tool", base_label, "ratio", "target", "result", "cpu ratio",
            "tool RSS", "base RSS"]
    body = []
    for r in rows:
        for x in r.sides:
            body.append([r.label(x), fmt_t(x.tool.wall), fmt_t(x.base.wall), "%.2fx" % x.ratio,
                         ("<= %.1fx" % r.target) if r.target is not None else "-", r.verdict(x),
                         "%.2fx" % (x.tool.cpu / x.base.cpu if x.base.cpu else float("inf")),
                         fmt_rss(x.tool.rss), fmt_rss(x.base.rss)])
    widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    print(title)
    line = lambda cells: "| " + " | ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i])
                                            for i, c in enumerate(cells)) + " |"
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for b in body:
        print(line(b))
    print()


def snapshot(path, snap):
    """Copies the binary at path to snap once it runs; -> (snap, "VERSION, PATH built TIME")."""
    for attempt in range(30):
        try:
            shutil.copy2(path, snap)
            if subprocess.run([snap, "--version"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0:
                break
        except OSError:
            pass
        log("the tool binary is being rebuilt; waiting")
        time.sleep(10)
    else:
        raise SystemExit("cannot copy a working %s" % path)
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.stat(snap).st_mtime))
    ver = subprocess.run([snap, "--version"], stdout=subprocess.PIPE).stdout.decode().strip()
    return snap, "%s, %s built %s" % (ver, path, stamp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", required=True, help="a large git repository (bare mirror is fine)")
    ap.add_argument("--tool", required=True, help="the context-pack binary")
    ap.add_argument("--packaged", metavar="PATH",
                    help="also time this binary, the Debian package's (unpacked with dpkg -x, "
                         "e.g. build-deb/deb-root/usr/bin/context-pack), beside --tool with the "
                         "same arguments in the same rounds")
    ap.add_argument("--quick", action="store_true", help="3 runs instead of --runs")
    ap.add_argument("--runs", type=int, default=9, help="measured rounds a workload (default 9)")
    ap.add_argument("--only", action="append",
                    choices=["batch", "large-batch", "orient", "callers", "scale", "history"],
                    help="run only these workloads (repeatable)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pairs", type=int, default=12)
    ap.add_argument("--anchors", type=int, default=600)
    ap.add_argument("--large-pairs", type=int, default=300,
                    help="pairs of the large batch (default 300; a tenth of it is run too)")
    ap.add_argument("--large-anchors", type=int, default=12000,
                    help="anchors of the large batch (default 12000)")
    ap.add_argument("--rename-sample", type=int, default=2,
                    help="seed per-anchor design: rename passes timed per pair (default 2)")
    ap.add_argument("--orient-gap", type=int, default=30, help="orient BASE = HEAD~N (default 30)")
    ap.add_argument("--scale-large", type=int, default=100000)
    ap.add_argument("--scale-small", type=int, default=5000)
    ap.add_argument("--history-anchors", type=int, default=30,
                    help="anchors of the history workload (default 30)")
    ap.add_argument("--history-base", default=None,
                    help="base of the history workload, target HEAD (default v2.48.0, "
                         "else HEAD~1500)")
    ap.add_argument("--json", help="also write the results as JSON to this file")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory (specs, clone)")
    args = ap.parse_args()
    if args.quick:
        args.runs = 3
    args.history_base_given = args.history_base is not None
    if not args.history_base_given:
        args.history_base = "v2.48.0"
    if args.anchors < 500 or args.pairs < 10:
        log("note: issue 4 asks for >= 500 anchors over >= 10 pairs")
    args.repo = os.path.abspath(args.repo)
    args.tool = os.path.abspath(args.tool)
    if args.packaged:
        args.packaged = os.path.abspath(args.packaged)
    for path in filter(None, (args.tool, args.packaged)):
        if not os.access(path, os.X_OK):
            raise SystemExit("tool not executable: %s" % path)
    git_dir = git_dir_of(args.repo)
    only = set(args.only or ["batch", "large-batch", "orient", "callers", "scale", "history"])

    scratch = tempfile.mkdtemp(prefix="cp-bench-")
    # Time snapshots of the binaries: others may rebuild build/ while the benchmark runs.
    args.tool, ver = snapshot(args.tool, os.path.join(scratch, "context-pack"))
    if args.packaged:
        args.packaged, pkg_ver = snapshot(args.packaged,
                                          os.path.join(scratch, "context-pack-packaged"))
        ver += "; packaged build: " + pkg_ver
    runner = Runner(scratch)
    rows, ref_rows, notes, failures = [], [], [], []
    agreement = None
    t_start = time.time()
    load_start = loadavg()
    try:
        if "batch" in only:
            batch_drift(args, runner, scratch, git_dir, rows, notes)
        if "large-batch" in only:
            batch_large(args, runner, scratch, git_dir, rows, notes)
        if "orient" in only or "callers" in only:
            log("working tree: clone and scripted edits")
            w = make_worktree(args, scratch, git_dir, random.Random(args.seed), notes)
            if "orient" in only:
                orient(args, runner, scratch, w, rows, notes)
            if "callers" in only:
                callers(args, runner, scratch, git_dir, w, rows, notes)
        if "scale" in only:
            log("scale: synthetic repositories")
            scale(args, runner, scratch, rows, notes, ref_rows)
        if "history" in only:
            agreement = history(args, runner, scratch, git_dir, rows, notes, failures)[1]
    finally:
        if args.keep:
            log("scratch kept: %s" % scratch)
        else:
            shutil.rmtree(scratch, ignore_errors=True)

    gver = subprocess.run(["git", "--version"], stdout=subprocess.PIPE).stdout.decode().strip()
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print("context-pack benchmark: %s; %s; %d CPUs (%s); repo %s (HEAD %s)" % (
        ver, gver, os.cpu_count(), cpu, args.repo,
        git_out(git_dir, "rev-parse", "--short=12", "HEAD").decode().strip()))
    print("medians of %d interleaved runs after 1 warm-up; ratio = tool median / baseline median; "
          "RSS = largest peak RSS of one process (%s); %.0fs in all; load average %s at start, %s at end" % (
              args.runs, "GNU time, warm-up round" if GNU_TIME else
              "wait4: an upper bound, includes this script's own RSS", time.time() - t_start,
              load_start, loadavg()))
    print()
    print("ratio: of wall-time medians (pass/fail); cpu ratio: of user+sys medians, for a noisy "
          "machine (git grep is multi-threaded, so its cpu exceeds its wall time)")
    print()
    if args.packaged:
        print("packaged build: the line beneath each row of the tool, the same arguments in the "
              "same rounds; against the same baseline, or against itself where the row's baseline "
              "is the tool too; its targets are evaluated as the source build's")
        print()
    if agreement:
        print("history: %s with git log -L, commits and order" % agreement)
        print()
    print_table("Targets (issue 4) and comparisons", rows, "baseline")
    if ref_rows:
        print_table("Reference: git's own scaling and the tool against git on the synthetic trees",
                    ref_rows, "baseline")
    print("Details")
    for r in rows + ref_rows:
        for x in r.sides:
            print("  %s%s: tool %s (cpu %s, %s); baseline %s (cpu %s, %s, %d procs)" % (
                r.workload, PKG if x.build == "packaged" else "", fmt_t(x.tool.wall),
                fmt_t(x.tool.cpu), x.tool.spread(), fmt_t(x.base.wall), fmt_t(x.base.cpu),
                x.base.spread(), x.base.ncmds))
    for n in notes:
        print("  " + n)
    if args.json:
        def side(r, x):
            return {"tool_s": x.tool.wall, "base_s": x.base.wall, "ratio": x.ratio,
                    "target": r.target, "result": r.verdict(x), "tool_rss_kib": x.tool.rss, "base_rss_kib": x.base.rss,
                    "tool_cpu_s": x.tool.cpu, "base_cpu_s": x.base.cpu,
                    "tool_walls": x.tool.walls, "base_walls": x.base.walls}
        out = []
        for r in rows + ref_rows:
            d = {"workload": r.workload, **side(r, r.sides[0])}
            for x in r.sides[1:]:   # the packaged build; base_own: against itself
                d["packaged"] = dict(side(r, x), base_own=x.own_base)
            out.append(d)
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    for f in failures:
        print("FAILED: " + f)
        log("FAILED: " + f)
    failed = [r for r in rows for x in r.sides if r.verdict(x) == "FAIL"]
    return 1 if failed or failures else 0


if __name__ == "__main__":
    sys.exit(main())
