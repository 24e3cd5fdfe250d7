#!/usr/bin/env python3
"""A line-tracking dataset made by editing real code, in the LHDiff/Reiss format.

Takes stretches of real source files from a git repository's HEAD (.c, .h, .py, .sh, .java,
.go, .rs, .js files of 120+ lines), applies a random edit script to each and writes, per
stretch NAME, `NAME.xml` (the oracle), `NAME_1.EXT` (the stretch) and `NAME_2.EXT` (edited),
which `bench/line_tracking.py --set OUT` scores. Every edit keeps track of where each line
of the stretch went, so the oracle is exact by construction:

  edit      one token of a line changed (an identifier renamed, a number changed, an
            argument added): the line maps to its edited self
  reindent  a run of 2-8 lines indented one level more: each maps to itself
  split     a line with a ", " cut after it into two lines: it maps to the first
  merge     two short neighbouring lines joined into one: both map to it
  move      a run of 3-10 lines moved 10-60 lines away: each maps to its new place
  delete    a run of 1-5 lines removed: deleted
  replace   a line replaced by a line from elsewhere in the file: deleted
  insert    1-4 lines from elsewhere in the file inserted: no oracle entry (new lines)

With --renames K, K renames follow the script (drawn from their own random stream, so a seed's
script is the one --renames 0 draws):

  rename    a name (3+ bytes) used at least twice within 40 lines renamed in all of them, as a
            refactoring does (`count` -> `total`): each line maps to its edited self

and with --moved-edits K, K moves of a run with edits in it (their own stream too):

  moved-edit  a run of 3-10 lines moved 10-60 lines away, one or two of its lines then edited
            as `edit` does: each maps to its new place

A line whose text appears more than once in the stretch is left out of the oracle when an
edit touched it or its twin, since nothing tells such twins apart. This is a development set:
its edits are random, not a human's, so its figures say how the mapping behaves, not how a
reader would judge it. Standard library only; the repository is only read.
"""

import argparse
import os
import random
import re
import subprocess
import sys

EXTS = (".c", ".h", ".py", ".sh", ".java", ".go", ".rs", ".js")
STRETCH = 150
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout


def source_files(repo):
    names = git(repo, "ls-tree", "-r", "--name-only", "HEAD").decode("utf-8", "replace")
    return [n for n in names.splitlines() if n.endswith(EXTS)]


def edit_line(rng, text):
    """One token of `text` changed, or None when it has no token worth changing."""
    words = [m for m in WORD.finditer(text) if len(m.group()) >= 2 or m.group().isdigit()]
    if not words:
        return None
    m = rng.choice(words)
    w = m.group()
    if w.isdigit():
        new = str(int(w) + rng.randint(1, 9))
    elif rng.random() < 0.5:
        new = w + rng.choice(["_new", "2", "Count", "_p"])
    else:
        new = rng.choice(["len", "size", "value", "next", "item", "buf"]) + "_" + w[:3]
    return text[:m.start()] + new + text[m.end():]


def apply_script(rng, lines, ops):
    """Edits `lines` (a list of (origin, text), origin 1-based or None) `ops` times; returns
    the edited list and the set of origins that were deleted."""
    deleted = set()
    for _ in range(ops):
        kind = rng.choice(["edit", "edit", "edit", "reindent", "split", "merge", "move",
                           "delete", "replace", "insert"])
        n = len(lines)
        if n < 30:
            break
        i = rng.randrange(5, n - 15)
        if kind == "edit":
            origin, text = lines[i]
            new = edit_line(rng, text)
            if new is not None:
                lines[i] = (origin, new)
        elif kind == "reindent":
            for k in range(i, min(n, i + rng.randint(2, 8))):
                origin, text = lines[k]
                lines[k] = (origin, ("    " + text) if text.strip() else text)
        elif kind == "split":
            origin, text = lines[i]
            cut = text.find(", ")
            if cut > 0 and origin is not None:
                lines[i:i + 1] = [(origin, text[:cut + 1]), (None, "\t\t" + text[cut + 2:])]
        elif kind == "merge":
            (o1, t1), (o2, t2) = lines[i], lines[i + 1]
            if t1.strip() and t2.strip() and len(t1) + len(t2) < 100 and o1 and o2:
                lines[i:i + 2] = [((o1, o2), t1.rstrip() + " " + t2.strip())]
        elif kind == "move":
            move_run(rng, lines, i)
        elif kind == "delete":
            size = rng.randint(1, 5)
            for origin, _ in lines[i:i + size]:
                deleted.update(origins(origin))
            del lines[i:i + size]
        elif kind == "replace":
            deleted.update(origins(lines[i][0]))
            lines[i] = (None, lines[rng.randrange(n)][1])
        else:
            lines[i:i] = [(None, lines[rng.randrange(n)][1]) for _ in range(rng.randint(1, 4))]
    return lines, deleted


NAMES = ["total", "result", "value", "entry", "node", "target", "source", "index", "state"]


def rename(rng, lines):
    """One name renamed, word for word, over a window of 40 lines where it occurs twice or
    more (in place; nothing when the window has no such name)."""
    if len(lines) < 40:
        return
    start = rng.randrange(0, len(lines) - 40)
    window = lines[start:start + 40]
    counts = {}
    for _, text in window:
        for m in WORD.finditer(text):
            if len(m.group()) >= 3 and not m.group().isdigit():
                counts[m.group()] = counts.get(m.group(), 0) + 1
    names = sorted(w for w, k in counts.items() if k >= 2)
    if not names:
        return
    old = rng.choice(names)
    new = rng.choice([n for n in NAMES if n != old] + [old + "s", "new_" + old, old[:3]])
    word = re.compile(r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])" % re.escape(old))
    for k, (origin, text) in enumerate(window):
        lines[start + k] = (origin, word.sub(new, text))


def move_run(rng, lines, i, edit=None):
    """The run of 3-10 lines at `i` moved 10-60 lines away (in place); `edit(block)`, if given,
    changes the run between taking it out and putting it back."""
    size = rng.randint(3, 10)
    block = lines[i:i + size]
    del lines[i:i + size]
    if edit:
        edit(block)
    j = max(0, min(len(lines), i + rng.choice([-1, 1]) * rng.randint(10, 60)))
    lines[j:j] = block


def moved_edit(rng, lines):
    """A run moved 10-60 lines away, then one or two of its lines edited (in place)."""
    n = len(lines)
    if n < 30:
        return

    def edit(block):
        for _ in range(rng.randint(1, 2)):
            k = rng.randrange(len(block))
            new = edit_line(rng, block[k][1])
            if new is not None:
                block[k] = (block[k][0], new)

    move_run(rng, lines, rng.randrange(5, n - 15), edit)


def origins(origin):
    if origin is None:
        return ()
    return origin if isinstance(origin, tuple) else (origin,)


def oracle(base, edited, deleted):
    """ORIG -> NEW (-1 deleted) for the lines of `base` whose fate is known."""
    where = {}
    for new, (origin, _) in enumerate(edited, 1):
        for o in origins(origin):
            where.setdefault(o, new)
    counts = {}
    for t in base:
        counts[t.strip()] = counts.get(t.strip(), 0) + 1
    out = {}
    for orig, text in enumerate(base, 1):
        if counts[text.strip()] > 1 and not (where.get(orig) and
                                             edited[where[orig] - 1][1] == text):
            continue  # a twin that was edited: nothing tells it apart from its copy
        if orig in where:
            out[orig] = where[orig]
        elif orig in deleted:
            out[orig] = -1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", required=True, help="a git repository to take stretches from")
    ap.add_argument("--out", required=True, help="directory to write the dataset into")
    ap.add_argument("--stretches", type=int, default=60)
    ap.add_argument("--ops", type=int, default=12, help="edits per stretch")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--renames", type=int, default=0, help="renames per stretch, after the edits")
    ap.add_argument("--moved-edits", type=int, default=0,
                    help="moves of a run with edits in it per stretch, after the renames")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rng_renames = random.Random("renames %d" % args.seed)
    rng_moved = random.Random("moved edits %d" % args.seed)
    files = source_files(args.repo)
    os.makedirs(args.out, exist_ok=True)
    made = 0
    while made < args.stretches and files:
        path = rng.choice(files)
        text = git(args.repo, "show", f"HEAD:{path}").decode("utf-8", "replace")
        all_lines = text.split("\n")
        if len(all_lines) < STRETCH + 20 or "\r" in text:
            continue
        start = rng.randrange(0, len(all_lines) - STRETCH)
        base = all_lines[start:start + STRETCH]
        edited, deleted = apply_script(rng, [(k, t) for k, t in enumerate(base, 1)], args.ops)
        for _ in range(args.renames):
            rename(rng_renames, edited)
        for _ in range(args.moved_edits):
            moved_edit(rng_moved, edited)
        truth = oracle(base, edited, deleted)
        name = f"s{args.seed}_{made:03d}"
        ext = os.path.splitext(path)[1]
        for version, lines in ((1, base), (2, [t for _, t in edited])):
            with open(os.path.join(args.out, f"{name}_{version}{ext}"), "w") as f:
                f.write("\n".join(lines) + "\n")
        with open(os.path.join(args.out, f"{name}.xml"), "w") as f:
            f.write(f'<TEST NAME="{name}" FILE="{name}{ext}">\n'
                    f'  <VERSION NUMBER="2" CHECKED="TRUE">\n')
            for orig, new in sorted(truth.items()):
                f.write(f'    <LOCATION ORIG="{orig}" NEW="{new}"/>\n')
            f.write("  </VERSION>\n</TEST>\n")
        made += 1
    print(f"{made} stretches from {args.repo} written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
