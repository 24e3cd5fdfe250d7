// The platform seam on POSIX (include/context_pack/sys/fs.hpp, memory.hpp, terminal.hpp):
// descriptors, openat with O_NOFOLLOW beneath a directory, fstatat, fdopendir, an mmap of the
// index, glibc's allocator settings.
#include <dirent.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <utility>

#include "context_pack/sys/fs.hpp"
#include "context_pack/sys/memory.hpp"
#include "context_pack/sys/terminal.hpp"

namespace cp::sys {
namespace {

Kind kind_of(mode_t m) {
    if (S_ISREG(m)) return Kind::regular;
    if (S_ISDIR(m)) return Kind::directory;
    if (S_ISLNK(m)) return Kind::symlink;
    if (S_ISFIFO(m)) return Kind::fifo;
    if (S_ISCHR(m)) return Kind::char_device;
    if (S_ISBLK(m)) return Kind::block_device;
    if (S_ISSOCK(m)) return Kind::socket;
    return Kind::other;
}

FileInfo info_of(const struct stat& st) {
    FileInfo i;
    i.kind = kind_of(st.st_mode);
    i.owner_executable = (st.st_mode & S_IXUSR) != 0;
    i.size = std::uint64_t(st.st_size);
#if defined(__APPLE__)
    i.mtime_s = st.st_mtimespec.tv_sec;
    i.mtime_ns = st.st_mtimespec.tv_nsec;
    i.ctime_s = st.st_ctimespec.tv_sec;
    i.ctime_ns = st.st_ctimespec.tv_nsec;
#else
    i.mtime_s = st.st_mtim.tv_sec;
    i.mtime_ns = st.st_mtim.tv_nsec;
    i.ctime_s = st.st_ctim.tv_sec;
    i.ctime_ns = st.st_ctim.tv_nsec;
#endif
    i.dev = std::uint64_t(st.st_dev);
    i.ino = std::uint64_t(st.st_ino);
    i.uid = std::uint32_t(st.st_uid);
    i.gid = std::uint32_t(st.st_gid);
    return i;
}

int open_flags(unsigned flags) {
    return O_RDONLY | O_CLOEXEC | ((flags & File::nonblocking) ? O_NONBLOCK : 0) |
           ((flags & File::no_controlling_tty) ? O_NOCTTY : 0);
}

void close_fd(std::intptr_t fd) {
    if (fd >= 0) ::close(int(fd));
}

}  // namespace

bool has_index_stat_data() {
    return true;
}

File File::open(const std::string& path, unsigned flags) {
    return File(::open(path.c_str(), open_flags(flags)));
}
File::File(File&& o) noexcept : handle_(std::exchange(o.handle_, -1)) {}
File& File::operator=(File&& o) noexcept {
    if (this != &o) {
        close_fd(handle_);
        handle_ = std::exchange(o.handle_, -1);
    }
    return *this;
}
File::~File() {
    close_fd(handle_);
}

std::optional<FileInfo> File::info() const {
    struct stat st {};
    if (::fstat(int(handle_), &st) != 0) return std::nullopt;
    return info_of(st);
}

long long File::read(void* into, std::size_t size) const {
    for (;;) {
        auto n = ::read(int(handle_), into, size);
        if (n < 0 && errno == EINTR) continue;
        return n;
    }
}

Dir Dir::open(const std::string& path) {
    Dir d;
    d.handle_ = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return d;
}
Dir::Dir(Dir&& o) noexcept : handle_(std::exchange(o.handle_, -1)), path_(std::move(o.path_)) {}
Dir& Dir::operator=(Dir&& o) noexcept {
    if (this != &o) {
        close_fd(handle_);
        handle_ = std::exchange(o.handle_, -1);
        path_ = std::move(o.path_);
    }
    return *this;
}
Dir::~Dir() {
    close_fd(handle_);
}

Dir Dir::dir(const std::string& name) const {
    Dir d;
    d.handle_ =
        ::openat(int(handle_), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    return d;
}

File Dir::file(const std::string& name, unsigned flags) const {
    return File(::openat(int(handle_), name.c_str(), open_flags(flags) | O_NOFOLLOW));
}

std::optional<FileInfo> Dir::stat(const std::string& name, bool follow) const {
    struct stat st {};
    if (::fstatat(int(handle_), name.c_str(), &st, follow ? 0 : AT_SYMLINK_NOFOLLOW) != 0)
        return std::nullopt;
    return info_of(st);
}

std::optional<std::vector<Dir::Entry>> Dir::list() const {
    int copy = ::dup(int(handle_));  // fdopendir takes the descriptor it is given
    if (copy < 0) return std::nullopt;
    DIR* dir = ::fdopendir(copy);
    if (!dir) {
        ::close(copy);
        return std::nullopt;
    }
    std::vector<Entry> out;
    errno = 0;
    while (dirent* e = ::readdir(dir)) {
        std::string_view n(e->d_name);
        if (n != "." && n != "..") {
            Entry entry{std::string(n), std::nullopt};
            switch (e->d_type) {
                case DT_REG:
                    entry.kind = Kind::regular;
                    break;
                case DT_DIR:
                    entry.kind = Kind::directory;
                    break;
                case DT_LNK:
                    entry.kind = Kind::symlink;
                    break;
                case DT_UNKNOWN:
                    break;
                default:
                    entry.kind = Kind::other;
                    break;
            }
            out.push_back(std::move(entry));
        }
        errno = 0;
    }
    bool failed = errno != 0;
    ::closedir(dir);
    if (failed) return std::nullopt;
    return out;
}

// The file mapped whole, read-only (git writes a new index and renames it into place, so a
// mapping never sees a half-written one).
MappedFile::MappedFile(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        info_ = info_of(st);
#ifdef MAP_POPULATE
        const int populate = MAP_POPULATE;
#else
        const int populate = 0;
#endif
        void* at =
            ::mmap(nullptr, std::size_t(st.st_size), PROT_READ, MAP_PRIVATE | populate, fd, 0);
        if (at != MAP_FAILED) {
            data_ = static_cast<const unsigned char*>(at);
            size_ = std::size_t(st.st_size);
        }
    }
    ::close(fd);
}
MappedFile::~MappedFile() {
    if (data_) ::munmap(const_cast<unsigned char*>(data_), size_);
}

std::optional<FileInfo> lstat(const std::string& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return std::nullopt;
    return info_of(st);
}

std::optional<FileInfo> stat(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    return info_of(st);
}

std::optional<std::string> read_link(const std::string& path) {
    std::string target(4096, '\0');
    auto n = ::readlink(path.c_str(), target.data(), target.size());
    if (n < 0 || std::size_t(n) == target.size()) return std::nullopt;
    target.resize(std::size_t(n));
    return target;
}

std::optional<std::string> real_path(const std::string& path) {
    char* real = ::realpath(path.c_str(), nullptr);
    if (!real) return std::nullopt;
    std::string out(real);
    std::free(real);
    return out;
}

bool is_terminal(Stream stream) {
    return ::isatty(stream == Stream::out ? STDOUT_FILENO : STDERR_FILENO) != 0;
}

unsigned terminal_width(Stream stream) {
    winsize size{};
    if (::ioctl(stream == Stream::out ? STDOUT_FILENO : STDERR_FILENO, TIOCGWINSZ, &size) != 0)
        return 0;
    return size.ws_col;
}

void binary_stdio() {}

void utf8_arguments(int&, char**&) {}

#if defined(__GLIBC__) && defined(__linux__)
}  // namespace cp::sys

extern "C" char end;  // the linker's: the end of the program's data, where the break starts

namespace cp::sys {
namespace {

constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
// How far a heap grows past what it needs, each time it grows: room for huge pages.
constexpr std::size_t kTopPad = std::size_t{32} << 20;
// An arena other than the main one is a heap this large and aligned to its size, reserved
// whole and made writable as it grows (glibc's malloc/arena.c, HEAP_MAX_SIZE: twice the
// largest mapping threshold, 4 MiB a byte of a long).
constexpr std::uintptr_t kArenaHeap = std::uintptr_t{2} * 4 * 1024 * 1024 * sizeof(long);

// The huge pages wholly inside [from, to) asked for; a kernel without them says no, and
// nothing changes.
void advise_huge_pages(std::uintptr_t from, std::uintptr_t to) {
    from = (from + kHugePage - 1) & ~(kHugePage - 1);
    to &= ~(kHugePage - 1);
    if (to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
}

// Whether the address is in the main arena's heap: between the program's end and its break.
// (An address, not a pointer: GCC takes a pointer to memory not yet written, passed as
// const, for a read of it.)
bool in_main_heap(std::uintptr_t at) {
    return at >= reinterpret_cast<std::uintptr_t>(&end) &&
           at < reinterpret_cast<std::uintptr_t>(::sbrk(0));
}

}  // namespace
#endif

void keep_freed_memory() {
#if defined(__GLIBC__) && defined(__linux__)
    // Blocks below 32 MiB (the most glibc allows) from the arenas, and an arena's free top
    // kept up to 256 MiB: what a pair's blobs took is reused by the next pair's. Setting
    // either also stops glibc from moving the mapping threshold by itself.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_TOP_PAD, kTopPad);
    // The main heap grown now by the pad, which is asked for as huge pages: a later growth
    // is a mapping of its own, with 4 KiB pages.
    void* block = std::malloc(kHugePage);
    const auto at = reinterpret_cast<std::uintptr_t>(block);
    if (block && in_main_heap(at))
        advise_huge_pages(at, reinterpret_cast<std::uintptr_t>(::sbrk(0)));
    std::free(block);
#endif
}

void huge_pages_for_this_thread() {
#if defined(__GLIBC__) && defined(__linux__)
    void* probe = std::malloc(1);  // the thread's arena, made now if it had none
    const auto at = reinterpret_cast<std::uintptr_t>(probe);
    if (probe && !in_main_heap(at)) {
        const auto heap = at & ~(kArenaHeap - 1);
        advise_huge_pages(heap, heap + kArenaHeap);
    }
    std::free(probe);
#endif
}

void release_freed_memory() {
    // Under AddressSanitizer, whose allocator holds every block, glibc's arenas are not in
    // use, and malloc_trim walks them unset (a SEGV in mtrim).
#if defined(__GLIBC__) && defined(__linux__) && !defined(__SANITIZE_ADDRESS__)
    malloc_trim(0);
#endif
}

bool address_space_short(std::size_t bytes) {
    void* at =
        ::mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (at == MAP_FAILED) return errno == ENOMEM;
    ::munmap(at, bytes);
    return false;
}

}  // namespace cp::sys
