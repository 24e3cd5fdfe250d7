#!/usr/bin/env python3
"""Real-history correctness check for context-pack.

Samples (base, target) commit pairs from a large real repository, samples anchors
inside them, computes a reference answer for every anchor from git CLI output alone
(name-status with renames, -U0 hunks) plus an independent implementation of the
SPEC section 3 boundary rule, runs context-pack ONCE on all pairs (one .jsonl, one
spec a line), and compares anchor by anchor.

Standard library only. Read-only on the repository: it only runs git plumbing and
diff commands against it and writes its scratch files to a temporary directory.

Exit status: 0 full agreement, 1 any disagreement (or tool failure), 2 usage error.
"""

import argparse
import collections
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

# ----------------------------------------------------------------------------
# git CLI plumbing

GIT_ENV = dict(os.environ)
GIT_ENV.update({
    "GIT_CONFIG_NOSYSTEM": "1",          # no system/global config: git's defaults
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_OPTIONAL_LOCKS": "0",           # never take optional locks
    "GIT_LITERAL_PATHSPECS": "1",        # paths are paths, not globs
    "GIT_NO_REPLACE_OBJECTS": "1",
    "GIT_PAGER": "cat",
    "LC_ALL": "C",
})

# The diff options of the reference: git's defaults spelled out (Myers with the
# indent heuristic, 50% renames), no external diff, no textconv.
DIFF_CFG = ["-c", "diff.renameLimit=1000", "-c", "core.quotePath=false"]
DIFF_OPTS = ["--no-color", "--no-ext-diff", "--no-textconv", "-M",
             "--diff-algorithm=myers", "--indent-heuristic"]


class Git:
    def __init__(self, git_dir):
        self.git_dir = git_dir
        self.seconds = 0.0
        self.calls = 0

    def run(self, *args, check=True):
        cmd = ["git", "--git-dir=" + self.git_dir] + list(args)
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=GIT_ENV)
        self.seconds += time.perf_counter() - t0
        self.calls += 1
        if check and p.returncode != 0:
            raise RuntimeError("git failed (%d): %s\n%s" % (
                p.returncode, " ".join(cmd), p.stderr.decode(errors="replace")))
        return p.stdout


class BlobReader:
    """One `git cat-file --batch` process; reads REV:PATH -> bytes or None."""

    def __init__(self, git):
        self.git = git
        self.proc = subprocess.Popen(
            ["git", "--git-dir=" + git.git_dir, "cat-file", "--batch"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=GIT_ENV)
        self.cache = {}

    def read(self, rev, path):
        key = (rev, path)
        if key in self.cache:
            return self.cache[key]
        t0 = time.perf_counter()
        self.proc.stdin.write(("%s:%s\n" % (rev, path)).encode("utf-8", "surrogateescape"))
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().rstrip(b"\n").split(b" ")
        data = None
        if len(header) == 3 and header[1] in (b"blob", b"tree", b"commit", b"tag"):
            size = int(header[2])
            body = self.proc.stdout.read(size + 1)[:size]
            data = body if header[1] == b"blob" else None
        self.git.seconds += time.perf_counter() - t0
        self.cache[key] = data
        return data

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def unquote_c(b):
    """git's C-style path quoting ("a\\tb", octal escapes) -> bytes."""
    if not (len(b) >= 2 and b[:1] == b'"' and b[-1:] == b'"'):
        return b
    b = b[1:-1]
    out = bytearray()
    i = 0
    esc = {ord("n"): 10, ord("t"): 9, ord("r"): 13, ord("a"): 7, ord("b"): 8,
           ord("f"): 12, ord("v"): 11, ord('"'): 34, ord("\\"): 92}
    while i < len(b):
        c = b[i]
        if c == 92 and i + 1 < len(b):
            n = b[i + 1]
            if 48 <= n <= 55:
                out.append(int(b[i + 1:i + 4], 8))
                i += 4
                continue
            out.append(esc.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return bytes(out)


def dec(b):
    return b.decode("utf-8", "surrogateescape")


def git_dir_of(repo):
    """The absolute git directory of `repo` (a work tree or a bare mirror); None when it is
    no repository."""
    p = subprocess.run(["git", "-C", repo, "rev-parse", "--absolute-git-dir"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=GIT_ENV)
    return p.stdout.decode().strip() if p.returncode == 0 else None


def name_status(git, base, target):
    """git diff -M --name-status -z: list of (letter, score, old, new)."""
    out = git.run(*DIFF_CFG, "diff", "--name-status", "-z", *DIFF_OPTS, base, target)
    parts = out.split(b"\0")
    res = []
    i = 0
    while i < len(parts) and parts[i]:
        st = dec(parts[i])
        letter, score = st[0], (int(st[1:]) if len(st) > 1 else None)
        if letter in "RC":
            res.append((letter, score, dec(parts[i + 1]), dec(parts[i + 2])))
            i += 3
        else:
            res.append((letter, score, dec(parts[i + 1]), dec(parts[i + 1])))
            i += 2
    return res


HUNK_RE = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def parse_patch(out):
    """Parse `git diff -U0` output into records {old, new, rename, binary, hunks, headers}."""
    recs = []
    cur = None
    rem_old = rem_new = 0
    for line in out.split(b"\n"):
        if cur is not None and (rem_old > 0 or rem_new > 0):
            if line.startswith(b"-"):
                rem_old -= 1
                continue
            if line.startswith(b"+"):
                rem_new -= 1
                continue
            if line.startswith(b"\\"):
                continue
            raise RuntimeError("unexpected line inside a hunk: %r" % line[:80])
        if line.startswith(b"\\"):
            continue
        if line.startswith(b"diff --git "):
            cur = {"old": None, "new": None, "rename": False, "binary": False,
                   "hunks": [], "headers": [], "diffline": line[11:],
                   "added": False, "deleted": False}
            recs.append(cur)
            continue
        if cur is None:
            continue
        if line.startswith(b"@@ "):
            m = HUNK_RE.match(line)
            os_, oc, ns, nc = (int(m.group(1)), int(m.group(2) or b"1"),
                               int(m.group(3)), int(m.group(4) or b"1"))
            cur["hunks"].append((os_, oc, ns, nc))
            cur["headers"].append(dec(line))
            rem_old, rem_new = oc, nc
        elif line.startswith(b"rename from "):
            cur["old"] = dec(unquote_c(line[12:]))
            cur["rename"] = True
        elif line.startswith(b"rename to "):
            cur["new"] = dec(unquote_c(line[10:]))
        elif line.startswith(b"--- "):
            v = unquote_c(line[4:].rstrip(b"\t"))
            if v != b"/dev/null":
                cur["old"] = dec(v[2:])
        elif line.startswith(b"+++ "):
            v = unquote_c(line[4:].rstrip(b"\t"))
            if v != b"/dev/null":
                cur["new"] = dec(v[2:])
        elif line.startswith(b"Binary files "):
            cur["binary"] = True
        elif line.startswith(b"new file mode"):
            cur["added"] = True
        elif line.startswith(b"deleted file mode"):
            cur["deleted"] = True
    for r in recs:
        if r["old"] is None and r["new"] is None:
            d = r["diffline"]
            if d.startswith(b'"'):
                a, _, b = d.partition(b'" ')   # crude, quoted names are rare
                r["old"] = dec(unquote_c(a + b'"')[2:])
                r["new"] = dec(unquote_c(b)[2:])
            else:
                n = (len(d) - 5) // 2
                r["old"] = r["new"] = dec(d[2:2 + n])
        elif r["old"] is None:
            r["old"] = r["new"]
        elif r["new"] is None:
            r["new"] = r["old"]
    return recs


def untrimmed_hunks(git, base, old, target, new):
    """git's change set WITHOUT the -U0 tail trim: `git diff -U0` trims the common tail
    of both files (xdiff-interface.c trim_common_tail, only when the context is 0), which
    can move sliders and split or merge changes. A -U1 diff is not trimmed; its body,
    cut at the context lines, gives the untrimmed changes in -U0 coordinates."""
    out = git.run(*DIFF_CFG, "diff", "-U1", *DIFF_OPTS,
                  "%s:%s" % (base, old), "%s:%s" % (target, new), check=False)
    hunks = []
    o = n = 0
    cur = None                            # [old_at, new_at, removed, added]

    def flush():
        if cur is not None:
            oa, na, rm, ad = cur
            hunks.append((oa if rm else oa - 1, rm, na if ad else na - 1, ad))
    in_hunk = False
    for line in out.split(b"\n"):
        m = HUNK_RE.match(line)
        if m:
            flush()
            cur = None
            o, n = int(m.group(1)), int(m.group(3))
            if m.group(2) == b"0":
                o += 1
            if m.group(4) == b"0":
                n += 1
            in_hunk = True
            continue
        if not in_hunk or not line:
            continue
        c = line[:1]
        if c == b" ":
            flush()
            cur = None
            o += 1
            n += 1
        elif c == b"-":
            if cur is None:
                cur = [o, n, 0, 0]
            cur[2] += 1
            o += 1
        elif c == b"+":
            if cur is None:
                cur = [o, n, 0, 0]
            cur[3] += 1
            n += 1
        elif c == b"\\":
            continue
        else:
            in_hunk = False
    flush()
    return hunks


def blob_hunks(git, base, old, target, new):
    """-U0 hunks between two blobs (the per-file fallback / cross-check)."""
    out = git.run(*DIFF_CFG, "diff", "-U0", *DIFF_OPTS,
                  "%s:%s" % (base, old), "%s:%s" % (target, new), check=False)
    recs = parse_patch(out)
    if not recs:
        return [], [], False
    return recs[0]["hunks"], recs[0]["headers"], recs[0]["binary"]


# ----------------------------------------------------------------------------
# text helpers (as git counts lines and as `git grep -w -F` matches words)

def is_binary(data):
    return b"\0" in data[:8000]


def split_lines(data):
    if not data:
        return []
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return lines


WORD = rb"A-Za-z0-9_"


def has_whole_word(lines, sym):
    pat = re.compile(rb"(?<![" + WORD + rb"])" + re.escape(sym.encode()) + rb"(?![" + WORD + rb"])")
    return any(pat.search(l) for l in lines)


IDENT_RE = re.compile(rb"[A-Za-z0-9_]+")


def identifiers(lines):
    out = []
    for l in lines:
        for m in IDENT_RE.finditer(l):
            w = m.group(0)
            if len(w) >= 3 and not w[:1].isdigit():
                out.append(w.decode())
    return out


# ----------------------------------------------------------------------------
# SPEC section 3, the boundary rule, implemented from the text of the spec

def removes(h, x):
    os_, oc, _, _ = h
    return oc > 0 and os_ <= x <= os_ + oc - 1


def before(h, x):
    """The hunk lies wholly before base line x (so it shifts x)."""
    os_, oc, _, _ = h
    return (os_ + oc - 1 < x) if oc > 0 else (os_ < x)


def overlaps(h, s, e):
    os_, oc, _, _ = h
    if oc > 0:
        return os_ <= e and os_ + oc - 1 >= s
    return s <= os_ < e


def shift_at(hunks, x):
    return sum(nc - oc for (os_, oc, ns, nc) in hunks if before((os_, oc, ns, nc), x))


def map_range(hunks, s, e):
    """-> (status, start, end, lines_deleted)"""
    if not any(overlaps(h, s, e) for h in hunks):
        d = shift_at(hunks, s)
        return ("SAME" if d == 0 else "MOVED"), s + d, e + d, False
    hs = [h for h in hunks if removes(h, s)]
    if hs:
        _, _, ns, nc = hs[0]
        start = ns if nc > 0 else ns + 1
    else:
        start = s + shift_at(hunks, s)
    he = [h for h in hunks if removes(h, e)]
    if he:
        _, _, ns, nc = he[0]
        end = ns + nc - 1 if nc > 0 else ns
    else:
        end = e + shift_at(hunks, e)
    return "TOUCHED", start, end, end < start


# ----------------------------------------------------------------------------
# sampling

GAP_BUCKETS = [(1, 5), (6, 40), (41, 150), (151, 300)]


def pick_pairs(git, rng, n, extra):
    fp = dec(git.run("rev-list", "--first-parent", "HEAD")).split()
    pairs = []
    seen = set()
    for spec in extra:
        b, _, t = spec.partition("..")
        b = dec(git.run("rev-parse", "--verify", b + "^{commit}")).strip()
        t = dec(git.run("rev-parse", "--verify", t + "^{commit}")).strip()
        pairs.append({"base": b, "target": t, "gap": None, "ns": name_status(git, b, t)})
        seen.add((b, t))
    for slot in range(n):
        want = ["R", "D", None, None][slot % 4]
        chosen = None
        for attempt in range(80):
            lo, hi = GAP_BUCKETS[rng.randrange(len(GAP_BUCKETS))]
            if want:
                lo = max(lo, 20)         # renames and deletions need some distance
            gap = rng.randint(lo, max(lo, hi))
            i = rng.randrange(gap, len(fp))
            b, t = fp[i], fp[i - gap]
            if (b, t) in seen:
                continue
            ns = name_status(git, b, t)
            mods = sum(1 for x in ns if x[0] == "M")
            if mods == 0:
                continue
            if want and not any(x[0] == want for x in ns):
                continue
            chosen = {"base": b, "target": t, "gap": gap, "ns": ns}
            break
        if chosen is None:               # give up on the wish, take any pair with changes
            while chosen is None:
                gap = rng.randint(1, 300)
                i = rng.randrange(gap, len(fp))
                b, t = fp[i], fp[i - gap]
                ns = name_status(git, b, t)
                if ns and (b, t) not in seen:
                    chosen = {"base": b, "target": t, "gap": gap, "ns": ns}
        seen.add((chosen["base"], chosen["target"]))
        pairs.append(chosen)
    return pairs


def range_len(rng):
    r = rng.random()
    if r < 0.30:
        return 1
    if r < 0.75:
        return rng.randint(2, 15)
    return rng.randint(16, 60)


def sample_anchors(git, blobs, rng, pair, count, pair_no):
    base, target = pair["base"], pair["target"]
    files = {}
    for ent in git.run("ls-tree", "-r", "-z", "--full-tree", base).split(b"\0"):
        if not ent:
            continue
        meta, _, path = ent.partition(b"\t")
        mode = meta.split(b" ")[0]
        if mode in (b"100644", b"100755"):
            try:
                files[path.decode("utf-8")] = True
            except UnicodeDecodeError:
                pass
    ns = pair["ns"]
    by = collections.defaultdict(list)
    for letter, score, old, new in ns:
        if letter == "A":
            by["A"].append(new)
        elif old in files:
            by[letter].append(old)
    changed = set(x[2] for x in ns)
    unchanged = [p for p in files if p not in changed]
    shares = [("R", 0.16), ("M", 0.42), ("D", 0.07), ("U", 0.22),
              ("NEW", 0.06), ("PAST", 0.07)]
    pools = {"R": sorted(by["R"]), "M": sorted(by["M"]), "D": sorted(by["D"]),
             "U": sorted(unchanged)}

    def text_file(path):
        data = blobs.read(base, path)
        if data is None or not data or is_binary(data):
            return None
        if "\n" in path:
            return None
        return data

    # choose (kind, path) first so one sampling diff gives hunks for the chosen files
    plan = []
    for i in range(count):
        r = rng.random()
        acc = 0.0
        kind = "M"
        for k, w in shares:
            acc += w
            if r < acc:
                kind = k
                break
        if kind in pools and not pools[kind]:
            kind = "M" if pools["M"] else "U"
        plan.append(kind)

    chosen = []
    for kind in plan:
        if kind == "NEW":
            if by["A"] and rng.random() < 0.5:
                chosen.append((kind, rng.choice(by["A"]), None))
            else:
                chosen.append((kind, "rh_check/absent_%d_%04d.c" % (pair_no, rng.randrange(10000)), None))
            continue
        pool = pools["U"] if kind == "PAST" else pools[kind]
        if kind == "PAST" and rng.random() < 0.5 and pools["M"]:
            pool = pools["M"]
        for _ in range(30):
            p = rng.choice(pool)
            data = text_file(p)
            if data is not None:
                chosen.append((kind, p, data))
                break

    # sampling diff, only to put some ranges near the hunks of changed files
    rename_to = {x[2]: x[3] for x in ns if x[0] == "R"}
    diff_paths = sorted(set(p for k, p, _ in chosen if k in ("M", "R")) |
                        set(rename_to[p] for k, p, _ in chosen if k == "R"))
    hunks = {}
    if diff_paths:
        out = git.run(*DIFF_CFG, "diff", "-U0", *DIFF_OPTS, base, target, "--", *diff_paths)
        for rec in parse_patch(out):
            hunks[rec["old"]] = rec["hunks"]

    anchors = []
    for kind, path, data in chosen:
        a = {"path": path, "kind": kind}
        if kind == "NEW":
            a["line"] = rng.randint(1, 40)
            a["end_line"] = a["line"] + rng.choice([0, 0, 3, 12])
            if rng.random() < 0.3:
                a["symbol"] = "rh_absent_%06x" % rng.randrange(1 << 24)
            anchors.append(a)
            continue
        lines = split_lines(data)
        n = len(lines)
        if kind == "PAST":
            if rng.random() < 0.5:
                a["line"] = n + rng.randint(1, 40)
                a["end_line"] = a["line"] + rng.choice([0, 5])
            else:
                a["line"] = max(1, n - rng.randint(0, 10))
                a["end_line"] = n + rng.randint(1, 20)
            anchors.append(a)
            continue
        L = min(range_len(rng), n)
        hs = hunks.get(path) or []
        r = rng.random()
        if hs and r < 0.55:
            os_, oc, _, _ = rng.choice(hs)
            lo = max(1, os_ - L)
            hi = max(lo, min(n - L + 1, os_ + oc + 1))
            s = rng.randint(lo, hi)
        elif r < 0.62:
            s = 1 if rng.random() < 0.5 else n - L + 1
        else:
            s = rng.randint(1, n - L + 1)
        e = s + L - 1
        a["line"], a["end_line"] = s, e
        r = rng.random()
        if r < 0.40:
            ids = identifiers(lines[s - 1:e])
            if ids:
                a["symbol"] = rng.choice(ids)
        elif r < 0.47:
            a["symbol"] = "rh_absent_%06x" % rng.randrange(1 << 24)
        elif r < 0.52:
            inside = set(identifiers(lines[s - 1:e]))
            outside = [w for w in identifiers(lines[:s - 1] + lines[e:]) if w not in inside]
            if outside:
                a["symbol"] = rng.choice(outside)
        anchors.append(a)
    rng.shuffle(anchors)
    return anchors


# ----------------------------------------------------------------------------
# the reference answer, from git CLI output only

def reference_for_pair(git, blobs, pair, anchors):
    base, target = pair["base"], pair["target"]
    ns = name_status(git, base, target)
    deleted = {x[2] for x in ns if x[0] == "D"}
    typechg = {x[2] for x in ns if x[0] == "T"}
    renamed = {x[2]: (x[3], x[1]) for x in ns if x[0] == "R"}
    modified = {x[2] for x in ns if x[0] in "MT"}
    paths = sorted(set(a["path"] for a in anchors))

    # modes at base and at target of every anchored path
    def modes(rev, ps):
        res = {}
        if not ps:
            return res
        out = git.run("ls-tree", "-z", "--full-tree", rev, "--", *ps)
        for ent in out.split(b"\0"):
            if ent:
                meta, _, p = ent.partition(b"\t")
                res[dec(p)] = dec(meta.split(b" ")[0])
        return res
    base_modes = modes(base, paths)
    tgt_modes = modes(target, paths)

    # one -U0 diff for every anchored modified or renamed file, both names given
    diff_paths = set()
    for p in paths:
        if p in renamed:
            diff_paths |= {p, renamed[p][0]}
        elif p in modified and p not in typechg:
            diff_paths.add(p)
    recs = {}
    if diff_paths:
        out = git.run(*DIFF_CFG, "diff", "-U0", *DIFF_OPTS, base, target, "--", *sorted(diff_paths))
        for r in parse_patch(out):
            recs[r["old"]] = r
    pair["crosscheck_fallbacks"] = []
    for p in paths:                       # cross-check the pathspec diff's rename pairing
        if p in renamed or (p in modified and p not in typechg):
            want_new = renamed[p][0] if p in renamed else p
            r = recs.get(p)
            if r is None or r["new"] != want_new or r["rename"] != (p in renamed):
                h, hd, binary = blob_hunks(git, base, p, target, want_new)
                recs[p] = {"old": p, "new": want_new, "rename": p in renamed,
                           "binary": binary, "hunks": h, "headers": hd}
                pair["crosscheck_fallbacks"].append(p)
    pair["recs"] = recs

    refs = []
    for a in anchors:
        p, s, e, sym = a["path"], a["line"], a["end_line"], a.get("symbol")
        ref = {"status": None, "renamed": False, "to": None, "lines_deleted": False,
               "symbol_found": None, "exists_at_target": None, "note": ""}
        refs.append(ref)
        if p not in base_modes:
            ref["status"] = "NEW"
            ref["exists_at_target"] = p in tgt_modes
            # A non-empty text file at the target gives the anchor a range there: its own
            # lines, the end clamped to the file, or the file's first lines when it starts
            # past the end (README, "NEW").
            if tgt_modes.get(p) in ("100644", "100755") and s >= 1 and e >= s:
                data = blobs.read(target, p)
                n = len(split_lines(data)) if data and not is_binary(data) else 0
                if n:
                    first, last = (s, min(e, n)) if s <= n else (1, min(e - s + 1, n))
                    ref["to"] = {"path": p, "line": first, "end_line": last}
            continue
        data = blobs.read(base, p)
        n = len(split_lines(data))
        if s < 1 or e < s or e > n:
            ref["status"] = "UNRESOLVED"
            ref["note"] = "past the end (%d lines at base)" % n
            continue
        if p in deleted or p in typechg:
            ref["status"] = "GONE"
            if p in typechg:
                ref["note"] = "type change at target"
            continue
        new = p
        hunks = []
        if p in renamed:
            new = renamed[p][0]
            ref["renamed"] = True
        if p in recs:
            if recs[p]["binary"]:
                ref["status"] = "UNRESOLVED"
                ref["note"] = "changed binary file"
                continue
            hunks = recs[p]["hunks"]
        st, a0, a1, gone = map_range(hunks, s, e)
        ref["status"], ref["to"], ref["lines_deleted"] = st, {"path": new, "line": a0, "end_line": a1}, gone
        tdata = blobs.read(target, new)
        tlines = split_lines(tdata)
        window = tlines[a0 - 1:a1] if a1 >= a0 else []
        if st in ("SAME", "MOVED"):       # self-check of the reference
            if window != split_lines(data)[s - 1:e]:
                ref["note"] = "REFERENCE SELF-CHECK FAILED: target lines differ from base lines"
        if a1 > len(tlines):
            ref["note"] = "REFERENCE SELF-CHECK FAILED: window past target end (%d lines)" % len(tlines)
        if sym is not None:
            ref["symbol_found"] = has_whole_word(window, sym)
    return refs


# ----------------------------------------------------------------------------
# comparison

def fmt_to(to):
    if to is None:
        return "-"
    return "%s:%d-%d" % (to["path"], to["line"], to["end_line"])


def fmt_answer(x):
    st = x.get("status")
    if x.get("renamed"):
        st = "%s+RENAMED" % st
    s = "%-16s to=%s lines_deleted=%s symbol_found=%s" % (
        st, fmt_to(x.get("to")), x.get("lines_deleted"), x.get("symbol_found"))
    if x.get("status") == "NEW":
        s += " exists_at_target=%s" % x.get("exists_at_target")
    return s


RESOLVED = ("SAME", "MOVED", "TOUCHED")


def compare(ref, got):
    diffs = []
    if ref["status"] != got.get("status"):
        diffs.append("status")
    if bool(ref["renamed"]) != bool(got.get("renamed")):
        diffs.append("renamed")
    gto = got.get("to")
    rto = ref["to"]
    if (rto is None) != (gto is None):
        diffs.append("to")
    elif rto is not None:
        for k in ("path", "line", "end_line"):
            if rto[k] != gto.get(k):
                diffs.append("to." + k)
    if bool(ref["lines_deleted"]) != bool(got.get("lines_deleted")):
        diffs.append("lines_deleted")
    if ref["status"] in RESOLVED and ref["symbol_found"] != got.get("symbol_found"):
        diffs.append("symbol_found")
    if ref["status"] == "NEW" and ref["exists_at_target"] != got.get("exists_at_target"):
        diffs.append("exists_at_target")
    return diffs


def git_score(git, base, target, old, new):
    """git's own rename score for old -> new when diffed alone (any similarity)."""
    out = git.run(*DIFF_CFG, "diff", "--name-status", "-z", "--no-ext-diff", "--no-textconv",
                  "-M1%", base, target, "--", old, new, check=False)
    for letter, score, o, n in name_status_parse(out):
        if letter == "R" and o == old and n == new:
            return score
    return None


def name_status_parse(out):
    parts = out.split(b"\0")
    res, i = [], 0
    while i < len(parts) and parts[i]:
        st = dec(parts[i])
        if st[0] in "RC":
            res.append((st[0], int(st[1:]), dec(parts[i + 1]), dec(parts[i + 2])))
            i += 3
        else:
            res.append((st[0], None, dec(parts[i + 1]), dec(parts[i + 1])))
            i += 2
    return res


def rename_evidence(git, pair, a, ref, got):
    base, target, old = pair["base"], pair["target"], a["path"]
    ev = []
    gnew = ref["to"]["path"] if ref["renamed"] and ref["to"] else None
    tnew = (got.get("to") or {}).get("path") if got.get("renamed") else None
    if gnew is None:
        for x in pair["ns"]:
            if x[0] == "R" and x[2] == old:
                gnew = x[3]
    if gnew:
        ns_score = next((x[1] for x in pair["ns"] if x[0] == "R" and x[2] == old), None)
        ev.append("git pairs %s -> %s at R%03d (full-tree diff)" % (old, gnew, ns_score or 0))
    else:
        ev.append("git: %s is %s with no rename at 50%%" % (
            old, next((x[0] for x in pair["ns"] if x[2] == old), "unchanged")))
    if tnew and tnew != gnew:
        sc = git_score(git, base, target, old, tnew)
        ev.append("git's score for %s -> %s alone: %s" % (old, tnew, "R%03d" % sc if sc is not None else "not paired even at 1%"))
        # who does git pair tnew with?
        for x in pair["ns"]:
            if x[3] == tnew and x[0] in "RA":
                ev.append("git: %s is %s%s" % (tnew, x[0], (" from %s (R%03d)" % (x[2], x[1])) if x[0] == "R" else " (added)"))
    if gnew and not tnew:
        sc = git_score(git, base, target, old, gnew)
        ev.append("git's score for %s -> %s alone: %s" % (old, gnew, "R%03d" % sc if sc is not None else "none"))
    return ev


# ----------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", required=True, help="git directory (bare mirror) or work tree")
    ap.add_argument("--tool", required=True, help="path to the context-pack binary")
    ap.add_argument("--pairs", type=int, default=12)
    ap.add_argument("--anchors", type=int, default=1200, help="anchors in total")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pair", action="append", default=[], metavar="BASE..TARGET",
                    help="add a fixed pair (repeatable), e.g. to reproduce one")
    ap.add_argument("--tool-arg", action="append", default=[],
                    help="extra argument for context-pack (repeatable), e.g. --table")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    ap.add_argument("--allow-rename-divergence", action="store_true",
                    help="exit 0 when the only disagreements are rename-detection divergences")
    args = ap.parse_args()

    repo = os.path.abspath(args.repo)
    git_dir = git_dir_of(repo)
    if git_dir is None:
        print("not a git repository: %s" % repo, file=sys.stderr)
        return 2
    tool = os.path.abspath(args.tool)
    if not os.access(tool, os.X_OK):
        print("tool not executable: %s" % tool, file=sys.stderr)
        return 2

    rng = random.Random(args.seed)
    scratch = tempfile.mkdtemp(prefix="cp-real-history-")

    # ---- sampling (not timed as reference work)
    sg = Git(git_dir)
    sblobs = BlobReader(sg)
    t0 = time.perf_counter()
    pairs = pick_pairs(sg, rng, args.pairs, args.pair)
    total = len(pairs)
    for i, pair in enumerate(pairs):
        cnt = args.anchors // total + (1 if i < args.anchors % total else 0)
        pair["anchors"] = sample_anchors(sg, sblobs, rng, pair, cnt, i)
    sblobs.close()
    t_sample = time.perf_counter() - t0

    # ---- context-pack, once, on everything
    jsonl = os.path.join(scratch, "pairs.jsonl")
    with open(jsonl, "w") as f:
        for i, pair in enumerate(pairs):
            fc = []
            for j, a in enumerate(pair["anchors"]):
                loc = {"path": a["path"], "line": a["line"], "end_line": a["end_line"]}
                if "symbol" in a:
                    loc["symbol"] = a["symbol"]
                fc.append({"location": loc, "change": "anchor %d.%d (%s)" % (i, j, a["kind"])})
            f.write(json.dumps({"id": "pair%02d" % i, "base": pair["base"],
                                "target": pair["target"], "file_changes": fc}) + "\n")
    cmd = [tool, "-C", repo, "--format", "json"] + args.tool_arg + [jsonl]
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    t_tool = time.perf_counter() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    tool_cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    tool_rc = p.returncode
    tool_stderr = p.stderr.decode(errors="replace").strip()
    failed_pairs = {}                     # pair index -> the tool's stderr
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = None
    if doc is None:
        # The one run printed nothing usable. Diagnose: run each pair alone, so the pairs
        # that work are still compared and the ones that break the tool are named.
        print("context-pack failed on the whole batch (exit %d): %s" % (tool_rc, tool_stderr[:500]))
        print("diagnosis: running each pair alone")
        specs = []
        lines = open(jsonl).read().splitlines()
        for i, line in enumerate(lines):
            one = os.path.join(scratch, "pair%02d.jsonl" % i)
            with open(one, "w") as f:
                f.write(line + "\n")
            q = subprocess.run([tool, "-C", repo, "--format", "json"] + args.tool_arg + [one],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            try:
                specs.append(json.loads(q.stdout)["specs"][0])
            except (ValueError, KeyError, IndexError):
                failed_pairs[i] = "exit %d: %s" % (q.returncode, q.stderr.decode(errors="replace").strip())
                specs.append({"base": pairs[i]["base"], "target": pairs[i]["target"], "anchors": []})
        doc = {"specs": specs}

    # ---- the reference, from git CLI output (timed)
    rg = Git(git_dir)
    rblobs = BlobReader(rg)
    t0 = time.perf_counter()
    for pair in pairs:
        pair["refs"] = reference_for_pair(rg, rblobs, pair, pair["anchors"])
    t_ref = time.perf_counter() - t0
    rblobs.close()

    # ---- compare
    n_anchor = 0
    agree = 0
    by_ref = collections.Counter()
    by_tool = collections.Counter()
    sym_stats = collections.Counter()
    problems = []
    structural = []
    selfcheck = []
    specs = doc.get("specs", [])
    if len(specs) != len(pairs):
        structural.append("tool printed %d specs for %d pairs" % (len(specs), len(pairs)))
    expect_exit = 0
    for i, pair in enumerate(pairs):
        sp = specs[i] if i < len(specs) else {"anchors": []}
        if sp.get("base") != pair["base"] or sp.get("target") != pair["target"]:
            structural.append("pair%02d: tool base/target %s..%s, expected %s..%s" % (
                i, sp.get("base"), sp.get("target"), pair["base"], pair["target"]))
        got_anchors = sp.get("anchors", [])
        if i in failed_pairs:
            n_anchor += len(pair["anchors"])
            by_tool["(tool failed)"] += len(pair["anchors"])
            for ref in pair["refs"]:
                by_ref[ref["status"] + ("+RENAMED" if ref["renamed"] else "")] += 1
            continue
        if len(got_anchors) != len(pair["anchors"]):
            structural.append("pair%02d: tool printed %d anchors for %d" % (
                i, len(got_anchors), len(pair["anchors"])))
        for j, (a, ref) in enumerate(zip(pair["anchors"], pair["refs"])):
            n_anchor += 1
            got = got_anchors[j] if j < len(got_anchors) else {}
            if got and (got.get("path") != a["path"] or got.get("line") != a["line"]
                        or got.get("end_line") != a["end_line"]):
                structural.append("pair%02d anchor %d: tool echoes %s:%s-%s" % (
                    i, j, got.get("path"), got.get("line"), got.get("end_line")))
            if "SELF-CHECK" in ref["note"]:
                selfcheck.append((i, j, ref["note"]))
            key = ref["status"] + ("+RENAMED" if ref["renamed"] else "")
            by_ref[key] += 1
            by_tool[str(got.get("status")) + ("+RENAMED" if got.get("renamed") else "")] += 1
            if ref["lines_deleted"]:
                by_ref["(lines_deleted)"] += 1
            if ref["status"] in ("GONE", "UNRESOLVED") or ref["symbol_found"] is False:
                expect_exit = 1
            if "symbol" in a and ref["status"] in RESOLVED:
                sym_stats["found" if ref["symbol_found"] else "missing"] += 1
            d = compare(ref, got)
            if not d:
                agree += 1
                continue
            def show(rev, path, first, last):
                out = subprocess.run(["git", "--git-dir=" + args.repo, "show",
                                      "%s:%s" % (rev, path)], stdout=subprocess.PIPE).stdout
                return out.split(b"\n")[first - 1:last]

            def code(lines):  # the lines less blank ones and lone brackets, squeezed
                out = [b" ".join(l.split()) for l in lines]
                return [l for l in out if l.strip(b"{}()[];, ")]
            if got.get("by") in ("content", "margins") and got.get("to") and got.get("diff"):
                # Beyond the diff (README): the diff took the code from its place and the tool
                # found it by content, or the diff put lines between the code and its blank
                # margins. The union rule's answer must be the one kept in `diff`. A copy must
                # really be there (margins and whitespace aside); code whose margins were
                # parted must be the base's, blank lines aside, byte for byte, unless the diff
                # changed it (TOUCHED); a likeness is listed with its similarity for a reader
                # to judge.
                kept = dict(got, to=got["diff"]["to"],
                            lines_deleted=got["diff"]["lines_deleted"],
                            status=ref["status"], symbol_found=ref["symbol_found"])
                union = compare(ref, kept)
                to = got["to"]
                base_lines = show(pair["base"], a["path"], a["line"], a["end_line"])
                there = show(pair["target"], to["path"], to["line"], to["end_line"])
                if got["by"] == "margins":
                    nonblank = lambda lines: [l for l in lines if l.strip()]
                    same = got["status"] == "TOUCHED" or nonblank(base_lines) == nonblank(there)
                    what = "margins parted, " + ("verified" if same else "WRONG")
                elif got.get("similarity") is not None:
                    what = "relocated by likeness %.2f" % got["similarity"]
                else:
                    same = code(base_lines) == code(there)
                    what = "relocated by content, " + ("verified" if same else "WRONG")
                problems.append({"pair": i, "idx": j, "a": a, "ref": ref, "got": got, "fields": d,
                                 "category": what + ("" if not union else
                                                     ", union rule kept WRONG")})
                continue
            if got.get("followed") and ref["status"] == "GONE" and got.get("to"):
                # Followed through its renames (README): a SAME or MOVED answer's lines must
                # be the base's.
                to = got["to"]
                same = got["status"] == "TOUCHED" or (
                    show(pair["base"], a["path"], a["line"], a["end_line"]) ==
                    show(pair["target"], to["path"], to["line"], to["end_line"]))
                problems.append({"pair": i, "idx": j, "a": a, "ref": ref, "got": got, "fields": d,
                                 "category": "followed through renames, " +
                                 ("verified" if same else "WRONG")})
                continue
            rename_div = ("renamed" in d or "to.path" in d or
                          ({ref["status"], got.get("status")} & {"GONE"} and
                           (ref["renamed"] or got.get("renamed"))))
            problems.append({"pair": i, "idx": j, "a": a, "ref": ref, "got": got, "fields": d,
                             "category": "rename-detection divergence" if rename_div else "mapping"})

    # ---- report
    repo_arg = args.repo
    print("context-pack real-history check: repo %s, seed %d" % (repo_arg, args.seed))
    print("command: %s" % " ".join(cmd))
    ver = subprocess.run([tool, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    st_ = os.stat(tool)
    print("tool: %s, %s, built %s" % (tool, ver.stdout.decode(errors="replace").strip(),
                                      time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(st_.st_mtime))))
    print("git: %s" % subprocess.run(["git", "--version"], stdout=subprocess.PIPE).stdout.decode().strip())
    print()
    print("pairs (%d):" % len(pairs))
    for i, pair in enumerate(pairs):
        c = collections.Counter(x[0] for x in pair["ns"])
        print("  pair%02d %s..%s gap %s: %d paths changed (%s); %d anchors%s" % (
            i, pair["base"][:12], pair["target"][:12],
            pair["gap"] if pair["gap"] is not None else "fixed", len(pair["ns"]),
            " ".join("%s%d" % (k, v) for k, v in sorted(c.items())), len(pair["anchors"]),
            ("; pathspec cross-check fell back to blob diffs for %d files" % len(pair["crosscheck_fallbacks"]))
            if pair["crosscheck_fallbacks"] else ""))
    print()
    print("anchors: %d across %d pairs" % (n_anchor, len(pairs)))
    print("agreement: %d/%d (%.2f%%)" % (agree, n_anchor, 100.0 * agree / max(1, n_anchor)))
    print("reference by status: " + ", ".join("%s %d" % kv for kv in sorted(by_ref.items())))
    print("tool by status:      " + ", ".join("%s %d" % kv for kv in sorted(by_tool.items())))
    print("symbols checked on resolved anchors: found %d, missing %d" % (sym_stats["found"], sym_stats["missing"]))
    cats = collections.Counter(x["category"] for x in problems)
    for i in failed_pairs:
        cats["tool failure (whole pair)"] += len(pairs[i]["anchors"])
    print("disagreements: %d (%s)" % (sum(cats.values()), ", ".join("%s %d" % kv for kv in sorted(cats.items())) or "none"))
    print("tool exit status %d (expected %d from the reference)" % (tool_rc, expect_exit))
    print()
    print("timing: context-pack %.3fs wall (%.3fs cpu) for everything, one run%s" % (
        t_tool, tool_cpu, " (it FAILED, so this times an aborted run)" if failed_pairs else ""))
    print("        git CLI reference %.3fs wall (%d git processes, %.3fs in git)" % (t_ref, rg.calls, rg.seconds))
    print("        ratio reference/tool: %.1fx   (sampling, untimed work: %.1fs)" % (t_ref / max(t_tool, 1e-9), t_sample))
    if tool_stderr:
        print("tool stderr: %s" % tool_stderr[:2000])
    if failed_pairs:
        print()
        print("=== tool failure: %d pairs (every anchor of the pair lost; the batch run failed) ===" % len(failed_pairs))
        for i, err in sorted(failed_pairs.items()):
            pair = pairs[i]
            print("- pair%02d base %s target %s: %s" % (i, pair["base"], pair["target"], err))
            print("  repro    %s -C %s --base %s --target %s --anchor Makefile:1 --format json" % (
                args.tool, repo_arg, pair["base"], pair["target"]))
    for s in structural:
        print("STRUCTURAL: " + s)
    for s in selfcheck:
        print("REFERENCE SELF-CHECK: pair%02d anchor %d: %s" % s)

    shown = ["mapping", "rename-detection divergence"]
    shown += sorted({x["category"] for x in problems} - set(shown))
    for cat in shown:
        items = [x for x in problems if x["category"] == cat]
        if not items:
            continue
        print()
        print("=== %s: %d ===" % (cat, len(items)))
        for x in items:
            pair = pairs[x["pair"]]
            a, ref, got = x["a"], x["ref"], x["got"]
            rng_s = "%s:%d-%d" % (a["path"], a["line"], a["end_line"])
            sym = ("@" + a["symbol"]) if "symbol" in a else ""
            print()
            print("- pair%02d anchor %d: base %s target %s" % (x["pair"], x["idx"], pair["base"], pair["target"]))
            print("  anchor   %s%s" % (rng_s, sym))
            print("  expected %s %s" % (fmt_answer(ref), ref["note"]))
            print("  got      %s %s" % (fmt_answer(got), got.get("reason") or ""))
            print("  differs  %s" % ", ".join(x["fields"]))
            rec = pair["recs"].get(a["path"])
            if rec is not None:
                hd = rec["headers"]
                print("  git diff -U0 %s -> %s: %d hunks%s" % (rec["old"], rec["new"], len(hd),
                                                               " (binary)" if rec["binary"] else ""))
                near = [k for k, h in enumerate(rec["hunks"])
                        if h[0] + h[1] >= a["line"] - 200 and h[0] <= a["end_line"] + 200]
                show = range(len(hd)) if len(hd) <= 40 else near
                for k in show:
                    mark = ">" if overlaps(rec["hunks"][k], a["line"], a["end_line"]) else " "
                    print("   %s %s" % (mark, hd[k]))
                if len(hd) > 40:
                    print("    (%d hunks more than 200 lines away not shown)" % (len(hd) - len(near)))
            if cat == "rename-detection divergence":
                for ev in rename_evidence(rg, pair, a, ref, got):
                    print("  evidence " + ev)
            elif rec is not None and not rec["binary"]:
                uh = untrimmed_hunks(rg, pair["base"], rec["old"], pair["target"], rec["new"])
                if uh != rec["hunks"]:
                    st, u0, u1, _ = map_range(uh, a["line"], a["end_line"])
                    same = got.get("status") == st and (got.get("to") or {}).get("line") == u0 \
                        and (got.get("to") or {}).get("end_line") == u1
                    print("  evidence git's untrimmed hunks (from -U1) differ from -U0's: %s" % " ".join(
                        "-%d,%d+%d,%d" % h for h in uh if h[0] + h[1] >= a["line"] - 50 and h[0] <= a["end_line"] + 50))
                    print("           the rule on them gives %s %d-%d, %s the tool" % (
                        st, u0, u1, "the same as" if same else "NOT the same as"))
            new = (ref["to"] or {}).get("path", a["path"])
            print("  repro    %s -C %s --base %s --target %s --anchor '%s%s' --format json" % (
                args.tool, repo_arg, pair["base"], pair["target"], rng_s, sym))
            print("           git --git-dir=%s diff -U0 -M %s %s -- %s %s" % (
                repo_arg, pair["base"][:12], pair["target"][:12], a["path"], new if new != a["path"] else ""))

    if args.keep:
        print("\nscratch kept: %s" % scratch)
    else:
        shutil.rmtree(scratch, ignore_errors=True)

    ok = not structural and not selfcheck and not failed_pairs and tool_rc == expect_exit
    # Relocations and follows the check verified are the tool going beyond the diff, not
    # disagreements. Relocations by likeness are for a reader to judge: listed, not counted against the tool.
    wrong = [x for x in problems if "WRONG" in x["category"] or x["category"] == "mapping"]
    problems = [x for x in problems if not x["category"].endswith("verified")
                and not x["category"].startswith("relocated by likeness")]
    if args.allow_rename_divergence:
        ok = ok and not wrong
    else:
        ok = ok and not problems
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
