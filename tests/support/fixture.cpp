#include "support/fixture.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "support/catch.hpp"

namespace cptest {
namespace {

// A normalised environment for the git CLI and libgit2 alike, set once per process.
const bool kEnvironment = [] {
    static std::string home = [] {
        char tmpl[] = "/tmp/cp-home-XXXXXX";
        return std::string(mkdtemp(tmpl));
    }();
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
    std::ofstream(home + "/.gitconfig") << "[init]\n\tdefaultBranch = main\n"
                                        << "[advice]\n\tdetachedHead = false\n";
    return true;
}();

}  // namespace

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    return buf.str();
}

Output sh(const std::string& command, const std::string& stdin_text) {
    (void)kEnvironment;
    TempDir io;
    std::string in = io.path() + "/in", out = io.path() + "/out", err = io.path() + "/err";
    std::ofstream(in, std::ios::binary) << stdin_text;
    std::string full = "( " + command + " ) <" + q(in) + " >" + q(out) + " 2>" + q(err);
    int raw = std::system(full.c_str());
    Output o;
    o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    o.out = slurp(out);
    o.err = slurp(err);
    return o;
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
    return sh("cd " + q(dir) + " && " + q(CONTEXT_PACK_BINARY) + " " + args, input);
}

}  // namespace cptest
