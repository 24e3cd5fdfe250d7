// The operating system's files, behind one small interface: src/sys/posix.cpp implements it
// with POSIX calls, src/sys/windows.cpp with Win32 calls on wide-character (UTF-16) paths. No
// other file includes a platform header.
//
// Paths are UTF-8 and use '/'. A call that fails sets errno (the Windows implementation maps
// its errors to the POSIX codes: ENOENT, ENOTDIR, EACCES, ELOOP, ...), so callers tell the
// cases apart as on POSIX and name them with std::strerror.
//
// Reads beneath a directory never follow a symlink: Dir::dir and Dir::file refuse one (ELOOP),
// as POSIX's O_NOFOLLOW does; on Windows every reparse point counts as a symlink.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cp::sys {

enum class Kind : std::uint8_t {
    regular,
    directory,
    symlink,
    fifo,
    char_device,
    block_device,
    socket,
    other
};

// What stat says of a file, as far as the platform tells (0 where it does not: Windows
// has no uid or gid).
struct FileInfo {
    Kind kind = Kind::other;
    bool owner_executable = false;
    std::uint64_t size = 0;
    std::int64_t mtime_s = 0, mtime_ns = 0;
    std::int64_t ctime_s = 0, ctime_ns = 0;
    std::uint64_t dev = 0, ino = 0;
    std::uint32_t uid = 0, gid = 0;
};

// Whether the working-tree scan's walk (Dir, with stat data as git's index records it) is
// the platform's: where it is not, the scan steps aside and libgit2 diffs the tree.
bool has_index_stat_data();

// An open file, closed with its owner.
class File {
  public:
    enum Flags : unsigned {
        none = 0,
        nonblocking = 1,        // a FIFO opens without waiting for a writer
        no_controlling_tty = 2  // a terminal opened does not become the controlling one
    };
    File() = default;
    static File open(const std::string& path, unsigned flags = none);
    File(File&& o) noexcept;
    File& operator=(File&& o) noexcept;
    File(const File&) = delete;
    File& operator=(const File&) = delete;
    ~File();

    bool is_open() const { return handle_ != -1; }
    std::optional<FileInfo> info() const;
    // Up to `size` bytes; 0 at the end, -1 on an error (an interrupted read is retried).
    long long read(void* into, std::size_t size) const;

  private:
    friend class Dir;
    explicit File(std::intptr_t handle) : handle_(handle) {}
    std::intptr_t handle_ = -1;
};

// An open directory, through which names beneath it are reached one level at a time.
class Dir {
  public:
    struct Entry {
        std::string name;
        std::optional<Kind> kind;  // when the listing says, without a stat
    };
    Dir() = default;
    static Dir open(const std::string& path);  // follows a symlink, as a root may be one
    Dir(Dir&& o) noexcept;
    Dir& operator=(Dir&& o) noexcept;
    Dir(const Dir&) = delete;
    Dir& operator=(const Dir&) = delete;
    ~Dir();

    bool is_open() const { return handle_ != -1; }
    // The subdirectory `name`, never through a symlink (ELOOP, or ENOTDIR for a file).
    Dir dir(const std::string& name) const;
    // The file `name`, never through a symlink (ELOOP); with File::nonblocking a FIFO does not
    // wait.
    File file(const std::string& name, unsigned flags = File::none) const;
    // The entry `name`'s stat data: of a symlink itself unless `follow`.
    std::optional<FileInfo> stat(const std::string& name, bool follow = false) const;
    // The names here, without "." and ".."; nullopt when unreadable.
    std::optional<std::vector<Entry>> list() const;

  private:
    std::intptr_t handle_ = -1;
    std::string path_;  // Windows: the directory's path, with a trailing '/'
};

// A whole file mapped (or read) into memory, read-only.
class MappedFile {
  public:
    explicit MappedFile(const std::string& path);
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();
    const unsigned char* data() const { return data_; }  // null when not mapped
    std::size_t size() const { return size_; }
    const FileInfo& info() const { return info_; }

  private:
    const unsigned char* data_ = nullptr;
    std::size_t size_ = 0;
    FileInfo info_;
    std::vector<unsigned char> copy_;  // where the file is read rather than mapped
};

std::optional<FileInfo> lstat(const std::string& path);  // of a symlink itself
std::optional<FileInfo> stat(const std::string& path);   // through symlinks
// A symlink's target, as stored; nullopt when unreadable or longer than 4095 bytes.
std::optional<std::string> read_link(const std::string& path);
// The absolute path with every symlink, "." and ".." resolved.
std::optional<std::string> real_path(const std::string& path);

}  // namespace cp::sys
