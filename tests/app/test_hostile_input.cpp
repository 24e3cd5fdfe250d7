// Hostile input at the front ends' doors, rows B40 upward of docs/bad-input.md: JSON nested
// past the limit, special files given as specs, standard output that cannot be written, and
// messages that must not quote a spec's bytes. The binary runs with a 10-second limit
// (cptest::sh's), so a regression that hangs fails instead.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "context_pack/app/mcp.hpp"
#include "context_pack/app/spec_input.hpp"
#include "context_pack/model/json_text.hpp"
#include "context_pack/model/spec.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/outcome.hpp"

using cptest::Output;
using cptest::q;
using cptest::Repo;
using cptest::usage_error;
using Json = nlohmann::json;

namespace {

// A run still going after this is killed: status 124.
const std::chrono::seconds kLimit(10);

struct Simple {
    Repo repo;
    std::string base;
    Simple() {
        repo.write("a.c", cptest::numbered(10));
        base = repo.commit();
    }
    // The binary in the repository, with the limit (status 124 when it hangs).
    Output run(const std::string& args, const std::string& input = "") const {
        return cptest::sh("cd " + q(repo.dir()) + " && " + q(cptest::binary()) + " " + args, input,
                          kLimit);
    }
};

std::string request(int id, const std::string& method, const Json& params = Json::object()) {
    return Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump();
}

std::string call(int id, const Json& arguments) {
    return request(id, "tools/call", Json{{"name", "context_pack"}, {"arguments", arguments}});
}

// `context-pack mcp` started in `dir` with the limit, its standard input a pipe: the server
// reads only inside the directory it was started in (its client declares no roots), so each
// test starts it where its spec files are.
Output mcp_in(const std::string& dir, const std::string& input) {
    return cptest::sh("cd " + q(dir) + " && cat | " + q(cptest::binary()) + " mcp", input, kLimit);
}

// The server's replies, one JSON value a line of `out`.
std::vector<Json> replies_of(const std::string& out) {
    std::vector<Json> replies;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) replies.push_back(Json::parse(line));
    return replies;
}

std::string nested(int levels, const std::string& inside = "") {
    return std::string(std::size_t(levels), '[') + inside + std::string(std::size_t(levels), ']');
}

const std::string kTooDeep = "nested deeper than 256 levels";

}  // namespace

TEST_CASE("bad input B40: a JSON-RPC message nested 50,000 levels deep") {
    Simple s;
    auto deep = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":)" + nested(50000) + "}}";
    auto o = s.run("mcp", deep + "\n" + request(2, "ping") + "\n");
    INFO(o.err);
    CHECK(o.status == 0);
    auto replies = replies_of(o.out);
    REQUIRE(replies.size() == 2);
    CHECK(replies[0]["error"]["code"] == -32700);
    CHECK_THAT(replies[0]["error"]["message"].get<std::string>(), Catch::Contains(kTooDeep));
    CHECK(replies[1]["id"] == 2);
    CHECK(replies[1]["result"] == Json::object());

    // The limit exactly: 256 levels parse, 257 do not (the message object is the first level).
    auto at = [](int levels) { return cp::parse_json(nested(levels)); };
    CHECK(at(256).ok());
    REQUIRE_FALSE(at(257).ok());
    CHECK_THAT(at(257).error().message, Catch::Contains(kTooDeep));
    CHECK(cp::parse_ordered_json(nested(256)).ok());
    CHECK_FALSE(cp::parse_ordered_json("{\"a\":" + nested(256) + "}").ok());
}

TEST_CASE("bad input B41: a spec nested past the limit") {
    Simple s;
    cptest::TempDir dir;
    auto spec = R"({"base": "HEAD", "reads": )" + nested(50000) + "}";
    std::ofstream(dir.path() + "/deep.json") << spec;
    usage_error(s.run(q(dir.path() + "/deep.json")),
                dir.path() + "/deep.json: invalid JSON: arrays and objects " + kTooDeep);
    usage_error(s.run("-", spec), "<stdin>: invalid JSON: arrays and objects " + kTooDeep);
    std::ofstream(dir.path() + "/deep.jsonl") << "\n" << spec << "\n";
    usage_error(s.run(q(dir.path() + "/deep.jsonl")), "deep.jsonl:2: invalid JSON");

    // Over MCP: a spec sent as JSON text, and one read from a file.
    auto o = mcp_in(dir.path(), call(1, {{"spec", spec}, {"repo", s.repo.dir()}}) + "\n" +
                                    call(2, {{"spec", dir.path() + "/deep.json"}}) + "\n" +
                                    request(3, "ping") + "\n");
    CHECK(o.status == 0);
    auto replies = replies_of(o.out);
    REQUIRE(replies.size() == 3);
    for (int i : {0, 1}) {
        CHECK(replies[i]["result"]["isError"] == true);
        CHECK_THAT(replies[i]["result"]["content"][0]["text"].get<std::string>(),
                   Catch::Contains(kTooDeep));
    }
    CHECK(replies[2]["result"] == Json::object());
}

TEST_CASE("bad input B42: a FIFO as spec file, alone or in a spec folder") {
    Simple s;
    cptest::TempDir dir;
    auto fifo = dir.path() + "/plan.json";
    REQUIRE(cptest::sh("mkfifo " + q(fifo)).status == 0);
    usage_error(s.run(q(fifo)), "spec " + fifo +
                                    " is a pipe or FIFO, not a regular file; give a .json or "
                                    ".jsonl file, or - to read standard input");

    // Over MCP the server answers at once and goes on.
    auto o = mcp_in(dir.path(), call(1, {{"spec", fifo}}) + "\n" + request(2, "ping") + "\n");
    INFO(o.err);
    CHECK(o.status == 0);
    auto replies = replies_of(o.out);
    REQUIRE(replies.size() == 2);
    CHECK(replies[0]["result"]["isError"] == true);
    auto text = replies[0]["result"]["content"][0]["text"].get<std::string>();
    CHECK_THAT(text, Catch::Contains("is a pipe or FIFO, not a regular file"));
    CHECK_THAT(text, !Catch::Contains("standard input"));  // the server's stdin is taken
    CHECK(replies[1]["result"] == Json::object());

    // In a folder, entries that are not regular files are skipped: the FIFO, a folder named
    // like a spec file.
    REQUIRE(cptest::sh("mkdir " + q(dir.path() + "/sub.json")).status == 0);
    std::ofstream(dir.path() + "/real.json")
        << R"({"base": "HEAD", "reads": [{"location": {"path": "a.c", "line": 2}}]})";
    auto folder = s.run("--table " + q(dir.path()));
    INFO(folder.err);
    CHECK(folder.status == 0);
    CHECK_THAT(folder.out, Catch::Contains("1  read  a.c:2    SAME"));
    CHECK_THAT(folder.out, !Catch::Contains("sub.json"));
}

// The server's replies to one call per spec path, each refused for the kind it names, then a
// ping: a spec naming the server's standard input (a pipe here, as under an MCP client) must
// not swallow the messages after it. Started in /, the server lets these paths be opened
// (elsewhere they lie outside its directory and are refused unopened, B65), so what the open
// file is refuses them.
void refused_over_mcp(const std::vector<std::pair<std::string, std::string>>& path_and_kind) {
    std::string input;
    int id = 1;
    for (const auto& [path, kind] : path_and_kind) input += call(id++, {{"spec", path}}) + "\n";
    input += request(id, "ping") + "\n";
    auto o = mcp_in("/", input);
    INFO(o.err);
    CHECK(o.status == 0);
    auto replies = replies_of(o.out);
    REQUIRE(replies.size() == path_and_kind.size() + 1);
    for (std::size_t i = 0; i < path_and_kind.size(); ++i) {
        INFO(path_and_kind[i].first);
        CHECK(replies[i]["result"]["isError"] == true);
        CHECK_THAT(replies[i]["result"]["content"][0]["text"].get<std::string>(),
                   Catch::Contains(path_and_kind[i].second));
    }
    CHECK(replies.back()["id"] == id);
    CHECK(replies.back()["result"] == Json::object());
}

TEST_CASE("bad input B43: /dev/stdin, /dev/fd/0 and /dev/zero as spec") {
    Simple s;
    usage_error(s.run("/dev/zero"), "spec /dev/zero is a character device, not a regular file");
    // Through a pipe it is refused; redirected from a regular file it would be read.
    usage_error(
        cptest::sh("cd " + q(s.repo.dir()) + " && cat | " + q(cptest::binary()) + " /dev/stdin",
                   "{}", kLimit),
        "spec /dev/stdin is a pipe or FIFO");

    refused_over_mcp({{"/dev/stdin", "is a pipe or FIFO"},
                      {"/dev/fd/0", "is a pipe or FIFO"},
                      {"/dev/zero", "is a character device"}});
}

#if defined(__linux__)
// /proc is Linux's: other systems have no /proc/self.
TEST_CASE("bad input B43: /proc/self/fd/0 as spec") {
    refused_over_mcp({{"/dev/stdin", "is a pipe or FIFO"},
                      {"/proc/self/fd/0", "is a pipe or FIFO"},
                      {"/dev/zero", "is a character device"}});
}
#endif

TEST_CASE("bad input B44: spec input over 64 MiB") {
    Simple s;
    cptest::TempDir dir;
    auto file = [&](const std::string& name, std::uintmax_t size) {
        auto path = dir.path() + "/" + name;
        std::ofstream(path, std::ios::binary).close();
        std::filesystem::resize_file(path, size);  // NUL bytes (a sparse file, where it can be)
        REQUIRE(std::filesystem::file_size(path) == size);
        return path;
    };
    // Refused by its size, before a byte is read.
    usage_error(s.run(q(file("big.json", 67108865))),
                "big.json is over the 64 MiB a spec input may be; split it");
    // At the limit it is read (and is not JSON).
    usage_error(s.run(q(file("full.json", 67108864))), "full.json: invalid JSON");
    // Standard input is read up to the limit, then refused.
    usage_error(s.run("- < /dev/zero"), "standard input is over the 64 MiB a spec input may be");
}

// The arguments of every way the tool writes standard output: the pack as a table and as
// JSON (a spec written into `dir`), --help and --version.
std::vector<std::string> writers(const cptest::TempDir& dir) {
    auto spec = dir.path() + "/plan.json";
    std::ofstream(spec)
        << R"({"base": "HEAD", "reads": [{"location": {"path": "a.c", "line": 2}}]})";
    return {"--table " + q(spec), "--format json " + q(spec), "--help", "--version"};
}

const std::string kCannotWrite = "context-pack: cannot write to standard output: ";

TEST_CASE("bad input B45: standard output that cannot be written: closed") {
    Simple s;
    cptest::TempDir dir;
    for (const std::string& args : writers(dir)) {
        INFO(args);
        auto closed = s.run(args + " >&-");
        CHECK(closed.status == 2);
        CHECK(closed.err == kCannotWrite + "Bad file descriptor\n");
    }
    // A stream that fails without errno: the same line, without a reason the system gave.
    std::istringstream in(request(1, "ping") + "\n");
    std::ostringstream out, err;
    out.setstate(std::ios::badbit);
    CHECK(cp::mcp::serve(in, out, err) == 2);
    CHECK_THAT(err.str(), Catch::StartsWith("context-pack mcp: cannot write to standard output"));
}

#if defined(__linux__)
// /dev/full is Linux's: macOS and the BSDs have none.
TEST_CASE("bad input B45: standard output that cannot be written: /dev/full") {
    Simple s;
    cptest::TempDir dir;
    for (const std::string& args : writers(dir)) {
        INFO(args);
        auto full = s.run(args + " > /dev/full");
        CHECK(full.status == 2);
        CHECK(full.err == kCannotWrite + "No space left on device\n");
    }
    // The server stops at its first reply that cannot be written, saying why.
    auto mcp = s.run("mcp > /dev/full", request(1, "ping") + "\n" + request(2, "ping") + "\n");
    CHECK(mcp.status == 2);
    CHECK(mcp.err ==
          "context-pack mcp: cannot write to standard output: No space left on device; "
          "stopping\n");
}
#endif

TEST_CASE("bad input B46: a closed pipe with SIGPIPE ignored") {
    Simple s;
    cptest::TempDir dir;
    // A table of 5,000 rows, far more than a pipe holds, so the writes meet the closed end.
    Json spec = {{"base", "HEAD"}, {"reads", Json::array()}};
    for (int i = 0; i < 5000; ++i)
        spec["reads"].push_back({{"location", {{"path", "a.c"}, {"line", 1}}}});
    std::ofstream(dir.path() + "/many.json") << spec.dump();
    auto o =
        cptest::sh("cd " + q(s.repo.dir()) + " && { trap '' PIPE; " + q(cptest::binary()) +
                       " --table " + q(dir.path() + "/many.json") + " 2>" + q(dir.path() + "/err") +
                       "; echo $? > " + q(dir.path() + "/status") + "; } | head -c 1 > /dev/null",
                   "", kLimit);
    REQUIRE(o.status == 0);
    CHECK(cptest::slurp(dir.path() + "/status") == "2\n");
    CHECK(cptest::slurp(dir.path() + "/err") ==
          "context-pack: cannot write to standard output: Broken pipe\n");
}

TEST_CASE("bad input B47: no message quotes a spec's bytes") {
    Simple s;
    cptest::TempDir dir;
    const std::string secret = "hunter2-SECRET";
    struct Case {
        std::string text;
        std::string message;  // what is said instead, after "invalid JSON: "
    };
    const std::vector<Case> cases = {
        {R"({"base": "HEAD", "id": ")" + secret + "\x01\"}",
         "parse error at line 1, column 39: syntax error while parsing value - invalid string: "
         "control character U+0001 (SOH) must be escaped"},
        {"{\"base\": \"" + secret + "\xe9\"}",
         "parse error at line 1, column 26: syntax "
         "error while parsing value - invalid string: ill-formed UTF-8 byte"},
        {"{\"base\": \"" + secret + "\\q\"}",
         "parse error at line 1, column 26: syntax error while parsing value - invalid string: "
         "forbidden character after backslash"},
        {"{\"base\":\n \"" + secret, "parse error at line 2, column 17: syntax error"},
        {"{\"line\": 1e999" + std::string("9") + "}", "a number is out of the range of a double"},
    };
    for (std::size_t i = 0; i < cases.size(); ++i) {
        INFO(i);
        auto path = dir.path() + "/plan" + std::to_string(i) + ".json";
        std::ofstream(path, std::ios::binary) << cases[i].text;
        auto file = s.run(q(path));
        usage_error(file, path + ": invalid JSON: " + cases[i].message);
        CHECK_THAT(file.err, !Catch::Contains(secret) && !Catch::Contains("last read"));
        CHECK_THAT(file.err, !Catch::Contains("99999"));
        auto piped = s.run("-", cases[i].text);
        usage_error(piped, "<stdin>: invalid JSON: " + cases[i].message);
        CHECK_THAT(piped.err, !Catch::Contains(secret) && !Catch::Contains("last read"));

        // Over MCP: the spec as a file, as JSON text, and a message of the same bytes. A
        // string of invalid UTF-8 cannot be sent inside a JSON-RPC message; its file is.
        std::string input = call(1, {{"spec", path}}) + "\n";
        if (cases[i].text.find('\xe9') == std::string::npos)
            input += call(2, {{"spec", cases[i].text}}) + "\n";
        std::string raw = cases[i].text;
        std::replace(raw.begin(), raw.end(), '\n', ' ');
        input += raw + "\n";
        auto o = mcp_in(dir.path(), input);
        CHECK(o.status == 0);
        CHECK_THAT(o.out, !Catch::Contains(secret) && !Catch::Contains("last read"));
        CHECK_THAT(o.out, Catch::Contains("invalid JSON: " + cases[i].message.substr(0, 20)));
        CHECK_THAT(o.out, Catch::Contains("Parse error: "));
    }
}

TEST_CASE("bad input B48: a spec path with a NUL byte") {
    Simple s;
    cptest::TempDir dir;
    auto plan = dir.path() + "/plan.json";
    std::ofstream(plan)
        << R"({"base": "HEAD", "reads": [{"location": {"path": "a.c", "line": 2}}]})";
    const std::string named = plan + std::string(1, '\0') + ".txt";
    // Not the file before the NUL: refused, on one line.
    auto read = cp::read_spec_input(named, nullptr);
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message == "spec path '" + plan +
                                      "\\x00.txt' holds a NUL byte, which no file name can; give "
                                      "the path without it");
    std::istringstream in(call(1, {{"spec", named}, {"repo", s.repo.dir()}}) + "\n");
    std::ostringstream out, err;
    CHECK(cp::mcp::serve(in, out, err) == 0);
    auto replies = replies_of(out.str());
    REQUIRE(replies.size() == 1);
    CHECK(replies[0]["result"]["isError"] == true);
    CHECK_THAT(replies[0]["result"]["content"][0]["text"].get<std::string>(),
               Catch::Contains("holds a NUL byte"));
    // The other string arguments alike: never cut at the NUL, refused whole.
    for (const char* key : {"repo", "base", "target", "since"}) {
        Json args = {{"spec", plan}, {"repo", s.repo.dir()}};
        args[key] = (key == std::string("repo") ? s.repo.dir() : std::string("HEAD")) +
                    std::string(1, '\0') + "x";
        std::istringstream again(call(2, args) + "\n");
        std::ostringstream answer, errors;
        CHECK(cp::mcp::serve(again, answer, errors) == 0);
        auto r = replies_of(answer.str());
        REQUIRE(r.size() == 1);
        INFO(key << ": " << r[0].dump());
        CHECK(r[0]["result"]["isError"] == true);
        CHECK_THAT(r[0]["result"]["content"][0]["text"].get<std::string>(),
                   Catch::Contains(std::string(key) + " '") &&
                       Catch::Contains("holds a NUL byte, which no path or revision can"));
    }
}

TEST_CASE("bad input B85: an MCP message longer than any spec is answered and the server goes on") {
    // The line's bytes past the bound are read and dropped, never held: a JSON-RPC error for
    // it, then the next request is answered.
    std::string input(std::size_t(cp::kMaxSpecBytes) + (std::size_t(2) << 20), ' ');
    input += "\n" + request(7, "ping") + "\n";
    std::istringstream in(input);
    input.clear();
    input.shrink_to_fit();
    std::ostringstream out, err;
    CHECK(cp::mcp::serve(in, out, err) == 0);
    auto replies = replies_of(out.str());
    REQUIRE(replies.size() == 2);
    CHECK(replies[0]["id"].is_null());
    CHECK(replies[0]["error"]["code"] == -32600);
    CHECK_THAT(replies[0]["error"]["message"].get<std::string>(),
               Catch::Contains("a message of over 65 MiB; a spec is bounded at 64 MiB"));
    CHECK(replies[1]["id"] == 7);
    CHECK(replies[1].contains("result"));
}

#if defined(CP_TEST_ADDRESS_LIMIT) && defined(__linux__)
TEST_CASE("bad input B86: memory running out under a limit is said once, with the mend") {
    Simple s;
    std::string big;
    for (int i = 0; i < 1000000; ++i)  // 40 MB
        big += "int v" + std::to_string(i) + " = " + std::to_string(i) + "; /* padding */\n";
    s.repo.write("big.c", big);
    s.repo.commit();
    s.repo.write("big.c", "int changed;\n" + big.substr(big.find('\n') + 1));
    const std::string args = "--base HEAD --anchor big.c:1-3 --anchor big.c:100-101";
    CHECK(s.run(args).status == 0);
    // 100 MB of address space: the blobs do not fit.
    auto o = cptest::sh(
        "cd " + q(s.repo.dir()) + " && ulimit -v 100000 && " + q(cptest::binary()) + " " + args, "",
        kLimit);
    // Said once, as memory: ours with the mend where a read runs out (the blobs here), or the
    // system's where the limit meets the start on a platform with a larger footprint.
    INFO(o.out << o.err);
    CHECK(o.status == 2);
    CHECK(o.out.empty());
    CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
    CHECK((o.err.find("out of memory: the run needed more than this machine or its limit "
                      "gives; give fewer --jobs, a smaller --cache-mib or a smaller "
                      "--max-file-mib") != std::string::npos ||
           o.err.find("Cannot allocate memory") != std::string::npos));
    CHECK(o.err.find("bad_alloc") == std::string::npos);
}
#endif

TEST_CASE("bad input B91: bytes a terminal acts on, quoted from the repository by libgit2") {
    // A mandatory index extension whose signature is an escape sequence: libgit2's message
    // quotes it, and ours quotes libgit2's, escaped as git prints it (?[2J).
    Simple s;
    const std::string index = s.repo.at(".git/index");
    std::string bytes = cptest::slurp(index);
    REQUIRE(bytes.size() > 20);
    bytes.resize(bytes.size() - 20);  // the checksum, which libgit2 compares after the parse
    bytes += std::string("\x1b[2J") + std::string("\0\0\0\4", 4) + "abcd" + std::string(20, '\0');
    std::ofstream(index, std::ios::binary | std::ios::trunc) << bytes;
    auto o = s.run("--base HEAD --anchor 'a*.c:1'");
    INFO(o.out << o.err);
    usage_error(o, "cannot read the index: unsupported mandatory extension: '\\x1b[2J'");
    CHECK(o.err.find('\x1b') == std::string::npos);
}
