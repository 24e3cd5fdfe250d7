// libFuzzer target: the index reader (cp::git::read_index_file, read_index_entries) on
// arbitrary bytes written as an index file. Any answer is fine, but it must not crash, hang
// or read out of bounds, and what it reads must hold together: both readers take the same
// files, the entry count is the header's, the entries are in the bytes, and each path asked
// of read_index_entries comes back with the flags read_index_file gave it.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "context_pack/git/index_file.hpp"

namespace {

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "fuzz_index: %s\n", what);
    std::abort();
}

// One scratch file for the whole run, rewritten for every input (in memory where it can be).
const std::string& scratch() {
    static const std::string path = [] {
        std::string dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        std::string tmpl = dir + "/fuzz-index-XXXXXX";
        int fd = mkstemp(tmpl.data());
        if (fd < 0) fail("mkstemp");
        close(fd);
        return tmpl;
    }();
    static const bool removed_at_exit = std::atexit([] { unlink(path.c_str()); }) == 0;
    (void)removed_at_exit;
    return path;
}

void write_file(const std::uint8_t* data, std::size_t size) {
    std::FILE* f = std::fopen(scratch().c_str(), "wb");
    if (!f) fail("cannot write the scratch file");
    if (size && std::fwrite(data, 1, size, f) != size) fail("short write");
    std::fclose(f);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    write_file(data, size);
    auto whole = cp::git::read_index_file(scratch());
    std::set<std::string, std::less<>> paths;
    if (whole)
        for (std::size_t i = 0; i < whole->entries.size() && i < 8; ++i)
            paths.insert(whole->entries[i].path);
    paths.insert(".gitattributes");
    auto some = cp::git::read_index_entries(scratch(), paths);
    if (whole.has_value() != some.has_value()) fail("the two readers disagree on the file");
    if (!whole) return 0;

    // A header, entries of at least 62 bytes each padded to 8, a checksum.
    if (size < 32) fail("read a file shorter than a header and a checksum");
    const std::uint32_t count = std::uint32_t(data[8]) << 24 | std::uint32_t(data[9]) << 16 |
                                std::uint32_t(data[10]) << 8 | data[11];
    if (whole->entries.size() != count) fail("entry count differs from the header's");
    std::size_t bytes = 12 + 20;
    for (const auto& r : whole->entries) {
        bytes += (62 + r.path.size() + 8) & ~std::size_t(7);
        if (r.flags.mode != r.mode) fail("the entry's mode read twice, differently");
        if (r.flags.stage < 0 || r.flags.stage > 3) fail("stage out of range");
    }
    if (bytes > size) fail("entries larger than the file");

    std::map<std::string, std::vector<cp::git::IndexEntry>> expected;
    for (const auto& r : whole->entries)
        if (paths.count(r.path)) expected[r.path].push_back(r.flags);
    if (some->entries.size() != expected.size()) fail("read_index_entries found other paths");
    for (const auto& [path, entries] : expected) {
        auto it = some->entries.find(path);
        if (it == some->entries.end() || it->second.size() != entries.size())
            fail("read_index_entries lost an entry");
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const auto &a = entries[i], &b = it->second[i];
            if (a.mode != b.mode || a.stage != b.stage || a.assume_valid != b.assume_valid ||
                a.skip_worktree != b.skip_worktree || a.intent_to_add != b.intent_to_add)
                fail("the two readers read an entry differently");
        }
    }
    for (const auto& [path, id] : some->attributes) {
        std::string_view p = path;
        if (p != ".gitattributes" && !p.ends_with("/.gitattributes"))
            fail("an attributes file that is not one");
    }
    return 0;
}
