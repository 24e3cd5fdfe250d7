// libFuzzer target: the MCP server's message loop (cp::mcp::serve) fed the input as JSON-RPC
// lines, with the replies kept and checked: serve returns 0 at end of input; every line it
// writes is one JSON value; each line that JSON-RPC 2.0 says needs an answer (a request with
// an id, a line that is not JSON or not a message, an empty batch) gets exactly one reply,
// with the request's id (a batch one array of them), and nothing else does; a reply
// holds a result or an error, never an internal error (an exception the server caught), and
// a tools/call result holds content and isError. Lines the server sends of its own accord (a
// request or notification, with a method) are allowed anywhere. Never a crash, leak or hang.
//
// tools/call runs the whole pipeline, so the target keeps it inside a scratch directory made
// once at start: it is the working directory (so the default repo, ".", is not a git
// repository, and the search upwards stops at GIT_CEILING_DIRECTORIES), HOME and the config
// search paths point into it, git's repository variables are unset, and a line holding a
// string that could lead outside (an absolute path, '~', '..', a file: URI), also inside a
// spec sent as a JSON text, is not fed to the server. In it is a small repository, "repo",
// made with libgit2: commit "base", then "main" (an edit, a rename, a new file), checked out
// with an uncommitted edit and an untracked file, so that the pipeline runs end to end.
#include <git2.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "context_pack/app/mcp.hpp"
#include "context_pack/model/json_text.hpp"

namespace {

using Json = nlohmann::ordered_json;

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
    std::fprintf(stderr, "fuzz_mcp: %s: %.*s\n", what, static_cast<int>(detail.size()),
                 detail.data());
    std::abort();
}

// ---- the scratch directory and its repository -------------------------------------------

void write_file(const std::string& path, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << text;
    if (!f) fail("cannot write", path);
}

void check(int rc, const char* what) {
    if (rc < 0) {
        const git_error* e = git_error_last();
        fail(what, e ? e->message : "");
    }
}

// The index as the working tree has `files`, without `removed`, written as a commit on main.
git_oid commit_files(git_repository* repo, const std::vector<std::string>& files,
                     const std::vector<std::string>& removed, const git_commit* parent,
                     const char* message) {
    git_index* index = nullptr;
    check(git_repository_index(&index, repo), "git_repository_index");
    for (const auto& f : removed) check(git_index_remove_bypath(index, f.c_str()), "remove");
    for (const auto& f : files) check(git_index_add_bypath(index, f.c_str()), "add");
    check(git_index_write(index), "git_index_write");
    git_oid tree_id, commit_id;
    check(git_index_write_tree(&tree_id, index), "git_index_write_tree");
    git_index_free(index);
    git_tree* tree = nullptr;
    check(git_tree_lookup(&tree, repo, &tree_id), "git_tree_lookup");
    git_signature* sig = nullptr;
    check(git_signature_new(&sig, "F", "f@example.com", 1700000000, 0), "git_signature_new");
    const git_commit* parents[] = {parent};
    check(git_commit_create(&commit_id, repo, "HEAD", sig, sig, nullptr, message, tree,
                            parent ? 1 : 0, parents),
          "git_commit_create");
    git_signature_free(sig);
    git_tree_free(tree);
    return commit_id;
}

void make_repository(const std::string& dir) {
    git_repository_init_options opts;
    git_repository_init_options_init(&opts, GIT_REPOSITORY_INIT_OPTIONS_VERSION);
    opts.flags = GIT_REPOSITORY_INIT_MKPATH;
    opts.initial_head = "main";
    git_repository* repo = nullptr;
    check(git_repository_init_ext(&repo, dir.c_str(), &opts), "git_repository_init_ext");
    const std::string a_c =
        "#include <stdio.h>\n\nint add(int a, int b) {\n    return a + b;\n}\n\n"
        "int twice(int a) {\n    return add(a, a);\n}\n\nint main(void) {\n"
        "    printf(\"%d\\n\", twice(add(1, 2)));\n    return 0;\n}\n";
    const std::string util =
        "def helper(x):\n    return x * 2\n\n\ndef other(y):\n    return helper(y) + 1\n";
    write_file(dir + "/a.c", a_c);
    write_file(dir + "/lib/util.py", util);
    write_file(dir + "/README.md", "# fixture\n\nA repository to serve.\n");
    git_oid base = commit_files(repo, {"a.c", "lib/util.py", "README.md"}, {}, nullptr, "base\n");

    git_commit* base_commit = nullptr;
    check(git_commit_lookup(&base_commit, repo, &base), "git_commit_lookup");
    std::filesystem::remove(dir + "/lib/util.py");
    write_file(dir + "/a.c", "/* added */\n" + a_c + "\nint unused(void) { return add(0, 0); }\n");
    write_file(dir + "/lib/helpers.py", util + "\n\ndef third(z):\n    return other(z)\n");
    write_file(dir + "/new.txt", "new\n");
    commit_files(repo, {"a.c", "lib/helpers.py", "new.txt"}, {"lib/util.py"}, base_commit,
                 "main\n");
    git_reference* tag = nullptr;
    check(git_reference_create(&tag, repo, "refs/tags/base", &base, 0, "tag"), "tag");
    git_reference_free(tag);
    git_commit_free(base_commit);
    git_repository_free(repo);

    // Uncommitted: an edit of a.c and an untracked file.
    write_file(dir + "/a.c", "/* added */\n/* and again */\n" + a_c);
    write_file(dir + "/untracked.c", "int add(int a, int b);\n");
}

std::string scratch;

void remove_scratch() {
    std::error_code ec;
    if (!scratch.empty()) std::filesystem::remove_all(scratch, ec);
}

// ---- what may be fed ------------------------------------------------------------------------

bool leads_outside(std::string_view s) {
    if (!s.empty() && (s.front() == '/' || s.front() == '~')) return true;
    if (s.find("..") != std::string_view::npos) return true;
    for (std::size_t i = 0; i + 5 <= s.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) == 'f' &&
            std::tolower(static_cast<unsigned char>(s[i + 1])) == 'i' &&
            std::tolower(static_cast<unsigned char>(s[i + 2])) == 'l' &&
            std::tolower(static_cast<unsigned char>(s[i + 3])) == 'e' && s[i + 4] == ':')
            return true;
    return false;
}

// Whether any string of `j`, or of a JSON text one of its strings holds (a spec sent as a
// string), could lead outside the scratch directory.
bool reaches_outside(const Json& j) {
    if (j.is_string()) {
        const auto& s = j.get_ref<const std::string&>();
        if (leads_outside(s)) return true;
        auto first = s.find_first_not_of(" \t\r\n");
        if (first == std::string::npos || (s[first] != '{' && s[first] != '[')) return false;
        auto inner = cp::parse_ordered_json(s);
        return inner && reaches_outside(inner.value());
    }
    if (j.is_object())
        for (const auto& item : j.items())
            if (reaches_outside(item.value())) return true;
    if (j.is_array())
        for (const auto& v : j)
            if (reaches_outside(v)) return true;
    return false;
}

// ---- what JSON-RPC 2.0 says the server answers -----------------------------------------------

struct Answer {
    Json id;  // the reply's id: the request's, or null
    bool tool_call = false;
};
struct Expected {
    bool batch = false;
    std::vector<Answer> answers;  // one for a single message
};

// The answer one message needs, if any.
std::optional<Answer> answer_to(const Json& m) {
    if (!m.is_object()) return Answer{nullptr};
    auto id = m.find("id");
    bool id_ok = id != m.end() && (id->is_string() || id->is_number_integer());
    auto method = m.find("method");
    if (method == m.end()) {
        if (m.contains("result") || m.contains("error")) return std::nullopt;  // a response
        return Answer{id_ok ? *id : Json(nullptr)};
    }
    if (id == m.end()) return std::nullopt;  // a notification
    bool tool_call = id_ok && method->is_string() && *method == "tools/call";
    return Answer{id_ok ? *id : Json(nullptr), tool_call};
}

std::optional<Expected> expected_of(const cp::Result<Json>& parsed) {
    if (!parsed) return Expected{false, {Answer{nullptr}}};
    const Json& m = parsed.value();
    if (!m.is_array()) {
        auto a = answer_to(m);
        if (!a) return std::nullopt;
        return Expected{false, {std::move(*a)}};
    }
    if (m.empty()) return Expected{false, {Answer{nullptr}}};
    Expected e{true, {}};
    for (const Json& item : m)
        if (auto a = answer_to(item)) e.answers.push_back(std::move(*a));
    if (e.answers.empty()) return std::nullopt;
    return e;
}

void check_reply(const Json& r, const Answer& a) {
    if (!r.is_object()) fail("a reply that is not an object", r.dump());
    if (r.value("jsonrpc", Json()) != "2.0") fail("a reply without jsonrpc 2.0", r.dump());
    if (!r.contains("id") || r["id"] != a.id) fail("a reply with another id", r.dump());
    bool result = r.contains("result"), error = r.contains("error");
    if (result == error) fail("a reply without exactly one of result and error", r.dump());
    if (error) {
        const Json& e = r["error"];
        if (!e.is_object() || !e.contains("code") || !e["code"].is_number_integer() ||
            !e.contains("message") || !e["message"].is_string())
            fail("an error without a code and a message", r.dump());
        if (e["code"] == -32603) fail("an internal error", r.dump());
        return;
    }
    if (!a.tool_call) return;
    const Json& res = r["result"];
    if (!res.is_object() || !res.contains("content") || !res["content"].is_array() ||
        res["content"].empty() || !res.contains("isError") || !res["isError"].is_boolean())
        fail("a tools/call result without content and isError", r.dump());
    const Json& first = res["content"][0];
    if (!first.is_object() || !first.contains("text") || !first["text"].is_string())
        fail("a tools/call result without text", r.dump());
    if (res["isError"] == true) {
        const auto& text = first["text"].get_ref<const std::string&>();
        if (text.empty()) fail("a tool error that says nothing", r.dump());
        if (text.rfind("internal error", 0) == 0) fail("an internal error", r.dump());
    } else if (!res.contains("structuredContent") || !res["structuredContent"].is_object()) {
        fail("a tools/call result without structuredContent", r.dump());
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    std::string base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    std::string tmpl = base + "/fuzz-mcp-XXXXXX";
    if (!mkdtemp(tmpl.data())) fail("mkdtemp");
    scratch = tmpl;
    std::atexit(remove_scratch);
    for (const char* name : {"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
                             "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE",
                             "GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"})
        unsetenv(name);
    setenv("HOME", scratch.c_str(), 1);
    setenv("XDG_CONFIG_HOME", scratch.c_str(), 1);
    setenv("GIT_CEILING_DIRECTORIES", base.c_str(), 1);
    git_libgit2_init();
    for (auto level : {GIT_CONFIG_LEVEL_SYSTEM, GIT_CONFIG_LEVEL_XDG, GIT_CONFIG_LEVEL_GLOBAL,
                       GIT_CONFIG_LEVEL_PROGRAMDATA})
        git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, scratch.c_str());
    make_repository(scratch + "/repo");
    if (chdir(scratch.c_str()) != 0) fail("chdir", scratch);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // The lines as serve reads them (std::getline, a trailing CR dropped, blank ones passed
    // by), each fed unless it could lead outside, with the answer it needs.
    std::string_view text(reinterpret_cast<const char*>(data), size);
    std::string fed;
    std::vector<Expected> expected;
    while (!text.empty()) {
        auto nl = text.find('\n');
        std::string_view raw = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        std::string line(raw);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) {
            fed.append(raw).push_back('\n');
            continue;
        }
        auto parsed = cp::parse_ordered_json(line);
        if (parsed && reaches_outside(parsed.value())) continue;
        if (auto e = expected_of(parsed)) expected.push_back(std::move(*e));
        fed.append(raw).push_back('\n');
    }

    std::istringstream in(fed);
    std::ostringstream out, err;
    if (int status = cp::mcp::serve(in, out, err); status != 0)
        fail("serve did not return 0 at end of input", err.str());
    if (err.str().find("internal error") != std::string::npos) fail("an internal error", err.str());

    // Replies may come in another order than their requests, as JSON-RPC allows: a tool call
    // that arrives before the client's roots waits for them, while later messages are
    // answered. Each reply is matched to the earliest unanswered message with its id(s).
    std::string written = out.str();
    if (!written.empty() && written.back() != '\n') fail("a reply without its newline");
    auto ids_of = [](const Expected& e) {
        std::vector<Json> ids;
        for (const Answer& a : e.answers) ids.push_back(a.id);
        return ids;
    };
    std::string_view rest = written;
    while (!rest.empty()) {
        auto nl = rest.find('\n');
        std::string_view line = rest.substr(0, nl);
        rest.remove_prefix(nl + 1);
        auto parsed = cp::parse_ordered_json(line);
        if (!parsed) fail("a line that is not JSON", line);
        const Json& r = parsed.value();
        if (r.is_object() && r.contains("method")) {  // the server's own request or notification
            if (r.value("jsonrpc", Json()) != "2.0") fail("a message without jsonrpc 2.0", line);
            continue;
        }
        std::vector<Json> ids;
        if (r.is_array()) {
            for (const Json& item : r)
                ids.push_back(item.is_object() ? item.value("id", Json()) : Json());
        } else if (r.is_object()) {
            ids.push_back(r.value("id", Json()));
        }
        auto match = std::find_if(expected.begin(), expected.end(), [&](const Expected& e) {
            return e.batch == r.is_array() && ids_of(e) == ids;
        });
        if (match == expected.end()) fail("a reply to nothing, or with another id", line);
        if (!match->batch) {
            check_reply(r, match->answers.front());
        } else {
            for (std::size_t i = 0; i < r.size(); ++i) check_reply(r[i], match->answers[i]);
        }
        expected.erase(match);
    }
    if (!expected.empty())
        fail("a message without its reply", std::to_string(expected.size()) + " unanswered");
    return 0;
}
