#!/usr/bin/env python3
"""Line tracking of context-pack on datasets in the LHDiff/Reiss format.

A dataset directory holds, per group NAME, an oracle NAME.xml and the versions of one file,
NAME_1.EXT, NAME_2.EXT, ...:

    <TEST NAME="..." FILE="X.java">
      <VERSION NUMBER="2" CHECKED="TRUE">
        <LOCATION ORIG="3" NEW="-1"/>      ORIG: a line of version 1; NEW: its line in
        ...                                version NUMBER, -1 when it was deleted
      </VERSION>
    </TEST>

Method. For each group, a scratch repository gets version 1 as FILE (the XML's FILE, else
NAME.EXT) in one commit and each version k > 1 in a commit of its own whose parent is version
1's (branch vK), the bytes copied as they are (Latin-1, CRLF). One .jsonl a group holds one
spec a version, a one-line read for every ORIG line of it; context-pack runs once a group
(`-C REPO --format json SPECS.jsonl`, windows included, so relocation runs as in a pack).
Each anchor's answer is read from the JSON:

  SAME, MOVED (by content too)  to.line
  TOUCHED                       line_map's entry for the line (tier ambiguous: ambiguous,
                                else target null: deleted, else that line); else best
                                (tier deleted: deleted; tier ambiguous: ambiguous; a
                                one-line best: its line; else range); else lines_deleted:
                                deleted; else a one-line `to`: its line; else range
  GONE                          deleted (the file is gone)
  UNRESOLVED, NEW               none
  found_at                      its line, when the answer so far is not a single line

(line_map and best.tier are newer fields: without them the older rules apply.) Answers are
scored against the oracle, NEW -1 meaning deleted:

  exact            the oracle's line, or deleted where the oracle says deleted;
  wrong line       another line (spurious: a line where the oracle says deleted);
  wrongly deleted  deleted where the oracle names a line (elim);
  ambiguous, range, none: no single answer.

Percentages are of the located lines: every usable LOCATION of every version > 1 (an ORIG
or NEW past its file's end is unusable, counted apart). Deleted-line accuracy is the share
of the oracle's deleted lines answered deleted. The exact rate is also split into lines the
plain diff left unchanged and lines inside changed code, and by the oracle's kind of line:
kept (the text at the oracle's line is the base line's, trailing blanks aside), edited (its
text changed) and deleted. The plain-diff baseline is git's
`git diff -U0` v1..vK with the diff options of tests/real_history/check.py (git's defaults
spelled out): an unchanged line is carried through the hunks, a removed line is deleted.

Standard library only. The dataset is only read; everything else goes to a temporary
directory, removed unless --keep. The tool binary is copied there first (its md5 is
reported), so a rebuild during the run does not change what is measured.

Exit status: 0 it ran (and the --goal-exact / --goal-wrong given hold), 1 a goal given does
not hold, 2 usage error or a tool failure (exit 2 or more, or output that does not parse).
"""

import argparse
import collections
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "real_history"))
# git environment, diff options, -U0 parsing and the hunk rule shared with the real-history
# check (imported, never edited)
from check import (DIFF_CFG, DIFF_OPTS, GIT_ENV, parse_patch, removes,  # noqa: E402
                   shift_at, split_lines)

COMMIT_ENV = dict(GIT_ENV, GIT_AUTHOR_DATE="2000-01-01T00:00:00Z",
                  GIT_COMMITTER_DATE="2000-01-01T00:00:00Z")
GIT_ID = ["-c", "user.name=b", "-c", "user.email=b@b", "-c", "core.autocrlf=false",
          "-c", "commit.gpgSign=false"]
CATEGORIES = ("exact", "wrong", "elim", "ambiguous", "range", "none")
DELETED = -1                 # the oracle's NEW for a deleted line


def note(msg):
    """One line on stderr: a file skipped, a version without its file."""
    print("line_tracking: " + msg, file=sys.stderr)


def natural_key(s):
    """file2 before file10."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def git(cwd, *args, env=GIT_ENV):
    """Run git in a scratch repository; stdout as bytes, or RuntimeError."""
    p = subprocess.run(["git"] + list(args), cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env)
    if p.returncode != 0:
        raise RuntimeError("git %s failed: %s" % (" ".join(args), p.stderr.decode(errors="replace")))
    return p.stdout


def text_of(line):
    """A file line for a report: decoded as UTF-8, else Latin-1, without its CR."""
    if line is None:
        return None
    line = line.rstrip(b"\r")
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return line.decode("latin-1")


# ----------------------------------------------------------------------------
# the dataset

def attr(elem, name):
    """An attribute, whatever its case (ORIG, orig)."""
    for k, v in elem.attrib.items():
        if k.upper() == name:
            return v.strip()
    return None


def parse_oracle(path):
    """NAME.xml -> (FILE or None, {version: [(orig, new), ...]}, malformed entries).
    Raises ValueError when the file does not parse as XML."""
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, UnicodeError, OSError) as e:
        raise ValueError(str(e).splitlines()[0] if str(e) else type(e).__name__)
    file_attr = attr(root, "FILE")
    versions = {}
    malformed = 0
    for v in root.iter():
        if not isinstance(v.tag, str) or v.tag.upper() != "VERSION":
            continue
        try:
            k = int(attr(v, "NUMBER"))
        except (TypeError, ValueError):
            malformed += 1
            continue
        entries = versions.setdefault(k, [])
        seen = {o for o, _ in entries}
        for loc in v.iter():
            if not isinstance(loc.tag, str) or loc.tag.upper() != "LOCATION":
                continue
            try:
                orig, new = int(attr(loc, "ORIG")), int(attr(loc, "NEW"))
            except (TypeError, ValueError):
                malformed += 1
                continue
            if orig < 1 or (new < 1 and new != DELETED) or orig in seen:
                malformed += 1
                continue
            seen.add(orig)
            entries.append((orig, new))
    return file_attr, versions, malformed


VERSION_RE = re.compile(r"(\d+)(\.[^/]*)?$")


def version_files(set_dir, name, listing):
    """{k: path} of NAME_K[.EXT] in the set's directory (not backups ending in ~, not .xml)."""
    found = {}
    prefix = name + "_"
    for fn in listing:
        if not fn.startswith(prefix) or fn.endswith("~") or fn.lower().endswith(".xml"):
            continue
        m = VERSION_RE.match(fn[len(prefix):])
        if m and os.path.isfile(os.path.join(set_dir, fn)):
            found.setdefault(int(m.group(1)), []).append(fn)
    return {k: os.path.join(set_dir, sorted(fns)[0]) for k, fns in found.items()}


def load_set(set_dir):
    """Every group of a dataset directory that can be used, in natural order, and the
    counts of what could not. A group: {name, file, v1, versions: {k: (path, [(orig,
    new)])}}, versions > 1 with a file only."""
    listing = sorted(os.listdir(set_dir))
    groups = []
    skipped = collections.Counter()
    for fn in sorted((f for f in listing if f.lower().endswith(".xml")), key=natural_key):
        name = fn[:-4]
        try:
            file_attr, oracle, malformed = parse_oracle(os.path.join(set_dir, fn))
        except ValueError as e:
            note("%s: skipped, does not parse: %s" % (os.path.join(set_dir, fn), e))
            skipped["xml files that do not parse"] += 1
            continue
        skipped["malformed LOCATION or VERSION entries"] += malformed
        files = version_files(set_dir, name, listing)
        if 1 not in files:
            note("%s: skipped, no %s_1.* beside it" % (os.path.join(set_dir, fn), name))
            skipped["groups without version 1"] += 1
            continue
        ext = os.path.splitext(files[1])[1]
        fname = os.path.basename((file_attr or "").replace("\\", "/")) or name + ext
        if fname in (".", "..", ".git"):
            fname = name + ext
        versions = {}
        for k in sorted(oracle):
            if k == 1:
                continue
            if k not in files:
                note("%s: version %d skipped, no %s_%d.* file" % (
                    os.path.join(set_dir, fn), k, name, k))
                skipped["versions without a file"] += 1
                continue
            versions[k] = (files[k], oracle[k])
        if versions:
            groups.append({"name": name, "file": fname, "v1": files[1], "versions": versions})
    return groups, skipped


# ----------------------------------------------------------------------------
# scratch repositories and the tool's runs

class SetupError(Exception):
    """A group's scratch repository could not be built (the group is skipped)."""


def build_repo(repo, fname, v1_path, versions):
    """A repository with version 1 as fname on branch v1 and each version k on branch vK,
    a child of version 1. -> (v1 commit, {k: commit}). The stored blobs are checked to be
    the files' bytes exactly. Raises SetupError."""
    try:
        return commit_versions(repo, fname, v1_path, versions)
    except (RuntimeError, OSError) as e:
        raise SetupError((str(e).strip().splitlines() or [type(e).__name__])[0])


def commit_versions(repo, fname, v1_path, versions):
    """build_repo's work, raising RuntimeError or OSError."""
    os.makedirs(repo)
    git(repo, "init", "-q", "--initial-branch=v1")

    def commit(src, message):
        with open(src, "rb") as f:
            data = f.read()
        with open(os.path.join(repo, fname), "wb") as f:
            f.write(data)
        git(repo, *GIT_ID, "add", "--", fname)
        git(repo, *GIT_ID, "commit", "-q", "--allow-empty", "--no-verify", "-m", message,
            env=COMMIT_ENV)
        sha, blob = git(repo, "rev-parse", "HEAD", "HEAD:" + fname).decode().split()
        want = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
        if blob != want:
            raise RuntimeError("git stored other bytes than %s" % src)
        return sha

    base = commit(v1_path, "v1")
    targets = {}
    for k, (path, _) in sorted(versions.items()):
        git(repo, "checkout", "-q", "-B", "v%d" % k, base)
        targets[k] = commit(path, "v%d" % k)
    return base, targets


def run_tool(tool, repo, specfile):
    """context-pack once on a group's specs -> (document or None, exit status, seconds,
    stderr)."""
    t0 = time.perf_counter()
    p = subprocess.run([tool, "-C", repo, "--format", "json", specfile],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=GIT_ENV)
    seconds = time.perf_counter() - t0
    err = p.stderr.decode(errors="replace").strip()
    doc = None
    if p.returncode < 2:
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            pass
    return doc, p.returncode, seconds, err


# ----------------------------------------------------------------------------
# answers

def one_line(loc):
    """A location's line when it spans exactly one line, else None."""
    if loc and loc.get("line") is not None and loc.get("line") == loc.get("end_line"):
        return loc["line"]
    return None


def answer(kind, line=None, path=None, tier=None, score=None):
    """An answer: kind line (with line and path), deleted, ambiguous, range or none; the
    tier and score the tool gave with it, for the list of misses."""
    return {"kind": kind, "line": line, "path": path, "tier": tier, "score": score}


def touched_answer(a):
    """A TOUCHED one-line anchor's answer: line_map, else best, else lines_deleted / to."""
    for entry in a.get("line_map") or []:
        if entry.get("base") == a.get("line"):
            tier, score = entry.get("tier"), entry.get("score")
            if tier == "ambiguous":
                return answer("ambiguous", tier=tier, score=score)
            if entry.get("target") is None:
                return answer("deleted", tier=tier, score=score)
            return answer("line", entry["target"], (a.get("to") or {}).get("path"), tier, score)
    best = a.get("best")
    if best:
        tier, score = best.get("tier"), best.get("score")
        if tier == "deleted":
            return answer("deleted", tier=tier, score=score)
        if tier == "ambiguous":
            return answer("ambiguous", tier=tier, score=score)
        if one_line(best) is not None:
            return answer("line", best["line"], best.get("path"), tier, score)
        return answer("range", tier=tier, score=score)
    if a.get("lines_deleted"):
        return answer("deleted")
    to = a.get("to")
    if one_line(to) is not None:
        return answer("line", to["line"], to.get("path"))
    return answer("range")


def tool_answer(a):
    """The tool's answer for a one-line anchor of the JSON document."""
    status = a.get("status")
    to = a.get("to")
    if status in ("SAME", "MOVED"):
        got = (answer("line", to["line"], to.get("path")) if one_line(to) is not None
               else answer("range"))
    elif status == "TOUCHED":
        got = touched_answer(a)
    elif status == "GONE":
        got = answer("deleted")
    else:
        got = answer("none")
    found = one_line(a.get("found_at"))
    if got["kind"] != "line" and found is not None:
        got = answer("line", found, a["found_at"].get("path"), got["tier"], got["score"])
    got["status"] = status
    return got


def plain_diff_hunks(repo, base, target, fname):
    """git diff -U0 base..target of the file -> hunks, or None when git calls it binary."""
    out = git(repo, *DIFF_CFG, "diff", "-U0", *DIFF_OPTS, base, target, "--", fname)
    recs = parse_patch(out)
    if recs and recs[0]["binary"]:
        return None
    return recs[0]["hunks"] if recs else []


def diff_answer(hunks, x, fname):
    """The plain diff's answer for base line x."""
    if hunks is None:
        return answer("none")
    if any(removes(h, x) for h in hunks):
        return answer("deleted")
    return answer("line", x + shift_at(hunks, x), fname)


def score(got, new, fname):
    """The category of an answer against the oracle's NEW (DELETED or a line)."""
    if got["kind"] == "line":
        return "exact" if (new != DELETED and got["line"] == new
                           and got["path"] in (None, fname)) else "wrong"
    if got["kind"] == "deleted":
        return "exact" if new == DELETED else "elim"
    return got["kind"]


# ----------------------------------------------------------------------------
# tallies

class Tally:
    """Counts of one group or one set; percentages of the located lines."""

    def __init__(self, title):
        self.title = title
        self.c = collections.Counter()

    def add(self, cat, base_cat, new, changed, kind):
        c = self.c
        c["located"] += 1
        c[cat] += 1
        c["diff " + base_cat] += 1
        if cat == "wrong" and new == DELETED:
            c["spurious"] += 1
        if new == DELETED:
            c["oracle deleted"] += 1
            c["deleted answered deleted"] += cat == "exact"
        part = "changed" if changed else "unchanged"
        c[part] += 1
        c[part + " exact"] += cat == "exact"
        c["kind " + kind] += 1
        c["kind " + kind + " exact"] += cat == "exact"

    def merge(self, other):
        self.c.update(other.c)

    def pct(self, k, of="located"):
        n = self.c[of]
        return 100.0 * self.c[k] / n if n else None

    def figures(self):
        """Everything, for --json."""
        f = {"title": self.title, "counts": dict(self.c)}
        f["percent"] = {k: self.pct(k) for k in CATEGORIES + ("spurious",)}
        f["percent"]["diff exact"] = self.pct("diff exact")
        f["percent"]["diff wrong"] = self.pct("diff wrong")
        f["percent"]["deleted-line accuracy"] = self.pct("deleted answered deleted", "oracle deleted")
        f["percent"]["exact, unchanged lines"] = self.pct("unchanged exact", "unchanged")
        f["percent"]["exact, changed lines"] = self.pct("changed exact", "changed")
        for k in KINDS:
            f["percent"]["exact, text " + k] = self.pct("kind %s exact" % k, "kind " + k)
        return f


# The oracle's kinds of line: its line's text equal to the base line's (trailing blanks and
# CR aside), its text changed, or deleted.
KINDS = ("kept", "edited", "deleted")


def kind_of(base_line, new_line, new):
    if new == DELETED:
        return "deleted"
    same = base_line is not None and new_line is not None and base_line.rstrip() == new_line.rstrip()
    return "kept" if same else "edited"


TABLE_HEAD = ("| set / group | versions | located | unusable | exact | wrong line (spurious) "
        "| wrongly deleted | ambiguous | range | none | deleted-line acc. "
        "| exact: unchanged / changed | exact by the oracle's kind: kept / edited / deleted "
        "| git diff: exact, wrong |\n"
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")


def fmt_pct(p):
    return "-" if p is None else "%.1f%%" % p


def table_row(t):
    c = t.c
    return "| %s | %d | %d | %d | %s | %s (%d) | %s | %s | %s | %s | %s | %s / %s | %s | %s, %s |" % (
        t.title, c["versions"], c["located"], c["unusable"], fmt_pct(t.pct("exact")),
        fmt_pct(t.pct("wrong")), c["spurious"], fmt_pct(t.pct("elim")),
        fmt_pct(t.pct("ambiguous")), fmt_pct(t.pct("range")), fmt_pct(t.pct("none")),
        fmt_pct(t.pct("deleted answered deleted", "oracle deleted")),
        fmt_pct(t.pct("unchanged exact", "unchanged")), fmt_pct(t.pct("changed exact", "changed")),
        " / ".join(fmt_pct(t.pct("kind %s exact" % k, "kind " + k)) for k in KINDS),
        fmt_pct(t.pct("diff exact")), fmt_pct(t.pct("diff wrong")))


# ----------------------------------------------------------------------------
# one group, one set

def line_text(lines, n):
    """Line n (from 1) of a file's lines for a report, or None."""
    return text_of(lines[n - 1]) if n is not None and 1 <= n <= len(lines) else None


def describe(got, fname):
    """An answer in a few characters: 12, other.c:12, deleted, range."""
    if got["kind"] != "line":
        return got["kind"]
    return "%s:%d" % (got["path"], got["line"]) if got["path"] not in (None, fname) else str(got["line"])


def group_specs(g, base, targets, t):
    """One spec a version > 1, a one-line read for each usable ORIG line (ORIG and NEW
    within their files; the rest counted as unusable in t). -> (specs, plan, lines of
    version 1); plan holds, per spec, (k, [(orig, new)], lines of version k)."""
    with open(g["v1"], "rb") as f:
        v1_lines = split_lines(f.read())
    specs, plan = [], []
    for k, (path, entries) in sorted(g["versions"].items()):
        with open(path, "rb") as f:
            vk_lines = split_lines(f.read())
        usable = [(o, n) for o, n in entries if o <= len(v1_lines) and n <= len(vk_lines)]
        t.c["unusable"] += len(entries) - len(usable)
        t.c["versions"] += 1
        if not usable:
            continue
        specs.append({"id": "%s.v%d" % (g["name"], k), "base": base, "target": targets[k],
                      "reads": [{"location": {"path": g["file"], "line": o, "end_line": o},
                                 "why": "oracle line"} for o, _ in usable]})
        plan.append((k, usable, vk_lines))
    return specs, plan, v1_lines


def output_mismatch(specs, got_specs, fname):
    """Why the tool's specs do not answer ours one for one (count, id, anchors echoed),
    or None."""
    if len(got_specs) != len(specs):
        return "%d specs printed for %d" % (len(got_specs), len(specs))
    for spec, got in zip(specs, got_specs):
        anchors = got.get("anchors") or []
        if got.get("id") != spec["id"] or len(anchors) != len(spec["reads"]):
            return "spec %s: %d anchors printed for %d of %s" % (
                got.get("id"), len(anchors), len(spec["reads"]), spec["id"])
        for r, a in zip(spec["reads"], anchors):
            want = r["location"]
            if (a.get("path"), a.get("line"), a.get("end_line")) != (fname, want["line"], want["line"]):
                return "%s: the tool echoes %s:%s-%s for line %d" % (
                    spec["id"], a.get("path"), a.get("line"), a.get("end_line"), want["line"])
    return None


def run_group(tool, scratch, set_name, g, misses, want_misses):
    """Build the group's repository, run the tool once, score every located line (and the
    plain diff's answer beside it). -> (Tally, tool runs (0 or 1), tool seconds, failure
    message or None)."""
    t = Tally(g["name"])
    fname = g["file"]
    repo = os.path.join(scratch, "repos", set_name, g["name"])
    base, targets = build_repo(repo, fname, g["v1"], g["versions"])
    specs, plan, v1_lines = group_specs(g, base, targets, t)
    if not specs:
        return t, 0, 0.0, None
    specfile = os.path.join(scratch, "specs", set_name, g["name"] + ".jsonl")
    os.makedirs(os.path.dirname(specfile), exist_ok=True)
    with open(specfile, "w") as f:
        for s in specs:
            f.write(json.dumps(s) + "\n")
    doc, rc, seconds, err = run_tool(tool, repo, specfile)
    if doc is None:
        return t, 1, seconds, "exit %d: %s" % (rc, err[:300])
    got_specs = doc.get("specs") or []
    bad = output_mismatch(specs, got_specs, fname)
    if bad:
        return t, 1, seconds, bad
    for (k, usable, vk_lines), spec in zip(plan, got_specs):
        hunks = plain_diff_hunks(repo, base, targets[k], fname)
        for (orig, new), a in zip(usable, spec["anchors"]):
            got, plain = tool_answer(a), diff_answer(hunks, orig, fname)
            cat = score(got, new, fname)
            changed = hunks is None or any(removes(h, orig) for h in hunks)
            kind = kind_of(text_of(v1_lines[orig - 1]), line_text(vk_lines, new), new)
            t.add(cat, score(plain, new, fname), new, changed, kind)
            if cat != "exact" and len(misses) < want_misses:
                misses.append({
                    "kind": cat, "oracle_kind": kind, "set": set_name, "group": g["name"], "version": k, "orig": orig,
                    "oracle_new": new, "answer": describe(got, fname), "status": got["status"],
                    "tier": got["tier"], "score": got["score"], "diff_answer": describe(plain, fname),
                    "base_text": line_text(v1_lines, orig),
                    "oracle_text": line_text(vk_lines, new),
                    "answer_text": (line_text(vk_lines, got["line"])
                                    if got["path"] in (None, fname) else None)})
    return t, 1, seconds, None


def run_set(tool, scratch, set_name, set_dir, misses, want_misses):
    """Every group of one dataset directory -> (set Tally, group Tallies, info dict)."""
    groups, skipped = load_set(set_dir)
    total = Tally("**%s**" % set_name)
    rows, failures = [], {}
    seconds, runs = 0.0, 0
    for g in groups:
        try:
            t, ran, s, fail = run_group(tool, scratch, set_name, g, misses, want_misses)
        except SetupError as e:
            note("%s/%s: skipped, its repository could not be built: %s" % (
                set_name, g["name"], e))
            skipped["groups whose repository could not be built"] += 1
            continue
        runs += ran
        seconds += s
        if fail:
            note("%s/%s: context-pack failed: %s" % (set_name, g["name"], fail))
            failures[g["name"]] = fail
            continue
        total.merge(t)
        rows.append(t)
    total.c["groups"] = len(rows)
    info = {"set": set_name, "dir": set_dir, "groups": len(groups), "skipped": dict(skipped),
            "tool_runs": runs, "tool_seconds": round(seconds, 3), "tool_failures": failures}
    return total, rows, info


# ----------------------------------------------------------------------------

def extract_folder(mirror, folder, dest):
    """`git archive` a folder of a repository's HEAD into dest -> the folder's path."""
    os.makedirs(dest)
    arch = subprocess.run(["git", "--git-dir=" + mirror, "archive", "--format=tar", "HEAD", "--",
                           folder], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=GIT_ENV)
    if arch.returncode != 0:
        raise RuntimeError(arch.stderr.decode(errors="replace").strip())
    subprocess.run(["tar", "-x", "-C", dest], input=arch.stdout, check=True)
    return os.path.join(dest, folder)


def git_dir_of(repo):
    p = subprocess.run(["git", "-C", repo, "rev-parse", "--absolute-git-dir"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=GIT_ENV)
    return p.stdout.decode().strip() if p.returncode == 0 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True, help="the context-pack binary (copied first)")
    ap.add_argument("--set", action="append", default=[], metavar="DIR",
                    help="a dataset directory (repeatable)")
    ap.add_argument("--mirror", metavar="REPO", help="a git repository holding datasets")
    ap.add_argument("--folder", action="append", default=[],
                    help="a dataset folder of --mirror's HEAD, extracted with git archive "
                         "(repeatable)")
    ap.add_argument("--per-group", action="store_true", help="a table row per group too")
    ap.add_argument("--json", metavar="OUT", help="write every figure here")
    ap.add_argument("--misses", type=int, default=0, metavar="N",
                    help="list the first N answers that are not exact, with the oracle's kind "
                         "of line (and put them in --json)")
    ap.add_argument("--goal-exact", type=float, metavar="P", help="exit 1 unless exact >= P%%")
    ap.add_argument("--goal-wrong", type=float, metavar="Q", help="exit 1 unless wrong line <= Q%%")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    args = ap.parse_args()

    if bool(args.mirror) != bool(args.folder) or not (args.set or args.folder):
        ap.error("give --set DIR, or --mirror REPO with --folder NAME")
    for d in args.set:
        if not os.path.isdir(d):
            ap.error("not a directory: %s" % d)
    mirror = git_dir_of(args.mirror) if args.mirror else None
    if args.mirror and not mirror:
        ap.error("not a git repository: %s" % args.mirror)
    if not os.access(args.tool, os.X_OK):
        ap.error("tool not executable: %s" % args.tool)

    scratch = tempfile.mkdtemp(prefix="cp-line-tracking-")
    tool = os.path.join(scratch, "context-pack")
    shutil.copy2(args.tool, tool)
    with open(tool, "rb") as f:
        md5 = hashlib.md5(f.read()).hexdigest()
    version = subprocess.run([tool, "--version"], stdout=subprocess.PIPE).stdout.decode().strip()

    sets = [(os.path.basename(os.path.normpath(d)), os.path.abspath(d), os.path.abspath(d))
            for d in args.set]                   # (name, directory, where it came from)
    for folder in args.folder:
        try:
            sets.append((os.path.basename(os.path.normpath(folder)), extract_folder(
                mirror, folder, os.path.join(scratch, "sets", str(len(sets)))),
                "%s:%s" % (os.path.abspath(args.mirror), folder)))
        except (RuntimeError, subprocess.CalledProcessError) as e:
            print("cannot extract %s from %s: %s" % (folder, args.mirror, e), file=sys.stderr)
            shutil.rmtree(scratch, ignore_errors=True)
            return 2

    t0 = time.perf_counter()
    misses, totals, lines, infos = [], [], [], []
    for name, d, source in sets:
        total, rows, info = run_set(tool, scratch, name, d, misses, args.misses)
        info["dir"] = source
        totals.append(total)
        info["figures"] = total.figures()
        info["group_figures"] = [r.figures() for r in rows]
        infos.append(info)
        lines.append(table_row(total))
        if args.per_group:
            lines += [table_row(r) for r in rows]
    overall = Tally("**all sets**")
    for t in totals:
        overall.merge(t)
    if len(totals) > 1:
        lines.append(table_row(overall))
    wall = time.perf_counter() - t0

    tool_seconds = sum(i["tool_seconds"] for i in infos)
    failed = sum(len(i["tool_failures"]) for i in infos)
    print("context-pack line tracking: %s, md5 %s" % (version, md5))
    print("%s; context-pack %.2f s wall over %d runs, whole benchmark %.1f s%s" % (
        ", ".join("%s (%s, %d groups)" % (i["set"], i["dir"], i["groups"]) for i in infos),
        tool_seconds, sum(i["tool_runs"] for i in infos), wall,
        "; TOOL FAILED on %d groups (left out)" % failed if failed else ""))
    for i in infos:
        skipped = {k: v for k, v in i["skipped"].items() if v}
        if skipped:
            print("%s skipped: %s" % (i["set"], ", ".join("%s %d" % kv for kv in skipped.items())))
    print()
    print(TABLE_HEAD)
    print("\n".join(lines))
    if args.misses:
        print()
        print("answers not exact (first %d): set/group vK ORIG (oracle's kind): oracle -> "
              "tool [category, status, tier, score]; the plain diff's answer" % args.misses)
        for m in misses:
            how = [m["kind"], m["status"]] + ["%s %s" % (k, m[k]) for k in ("tier", "score")
                                              if m[k] is not None]
            print("  %s/%s v%d %d (%s): %s -> %s [%s]; diff %s" % (
                m["set"], m["group"], m["version"], m["orig"], m["oracle_kind"],
                "deleted" if m["oracle_new"] == DELETED else m["oracle_new"], m["answer"],
                ", ".join(how), m["diff_answer"]))
            print("      base   %r" % m["base_text"])
            print("      oracle %r" % m["oracle_text"])
            print("      tool   %r" % m["answer_text"])

    goals = []
    if args.goal_exact is not None:
        goals.append(("exact", (overall.pct("exact") or 0.0) >= args.goal_exact))
    if args.goal_wrong is not None:
        goals.append(("wrong line", (overall.pct("wrong") or 0.0) <= args.goal_wrong))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"tool": {"version": version, "md5": md5, "path": os.path.abspath(args.tool),
                                "seconds": round(tool_seconds, 3)},
                       "wall_seconds": round(wall, 3), "sets": infos,
                       "all_sets": overall.figures(), "goals": dict(goals),
                       "misses": misses}, f, indent=1)
    if args.keep:
        print("scratch kept: %s" % scratch)
    else:
        shutil.rmtree(scratch, ignore_errors=True)
    if failed:
        return 2
    if not overall.c["located"]:
        print("nothing was measured: no usable line in any set", file=sys.stderr)
        return 2
    return 0 if all(ok for _, ok in goals) else 1


if __name__ == "__main__":
    sys.exit(main())
