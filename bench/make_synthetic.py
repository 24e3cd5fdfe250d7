#!/usr/bin/env python3
"""Make a synthetic git repository of N files for the scale benchmark.

    python3 bench/make_synthetic.py --files 100000 DIR [--no-checkout]

Layout: top/NNN/mod/MM/file_KKKKKK.c, 50 files a leaf directory, 20 leaf directories a top
directory, so the tree has the depth and fan-out of a real project and git's tree diff can
skip unchanged subtrees. Every file is small, distinct C text (about 15 lines).

Two commits, written with one `git fast-import` stream:
  c1  every file
  c2  10 files edited (3 lines inserted near the top, one line changed), one file renamed
      (content kept), one deleted, one added: a small change in a large tree.
Then (unless --no-checkout) c2 is checked out and the working tree gets uncommitted edits:
two tracked files edited, one untracked file; the index is refreshed a second later so its
stat data is settled (no racily clean entries), as after a user's `git status`.

The anchors the benchmark resolves (10, in files unchanged by c2 and by the working-tree
edits, each with a symbol) are printed as JSON on stdout, with c1, c2 and the paths.

Standard library only. Everything is written under DIR (it must not exist or be empty).
"""

import argparse
import json
import os
import subprocess
import sys
import time

FILES_PER_DIR = 50
DIRS_PER_TOP = 20
LINES = 15

GIT_ENV = dict(os.environ)
GIT_ENV.update({
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "LC_ALL": "C",
})


def path_of(i):
    leaf = i // FILES_PER_DIR
    return "top/%03d/mod/%02d/file_%06d.c" % (leaf // DIRS_PER_TOP, leaf % DIRS_PER_TOP, i)


def content_of(i, edited=False):
    lines = ["/* synthetic file %d */" % i, "#include \"common_%d.h\"" % (i % 7), ""]
    if edited:
        lines += ["/* edited in c2 */", "static int edited_%d;" % i, ""]
    for k in range(LINES - 4):
        lines.append("int f_%d_%d(int x) { return x * %d + %d; }" % (i, k, k + 1, i % 97))
    if edited:
        lines[-1] = "int f_%d_%d(int x) { return x - 1; } /* changed */" % (i, LINES - 5)
    lines.append("")
    return ("\n".join(lines) + "\n").encode()


def data_cmd(payload):
    return b"data %d\n%s\n" % (len(payload), payload)


def spread(n, count, salt):
    """count distinct file numbers spread over the tree (deterministic)."""
    out = []
    step = max(1, n // count)
    for k in range(count):
        i = (k * step + salt * 7919 + k * 131) % n
        while i in out:
            i = (i + 1) % n
        out.append(i)
    return out


def make(directory, nfiles, checkout=True, log=None):
    def say(msg):
        if log:
            log(msg)

    os.makedirs(directory, exist_ok=True)
    if os.listdir(directory):
        raise SystemExit("%s is not empty" % directory)
    git = ["git", "-C", directory]
    subprocess.run(git + ["init", "-q", "-b", "main"], check=True, env=GIT_ENV)

    edited = spread(nfiles, 10, 1)
    renamed, deleted = spread(nfiles, 2, 2)
    taken = set(edited) | {renamed, deleted}
    wt_edited = [i for i in spread(nfiles, 4, 3) if i not in taken][:2]
    taken |= set(wt_edited)
    anchored = [i for i in spread(nfiles, 20, 4) if i not in taken][:10]
    added_path = "top/000/mod/00/added_in_c2.c"
    renamed_to = path_of(renamed).replace(".c", "_renamed.c")

    t0 = time.time()
    fi = subprocess.Popen(git + ["fast-import", "--quiet", "--done"], stdin=subprocess.PIPE,
                          env=GIT_ENV)
    w = fi.stdin
    stamp = 1700000000
    w.write(b"commit refs/heads/main\nmark :1\n")
    w.write(b"committer bench <bench@example.invalid> %d +0000\n" % stamp)
    w.write(data_cmd(b"c1: %d files" % nfiles))
    for i in range(nfiles):
        w.write(b"M 100644 inline %s\n" % path_of(i).encode())
        w.write(data_cmd(content_of(i)))
    w.write(b"\ncommit refs/heads/main\nmark :2\n")
    w.write(b"committer bench <bench@example.invalid> %d +0000\n" % (stamp + 60))
    w.write(data_cmd(b"c2: 10 edits, 1 rename, 1 delete, 1 add"))
    w.write(b"from :1\n")
    for i in edited:
        w.write(b"M 100644 inline %s\n" % path_of(i).encode())
        w.write(data_cmd(content_of(i, edited=True)))
    w.write(b"R %s %s\n" % (path_of(renamed).encode(), renamed_to.encode()))
    w.write(b"D %s\n" % path_of(deleted).encode())
    w.write(b"M 100644 inline %s\n" % added_path.encode())
    w.write(data_cmd(b"int added_in_c2(void) { return 0; }\n"))
    w.write(b"\ndone\n")
    w.close()
    if fi.wait() != 0:
        raise SystemExit("git fast-import failed")
    say("  fast-import of %d files: %.1fs" % (nfiles, time.time() - t0))

    def rev(r):
        return subprocess.run(git + ["rev-parse", r], check=True, stdout=subprocess.PIPE,
                              env=GIT_ENV).stdout.decode().strip()
    c1, c2 = rev("main~1"), rev("main")

    wt_paths = []
    if checkout:
        t0 = time.time()
        subprocess.run(git + ["checkout", "-q", "-f", "main"], check=True, env=GIT_ENV)
        for i in wt_edited:
            p = os.path.join(directory, path_of(i))
            with open(p, "ab") as f:
                f.write(b"/* uncommitted edit */\nint wt_edit_%d;\n" % i)
            wt_paths.append(path_of(i))
        with open(os.path.join(directory, "top", "untracked_new.c"), "wb") as f:
            f.write(b"int untracked_new(void) { return 1; }\n")
        time.sleep(1.1)   # let the clock pass the files' mtimes, then settle the index
        subprocess.run(git + ["update-index", "-q", "--refresh"], env=GIT_ENV)
        subprocess.run(git + ["status", "--porcelain"], stdout=subprocess.DEVNULL, env=GIT_ENV)
        say("  checkout and working-tree edits: %.1fs" % (time.time() - t0))

    anchors = []
    for i in anchored:
        anchors.append({"path": path_of(i), "line": 4, "end_line": 9,
                        "symbol": "f_%d_2" % i})
    return {
        "dir": os.path.abspath(directory), "files": nfiles, "c1": c1, "c2": c2,
        "anchors": anchors,
        "changed_in_c2": [path_of(i) for i in edited] + [path_of(renamed), renamed_to,
                                                         path_of(deleted), added_path],
        "edited_in_worktree": wt_paths,
        "untracked": ["top/untracked_new.c"],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--files", type=int, default=100000)
    ap.add_argument("--no-checkout", action="store_true")
    args = ap.parse_args()
    info = make(args.dir, args.files, checkout=not args.no_checkout,
                log=lambda m: print(m, file=sys.stderr))
    json.dump(info, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
