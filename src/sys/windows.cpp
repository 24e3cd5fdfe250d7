// The platform seam on Windows (include/context_pack/sys/fs.hpp, memory.hpp, terminal.hpp):
// Win32 calls on UTF-16 paths made from the UTF-8 ones, every reparse point (symlink,
// junction, mount point) taken for a symlink and never followed beneath a directory, errors
// mapped to errno's codes, and binary standard streams; the allocator's defaults kept.
//
// Git for Windows' index holds no stat data this walk could compare as git does (libgit2
// fills it from other fields there), so has_index_stat_data() is false and the working-tree
// scan steps aside to libgit2's diff. Symlink targets are not read (read_link fails): a tree
// with symlinks has its link blobs hashed by libgit2.
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX  // no min and max macros over std::min and std::max
#define NOMINMAX
#endif
#include <fcntl.h>
#include <io.h>
#include <windows.h>
// After windows.h, which it needs.
#include <shellapi.h>

#include <cerrno>
#include <cstdio>
#include <cwchar>
#include <utility>

#include "context_pack/sys/fs.hpp"
#include "context_pack/sys/memory.hpp"
#include "context_pack/sys/terminal.hpp"

namespace cp::sys {
namespace {

std::wstring widen(const std::string& s) {
    if (s.empty()) return {};
    int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), int(s.size()), nullptr, 0);
    std::wstring out(std::size_t(n > 0 ? n : 0), L'\0');
    if (n > 0) MultiByteToWideChar(CP_UTF8, 0, s.data(), int(s.size()), out.data(), n);
    return out;
}

std::string narrow(const wchar_t* s, std::size_t len) {
    if (len == 0) return {};
    int n = WideCharToMultiByte(CP_UTF8, 0, s, int(len), nullptr, 0, nullptr, nullptr);
    std::string out(std::size_t(n > 0 ? n : 0), '\0');
    if (n > 0) WideCharToMultiByte(CP_UTF8, 0, s, int(len), out.data(), n, nullptr, nullptr);
    return out;
}

// errno's code for the last Win32 error, set and returned.
int set_errno() {
    switch (GetLastError()) {
        case ERROR_FILE_NOT_FOUND:
        case ERROR_PATH_NOT_FOUND:
        case ERROR_INVALID_NAME:
        case ERROR_INVALID_DRIVE:
        case ERROR_BAD_NETPATH:
            errno = ENOENT;
            break;
        case ERROR_ACCESS_DENIED:
        case ERROR_SHARING_VIOLATION:
        case ERROR_LOCK_VIOLATION:
            errno = EACCES;
            break;
        case ERROR_DIRECTORY:
            errno = ENOTDIR;
            break;
        case ERROR_CANT_RESOLVE_FILENAME:
            errno = ELOOP;
            break;
        case ERROR_FILENAME_EXCED_RANGE:
            errno = ENAMETOOLONG;
            break;
        case ERROR_NOT_ENOUGH_MEMORY:
        case ERROR_OUTOFMEMORY:
            errno = ENOMEM;
            break;
        default:
            errno = EIO;
            break;
    }
    return errno;
}

// A FILETIME (100 ns since 1601) as seconds and nanoseconds since 1970.
void unix_time(const FILETIME& ft, std::int64_t& s, std::int64_t& ns) {
    const std::int64_t t =
        std::int64_t((std::uint64_t(ft.dwHighDateTime) << 32) | ft.dwLowDateTime) -
        116444736000000000LL;
    s = t / 10000000;
    ns = (t % 10000000) * 100;
    if (ns < 0) {
        s -= 1;
        ns += 1000000000;
    }
}

Kind kind_of_attributes(DWORD attributes) {
    if (attributes & FILE_ATTRIBUTE_REPARSE_POINT) return Kind::symlink;
    if (attributes & FILE_ATTRIBUTE_DIRECTORY) return Kind::directory;
    return Kind::regular;
}

FileInfo info_of(DWORD attributes, DWORD size_high, DWORD size_low, const FILETIME& written,
                 const FILETIME& created) {
    FileInfo i;
    i.kind = kind_of_attributes(attributes);
    i.size = (std::uint64_t(size_high) << 32) | size_low;
    unix_time(written, i.mtime_s, i.mtime_ns);
    unix_time(created, i.ctime_s, i.ctime_ns);
    return i;
}

std::optional<FileInfo> info_of_handle(HANDLE h) {
    switch (GetFileType(h)) {
        case FILE_TYPE_CHAR: {
            FileInfo i;
            i.kind = Kind::char_device;
            return i;
        }
        case FILE_TYPE_PIPE: {
            FileInfo i;
            i.kind = Kind::fifo;
            return i;
        }
        default:
            break;
    }
    BY_HANDLE_FILE_INFORMATION b;
    if (!GetFileInformationByHandle(h, &b)) {
        set_errno();
        return std::nullopt;
    }
    FileInfo i = info_of(b.dwFileAttributes, b.nFileSizeHigh, b.nFileSizeLow, b.ftLastWriteTime,
                         b.ftCreationTime);
    i.dev = b.dwVolumeSerialNumber;
    i.ino = (std::uint64_t(b.nFileIndexHigh) << 32) | b.nFileIndexLow;
    return i;
}

HANDLE open_handle(const std::string& path, DWORD access, bool no_follow) {
    const DWORD flags = FILE_FLAG_BACKUP_SEMANTICS | (no_follow ? FILE_FLAG_OPEN_REPARSE_POINT : 0);
    HANDLE h = CreateFileW(widen(path).c_str(), access,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                           OPEN_EXISTING, flags, nullptr);
    if (h == INVALID_HANDLE_VALUE) set_errno();
    return h;
}

void close_handle(std::intptr_t h) {
    if (h != -1) CloseHandle(reinterpret_cast<HANDLE>(h));
}

std::string with_slash(const std::string& path) {
    if (path.empty()) return "./";
    if (path.back() == '/' || path.back() == '\\') return path;
    std::string out;
    out.reserve(path.size() + 1);
    out.append(path).push_back('/');
    return out;
}

}  // namespace

bool has_index_stat_data() {
    return false;
}

File File::open(const std::string& path, unsigned) {
    return File(reinterpret_cast<std::intptr_t>(open_handle(path, GENERIC_READ, false)));
}
File::File(File&& o) noexcept : handle_(std::exchange(o.handle_, -1)) {}
File& File::operator=(File&& o) noexcept {
    if (this != &o) {
        close_handle(handle_);
        handle_ = std::exchange(o.handle_, -1);
    }
    return *this;
}
File::~File() {
    close_handle(handle_);
}

std::optional<FileInfo> File::info() const {
    return info_of_handle(reinterpret_cast<HANDLE>(handle_));
}

long long File::read(void* into, std::size_t size) const {
    DWORD got = 0;
    const DWORD want = size > 0x40000000 ? 0x40000000 : DWORD(size);
    if (!ReadFile(reinterpret_cast<HANDLE>(handle_), into, want, &got, nullptr)) {
        if (GetLastError() == ERROR_BROKEN_PIPE || GetLastError() == ERROR_HANDLE_EOF) return 0;
        set_errno();
        return -1;
    }
    return got;
}

Dir Dir::open(const std::string& path) {
    Dir d;
    auto st = sys::stat(path);
    if (!st) return d;
    if (st->kind != Kind::directory) {
        errno = ENOTDIR;
        return d;
    }
    d.handle_ = 0;
    d.path_ = with_slash(path);
    return d;
}
Dir::Dir(Dir&& o) noexcept : handle_(std::exchange(o.handle_, -1)), path_(std::move(o.path_)) {}
Dir& Dir::operator=(Dir&& o) noexcept {
    handle_ = std::exchange(o.handle_, -1);
    path_ = std::move(o.path_);
    return *this;
}
Dir::~Dir() = default;

Dir Dir::dir(const std::string& name) const {
    Dir d;
    auto st = sys::lstat(path_ + name);
    if (!st) return d;
    if (st->kind == Kind::symlink) {
        errno = ELOOP;
        return d;
    }
    if (st->kind != Kind::directory) {
        errno = ENOTDIR;
        return d;
    }
    d.handle_ = 0;
    d.path_ = path_ + name + '/';
    return d;
}

File Dir::file(const std::string& name, unsigned) const {
    // Opened without following a reparse point, then refused if it is one.
    HANDLE h = open_handle(path_ + name, GENERIC_READ, true);
    if (h == INVALID_HANDLE_VALUE) return File();
    BY_HANDLE_FILE_INFORMATION b;
    if (GetFileType(h) == FILE_TYPE_DISK && GetFileInformationByHandle(h, &b) &&
        (b.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)) {
        CloseHandle(h);
        errno = ELOOP;
        return File();
    }
    return File(reinterpret_cast<std::intptr_t>(h));
}

std::optional<FileInfo> Dir::stat(const std::string& name, bool follow) const {
    return follow ? sys::stat(path_ + name) : sys::lstat(path_ + name);
}

std::optional<std::vector<Dir::Entry>> Dir::list() const {
    WIN32_FIND_DATAW found;
    HANDLE h = FindFirstFileExW(widen(path_ + "*").c_str(), FindExInfoBasic, &found,
                                FindExSearchNameMatch, nullptr, 0);
    if (h == INVALID_HANDLE_VALUE) {
        set_errno();
        return std::nullopt;
    }
    std::vector<Entry> out;
    do {
        std::wstring_view n(found.cFileName);
        if (n == L"." || n == L"..") continue;
        out.push_back({narrow(n.data(), n.size()), kind_of_attributes(found.dwFileAttributes)});
    } while (FindNextFileW(h, &found));
    const bool failed = GetLastError() != ERROR_NO_MORE_FILES;
    if (failed) set_errno();
    FindClose(h);
    if (failed) return std::nullopt;
    return out;
}

// Read whole rather than mapped: a mapping would keep git from replacing the index while it
// is open.
MappedFile::MappedFile(const std::string& path) {
    File file = File::open(path);
    if (!file.is_open()) return;
    auto st = file.info();
    if (!st || st->kind != Kind::regular || st->size == 0) return;
    info_ = *st;
    copy_.resize(std::size_t(st->size));
    std::size_t got = 0;
    while (got < copy_.size()) {
        auto n = file.read(copy_.data() + got, copy_.size() - got);
        if (n <= 0) break;
        got += std::size_t(n);
    }
    if (got != copy_.size()) {
        copy_.clear();
        return;
    }
    data_ = copy_.data();
    size_ = copy_.size();
}
MappedFile::~MappedFile() = default;

std::optional<FileInfo> lstat(const std::string& path) {
    WIN32_FILE_ATTRIBUTE_DATA a;
    if (!GetFileAttributesExW(widen(path).c_str(), GetFileExInfoStandard, &a)) {
        set_errno();
        return std::nullopt;
    }
    return info_of(a.dwFileAttributes, a.nFileSizeHigh, a.nFileSizeLow, a.ftLastWriteTime,
                   a.ftCreationTime);
}

std::optional<FileInfo> stat(const std::string& path) {
    HANDLE h = open_handle(path, FILE_READ_ATTRIBUTES, false);
    if (h == INVALID_HANDLE_VALUE) return std::nullopt;
    auto info = info_of_handle(h);
    CloseHandle(h);
    return info;
}

std::optional<std::string> read_link(const std::string&) {
    errno = EINVAL;
    return std::nullopt;
}

std::optional<std::string> real_path(const std::string& path) {
    HANDLE h = open_handle(path, FILE_READ_ATTRIBUTES, false);
    if (h == INVALID_HANDLE_VALUE) return std::nullopt;
    std::wstring buf(MAX_PATH, L'\0');
    DWORD n = GetFinalPathNameByHandleW(h, buf.data(), DWORD(buf.size()), FILE_NAME_NORMALIZED);
    if (n >= buf.size()) {
        buf.resize(n + 1);
        n = GetFinalPathNameByHandleW(h, buf.data(), DWORD(buf.size()), FILE_NAME_NORMALIZED);
    }
    if (n == 0) set_errno();
    CloseHandle(h);
    if (n == 0 || n >= buf.size()) return std::nullopt;
    buf.resize(n);
    std::wstring_view v(buf);
    if (v.starts_with(L"\\\\?\\UNC\\"))
        buf = L"\\\\" + std::wstring(v.substr(8));
    else if (v.starts_with(L"\\\\?\\"))
        buf = std::wstring(v.substr(4));
    std::string out = narrow(buf.data(), buf.size());
    for (char& c : out)
        if (c == '\\') c = '/';
    return out;
}

bool is_terminal(Stream stream) {
    HANDLE h = GetStdHandle(stream == Stream::out ? STD_OUTPUT_HANDLE : STD_ERROR_HANDLE);
    if (h == nullptr || h == INVALID_HANDLE_VALUE) return false;
    DWORD mode = 0;
    if (GetConsoleMode(h, &mode)) return true;
    // Git Bash's terminal (mintty) is a pipe named \msys-...-ptyN-to-master or \cygwin-....
    if (GetFileType(h) != FILE_TYPE_PIPE) return false;
    struct {
        FILE_NAME_INFO info;
        WCHAR more[MAX_PATH];
    } name{};
    if (!GetFileInformationByHandleEx(h, FileNameInfo, &name, sizeof name)) return false;
    std::wstring_view n(name.info.FileName, name.info.FileNameLength / sizeof(WCHAR));
    return (n.find(L"msys-") != n.npos || n.find(L"cygwin-") != n.npos) &&
           n.find(L"-pty") != n.npos;
}

unsigned terminal_width(Stream stream) {
    HANDLE h = GetStdHandle(stream == Stream::out ? STD_OUTPUT_HANDLE : STD_ERROR_HANDLE);
    CONSOLE_SCREEN_BUFFER_INFO info{};
    if (h == nullptr || h == INVALID_HANDLE_VALUE || !GetConsoleScreenBufferInfo(h, &info))
        return 0;
    return unsigned(info.srWindow.Right - info.srWindow.Left + 1);
}

void binary_stdio() {
    _setmode(_fileno(stdin), _O_BINARY);
    _setmode(_fileno(stdout), _O_BINARY);
}

void utf8_arguments(int& argc, char**& argv) {
    int n = 0;
    LPWSTR* wide = CommandLineToArgvW(GetCommandLineW(), &n);
    if (!wide) return;
    // Kept for the life of the program, as main's own are.
    static std::vector<std::string> args;
    static std::vector<char*> pointers;
    args.clear();
    for (int i = 0; i < n; ++i) args.push_back(narrow(wide[i], wcslen(wide[i])));
    LocalFree(wide);
    pointers.clear();
    for (std::string& a : args) pointers.push_back(a.data());
    pointers.push_back(nullptr);
    argc = n;
    argv = pointers.data();
}

void keep_freed_memory() {}

void huge_pages_for_this_thread() {}

void release_freed_memory() {}

bool address_space_short(std::size_t bytes) {
    void* at = VirtualAlloc(nullptr, bytes, MEM_RESERVE, PAGE_NOACCESS);
    if (!at) return true;
    VirtualFree(at, 0, MEM_RELEASE);
    return false;
}

}  // namespace cp::sys
