// The direct reader of git's index file (index_file.hpp) against git itself: indexes that git
// writes (versions 2 and 3, extended flags, conflicts, the extensions it skips) read field for
// field as `git ls-files -s --debug` shows them; the shapes it must refuse (version 4, a split
// or a sparse index) refused; and hand-built bytes, first checked to be an index git reads,
// then damaged one way at a time (truncated, a bad signature or version, an entry cut short,
// a path without its NUL, a count larger than the file), each refused.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "context_pack/git/index_file.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/git_diff.hpp"

namespace {

using cp::git::IndexFile;
using cp::git::IndexRecord;
using cp::git::read_index_entries;
using cp::git::read_index_file;
using cptest::q;
using cptest::Repo;
using cptest::split_lines;
using cptest::trim;

using Id = std::array<unsigned char, 20>;

Id id_of_hex(const std::string& hex) {
    REQUIRE(hex.size() == 40);
    Id id{};
    for (std::size_t i = 0; i < id.size(); ++i)
        id[i] = static_cast<unsigned char>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    return id;
}

std::string hex_of(const Id& id) {
    std::string out;
    char buf[3];
    for (unsigned char c : id) {
        std::snprintf(buf, sizeof buf, "%02x", c);
        out += buf;
    }
    return out;
}

// Every field of every entry, one line each, so that two reads compare as text.
std::string show(const IndexFile& file) {
    std::ostringstream out;
    for (const IndexRecord& r : file.entries)
        out << std::oct << r.mode << std::dec << " " << hex_of(r.id) << " " << r.flags.stage << " "
            << r.path << " ctime " << r.ctime_s << ":" << r.ctime_ns << " mtime " << r.mtime_s
            << ":" << r.mtime_ns << " dev " << r.dev << " ino " << r.ino << " uid " << r.uid
            << " gid " << r.gid << " size " << r.size << (r.flags.assume_valid ? " A" : "")
            << (r.flags.skip_worktree ? " S" : "") << (r.flags.intent_to_add ? " I" : "")
            << (r.flags.mode == r.mode ? "" : " (flags.mode differs)") << "\n";
    return out.str();
}

// The index as git reads it: `git ls-files -s --debug` with git's in-memory flags
// (CE_VALID 0x8000, the stage at bit 12, CE_SKIP_WORKTREE 1 << 30, CE_INTENT_TO_ADD 1 << 29).
IndexFile git_view(const Repo& repo, const std::string& env = "") {
    auto o = cptest::sh("cd " + q(repo.dir()) + " && " + env + " git ls-files -s --debug");
    INFO(o.err);
    REQUIRE(o.status == 0);
    IndexFile out;
    auto lines = split_lines(o.out);
    REQUIRE(lines.size() % 6 == 0);
    for (std::size_t i = 0; i < lines.size(); i += 6) {
        IndexRecord& r = out.entries.emplace_back();
        const std::string& head = lines[i];
        auto tab = head.find('\t');
        REQUIRE(tab != std::string::npos);
        r.path = head.substr(tab + 1);
        unsigned mode = 0, stage = 0;
        char hex[41] = {};
        REQUIRE(std::sscanf(head.c_str(), "%o %40s %u", &mode, hex, &stage) == 3);
        r.mode = r.flags.mode = mode;
        r.id = id_of_hex(hex);
        unsigned long flags = 0;
        REQUIRE(std::sscanf(lines[i + 1].c_str(), "  ctime: %u:%u", &r.ctime_s, &r.ctime_ns) == 2);
        REQUIRE(std::sscanf(lines[i + 2].c_str(), "  mtime: %u:%u", &r.mtime_s, &r.mtime_ns) == 2);
        REQUIRE(std::sscanf(lines[i + 3].c_str(), "  dev: %u\tino: %u", &r.dev, &r.ino) == 2);
        REQUIRE(std::sscanf(lines[i + 4].c_str(), "  uid: %u\tgid: %u", &r.uid, &r.gid) == 2);
        REQUIRE(std::sscanf(lines[i + 5].c_str(), "  size: %u\tflags: %lx", &r.size, &flags) == 2);
        r.flags.stage = int(stage);
        REQUIRE(int((flags >> 12) & 3) == r.flags.stage);
        r.flags.assume_valid = flags & 0x8000;
        r.flags.skip_worktree = flags & (1ul << 30);
        r.flags.intent_to_add = flags & (1ul << 29);
    }
    return out;
}

std::string index_path(const Repo& repo) {
    return repo.at(".git/index");
}

// Shell commands in the repository; a failure fails the test.
void run_in(const Repo& repo, const std::string& commands) {
    auto done = cptest::sh("cd " + q(repo.dir()) + " && " + commands);
    INFO(commands << "\n" << done.err);
    REQUIRE(done.status == 0);
}

std::uint32_t index_version(const std::string& bytes) {
    REQUIRE(bytes.size() >= 8);
    auto b = [&](std::size_t i) { return std::uint32_t(static_cast<unsigned char>(bytes[i])); };
    return b(4) << 24 | b(5) << 16 | b(6) << 8 | b(7);
}

// The repository's index read by read_index_file equals git's view of it, and carries the
// index file's own modification time.
void check_reads_as_git_does(const Repo& repo) {
    auto ours = read_index_file(index_path(repo));
    REQUIRE(ours.has_value());
    CHECK(show(*ours) == show(git_view(repo)));
    auto time = cptest::mtime_of(index_path(repo));
    CHECK(ours->mtime_s == time.seconds);
    CHECK(ours->mtime_ns == time.nanoseconds);
}

// Both readers refuse the file.
void check_refused(const std::string& file) {
    CHECK_FALSE(read_index_file(file).has_value());
    CHECK_FALSE(read_index_entries(file, {"a.txt"}).has_value());
}

// ---------------------------------------------------------------------------------------------
// Index bytes by hand

void put32(std::string& out, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out += char((v >> shift) & 0xff);
}
void put16(std::string& out, std::uint16_t v) {
    out += char(v >> 8);
    out += char(v & 0xff);
}

// One entry as git writes it in versions 2 and 3: the stat data, the id, the flags (with the
// extended ones when set), the path, then 1 to 8 NULs to a multiple of 8. `name_length`
// overrides the 12-bit length field.
std::string entry_bytes(const IndexRecord& r, std::optional<std::uint16_t> name_length = {}) {
    std::string out;
    for (std::uint32_t v :
         {r.ctime_s, r.ctime_ns, r.mtime_s, r.mtime_ns, r.dev, r.ino, r.mode, r.uid, r.gid, r.size})
        put32(out, v);
    out.append(reinterpret_cast<const char*>(r.id.data()), r.id.size());
    const bool extended = r.flags.skip_worktree || r.flags.intent_to_add;
    std::uint16_t flags =
        name_length ? *name_length : std::uint16_t(std::min<std::size_t>(r.path.size(), 0xfff));
    flags |= std::uint16_t(r.flags.stage << 12);
    if (r.flags.assume_valid) flags |= 0x8000;
    if (extended) flags |= 0x4000;
    put16(out, flags);
    if (extended)
        put16(out, std::uint16_t((r.flags.skip_worktree ? 0x4000 : 0) |
                                 (r.flags.intent_to_add ? 0x2000 : 0)));
    out += r.path;
    const std::size_t fixed = extended ? 64 : 62;
    out.append(((fixed + r.path.size() + 8) & ~std::size_t(7)) - fixed - r.path.size(), '\0');
    return out;
}

std::string header(std::uint32_t version, std::uint32_t count) {
    std::string out = "DIRC";
    put32(out, version);
    put32(out, count);
    return out;
}

std::string extension(const std::string& signature, const std::string& payload) {
    std::string out = signature;
    put32(out, std::uint32_t(payload.size()));
    return out + payload;
}

// The bytes with their SHA-1 appended, as git ends every index (sha1sum is GNU's, shasum
// macOS's and Perl's; both print "<hex>  -").
std::string with_checksum(const std::string& bytes) {
    auto o =
        cptest::sh("if command -v sha1sum >/dev/null; then sha1sum; else shasum -a 1; fi", bytes);
    REQUIRE(o.status == 0);
    Id sum = id_of_hex(o.out.substr(0, 40));
    return bytes + std::string(reinterpret_cast<const char*>(sum.data()), sum.size());
}

IndexRecord record(const std::string& path, std::uint32_t seed) {
    IndexRecord r;
    r.path = path;
    r.mode = r.flags.mode = 0100644;
    r.ctime_s = 1700000000 + seed;
    r.ctime_ns = 111 * seed;
    r.mtime_s = 1700000100 + seed;
    r.mtime_ns = 222 * seed;
    r.dev = 2049;
    r.ino = 4000 + seed;
    r.uid = 1000;
    r.gid = 100;
    r.size = 10 + seed;
    for (std::size_t i = 0; i < r.id.size(); ++i) r.id[i] = static_cast<unsigned char>(seed + i);
    return r;
}

std::string index_bytes(std::uint32_t version, const std::vector<IndexRecord>& entries,
                        const std::string& extensions = "") {
    std::string out = header(version, std::uint32_t(entries.size()));
    for (const auto& e : entries) out += entry_bytes(e);
    return with_checksum(out + extensions);
}

class File {
  public:
    explicit File(const std::string& bytes) : path_(dir_.path() + "/index") {
        std::ofstream(path_, std::ios::binary) << bytes;
    }
    const std::string& path() const { return path_; }

  private:
    cptest::TempDir dir_;
    std::string path_;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Indexes git writes

TEST_CASE("index file: version 2 as git writes it, every field as git ls-files --debug", "[git]") {
    Repo repo;
    repo.write("a.txt", "a\n");
    repo.write("d/b.txt", "bb\n");
    repo.write("d/deeper/c.txt", "ccc\n");
    repo.write("run.sh", "#!/bin/sh\n");
    run_in(repo, "chmod +x run.sh && ln -s a.txt link");
    auto first = repo.commit();
    repo.git("update-index --add --cacheinfo 160000," + first + ",sub");
    // A path longer than the 12-bit length field holds (git writes 0xfff and the NUL ends it);
    // --cacheinfo needs no file on disk.
    std::string long_path;
    while (long_path.size() < 5000) long_path += std::string(200, 'x') + "/";
    long_path += "end.txt";
    auto blob = trim(repo.git("rev-parse :a.txt"));
    repo.git("update-index --add --cacheinfo 100644," + blob + "," + long_path);
    repo.git("update-index --assume-unchanged d/b.txt");
    auto bytes = cptest::slurp(index_path(repo));
    REQUIRE(index_version(bytes) == 2);

    check_reads_as_git_does(repo);
    auto ours = read_index_file(index_path(repo));
    REQUIRE(ours.has_value());
    REQUIRE(ours->entries.size() == 7);
    std::set<std::string> paths;
    for (const auto& r : ours->entries) paths.insert(r.path);
    CHECK(paths.count(long_path) == 1);
    // The kinds the index holds, by mode.
    for (const auto& r : ours->entries) {
        INFO(r.path);
        if (r.path == "run.sh") CHECK(r.mode == 0100755);
        if (r.path == "link") CHECK(r.mode == 0120000);
        if (r.path == "sub") CHECK(r.mode == 0160000);
        if (r.path == "a.txt") CHECK(r.size == 2);
        CHECK(r.flags.assume_valid == (r.path == "d/b.txt"));
        CHECK_FALSE(r.flags.skip_worktree);
        CHECK_FALSE(r.flags.intent_to_add);
    }
}

TEST_CASE("index file: version 3, skip-worktree and intent-to-add as git writes them", "[git]") {
    Repo repo;
    repo.write("a.txt", "a\n");
    repo.write("d/b.txt", "b\n");
    repo.write("e/f.md", "f\n");
    repo.commit();
    auto v2 = read_index_file(index_path(repo));
    REQUIRE(v2.has_value());
    for (const auto& r : v2->entries) CHECK_FALSE(r.flags.skip_worktree);

    repo.git("update-index --skip-worktree a.txt");
    repo.write("new.txt", "n\n");
    repo.git("add -N new.txt");
    REQUIRE(index_version(cptest::slurp(index_path(repo))) == 3);  // extended flags need it
    check_reads_as_git_does(repo);
    auto v3 = read_index_file(index_path(repo));
    REQUIRE(v3.has_value());
    REQUIRE(v3->entries.size() == 4);
    for (const auto& r : v3->entries) {
        INFO(r.path);
        CHECK(r.flags.skip_worktree == (r.path == "a.txt"));
        CHECK(r.flags.intent_to_add == (r.path == "new.txt"));
    }
    auto some = read_index_entries(index_path(repo), {"a.txt", "new.txt"});
    REQUIRE(some.has_value());
    REQUIRE(some->entries.size() == 2);
    CHECK(some->entries.at("a.txt").at(0).skip_worktree);
    CHECK(some->entries.at("new.txt").at(0).intent_to_add);

    // A sparse checkout without a sparse index: skip-worktree on every path outside the cone.
    repo.git("update-index --no-skip-worktree a.txt");
    repo.git("sparse-checkout set --cone --no-sparse-index d");
    check_reads_as_git_does(repo);
    auto sparse = read_index_file(index_path(repo));
    REQUIRE(sparse.has_value());
    for (const auto& r : sparse->entries) {
        INFO(r.path);
        CHECK(r.flags.skip_worktree == (r.path == "e/f.md"));
    }
}

TEST_CASE("index file: read_index_entries gives the paths asked for and every .gitattributes",
          "[git]") {
    Repo repo;
    repo.write("a.txt", "a\n");
    repo.write("d/b.txt", "b\n");
    repo.write(".gitattributes", "*.txt text\n");
    repo.write("d/.gitattributes", "*.md -diff\n");
    repo.write("d/deep/.gitattributes", "* ident\n");
    repo.write("not.gitattributes", "x\n");    // only the name .gitattributes counts
    repo.write("d/x.gitattributes/y", "y\n");  // a directory of that suffix: no
    repo.commit();
    auto got = read_index_entries(index_path(repo), {"a.txt", "d/b.txt", "d", "missing.txt", ""});
    REQUIRE(got.has_value());
    std::set<std::string> found;
    for (const auto& [path, entries] : got->entries) found.insert(path);
    CHECK(found == std::set<std::string>{"a.txt", "d/b.txt"});  // "d" is no entry, nor ""
    REQUIRE(got->entries.at("a.txt").size() == 1);
    CHECK(got->entries.at("a.txt")[0].mode == 0100644);
    CHECK(got->entries.at("a.txt")[0].stage == 0);

    std::set<std::string> attribute_files;
    for (const auto& [path, id] : got->attributes) {
        attribute_files.insert(path);
        CHECK(hex_of(id) == trim(repo.git("rev-parse :" + path)));
    }
    CHECK(attribute_files ==
          std::set<std::string>{".gitattributes", "d/.gitattributes", "d/deep/.gitattributes"});
    // Asking for nothing still lists them.
    auto none = read_index_entries(index_path(repo), {});
    REQUIRE(none.has_value());
    CHECK(none->entries.empty());
    CHECK(none->attributes.size() == 3);
}

TEST_CASE("index file: a conflict's stages in order, a conflicted .gitattributes by its last",
          "[git]") {
    Repo repo;
    repo.write("a.txt", "base\n");
    repo.write(".gitattributes", "*.txt text\n");
    repo.commit();
    repo.git("checkout -q -b other");
    repo.write("a.txt", "theirs\n");
    repo.write(".gitattributes", "*.txt -text\n");
    repo.commit();
    repo.git("checkout -q main");
    repo.write("a.txt", "ours\n");
    repo.write(".gitattributes", "*.txt eol=lf\n");
    repo.commit();
    CHECK(repo.git_status("merge -q other").status != 0);
    REQUIRE(trim(repo.git("ls-files -u a.txt")).size() > 0);

    check_reads_as_git_does(repo);
    auto got = read_index_entries(index_path(repo), {"a.txt"});
    REQUIRE(got.has_value());
    const auto& stages = got->entries.at("a.txt");
    REQUIRE(stages.size() == 3);
    CHECK(stages[0].stage == 1);
    CHECK(stages[1].stage == 2);
    CHECK(stages[2].stage == 3);
    REQUIRE(got->attributes.count(".gitattributes") == 1);
    CHECK(hex_of(got->attributes.at(".gitattributes")) ==
          trim(repo.git("rev-parse :3:.gitattributes")));

    // Resolved, the index gains a REUC extension (resolve-undo), which is skipped.
    repo.write("a.txt", "merged\n");
    repo.write(".gitattributes", "*.txt text\n");
    repo.git("add a.txt .gitattributes");
    REQUIRE(cptest::slurp(index_path(repo)).find("REUC") != std::string::npos);
    check_reads_as_git_does(repo);
    auto resolved = read_index_entries(index_path(repo), {"a.txt"});
    REQUIRE(resolved.has_value());
    REQUIRE(resolved->entries.at("a.txt").size() == 1);
    CHECK(resolved->entries.at("a.txt")[0].stage == 0);
}

TEST_CASE("index file: the optional extensions git writes are skipped (TREE, UNTR, EOIE, IEOT)",
          "[git]") {
    struct Row {
        const char* name;
        std::string setup;
        std::vector<std::string> signatures;  // in the file afterwards
    };
    const std::vector<Row> rows = {
        {"cache tree", "true", {"TREE"}},
        {"untracked cache",
         "git update-index --untracked-cache && git status >/dev/null",
         {"TREE", "UNTR"}},
        {"end of index entries and offset table",
         "git -c index.recordEndOfIndexEntries=true -c index.recordOffsetTable=true "
         "-c index.threads=2 update-index --force-write-index",
         {"TREE", "EOIE", "IEOT"}},
        {"no extension at all", "rm .git/index && git add a.txt d/b.txt", {}},
    };
    for (const Row& row : rows) {
        INFO(row.name);
        Repo repo;
        repo.write("a.txt", "a\n");
        repo.write("d/b.txt", "b\n");
        repo.write("u.txt", "untracked\n");
        repo.git("add a.txt d/b.txt");
        repo.git("commit -q -m base");
        run_in(repo, row.setup);
        auto bytes = cptest::slurp(index_path(repo));
        for (const auto& s : row.signatures) {
            INFO(s);
            REQUIRE(bytes.find(s) != std::string::npos);
        }
        if (row.signatures.empty()) REQUIRE(bytes.find("TREE") == std::string::npos);
        check_reads_as_git_does(repo);
        auto ours = read_index_file(index_path(repo));
        REQUIRE(ours.has_value());
        CHECK(ours->entries.size() == 2);
    }
}

TEST_CASE("index file: version 4, a split index and a sparse index are refused, as git can",
          "[git]") {
    // Each is refused while it holds, and read again (equal to git's view) once undone, so
    // that the refusal is the shape's and not the repository's.
    struct Row {
        const char* name;
        std::string make, undo;
        std::string signature;  // what shows in the file, or empty
    };
    const std::vector<Row> rows = {
        {"index version 4 (compressed paths)", "git update-index --index-version 4",
         "git update-index --index-version 2", ""},
        {"a split index (link)", "git update-index --split-index",
         "git update-index --no-split-index", "link"},
        {"a sparse index (sdir)", "git sparse-checkout set --cone --sparse-index d",
         "git sparse-checkout disable", "sdir"},
    };
    for (const Row& row : rows) {
        INFO(row.name);
        Repo repo;
        repo.write("a.txt", "a\n");
        repo.write("d/b.txt", "b\n");
        repo.write("e/f.md", "f\n");
        repo.commit();
        run_in(repo, row.make);
        auto bytes = cptest::slurp(index_path(repo));
        if (row.signature.empty())
            REQUIRE(index_version(bytes) == 4);
        else
            REQUIRE(bytes.find(row.signature) != std::string::npos);
        CHECK(git_view(repo).entries.size() >= 2);  // git reads it
        check_refused(index_path(repo));
        run_in(repo, row.undo);
        check_reads_as_git_does(repo);
    }
}

// ---------------------------------------------------------------------------------------------
// Indexes built by hand

TEST_CASE("index file: hand-built versions 2 and 3 that git reads are read alike", "[git]") {
    IndexRecord plain = record("a.txt", 1);
    IndexRecord conflicted1 = record("c.txt", 2), conflicted3 = record("c.txt", 3);
    conflicted1.flags.stage = 1;
    conflicted3.flags.stage = 3;
    IndexRecord valid = record("d/assume.txt", 4);
    valid.flags.assume_valid = true;
    IndexRecord exact8 = record("e/1234567", 5);  // 62 + 9 bytes: padded by 1 NUL to 72
    IndexRecord exec = record("run.sh", 6);
    exec.mode = exec.flags.mode = 0100755;
    // Longer than the 12-bit length field: 0xfff, and the NUL ends it.
    IndexRecord longname = record(std::string(4094, 'l') + "/" + std::string(300, 'm'), 7);
    IndexRecord skipped = record("s.txt", 8);
    skipped.flags.skip_worktree = true;
    IndexRecord added = record("t.txt", 9);
    added.flags.intent_to_add = true;
    added.id = id_of_hex("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");

    // In git's order (git refuses unordered entries): by path, then stage.
    const std::vector<IndexRecord> v2 = {plain,  conflicted1, conflicted3, valid,
                                         exact8, longname,    exec};
    std::vector<IndexRecord> v3 = v2;
    v3.push_back(skipped);
    v3.push_back(added);
    for (const auto& [version, entries] : {std::pair{2u, v2}, std::pair{3u, v3}}) {
        INFO("version " << version);
        File file(index_bytes(version, entries, extension("ZZZZ", "optional, skipped")));
        // git reads these bytes as the index they stand for.
        Repo repo;
        IndexFile expected;
        expected.entries = entries;
        CHECK(show(git_view(repo, "GIT_INDEX_FILE=" + q(file.path()))) == show(expected));
        auto ours = read_index_file(file.path());
        REQUIRE(ours.has_value());
        CHECK(show(*ours) == show(expected));
        auto some = read_index_entries(file.path(), {"c.txt", "s.txt", longname.path});
        REQUIRE(some.has_value());
        CHECK(some->entries.at("c.txt").size() == 2);
        CHECK(some->entries.at(longname.path).size() == 1);
        CHECK(some->entries.count("s.txt") == (version == 3 ? 1u : 0u));
    }

    // An index with no entries at all.
    File empty(with_checksum(header(2, 0)));
    auto none = read_index_file(empty.path());
    REQUIRE(none.has_value());
    CHECK(none->entries.empty());
}

TEST_CASE("index file: damaged or foreign bytes are refused", "[git]") {
    const IndexRecord a = record("a.txt", 1), b = record("dir/b.txt", 2);
    const std::string first = entry_bytes(a), second = entry_bytes(b);
    const std::string good = header(2, 2) + first + second;
    auto with_flags_byte = [&](std::size_t offset_in_first, unsigned char value) {
        std::string out = good;
        out[12 + offset_in_first] = char(value);
        return with_checksum(out);
    };
    IndexRecord extended = a;
    extended.flags.skip_worktree = true;
    IndexRecord long_a = a;
    long_a.path = std::string(5000, 'p');
    std::string long_entry = entry_bytes(long_a);
    long_entry.resize(62 + 5000);  // the name runs to the checksum: no NUL
    struct Row {
        const char* name;
        std::string bytes;
    };
    const std::vector<Row> rows = {
        {"empty", ""},
        {"only a header", header(2, 0)},
        {"one byte short of the smallest index", with_checksum(header(2, 0)).substr(0, 31)},
        {"a bad signature", with_checksum("DIRD" + good.substr(4))},
        {"version 1", with_checksum(header(1, 2) + first + second)},
        {"version 4", with_checksum(header(4, 2) + first + second)},
        {"version 5", with_checksum(header(5, 2) + first + second)},
        {"an extended entry in version 2", with_checksum(header(2, 1) + entry_bytes(extended))},
        {"a count larger than the entries", with_checksum(header(2, 3) + first + second)},
        {"entries out of git's path order", with_checksum(header(2, 2) + second + first)},
        {"a count far larger than the file", with_checksum(header(2, 0xffffffffu) + first)},
        {"the second entry cut mid-way",
         with_checksum(header(2, 2) + first + second.substr(0, 50))},
        {"the second entry cut in its path",
         with_checksum(header(2, 2) + first + second.substr(0, 64))},
        {"a path not NUL-terminated: its length one short",
         with_flags_byte(61, static_cast<unsigned char>(a.path.size() - 1))},
        {"a path length past the end of the file", with_flags_byte(61, 0xf0)},
        {"a long path with no NUL before the end", with_checksum(header(2, 1) + long_entry)},
        {"an extension longer than the file",
         with_checksum(good + extension("TREE", "").substr(0, 4) + std::string("\0\0\1\0", 4))},
        {"bytes after the entries too few for an extension", with_checksum(good + "TRE")},
        {"an extension that ends short of the checksum",
         with_checksum(good + extension("TREE", "xy") + "1234567")},
        {"a split index (link extension)",
         with_checksum(good + extension("link", std::string(20, '\0')))},
        {"a sparse index (sdir extension)", with_checksum(good + extension("sdir", ""))},
        {"a sparse index after an optional extension",
         with_checksum(good + extension("TREE", "abc") + extension("sdir", ""))},
    };
    // The undamaged bytes read, as git reads them.
    {
        File file(with_checksum(good));
        auto ours = read_index_file(file.path());
        REQUIRE(ours.has_value());
        CHECK(ours->entries.size() == 2);
        Repo repo;
        CHECK(git_view(repo, "GIT_INDEX_FILE=" + q(file.path())).entries.size() == 2);
    }
    for (const Row& row : rows) {
        INFO(row.name << " (" << row.bytes.size() << " bytes)");
        File file(row.bytes);
        check_refused(file.path());
    }
    CHECK_FALSE(read_index_file("/nonexistent/index").has_value());
    CHECK_FALSE(read_index_entries("/nonexistent/index", {}).has_value());
    cptest::TempDir dir;  // a directory where the file would be
    CHECK_FALSE(read_index_file(dir.path()).has_value());
}

TEST_CASE("index file: every proper prefix of an index without extensions is refused", "[git]") {
    // With no extension after the entries, a cut anywhere leaves the entries running into what
    // would be the checksum, or the count unmet.
    std::string whole = index_bytes(
        2, {record("a.txt", 1), record(std::string(70, 'c'), 3), record("dir/b.txt", 2)});
    {
        File file(whole);
        REQUIRE(read_index_file(file.path()).has_value());
    }
    int refused = 0;
    for (std::size_t size = 0; size < whole.size(); ++size) {
        INFO("the first " << size << " of " << whole.size() << " bytes");
        File file(whole.substr(0, size));
        auto ours = read_index_file(file.path());
        CHECK_FALSE(ours.has_value());
        refused += !ours;
    }
    CHECK(refused == int(whole.size()));
}

TEST_CASE("index file: the checksum is not verified, as git's ordinary reads skip it", "[git]") {
    // libgit2 spends its time on the index's SHA-1; git checks it only in fsck. This reader
    // takes the trailing 20 bytes as they are, so a damaged checksum alone is still read.
    Repo repo;
    repo.write("a.txt", "a\n");
    repo.write("d/b.txt", "b\n");
    repo.commit();
    auto before = read_index_file(index_path(repo));
    REQUIRE(before.has_value());
    std::string bytes = cptest::slurp(index_path(repo));
    bytes.back() = char(bytes.back() ^ 0x5a);
    std::ofstream(index_path(repo), std::ios::binary | std::ios::trunc) << bytes;
    auto fsck = repo.git_status("fsck");
    CHECK(fsck.status != 0);
    CHECK(fsck.err.find("bad index file sha1 signature") != std::string::npos);
    CHECK(repo.git_status("ls-files").status == 0);
    auto after = read_index_file(index_path(repo));
    REQUIRE(after.has_value());
    CHECK(show(*after) == show(*before));
}
