#!/usr/bin/env python3
"""Follow the code: context-pack on renames and moved functions built from real history.

Builds "follow the code" scenarios from a real repository (git/git), each from its history by
generic rules with a seeded RNG picking the instances, runs context-pack on each twice (the
full pack, `--format json`, and the same with `--table`), and judges its answers. No expected
line number is written down anywhere: every expectation is computed from git's output.

Class 1, renames in history (commit target). Files renamed on HEAD's first-parent line
(`git log --first-parent --diff-filter=RD -M --name-status`, .c to .c). Base: the rename
commit's first parent, or up to 40 first-parent commits before it (the old path exists
there); target: 200-3000 first-parent commits after the rename, where the direct, full-tree
`git diff -M --name-status BASE TARGET` no longer pairs the old path (it is D). The anchor is a
C function of the old file at base (a line at column 0 starting with a lower-case letter and
holding `(`, a `{` line within the next six, the first `}` line after it), with its name as
the symbol; one whose name is still defined in the file at the target is preferred. The
expected path is the old path carried through every rename of the first-parent commits from
the base to the target, as `git log --follow` follows it (a deletion on the way rejects the
instance).

Class 2, working-tree renames. A scratch clone (`git clone --no-checkout --shared`) checked
out at a first-parent commit; the base 200-1500 first-parent commits older. A .c file the
base has under the same path (or, one case in three, a file renamed in history between the
base and the checkout: a chain) is renamed in the working tree, `git mv` (staged) or a plain
`mv` (unstaged: a deletion plus an untracked file), to a new name in its directory or into a
new directory; a function of the file at base is anchored.

Judging classes 1 and 2: the answer must say renamed (class 1: with `followed` non-empty) and
`to.path` must be the expected path. SAME or MOVED: the lines at `to` equal the base lines byte
for byte. TOUCHED: when the function's name is still defined in the target file, its
definition line lies within `to` (and the symbol is found). GONE, UNRESOLVED, a TOUCHED with
its lines deleted, or a TOUCHED range that misses the definition while the tool flags the
symbol missing (the diff's own alignment, not vouched for) are "lost" (not confident). A wrong
path (the symbol found or not), SAME/MOVED with other text, or a TOUCHED range without the
definition but with the symbol found is WRONG. An answer relocated by content (`by: content`)
to another file is right when its lines equal the base function, or hold the function's
definition line. A TOUCHED range more than twice the function's length (plus 10) is right but
listed as worth a look.

Class 3, moved functions in the working tree. At a checkout (one of the newest 8000
first-parent commits), base = HEAD: a whole function (with its blank line before; the blank
line after stays as the separator) is cut from one .c file (top level or builtin/) and pasted
at the end of another (after a blank line), as it was, with one local variable
renamed in all its lines, or with one literal changed; anchored with its blank margins, its
name as the symbol. Expected: MOVED to the other file, `by: content`, `to` covering the pasted
function (within its margins), symbol found. Also anchored: the untouched function next to it
(its place kept: SAME or MOVED in the first file with identical text, symbol found), and a
control: a function of a third file deleted outright (with its blank line before), anchored
with its margins, whose text is nowhere else: it must not be answered elsewhere (`by` must be
null, `to` in its own file); a `by: content` answer there is WRONG.

Class 4, moved within its file in the working tree: as class 3, but the function is pasted
at the end of its own file. Expected: its own file, `to` covering the pasted function (within
its margins), symbol found, whether relocation found it (`by: content`) or the diff carried it
(when what it passed is smaller than the function, git's diff moves that instead: SAME or
MOVED, or TOUCHED where it was edited on the way; `by: margins` where the diff put what it
passed between the function and its blank margin); the neighbour and the control as in
class 3.

Every scenario's two runs (full and --table) must agree on status, renamed, to and
symbol_found; each disagreement is counted apart. The tool's wall time per run is set beside
a git baseline doing comparable work: `git log --follow --format=%H BASE..TARGET -- PATH`
(class 1, the path at the target) and `git status --porcelain` in the scratch clone (classes 2
to 4).

Standard library only. The repository is only read (rev-list, log, diff, cat-file, and clones
sharing its objects); scratch files go to a temporary directory, removed unless --keep. The
tool binary is copied there first, so a rebuild during the run does not change what is
measured.

Each lost or WRONG anchor is printed with the command that reproduces it (classes 2 to 4:
the clone, the checkout and the edit first; class 3's and 4's edit is a patch in the scratch
directory, so keep it with --keep). --verbose prints every anchor's verdict and answer.

Exit status: 0 every anchor right and both runs of every scenario agree, 1 anything lost,
WRONG, disagreeing or a tool error, 2 usage error.
"""

import argparse
import collections
import hashlib
import json
import os
import random
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True   # no __pycache__ next to check.py
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "real_history"))
# git plumbing shared with the real-history check (imported, never edited), as accuracy.py
from check import GIT_ENV, BlobReader, Git, dec, git_dir_of  # noqa: E402

# the diff options spelled out as git's defaults (the tool reads the same ones)
DIFF_CFG = ["-c", "diff.renameLimit=1000", "-c", "core.quotePath=false"]
DIFF_OPTS = ["--no-color", "--no-ext-diff", "--no-textconv", "-M"]

TOOL_TIMEOUT = 300                       # seconds a run, at most
C1_BACK = (1, 40)                        # class 1: base this many first-parent commits
                                         # before the rename commit (1: its parent)
C1_GAP = (200, 3000)                     # class 1: target this many after the rename
C2_GAP = (200, 1500)                     # class 2: base this many before the checkout
C2_TARGETS = 8000                        # class 2 and 3: checkouts among the newest commits
FN_LINES = (4, 120)                      # function length, lines (with its braces)


# ----------------------------------------------------------------------------
# git

def git_in(wt, *args, check=True):
    """git in a work tree (the scratch clone)."""
    cmd = ["git", "-C", wt] + list(args)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=GIT_ENV)
    if check and p.returncode != 0:
        raise RuntimeError("git failed (%d): %s\n%s" % (
            p.returncode, " ".join(cmd), p.stderr.decode(errors="replace")))
    return p.stdout


def name_status(git, base, target):
    """The direct, full-tree diff: {old path: (letter, new path)} (A: keyed by the new)."""
    out = git.run(*DIFF_CFG, "diff", "--name-status", "-z", *DIFF_OPTS, base, target)
    parts = out.split(b"\0")
    res = {}
    i = 0
    while i < len(parts) and parts[i]:
        st = dec(parts[i])
        if st[0] in "RC":
            res[dec(parts[i + 1])] = (st[0], dec(parts[i + 2]))
            i += 3
        else:
            res[dec(parts[i + 1])] = (st[0], dec(parts[i + 1]))
            i += 2
    return res


def first_parent_events(git):
    """Renames and deletions of every first-parent commit of HEAD (each diffed against its
    first parent): (fp, index, events), fp newest first, index commit -> position in fp,
    events position -> [(letter, old, new)]."""
    fp = dec(git.run("rev-list", "--first-parent", "HEAD")).split()
    index = {c: i for i, c in enumerate(fp)}
    out = dec(git.run(*DIFF_CFG, "log", "--first-parent", "--diff-merges=first-parent",
                      "--diff-filter=RD", "-M", "--name-status", "--format=%H", "HEAD"))
    events = collections.defaultdict(list)
    cur = None
    for line in out.split("\n"):
        if re.fullmatch(r"[0-9a-f]{40}", line):
            cur = index.get(line)
            continue
        if not line or cur is None:
            continue
        f = line.split("\t")
        if f[0].startswith("R") and len(f) == 3:
            events[cur].append(("R", f[1], f[2]))
        elif f[0] == "D" and len(f) == 2:
            events[cur].append(("D", f[1], None))
    return fp, index, events


def walk_renames(events, path, b, t):
    """The path of base fp[b]'s file at fp[t] (t < b), carried through every first-parent
    rename between them; None when it was deleted on the way. Also the renames taken."""
    taken = []
    for j in range(b - 1, t - 1, -1):
        for letter, old, new in events.get(j, ()):
            if old == path:
                if letter == "D":
                    return None, taken
                taken.append((old, new, j))
                path = new
                break
    return path, taken


# ----------------------------------------------------------------------------
# C functions

START_RE = re.compile(rb"^[a-z][^;]*?\b([A-Za-z_]\w*)\s*\(")
NOT_NAMES = {b"if", b"while", b"for", b"switch", b"return", b"sizeof", b"defined"}
IDENT_RE = re.compile(rb"[A-Za-z_]\w*")


def split_lines(data):
    """Lines as git counts them, without their newline."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def functions(lines):
    """C function definitions in git's style: [(name, first, last)], 1-based, inclusive: a
    line at column 0 starting with a lower-case letter, holding `(` and not ending in `;`,
    its continuation lines indented, a `{` line within six lines, the first `}` after it."""
    out = []
    n = len(lines)
    i = 0
    while i < n:
        m = START_RE.match(lines[i])
        if not m or lines[i].rstrip().endswith((b";", b",")) or m.group(1) in NOT_NAMES:
            i += 1
            continue
        brace = None
        for j in range(i + 1, min(n, i + 7)):
            if lines[j] == b"{":
                brace = j
                break
            if not lines[j][:1] in (b" ", b"\t") or lines[j].rstrip().endswith(b";"):
                break
        if brace is None:
            i += 1
            continue
        end = None
        for j in range(brace + 1, n):
            if lines[j] == b"}":
                end = j
                break
            if lines[j][:1] not in (b" ", b"\t", b"", b"#") and not lines[j].startswith(b"//"):
                if not lines[j].startswith((b"/*", b" *", b"*/")):
                    break                # a column-0 line that is no body: not ours
        if end is None:
            i += 1
            continue
        out.append((dec(m.group(1)), i + 1, end + 1))
        i = end + 1
    return out


def defined_at(lines, name):
    """The first line of the definition of `name` in lines, or None (also when several)."""
    found = [s for (nm, s, e) in functions(lines) if nm == name]
    return found[0] if len(found) == 1 else None


def fn_ok(lines, name, s, e, names):
    """A function fit to anchor: a length within FN_LINES, a name defined once."""
    return (FN_LINES[0] <= e - s + 1 <= FN_LINES[1] and names[name] == 1
            and not any(b"\r" in l for l in lines[s - 1:e]))


def read_file(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


# ----------------------------------------------------------------------------
# the tool

class Tool:
    def __init__(self, binary):
        self.binary = binary

    def run(self, repo, base, target, anchors, table):
        """anchors: [(path, s, e, symbol)] -> (exit, [anchor dicts] or None, seconds, stderr)."""
        cmd = self.cmdline(repo, base, target, anchors, table)
        t0 = time.perf_counter()
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=TOOL_TIMEOUT)
        except subprocess.TimeoutExpired:
            return -1, None, time.perf_counter() - t0, "timed out after %d s" % TOOL_TIMEOUT
        dt = time.perf_counter() - t0
        err = p.stderr.decode(errors="replace").strip()
        if p.returncode not in (0, 1):
            return p.returncode, None, dt, err
        try:
            got = json.loads(p.stdout)["specs"][0]["anchors"]
        except (ValueError, KeyError, IndexError):
            return p.returncode, None, dt, "no JSON pack: " + err[:400]
        if len(got) != len(anchors):
            return p.returncode, None, dt, "%d anchors answered for %d" % (len(got), len(anchors))
        return p.returncode, got, dt, err

    def cmdline(self, repo, base, target, anchors, table, binary=None):
        cmd = [binary or self.binary, "-C", repo, "--format", "json", "--base", base]
        if target:
            cmd += ["--target", target]
        for path, s, e, sym in anchors:
            cmd += ["--anchor", "%s:%d-%d%s" % (path, s, e, "@" + sym if sym else "")]
        if table:
            cmd.append("--table")
        return cmd


def key(a):
    """What the full pack and the table must agree on."""
    to = a.get("to")
    return (a.get("status"), a.get("renamed"),
            (to["path"], to["line"], to["end_line"]) if to else None, a.get("symbol_found"))


def fmt_answer(a):
    to = a.get("to")
    s = "%s%s %s" % (a.get("status"), "+RENAMED" if a.get("renamed") else "",
                     "%s:%s-%s" % (to["path"], to["line"], to["end_line"]) if to else "-")
    s += " symbol_found=%s" % a.get("symbol_found")
    if a.get("lines_deleted"):
        s += " lines_deleted"
    if a.get("by"):
        s += " by=%s" % a.get("by")
        if a.get("similarity") is not None:
            s += " similarity=%s" % a.get("similarity")
    if a.get("followed"):
        s += " followed=" + ", ".join("%s->%s@%s" % (f["from"], f["to"], (f["commit"] or "worktree")[:12])
                                      for f in a["followed"])
    fa = a.get("found_at")
    if fa:
        s += " found_at=%s:%s-%s" % (fa.get("path"), fa.get("line"), fa.get("end_line"))
    if a.get("candidates"):
        s += " candidates=%d" % (a.get("candidates_total") or len(a["candidates"]))
    b = a.get("best")
    if b:
        s += " best=%s:%s-%s(%s)" % (b.get("path"), b.get("line"), b.get("end_line"), b.get("tier"))
    return s


# ----------------------------------------------------------------------------
# judging

def judge_follow(a, expect_path, base_block, name, target_lines, need_followed):
    """Classes 1 and 2: -> (verdict, why); verdict right, lost or WRONG."""
    status = a.get("status")
    to = a.get("to")
    if a.get("lines_deleted") or status in ("GONE", "UNRESOLVED") or not to:
        return "lost", "%s, no lines at the target" % status
    if status not in ("SAME", "MOVED", "TOUCHED"):
        return "WRONG", "status %s" % status
    if to["path"] != expect_path:
        if a.get("by") == "content":
            return None, "relocated"     # judged by the caller against the other file
        return "WRONG", "to.path %s, expected %s" % (to["path"], expect_path)
    if not a.get("renamed"):
        return "WRONG", "the right path but not marked renamed"
    if need_followed and not a.get("followed"):
        return "WRONG", "renamed but `followed` is empty"
    return judge_lines(a, base_block, name, target_lines)


def judge_lines(a, base_block, name, target_lines):
    status, to = a.get("status"), a["to"]
    if target_lines is None:
        return "WRONG", "%s does not exist at the target" % to["path"]
    got = target_lines[to["line"] - 1:to["end_line"]]
    if status in ("SAME", "MOVED"):
        if got == base_block:
            return "right", "identical text"
        if a.get("by") == "content":
            # a relocation keeps blank margins as the anchor had them: compare without them
            if strip_blank(got) == strip_blank(base_block):
                return "right", "relocated, identical text (margins differ)"
            d = defined_at(target_lines, name)
            if a.get("similarity") is not None and d is not None and to["line"] <= d <= to["end_line"]:
                return "right", "relocated, edited (similarity %s)" % a.get("similarity")
        return "WRONG", "%s but the lines at %s:%d-%d differ from the base's" % (
            status, to["path"], to["line"], to["end_line"])
    d = defined_at(target_lines, name)
    if d is None:
        return "right", "TOUCHED, %s no longer defined there (range unverified)" % name
    if not (to["line"] <= d <= to["end_line"]):
        if not a.get("symbol_found"):        # flagged SYMBOL_MISSING: not a confident answer
            return "lost", "TOUCHED %d-%d misses %s's definition at line %d (SYMBOL_MISSING)" % (
                to["line"], to["end_line"], name, d)
        return "WRONG", "TOUCHED %d-%d misses %s's definition at line %d" % (
            to["line"], to["end_line"], name, d)
    if not a.get("symbol_found"):
        return "WRONG", "definition within `to` but symbol_found false"
    span = [e - s + 1 for (nm, s, e) in functions(target_lines) if nm == name and s == d]
    width = to["end_line"] - to["line"] + 1
    if span and width > 2 * span[0] + 10:
        return "right", "TOUCHED, definition at %d within; wide: %d lines for a function of %d" % (
            d, width, span[0])
    return "right", "TOUCHED, definition at %d within" % d


def strip_blank(block):
    i, j = 0, len(block)
    while i < j and not block[i].strip():
        i += 1
    while j > i and not block[j - 1].strip():
        j -= 1
    return block[i:j]


# ----------------------------------------------------------------------------
# class 1: renames in history

def class1(ctx, rng, want):
    git, blobs, fp, events = ctx["git"], ctx["blobs"], ctx["fp"], ctx["events"]
    by_commit = collections.defaultdict(list)
    for i, evs in events.items():
        for letter, old, new in evs:
            if letter == "R" and old.endswith(".c") and new.endswith(".c") and i >= C1_GAP[0]:
                by_commit[i].append((old, new))
    commits = sorted(by_commit)
    scenarios, used = [], set()
    for attempt in range(want * 30):
        if len(scenarios) >= want or not commits:
            break
        i = rng.choice(commits)
        old, new = rng.choice(by_commit[i])
        if (old, new) in used:
            continue
        b = i + rng.randint(*C1_BACK)
        if b >= len(fp):
            continue
        base = fp[b]
        data = blobs.read(base, old)
        if not data:
            continue
        lines = split_lines(data)
        fns = functions(lines)
        names = collections.Counter(nm for nm, _, _ in fns)
        fns = [f for f in fns if fn_ok(lines, f[0], f[1], f[2], names)]
        if not fns:
            continue
        found = None
        for _ in range(4):
            t = i - rng.randint(C1_GAP[0], min(C1_GAP[1], i))
            if t < 0:
                continue
            expect, taken = walk_renames(events, old, b, t)
            if expect is None or expect == old:
                continue
            tdata = blobs.read(fp[t], expect)
            if not tdata:
                continue
            ns = name_status(git, base, fp[t])
            if ns.get(old, ("?",))[0] != "D":
                continue
            found = (t, expect, taken, tdata)
            break
        if not found:
            continue
        t, expect, taken, tdata = found
        tlines = split_lines(tdata)
        alive = [f for f in fns if defined_at(tlines, f[0]) is not None]
        name, s, e = rng.choice(alive or fns)
        used.add((old, new))
        scenarios.append({
            "class": "1 history renames", "repo": ctx["repo"], "base": base, "target": fp[t],
            "label": "%s -> %s (%d renames, %d commits)" % (old, expect, len(taken), b - t),
            "anchors": [{"path": old, "s": s, "e": e, "sym": name, "kind": "renamed",
                         "expect": expect, "block": lines[s - 1:e],
                         "still_defined": defined_at(tlines, name) is not None}],
            "target_text": lambda path, rev=fp[t]: blobs.read(rev, path),
            "baseline": ["git", "--git-dir=" + git.git_dir, "log", "--follow", "--format=%H",
                         "%s..%s" % (base, fp[t]), "--", expect],
            "baseline_cwd": None,
            "repro_setup": None,
        })
    return scenarios


# ----------------------------------------------------------------------------
# classes 2 and 3: a scratch clone

class Clone:
    def __init__(self, repo_git_dir, where):
        self.dir = where
        subprocess.run(["git", "clone", "-q", "--no-checkout", "--shared", repo_git_dir, where],
                       check=True, env=GIT_ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.at = None

    def checkout(self, commit):
        if self.at is not None:          # undo the last scenario's edits
            git_in(self.dir, "reset", "-q", "--hard")
            git_in(self.dir, "clean", "-q", "-f", "-d", "-x")
        git_in(self.dir, "checkout", "-q", "-f", "--detach", commit)
        self.at = commit

    def path(self, rel):
        return os.path.join(self.dir, rel)


def class2(ctx, rng, want):
    git, blobs, fp, events = ctx["git"], ctx["blobs"], ctx["fp"], ctx["events"]
    # chains: files renamed in history, then renamed again in the working tree
    chains = []
    for i, evs in events.items():
        for letter, old, new in evs:
            if letter == "R" and old.endswith(".c") and new.endswith(".c") and i < C2_TARGETS + 500:
                chains.append((i, old, new))
    chains.sort()
    scenarios = []
    for attempt in range(want * 30):
        if len(scenarios) >= want:
            break
        chain = len(scenarios) % 3 == 2 and chains
        if chain:
            # one the direct diff no longer pairs, so that following must take both legs
            i, old, new = rng.choice(chains)
            b = i + rng.randint(*C1_BACK)
            if b >= len(fp):
                continue
            t = max(0, i - rng.randint(1, C1_GAP[1]))
            cur, taken = walk_renames(events, old, b, t)
            if cur is None or cur == old or name_status(git, fp[b], fp[t]).get(old, "?")[0] != "D":
                continue
        else:
            t = rng.randrange(0, C2_TARGETS)
            b = t + rng.randint(*C2_GAP)
            if b >= len(fp):
                continue
            ns = name_status(git, fp[b], fp[t])
            files = [p for p, (l, n) in ns.items() if l == "M" and p.endswith(".c")]
            if not files:
                continue
            old = cur = rng.choice(sorted(files))
            taken = []
        base, target = fp[b], fp[t]
        data, tdata = blobs.read(base, old), blobs.read(target, cur)
        if not data or not tdata:
            continue
        lines, tlines = split_lines(data), split_lines(tdata)
        fns = functions(lines)
        names = collections.Counter(nm for nm, _, _ in fns)
        fns = [f for f in fns if fn_ok(lines, f[0], f[1], f[2], names)]
        alive = [f for f in fns if defined_at(tlines, f[0]) is not None]
        if not alive:
            continue
        picks = rng.sample(alive, min(2, len(alive)))
        d, stem = os.path.split(cur)
        if rng.random() < 0.5:
            newpath = os.path.join(d, "moved", stem)
        else:
            newpath = os.path.join(d, stem[:-2] + "-renamed.c")
        if blobs.read(target, newpath) is not None:
            continue
        how = "git mv" if rng.random() < 0.5 else "mv"
        scenarios.append({
            "class": "2 worktree renames", "repo": None, "base": base, "target": None,
            "checkout": target,
            "label": "%s%s %s %s (base %d commits back)" % (
                "%s -> " % old if chain else "", how, cur, newpath, b - t),
            "move": (how, cur, newpath),
            "anchors": [{"path": old, "s": s, "e": e, "sym": nm, "kind": "renamed",
                         "expect": newpath, "block": lines[s - 1:e], "still_defined": True}
                        for nm, s, e in picks],
            "baseline": ["git", "status", "--porcelain"],
        })
    return scenarios


def setup_class2(sc, clone):
    how, cur, newpath = sc["move"]
    os.makedirs(os.path.dirname(clone.path(newpath)) or clone.dir, exist_ok=True)
    if how == "git mv":
        git_in(clone.dir, "mv", cur, newpath)
    else:
        os.rename(clone.path(cur), clone.path(newpath))
    mk = "mkdir -p %s && " % shlex.quote(os.path.dirname(newpath)) if os.path.dirname(newpath) else ""
    sc["repro_setup"] = "%s%s %s %s" % (mk, how, shlex.quote(cur), shlex.quote(newpath))


# ---- class 3

DECL_RE = re.compile(rb"^\t(?:const |unsigned |static |struct \w+ |enum \w+ )*"
                     rb"(?:int|char|size_t|ssize_t|long|unsigned|struct \w+|enum \w+|"
                     rb"uint32_t|uint64_t|off_t|time_t|\w+_t)\s*\**\s*([a-z_]\w*)\s*(?:=[^;]*)?;")
NUM_RE = re.compile(rb"(?<![\w.])(\d+)(?![\w.])")
STR_RE = re.compile(rb'"([^"\\]{3,})"')


def edit_function(rng, block, kind):
    """block: a function's lines. kind none, rename or literal -> (new block, what) or None."""
    if kind == "none":
        return list(block), "as it was"
    if kind == "rename":
        locals_ = []
        for l in block[2:]:
            m = DECL_RE.match(l)
            if m and len(m.group(1)) >= 2:
                locals_.append(m.group(1))
        rng.shuffle(locals_)
        for v in locals_:
            pat = re.compile(rb"\b" + re.escape(v) + rb"\b")
            uses = sum(1 for l in block if pat.search(l))
            nv = v + b"_v2"
            if uses < 2 or any(nv in l for l in block):
                continue
            return [pat.sub(nv, l) for l in block], "local %s renamed %s in %d lines" % (
                dec(v), dec(nv), uses)
        return None
    # literal: a string's text or a number, on one line
    spots = []
    for k, l in enumerate(block):
        if l.lstrip().startswith((b"#", b"/*", b"*")):
            continue
        for m in STR_RE.finditer(l):
            spots.append((k, m.start(1), m.end(1), m.group(1) + b" (edited)"))
        for m in NUM_RE.finditer(l):
            spots.append((k, m.start(1), m.end(1), str(int(m.group(1)) + 7).encode()))
    if not spots:
        return None
    k, a, z, rep = rng.choice(spots)
    out = list(block)
    out[k] = out[k][:a] + rep + out[k][z:]
    return out, "one literal changed on its line %d" % (k + 1)


def class3(ctx, rng, want, within=False):
    git, blobs, fp = ctx["git"], ctx["blobs"], ctx["fp"]
    scenarios = []
    for attempt in range(want * 30):
        if len(scenarios) >= want:
            break
        t = rng.randrange(0, C2_TARGETS)
        target = fp[t]
        cfiles = [p for p in dec(git.run("ls-tree", "-r", "--name-only", target)).split("\n")
                  if p.endswith(".c") and "/" not in p.strip("/").replace("builtin/", "")]
        if len(cfiles) < 3:
            continue
        A, B, C = rng.sample(sorted(cfiles), 3)
        la, lb, lc = (split_lines(blobs.read(target, p) or b"") for p in (A, B, C))
        if not la or not lb or not lc or lb[-1].strip() == b"":
            continue

        def clean(lines):
            fns = functions(lines)
            names = collections.Counter(nm for nm, _, _ in fns)
            return fns, [(nm, s, e) for nm, s, e in fns
                         if fn_ok(lines, nm, s, e, names) and s >= 2 and e < len(lines)
                         and not lines[s - 2].strip() and not lines[e].strip()]
        fa, oka = clean(la)
        fc, okc = clean(lc)
        bnames = {nm for nm, _, _ in functions(lb)}
        oka = [f for f in oka if (within or f[0] not in bnames) and f[2] - f[1] + 1 >= 6]
        if not oka or not okc:
            continue
        F = rng.choice(oka)
        k = fa.index(F)
        nbrs = [fa[j] for j in (k - 1, k + 1) if 0 <= j < len(fa) and fa[j][0] != F[0]]
        names_a = collections.Counter(nm for nm, _, _ in fa)
        nbrs = [n for n in nbrs if fn_ok(la, n[0], n[1], n[2], names_a)]
        if not nbrs:
            continue
        N = rng.choice(nbrs)
        G = rng.choice(okc)
        if G[0] in (F[0], N[0]):
            continue
        kind = rng.choice(["none", "rename", "literal"])
        block = la[F[1] - 1:F[2]]
        ed = edit_function(rng, block, kind)
        if ed is None:
            kind = "none"
            ed = edit_function(rng, block, kind)
        pasted, what = ed
        # the new files
        a2 = la[:F[1] - 2] + la[F[2]:]            # the function and its blank line before
        c2 = lc[:G[1] - 2] + lc[G[2]:]
        if within:  # pasted at the end of its own file
            if not a2 or a2[-1].strip() == b"":
                continue
            p_s, p_e = len(a2) + 2, len(a2) + 1 + len(pasted)
            a2, b2 = a2 + [b""] + pasted, lb
        else:
            b2 = lb + [b""] + pasted
            p_s, p_e = len(lb) + 2, len(lb) + 1 + len(pasted)
        # the control's text must be nowhere in what changed
        gl = [l for l in lc[G[1] - 1:G[2]] if len(l.strip()) >= 8]
        pool = set(a2) | set(b2) | set(c2)
        if sum(1 for l in gl if l in pool) >= 3:
            continue
        n_at = N[1] if N[1] < F[1] else N[1] - (F[2] - F[1] + 2)
        scenarios.append({
            "class": "4 moved in its file" if within else "3 moved functions", "repo": None,
            "base": "HEAD", "target": None, "checkout": target,
            "label": "%s %s -> %s (%s); deleted %s from %s" % (
                F[0], A, "its end" if within else B, what, G[0], C),
            "files": {A: a2, C: c2} if within else {A: a2, B: b2, C: c2},
            "anchors": [
                {"path": A, "s": F[1] - 1, "e": F[2] + 1, "sym": F[0], "kind": "moved",
                 "expect": A if within else B, "pasted": (p_s, p_e), "edit": kind,
                 "within": within, "block": la[F[1] - 2:F[2] + 1]},
                {"path": A, "s": N[1], "e": N[2], "sym": N[0], "kind": "neighbour",
                 "expect": A, "at": n_at, "block": la[N[1] - 1:N[2]]},
                {"path": C, "s": G[1] - 1, "e": G[2] + 1, "sym": G[0], "kind": "control",
                 "expect": C, "block": lc[G[1] - 2:G[2] + 1]},
            ],
            "baseline": ["git", "status", "--porcelain"],
        })
    return scenarios


def setup_class3(sc, clone, scratch, n):
    for path, lines in sc["files"].items():
        with open(clone.path(path), "wb") as f:
            f.write(b"".join(l + b"\n" for l in lines))
    patch = os.path.join(scratch, "class%s.patch" % n)
    with open(patch, "wb") as f:
        f.write(git_in(clone.dir, "diff", "--no-color", "--no-ext-diff"))
    sc["repro_setup"] = "git apply %s" % shlex.quote(patch)


def judge3(a, x, wt_lines):
    st, to, by = a.get("status"), a.get("to"), a.get("by")
    if x["kind"] == "control":
        if by == "content":
            return "WRONG", "a deleted function answered by content at %s:%s-%s" % (
                to["path"], to["line"], to["end_line"]) if to else "by content"
        if to and to["path"] != x["expect"]:
            return "WRONG", "to.path %s, expected its own file %s" % (to["path"], x["expect"])
        if st in ("SAME", "MOVED"):
            return "WRONG", "%s for a deleted function" % st
        note = "%s, not relocated" % st
        if a.get("found_at"):
            fa = a["found_at"]
            note += " (found_at %s:%s-%s named)" % (fa.get("path"), fa.get("line"), fa.get("end_line"))
        return "right", note
    if x["kind"] == "neighbour":
        if st not in ("SAME", "MOVED") or not to:
            if st in ("GONE", "UNRESOLVED") or not to:
                return "lost", st
            return "WRONG", "%s for an untouched function" % st
        if to["path"] != x["expect"]:
            return "WRONG", "to.path %s, expected %s" % (to["path"], x["expect"])
        got = wt_lines(to["path"])[to["line"] - 1:to["end_line"]]
        if got != x["block"]:
            return "WRONG", "%s but the text at %s:%d-%d differs" % (
                st, to["path"], to["line"], to["end_line"])
        if to["line"] != x["at"]:
            return "WRONG", "identical text but at line %d, expected %d" % (to["line"], x["at"])
        if not a.get("symbol_found"):
            return "WRONG", "symbol_found false"
        return "right", st
    # the moved function
    p_s, p_e = x["pasted"]
    edited_in_place = st == "TOUCHED" and x["edit"] != "none"
    if x["within"] and (st in ("SAME", "MOVED") or edited_in_place) and by != "content":
        # Moved within its file, the diff may carry it itself (when what it passed is
        # smaller), TOUCHED where it was edited on the way.
        if to["path"] != x["expect"] or not (p_s - 1 <= to["line"] <= p_s and
                                             p_e <= to["end_line"] <= p_e + 1):
            return ("lost" if st == "TOUCHED" else "WRONG"), \
                "%s to %s:%d-%d, the pasted function is %d-%d" % (
                    st, to["path"], to["line"], to["end_line"], p_s, p_e)
        if not a.get("symbol_found"):
            return "WRONG", "%s, symbol_found false" % st
        return "right", "%s by the diff%s" % (st, ", its margins parted" if by else "")
    if st == "MOVED" and by == "content":
        if to["path"] != x["expect"]:
            return "WRONG", "relocated to %s, expected %s" % (to["path"], x["expect"])
        if not (p_s - 1 <= to["line"] <= p_s and p_e <= to["end_line"] <= p_e + 1):
            return "WRONG", "relocated to %d-%d, the pasted function is %d-%d" % (
                to["line"], to["end_line"], p_s, p_e)
        if not a.get("symbol_found"):
            return "WRONG", "relocated, symbol_found false"
        return "right", "MOVED by content%s" % (
            "" if a.get("similarity") is None else " (similarity %s)" % a.get("similarity"))
    if st in ("SAME", "MOVED"):
        return "WRONG", "%s without `by: content` for a function cut from its file" % st
    if to and by == "content":
        return "WRONG", "%s by content" % st
    fa = a.get("found_at")
    if fa:
        return "lost", "%s, found_at %s:%s-%s only" % (st, fa.get("path"), fa.get("line"),
                                                      fa.get("end_line"))
    return "lost", "%s%s%s" % (st, " lines_deleted" if a.get("lines_deleted") else "",
                               ", %d candidates" % len(a["candidates"]) if a.get("candidates") else "")


# ----------------------------------------------------------------------------
# running

def timed(cmd, cwd=None):
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=GIT_ENV, cwd=cwd)
    return time.perf_counter() - t0


def run_scenario(ctx, sc, n):
    tool = ctx["tool"]
    clone = None
    if sc["class"].startswith("1"):
        repo, target = sc["repo"], sc["target"]
    else:
        clone = ctx["clone"]
        clone.checkout(sc["checkout"])
        if sc["class"].startswith("2"):
            setup_class2(sc, clone)
        else:
            setup_class3(sc, clone, ctx["scratch"], "%s-%02d" % (sc["class"][0], n))
        repo, target = clone.dir, None
    anchors = [(x["path"], x["s"], x["e"], x["sym"]) for x in sc["anchors"]]
    res = {}
    for table in (False, True):
        res[table] = tool.run(repo, sc["base"], target, anchors, table)
    if clone:
        t_base = timed(["git", "-C", clone.dir] + sc["baseline"][1:])
        t_base = min(t_base, timed(["git", "-C", clone.dir] + sc["baseline"][1:]))
    else:
        t_base = timed(sc["baseline"])
    sc["t_full"], sc["t_table"], sc["t_base"] = res[False][2], res[True][2], t_base
    sc["exit"] = (res[False][0], res[True][0])
    sc["error"] = None
    for table in (False, True):
        if res[table][1] is None:
            sc["error"] = "%s run: exit %s: %s" % ("table" if table else "full", res[table][0],
                                                   res[table][3][:400])
    full, tab = res[False][1], res[True][1]
    sc["got"] = full
    sc["got_table"] = tab
    sc["disagree"] = []
    if full and tab:
        for k, (f, t) in enumerate(zip(full, tab)):
            if key(f) != key(t):
                sc["disagree"].append(k)

    def text(path):
        if clone:
            d = read_file(clone.path(path))
        else:
            d = sc["target_text"](path)
        return split_lines(d) if d is not None else None

    for k, x in enumerate(sc["anchors"]):
        if full is None:
            x["verdict"], x["why"] = "error", sc["error"]
            continue
        a = full[k]
        if sc["class"][0] in "34":
            v, why = judge3(a, x, lambda p: text(p) or [])
        else:
            v, why = judge_follow(a, x["expect"], x["block"], x["sym"],
                                  text(x["expect"]), sc["class"].startswith("1"))
            if v is None:                    # relocated by content to another file
                v, why = judge_lines(a, x["block"], x["sym"], text(a["to"]["path"]))
                why = "relocated by content to %s: %s" % (a["to"]["path"], why)
        x["verdict"], x["why"] = v, why
    # the repro, as a reader would type it
    cmd = tool.cmdline("REPO" if not clone else "DIR", sc["base"], target, anchors, False,
                       binary="context-pack")
    if clone:
        sc["repro"] = ("git clone -q --no-checkout --shared %s DIR && git -C DIR checkout -q %s"
                       " && (cd DIR && %s) && %s" % (
                           shlex.quote(ctx["repo"]), sc["checkout"], sc["repro_setup"],
                           " ".join(shlex.quote(c) for c in cmd)))
    else:
        sc["repro"] = " ".join(shlex.quote(c) for c in cmd).replace(
            "-C REPO", "-C " + shlex.quote(ctx["repo"]))


def median_ms(xs):
    return statistics.median(xs) * 1000 if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", required=True, help="git directory (bare mirror) or work tree")
    ap.add_argument("--tool", required=True, help="the context-pack binary (copied first)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=8, metavar="N", help="scenarios a class")
    ap.add_argument("--only", type=int, action="append", choices=(1, 2, 3, 4),
                    help="this class alone (repeatable)")
    ap.add_argument("--verbose", action="store_true", help="print every anchor's verdict")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    args = ap.parse_args()
    if args.cases < 1:
        print("--cases must be 1 or more", file=sys.stderr)
        return 2
    repo = os.path.abspath(args.repo)
    git_dir = git_dir_of(repo)
    if git_dir is None:
        print("not a git repository: %s" % repo, file=sys.stderr)
        return 2
    if not os.path.isfile(args.tool) or not os.access(args.tool, os.X_OK):
        print("tool not executable: %s" % args.tool, file=sys.stderr)
        return 2
    classes = sorted(set(args.only or (1, 2, 3, 4)))

    scratch = tempfile.mkdtemp(prefix="cp-follow-")
    tool_bin = os.path.join(scratch, "context-pack")
    shutil.copy2(args.tool, tool_bin)
    version = (subprocess.run([tool_bin, "--version"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE).stdout.decode(errors="replace")
               .strip().split("\n")[0])
    with open(tool_bin, "rb") as f:
        md5 = hashlib.md5(f.read()).hexdigest()
    t_start = time.perf_counter()
    git = Git(git_dir)
    blobs = BlobReader(git)
    fp, index, events = first_parent_events(git)
    ctx = {"git": git, "blobs": blobs, "fp": fp, "events": events, "repo": repo,
           "tool": Tool(tool_bin), "scratch": scratch}
    print("follow.py: %s (md5 %s), %s: %d first-parent commits, seed %d, %d cases a class" % (
        version, md5[:12], repo, len(fp), args.seed, args.cases))

    scenarios = []
    makers = {1: class1, 2: class2, 3: class3,
              4: lambda ctx, rng, want: class3(ctx, rng, want, within=True)}
    for c in classes:
        got = makers[c](ctx, random.Random("class%d %d" % (c, args.seed)), args.cases)
        if len(got) < args.cases:
            print("class %d: only %d scenarios found" % (c, len(got)))
        scenarios += got
    t_build = time.perf_counter() - t_start
    if any(not sc["class"].startswith("1") for sc in scenarios):
        ctx["clone"] = Clone(git_dir, os.path.join(scratch, "clone"))
    per_class = collections.Counter()
    for sc in scenarios:
        per_class[sc["class"]] += 1
        run_scenario(ctx, sc, per_class[sc["class"]])
        if args.verbose:
            print("  %s: %s" % (sc["class"], sc["label"]))
            for k, x in enumerate(sc["anchors"]):
                print("    %-9s %s:%d-%d@%s  %-5s %s" % (x["kind"], x["path"], x["s"], x["e"],
                                                       x["sym"], x["verdict"], x["why"]))
                if sc.get("got"):
                    print("              %s" % fmt_answer(sc["got"][k]))
    blobs.close()

    # ---- the table
    rows = collections.OrderedDict()
    for sc in scenarios:
        for x in sc["anchors"]:
            name = sc["class"] + ("" if sc["class"][0] not in "34" else ": " + x["kind"])
            if sc["class"].startswith("2"):
                name += " (%s)" % sc["move"][0]
            r = rows.setdefault(name, collections.Counter())
            r["anchors"] += 1
            r[x["verdict"]] += 1
    print()
    print("%-36s %7s %6s %5s %6s %6s" % ("class", "anchors", "right", "lost", "WRONG", "error"))
    for name, r in rows.items():
        print("%-36s %7d %6d %5d %6d %6d" % (name, r["anchors"], r["right"], r["lost"],
                                              r["WRONG"], r["error"]))
    print()
    print("%-22s %6s %9s %9s %9s %12s %9s %11s" % (
        "class", "cases", "disagree", "tool ms", "table ms", "baseline", "base ms", "ratio"))
    by_class = collections.OrderedDict()
    for sc in scenarios:
        by_class.setdefault(sc["class"], []).append(sc)
    for name, scs in by_class.items():
        tf = median_ms([s["t_full"] for s in scs])
        tt = median_ms([s["t_table"] for s in scs])
        tb = median_ms([s["t_base"] for s in scs])
        base_name = "log --follow" if name.startswith("1") else "status"
        print("%-22s %6d %9d %9.0f %9.0f %12s %9.1f %5.2fx/%.2fx" % (
            name, len(scs), sum(1 for s in scs if s["disagree"]), tf, tt,
            base_name, tb, tf / tb if tb else float("nan"), tt / tb if tb else float("nan")))
    print("(tool ms: median wall time of the full pack a case; table ms: with --table; ratio: "
          "each over the baseline's median)")

    # ---- what went wrong
    bad = False
    for sc in scenarios:
        shown = False
        for k, x in enumerate(sc["anchors"]):
            if x["verdict"] == "right":
                continue
            bad = True
            if not shown:
                print("\n%s: %s" % (sc["class"], sc["label"]))
                print("  repro: %s" % sc["repro"])
                shown = True
            print("  %s %s %s:%d-%d@%s: %s" % (x["verdict"], x["kind"], x["path"], x["s"],
                                              x["e"], x["sym"], x["why"]))
            if sc.get("got"):
                print("    got: %s" % fmt_answer(sc["got"][k]))
                reason = sc["got"][k].get("reason")
                if reason:
                    print("    note: %s" % reason[:300])
        if sc["disagree"] or sc["error"]:
            bad = True
            if not shown:
                print("\n%s: %s" % (sc["class"], sc["label"]))
                print("  repro: %s" % sc["repro"])
            if sc["error"]:
                print("  tool error: %s" % sc["error"])
            for k in sc["disagree"]:
                print("  full and --table disagree on anchor %d: %s | %s" % (
                    k, fmt_answer(sc["got"][k]), fmt_answer(sc["got_table"][k])))
    odd = [(sc, k, x) for sc in scenarios for k, x in enumerate(sc["anchors"])
           if x["verdict"] == "right" and ("wide" in x["why"] or "found_at" in x["why"])]
    if odd:
        print("\nright, but worth a look (a TOUCHED range much wider than the function, or a "
              "deleted function's found_at):")
        for sc, k, x in odd:
            print("  %s %s:%d-%d@%s: %s" % (sc["class"], x["path"], x["s"], x["e"], x["sym"],
                                           x["why"]))
            print("    got: %s" % fmt_answer(sc["got"][k]))
            print("    repro: %s" % sc["repro"])
    print("\n%d scenarios, %.0f s (building them %.0f s)" % (
        len(scenarios), time.perf_counter() - t_start, t_build))
    if any(sc["class"][0] in "34" for sc in scenarios) and not args.keep:
        print("(class 3 and 4 repros apply a patch from the scratch directory: rerun with --keep)")
    if args.keep:
        print("scratch kept: %s" % scratch)
    else:
        shutil.rmtree(scratch, ignore_errors=True)
    return 1 if bad or not scenarios else 0


if __name__ == "__main__":
    sys.exit(main())
