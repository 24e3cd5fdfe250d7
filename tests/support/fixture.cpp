#include "support/fixture.hpp"

#include <fcntl.h>
#include <git2.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "support/catch.hpp"

extern "C" {
extern char** environ;  // POSIX; macOS's <unistd.h> does not declare it
}

namespace cptest {
namespace {

using Clock = std::chrono::steady_clock;
using Deadline = std::optional<Clock::time_point>;

Deadline deadline_after(std::chrono::seconds limit) {
    if (limit.count() <= 0) return std::nullopt;
    return Clock::now() + limit;
}

// Waits for the child `pid` and gives its status as the shell does (128 + the signal when a
// signal ended it). At the deadline, the process group `pid` leads is killed: 124.
int wait_for(pid_t pid, const Deadline& deadline) {
    int raw = 0;
    auto pause = std::chrono::milliseconds(1);
    for (;;) {
        pid_t done = ::waitpid(pid, &raw, deadline ? WNOHANG : 0);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) return -1;
        if (done == 0 && Clock::now() >= *deadline) {
            ::kill(-pid, SIGKILL);
            while (::waitpid(pid, &raw, 0) < 0 && errno == EINTR) {
            }
            return 124;
        }
        if (done == 0) {
            std::this_thread::sleep_for(pause);
            pause = std::min(pause * 2, std::chrono::milliseconds(20));
        }
    }
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
}

// A normalised environment for the git CLI and libgit2 alike, set once per process.
const bool kEnvironment = [] {
    // Removed when the test process ends, as every test's own directories are.
    struct Home {
        std::string path;
        Home() {
            char tmpl[] = "/tmp/cp-home-XXXXXX";
            if (!mkdtemp(tmpl))
                throw std::runtime_error("mkdtemp: " + std::string(strerror(errno)));
            path = tmpl;
        }
        ~Home() {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
    };
    static const Home kept;
    const std::string& home = kept.path;
    setenv("HOME", home.c_str(), 1);
    setenv("XDG_CONFIG_HOME", home.c_str(), 1);
    setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
    setenv("GIT_AUTHOR_NAME", "Fixture", 1);
    setenv("GIT_AUTHOR_EMAIL", "fixture@example.invalid", 1);
    setenv("GIT_COMMITTER_NAME", "Fixture", 1);
    setenv("GIT_COMMITTER_EMAIL", "fixture@example.invalid", 1);
    setenv("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z", 1);
    setenv("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z", 1);
    setenv("LC_ALL", "C", 1);
    setenv("NO_COLOR", "1", 1);
    // A caller's repository environment (a hook's GIT_DIR and GIT_INDEX_FILE, a developer's
    // GIT_DIR) would point the fixtures' git and context-pack elsewhere; tests set them per
    // command.
    for (const char* name : {"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                             "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CEILING_DIRECTORIES",
                             "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_PREFIX"})
        unsetenv(name);
    // No automatic gc or maintenance: git 2.46 and later detach it, and a process left
    // behind would outlive the test's directories.
    std::ofstream(home + "/.gitconfig") << "[init]\n\tdefaultBranch = main\n"
                                        << "[advice]\n\tdetachedHead = false\n"
                                        << "[gc]\n\tauto = 0\n"
                                        << "[maintenance]\n\tauto = false\n";
    return true;
}();

// st_mtim is POSIX's name; macOS calls it st_mtimespec.
FileTime time_of(const struct stat& st) {
#if defined(__APPLE__)
    return {st.st_mtimespec.tv_sec, st.st_mtimespec.tv_nsec};
#else
    return {st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
#endif
}

}  // namespace

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    return buf.str();
}

Output sh(const std::string& command, const std::string& stdin_text, std::chrono::seconds limit) {
    (void)kEnvironment;
    TempDir io;
    std::string in = io.path() + "/in", out = io.path() + "/out", err = io.path() + "/err";
    std::ofstream(in, std::ios::binary) << stdin_text;
    std::string full = "( " + command + " ) <" + q(in) + " >" + q(out) + " 2>" + q(err);
    const Deadline deadline = deadline_after(limit);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    if (deadline) {  // a group of its own, to be killed whole
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attr, 0);
    }
    char name[] = "sh", flag[] = "-c";
    char* argv[] = {name, flag, full.data(), nullptr};
    pid_t pid = 0;
    int failed = ::posix_spawn(&pid, "/bin/sh", nullptr, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    Output o;
    if (failed != 0) {
        o.status = 127;
        o.err = std::string("cannot start /bin/sh: ") + std::strerror(failed) + "\n";
        return o;
    }
    o.status = wait_for(pid, deadline);
    o.out = slurp(out);
    o.err = slurp(err);
    return o;
}

Output sh_on_terminal(const std::string& command, std::chrono::seconds limit) {
    (void)kEnvironment;
    Output o;
    int master = ::posix_openpt(O_RDWR | O_NOCTTY);
    const char* name = master >= 0 && ::grantpt(master) == 0 && ::unlockpt(master) == 0
                           ? ::ptsname(master)
                           : nullptr;
    // Opened here, before the child runs, so that the terminal never has no process on it.
    int terminal = name ? ::open(name, O_RDWR | O_NOCTTY) : -1;
    if (terminal < 0) {
        o.status = 127;
        o.err = std::string("no pseudo-terminal: ") + std::strerror(errno) + "\n";
        if (master >= 0) ::close(master);
        return o;
    }
    const Deadline deadline = deadline_after(limit);
    std::string line = command;
    char name_arg[] = "sh", flag[] = "-c";
    char* argv[] = {name_arg, flag, line.data(), nullptr};
    pid_t pid = ::fork();
    if (pid == 0) {  // only async-signal-safe calls until exec
        ::setsid();  // a session and process group of its own, the terminal its controlling one
        ::ioctl(terminal, TIOCSCTTY, 0);
        ::dup2(terminal, 0);
        ::dup2(terminal, 1);
        ::dup2(terminal, 2);
        if (terminal > 2) ::close(terminal);
        ::close(master);
        ::execve("/bin/sh", argv, environ);
        ::_exit(127);
    }
    ::close(terminal);
    if (pid < 0) {
        o.status = 127;
        o.err = std::string("cannot fork: ") + std::strerror(errno) + "\n";
        ::close(master);
        return o;
    }
    // What the terminal shows, until no process has it open: end of file, or EIO on Linux.
    // select(), not poll(): macOS's poll() does not take terminals.
    for (;;) {
        timeval interval{}, *wait_for_input = nullptr;
        if (deadline) {
            auto left =
                std::chrono::duration_cast<std::chrono::microseconds>(*deadline - Clock::now());
            if (left.count() <= 0) break;
            interval.tv_sec = static_cast<time_t>(left.count() / 1000000);
            interval.tv_usec = static_cast<suseconds_t>(left.count() % 1000000);
            wait_for_input = &interval;
        }
        fd_set readable;
        FD_ZERO(&readable);
        FD_SET(master, &readable);
        int ready = ::select(master + 1, &readable, nullptr, nullptr, wait_for_input);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) break;
        if (ready == 0) continue;  // the deadline is checked above
        char buffer[4096];
        ssize_t n = ::read(master, buffer, sizeof buffer);
        if (n > 0) {
            o.out.append(buffer, std::size_t(n));
        } else if (n == 0 || errno != EINTR) {
            break;
        }
    }
    ::close(master);
    o.status = wait_for(pid, deadline);
    return o;
}

std::string tree_snapshot(const std::string& dir) {
    namespace fs = std::filesystem;
    static const bool kLibgit2 = (git_libgit2_init(), true);
    (void)kLibgit2;
    const fs::path root(dir);
    std::vector<std::pair<std::string, fs::path>> entries = {{".", root}};
    std::error_code ec;
    for (fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
         !ec && it != end; it.increment(ec))
        entries.emplace_back(it->path().lexically_relative(root).generic_string(), it->path());
    INFO(dir << ": " << ec.message());
    REQUIRE_FALSE(ec);
    std::sort(entries.begin(), entries.end());
    std::string out;
    for (const auto& [name, path] : entries) {
        struct stat st {};
        INFO(path.string());
        REQUIRE(::lstat(path.c_str(), &st) == 0);
        auto time = time_of(st);
        std::ostringstream line;
        line << name << ' ';
        if (S_ISREG(st.st_mode))
            line << "file";
        else if (S_ISDIR(st.st_mode))
            line << "dir";
        else if (S_ISLNK(st.st_mode))
            line << "symlink";
        else if (S_ISFIFO(st.st_mode))
            line << "fifo";
        else
            line << "other";
        line << ' ' << st.st_size << ' ' << std::oct << (st.st_mode & 07777) << std::dec << ' '
             << time.seconds << '.' << time.nanoseconds;
        if (S_ISREG(st.st_mode)) {
            auto bytes = slurp(path.string());
            REQUIRE(bytes.size() == std::size_t(st.st_size));
            git_oid id;
            REQUIRE(git_odb_hash(&id, bytes.data(), bytes.size(), GIT_OBJECT_BLOB) == 0);
            line << ' ' << git_oid_tostr_s(&id);
        } else if (S_ISLNK(st.st_mode)) {
            line << " -> " << fs::read_symlink(path).string();
        }
        out += line.str() + "\n";
    }
    return out;
}

FileTime mtime_of(const std::string& path) {
    struct stat st {};
    INFO(path);
    REQUIRE(::lstat(path.c_str(), &st) == 0);
    return time_of(st);
}

void set_times(const std::string& path, std::time_t seconds) {
    const timespec times[2] = {{seconds, 0}, {seconds, 0}};  // access, modification
    INFO(path);
    REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
}

std::string q(const std::string& word) {
    std::string out = "'";
    for (char c : word) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

TempDir::TempDir() {
    char tmpl[] = "/tmp/cp-test-XXXXXX";
    if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

Repo::Repo(bool bare) {
    git(bare ? "init -q --bare" : "init -q");
}

Output Repo::git_status(const std::string& args) const {
    return sh("git -C " + q(dir()) + " " + args);
}

std::string Repo::git(const std::string& args) const {
    Output o = git_status(args);
    INFO("git " << args << "\n" << o.err);
    REQUIRE(o.status == 0);
    return o.out;
}

void Repo::write(const std::string& rel, const std::string& content) const {
    auto full = std::filesystem::path(at(rel));
    std::filesystem::create_directories(full.parent_path());
    std::ofstream(full, std::ios::binary) << content;
}

std::string Repo::read(const std::string& rel) const {
    return slurp(at(rel));
}

void Repo::remove(const std::string& rel) const {
    std::filesystem::remove(at(rel));
}

std::string Repo::commit(const std::string& message) const {
    git("add -A");
    git("commit -q --allow-empty -m " + q(message));
    return head();
}

std::string Repo::head() const {
    auto h = git("rev-parse HEAD");
    return h.substr(0, h.find('\n'));
}

std::string numbered(int n, const std::string& prefix) {
    std::string out;
    for (int i = 1; i <= n; ++i) out += prefix + std::to_string(i) + "\n";
    return out;
}

Output context_pack(const std::string& dir, const std::string& args, const std::string& input) {
    return sh("cd " + q(dir) + " && " + q(cptest::binary()) + " " + args, input);
}

}  // namespace cptest
