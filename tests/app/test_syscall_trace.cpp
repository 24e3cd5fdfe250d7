// The promises "never runs, never writes, never opens outside" checked on the system calls
// themselves: the tool runs under strace in a hostile repository, through every door (the
// command line's modes and the MCP server), and every call that names a file is judged.
// Rows B75-B76 of docs/bad-input.md. Linux only (strace, /proc): tests/CMakeLists.txt builds
// it there alone; install-deps.sh installs strace.
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "context_pack/git/build_config.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"

using cptest::q;
using cptest::Repo;

namespace {

// A path made absolute against `dir` and with `.`, `..` and repeated slashes taken out.
std::string normal(const std::string& dir, const std::string& path) {
    std::string joined = path.starts_with('/') ? path : dir + "/" + path;
    std::vector<std::string> parts;
    std::istringstream in(joined);
    for (std::string part; std::getline(in, part, '/');) {
        if (part.empty() || part == ".") continue;
        if (part == "..") {
            if (!parts.empty()) parts.pop_back();
        } else {
            parts.push_back(part);
        }
    }
    std::string out;
    for (const auto& p : parts) out += "/" + p;
    return out.empty() ? "/" : out;
}

bool under(const std::string& path, const std::string& dir) {
    return path == dir ||
           (path.starts_with(dir) && (dir.ends_with('/') || path[dir.size()] == '/'));
}

// What a traced run may touch: its own inputs and git's places, and the system's loader,
// libraries and CPU count. `read` are trees whose files may be opened for reading; `stat`
// are places whose metadata may be asked (the ancestors of a read place are added).
struct Allowed {
    std::vector<std::string> read;
    std::vector<std::string> stat;

    bool may_open(const std::string& path) const {
        static const std::regex own_proc(R"(^/proc/\d+(/.*)?$)");  // /proc/self, resolved
        if (std::regex_match(path, own_proc)) return true;
        for (const auto& r : read)
            if (under(path, r)) return true;
        return false;
    }
    bool may_stat(const std::string& path) const {
        if (may_open(path)) return true;
        for (const auto& s : stat)
            if (under(path, s)) return true;
        for (const auto& r : read)  // realpath and discovery ask each ancestor
            if (under(r, path)) return true;
        return false;
    }
};

Allowed system_places(std::vector<std::string> mine) {
    Allowed a;
    a.read = std::move(mine);
    for (const char* p : {"/etc/ld.so.cache", "/etc/ld.so.preload", "/lib", "/lib64", "/usr/lib",
                          "/usr/lib64", "/etc/gitconfig", "/etc/gitattributes",
                          "/sys/devices/system/cpu", "/proc/self", "/dev/null", "/dev/urandom"})
        a.read.push_back(p);
    // The C library's count of processors (the pool's size): /sys/devices/system/cpu above,
    // or /proc/stat where /sys is not mounted (a chroot, some containers).
    a.read.push_back("/proc/stat");
    // The system's CA bundle and TLS settings, which libgit2's TLS setup reads at start
    // where the build does not wrap it away (a shared libgit2).
    a.read.push_back("/etc/ssl");
    return a;
}

// One traced call: strace -f -y lines, `PID name(args) = result`.
struct Call {
    std::string line;
    std::string name;
    std::string args;
    std::string result;
};

std::vector<Call> calls_of(const std::string& log) {
    static const std::regex shape(R"(^\d+ +([a-z0-9_]+)\((.*)\) += (.*)$)");
    std::vector<Call> calls;
    std::istringstream in(log);
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_match(line, m, shape)) calls.push_back({line, m[1], m[2], m[3]});
    }
    return calls;
}

// The problems in one trace: every call that ran a program, changed the file system, opened
// a file for writing, or opened or looked at a path outside what the run may touch.
std::vector<std::string> violations(const std::string& log, const std::string& cwd,
                                    const Allowed& allowed) {
    // Calls whose first argument is a directory descriptor and the second a path, and calls
    // whose first argument is a path.
    static const std::set<std::string> at_calls = {
        "openat",    "openat2",    "newfstatat", "fstatat64",         "statx",
        "faccessat", "faccessat2", "readlinkat", "name_to_handle_at", "inotify_add_watch"};
    static const std::set<std::string> path_calls = {
        "open",       "stat",   "lstat",    "access",    "readlink",
        "chdir",      "statfs", "getxattr", "lgetxattr", "listxattr",
        "llistxattr", "execve", "chroot",   "uselib",    "swapon"};
    static const std::regex dirfd_path(R"(^(AT_FDCWD|\d+)<([^>]*)>, \"((?:[^\"\\]|\\.)*)\")");
    static const std::regex plain_path(R"(^\"((?:[^\"\\]|\\.)*)\")");
    static const std::regex opened_fd(R"(^\d+<([^>]*)>)");
    static const std::vector<std::string> changers = {
        "unlink", "unlinkat", "rename",   "renameat", "renameat2", "mkdir",    "mkdirat",
        "rmdir",  "link",     "linkat",   "symlink",  "symlinkat", "chmod",    "fchmodat",
        "chown",  "lchown",   "fchownat", "truncate", "utimensat", "utime",    "utimes",
        "mknod",  "mknodat",  "creat",    "fork",     "vfork",     "setxattr", "removexattr"};
    std::vector<std::string> found;
    int execs = 0;
    for (const auto& c : calls_of(log)) {
        auto bad = [&](const std::string& why) {
            auto what = why + ": " + c.line.substr(c.line.find(' ') + 1);
            if (std::find(found.begin(), found.end(), what) == found.end()) found.push_back(what);
        };
        if (c.name == "execve" || c.name == "execveat") {
            if (++execs > 1) bad("runs a program");
            continue;
        }
        if ((c.name == "clone" || c.name == "clone3") &&
            c.args.find("CLONE_THREAD") == std::string::npos) {
            bad("starts a process");
            continue;
        }
        if (std::find(changers.begin(), changers.end(), c.name) != changers.end()) {
            bad("changes the file system");
            continue;
        }
        // The path the call names, made absolute against its directory descriptor or the
        // directory the run started in; calls on a descriptor alone name none.
        std::smatch m;
        std::string path;
        if (at_calls.count(c.name) && std::regex_search(c.args, m, dirfd_path)) {
            if (m[3].length() == 0) continue;  // AT_EMPTY_PATH: the descriptor itself
            path = normal(m[2], m[3]);
        } else if (path_calls.count(c.name) && std::regex_search(c.args, m, plain_path))
            path = normal(cwd, m[1]);
        else
            continue;
        bool opens = c.name == "open" || c.name == "openat" || c.name == "openat2";
        if (opens &&
            std::regex_search(c.args, std::regex("O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND")) &&
            path != "/dev/null")
            bad("opens for writing");
        else if (opens && std::regex_search(c.result, m, opened_fd) && !allowed.may_open(m[1]))
            bad("opens outside (" + std::string(m[1]) + ")");
        else if (opens && !allowed.may_open(path))
            bad("tries to open outside");
        else if (!opens && !allowed.may_stat(path))
            bad("looks outside");
    }
    if (execs == 0) found.push_back("the trace holds no execve: strace did not follow the tool");
    return found;
}

std::string real(const std::string& path) {
    auto o = cptest::sh("realpath " + q(path));
    REQUIRE(o.status == 0);
    return o.out.substr(0, o.out.find('\n'));
}

struct Traced {
    std::string log;  // strace's
    std::string out;  // the tool's standard output
};

// Runs `command` (a shell line that starts the tool) under strace.
// `env`: assignments the traced process starts with (`NAME=value `, shell-quoted).
Traced traced(const std::string& dir, const std::string& home, const std::string& command,
              const std::string& input = "", int max_status = 1, const std::string& env = "") {
    REQUIRE(cptest::sh("command -v strace").status == 0);  // scripts/install-deps.sh installs it
    cptest::TempDir logs;
    auto log = logs.path() + "/trace";
    // LeakSanitizer cannot run under ptrace: a sanitized build is traced without it.
    auto o = cptest::sh("cd " + q(dir) + " && HOME=" + q(home) +
                            " ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" " + env +
                            " env -u XDG_CONFIG_HOME strace -f -y -qq -s 4096 -o " + q(log) +
                            " -e trace=%file,%process,%desc -e signal=none " + command,
                        input);
    INFO(command << "\n" << o.err);
    CHECK(o.status <= max_status);
    return {cptest::slurp(log), o.out + o.err};
}

// A repository whose committed files point outside, and the places outside. With
// `side_files`, also the attribute and ignore files that libgit2 and the tool read on their
// own (passed by with the libgit2 built here; with a system libgit2 the tool refuses to run
// then: B50-B52).
struct Hostile {
    Repo repo;
    cptest::TempDir outside;
    cptest::TempDir home;
    std::string base;

    explicit Hostile(bool side_files) {
        auto out = outside.path();
        cptest::sh("mkdir -p " + q(out + "/dir") + " && printf 'secret\\n' > " + q(out + "/s.c") +
                   " && printf '* -diff\\n' > " + q(out + "/attrs") + " && printf '*\\n' > " +
                   q(out + "/ignore") + " && printf 'int widget;\\n' > " + q(out + "/dir/x.c"));
        repo.write("a.c", cptest::numbered(20) + "int widget;\n");
        repo.write("sub/b.c", "call widget;\n");
        repo.write("gone.c", "int gone;\n");
        base = repo.commit();
        // An anchored file and a directory of files that are links out, committed; a
        // .gitmodules link (which git refuses to add) and a FIFO, untracked.
        auto links = "cd " + q(repo.dir()) + " && ln -s " + q(out + "/dir") + " linked && ln -s " +
                     q(out + "/s.c") + " top.c && ln -s " + q(out + "/s.c") +
                     " .gitmodules && mkfifo fifo";
        if (side_files)
            links += " && ln -s " + q(out + "/attrs") + " .gitattributes && ln -s " +
                     q(out + "/ignore") + " .gitignore && ln -s " + q(out + "/ignore") +
                     " sub/.gitignore && ln -s " + q(out + "/attrs") +
                     " sub/.gitattributes && git add .gitattributes .gitignore sub";
        REQUIRE(cptest::sh(links).status == 0);
        repo.git("add linked top.c");
        repo.git("commit -q -m links");
        repo.write("a.c", "top\n" + cptest::numbered(20) + "int widget;\n");
        repo.remove("gone.c");
        repo.write("new.c", "int fresh;\n");
    }

    Allowed allowed() const { return system_places({real(repo.dir()), real(home.path())}); }
};

void check_clean(const std::string& log, const std::string& cwd, const Allowed& allowed) {
    auto found = violations(log, cwd, allowed);
    std::string all;
    for (const auto& f : found) all += f + "\n";
    INFO(all);
    CHECK(found.empty());
}

}  // namespace

TEST_CASE("syscall trace: the judge sees what it must") {
    // A judge that passes everything would make the tests below worthless.
    Allowed a = system_places({"/work/repo"});
    auto log = [](const std::string& line) {
        return "7 execve(\"/bin/tool\", [], 0x0 /* 0 vars */) = 0\n" + line + "\n";
    };
    CHECK(violations(log("7 openat(AT_FDCWD</work/repo>, \"a.c\", O_RDONLY) = 3</work/repo/a.c>"),
                     "/work/repo", a)
              .empty());
    CHECK(violations(
              log("7 openat(AT_FDCWD</work/repo>, \"../x\", O_RDONLY) = -1 ENOENT (No such file)"),
              "/work/repo", a)
              .size() == 1);
    CHECK(violations(log("7 openat(3</work/repo/d>, \"l\", O_RDONLY) = 4</etc/shadow>"),
                     "/work/repo", a)
              .size() == 1);
    CHECK(violations(log("7 openat(AT_FDCWD</work/repo>, \"a.c\", O_WRONLY|O_CREAT, 0644) = "
                         "3</work/repo/a.c>"),
                     "/work/repo", a)
              .size() == 1);
    CHECK(violations(log("7 newfstatat(AT_FDCWD</work/repo>, \"/work\", {...}, 0) = 0"),
                     "/work/repo", a)
              .empty());
    CHECK(violations(log("7 newfstatat(AT_FDCWD</work/repo>, \"/home/x/.ssh\", {...}, 0) = 0"),
                     "/work/repo", a)
              .size() == 1);
    CHECK(violations(log("7 unlink(\"/work/repo/.git/index.lock\") = 0"), "/work/repo", a).size() ==
          1);
    CHECK(violations(log("7 execve(\"/bin/sh\", [\"sh\"], 0x0 /* 0 vars */) = 0"), "/work/repo", a)
              .size() == 1);
    CHECK(violations(log("7 clone3({flags=CLONE_VM|CLONE_FS, exit_signal=SIGCHLD}, 88) = 8"),
                     "/work/repo", a)
              .size() == 1);
    CHECK(violations(log("7 clone3({flags=CLONE_VM|CLONE_THREAD|CLONE_SIGHAND}, 88) = 8"),
                     "/work/repo", a)
              .empty());
    CHECK(violations(log("7 write(2</dev/pts/0>, \"x\", 1) = 1"), "/work/repo", a).empty());
    CHECK(violations(log("7 access(\"../.ssh/id\", R_OK) = -1 ENOENT (No such file)"), "/work/repo",
                     a)
              .size() == 1);
    CHECK(violations("", "/work/repo", a).size() == 1);
}

TEST_CASE("bad input B75: every mode, traced, in a repository of links out") {
    const char* const modes[] = {
        "", "--format json", "--table", "--target HEAD", "--since HEAD", "--at-base"};
    for (bool side_files : {false, true}) {
        Hostile h(side_files);
        auto allowed = h.allowed();
        for (const char* mode : modes) {
            INFO("mode: " << mode
                          << (side_files ? ", with links as .gitattributes and .gitignore" : ""));
            auto run = traced(h.repo.dir(), h.home.path(),
                              q(cptest::binary()) + " " + mode + " --base " + h.base +
                                  " --anchor a.c:2-4@L3 --anchor sub/b.c:1@widget --anchor gone.c:1"
                                  " --anchor top.c:1 --anchor linked/x.c:1 --anchor new.c:1",
                              "", side_files && !CONTEXT_PACK_TREE_SYMLINKS_IGNORED ? 2 : 1);
            CHECK(run.out.find("secret") == std::string::npos);
            // Passed by with a note (the libgit2 built here), or refused naming the link.
            if (side_files &&
                (CONTEXT_PACK_TREE_SYMLINKS_IGNORED ||
                 (std::string(mode) != "--target HEAD" && std::string(mode) != "--at-base")))
                CHECK(run.out.find("is a symlink") != std::string::npos);
            check_clean(run.log, real(h.repo.dir()), allowed);
        }
    }
}

TEST_CASE("bad input B76: the MCP server, traced, asked for paths outside") {
    Hostile h(false);
    auto allowed = h.allowed();
    auto out = h.outside.path();
    // One line: each JSON-RPC message is one.
    std::string spec = R"({"id": "s", "base": ")" + h.base +
                       R"(", "reads": [)"
                       R"({"location": {"path": "a.c", "line": 2, "end_line": 4}}, )"
                       R"({"location": {"path": "top.c", "line": 1}}, )"
                       R"({"location": {"path": "linked/x.c", "line": 1}}]})";
    std::ofstream(out + "/plan.json") << spec;
    auto call = [&](int id, const std::string& args) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) +
               ",\"method\":\"tools/call\",\"params\":{\"name\":\"context_pack\",\"arguments\":" +
               args + "}}\n";
    };
    std::string input =
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
        "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n" +
        call(1, "{\"spec\":" + spec + "}") +
        call(2, "{\"spec\":" + spec + ",\"target\":\"HEAD\"}") +
        call(3, "{\"spec\":\"" + out + "/plan.json\"}") +
        call(4, "{\"spec\":\"../../../../../../../.." + out + "/plan.json\"}") +
        call(5, "{\"spec\":" + spec + ",\"repo\":\"" + out + "\"}") +
        call(6, "{\"spec\":\"/etc/passwd\"}");
    auto run = traced(h.repo.dir(), h.home.path(), q(cptest::binary()) + " mcp", input);
    check_clean(run.log, real(h.repo.dir()), allowed);
    // The calls inside answer with a pack; each one that names a place outside is refused.
    std::istringstream replies(run.out);
    std::vector<std::string> lines;
    for (std::string line; std::getline(replies, line);) lines.push_back(line);
    REQUIRE(lines.size() == 7);
    // Calls run on threads of their own: replies come in any order, each with its id.
    auto reply_to = [&](int id) {
        std::string key = "\"id\":" + std::to_string(id) + ",";
        for (const auto& line : lines)
            if (line.find(key) != std::string::npos) return line;
        return std::string("no reply with id ") + std::to_string(id);
    };
    for (int i = 1; i <= 2; ++i) {
        INFO(reply_to(i));
        CHECK(reply_to(i).find("\"result\"") != std::string::npos);
        CHECK(reply_to(i).find("\"isError\":true") == std::string::npos);
    }
    for (int i = 3; i <= 6; ++i) {
        INFO(reply_to(i));
        CHECK(reply_to(i).find("\"isError\":true") != std::string::npos);
        CHECK(reply_to(i).find("root") != std::string::npos);  // says where paths may be
    }
}

TEST_CASE("bad input B76: the MCP server, traced, with objects outside through alternates") {
    // An outside repository whose objects the project's alternates, or the server's
    // environment, would add: each call is refused before any object of it is read, and the
    // trace holds no open or look outside (B90).
    Hostile h(false);
    auto allowed = h.allowed();
    const std::string other = h.outside.path() + "/other";
    REQUIRE(cptest::sh("git init -q " + q(other) + " && cd " + q(other) +
                       " && printf 'secret\\n' > a.c && git add a.c && git -c user.name=t "
                       "-c user.email=t@t commit -q -m secret")
                .status == 0);
    std::string secret = cptest::sh("git -C " + q(other) + " rev-parse HEAD").out;
    secret = secret.substr(0, secret.find('\n'));
    const std::string objects = real(other + "/.git/objects");
    std::string input =
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
        "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
        "\"context_pack\",\"arguments\":{\"spec\":{\"base\":\"" +
        secret.substr(0, 7) + "\",\"reads\":[{\"location\":{\"path\":\"a.c\",\"line\":1}}]}}}}\n";
    auto refused_clean = [&](const Traced& run, const std::string& what) {
        INFO(what << "\n" << run.out);
        check_clean(run.log, real(h.repo.dir()), allowed);
        CHECK(run.out.find("secret") == std::string::npos);
        CHECK(run.out.find("\"isError\":true") != std::string::npos);
        CHECK(run.out.find("outside the server's directory") != std::string::npos);
    };
    SECTION("info/alternates, one relative line") {
        const std::string info = h.repo.at(".git/objects/info");
        REQUIRE(cptest::sh("mkdir -p " + q(info) +
                           " && realpath --relative-to=" + q(real(h.repo.at(".git/objects"))) +
                           " " + q(objects) + " > " + q(info + "/alternates"))
                    .status == 0);
        refused_clean(traced(h.repo.dir(), h.home.path(), q(cptest::binary()) + " mcp", input),
                      "alternates");
    }
    SECTION("GIT_ALTERNATE_OBJECT_DIRECTORIES") {
        refused_clean(traced(h.repo.dir(), h.home.path(), q(cptest::binary()) + " mcp", input, 1,
                             "GIT_ALTERNATE_OBJECT_DIRECTORIES=" + q(objects)),
                      "GIT_ALTERNATE_OBJECT_DIRECTORIES");
    }
    SECTION("GIT_OBJECT_DIRECTORY") {
        refused_clean(traced(h.repo.dir(), h.home.path(), q(cptest::binary()) + " mcp", input, 1,
                             "GIT_OBJECT_DIRECTORY=" + q(objects)),
                      "GIT_OBJECT_DIRECTORY");
    }
}

TEST_CASE("bad input B75: the git directory's files that are no regular files, traced") {
    // B88's hostile git directories: each refused before libgit2 opens the file, and the
    // trace holds no open or look outside, never a wait (the device is never opened).
    Hostile h(false);
    auto allowed = h.allowed();
    const std::string git = h.repo.at(".git");
    const std::pair<const char*, const char*> cases[] = {
        {"mkdir -p objects/info && ln -s /dev/zero objects/info/alternates",
         "objects/info/alternates is a device"},
        {"rm -f index && mkfifo index", ".git/index is a FIFO"},
        {"mkdir -p objects/pack && mkfifo objects/pack/multi-pack-index",
         "objects/pack/multi-pack-index is a FIFO"}};
    for (const auto& [setup, said] : cases) {
        INFO(setup);
        REQUIRE(cptest::sh("cd " + q(git) + " && " + setup).status == 0);
        auto run = traced(h.repo.dir(), h.home.path(),
                          q(cptest::binary()) + " --base " + h.base + " --anchor a.c:2-4", "", 2);
        INFO(run.out);
        CHECK(run.out.find(said) != std::string::npos);
        check_clean(run.log, real(h.repo.dir()), allowed);
        REQUIRE(cptest::sh("cd " + q(git) +
                           " && rm -f objects/info/alternates objects/pack/multi-pack-index index"
                           " && git --git-dir=. --work-tree=.. read-tree HEAD")
                    .status == 0);
    }
}
