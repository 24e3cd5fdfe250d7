// The MCP server's one tool, context_pack: its description and input and output schemas, its
// arguments read into a pipeline Request (named as the tool names them), and a call's result:
// the text pack plus the report as structuredContent, or an isError result with one line.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "context_pack/core/result.hpp"
#include "context_pack/git/repository.hpp"

namespace cp::mcp {

using Json = nlohmann::ordered_json;  // keeps the report's key order in structuredContent

// Where a tool call may read: its spec files, and the repository it opens (working tree, git
// and common directories, objects, index), must lie inside these, once `.`, `..` and
// symlinks are resolved. They are the roots the client declares (roots/list), or, for a
// client that declares none, the directory the server was started in.
class Roots {
  public:
    // The server's directory alone; `why` says why no roots of the client count (the client
    // declares none, its roots/list failed, ...), for refusals to name.
    static Roots start_dir(const std::string& dir, std::string why);
    // A roots/list result: its roots whose uri is a local file:// URI of something that
    // exists, resolved now; the others are passed over, and named in refusals. nullopt when
    // the result holds no roots array.
    static std::optional<Roots> of_client(const Json& result);

    // Unit when `location` (where `given`, the value of `argument`, leads: location_of) is
    // inside a root; else an Error naming them, the roots and the mend.
    Result<Unit> admit(const std::string& argument, const std::string& given,
                       const std::string& location) const;
    // The same for a place of the repository `given` names (its working tree, a git or
    // object directory, its index), as it is opened (git::Repository::open).
    Result<Unit> admit(const git::Repository::Place& place, const std::string& given) const;

    // The roots' directories, resolved: where paths are looked at (location_of).
    const std::vector<std::string>& dirs() const { return dirs_; }
    // Where a call starts: a call without `repo` reads this directory, and relative paths
    // start here. The server's directory `cwd` when it is inside a root or no client roots
    // count; else the client's only root; else an Error saying to give `repo` (a client may
    // start the server anywhere, as in `/`).
    Result<std::string> home(const std::string& cwd) const;

  private:
    bool inside(const std::string& location) const;
    std::string where() const;                  // the roots, as a refusal names them
    std::string mend(const char* holds) const;  // how to mend a refusal

    bool from_client_ = false;
    std::vector<std::string> dirs_;     // resolved, no trailing '/' but for "/"
    std::string why_;                   // the server's directory: why it is the one root
    std::vector<std::string> ignored_;  // the client's roots passed over: "URI (why)"
};

// The local path a file:// URI names (file:///p, file://localhost/p; percent escapes
// decoded, a query or fragment dropped), or nullopt: another scheme or host, no absolute
// path, a bad escape, an encoded NUL byte.
std::optional<std::string> file_uri_path(std::string_view uri);

// What initialize tells the client the tool is for.
extern const char* const kInstructions;

// The tool as tools/list describes it to a client speaking `protocol`.
Json tool_description(std::string_view protocol);

// What a running call tells its front end, and asks it.
struct CallHooks {
    std::function<void(std::size_t done, std::size_t total)> on_progress;  // anchors resolved
    std::function<bool()> cancelled;  // true: stop, the result is not wanted
};

// A tools/call with its arguments read: `refused`, an isError result, when they are bad
// (or name paths outside the roots); else `run`, which makes the result on any thread,
// reading only inside the roots as they were when the call was read.
struct PreparedCall {
    std::optional<Json> refused;
    std::function<Json(const CallHooks&)> run;
};
PreparedCall prepare_call(const Json& arguments, const Roots& roots);

// The result of one tools/call with these arguments, reading only inside `roots`: the
// prepared call, run at once.
Json call_tool(const Json& arguments, const Roots& roots);

// An isError result saying `message` on one line.
Json tool_error(const std::string& message);

}  // namespace cp::mcp
