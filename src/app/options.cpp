#include "context_pack/app/options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "context_pack/git/repository.hpp"
#include "context_pack/output/text_output.hpp"
#include "context_pack/resolve/content.hpp"
#include "context_pack/resolve/pack.hpp"

namespace cp::options {

namespace {

// A cap with no real maximum keeps one, to be read into any integer type.
constexpr std::int64_t kNoMax = 100000000;
constexpr std::int64_t kMaxMib = std::int64_t{1} << 20;

// Over MCP a result keeps within Claude Code's limits by default: it refuses a result of
// over 25,000 tokens, and moves a text of over 50,000 characters to a file.
constexpr std::int64_t kToolMaxTokens = 25000;

std::vector<Option> make_table() {
    const WindowOptions window;
    const PackOptions pack;
    const TextOptions text;
    auto n = [](auto v) { return std::optional<std::int64_t>(std::int64_t(v)); };
    return {
        {.tool = "spec",
         .kind = Kind::Text,
         .brief = "The plan (or give anchor): {base, target?, id?, file_changes: [{location: "
                  "{path, line, end_line?, symbol?}, change}], reads: [{location, why}]}, "
                  "lines counted from 1 at base, symbol a word the lines hold; or its JSON "
                  "text, or the path of a .json or .jsonl spec file inside the client's roots."},
        {.cli = "--anchor",
         .tool = "anchor",
         .kind = Kind::List,
         .metavar = "PATH:LINE[-END][@SYMBOL]",
         .help = "Ad hoc anchor (repeatable; needs --base)",
         .brief = "Anchors PATH:LINE[-END][@SYMBOL] at base."},
        {.cli = "-C",
         .tool = "repo",
         .kind = Kind::Text,
         .metavar = "DIR",
         .help = "Repository to read (default: the current directory)",
         .brief = "Repository; default: the server's directory."},
        {.cli = "--base",
         .tool = "base",
         .kind = Kind::Text,
         .metavar = "REV",
         .help = "Base revision for --anchor, overriding every spec's base",
         .brief = "Base revision for every spec."},
        {.cli = "--target",
         .tool = "target",
         .kind = Kind::Text,
         .metavar = "REV",
         .help = "Target revision (default: the working tree; HEAD in a bare repository)",
         .brief = "Target revision for every spec; default: the working tree."},
        {.cli = "--at-base",
         .tool = "at_base",
         .help = "Check each spec at its own base (target = base)",
         .brief = "Check each spec at its own base."},
        {.cli = "--since",
         .tool = "since",
         .kind = Kind::Text,
         .metavar = "REV",
         .help = "Mark anchors whose lines changed since REV; show only their windows",
         .brief = "Show anchors changed since this revision."},
        {.cli = "--history",
         .tool = "history",
         .help = "List the commits since base that changed each anchor's lines (git log -L)",
         .brief = "Each anchor's commits since base (git log -L)."},
        {.cli = "--only",
         .tool = "only",
         .kind = Kind::List,
         .metavar = "ROW",
         .help = "Show only this anchor, whole (repeatable): a table row (3), a range of rows "
                 "(4-9), a label (file_changes[2], reads[0]), a path or a symbol",
         .brief = "Keep these rows (\"3\", \"4-9\"), labels, paths or symbols."},
        {.cli = "--format",
         .kind = Kind::Choice,
         .metavar = "FORMAT",
         .choices = {"text", "json", "jsonl", "quickfix"},
         .help = "Output: text (default), json (one document), jsonl (a compact line a spec as "
                 "each is done, then an end line) or quickfix (path:line:col: kind: STATUS ... "
                 "a line an anchor, for editors)"},
        {.cli = "--table",
         .tool = "table_only",
         .help = "Print the status table alone",
         .brief = "The status table alone."},
        {.cli = "--prose",
         .tool = "prose",
         .help = "Take each path:line or path:line-end in a spec's text (change, why, any other "
                 "string) as one more read, labelled prose[i]",
         .brief = "Also anchor each path:line in the spec's text."},
        {.cli = "--repin",
         .tool = "repin",
         .help = "Print each spec revised onto its target commit: base, ids .rN, and every "
                 "anchor carried with confidence moved there, the rest kept and marked",
         .brief = "Return each spec revised onto its target commit."},
        {.tool = "full", .brief = "Uncompacted structuredContent."},
        {.cli = "--context",
         .tool = "context",
         .kind = Kind::Number,
         .metavar = "N",
         .min = 0,
         .max = 1000,
         .fallback = n(window.context),
         .help = "Context lines around each window, {range} (default {default})",
         .brief = "Context lines (default {default})."},
        {.cli = "--max-lines",
         .tool = "max_lines",
         .kind = Kind::Number,
         .metavar = "N",
         .min = 1,
         .max = kNoMax,
         .fallback = n(text.max_lines),
         .help = "Cap on the text pack's lines, {range} (default {default}; none with --only)",
         .brief = "Cap on the pack's lines (default {default}; none with only)."},
        {.cli = "--max-tokens",
         .tool = "max_tokens",
         .kind = Kind::Number,
         .metavar = "N",
         .min = 1000,
         .max = kNoMax,
         .tool_fallback = kToolMaxTokens,
         .help = "Budget of the output (text or JSON), a token counted as 4 bytes, {range}: "
                 "code, then table rows, left out to keep within it, and named",
         .brief = "Result budget, 4 bytes a token (default {default})."},
        {.cli = "--max-window-lines",
         .tool = "max_window_lines",
         .kind = Kind::Number,
         .metavar = "N",
         .min = 1,
         .max = kNoMax,
         .fallback = n(window.max_anchored),
         .help = "Anchored lines shown per window, {range} (default {default})",
         .brief = "Lines per window (default {default})."},
        {.cli = "--max-callers",
         .tool = "max_callers",
         .kind = Kind::Number,
         .metavar = "N",
         .min = 0,
         .max = kNoMax,
         .fallback = n(pack.max_callers),
         .help = "Caller lines listed per symbol, 0 to list only counts (default {default})",
         .brief = "Callers per symbol (default {default})."},
        {.cli = "--callers-in",
         .tool = "callers_in",
         .kind = Kind::List,
         .metavar = "PATHSPEC",
         .help = "Search callers only in these files: a directory or file path, or a glob "
                 "('src/*.c'); repeatable (default: every file, untracked ones too in the "
                 "working tree)",
         .brief = "Look for callers only in these paths or globs."},
        {.cli = "--max-line-bytes",
         .tool = "max_line_bytes",
         .kind = Kind::Number,
         .metavar = "N",
         .min = 16,
         .max = kNoMax,
         .fallback = n(window.max_line_bytes),
         .help = "Bytes shown of each code line, {range} (default {default})",
         .brief = "Bytes shown of a line (default {default})."},
        {.cli = "--max-file-mib",
         .tool = "max_file_mib",
         .kind = Kind::Number,
         .metavar = "N",
         .min = 1,
         .max = kMaxMib,
         .fallback = n(git::kDefaultMaxFileBytes >> 20),
         .help = "Files larger than this many MiB are not read, {range} (default {default})",
         .brief = "Larger files are not read (default {default})."},
        {.cli = "--cache-mib",
         .kind = Kind::Number,
         .metavar = "N",
         .min = 0,
         .max = kMaxMib,
         .fallback = n(kDefaultCacheBytes >> 20),
         .help = "MiB of file contents kept for reuse while the run goes on, {range} (default "
                 "{default}); the output never depends on it"},
        {.cli = "--jobs",
         .kind = Kind::Number,
         .metavar = "N",
         .min = 1,
         .max = 256,
         .help = "Threads that read and diff (and resolve whole pairs of commits), {range} "
                 "(default: one a core, at most 8, and none for 16 anchors or fewer; 1: none "
                 "besides the main one)"},
        {.cli = "--color",
         .kind = Kind::Choice,
         .metavar = "WHEN",
         .choices = {"auto", "always", "never"},
         .help = "Colour: auto (on a terminal or git's pager), always, never"},
        {.cli = "--no-color", .help = "Same as --color never"},
    };
}

// `text` with {range} and {default} filled in; other braces are its own ({base, target?}).
std::string fill(std::string_view text, const Option& o, std::optional<std::int64_t> fallback) {
    std::string out(text);
    auto put = [&out](std::string_view field, const std::string& value) {
        for (auto at = out.find(field); at != std::string::npos; at = out.find(field, at))
            out.replace(at, field.size(), value), at += value.size();
    };
    put("{range}", range_of(o));
    put("{default}", fallback ? std::to_string(*fallback) : "none");
    return out;
}

const Option* find(std::string_view name, std::string_view Option::*field) {
    const auto& table = all();
    auto it = std::find_if(table.begin(), table.end(),
                           [&](const Option& o) { return !name.empty() && o.*field == name; });
    return it == table.end() ? nullptr : &*it;
}

const Option& must_find(std::string_view name, std::string_view Option::*field) {
    const Option* o = find(name, field);
    if (!o) throw std::logic_error("no option " + std::string(name));
    return *o;
}

OptionName name_of(const Option& o, bool for_tool) {
    if (for_tool) return {std::string(o.tool), std::string(o.tool)};
    return {std::string(o.cli),
            o.metavar.empty() ? std::string(o.cli) : fmt::format("{} {}", o.cli, o.metavar)};
}

OptionNames names(bool for_tool) {
    auto of = [&](std::string_view key) { return name_of(tool(key), for_tool); };
    return {.repo = of("repo"),
            .base = of("base"),
            .target = of("target"),
            .at_base = of("at_base"),
            .since = of("since"),
            .only = of("only"),
            .repin = of("repin"),
            .prose = of("prose"),
            .max_file_mib = of("max_file_mib"),
            .max_lines = of("max_lines"),
            .max_window_lines = of("max_window_lines"),
            .max_callers = of("max_callers"),
            .max_line_bytes = of("max_line_bytes"),
            .callers_in = of("callers_in")};
}

}  // namespace

const std::vector<Option>& all() {
    static const std::vector<Option> table = make_table();
    return table;
}

const Option& cli(std::string_view name) {
    return must_find(name, &Option::cli);
}

const Option& tool(std::string_view name) {
    return must_find(name, &Option::tool);
}

bool is_tool_argument(std::string_view name) {
    return find(name, &Option::tool) != nullptr;
}

std::string range_of(const Option& o) {
    if (o.kind != Kind::Number) return {};
    return o.max >= kNoMax ? fmt::format("at least {}", o.min)
                           : fmt::format("{} to {}", o.min, o.max);
}

std::string help_of(const Option& o) {
    return fill(o.help, o, o.fallback);
}

std::string brief_of(const Option& o) {
    return fill(o.brief, o, o.default_for_tool());
}

std::string tool_names() {
    std::string out;
    for (const Option& o : all())
        if (!o.tool.empty()) out += (out.empty() ? "" : ", ") + std::string(o.tool);
    return out;
}

nlohmann::json tool_properties() {
    nlohmann::json properties = nlohmann::json::object();
    for (const Option& o : all()) {
        if (o.tool.empty()) continue;
        nlohmann::json p;
        switch (o.kind) {
            case Kind::Flag:
                p["type"] = "boolean";
                break;
            case Kind::Text:
                p["type"] = "string";
                break;
            case Kind::List:
                p["type"] = "array";
                p["items"] = {{"type", "string"}};
                break;
            case Kind::Number:
                p["type"] = "integer";
                p["minimum"] = o.min;
                p["maximum"] = o.max;
                break;
            case Kind::Choice:
                p["enum"] = o.choices;
                break;
        }
        p["description"] = brief_of(o);
        properties[std::string(o.tool)] = std::move(p);
    }
    return properties;
}

OptionNames names_for_cli() {
    return names(false);
}

OptionNames names_for_tool() {
    return names(true);
}

std::optional<std::size_t> max_lines(std::optional<std::size_t> given, bool only_given) {
    if (given || only_given) return given;
    return std::size_t(*tool("max_lines").fallback);
}

}  // namespace cp::options
