// Scripted fixture repositories for tests: a temporary directory, the git CLI run with a
// normalised environment (fixed dates and identity, no system or global config), and helpers
// to write files and commit. Nothing here is used by the tool itself.
#pragma once

// CP_TEST_ADDRESS_LIMIT: a test may set an address-space limit (ulimit -v, RLIMIT_AS). Not
// under the sanitizers, which reserve terabytes of address space, refused by such a limit.
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#if !defined(__has_feature)
#define CP_TEST_ADDRESS_LIMIT 1
#elif !__has_feature(address_sanitizer) && !__has_feature(thread_sanitizer)
#define CP_TEST_ADDRESS_LIMIT 1
#endif
#endif

#include <chrono>
#include <ctime>
#include <string>
#include <vector>

namespace cptest {

struct Output {
    int status = 0;
    std::string out;  // stdout
    std::string err;  // stderr
};

// Runs a shell command line (/bin/sh -c) with `stdin_text` on its standard input; never
// throws. With a `limit`, the command runs in a process group of its own, and one still
// running when the limit passes is killed, its whole group with it (SIGKILL): status 124, as
// timeout(1) gives, so that a hang fails a test instead of stopping the suite.
Output sh(const std::string& command, const std::string& stdin_text = "",
          std::chrono::seconds limit = std::chrono::seconds(0));

// Runs a shell command line with a new pseudo-terminal as its standard input, output and
// error (and controlling terminal), as script(1) does; `out` is what the terminal showed,
// "\n" as "\r\n". The limit as for sh().
Output sh_on_terminal(const std::string& command,
                      std::chrono::seconds limit = std::chrono::seconds(0));

// Every entry under `dir`, `dir` itself included, one line each in path order: the path
// relative to `dir`, the type, size, permission bits and modification time (nanoseconds
// where the system keeps them), then a regular file's blob id (its bytes' SHA-1, as git
// hash-object gives it) or a symlink's target. Symlinks are not followed. Equal snapshots:
// nothing was written.
std::string tree_snapshot(const std::string& dir);

// A file's modification time, of the entry itself (a symlink is not followed).
struct FileTime {
    long long seconds = 0;
    long nanoseconds = 0;
};
FileTime mtime_of(const std::string& path);

// Sets a file's access and modification times to `seconds` since the epoch, with no fraction
// of a second (as `touch -d @seconds` does).
void set_times(const std::string& path, std::time_t seconds);

// A file's bytes; empty when it cannot be read.
std::string slurp(const std::string& path);

// The context-pack binary under test, and the checkout it was built from (support/paths.cpp,
// the one file that the build's paths are compiled into).
std::string binary();
std::string source_dir();

// Quotes one word for the shell.
std::string q(const std::string& word);

class TempDir {
  public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return path_; }

  private:
    std::string path_;
};

class Repo {
  public:
    explicit Repo(bool bare = false);
    const std::string& dir() const { return dir_.path(); }
    std::string at(const std::string& rel) const { return dir() + "/" + rel; }

    // Runs `git ARGS` in the repository; a failure fails the test.
    std::string git(const std::string& args) const;
    Output git_status(const std::string& args) const;

    void write(const std::string& rel, const std::string& content) const;
    std::string read(const std::string& rel) const;
    void remove(const std::string& rel) const;
    // Stages everything and commits; returns the full hash.
    std::string commit(const std::string& message = "change") const;
    std::string head() const;

  private:
    TempDir dir_;
};

// "L1\nL2\n...Ln\n", lines named with a prefix.
std::string numbered(int n, const std::string& prefix = "L");

// Runs the built context-pack binary in `dir` with `args`; stdin from `input`.
Output context_pack(const std::string& dir, const std::string& args, const std::string& input = "");

}  // namespace cptest
