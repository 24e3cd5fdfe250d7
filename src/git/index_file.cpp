#include "context_pack/git/index_file.hpp"

#include <cstring>
#include <string_view>

#include "context_pack/sys/fs.hpp"

namespace cp::git {
namespace {

std::uint32_t be32(const unsigned char* p) {
    return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}
std::uint16_t be16(const unsigned char* p) {
    return std::uint16_t(p[0] << 8 | p[1]);
}

// The index as the platform maps it (git writes a new index and renames it into place, so a
// mapping never sees a half-written one).
class Mapped {
  public:
    explicit Mapped(const std::string& file) : file_(file) {}
    const unsigned char* data() const { return file_.data(); }
    std::size_t size() const { return file_.size(); }
    std::int64_t mtime_s() const { return file_.info().mtime_s; }
    std::int64_t mtime_ns() const { return file_.info().mtime_ns; }

  private:
    sys::MappedFile file_;
};

// Calls `visit(path, entry bytes, flags)` for every entry in order; false when the file is
// not one this reader takes, an index whose paths are out of git's order among them.
template <class Visit>
bool parse(const Mapped& file, Visit&& visit) {
    const std::size_t hash = 20;  // SHA-1: the only object format libgit2 1.5 opens
    if (!file.data() || file.size() < 12 + hash) return false;
    const unsigned char* bytes = file.data();
    const std::size_t end = file.size() - hash;  // the trailing checksum
    if (std::memcmp(bytes, "DIRC", 4) != 0) return false;
    const std::uint32_t version = be32(bytes + 4);
    if (version != 2 && version != 3) return false;
    const std::uint32_t count = be32(bytes + 8);

    std::size_t at = 12;
    std::string_view last;
    for (std::uint32_t i = 0; i < count; ++i) {
        // ctime, mtime, dev, ino, mode, uid, gid, size (40 bytes), the id, 16 bits of flags
        const std::size_t fixed = 40 + hash + 2;
        if (at + fixed > end) return false;
        const unsigned char* e = bytes + at;
        const std::uint16_t flags = be16(e + 40 + hash);
        const bool extended = flags & 0x4000;
        if (extended && version < 3) return false;
        const std::size_t header = fixed + (extended ? 2 : 0);
        if (at + header > end) return false;
        const std::uint16_t more = extended ? be16(e + fixed) : 0;
        std::size_t length = flags & 0xfff;
        const char* name = reinterpret_cast<const char*>(e + header);
        const std::size_t room = end - (at + header);
        if (length == 0xfff) length = strnlen(name, room);  // a long name: up to its NUL
        if (length >= room || name[length] != '\0') return false;
        const std::string_view path(name, length);
        if (path < last) return false;  // git sorts entries by path (then stage)
        last = path;
        IndexEntry entry;
        entry.mode = be32(e + 24);
        entry.stage = (flags >> 12) & 3;
        entry.assume_valid = flags & 0x8000;
        entry.skip_worktree = more & 0x4000;
        entry.intent_to_add = more & 0x2000;
        visit(path, e, entry);
        at += (header + length + 8) & ~std::size_t(7);  // NUL-padded to a multiple of 8
    }
    // Extensions: a split index ("link") keeps entries elsewhere, a sparse one ("sdir")
    // lists directories as entries. Either way this reader cannot tell.
    while (at + 8 <= end) {
        const unsigned char* x = bytes + at;
        if (std::memcmp(x, "link", 4) == 0 || std::memcmp(x, "sdir", 4) == 0) return false;
        at += 8 + std::size_t(be32(x + 4));
    }
    return at == end;
}

}  // namespace

std::optional<IndexLookup> read_index_entries(const std::string& index_file,
                                              const std::set<std::string, std::less<>>& paths) {
    Mapped file(index_file);
    IndexLookup out;
    // The entries come in path order, as `paths` does: one comparison an entry finds them.
    auto next = paths.begin();
    bool read =
        parse(file, [&](std::string_view path, const unsigned char* e, const IndexEntry& entry) {
            if (path == ".gitattributes" || path.ends_with("/.gitattributes")) {
                auto& id =
                    out.attributes[std::string(path)];  // the last stage wins: conflicts bail
                std::memcpy(id.data(), e + 40, id.size());
            }
            while (next != paths.end() && std::string_view(*next) < path) ++next;
            if (next != paths.end() && *next == path) out.entries[*next].push_back(entry);
        });
    if (!read) return std::nullopt;
    return out;
}

std::optional<IndexFile> read_index_file(const std::string& index_file) {
    Mapped file(index_file);
    IndexFile out;
    out.mtime_s = file.mtime_s();
    out.mtime_ns = file.mtime_ns();
    bool read =
        parse(file, [&](std::string_view path, const unsigned char* e, const IndexEntry& flags) {
            IndexRecord& r = out.entries.emplace_back();
            r.path = path;
            std::uint32_t* fields[] = {&r.ctime_s, &r.ctime_ns, &r.mtime_s, &r.mtime_ns, &r.dev,
                                       &r.ino,     &r.mode,     &r.uid,     &r.gid,      &r.size};
            for (std::size_t i = 0; i < 10; ++i) *fields[i] = be32(e + 4 * i);
            std::memcpy(r.id.data(), e + 40, 20);
            r.flags = flags;
        });
    if (!read) return std::nullopt;
    return out;
}

}  // namespace cp::git
