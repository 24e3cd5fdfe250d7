#include "context_pack/index_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string_view>

namespace cp::git {
namespace {

std::uint32_t be32(const unsigned char* p) {
    return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}
std::uint16_t be16(const unsigned char* p) { return std::uint16_t(p[0] << 8 | p[1]); }

// The file mapped whole, read-only (git writes a new index and renames it into place, so a
// mapping never sees a half-written one).
class Mapped {
public:
    explicit Mapped(const std::string& file) {
        int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return;
        struct stat st {};
        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
            void* at = ::mmap(nullptr, std::size_t(st.st_size), PROT_READ,
                              MAP_PRIVATE | MAP_POPULATE, fd, 0);
            if (at != MAP_FAILED) {
                data_ = static_cast<const unsigned char*>(at);
                size_ = std::size_t(st.st_size);
            }
        }
        ::close(fd);
    }
    ~Mapped() {
        if (data_) ::munmap(const_cast<unsigned char*>(data_), size_);
    }
    Mapped(const Mapped&) = delete;
    Mapped& operator=(const Mapped&) = delete;
    const unsigned char* data() const { return data_; }
    std::size_t size() const { return size_; }

private:
    const unsigned char* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace

std::optional<IndexLookup> read_index_entries(const std::string& index_file,
                                              const std::set<std::string, std::less<>>& paths) {
    Mapped file(index_file);
    const std::size_t hash = 20;  // SHA-1: the only object format libgit2 1.5 opens
    if (!file.data() || file.size() < 12 + hash) return std::nullopt;
    const unsigned char* bytes = file.data();
    const std::size_t end = file.size() - hash;  // the trailing checksum
    if (std::memcmp(bytes, "DIRC", 4) != 0) return std::nullopt;
    const std::uint32_t version = be32(bytes + 4);
    if (version != 2 && version != 3) return std::nullopt;
    const std::uint32_t count = be32(bytes + 8);

    IndexLookup out;
    std::size_t at = 12;
    for (std::uint32_t i = 0; i < count; ++i) {
        // ctime, mtime, dev, ino, mode, uid, gid, size (40 bytes), the id, 16 bits of flags
        const std::size_t fixed = 40 + hash + 2;
        if (at + fixed > end) return std::nullopt;
        const unsigned char* e = bytes + at;
        const std::uint16_t flags = be16(e + 40 + hash);
        const bool extended = flags & 0x4000;
        if (extended && version < 3) return std::nullopt;
        const std::size_t header = fixed + (extended ? 2 : 0);
        if (at + header > end) return std::nullopt;
        const std::uint16_t more = extended ? be16(e + fixed) : 0;
        std::size_t length = flags & 0xfff;
        const char* name = reinterpret_cast<const char*>(e + header);
        const std::size_t room = end - (at + header);
        if (length == 0xfff) length = strnlen(name, room);  // a long name: up to its NUL
        if (length >= room || name[length] != '\0') return std::nullopt;
        std::string_view path(name, length);

        if (path == ".gitattributes" || path.ends_with("/.gitattributes")) {
            static const char digits[] = "0123456789abcdef";
            std::string oid;
            for (std::size_t b = 0; b < hash; ++b) {
                oid += digits[e[40 + b] >> 4];
                oid += digits[e[40 + b] & 15];
            }
            out.attributes[std::string(path)] = oid;  // the last stage wins: conflicts bail
        }
        if (auto wanted = paths.find(path); wanted != paths.end()) {
            IndexEntry entry;
            entry.mode = be32(e + 24);
            entry.stage = (flags >> 12) & 3;
            entry.assume_valid = flags & 0x8000;
            entry.skip_worktree = more & 0x4000;
            entry.intent_to_add = more & 0x2000;
            out.entries[*wanted].push_back(entry);
        }
        at += (header + length + 8) & ~std::size_t(7);  // NUL-padded to a multiple of 8
    }
    // Extensions: a split index ("link") keeps entries elsewhere, a sparse one ("sdir")
    // lists directories as entries. Either way this reader cannot tell.
    while (at + 8 <= end) {
        const unsigned char* x = bytes + at;
        if (std::memcmp(x, "link", 4) == 0 || std::memcmp(x, "sdir", 4) == 0) return std::nullopt;
        at += 8 + std::size_t(be32(x + 4));
    }
    if (at != end) return std::nullopt;
    return out;
}

}  // namespace cp::git
