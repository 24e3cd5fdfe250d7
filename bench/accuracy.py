#!/usr/bin/env python3
"""Accuracy of context-pack beyond the diff, on real history (issue 6, item 4).

Samples (base, target) pairs from a real repository's first-parent history, samples anchors
at base whose exact text SURVIVES at the target verbatim and exactly once among all the
target's text files (that one occurrence is the ground truth), runs context-pack ONCE on all
of them (one .jsonl, one spec a pair, `--format json` without `--table`, so relocation also
searches other files), and counts:

  diff alone        the diff's own answer (`diff.to` when `by` is "content", else `to`) is
                    the ground truth exactly (path, line, end_line), not lines_deleted;
  with relocation   the tool's final answer (`found_at` when set, else `to` for SAME, MOVED
                    or TOUCHED without lines_deleted) is the ground truth exactly;
  covering          not exact, but a TOUCHED `to` contains the ground truth;
  listed            not exact, but the ground truth is among `candidates`;
  not found         none of these;
  wrong confident   a confident answer (`to` of SAME or MOVED, `by` content included, or
                    `found_at`) that is not the ground truth.

Anchors the diff loses are oversampled: ranges whose every line a `git diff -U0` hunk removes
(and ranges of deleted files), which is what relocation is for, drawn by length (1-2, 3-12 and
13-30 lines) so that edited single lines do not crowd out moved functions; ordinary ranges of
modified and renamed files are sampled too. Every range has a line of >= 8 non-space bytes.

"Once at target" does not mean "moved": a block that had a second copy at base (a stale
duplicate in a .po file, a copy in contrib/examples) and lost the anchored copy survives
once, in the other place. The report counts those apart ("a 2nd copy at base").

Standard library only. The repository is only read (ls-tree, cat-file, diff); scratch
files go to a temporary directory, removed unless --keep. The tool binary is copied there
first, so a rebuild during the run does not change what is measured.

Exit status: 0 the goal holds (every anchor found exactly, no wrong confident answer),
1 it does not, 2 usage error.
"""

import argparse
import collections
import json
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "real_history"))
# git plumbing and -U0 parsing shared with the real-history check (imported, never edited)
from check import (DIFF_CFG, DIFF_OPTS, GIT_ENV, BlobReader, Git, dec,  # noqa: E402
                   is_binary, name_status, parse_patch, split_lines)

MAX_LEN = 30              # anchor length, lines
PER_HUNK = 3              # at most this many anchors from one deletion hunk (or deleted file)
LOST_SHARE = 0.6          # share of a pair's anchors taken from ranges the diff loses
LOST_LENGTHS = [(1, 2, 0.25), (3, 12, 0.45), (13, MAX_LEN, 0.30)]  # lines, share of those


# ----------------------------------------------------------------------------
# text

def nonspace(line):
    return len(line) - sum(line.count(c) for c in (b" ", b"\t", b"\r", b"\f", b"\v"))


def distinctive(block):
    """The benchmark's rule: some line with >= 8 non-space bytes."""
    return any(nonspace(l) >= 8 for l in block)


def tool_distinctive(block):
    """relocate.hpp's rule: some line with >= 8 non-space bytes and >= 16 in the block."""
    return distinctive(block) and sum(nonspace(l) for l in block) >= 16


def key_index(block):
    """The block's line with the most non-space bytes: the one grepped for."""
    best, at = -1, 0
    for i, l in enumerate(block):
        n = nonspace(l)
        if n > best:
            best, at = n, i
    return at


# ----------------------------------------------------------------------------
# pairs

def pick_pairs(git, rng, n, lo, hi):
    fp = dec(git.run("rev-list", "--first-parent", "HEAD")).split()
    pairs, seen = [], set()
    for slot in range(n):
        want_rd = slot % 3 == 0            # every third pair has a rename or a deletion
        for attempt in range(200):
            gap = rng.randint(lo, hi)
            i = rng.randrange(gap, len(fp))
            b, t = fp[i], fp[i - gap]
            if (b, t) in seen:
                continue
            ns = name_status(git, b, t)
            if not any(x[0] == "M" for x in ns):
                continue
            if want_rd and attempt < 150 and not any(x[0] in "RD" for x in ns):
                continue
            break
        seen.add((b, t))
        pairs.append({"base": b, "target": t, "gap": gap, "ns": ns})
    return pairs


# ----------------------------------------------------------------------------
# sampling candidates

def block_ok(block):
    return (block and distinctive(block) and not any(b"\r" in l for l in block))


def candidates_for_pair(git, blobs, rng, pair, max_lost, max_plain):
    """Candidate ranges at base: (path, s, e, origin, group). origin is "lost" (every line
    removed by a -U0 hunk, or the file deleted) or "plain"; group names the hunk a lost range
    came from (to cap how many anchors one moved block gives). Every removed span of 3 lines
    or more gives candidates; spans of 1-2 lines (mostly edited lines) at most max_lost."""
    base, target = pair["base"], pair["target"]
    ns = pair["ns"]
    status = {}                          # base path -> (letter, target path)
    for letter, score, old, new in ns:
        if letter in "MRD":
            status[old] = (letter, new if letter != "D" else None)
    pair["status"] = status

    out = git.run(*DIFF_CFG, "diff", "-U0", *DIFF_OPTS, base, target)
    hunks = {}
    for rec in parse_patch(out):
        if not rec["binary"] and rec["old"] in status and status[rec["old"]][0] in "MR":
            hunks[rec["old"]] = rec["hunks"]
    pair["hunks"] = hunks

    texts = {}

    def text(path):
        if path not in texts:
            data = blobs.read(base, path)
            texts[path] = (split_lines(data) if data is not None and data and not is_binary(data)
                           and "\n" not in path else None)
        return texts[path]

    def length(maxlen):
        r = rng.random()
        if r < 0.2:
            L = rng.randint(1, 2)
        elif r < 0.75:
            L = rng.randint(3, 12)
        else:
            L = rng.randint(13, MAX_LEN)
        return max(1, min(L, maxlen))

    # ranges the diff loses: inside deletion hunks, and in deleted files
    spans = []                           # (path, first, last) of removed base lines
    for path, hs in hunks.items():
        for (os_, oc, ns_, nc) in hs:
            if oc > 0:
                spans.append((path, os_, os_ + oc - 1))
    for path, (letter, _) in status.items():
        if letter == "D":
            lines = text(path)
            if lines:
                spans.append((path, 1, len(lines)))
    rng.shuffle(spans)
    lost = []
    short = 0
    for path, a, b in spans:
        if b - a + 1 <= 2:               # edited lines: plenty; cap them, keep every longer span
            if short >= max_lost:
                continue
            short += 1
        lines = text(path)
        if not lines or b > len(lines):
            continue
        group = "%s:%d" % (path, a)
        tries = []
        if b - a + 1 <= MAX_LEN:
            tries.append((a, b))         # the whole removed block: a moved function, say
        for _ in range(2 if b - a + 1 < 13 else 4):
            L = length(b - a + 1)
            s = rng.randint(a, b - L + 1)
            tries.append((s, s + L - 1))
        for s, e in tries:
            if block_ok(lines[s - 1:e]):
                lost.append((path, s, e, "lost", group))

    # ordinary ranges of modified and renamed files, half of them near a hunk
    plain = []
    mr = sorted(p for p, (l, _) in status.items() if l in "MR")
    for _ in range(max_plain * 3):
        if len(plain) >= max_plain or not mr:
            break
        path = rng.choice(mr)
        lines = text(path)
        if not lines:
            continue
        n = len(lines)
        L = length(n)
        hs = hunks.get(path) or []
        if hs and rng.random() < 0.5:
            os_, oc, _, _ = rng.choice(hs)
            lo_ = max(1, os_ - L)
            hi_ = max(lo_, min(n - L + 1, os_ + oc + 1))
            s = rng.randint(lo_, hi_)
        else:
            s = rng.randint(1, n - L + 1)
        e = s + L - 1
        if block_ok(lines[s - 1:e]):
            plain.append((path, s, e, "plain", None))
    return lost, plain, texts


# ----------------------------------------------------------------------------
# ground truth: the block's occurrences among a commit's text files

class ObjectReader:
    """One `git cat-file --batch` process reading blobs by object id."""

    def __init__(self, git):
        self.git = git
        self.proc = subprocess.Popen(
            ["git", "--git-dir=" + git.git_dir, "cat-file", "--batch"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=GIT_ENV)

    def read(self, oid):
        self.proc.stdin.write(oid.encode() + b"\n")
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().rstrip(b"\n").split(b" ")
        if len(header) != 3:
            return None
        size = int(header[2])
        body = self.proc.stdout.read(size + 1)[:size]
        return body if header[1] == b"blob" else None

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def tree_files(git, rev):
    """path -> blob id of every regular file of a commit."""
    files = {}
    for ent in git.run("ls-tree", "-r", "-z", "--full-tree", rev).split(b"\0"):
        if not ent:
            continue
        meta, _, path = ent.partition(b"\t")
        mode, kind, oid = meta.split(b" ")
        if mode in (b"100644", b"100755"):
            files[dec(path)] = oid.decode()
    return files


class Finder:
    """Where the candidates' blocks occur in a commit's text files (not binary: no NUL in the
    first 8000 bytes, as `git grep -I` and the tool decide). Each blob is read once through
    `git cat-file --batch` and scanned for the candidates' key lines (a set lookup per line);
    a key line's hit is confirmed by comparing the whole block. Results are kept per blob id,
    so the base tree costs only the blobs that differ from the target's."""

    def __init__(self, reader, cands, texts):
        self.reader = reader
        self.keys = {}
        for c in cands:
            block = texts[c[0]][c[1] - 1:c[2]]
            k = key_index(block)
            self.keys.setdefault(block[k], []).append((c, block, k))
        self.by_oid = {}

    def scan(self, oid):
        if oid in self.by_oid:
            return self.by_oid[oid]
        res = []
        data = self.reader.read(oid)
        if data and not is_binary(data):
            lines = split_lines(data)
            keys = self.keys
            for i, line in enumerate(lines):
                hit = keys.get(line)
                if hit is None:
                    continue
                for c, block, k in hit:
                    start = i - k            # 0-based
                    if start >= 0 and lines[start:start + len(block)] == block:
                        res.append((c, start + 1))
        self.by_oid[oid] = res
        return res

    def occurrences(self, files):
        found = collections.defaultdict(set)
        for path, oid in files.items():
            for c, start in self.scan(oid):
                found[c].add((path, start))
        return found


def stratified(rng, pool, want):
    """Most removed blocks are one or two lines (an edited line), but a plan anchors
    functions and paragraphs: draw the lost anchors by length, LOST_LENGTHS shares, and fill
    what a stratum lacks from the others."""
    strata = [[c for c in pool if lo <= c[0][2] - c[0][1] + 1 <= hi] for lo, hi, _ in LOST_LENGTHS]
    for s in strata:
        rng.shuffle(s)
    chosen = []
    for s, (_, _, share) in zip(strata, LOST_LENGTHS):
        chosen += s[:int(round(want * share))]
    rest = [c for s in strata for c in s if c not in chosen]
    rng.shuffle(rest)
    chosen += rest[:max(0, want - len(chosen))]
    return chosen[:want]


# ----------------------------------------------------------------------------
# the diff's own view of an anchor (from the -U0 hunks), for the breakdown

def diff_class(pair, path, s, e):
    letter, new = pair["status"][path]
    if letter == "D":
        return "file deleted"
    hs = pair["hunks"].get(path, [])
    removed = set()
    inserted_inside = False
    for (os_, oc, ns_, nc) in hs:
        if oc > 0:
            removed.update(range(max(s, os_), min(e, os_ + oc - 1) + 1))
        elif s <= os_ < e:
            inserted_inside = True
    if len(removed) == e - s + 1:
        return "every line removed"
    if removed or inserted_inside:
        return "partly removed"
    return "untouched"


# ----------------------------------------------------------------------------
# judging one anchor

RESOLVED = ("SAME", "MOVED", "TOUCHED")


def loc(x):
    if not x:
        return None
    return (x.get("path"), x.get("line"), x.get("end_line"))


def fmt(t):
    return "%s:%d-%d" % t if t else "-"


def judge(got, truth):
    st = got.get("status")
    to = loc(got.get("to"))
    ld = bool(got.get("lines_deleted"))
    by = got.get("by")
    found_at = loc(got.get("found_at"))
    # the diff's answer
    if by == "content":
        d = got.get("diff") or {}
        dto, dld = loc(d.get("to")), bool(d.get("lines_deleted"))
    else:
        dto, dld = (to if st in RESOLVED else None), ld
    diff_exact = dto == truth and not dld
    # the final answer
    final = found_at if found_at else (to if st in RESOLVED and not ld else None)
    exact = final == truth
    confident = []
    if st in ("SAME", "MOVED") and to:
        confident.append(("to" + ("(by content)" if by == "content" else ""), to))
    if found_at:
        confident.append(("found_at", found_at))
    wrong = [(k, t) for k, t in confident if t != truth]
    covering = (not exact and st == "TOUCHED" and not ld and to and to[0] == truth[0]
                and to[1] <= truth[1] and truth[2] <= to[2])
    cands = [loc(c) for c in got.get("candidates") or []]
    listed = not exact and not covering and truth in cands
    best = loc(got.get("best"))
    if exact:
        where = "exact"
    elif covering:
        where = "covering"
    elif listed:
        where = "listed"
    else:
        where = "not found"
    return {"diff_exact": diff_exact, "exact": exact, "where": where, "wrong": wrong,
            "confident": bool(confident), "best_exact": best == truth,
            "best": best, "candidates_total": got.get("candidates_total") or 0}


def why_missed(a, got):
    """A short reason for an anchor that is not found exactly."""
    st, ld = got.get("status"), bool(got.get("lines_deleted"))
    if a["class"] == "partly removed":
        return "old place kept a line: TOUCHED, relocation does not run"
    if a["class"] == "untouched":
        return "diff left the range untouched, yet its answer is not the text's place"
    if not a["truth_file_changed"]:
        return "text sits in a file the diff did not change: not searched"
    if not tool_distinctive(a["block"]):
        return "block under the tool's 16 non-space bytes: never relocated"
    if st == "TOUCHED" and not ld:
        return ("every line removed, but the hunk put at least half as many lines in their "
                "place: TOUCHED, relocation does not run")
    if got.get("candidates_total"):
        return "several matches (whitespace-blind)"
    return "other"


# ----------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", required=True, help="git directory (bare mirror) or work tree")
    ap.add_argument("--tool", required=True, help="the context-pack binary (copied first)")
    ap.add_argument("--pairs", type=int, default=16)
    ap.add_argument("--per-pair", type=int, default=40, help="anchors a pair, at most")
    ap.add_argument("--min-gap", type=int, default=50, help="first-parent commits, at least")
    ap.add_argument("--max-gap", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", metavar="FILE", help="write every anchor's verdict here")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    args = ap.parse_args()

    repo = os.path.abspath(args.repo)
    gd = subprocess.run(["git", "-C", repo, "rev-parse", "--absolute-git-dir"],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=GIT_ENV)
    if gd.returncode != 0:
        print("not a git repository: %s" % repo, file=sys.stderr)
        return 2
    git_dir = gd.stdout.decode().strip()
    if not os.access(args.tool, os.X_OK):
        print("tool not executable: %s" % args.tool, file=sys.stderr)
        return 2
    scratch = tempfile.mkdtemp(prefix="cp-accuracy-")
    tool = os.path.join(scratch, "context-pack")
    shutil.copy2(args.tool, tool)
    version = subprocess.run([tool, "--version"], stdout=subprocess.PIPE).stdout.decode().strip()

    rng = random.Random(args.seed)
    git = Git(git_dir)
    t0 = time.perf_counter()
    pairs = pick_pairs(git, rng, args.pairs, args.min_gap, args.max_gap)
    reader = ObjectReader(git)

    # ---- sample anchors whose text survives verbatim and uniquely
    n_cand = collections.Counter()
    for pi, pair in enumerate(pairs):
        blobs = BlobReader(git)
        lost, plain, texts = candidates_for_pair(git, blobs, rng, pair, 1500, 300)
        blobs.close()
        finder = Finder(reader, lost + plain, texts)
        occ = finder.occurrences(tree_files(git, pair["target"]))
        at_base = finder.occurrences(tree_files(git, pair["base"]))
        n_cand["lost"] += len(lost)
        n_cand["plain"] += len(plain)
        keep_lost, keep_plain = [], []
        per_group = collections.Counter()
        seen = set()
        for c in lost + plain:
            where = occ.get(c, set())
            if len(where) != 1 or (c[0], c[1], c[2]) in seen:
                continue
            if c[3] == "lost":
                if per_group[c[4]] >= PER_HUNK:
                    continue
                per_group[c[4]] += 1
                keep_lost.append((c, next(iter(where))))
            else:
                keep_plain.append((c, next(iter(where))))
            seen.add((c[0], c[1], c[2]))
        n_cand["lost, surviving uniquely"] += len(keep_lost)
        n_cand["plain, surviving uniquely"] += len(keep_plain)
        want_lost = min(len(keep_lost), int(round(args.per_pair * LOST_SHARE)))
        want_plain = min(len(keep_plain), args.per_pair - want_lost)
        want_lost = min(len(keep_lost), args.per_pair - want_plain)
        chosen = stratified(rng, keep_lost, want_lost) + rng.sample(keep_plain, want_plain)
        anchors = []
        changed_at_target = {x[3] for x in pair["ns"] if x[0] in "AMRT"}
        for c, (tpath, tline) in chosen:
            path, s, e, origin, _ = c
            block = texts[path][s - 1:e]
            letter, new = pair["status"][path]
            a = {"path": path, "line": s, "end_line": e, "origin": origin,
                 "file": {"M": "modified", "R": "renamed", "D": "deleted"}[letter],
                 "class": diff_class(pair, path, s, e),
                 "truth": (tpath, tline, tline + len(block) - 1),
                 "truth_file_changed": tpath in changed_at_target,
                 # the text had another copy at base (the one that survives, say a stale
                 # duplicate in a file the change never touched): not a move
                 "copies_at_base": len(at_base.get(c, ())),
                 "block": block}
            a["same_file"] = tpath == (new or path)
            anchors.append(a)
        rng.shuffle(anchors)
        pair["anchors"] = anchors
    reader.close()
    t_sample = time.perf_counter() - t0

    # ---- context-pack, once, on everything
    jsonl = os.path.join(scratch, "anchors.jsonl")
    with open(jsonl, "w") as f:
        for i, pair in enumerate(pairs):
            reads = [{"location": {"path": a["path"], "line": a["line"], "end_line": a["end_line"]},
                      "why": "accuracy %d.%d" % (i, j)} for j, a in enumerate(pair["anchors"])]
            f.write(json.dumps({"id": "pair%02d" % i, "base": pair["base"],
                                "target": pair["target"], "reads": reads}) + "\n")
    cmd = [tool, "-C", repo, "--format", "json", jsonl]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    t_tool = time.perf_counter() - t0
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        print("context-pack failed (exit %d): %s" % (p.returncode, p.stderr.decode(errors="replace")[:800]))
        print("scratch kept: %s" % scratch)
        return 1
    specs = doc.get("specs", [])
    if len(specs) != len(pairs):
        print("context-pack printed %d specs for %d pairs; scratch kept: %s" % (
            len(specs), len(pairs), scratch))
        return 1

    # ---- judge
    rows = []
    for i, pair in enumerate(pairs):
        got_anchors = specs[i].get("anchors", [])
        for j, a in enumerate(pair["anchors"]):
            got = got_anchors[j] if j < len(got_anchors) else {}
            if (got.get("path"), got.get("line"), got.get("end_line")) != (a["path"], a["line"], a["end_line"]):
                print("pair%02d anchor %d: the tool echoes %s:%s-%s; scratch kept: %s" % (
                    i, j, got.get("path"), got.get("line"), got.get("end_line"), scratch))
                return 1
            v = judge(got, a["truth"])
            v.update({"pair": i, "anchor": a, "got": got})
            if v["where"] != "exact":
                v["why"] = ("a confident answer elsewhere: " + ", ".join(k for k, _ in v["wrong"])
                            + (" (whitespace-blind match)" if got.get("whitespace") else "")
                            if v["wrong"] else why_missed(a, got))
            rows.append(v)

    def repro(v):
        pair = pairs[v["pair"]]
        a = v["anchor"]
        return "context-pack -C %s --base %s --target %s --anchor %s --format json" % (
            shlex.quote(repo), pair["base"][:12], pair["target"][:12],
            shlex.quote("%s:%d-%d" % (a["path"], a["line"], a["end_line"])))

    # reproduce every wrong confident answer alone
    for v in rows:
        if not v["wrong"]:
            continue
        pair, a = pairs[v["pair"]], v["anchor"]
        q = subprocess.run([tool, "-C", repo, "--base", pair["base"], "--target", pair["target"],
                            "--anchor", "%s:%d-%d" % (a["path"], a["line"], a["end_line"]),
                            "--format", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            alone = json.loads(q.stdout)["specs"][0]["anchors"][0]
            v["reproduced"] = judge(alone, a["truth"])["wrong"] == v["wrong"]
        except (ValueError, KeyError, IndexError):
            v["reproduced"] = False

    # ---- report
    def pct(k, n):
        return "%5.1f%%" % (100.0 * k / n) if n else "    -"

    def table(sel, title):
        n = len(sel)
        d = sum(v["diff_exact"] for v in sel)
        x = sum(v["exact"] for v in sel)
        cov = sum(v["where"] == "covering" for v in sel)
        lst = sum(v["where"] == "listed" for v in sel)
        nf = sum(v["where"] == "not found" for v in sel)
        w = sum(bool(v["wrong"]) for v in sel)
        conf = sum(v["confident"] for v in sel)
        dup = sum(v["anchor"]["copies_at_base"] > 1 for v in sel)
        return "| %s | %d | %d | %d (%s) | %d (%s) | %d | %d | %d | %d of %d |" % (
            title, n, dup, d, pct(d, n).strip(), x, pct(x, n).strip(), cov, lst, nf, w, conf)

    head = ("| anchors | n | of them with a 2nd copy at base | exact, diff alone "
            "| exact, with relocation | covering (TOUCHED) | listed (candidates) | not found "
            "| wrong confident (of confident) |\n"
            "|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    one = [v for v in rows if v["anchor"]["copies_at_base"] == 1]
    two = [v for v in rows if v["anchor"]["copies_at_base"] > 1]
    lost = [v for v in rows if v["anchor"]["class"] in ("every line removed", "file deleted")]
    out = []
    out.append("context-pack accuracy beyond the diff: %s" % version)
    out.append("repo %s, seed %d, %d pairs (gaps %d-%d first-parent commits), %d anchors; "
               "sampling %.1f s, tool %.2f s (one run, exit %d)" % (
                   repo, args.seed, len(pairs), args.min_gap, args.max_gap, len(rows),
                   t_sample, t_tool, p.returncode))
    out.append("candidates: %s" % ", ".join("%s %d" % kv for kv in n_cand.items()))
    out.append("")
    out.append(head)
    out.append(table(rows, "**all: text once at target**"))
    out.append(table(one, "text once at base too (kept or moved)"))
    out.append(table(two, "text twice or more at base (one copy left)"))
    out.append(table(lost, "the diff lost every line"))
    for cls in ("every line removed", "file deleted", "partly removed", "untouched"):
        for same in (True, False):
            sel = [v for v in rows if v["anchor"]["class"] == cls and v["anchor"]["same_file"] == same]
            if sel:
                out.append(table(sel, "%s, text now in %s" % (cls, "its own file" if same else "another file")))
    for lo, hi in ((1, 2), (3, 12), (13, MAX_LEN)):
        sel = [v for v in lost if lo <= v["anchor"]["end_line"] - v["anchor"]["line"] + 1 <= hi]
        if sel:
            out.append(table(sel, "the diff lost every line, %d-%d lines" % (lo, hi)))
    out.append("")
    cov = [v for v in rows if v["where"] == "covering"]
    out.append("covering: %d TOUCHED ranges contain the text; `best` is exactly it in %d, "
               "`best` given in %d" % (len(cov), sum(v["best_exact"] for v in cov),
                                       sum(v["best"] is not None for v in cov)))
    reasons = collections.Counter(
        (v["why"], v["anchor"]["copies_at_base"] > 1) for v in rows if v["where"] != "exact")
    out.append("not exact, why (from the diff's hunks and the tool's answer):")
    for (r, dup), k in reasons.most_common():
        out.append("  %4d  %s%s" % (k, r, " [a 2nd copy at base]" if dup else ""))
    wrong = [v for v in rows if v["wrong"]]
    out.append("")
    out.append("wrong confident answers: %d" % len(wrong))
    for v in wrong:
        a, got = v["anchor"], v["got"]
        for kind, t in v["wrong"]:
            out.append("  %s:%d-%d (%d lines, %s, %s file, %d copies at base): %s %s%s %s, "
                       "truth %s; reproduced alone: %s" % (
                           a["path"], a["line"], a["end_line"], a["end_line"] - a["line"] + 1,
                           a["class"], a["file"], a["copies_at_base"], got.get("status"), kind,
                           " (whitespace-blind match)" if got.get("whitespace") else "", fmt(t),
                           fmt(a["truth"]), "yes" if v.get("reproduced") else "NO"))
            out.append("    " + repro(v))
    print("\n".join(out))

    if args.json:
        with open(args.json, "w") as f:
            for v in rows:
                a = dict(v["anchor"])
                a["block"] = [dec(l) for l in a["block"]]
                json.dump({"pair": v["pair"], "base": pairs[v["pair"]]["base"],
                           "target": pairs[v["pair"]]["target"], "anchor": a,
                           "diff_exact": v["diff_exact"], "exact": v["exact"],
                           "where": v["where"], "why": v.get("why"),
                           "wrong": v["wrong"], "got": v["got"]}, f)
                f.write("\n")
    if args.keep:
        print("scratch kept: %s" % scratch)
    else:
        shutil.rmtree(scratch, ignore_errors=True)
    ok = all(v["exact"] for v in rows) and not wrong
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
