#include "mcp_tool.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "context_pack/app/options.hpp"
#include "context_pack/app/pipeline.hpp"
#include "context_pack/app/spec_input.hpp"
#include "context_pack/core/option_names.hpp"
#include "context_pack/core/text.hpp"
#include "context_pack/model/json_text.hpp"
#include "context_pack/model/spec.hpp"
#include "context_pack/output/budget.hpp"
#include "context_pack/output/json_output.hpp"
#include "context_pack/output/repin.hpp"
#include "context_pack/output/text_output.hpp"
#include "spec_schema.hpp"

namespace cp::mcp {

const char* const kInstructions =
    "context_pack carries the code anchors of a change plan (a spec pinned at a base commit) "
    "onto the working tree or a commit and returns the pack: a status table per anchor, the "
    "code of every anchor where it is now, and the callers of every symbol. Call it before "
    "implementing a plan (orient), with at_base after writing one (check), and with since "
    "after editing (re-expand only what changed).";

namespace {

// ---- the tool's description and schemas -------------------------------------------------

// What a host sends the model on every turn, so kept short (under 6 KB with its schemas,
// tested). tool_description() adds the arguments from the options table (options.hpp); the
// spec argument's forms are its object form, docs/spec.schema.json less its descriptions (the
// same verdicts; the shape is said in one line of the argument's description), then its
// string form.
constexpr const char* kToolJson = R"({
  "name": "context_pack",
  "title": "Context pack of a change plan",
  "description": "Carry a change plan's code anchors (a spec pinned at a base commit) onto the working tree or a commit; return a status table (SAME, MOVED, TOUCHED, RENAMED, GONE, NEW, UNRESOLVED, SYMBOL_MISSING; where each anchor is now), each anchor's code and its symbol's callers. Use before implementing a plan, with at_base to check a new plan, with since after editing. structuredContent: the same as JSON; exit_status 1: some anchor lost. Each cut names the arguments that lift it. Read-only.",
  "inputSchema": {
    "type": "object",
    "additionalProperties": false
  },
  "annotations": {
    "readOnlyHint": true,
    "idempotentHint": true,
    "openWorldHint": false
  }
})";

// What every structuredContent is: report_to_json's document. Only what the JSON printer
// always writes is required, so additive fields never break it.
constexpr const char* kOutputSchemaJson = R"({
  "type": "object",
  "properties": {
    "format_version": {"type": "integer"},
    "exit_status": {"type": "integer"},
    "caps": {"type": "object"},
    "cut": {"type": "boolean"},
    "specs": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "id": {"type": ["string", "null"]},
          "source": {"type": "string"},
          "base": {"type": ["string", "null"]},
          "target": {"type": ["string", "null"]},
          "anchors": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "row": {"type": "integer"},
                "kind": {"type": "string"},
                "path": {"type": "string"},
                "line": {"type": "integer"},
                "end_line": {"type": "integer"},
                "status": {"type": "string"},
                "history": {"type": ["array", "null"]}
              },
              "required": ["row", "kind", "path", "line", "end_line", "status"]
            }
          },
          "windows": {"type": "array"},
          "callers": {"type": "array"},
          "long_lines": {"type": ["object", "null"]},
          "warnings": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["id", "source", "base", "target", "anchors", "callers"]
      }
    }
  },
  "required": ["format_version", "exit_status", "caps", "cut", "specs"]
})";

// outputSchema and structuredContent arrived in 2025-06-18; older clients get no outputSchema.
// (structuredContent is sent to all: a result may carry extra fields in every version.)
bool has_structured_output(std::string_view protocol) {
    return protocol >= "2025-06-18";
}

// The spec argument's object form: docs/spec.schema.json as compiled in, less the keys that
// belong to a schema document ($schema, $id), not to a property of an inputSchema, and less
// its titles and descriptions, which validate nothing (12 KB of the 18 KB a host sent the
// model on every turn).
Json spec_schema() {
    Json schema = Json::parse(spec_schema_json());
    schema.erase("$schema");
    schema.erase("$id");
    // `named`: a map of property names to schemas, where a key is a name, never a keyword.
    auto strip = [](auto& self, Json& node, bool named) -> void {
        if (node.is_array())
            for (Json& item : node) self(self, item, false);
        if (!node.is_object()) return;
        if (!named) {
            node.erase("title");
            node.erase("description");
        }
        for (auto& [key, value] : node.items()) self(self, value, !named && key == "properties");
    };
    strip(strip, schema, false);
    return schema;
}

}  // namespace

Json tool_description(std::string_view protocol) {
    static const Json tool = [] {
        Json t = Json::parse(kToolJson);
        Json& properties = t["inputSchema"]["properties"] = options::tool_properties();
        Json& spec = properties["spec"];
        spec.erase("type");
        spec["anyOf"] = Json::array(
            {spec_schema(), Json{{"type", "string"},
                                 {"description", "a path of a spec file, or a JSON text of one"}}});
        return t;
    }();
    static const Json output = Json::parse(kOutputSchemaJson);
    Json t = tool;
    if (has_structured_output(protocol)) t["outputSchema"] = output;
    return t;
}

// ---- the roots ----------------------------------------------------------------------------

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), s.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) ==
                      std::tolower(static_cast<unsigned char>(b));
           });
}

// At most `most` items joined with ", ", then how many more there are.
std::string listed(const std::vector<std::string>& items, std::size_t most) {
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < most; ++i)
        out += (i ? ", " : "") + text::printable(items[i]);
    if (items.size() > most) out += fmt::format(" and {} more", items.size() - most);
    return out;
}

}  // namespace

std::optional<std::string> file_uri_path(std::string_view uri) {
    if (!starts_with_nocase(uri, "file://")) return std::nullopt;
    uri.remove_prefix(7);
    auto slash = uri.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    auto host = uri.substr(0, slash);
    if (!host.empty() && !(host.size() == 9 && starts_with_nocase(host, "localhost")))
        return std::nullopt;  // another machine's file
    auto path = uri.substr(slash);
    path = path.substr(0, path.find_first_of("?#"));  // a query or fragment is no part of it
    std::string out;
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] != '%') {
            out += path[i];
            continue;
        }
        int hi = i + 2 < path.size() ? hex_digit(path[i + 1]) : -1;
        int lo = hi >= 0 ? hex_digit(path[i + 2]) : -1;
        if (lo < 0) return std::nullopt;
        if (hi == 0 && lo == 0) return std::nullopt;  // no path holds a NUL byte
        out += char(hi * 16 + lo);
        i += 2;
    }
    return out;
}

Roots Roots::start_dir(const std::string& dir, std::string why) {
    Roots roots;
    roots.why_ = std::move(why);
    if (!dir.empty()) roots.dirs_.push_back(location_of(dir));
    return roots;
}

std::optional<Roots> Roots::of_client(const Json& result) {
    if (!result.is_object() || !result.contains("roots") || !result["roots"].is_array())
        return std::nullopt;
    Roots roots;
    roots.from_client_ = true;
    for (const Json& root : result["roots"]) {
        const Json* uri = root.is_object() && root.contains("uri") ? &root["uri"] : nullptr;
        if (!uri || !uri->is_string()) {
            roots.ignored_.push_back("a root without a uri string");
            continue;
        }
        const auto& text = uri->get_ref<const std::string&>();
        std::string shown = text.size() > 200 ? text.substr(0, 200) + "..." : text;
        auto path = file_uri_path(text);
        std::error_code ec;
        if (!path) {
            roots.ignored_.push_back(shown + " (not a local file:// URI)");
        } else if (auto real = std::filesystem::canonical(*path, ec); ec) {
            roots.ignored_.push_back(shown + " (" + ec.message() + ")");
        } else {
            roots.dirs_.push_back(real.string());
        }
    }
    return roots;
}

bool Roots::inside(const std::string& location) const {
    return std::any_of(dirs_.begin(), dirs_.end(),
                       [&](const std::string& root) { return at_or_under(location, root); });
}

std::string Roots::where() const {
    if (!from_client_)
        return dirs_.empty() ? fmt::format("the server's directory, which is gone ({})", why_)
                             : fmt::format("the server's directory {} ({})",
                                           text::printable(dirs_.front()), why_);
    if (!dirs_.empty()) return fmt::format("the client's roots ({})", listed(dirs_, 4));
    if (ignored_.empty()) return "the client's roots (it declares none)";
    return fmt::format("the client's roots (none of them is here: {})", listed(ignored_, 3));
}

std::string Roots::mend(const char* holds) const {
    return from_client_ ? fmt::format(
                              "give a path inside a root, or have the client declare a root "
                              "that holds {}",
                              holds)
                        : fmt::format(
                              "give a path inside it, or start the server in a directory that "
                              "holds {}",
                              holds);
}

Result<std::string> Roots::home(const std::string& cwd) const {
    // Inside a root, or without roots to choose from, the server's own directory: admit()
    // judges what is read there.
    if (!from_client_ || dirs_.empty() || inside(location_of(cwd))) return cwd;
    if (dirs_.size() == 1) return dirs_.front();
    return Error{fmt::format(
        "the server's directory {} is in none of {}, so a call has no default directory; "
        "give repo, an absolute path inside a root",
        text::printable(location_of(cwd)), where())};
}

Result<Unit> Roots::admit(const std::string& argument, const std::string& given,
                          const std::string& location) const {
    if (inside(location)) return Unit{};
    std::string what = given == location
                           ? fmt::format("{} {} is", argument, text::printable(given))
                           : fmt::format("{} {} resolves to {},", argument, text::printable(given),
                                         text::printable(location));
    return Error{fmt::format("{} outside {}; {}", what, where(), mend("it"))};
}

Result<Unit> Roots::admit(const git::Repository::Place& place, const std::string& given) const {
    auto location = location_of(place.path, &dirs_);
    if (inside(location)) return Unit{};
    std::string mended = mend("the whole repository");
    if (place.variable)
        mended = fmt::format("unset {} in the server's environment, or {}", place.variable, mended);
    return Error{fmt::format("repo {} opens a repository whose {} {} is outside {}; {}",
                             text::printable(given), place.what, text::printable(location), where(),
                             mended)};
}

namespace {

// ---- the tool's arguments -----------------------------------------------------------------

const char* type_name(const Json& j) {
    return json_type_name(j);
}

// The tool's arguments, as errors from any layer name them.
const OptionNames kToolNames = options::names_for_tool();

// The message around a result's text and document: its JSON-RPC envelope, content's type,
// isError (about 110 bytes).
constexpr std::size_t kEnvelopeBytes = 256;

// The arguments: what they ask of the pipeline is read into the request itself.
struct CallArgs {
    Request request;                       // its names are the tool's (kToolNames)
    std::optional<std::string> spec_path;  // the file the specs came from, for pointers
    std::optional<std::size_t> max_lines;  // options::max_lines
    std::uint64_t max_file_mib = git::kDefaultMaxFileBytes >> 20;
    bool full = false;  // structuredContent in full (JsonCaps::compact off)
    // A result's budget when max_tokens is not given: 100 KB in all, the text 50,000 bytes.
    std::size_t max_tokens = std::size_t(*options::tool("max_tokens").default_for_tool());
};

// A present, non-null argument, or nullptr.
const Json* find_arg(const Json& args, const char* key) {
    auto it = args.find(key);
    return it == args.end() || it->is_null() ? nullptr : &*it;
}

// A string argument; empty counts as absent, as clients fill optional fields with "".
Result<std::optional<std::string>> string_arg(const Json& args, const char* key) {
    const Json* v = find_arg(args, key);
    if (!v) return std::optional<std::string>{};
    if (!v->is_string())
        return Error{fmt::format("{} must be a string, not {}", key, type_name(*v))};
    auto s = v->get<std::string>();
    if (s.find('\0') != std::string::npos)  // libgit2 and the OS would cut it there
        return Error{fmt::format("{} '{}' holds a NUL byte, which no path or revision can", key,
                                 text::printable(s))};
    return s.empty() ? std::nullopt : std::optional<std::string>(s);
}

Result<bool> bool_arg(const Json& args, const char* key) {
    const Json* v = find_arg(args, key);
    if (!v) return false;
    if (!v->is_boolean())
        return Error{fmt::format("{} must be a boolean, not {}", key, type_name(*v))};
    return v->get<bool>();
}

// A whole number within the range the options table gives it.
Result<std::optional<std::int64_t>> int_arg(const Json& args, const char* key) {
    const options::Option& o = options::tool(key);
    const std::int64_t lo = o.min, hi = o.max;
    const Json* v = find_arg(args, key);
    if (!v) return std::optional<std::int64_t>{};
    std::optional<std::int64_t> n;
    if (v->is_number_unsigned())
        n = v->get<std::uint64_t>() > std::uint64_t(hi) ? hi + 1
                                                        : std::int64_t(v->get<std::uint64_t>());
    else if (v->is_number_integer())
        n = v->get<std::int64_t>();
    else if (v->is_number_float() && std::floor(v->get<double>()) == v->get<double>() &&
             std::abs(v->get<double>()) < 1e15)
        n = std::int64_t(v->get<double>());  // 3.0 from a client that only has doubles
    if (!n) return Error{fmt::format("{} must be an integer, not {}", key, type_name(*v))};
    if (*n < lo || *n > hi)
        return Error{fmt::format("{} must be between {} and {}, not {}", key, lo, hi, v->dump())};
    return n;
}

// A path as a call gives it, made to start at the call's directory when it is relative.
std::string from_home(const std::string& path, const std::string& home) {
    if (path.empty() || path.front() == '/' || home.empty()) return path;
    return (std::filesystem::path(home) / path).string();
}

// Where a relative spec path is read from, for the message when it cannot be.
std::string relative_to(const std::string& path, const std::string& home) {
    if (!path.empty() && path.front() == '/') return std::string();
    return fmt::format(" (relative to {})", text::printable(home));
}

// `home` is where relative paths start, `dir` the same when it must be joined to them.
Result<std::vector<Spec>> load_specs(const Json& spec, std::optional<std::string>& spec_path,
                                     const Roots& roots, const std::string& home,
                                     const std::string& dir) {
    if (spec.is_object()) {  // parse its text, so errors name JSON paths as for a file
        auto parsed = parse_spec(spec.dump(), "spec");
        if (!parsed) return parsed.error();
        return std::vector<Spec>{std::move(parsed).value()};
    }
    if (!spec.is_string())
        return Error{fmt::format("spec must be a spec object or the path of a spec file, not {}",
                                 type_name(spec))};
    const auto& text = spec.get_ref<const std::string&>();
    auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{') {  // a spec object sent as a string
        auto parsed = parse_spec(text, "spec");
        if (!parsed) return parsed.error();
        return std::vector<Spec>{std::move(parsed).value()};
    }
    if (text.empty())
        return Error{"spec is empty: give a spec object or the path of a .json or .jsonl file"};
    if (text == "-")
        return Error{
            "spec '-' would read standard input, which carries the MCP messages; "
            "pass the spec object instead"};
    SpecGate gate{roots.dirs(), [&](const std::string& name, const std::string& location) {
                      return roots.admit("spec", name, location);
                  }};
    auto specs = read_spec_input(from_home(text, dir), nullptr, relative_to(text, home),
                                 gate);  // no stdin: it carries MCP
    if (specs) spec_path = text;
    return specs;
}

Result<CallArgs> read_arguments(const Json& args, const Roots& roots) {
    if (!args.is_object())
        return Error{fmt::format("the arguments must be an object, not {}", type_name(args))};
    for (const auto& item : args.items())
        if (!options::is_tool_argument(item.key()))
            return Error{fmt::format("unknown argument '{}'; the arguments are {}", item.key(),
                                     options::tool_names())};

    CallArgs a;
    a.request.names = kToolNames;
    a.request.git_env = git::Environment::of_process();  // the server's, as git gave it
    // Where the call starts (Roots::home); `dir` is it when it is not the server's own
    // directory, which relative paths need no joining to.
    std::error_code ec;
    const std::string cwd = std::filesystem::current_path(ec).string();
    const auto home = roots.home(cwd);
    const std::string dir = home && home.value() != cwd ? home.value() : "";
    auto repo = string_arg(args, "repo");
    if (!repo) return repo.error();
    const bool relative_repo = !repo.value() || !repo.value()->starts_with('/');
    if (repo.value())
        a.request.repo_dir = from_home(*repo.value(), dir);
    else if (!dir.empty())
        a.request.repo_dir = dir;
    for (auto [key, out] :
         {std::pair{"base", &a.request.base}, std::pair{"target", &a.request.target},
          std::pair{"since", &a.request.since}}) {
        auto v = string_arg(args, key);
        if (!v) return v.error();
        *out = v.value();
    }
    for (auto [key, out] :
         {std::pair{"at_base", &a.request.at_base}, std::pair{"table_only", &a.request.table_only},
          std::pair{"repin", &a.request.repin}, std::pair{"prose", &a.request.prose},
          std::pair{"history", &a.request.history}, std::pair{"full", &a.full}}) {
        auto v = bool_arg(args, key);
        if (!v) return v.error();
        *out = v.value();
    }
    if (const Json* only = find_arg(args, "only")) {
        if (!only->is_array())
            return Error{fmt::format("only must be an array of strings, not {}", type_name(*only))};
        for (std::size_t i = 0; i < only->size(); ++i) {
            const Json& o = (*only)[i];
            if (o.is_string())
                a.request.only.push_back(o.get<std::string>());
            else if (o.is_number_unsigned())  // a row number sent as a number
                a.request.only.push_back(std::to_string(o.get<std::uint64_t>()));
            else
                return Error{fmt::format("only[{}] must be a string, not {}", i, type_name(o))};
        }
    }
    if (const Json* within = find_arg(args, "callers_in")) {
        if (!within->is_array())
            return Error{
                fmt::format("callers_in must be an array of strings, not {}", type_name(*within))};
        for (std::size_t i = 0; i < within->size(); ++i) {
            if (!(*within)[i].is_string())
                return Error{fmt::format("callers_in[{}] must be a string, not {}", i,
                                         type_name((*within)[i]))};
            a.request.callers_in.push_back((*within)[i].get<std::string>());
        }
    }
    auto context = int_arg(args, "context");
    if (!context) return context.error();
    if (context.value()) a.request.pack.window.context = int(*context.value());
    auto max_lines = int_arg(args, "max_lines");
    if (!max_lines) return max_lines.error();
    if (max_lines.value()) a.max_lines = std::size_t(*max_lines.value());
    a.max_lines = options::max_lines(a.max_lines, !a.request.only.empty());
    auto max_tokens = int_arg(args, "max_tokens");
    if (!max_tokens) return max_tokens.error();
    if (max_tokens.value()) a.max_tokens = std::size_t(*max_tokens.value());
    auto max_file_mib = int_arg(args, "max_file_mib");
    if (!max_file_mib) return max_file_mib.error();
    if (max_file_mib.value()) a.max_file_mib = std::uint64_t(*max_file_mib.value());
    auto max_window_lines = int_arg(args, "max_window_lines");
    if (!max_window_lines) return max_window_lines.error();
    if (max_window_lines.value())
        a.request.pack.window.max_anchored = LineNo(*max_window_lines.value());
    auto max_callers = int_arg(args, "max_callers");
    if (!max_callers) return max_callers.error();
    if (max_callers.value()) a.request.pack.max_callers = std::size_t(*max_callers.value());
    auto max_line_bytes = int_arg(args, "max_line_bytes");
    if (!max_line_bytes) return max_line_bytes.error();
    if (max_line_bytes.value())
        a.request.pack.window.max_line_bytes = std::size_t(*max_line_bytes.value());
    std::vector<std::string> anchors;
    if (const Json* anchor = find_arg(args, "anchor")) {
        if (!anchor->is_array())
            return Error{fmt::format(
                "anchor must be an array of strings such as \"src/a.c:40-52@parse\", not {}",
                type_name(*anchor))};
        for (std::size_t i = 0; i < anchor->size(); ++i) {
            const Json& o = (*anchor)[i];
            if (!o.is_string())
                return Error{fmt::format("anchor[{}] must be a string, not {}", i, type_name(o))};
            anchors.push_back(o.get<std::string>());
        }
    }

    if (a.request.at_base && a.request.target)
        return Error{"at_base and target both set the target; give one of them"};

    const Json* spec = find_arg(args, "spec");
    if (!spec && anchors.empty())
        return Error{
            "spec is required: a spec object (id, base, file_changes, reads) or the "
            "path of a .json or .jsonl spec file; or give anchor with base"};
    if (spec && !home && spec->is_string()) {  // a relative spec path needs a place to start
        const auto& path = spec->get_ref<const std::string&>();
        if (!path.empty() && path != "-" && path.front() != '/' && path.front() != '{')
            return home.error();
    }
    if (spec) {
        auto specs = load_specs(*spec, a.spec_path, roots, home ? home.value() : cwd, dir);
        if (!specs) return specs.error();
        a.request.specs = std::move(specs).value();
    }
    if (!anchors.empty()) {  // one spec of their own, as the command line's --anchor
        if (!a.request.base)
            return Error{"anchor needs base: the commit the anchors' line numbers are at"};
        Spec adhoc;
        adhoc.source = "anchor";
        for (std::size_t i = 0; i < anchors.size(); ++i) {
            auto parsed = parse_anchor_arg(anchors[i]);
            if (!parsed) return Error{fmt::format("anchor[{}] {}", i, parsed.error().message)};
            parsed->index = i;
            adhoc.anchors.push_back(std::move(parsed).value());
        }
        a.request.specs.push_back(std::move(adhoc));
    }
    a.request.max_file_bytes = a.max_file_mib << 20;
    if (a.request.specs.empty())
        return Error{
            fmt::format("nothing to resolve: {} holds no spec", a.spec_path.value_or("spec"))};
    if (auto checked =
            check_specs(a.request.specs, a.request.base.has_value(), "pass the base argument");
        !checked)
        return checked.error();

    if (relative_repo && !home) return home.error();
    // The repository is checked where the argument leads, then, as it is opened, where git
    // finds it (a search upwards, a .git file, the server's GIT_DIR may lead elsewhere).
    if (auto admitted =
            roots.admit("repo", a.request.repo_dir, location_of(a.request.repo_dir, &roots.dirs()));
        !admitted)
        return admitted.error();
    // Each place as git finds the repository, before the place is looked at: an alternate
    // outside is never read. The roots as they are now, copied: a call runs on a worker
    // thread, and may outlive a change of roots.
    a.request.admit_place = [roots,
                             given = a.request.repo_dir](const git::Repository::Place& place) {
        return roots.admit(place, given);
    };
    return a;
}

// ---- running it ---------------------------------------------------------------------------

// A pointer in the tool's own syntax: the same call with `only` and the cap raised.
std::string again(std::optional<std::string> rows, const OptionName* cap, std::size_t value) {
    std::string args;
    if (rows) args = fmt::format("only: [\"{}\"]", *rows);
    if (cap) args += fmt::format("{}{}: {}", args.empty() ? "" : ", ", cap->name, value);
    return "same call with " + args;
}

std::string one_line(std::string s) {
    std::replace_if(
        s.begin(), s.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return s;
}

Json text_content(std::string text) {
    return Json::array({Json{{"type", "text"}, {"text", std::move(text)}}});
}

}  // namespace

Json tool_error(const std::string& message) {
    return Json{{"content", text_content(one_line(message))}, {"isError", true}};
}

namespace {

// repin: the revised specs as JSON Lines, then what stays where it was; structuredContent the
// report with the revised specs as `repinned`, its exit_status 1 when an anchor stays.
// `caps`: the call's, which its structuredContent states as every result's does (the output
// schema requires them; a revision cuts nothing).
Json repinned(const std::vector<Spec>& specs, const Report& report, const JsonCaps& caps) {
    std::string lines;
    Json revised = Json::array();
    bool kept = false;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        std::string spec = repinned_spec(specs[i], report.specs[i], -1);
        if (auto parsed = parse_ordered_json(spec)) revised.push_back(std::move(parsed).value());
        lines += spec + '\n';
        kept = kept || kept_count(report.specs[i]) > 0;
    }
    Json content = text_content(std::move(lines));
    std::string stays;
    for (const auto& line : kept_lines(report.specs)) stays += line + '\n';
    if (!stays.empty()) content.push_back(Json{{"type", "text"}, {"text", std::move(stays)}});
    Json doc = report_to_json(report, &caps);
    if (kept) doc["exit_status"] = 1;
    doc["repinned"] = std::move(revised);
    return Json{
        {"content", std::move(content)}, {"structuredContent", std::move(doc)}, {"isError", false}};
}

Json run_call(const CallArgs& a, const CallHooks& hooks) {
    Request request = a.request;
    request.on_progress = hooks.on_progress;
    request.cancelled = hooks.cancelled;
    auto report = build_report(request);
    if (!report) return tool_error(report.error().message);
    TextOptions to;
    to.color = false;
    to.table_only = a.request.table_only;
    // only asks for those anchors whole: max_lines applies then only when given too.
    to.max_lines = a.max_lines.value_or(std::numeric_limits<std::size_t>::max());
    to.max_window_lines = std::size_t(a.request.pack.window.max_anchored);
    to.max_callers = a.request.pack.max_callers;
    to.max_line_bytes = a.request.pack.window.max_line_bytes;
    to.names = kToolNames;
    to.again = again;
    // The document's caps, which it states in every result (the output schema requires them).
    JsonCaps caps = JsonCaps::of(to);
    caps.max_lines = a.max_lines;
    caps.compact = !a.full;
    if (a.request.repin) return repinned(a.request.specs, report.value(), caps);
    // The unknown keys, after the pack, as the command line puts them on stderr.
    std::string warnings;
    for (const auto& line :
         warning_lines(a.request.specs, "structuredContent",
                       a.request.at_base ? std::optional<std::string_view>(kToolNames.at_base.name)
                                         : std::nullopt))
        warnings += "warning: " + line + '\n';
    // The structured document is cut where the text is, and says so (JsonCaps), both within
    // the budget: the whole result, and the text half of it.
    TokenBudget budget;
    budget.max_tokens = a.max_tokens;
    budget.option = "max_tokens";
    budget.whole_bytes = a.max_tokens * kBytesPerToken - kEnvelopeBytes;
    budget.text_bytes = a.max_tokens * kBytesPerToken / 2;
    budget.text_after = warnings.size();
    FittedPack fitted = fit_pack(report.value(), to, caps, budget);
    // Exit status 1 (GONE, UNRESOLVED, SYMBOL_MISSING) is data in the pack, not a tool error.
    return Json{{"content", text_content(fitted.text + warnings)},
                {"structuredContent", std::move(*fitted.doc)},
                {"isError", false}};
}

}  // namespace

PreparedCall prepare_call(const Json& arguments, const Roots& roots) {
    auto args = read_arguments(arguments, roots);
    if (!args) return PreparedCall{tool_error(args.error().message), {}};
    auto a = std::make_shared<const CallArgs>(std::move(args).value());
    return PreparedCall{std::nullopt, [a](const CallHooks& hooks) { return run_call(*a, hooks); }};
}

Json call_tool(const Json& arguments, const Roots& roots) {
    auto call = prepare_call(arguments, roots);
    return call.refused ? *call.refused : call.run(CallHooks{});
}

}  // namespace cp::mcp
