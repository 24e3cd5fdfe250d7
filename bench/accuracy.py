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
once, in the other place. The report counts those apart ("a 2nd copy at base"). When that
surviving copy is where the diff itself carries another base copy, untouched (no hunk removes
or splits it), it is that copy's place and not where the anchor went: the anchor's own lines
were removed or rewritten. Such anchors have no ground truth. Their answers are listed
("truth unknown: the surviving copy is another base copy, kept in place") and never counted
wrong or exact.

A TOUCHED answer carries `best` (the sub-range at the target its base lines became, with a
`tier`: exact, whitespace, edited, split, merged or moved when located, ambiguous or deleted
when not) and `line_map` (one entry a base line). For every anchor answered TOUCHED with a
`best`, the new columns count (each anchor in one of them, the first that applies):

  best ambiguous       tier ambiguous (line null, `candidates` beside it);
  best deleted         tier deleted;
  best exact           located and equal to the ground truth (path, line, end_line);
  best wrong confident located, and either it does not overlap the ground truth at all
                       (another file counts as no overlap), or it overlaps it but claims
                       tier exact or whitespace without being equal to it;
  best covering        located, contains the ground truth, wider;
  best overlapping     located, overlaps the ground truth partly, tier neither exact nor
                       whitespace (not counted wrong, not counted right).

A second kind of anchor, "edited" (--edited N a pair, 0 to leave it out), judges `best` where
the text does NOT survive: one-line anchors on base lines that a `git diff -U0` hunk of a
modified or renamed file replaces, where the hunk removes as many lines as it adds (a pure
replacement block of at most 5 lines), the removed line and the added line at the same offset
are similar (edit similarity >= 0.7: 1 - Levenshtein / longer length, on the lines with
spaces and tabs removed), and no other added line of that hunk is that similar to it. That
added line is taken as the ground truth. This truth is a HEURISTIC, not an oracle: it trusts
the diff's alignment of the block, and a line rewritten past 0.7, or one whose meaning moved
to another line, is judged against a guess; read the listed cases before blaming the tool.
Removed lines pass the same rule as the other anchors (>= 8 non-space bytes, no CR), one
anchor a hunk at most, never a range already sampled as the first kind; they are drawn with
their own random stream, so the first kind's sample for a seed is the one --edited 0 draws.
Each wrong confident `best` is listed with the command line that reproduces it and, for
every base line whose `line_map` entry is not its ground-truth line, the base text, the
text at the line it was mapped to and the ground truth's text.

Standard library only. The repository is only read (ls-tree, cat-file, diff); scratch
files go to a temporary directory, removed unless --keep. The tool binary is copied there
first, so a rebuild during the run does not change what is measured.

Exit status: 0 the goal holds (every anchor of the first kind found exactly, no wrong
confident answer, and no wrong confident `best` in either kind), 1 it does not, 2 usage
error.
"""

import argparse
import collections
import hashlib
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
                   git_dir_of, is_binary, name_status, parse_patch, split_lines)

MAX_LEN = 30              # anchor length, lines
PER_HUNK = 3              # at most this many anchors from one deletion hunk (or deleted file)
LOST_SHARE = 0.6          # share of a pair's anchors taken from ranges the diff loses
LOST_LENGTHS = [(1, 2, 0.25), (3, 12, 0.45), (13, MAX_LEN, 0.30)]  # lines, share of those
EDIT_SIM = 0.7            # edited kind: the similarity a removed and an added line need
EDIT_MAX = 5              # edited kind: the largest 1:1 replacement block, lines


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


def squeeze(line):
    """The line without spaces and tabs (nor CR, FF, VT), as the similarity compares it."""
    return line.translate(None, b" \t\r\f\v")


def levenshtein(a, b):
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def similarity(x, y):
    """Normalised edit similarity of two lines, whitespace removed: 1 - distance / longer
    (when the lengths alone put it under EDIT_SIM, the shorter / longer bound instead)."""
    a, b = squeeze(x), squeeze(y)
    n = max(len(a), len(b))
    if n == 0:
        return 1.0
    if min(len(a), len(b)) < EDIT_SIM * n:   # the length gap alone keeps it under the bar
        return min(len(a), len(b)) / float(n)
    return 1.0 - levenshtein(a, b) / float(n)


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


def edited_for_pair(blobs, rng, pair, texts, want, taken):
    """The edited kind: up to `want` one-line anchors on base lines a -U0 hunk replaces 1:1
    (as many lines added as removed, at most EDIT_MAX), each with its heuristic ground truth,
    the added line at the same offset: similar to it (>= EDIT_SIM) while no other added line
    of the hunk is. One anchor a hunk at most; none of the ranges in `taken`. Hunks are drawn
    in a random order and judged only until `want` anchors are found."""
    if want <= 0:
        return []
    base, target = pair["base"], pair["target"]
    pool = [(path, h) for path in sorted(pair["hunks"]) for h in pair["hunks"][path]
            if 0 < h[1] == h[3] <= EDIT_MAX]
    rng.shuffle(pool)
    new_texts = {}

    def text_at(rev, cache, path):
        if path not in cache:
            data = blobs.read(rev, path)
            cache[path] = (split_lines(data) if data and not is_binary(data)
                           and "\n" not in path else None)
        return cache[path]

    def base_text(path):
        return text_at(base, texts, path)

    def target_text(path):
        return text_at(target, new_texts, path)

    out = []
    for path, (os_, oc, ns_, nc) in pool:
        if len(out) >= want:
            break
        new = pair["status"][path][1]
        old_lines, new_lines = base_text(path), target_text(new)
        if (not old_lines or not new_lines or os_ + oc - 1 > len(old_lines)
                or ns_ + nc - 1 > len(new_lines)):
            continue
        removed = old_lines[os_ - 1:os_ - 1 + oc]
        added = new_lines[ns_ - 1:ns_ - 1 + nc]
        offsets = list(range(oc))
        rng.shuffle(offsets)
        for k in offsets:
            line = removed[k]
            if (path, os_ + k, os_ + k) in taken or not block_ok([line]):
                continue
            sim = similarity(line, added[k])
            if sim < EDIT_SIM:
                continue
            if any(similarity(line, added[o]) >= EDIT_SIM for o in range(nc) if o != k):
                continue
            out.append({"path": path, "line": os_ + k, "end_line": os_ + k, "origin": "edited",
                        "file": {"M": "modified", "R": "renamed"}[pair["status"][path][0]],
                        "class": "edited line", "truth": (new, ns_ + k, ns_ + k),
                        "hunk": (os_, oc, ns_, nc), "similarity": round(sim, 3),
                        "whitespace_only": squeeze(line) == squeeze(added[k]),
                        "block": [line], "copies_at_base": 1, "same_file": True, "kept_copy": False,
                        "truth_file_changed": True})
            break
    return out


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


def image_of(pair, path, s, e):
    """Where base lines s..e of path stand at the target by the -U0 hunks alone: (path, line)
    when no hunk removes any of them or inserts between them, else None."""
    st = pair["status"].get(path)
    if st is None:
        return (path, s)                 # a file the change left alone
    letter, new = st
    if letter == "D":
        return None
    shift = 0
    for (os_, oc, ns_, nc) in pair["hunks"].get(path, []):
        if oc > 0:
            if os_ <= e and s <= os_ + oc - 1:
                return None
            if os_ + oc - 1 < s:
                shift += nc - oc
        elif s <= os_ < e:               # lines put after line os_, inside the range
            return None
        elif os_ < s:
            shift += nc
    return (new, s + shift)


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


LOCATED_TIERS = ("exact", "whitespace", "edited", "split", "merged", "moved")


def judge_best(got, truth):
    """The verdict on a TOUCHED answer's `best` (None when there is none to judge)."""
    b = got.get("best")
    if got.get("status") != "TOUCHED" or not isinstance(b, dict):
        return None
    tier = b.get("tier")
    at = loc(b)
    res = {"tier": tier, "at": at, "score": b.get("score"), "listed": False}
    if tier == "ambiguous":
        res["verdict"] = "ambiguous"
        res["listed"] = truth in [loc(c) for c in b.get("candidates") or []]
        return res
    if tier == "deleted" or at[1] is None or at[2] is None:
        res["verdict"] = "deleted" if tier == "deleted" else "unlocated"
        return res
    overlap = at[0] == truth[0] and at[1] <= truth[2] and truth[1] <= at[2]
    if at == truth:
        res["verdict"] = "exact"
    elif not overlap or tier in ("exact", "whitespace"):
        res["verdict"] = "wrong"
        res["reason"] = ("no overlap, truth in another file" if at[0] != truth[0] else
                         "no overlap" if not overlap else
                         "overlaps, not equal")
    elif at[1] <= truth[1] and truth[2] <= at[2]:
        res["verdict"] = "covering"
    else:
        res["verdict"] = "overlapping"
    return res


def line_verdicts(got, truth, n):
    """Per base line of the anchor: (target line or None, tier, score, truth line), the truth
    line being where that base line sits in the ground truth (None when the truth's length
    differs from the anchor's, which the sampling never makes)."""
    lm = got.get("line_map") or []
    same_len = truth[2] - truth[1] + 1 == n
    out = []
    for i in range(n):
        e = lm[i] if i < len(lm) and isinstance(lm[i], dict) else {}
        out.append((e.get("target"), e.get("tier"), e.get("score"),
                    truth[1] + i if same_len else None))
    return out


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
    ap.add_argument("--edited", type=int, default=10, metavar="N",
                    help="edited-kind anchors a pair, at most (0: none)")
    ap.add_argument("--json", metavar="FILE", help="write every anchor's verdict here")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    args = ap.parse_args()

    if args.edited < 0:
        print("--edited must be 0 or more", file=sys.stderr)
        return 2
    repo = os.path.abspath(args.repo)
    git_dir = git_dir_of(repo)
    if git_dir is None:
        print("not a git repository: %s" % repo, file=sys.stderr)
        return 2
    if not os.access(args.tool, os.X_OK):
        print("tool not executable: %s" % args.tool, file=sys.stderr)
        return 2
    scratch = tempfile.mkdtemp(prefix="cp-accuracy-")
    tool = os.path.join(scratch, "context-pack")
    shutil.copy2(args.tool, tool)
    version = subprocess.run([tool, "--version"], stdout=subprocess.PIPE).stdout.decode().strip()
    with open(tool, "rb") as f:
        md5 = hashlib.md5(f.read()).hexdigest()

    rng = random.Random(args.seed)
    rng_edited = random.Random("edited %d" % args.seed)   # its own stream: the first kind's
    # sample does not depend on --edited
    git = Git(git_dir)
    t0 = time.perf_counter()
    pairs = pick_pairs(git, rng, args.pairs, args.min_gap, args.max_gap)
    reader = ObjectReader(git)

    # ---- sample anchors whose text survives verbatim and uniquely
    n_cand = collections.Counter()
    for pi, pair in enumerate(pairs):
        blobs = BlobReader(git)
        lost, plain, texts = candidates_for_pair(git, blobs, rng, pair, 1500, 300)
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
            a["kept_copy"] = any(image_of(pair, bp, bs, bs + len(block) - 1) == (tpath, tline)
                                 for bp, bs in at_base.get(c, ()) if (bp, bs) != (path, s))
            anchors.append(a)
        rng.shuffle(anchors)
        pair["anchors"] = anchors
        pair["edited"] = edited_for_pair(
            blobs, rng_edited, pair, texts, args.edited,
            {(a["path"], a["line"], a["end_line"]) for a in anchors})
        n_cand["edited"] += len(pair["edited"])
        blobs.close()
    reader.close()
    t_sample = time.perf_counter() - t0

    # ---- context-pack, once, on everything
    jsonl = os.path.join(scratch, "anchors.jsonl")
    with open(jsonl, "w") as f:
        for i, pair in enumerate(pairs):
            reads = [{"location": {"path": a["path"], "line": a["line"], "end_line": a["end_line"]},
                      "why": "accuracy %d.%d" % (i, j)}
                     for j, a in enumerate(pair["anchors"] + pair["edited"])]
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
    erows = []                           # the edited kind
    no_truth = []                        # no ground truth: the survivor is another copy's place
    for i, pair in enumerate(pairs):
        got_anchors = specs[i].get("anchors", [])
        for j, a in enumerate(pair["anchors"] + pair["edited"]):
            got = got_anchors[j] if j < len(got_anchors) else {}
            if (got.get("path"), got.get("line"), got.get("end_line")) != (a["path"], a["line"], a["end_line"]):
                print("pair%02d anchor %d: the tool echoes %s:%s-%s; scratch kept: %s" % (
                    i, j, got.get("path"), got.get("line"), got.get("end_line"), scratch))
                return 1
            if j >= len(pair["anchors"]):
                erows.append({"pair": i, "anchor": a, "got": got,
                              "best_verdict": judge_best(got, a["truth"])})
                continue
            if a["kept_copy"]:
                no_truth.append({"pair": i, "anchor": a, "got": got})
                continue
            v = judge(got, a["truth"])
            v["best_verdict"] = judge_best(got, a["truth"])
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

    def alone(v):
        """The tool's answer for the anchor given alone on the command line (None if none)."""
        pair, a = pairs[v["pair"]], v["anchor"]
        q = subprocess.run([tool, "-C", repo, "--base", pair["base"], "--target", pair["target"],
                            "--anchor", "%s:%d-%d" % (a["path"], a["line"], a["end_line"]),
                            "--format", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            return json.loads(q.stdout)["specs"][0]["anchors"][0]
        except (ValueError, KeyError, IndexError, TypeError):
            return None

    def best_wrong(v):
        bv = v.get("best_verdict")
        return bool(bv) and bv["verdict"] == "wrong"

    # reproduce every wrong confident answer, and every wrong confident best, alone
    for v in rows + erows:
        if not v.get("wrong") and not best_wrong(v):
            continue
        got = alone(v)
        if v.get("wrong"):
            v["reproduced"] = got is not None and judge(got, v["anchor"]["truth"])["wrong"] == v["wrong"]
        if best_wrong(v):
            bv = judge_best(got, v["anchor"]["truth"]) if got is not None else None
            v["best_reproduced"] = (bv is not None and bv["verdict"] == "wrong"
                                    and (bv["at"], bv["tier"]) == (v["best_verdict"]["at"],
                                                                   v["best_verdict"]["tier"]))

    # ---- report
    def pct(k, n):
        return "%5.1f%%" % (100.0 * k / n) if n else "    -"

    BEST_COLS = ("exact", "covering", "overlapping", "wrong", "ambiguous", "deleted")

    def best_counts(sel):
        bvs = [v["best_verdict"] for v in sel if v.get("best_verdict")]
        c = collections.Counter(b["verdict"] for b in bvs)
        listed = sum(b["verdict"] == "ambiguous" and b["listed"] for b in bvs)
        return len(bvs), c, listed

    def best_cells(sel):
        nb, c, listed = best_counts(sel)
        cells = [str(nb)] + ["%d" % c[k] for k in BEST_COLS]
        cells[1 + BEST_COLS.index("ambiguous")] = "%d (%d listed)" % (c["ambiguous"], listed)
        if c["unlocated"]:
            cells[-1] += " +%d unlocated" % c["unlocated"]
        return " | ".join(cells)

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
        return "| %s | %d | %d | %d (%s) | %d (%s) | %d | %d | %d | %d of %d | %s |" % (
            title, n, dup, d, pct(d, n).strip(), x, pct(x, n).strip(), cov, lst, nf, w, conf,
            best_cells(sel))

    BEST_HEAD = ("TOUCHED with `best` | best exact | best covering | best overlapping "
                 "| best wrong confident | best ambiguous (truth among its candidates) "
                 "| best deleted")
    head = ("| anchors | n | of them with a 2nd copy at base | exact, diff alone "
            "| exact, with relocation | covering (TOUCHED) | listed (candidates) | not found "
            "| wrong confident (of confident) | " + BEST_HEAD + " |\n"
            "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    one = [v for v in rows if v["anchor"]["copies_at_base"] == 1]
    two = [v for v in rows if v["anchor"]["copies_at_base"] > 1]
    lost = [v for v in rows if v["anchor"]["class"] in ("every line removed", "file deleted")]
    out = []
    out.append("context-pack accuracy beyond the diff: %s (binary md5 %s)" % (version, md5))
    out.append("repo %s, seed %d, %d pairs (gaps %d-%d first-parent commits), %d anchors judged "
               "(%d more without a ground truth); sampling %.1f s, tool %.2f s (one run, exit %d)" % (
                   repo, args.seed, len(pairs), args.min_gap, args.max_gap, len(rows), len(no_truth),
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
               "`best` located in %d" % (len(cov), sum(v["best_exact"] for v in cov),
                                         sum(v["best"] is not None and v["best"][1] is not None
                                             for v in cov)))
    reasons = collections.Counter(
        (v["why"], v["anchor"]["copies_at_base"] > 1) for v in rows if v["where"] != "exact")
    out.append("not exact, why (from the diff's hunks and the tool's answer):")
    for (r, dup), k in reasons.most_common():
        out.append("  %4d  %s%s" % (k, r, " [a 2nd copy at base]" if dup else ""))
    wrong = [v for v in rows if v["wrong"]]
    out.append("")
    out.append("truth unknown: the surviving copy is another base copy, kept in place: %d anchors "
               "(not judged); the tool's final answers: %s" % (
                   len(no_truth), ", ".join("%s %d" % kv for kv in collections.Counter(
                       "found_at" if u["got"].get("found_at") else
                       "%s%s" % (u["got"].get("status"), ", lines deleted"
                                 if u["got"].get("lines_deleted") else "")
                       for u in no_truth).most_common()) or "-"))
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

    # ---- the edited kind, and `best` line by line
    def etable(sel, title):
        n = len(sel)
        others = collections.Counter(v["got"].get("status") for v in sel if v["best_verdict"] is None)
        return "| %s | %d | %s | %s |" % (
            title, n, best_cells(sel),
            ", ".join("%s %d" % kv for kv in sorted(others.items(), key=str)) or "-")

    if args.edited:
        out.append("")
        out.append("edited kind (one-line anchors on a 1:1 replaced line; the truth, the added "
                   "line at the same offset, is a heuristic): %d anchors" % len(erows))
        out.append("")
        out.append("| edited anchors | n | " + BEST_HEAD + " | not TOUCHED with `best` |\n"
                   "|---|--:|--:|--:|--:|--:|--:|--:|--:|---|")
        out.append(etable(erows, "**all edited**"))
        for lo, hi in ((1, 1), (2, EDIT_MAX)):
            sel = [v for v in erows if lo <= v["anchor"]["hunk"][1] <= hi]
            if sel:
                out.append(etable(sel, "hunk of %s line%s" % (
                    lo if lo == hi else "%d-%d" % (lo, hi), "" if lo == hi == 1 else "s")))
        for title, f in (("whitespace-only change", lambda a: a["whitespace_only"]),
                         ("similarity 0.9 or more, not whitespace-only",
                          lambda a: not a["whitespace_only"] and a["similarity"] >= 0.9),
                         ("similarity 0.7-0.9", lambda a: a["similarity"] < 0.9),
                         ("renamed file", lambda a: a["file"] == "renamed")):
            sel = [v for v in erows if f(v["anchor"])]
            if sel:
                out.append(etable(sel, title))

    out.append("")
    for name, sel in (("first kind", rows), ("edited kind", erows)):
        if not sel:
            continue
        tiers = collections.Counter(v["best_verdict"]["tier"] for v in sel if v["best_verdict"])
        unknown = sorted(t for t in tiers if t not in LOCATED_TIERS + ("ambiguous", "deleted"))
        lines = collections.Counter()
        for v in sel:
            bv = v["best_verdict"]
            if not bv:
                continue
            a = v["anchor"]
            for tl, tier, score, want in line_verdicts(v["got"], a["truth"],
                                                       a["end_line"] - a["line"] + 1):
                if tl is None:
                    lines["not located"] += 1
                elif bv["at"][0] == a["truth"][0] and tl == want:
                    lines["at its truth line"] += 1
                else:
                    lines["elsewhere"] += 1
        out.append("%s, `best` tiers: %s%s" % (
            name, ", ".join("%s %d" % kv for kv in tiers.most_common()) or "-",
            ("; unknown tiers: " + ", ".join(map(str, unknown))) if unknown else ""))
        out.append("%s, `line_map` of the TOUCHED anchors with `best`: %d base lines, %s" % (
            name, sum(lines.values()),
            ", ".join("%s %d" % (k, lines[k]) for k in ("at its truth line", "elsewhere",
                                                       "not located"))))

    bwrong = [v for v in rows + erows if best_wrong(v)]
    out.append("")
    out.append("wrong confident best: %d (first kind %d, %d of them with the final answer "
               "exact, by relocation; edited kind %d)" % (
                   len(bwrong), sum(best_wrong(v) for v in rows),
                   sum(best_wrong(v) and v["exact"] for v in rows),
                   sum(best_wrong(v) for v in erows)))
    why_wrong = collections.Counter(
        ("edited kind" if v["anchor"]["origin"] == "edited" else "first kind",
         v["best_verdict"]["reason"], v["best_verdict"]["tier"]) for v in bwrong)
    for (kind, r, tier), k in sorted(why_wrong.items(), key=lambda kv: (kv[0][0], -kv[1])):
        out.append("  %4d  %s: %s, tier %s" % (k, kind, r, tier))
    texts_at = BlobReader(git)

    def text_of(rev, path, line):
        if line is None:
            return None
        data = texts_at.read(rev, path)
        ls = split_lines(data) if data else []
        return ls[line - 1] if 0 < line <= len(ls) else None

    def show(line):
        if line is None:
            return "(none)"
        t = json.dumps(dec(line), ensure_ascii=False)
        return t if len(t) <= 160 else t[:157] + "..."

    for v in bwrong:
        a, got, bv = v["anchor"], v["got"], v["best_verdict"]
        n = a["end_line"] - a["line"] + 1
        edited = a["origin"] == "edited"
        target = pairs[v["pair"]]["target"]
        if edited:
            final = ""
        else:
            fa = loc(got.get("found_at"))
            final = "; final answer %s%s" % (
                ("found_at " + fmt(fa)) if fa else "to", " (exact)" if v["exact"] else
                " (not exact)")
        out.append("  %s %s:%d-%d (%d line%s, %s, %s file, truth in %s): TOUCHED to %s; best %s "
                   "tier %s score %s (%s); truth %s%s%s; reproduced alone: %s" % (
                       "[edited]" if edited else "[first]", a["path"], a["line"], a["end_line"],
                       n, "" if n == 1 else "s", a["class"], a["file"],
                       "its own file" if a["same_file"] else "another file",
                       fmt(loc(got.get("to"))), fmt(bv["at"]), bv["tier"], bv["score"],
                       bv["reason"], fmt(a["truth"]),
                       (" (similarity %.2f, hunk -%d,%d +%d,%d)" % ((a["similarity"],) + a["hunk"])
                        if edited else ""), final,
                       "yes" if v.get("best_reproduced") else "NO"))
        out.append("    " + repro(v))
        # every base line not mapped to its truth line; runs of unlocated lines in one row
        right, run = 0, []

        def flush_run():
            if run:
                tiers_ = collections.Counter(t for _, t in run)
                out.append("    base %s %s -> not located (%s)%s" % (
                    run[0][0] if len(run) == 1 else "%d-%d" % (run[0][0], run[-1][0]),
                    show(a["block"][run[0][0] - a["line"]]) + (" ..." if len(run) > 1 else ""),
                    ", ".join("%s %d" % kv for kv in tiers_.most_common()),
                    "" if edited else "; truth %s:%d%s" % (
                        a["truth"][0], a["truth"][1] + run[0][0] - a["line"],
                        "" if len(run) == 1 else "-%d" % (a["truth"][1] + run[-1][0] - a["line"]))))
                del run[:]
        for i, (tl, tier, score, want) in enumerate(line_verdicts(got, a["truth"], n)):
            if tl is not None and bv["at"][0] == a["truth"][0] and tl == want:
                right += 1
                flush_run()
                continue
            if tl is None and not edited:
                run.append((a["line"] + i, tier))
                continue
            flush_run()
            out.append("    base %d %s -> %s [%s %s] %s; truth %s:%s%s" % (
                a["line"] + i, show(a["block"][i]),
                "%s:%d" % (bv["at"][0], tl) if tl is not None else "not located", tier, score,
                show(text_of(target, bv["at"][0], tl)) if tl is not None else "",
                a["truth"][0], want,
                (" " + show(text_of(target, a["truth"][0], want))) if edited
                else " (the same text)"))
        flush_run()
        if right:
            out.append("    (%d other base line%s mapped to %s truth line)" % (
                right, "" if right == 1 else "s", "its" if right == 1 else "their"))
    texts_at.close()
    print("\n".join(out))

    if args.json:
        with open(args.json, "w") as f:
            for v in rows + erows + no_truth:
                a = dict(v["anchor"])
                a["block"] = [dec(l) for l in a["block"]]
                rec = {"pair": v["pair"], "base": pairs[v["pair"]]["base"],
                       "target": pairs[v["pair"]]["target"],
                       "kind": ("edited" if a["origin"] == "edited" else
                                "no ground truth" if a["kept_copy"] else "survives"),
                       "anchor": a}
                if a["kept_copy"]:
                    rec["got"] = v["got"]
                    json.dump(rec, f)
                    f.write("\n")
                    continue
                if a["origin"] != "edited":
                    rec.update({"diff_exact": v["diff_exact"], "exact": v["exact"],
                                "where": v["where"], "why": v.get("why"), "wrong": v["wrong"]})
                rec.update({"best_verdict": v["best_verdict"], "got": v["got"]})
                json.dump(rec, f)
                f.write("\n")
    if args.keep:
        print("scratch kept: %s" % scratch)
    else:
        shutil.rmtree(scratch, ignore_errors=True)
    ok = all(v["exact"] for v in rows) and not wrong and not bwrong
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
