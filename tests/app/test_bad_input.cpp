// One test per row of docs/bad-input.md, named "bad input <ID>", and a check that the table
// and these tests list the same rows.
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/outcome.hpp"

using cptest::context_pack;
using cptest::Output;
using cptest::q;
using cptest::Repo;

namespace {

using cptest::slurp;
using cptest::unresolved;
using cptest::usage_error;

struct Simple {
    Repo repo;
    std::string base;
    Simple() {
        repo.write("a.c", cptest::numbered(10));
        repo.write("dir/b.c", "int b;\n");
        base = repo.commit();
    }
    Output run(const std::string& args, const std::string& input = "") const {
        return context_pack(repo.dir(), args, input);
    }
    Output anchor(const std::string& anchor, const std::string& extra = "") const {
        return run(extra + " --table --base " + base + " --anchor " + q(anchor));
    }
    // A spec on stdin whose own base is `rev`: a base that names nothing is its UNRESOLVED.
    Output spec_base(const std::string& rev, const std::string& dir = "") const {
        auto spec = R"({"base": )" + nlohmann::json(rev).dump() +
                    R"(, "reads": [{"location": {"path": "a.c", "line": 1}}]})";
        return context_pack(dir.empty() ? repo.dir() : dir, "--table -", spec);
    }
    // The same base typed on the command line: a usage error with the same reason.
    Output cli_base(const std::string& rev, const std::string& dir = "") const {
        return context_pack(dir.empty() ? repo.dir() : dir,
                            "--table --base " + q(rev) + " --anchor a.c:1");
    }
};

// A base that names nothing: UNRESOLVED in a spec, exit 2 when typed as --base.
void bad_base(const Simple& s, const std::string& rev, const std::string& reason,
              const std::string& dir = "") {
    unresolved(s.spec_base(rev, dir), "base " + reason);
    usage_error(s.cli_base(rev, dir), "--base " + reason);
}

}  // namespace

TEST_CASE("bad input table and tests list the same rows") {
    std::set<std::string> documented, tested;
    std::regex row(R"(^\| (B\d\d) \|)");
    std::istringstream doc(slurp(cptest::source_dir() + "/docs/bad-input.md"));
    for (std::string line; std::getline(doc, line);) {
        std::smatch m;
        if (std::regex_search(line, m, row)) documented.insert(m[1]);
    }
    // The rows' tests are in this file and in the other test files of the front ends.
    std::regex test(R"(TEST_CASE\("bad input (B\d\d):)");
    for (const auto& file :
         std::filesystem::directory_iterator(cptest::source_dir() + "/tests/app")) {
        auto source = slurp(file.path().string());
        for (std::sregex_iterator it(source.begin(), source.end(), test), end; it != end; ++it)
            tested.insert((*it)[1]);
    }
    CHECK(documented.size() >= 29);
    CHECK(documented == tested);
}

TEST_CASE("bad input B01: invalid JSON") {
    Simple s;
    usage_error(s.run("-", "{\"base\": \"HEAD\",\n  \"reads\": [}"),
                "<stdin>: invalid JSON: parse error at line 2, column 13");
}

TEST_CASE("bad input B02: a known key of the wrong type") {
    Simple s;
    usage_error(s.run("-", R"({"base": "HEAD", "file_changes": [{"location": {"path": "a.c",
                "line": 1}}, {"location": {"path": "a.c", "line": "2"}}]})"),
                "file_changes[1].location.line must be an integer, not a string");
}

TEST_CASE("bad input B03: no base anywhere") {
    Simple s;
    usage_error(s.run("-", R"({"reads": [{"location": {"path": "a.c", "line": 1}}]})"),
                "the spec has no base; add \"base\"");
}

TEST_CASE("bad input B04: a base not in the repository") {
    Simple s;
    const std::string id = "1234567890abcdef1234567890abcdef12345678";
    bad_base(s, id, id + " not in this repository: git fetch origin " + id);
}

TEST_CASE("bad input B05: an ambiguous short base") {
    Simple s;
    std::string paths;
    for (int i = 0; i < 1500; ++i) {
        s.repo.write("blobs/" + std::to_string(i), std::to_string(i) + "\n");
        paths += "blobs/" + std::to_string(i) + "\n";
    }
    auto hashes =
        cptest::sh("cd " + q(s.repo.dir()) + " && git hash-object -w --stdin-paths", paths);
    std::map<std::string, int> seen;
    std::string prefix;
    for (std::size_t pos = 0; pos + 40 <= hashes.out.size() && prefix.empty(); pos += 41)
        if (++seen[hashes.out.substr(pos, 4)] == 2) prefix = hashes.out.substr(pos, 4);
    REQUIRE_FALSE(prefix.empty());
    bad_base(s, prefix, prefix + " is ambiguous (");
    CHECK(s.spec_base(prefix).out.find(" blob") != std::string::npos);
}

TEST_CASE("bad input B06: line 0 or negative") {
    Simple s;
    unresolved(s.anchor("a.c:0"), "line 0 is before the first line");
    auto o = s.run("--table -",
                   "{\"base\": \"HEAD\", \"reads\": [{\"location\": {\"path\": "
                   "\"a.c\", \"line\": -3}}]}");
    unresolved(o, "line -3 is before the first line");
}

TEST_CASE("bad input B07: line numbers past 32 and 64 bits") {
    Simple s;
    unresolved(s.anchor("a.c:5000000000"), "past the end of the file at base (10 lines)");
    usage_error(s.run("-",
                      "{\"base\": \"HEAD\", \"reads\": [{\"location\": {\"path\": \"a.c\", "
                      "\"line\": 99999999999999999999}}]}"),
                "reads[0].location.line");
    // An integer too large for a 64-bit one, or written with an exponent, is out of range,
    // not "not an integer"; 5.0 is the integer 5.
    for (const char* huge : {"100000000000000000000000", "1e23"})
        usage_error(s.run("-", std::string("{\"base\": \"HEAD\", \"reads\": [{\"location\": "
                                           "{\"path\": \"a.c\", \"line\": ") +
                                   huge + "}}]}"),
                    "reads[0].location.line is too large for a line number");
    auto five = s.run("--table -",
                      "{\"base\": \"HEAD\", \"reads\": [{\"location\": "
                      "{\"path\": \"a.c\", \"line\": 5.0}}]}");
    CHECK(five.status == 0);
    CHECK(five.out.find("a.c:5") != std::string::npos);
    usage_error(s.run("-",
                      "{\"base\": \"HEAD\", \"reads\": [{\"location\": "
                      "{\"path\": \"a.c\", \"line\": 5.5}}]}"),
                "must be an integer, not a non-integer number");
    usage_error(s.anchor("a.c:99999999999999999999"), "the line number is too large");
}

TEST_CASE("bad input B84: a numeric option given text, a fraction or a number out of range") {
    Simple s;
    usage_error(s.anchor("a.c:1", "--context abc"),
                "--context: abc is not a whole number; give one from 0 to 1000");
    usage_error(s.anchor("a.c:1", "--context 1.5"), "--context: 1.5 is not a whole number");
    usage_error(s.anchor("a.c:1", "--context 1001"),
                "--context: 1001 is out of range; give a number from 0 to 1000");
    usage_error(s.anchor("a.c:1", "--jobs 0"), "--jobs: 0 is out of range; give a number from 1");
    usage_error(s.anchor("a.c:1", "--jobs -3"), "--jobs: -3 is out of range");
    usage_error(s.anchor("a.c:1", "--max-lines 99999999999999999999999"),
                "--max-lines: 99999999999999999999999 is out of range");
    CHECK(s.anchor("a.c:1", "--context 0 --jobs 1").status == 0);
}

TEST_CASE("bad input B08: end_line before line") {
    Simple s;
    unresolved(s.anchor("a.c:5-4"), "end_line 4 is before line 5");
}

TEST_CASE("bad input B09: symbols with whitespace, empty, or too long") {
    Simple s;
    auto spec = [&](const std::string& symbol) {
        return s.run("-",
                     "{\"base\": \"HEAD\", \"reads\": [{\"location\": {\"path\": \"a.c\", "
                     "\"line\": 1, \"symbol\": \"" +
                         symbol + "\"}}]}");
    };
    usage_error(spec("two words"), "reads[0].location.symbol must not contain whitespace");
    usage_error(spec("tab\\there"), "reads[0].location.symbol must not contain whitespace");
    usage_error(spec(""), "reads[0].location.symbol must not be empty");
    usage_error(spec(std::string(129, 'x')), "is 129 bytes long; a symbol is at most 128 bytes");
}

TEST_CASE("bad input B10: empty spec file, empty object, no anchors") {
    Simple s;
    usage_error(s.run("-", ""), "invalid JSON");
    usage_error(s.run("-", "{}"), "the spec has no base");
    usage_error(s.run("-", "{\"base\": \"HEAD\", \"file_changes\": []}"),
                "nothing to resolve: the specs hold no anchors");
    // A .jsonl of blank lines is named.
    const std::string blank = s.repo.dir() + "/blank.jsonl";
    std::ofstream(blank) << "\n  \n\t\n";
    usage_error(s.run("blank.jsonl"), "nothing to resolve: blank.jsonl holds no spec");
    // Anchors written under a key the parser does not know: the key is named.
    usage_error(
        s.run("-", R"({"base": "HEAD", "anchors": [{"location": {"path": "a.c", "line": 1}}]})"),
        "nothing to resolve: the specs hold no anchors; add file_changes or reads "
        "(<stdin>: unknown key 'anchors')");
}

TEST_CASE("bad input B87: an option the command line does not have, with the one likely meant") {
    Simple s;
    usage_error(s.run("--formt json --base HEAD --anchor a.c:1"),
                "unknown option --formt; did you mean --format?");
    usage_error(s.run("--tabel --base HEAD --anchor a.c:1"),
                "unknown option --tabel; did you mean --table?");
    usage_error(s.run("--max-line=3 --base HEAD --anchor a.c:1"),
                "unknown option --max-line; did you mean --max-lines?");
    usage_error(s.run("--zzzzzzzz --base HEAD --anchor a.c:1"),
                "unknown option --zzzzzzzz; see context-pack --help");
}

TEST_CASE("bad input B11: the same anchor twice") {
    Simple s;
    auto o = s.run("--base " + s.base + " --anchor a.c:2-3 --anchor a.c:2-3");
    CHECK(o.status == 0);
    CHECK(o.out.find("1  read  a.c:2-3  SAME") != std::string::npos);
    CHECK(o.out.find("2  read  a.c:2-3  SAME") != std::string::npos);
    auto windows = std::count(o.out.begin(), o.out.end(), '=') / 4;  // "== path ==" per window
    CHECK(windows == 1);
    CHECK(o.out.find("#1 --anchor[0]") != std::string::npos);
    CHECK(o.out.find("#2 --anchor[1]") != std::string::npos);
}

TEST_CASE("bad input B12: paths that are not UTF-8") {
    Simple s;
    const std::string name = "caf\xe9.c";  // Latin-1, not UTF-8
    s.repo.write(name, "x\ny\n");
    auto base = s.repo.commit();
    usage_error(s.run("-", "{\"base\": \"HEAD\", \"reads\": [{\"location\": {\"path\": \"" + name +
                               "\", \"line\": 1}}]}"),
                "invalid JSON");
    auto o = s.run("--format json --base " + base + " --anchor " + q(name + ":1-2"));
    INFO(o.err);
    CHECK(o.status == 0);
    CHECK(o.out.find("\"status\": \"SAME\"") != std::string::npos);
    CHECK(o.out.find("caf\xef\xbf\xbd.c") != std::string::npos);  // U+FFFD in valid JSON
}

TEST_CASE("bad input B13: a directory as anchor path or as spec file") {
    Simple s;
    unresolved(s.anchor("dir:1"), "dir is a directory at base, not a file");
    usage_error(s.run(q(s.repo.at("dir"))), "is a folder with no .json or .jsonl spec files");
}

TEST_CASE("bad input B14: not a git repository") {
    cptest::TempDir empty;
    usage_error(context_pack(empty.path(), "--base HEAD --anchor a.c:1"), "not a git repository");
    Simple s;
    usage_error(s.run("-C " + q(empty.path()) + " --base HEAD --anchor a.c:1"),
                "run inside one or pass -C DIR");
    // A file is no directory to start from, though one holding it is a repository.
    usage_error(s.run("-C a.c --base HEAD --anchor a.c:1"),
                "cannot open the repository at 'a.c': not a directory");
}

TEST_CASE("bad input B15: a corrupt object") {
    Simple s;
    auto oid = s.repo.git("rev-parse HEAD:a.c").substr(0, 40);
    auto file = s.repo.at(".git/objects/" + oid.substr(0, 2) + "/" + oid.substr(2));
    REQUIRE(cptest::sh("chmod u+w " + q(file) + " && echo garbage > " + q(file)).status == 0);
    auto o = s.run("--table --target HEAD --base " + s.base + " --anchor a.c:1 --anchor dir/b.c:1");
    unresolved(o, "blob " + oid.substr(0, 10) + " of a.c at base is damaged");
    CHECK(o.out.find("git fsck") != std::string::npos);
    CHECK(o.out.find("SAME        dir/b.c:1") != std::string::npos);
}

TEST_CASE("bad input B16: a missing pack file") {
    Simple s;
    s.repo.git("repack -adq");
    REQUIRE(cptest::sh("rm " + q(s.repo.dir()) + "/.git/objects/pack/*.pack").status == 0);
    auto o = s.anchor("a.c:1", "--target HEAD");
    INFO(o.out << o.err);
    CHECK(o.status == 2);
    CHECK(o.err.find("git fsck") != std::string::npos);
    // The base by its whole id, which only the lost pack held: damaged, not to be fetched.
    unresolved(s.spec_base(s.base),
               "base " + s.base + " not found, and the object store is damaged: ");
    auto typed = s.anchor("a.c:1");
    usage_error(typed, "/.git/objects/pack/pack-");
    CHECK(typed.err.find(".idx has no .pack beside it, so the objects it lists are missing; git "
                         "fsck names what is broken; restore the pack from a good clone of the "
                         "repository") != std::string::npos);
    CHECK(typed.err.find("git fetch") == std::string::npos);
}

TEST_CASE("bad input B17: a shallow clone whose base is beyond its boundary") {
    Simple s;
    s.repo.write("a.c", "x\n" + cptest::numbered(10));
    s.repo.commit();
    cptest::TempDir shallow;
    REQUIRE(
        cptest::sh("git clone -q --depth 1 file://" + s.repo.dir() + " " + q(shallow.path() + "/c"))
            .status == 0);
    bad_base(s, s.base, s.base + " not in this shallow clone: git fetch --unshallow origin",
             shallow.path() + "/c");
}

TEST_CASE("bad input B18: a split index") {
    Simple s;
    s.repo.git("update-index --split-index");
    usage_error(s.anchor("a.c:1"), "git update-index --no-split-index");
    CHECK(s.anchor("a.c:1", "--target HEAD").status == 0);
}

TEST_CASE("bad input B19: a sparse index") {
    Simple s;
    s.repo.git("sparse-checkout init --cone");
    s.repo.git("config index.sparse true");
    s.repo.git("sparse-checkout set --sparse-index dir");
    usage_error(s.anchor("dir/b.c:1"), "git sparse-checkout reapply");
}

TEST_CASE("bad input B20: extensions.worktreeConfig, extensions.preciousObjects") {
    // Extensions a reader may ignore: git reads such repositories, and so does the tool,
    // with any libgit2 (1.5 knows neither by itself).
    for (const char* extension : {"worktreeConfig", "preciousObjects"}) {
        INFO(extension);
        Simple s;
        s.repo.git("config core.repositoryformatversion 1");
        s.repo.git(std::string("config extensions.") + extension + " true");
        REQUIRE(s.repo.git_status("log -1 --oneline").status == 0);
        auto o = s.anchor("a.c:1");
        INFO(o.out << o.err);
        CHECK(o.status == 0);
    }
}

TEST_CASE("bad input B21: a repository owned by another user") {
    if (geteuid() != 0) {
        WARN("needs root to hand a fixture to another user; run the suite as root to cover it");
        return;
    }
    Simple s;
    REQUIRE(cptest::sh("chown -R nobody " + q(s.repo.dir())).status == 0);
    usage_error(s.anchor("a.c:1"), "git config --global --add safe.directory " + s.repo.dir());
}

TEST_CASE("bad input B22: a bare repository") {
    Simple s;
    Repo bare(true);
    s.repo.git("push -q " + q(bare.dir()) + " main");
    auto o = context_pack(bare.dir(), "--table --base " + s.base + " --anchor a.c:2");
    CHECK(o.status == 0);
    CHECK(o.out.find("-> target " + s.base.substr(0, 10)) != std::string::npos);
}

TEST_CASE("bad input B23: a linked worktree") {
    Simple s;
    cptest::TempDir parent;
    auto wt = parent.path() + "/wt";
    s.repo.git("worktree add -q " + q(wt));
    cptest::sh("printf 'new\\n' | cat - " + q(wt + "/a.c") + " > " + q(wt + "/n") + " && mv " +
               q(wt + "/n") + " " + q(wt + "/a.c"));
    auto o = context_pack(wt, "--table --base " + s.base + " --anchor a.c:2");
    CHECK(o.status == 0);
    CHECK(o.out.find("MOVED") != std::string::npos);
    s.repo.git("worktree remove --force " + q(wt));
}

TEST_CASE("bad input B24: submodules") {
    Simple s;
    s.repo.git("update-index --add --cacheinfo 160000," + s.base + ",vendor");
    s.repo.git("commit -q -m submodule");
    auto base = s.repo.head();
    auto o = s.run("--table --base " + base + " --anchor vendor:1 --anchor vendor/x.c:1");
    unresolved(o, "vendor is a submodule at base, not a file");
    CHECK(o.out.find("vendor/x.c lies inside submodule vendor") != std::string::npos);
}

TEST_CASE("bad input B25: index.lock held") {
    Simple s;
    cptest::sh("echo held > " + q(s.repo.at(".git/index.lock")));
    CHECK(s.anchor("a.c:1").status == 0);
    CHECK(s.repo.read(".git/index.lock") == "held\n");
}

TEST_CASE("bad input B26: paths that leave the repository") {
    Simple s;
    auto o = s.run("--table --base " + s.base +
                   " --anchor ../x.c:1 --anchor /etc/hostname:1 --anchor a.c:1");
    unresolved(o, "leaves the repository through '..'");
    CHECK(o.out.find("is absolute") != std::string::npos);
    CHECK(o.out.find("3  read  a.c:1") != std::string::npos);
}

TEST_CASE("bad input B27: a 10 MiB single line") {
    Simple s;
    s.repo.write("long.txt", "head widget\n" + std::string(10 << 20, 'x') + " widget\n");
    auto base = s.repo.commit();
    auto o = s.run("--base " + base + " --anchor long.txt:1-2@widget");
    CHECK(o.status == 0);
    CHECK(o.out.size() < 10000);
    CHECK(o.out.find(" … (+" + std::to_string((10 << 20) + 7 - 300) + " bytes)") !=
          std::string::npos);
}

TEST_CASE("bad input B28: a 50,000-line range") {
    Simple s;
    s.repo.write("big.txt", cptest::numbered(50000));
    auto base = s.repo.commit();
    auto o = s.run("--base " + base + " --anchor big.txt:1-50000");
    CHECK(o.status == 0);
    CHECK(o.out.find(">   100 | L100\n") != std::string::npos);
    CHECK(o.out.find("101 | L101\n") == std::string::npos);
    CHECK(o.out.find("… +49900 lines (big.txt:101-50000)") != std::string::npos);
}

TEST_CASE("bad input B29: 100,000 anchors") {
    Simple s;
    std::string spec = "{\"base\": \"HEAD\", \"reads\": [";
    for (int i = 0; i < 100000; ++i)
        spec += std::string(i ? "," : "") +
                "{\"location\": {\"path\": \"a.c\", \"line\": " + std::to_string(i % 10 + 1) + "}}";
    spec += "]}";
    auto o = s.run("--table -", spec);
    CHECK(o.status == 0);
    CHECK(std::count(o.out.begin(), o.out.end(), '\n') == 100002);
    CHECK(o.out.find("100000 anchors: 100000 SAME") != std::string::npos);
}

TEST_CASE("bad input B30: files over the size limit are never read whole") {
    Simple s;
    std::string big;
    for (int i = 0; i < 40000; ++i) big += "int huge_" + std::to_string(i) + ";\n";  // ~0.6 MiB
    big += big + big;                                                                // ~1.8 MiB
    s.repo.write("big.c", big);
    s.repo.write("uses.c", "int huge_7;\n");
    s.repo.write("grows.c", "int grows;\n");
    auto base = s.repo.commit();
    s.repo.write("big.c", "// edited\n" + big);
    s.repo.write("grows.c", "int grows;\n" + big);
    const std::string limit = " --max-file-mib 1";
    auto at_base = s.run("--table" + limit + " --base " + base + " --anchor big.c:2@huge_1");
    unresolved(at_base,
               "big.c is 1 MiB at base, over the 1 MiB the tool reads; raise "
               "--max-file-mib to carry it");
    auto grown = s.run("--table" + limit + " --base " + base + " --anchor grows.c:1");
    unresolved(grown, "grows.c is over the 1 MiB the tool reads at target");
    // The same file read in full without the limit.
    auto full = s.run("--table --base " + base + " --anchor big.c:2@huge_1");
    CHECK(full.status == 0);
    CHECK(full.out.find("MOVED") != std::string::npos);
    // Callers skip it: only uses.c is searched for a symbol found in both files.
    auto callers = s.run("--format json" + limit + " --base " + base + " --anchor uses.c:1@huge_7");
    INFO(callers.out);
    CHECK(callers.out.find("\"path\": \"uses.c\"") != std::string::npos);
    CHECK(callers.out.find("\"path\": \"big.c\"") == std::string::npos);
}

namespace {

// A commit holding one file `depth` directories deep (d/d/.../f), made with git fast-import
// in one process; its parent is `parent`. Returns the commit's full hash.
std::string deep_commit(const Repo& repo, int depth, const std::string& parent) {
    std::string path;
    for (int i = 0; i < depth; ++i) path += "d/";
    const std::string ref = "refs/heads/deep" + std::to_string(depth);
    std::string stream = "commit " + ref + "\ncommitter A <a@b> 0 +0000\ndata 0\nfrom " + parent +
                         "\nM 100644 inline " + path + "f\ndata 2\nx\n\n";
    auto imported = cptest::sh("cd " + q(repo.dir()) + " && git fast-import --quiet", stream);
    REQUIRE(imported.status == 0);
    auto id = repo.git("rev-parse " + ref);
    return id.substr(0, id.find_last_not_of(" \n") + 1);
}

}  // namespace

TEST_CASE("bad input B31: a tree deeper than core.maxTreeDepth") {
    Simple s;
    auto deep = deep_commit(s.repo, 13000, s.base);
    const std::string refused = "a tree is more than 4096 directories deep (at d/d/d/";
    // Diffing onto it, and walking it for callers, are refused in one line; neither crashes.
    usage_error(s.anchor("a.c:1", "--target " + deep), refused);
    usage_error(s.run("--base " + deep + " --target " + deep + " --anchor a.c:1@L1"), refused);
    // A bare repository whose HEAD is that commit: the default target is HEAD. git 2.43 and
    // later refuse such a tree on both sides of a push by their own core.maxTreeDepth; both
    // are told a larger one for the push alone, so the bare repository keeps the default.
    Repo bare(true);
    REQUIRE(cptest::sh("git -C " + q(s.repo.dir()) + " -c core.maxTreeDepth=20000 push -q " +
                       "--receive-pack='git -c core.maxTreeDepth=20000 receive-pack' " +
                       q(bare.dir()) + " deep13000:refs/heads/main")
                .status == 0);
    bare.git("symbolic-ref HEAD refs/heads/main");
    usage_error(context_pack(bare.dir(), "--table --base " + s.base + " --anchor a.c:1"), refused);
    // Within the limit the same shape is carried; the limit is git's setting.
    auto shallow = deep_commit(s.repo, 100, s.base);
    auto fine = s.anchor("a.c:1", "--target " + shallow);
    INFO(fine.err);
    CHECK(fine.status == 0);
    s.repo.git("config core.maxTreeDepth 50");
    usage_error(s.anchor("a.c:1", "--target " + shallow), "more than 50 directories deep");
    s.repo.git("config core.maxTreeDepth nonsense");
    usage_error(s.anchor("a.c:1"), "core.maxTreeDepth must be a positive integer");
}

TEST_CASE("bad input B32: a suggested command is safe to paste") {
    Simple s;
    // A revision that is shell code: named escaped in prose, never inside a command.
    bad_base(s, "v1.2$(touch${IFS}PWNED)",
             "v1.2$(touch${IFS}PWNED) not in this repository; if it is on the "
             "remote, fetch it (git fetch origin) or give its full commit id");
    CHECK(s.spec_base("v1.2$(touch${IFS}PWNED)").out.find("git fetch origin v1.2") ==
          std::string::npos);
    // Names a fetch cannot bring by themselves get no fetch command of their own.
    for (const char* rev : {"HEAD~3", "--", "no-such-branch"}) {
        for (const auto& o : {s.spec_base(rev), s.cli_base(rev)}) {
            INFO(rev << ": " << o.out << o.err);
            CHECK(o.status >= 1);
            CHECK((o.out + o.err).find(std::string("git fetch origin ") + rev) ==
                  std::string::npos);
        }
    }
    // Control bytes in a revision are shown escaped in the reason.
    bad_base(s, "x\033[31my", "'x\\x1b[31my' is not a valid revision");
    // A whole object id is fetched by id, as before (B04).
    const std::string id = "1234567890abcdef1234567890abcdef12345678";
    bad_base(s, id, id + " not in this repository: git fetch origin " + id);
}

namespace {

// Control bytes a terminal would act on: C0 but newline and tab, DEL, C1 in UTF-8.
bool has_raw_controls(const std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return true;
        if (c == 0xc2 && i + 1 < text.size() &&
            (static_cast<unsigned char>(text[i + 1]) & 0xe0) == 0x80)
            return true;
    }
    return false;
}

}  // namespace

TEST_CASE("bad input B33: control bytes in contents, names and spec text") {
    Repo repo;
    const std::string evil =
        "int evil;\x1b]0;pwned\x07 \r// forged\n\xc2\x9b"
        "2J\tx\n";
    repo.write("code.c", "int call_me;\n" + evil);
    repo.write("e\x1bx.c", "int call_me = 1;\n");
    auto base = repo.commit();
    const std::string spec = R"({"id": "plan\u001b[2J", "base": ")" + base + R"(",
            "file_changes": [{"location": {"path": "code.c", "line": 1, "end_line": 3,
                                           "symbol": "call_me"},
                              "change": "make it\u001b[31m red"},
                             {"location": {"path": "e\u001bx.c", "line": 1}}]})";
    auto text = context_pack(repo.dir(), "--color never -", spec);
    INFO(cptest::sh("printf '%s' " + q(text.out) + " | cat -v").out);
    CHECK(text.status == 0);
    CHECK_FALSE(has_raw_controls(text.out));
    CHECK(text.out.find("plan\\x1b[2J") != std::string::npos);          // the spec's id
    CHECK(text.out.find("make it\\x1b[31m red") != std::string::npos);  // its note
    CHECK(text.out.find("e\\x1bx.c:1") != std::string::npos);           // a file name
    CHECK(text.out.find("int evil;\\x1b]0;pwned\\x07 \\x0d// forged") != std::string::npos);
    CHECK(text.out.find("\\u009b2J\tx") != std::string::npos);  // a tab stays a tab
    // JSON carries the exact text: C0 bytes escaped as JSON escapes them, the rest as it is.
    auto json = context_pack(repo.dir(), "--format json -", spec);
    CHECK(json.out.find(R"(plan\u001b[2J)") != std::string::npos);
    CHECK(json.out.find("\x1b") == std::string::npos);
    CHECK(json.out.find("\xc2\x9b"
                        "2J") != std::string::npos);
}

TEST_CASE("bad input B34: a backslash in a path is part of its name") {
    Simple s;
    s.repo.write("win\\style.c", "int w;\n");
    auto base = s.repo.commit();
    auto o = s.run("--table --base " + base + " --anchor 'win\\style.c:1'");
    INFO(o.out << o.err);
    CHECK(o.status == 0);
    CHECK(o.out.find("win\\style.c:1  SAME    win\\style.c:1") != std::string::npos);
    // Meant as a separator: absent under that name, and the note says how to write it.
    auto meant = s.run("--table --base " + base + " --anchor 'dir\\b.c:1'");
    CHECK(meant.out.find("dir\\b.c absent at base; not yet at target; its \\ is part of the "
                         "file's name (directories are separated by /)") != std::string::npos);
}

TEST_CASE("bad input B35: a count in a revision past what git takes") {
    Simple s;
    bad_base(s, "HEAD@{9999999999999999999}",
             "'HEAD@{9999999999999999999}' is not a valid revision");
    bad_base(s, "HEAD~99999999999", "'HEAD~99999999999' is not a valid revision");
    usage_error(s.anchor("a.c:1", "--target 'HEAD^4294967297'"),
                "--target 'HEAD^4294967297' is not a valid revision");
    // Counts in range are as git takes them.
    auto fine = s.run("--table --base 'HEAD~0' --anchor a.c:1");
    CHECK(fine.status == 0);
}

TEST_CASE("bad input B83: a revision holding a NUL byte is refused, never cut at it") {
    Simple s;
    const std::string rev = std::string("HEAD") + '\0' + "evil";
    const std::string reason =
        "'HEAD\\x00evil' holds a NUL byte, which no revision can; write "
        "it without one";
    unresolved(s.spec_base(rev), "base " + reason);
    const std::string spec = R"({"base": "HEAD", "target": )" + nlohmann::json(rev).dump() +
                             R"(, "reads": [{"location": {"path": "a.c", "line": 1}}]})";
    auto o = context_pack(s.repo.dir(), "--table -", spec);
    unresolved(o, "target " + reason);
    CHECK(o.out.find("SAME") == std::string::npos);
}

namespace {

// The lines of `text` that start with `prefix`.
std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.starts_with(prefix)) out.push_back(line);
    return out;
}

}  // namespace

TEST_CASE("bad input B77: unknown keys are named on stderr and in the JSON's warnings") {
    Simple s;
    s.repo.write("plan.json", R"({"base": ")" + s.base + R"(", "bse": "x",
      "file_changes": [{"location": {"path": "a.c", "line": 1}},
                       {"location": {"path": "a.c", "line": 2, "endline": 3}, "chnage": "c"}],
      "reads": [{"location": {"path": "a.c", "line": 4, "Symbol": "L4"}, "zz": 1, "end_line": 5}]})");
    const std::vector<std::string> expected = {
        "context-pack: plan.json: unknown key 'bse'; did you mean 'base'?",
        "context-pack: plan.json: file_changes[1].location: unknown key 'endline'; did you mean "
        "'end_line'?",
        "context-pack: plan.json: file_changes[1]: unknown key 'chnage'; did you mean 'change'?",
        "context-pack: plan.json: reads[0].location: unknown key 'Symbol'; did you mean 'symbol'?",
        "context-pack: plan.json: reads[0]: unknown key 'end_line'; did you mean "
        "'location.end_line'?",
        "context-pack: plan.json: reads[0]: unknown key 'zz'",
    };
    // Accepted: the pack is printed and the exit status is the anchors' alone.
    auto o = s.run("--table plan.json");
    INFO(o.out << o.err);
    CHECK(o.status == 0);
    CHECK(o.out.find("3 SAME") != std::string::npos);
    CHECK(lines_starting(o.err, "context-pack: ") == expected);

    auto json = s.run("--format json plan.json");
    CHECK(json.status == 0);
    auto doc = nlohmann::json::parse(json.out);
    std::vector<std::string> in_json;
    for (const auto& line : expected) in_json.push_back(line.substr(25));  // no source
    CHECK(doc["specs"][0]["warnings"] == in_json);
    CHECK(doc["exit_status"] == 0);

    // --at-base, the planner's check, fails on them and says so in a closing line.
    auto check = s.run("--at-base --table plan.json");
    CHECK(check.status == 1);
    auto said = lines_starting(check.err, "context-pack: ");
    REQUIRE(said.size() == expected.size() + 1);
    CHECK(said.back() ==
          "context-pack: --at-base: 6 unknown keys in the plan, so the check fails (exit status "
          "1); mend or remove them");
    auto check_json = s.run("--at-base --format json plan.json");
    CHECK(check_json.status == 1);
    CHECK(nlohmann::json::parse(check_json.out)["exit_status"] == 1);

    // Without unknown keys: nothing on stderr, an empty array, --at-base passes.
    s.repo.write("clean.json", R"({"base": ")" + s.base +
                                   R"(", "reads": [{"location": {"path": "a.c", "line": 4}}]})");
    auto clean = s.run("--at-base --format json clean.json");
    CHECK(clean.status == 0);
    CHECK(clean.err.empty());
    CHECK(nlohmann::json::parse(clean.out)["specs"][0]["warnings"] == nlohmann::json::array());
}

TEST_CASE("bad input B77: at most ten unknown keys on stderr, then the count of the rest") {
    Simple s;
    std::string extra;
    for (int i = 0; i < 13; ++i) extra += fmt::format(R"("x{:02}": 1, )", i);
    auto spec = "{" + extra + R"("base": ")" + s.base +
                R"(", "reads": [{"location": {"path": "a.c", "line": 1}}]})";
    auto o = s.run("--table -", spec);
    INFO(o.err);
    CHECK(o.status == 0);
    auto said = lines_starting(o.err, "context-pack: ");
    REQUIRE(said.size() == 11);
    CHECK(said[0] == "context-pack: <stdin>: unknown key 'x00'");
    CHECK(said[9] == "context-pack: <stdin>: unknown key 'x09'");
    CHECK(said[10] ==
          "context-pack: 3 more unknown keys not shown; --format json lists every one in each "
          "spec's warnings");
    auto json = s.run("--format json -", spec);
    CHECK(nlohmann::json::parse(json.out)["specs"][0]["warnings"].size() == 13);
    // The count covers every spec of the input; --at-base's line comes after it.
    auto check = s.run("--at-base --table -", spec);
    CHECK(check.status == 1);
    auto checked = lines_starting(check.err, "context-pack: ");
    REQUIRE(checked.size() == 12);
    CHECK(checked.back().find("--at-base: 13 unknown keys in the plan") != std::string::npos);
}

TEST_CASE("bad input B78: a read of a path absent at base is UNRESOLVED, an edit there is NEW") {
    Simple s;
    s.repo.write("plan.json", R"({"base": ")" + s.base + R"(",
      "file_changes": [{"location": {"path": "new.c", "line": 1}}],
      "reads": [{"location": {"path": "new.c", "line": 1}}, {"location": {"path": "a.c", "line": 1}}]})");
    for (bool created : {false, true}) {
        INFO("created at the target: " << created);
        if (created) s.repo.write("new.c", "int n;\n");  // the plan's file, made since
        auto o = s.run("--format json plan.json");
        INFO(o.out << o.err);
        CHECK(o.status == 1);
        auto anchors = nlohmann::json::parse(o.out)["specs"][0]["anchors"];
        REQUIRE(anchors.size() == 3);
        CHECK(anchors[0]["status"] == "NEW");
        CHECK(anchors[0]["exists_at_target"] == created);
        CHECK(anchors[1]["status"] == "UNRESOLVED");
        CHECK(anchors[1]["reason"] ==
              "new.c absent at base: a read names a file the base has (a file the plan creates "
              "belongs in file_changes)");
        CHECK(anchors[1]["to"].is_null());
        CHECK(anchors[2]["status"] == "SAME");
    }
    // An --anchor stays NEW, as before: it is a look at a path, not a plan's read.
    auto adhoc = s.anchor("none.c:1");
    CHECK(adhoc.status == 0);
    CHECK(adhoc.out.find("NEW") != std::string::npos);
}

TEST_CASE("bad input B79: a NEW path close to one at base says which it may have meant") {
    Repo repo;
    repo.write("src/parser.c", "int parse;\n");
    repo.write("lib/util.c", "int u;\n");
    repo.write("test/util.c", "int t;\n");
    repo.write("src/cache.h", "int c;\n");
    auto base = repo.commit();
    auto plan = [&](const std::string& kind, const std::string& path) {
        return R"({"base": ")" + base + R"(", ")" + kind + R"(": [{"location": {"path": ")" + path +
               R"(", "line": 1}}]})";
    };
    auto reason = [&](const std::string& kind, const std::string& path) {
        auto o = context_pack(repo.dir(), "--at-base --format json -", plan(kind, path));
        INFO(o.out << o.err);
        auto a = nlohmann::json::parse(o.out)["specs"][0]["anchors"][0];
        CHECK(a["status"] == (kind == "reads" ? "UNRESOLVED" : "NEW"));
        return a["reason"].get<std::string>();
    };
    // A one-byte typo, and a basename found elsewhere (the candidates sorted).
    CHECK(reason("file_changes", "src/parsr.c") ==
          "src/parsr.c absent at base; not yet at target; did you mean src/parser.c?");
    CHECK(reason("file_changes", "src/util.c") ==
          "src/util.c absent at base; not yet at target; did you mean lib/util.c or test/util.c?");
    // Nothing close: no note; nor for another extension beside it (a new cache.c by cache.h).
    CHECK(reason("file_changes", "src/lexer.c") == "src/lexer.c absent at base; not yet at target");
    CHECK(reason("file_changes", "src/cache.c") == "src/cache.c absent at base; not yet at target");
    // A read absent at base gets the same note.
    CHECK(reason("reads", "src/Parser.c").ends_with("; did you mean src/parser.c?"));
    // Once the file is at the target it is the plan's new file: no note.
    repo.write("src/parsr.c", "int p;\n");
    auto at_target =
        context_pack(repo.dir(), "--format json -", plan("file_changes", "src/parsr.c"));
    CHECK(nlohmann::json::parse(at_target.out)["specs"][0]["anchors"][0]["reason"] ==
          "src/parsr.c absent at base; present at target");
}

TEST_CASE("bad input B79: each spec's near misses are its own base's paths, bases interleaved") {
    Repo repo;
    repo.write("src/parser.c", "int p;\n");
    auto first = repo.commit();
    repo.remove("src/parser.c");
    repo.write("src/lexer.c", "int l;\n");
    auto second = repo.commit();
    auto line = [](const std::string& base, const std::string& path) {
        return R"({"base": ")" + base + R"(", "file_changes": [{"location": {"path": ")" + path +
               R"(", "line": 1}}]})" + "\n";
    };
    repo.write("plans.jsonl", line(first, "src/parsr.c") + line(second, "src/parsr.c") +
                                  line(second, "src/lexr.c") + line(first, "src/lexr.c") +
                                  line(first, "src/parser_.c"));
    auto o = context_pack(repo.dir(), "--at-base --format json plans.jsonl");
    INFO(o.out << o.err);
    auto specs = nlohmann::json::parse(o.out)["specs"];
    REQUIRE(specs.size() == 5);
    auto reason = [&](std::size_t i) {
        return specs[i]["anchors"][0]["reason"].get<std::string>();
    };
    CHECK(reason(0).ends_with("; did you mean src/parser.c?"));
    CHECK(reason(1) == "src/parsr.c absent at base; not yet at target");
    CHECK(reason(2).ends_with("; did you mean src/lexer.c?"));
    CHECK(reason(3) == "src/lexr.c absent at base; not yet at target");
    CHECK(reason(4).ends_with("; did you mean src/parser.c?"));
}

TEST_CASE("bad input B92: an empty repository's HEAD, and an index of zero bytes, said as such") {
    // Not "fetch it": a repository without a commit has nothing a fetch of a name would bring.
    cptest::TempDir dir;
    REQUIRE(cptest::sh("git init -q " + q(dir.path())).status == 0);
    usage_error(context_pack(dir.path(), "--base HEAD --anchor a.c:1"),
                "--base HEAD not in this repository, which has no commits yet; commit first, or "
                "run in the repository the plan was written against");
    // An index git too calls too short ("index file smaller than expected"), not one that "no
    // longer exists"; a commit target does not read it.
    Simple s;
    std::ofstream(s.repo.at(".git/index"), std::ios::trunc).flush();
    usage_error(s.anchor("a.c:1"),
                "/.git/index is 0 bytes, too short to be an index, as git "
                "says too: rebuild it from HEAD (git reset), or pass --target "
                "REV");
    CHECK(s.anchor("a.c:1", "--target HEAD").status == 0);
}

TEST_CASE("bad input B93: a spec that gives one key twice in an object") {
    // A parser keeps one of them: --repin rewrote the first, shadowed array with the second's
    // answers. Refused, in every mode.
    Simple s;
    const std::string twice =
        R"({"base": "HEAD", "reads": [{"location": {"path": "a.c", "line": 1}}],)"
        R"( "reads": [{"location": {"path": "a.c", "line": 2, "line": 3}}]})";
    for (const char* mode : {"--table", "--repin --target HEAD"}) {
        INFO(mode);
        usage_error(s.run(std::string(mode) + " -", twice),
                    "the key 'reads' is given twice in one object, and a JSON parser keeps only "
                    "one of them; give it once");
    }
    usage_error(s.run("--table -", R"({"base": "HEAD", "reads": [{"location": {"path": "a.c",)"
                                   R"( "line": 2, "line": 3}}]})"),
                "the key 'line' is given twice");
}

TEST_CASE("bad input B95: a tracked file replaced by a FIFO or a socket in the work tree") {
    // Neither holds the file's lines any more: its anchor GONE, the rest of the pack printed;
    // never a hang on the FIFO, never the whole run refused for the socket.
    for (const char* make :
         {"mkfifo dir/b.c",
          "perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => "
          "\"dir/b.c\", Listen => 1) or die $!'"}) {
        INFO(make);
        Simple s;
        REQUIRE(cptest::sh("cd " + q(s.repo.dir()) + " && rm dir/b.c && " + make).status == 0);
        auto o = cptest::sh("cd " + q(s.repo.dir()) + " && " + q(cptest::binary()) +
                                " --table --base " + s.base + " --anchor dir/b.c:1 --anchor a.c:2",
                            "", std::chrono::seconds(20));
        INFO(o.out << o.err);
        CHECK(o.status == 1);
        CHECK(o.err.empty());
        CHECK(o.out.find("dir/b.c:1  GONE") != std::string::npos);
        CHECK(o.out.find("a.c:2      SAME") != std::string::npos);
    }
}
