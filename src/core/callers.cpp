#include "context_pack/core/callers.hpp"

#include <algorithm>
#include <set>

#include "context_pack/core/text.hpp"

namespace cp {

namespace {

bool all_word_bytes(std::string_view s) {
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return text::is_word_byte(static_cast<unsigned char>(c)); });
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// The last component of a path, and its extension with the dot, lowercase ("" for none).
std::string_view base_name(std::string_view path) {
    auto slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string extension(std::string_view path) {
    auto name = base_name(path);
    auto dot = name.rfind('.');
    if (dot == std::string_view::npos || dot == 0) return {};
    return lower(name.substr(dot));
}

const std::vector<std::vector<std::string>>& families() {
    static const std::vector<std::vector<std::string>> all = {
        {".c", ".h"},
        {".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".h", ".ipp", ".tpp",
         ".inl"},
        {".m", ".mm", ".h"},
        {".py", ".pyi", ".pyx"},
        {".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"},
        {".go"},
        {".rs"},
        {".java"},
        {".kt", ".kts"},
        {".cs"},
        {".rb", ".rake"},
        {".php"},
        {".pl", ".pm", ".t"},
        {".sh", ".bash", ".zsh"},
        {".lua"},
        {".swift"},
        {".scala"},
    };
    return all;
}

bool is_docs(const std::string& path) {
    static const std::vector<std::string_view> dirs = {
        "doc",       "docs",      "documentation", "fixtures",      "testdata",
        "test_data", "test-data", "__fixtures__",  "__snapshots__", "golden"};
    static const std::vector<std::string_view> exts = {".md",   ".markdown", ".rst", ".txt",
                                                       ".adoc", ".asciidoc", ".org", ".texi",
                                                       ".pod",  ".texinfo",  ".csv", ".tsv"};
    static const std::vector<std::string_view> names = {"readme",  "changelog", "news",
                                                        "history", "license",   "copying"};
    std::string_view rest = path;
    for (auto slash = rest.find('/'); slash != std::string_view::npos; slash = rest.find('/')) {
        if (std::find(dirs.begin(), dirs.end(), lower(rest.substr(0, slash))) != dirs.end())
            return true;
        rest.remove_prefix(slash + 1);
    }
    if (std::find(exts.begin(), exts.end(), extension(path)) != exts.end()) return true;
    std::string name = lower(base_name(path));
    std::string_view stem = std::string_view(name).substr(0, name.find('.'));
    return std::find(names.begin(), names.end(), stem) != names.end();
}

// How a language writes a line comment, by extension.
enum class CommentStyle { None, Slashes, Hash, Dashes };

CommentStyle comment_style(std::string_view path) {
    static const std::vector<std::string_view> slashes = {
        ".c",     ".h",     ".cc",  ".cpp",  ".cxx",  ".c++",   ".hpp",  ".hh",  ".hxx",   ".h++",
        ".ipp",   ".tpp",   ".inl", ".m",    ".mm",   ".js",    ".jsx",  ".mjs", ".cjs",   ".ts",
        ".tsx",   ".mts",   ".cts", ".go",   ".rs",   ".java",  ".kt",   ".kts", ".cs",    ".php",
        ".swift", ".scala", ".css", ".scss", ".less", ".proto", ".dart", ".zig", ".groovy"};
    static const std::vector<std::string_view> hash = {
        ".py", ".pyi",   ".pyx",  ".sh",  ".bash", ".zsh", ".pl",  ".pm",   ".t",   ".rb", ".rake",
        ".mk", ".cmake", ".yaml", ".yml", ".toml", ".r",   ".tcl", ".conf", ".cfg", ".ini"};
    static const std::vector<std::string_view> dashes = {".lua", ".sql", ".hs"};
    const std::string ext = extension(path);
    if (std::find(slashes.begin(), slashes.end(), ext) != slashes.end())
        return CommentStyle::Slashes;
    if (std::find(hash.begin(), hash.end(), ext) != hash.end()) return CommentStyle::Hash;
    if (std::find(dashes.begin(), dashes.end(), ext) != dashes.end()) return CommentStyle::Dashes;
    const std::string name = lower(base_name(path));
    if (name == "makefile" || name == "gnumakefile" || name == "cmakelists.txt" ||
        name == "dockerfile")
        return CommentStyle::Hash;
    return CommentStyle::None;
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// The last word of `s` (word bytes, or "macro_rules!"), empty when it ends otherwise.
std::string_view last_word(std::string_view s) {
    std::size_t end = s.size();
    if (end && s[end - 1] == '!') --end;  // macro_rules!
    std::size_t begin = end;
    while (begin && text::is_word_byte(static_cast<unsigned char>(s[begin - 1]))) --begin;
    return s.substr(begin, s.size() - begin);
}

// Whether `before`, the text ahead of a name followed by `(`, reads as a function's return
// type and modifiers (`static int`, `public void`, `char *`, `std::string`), not as an
// expression or a statement that calls it.
bool type_ahead(std::string_view before) {
    // Class::NAME: the type is before the qualifier (ns::NAME( alone is a call).
    while (before.ends_with("::")) {
        before.remove_suffix(2);
        while (!before.empty() && (text::is_word_byte(static_cast<unsigned char>(before.back())) ||
                                   before.back() == '<' || before.back() == '>'))
            before.remove_suffix(1);
        before = trimmed(before);
    }
    if (before.empty()) return false;
    for (char c : before)
        if (!text::is_word_byte(static_cast<unsigned char>(c)) &&
            std::string_view(" \t*&<>:,[]").find(c) == std::string_view::npos)
            return false;
    static const std::vector<std::string_view> statements = {
        "return", "else", "case",   "goto", "sizeof", "new",   "delete", "throw",    "await",
        "yield",  "echo", "print",  "not",  "and",    "or",    "in",     "is",       "if",
        "while",  "for",  "switch", "do",   "typeof", "defer", "go",     "co_return"};
    const std::string_view last = last_word(before);
    const std::string_view first = before.substr(0, before.find_first_of(" \t*&<:"));
    return std::find(statements.begin(), statements.end(), last) == statements.end() &&
           std::find(statements.begin(), statements.end(), first) == statements.end();
}

}  // namespace

std::string_view caller_role_name(CallerRole role) {
    switch (role) {
        case CallerRole::Use:
            return "use";
        case CallerRole::Definition:
            return "definition";
        case CallerRole::Declaration:
            return "declaration";
        case CallerRole::Comment:
            return "comment";
    }
    return "use";
}

CallerRole caller_role(std::string_view path, std::string_view line, std::string_view symbol) {
    const std::string_view t = trimmed(line);
    const CommentStyle style = comment_style(path);
    if ((style == CommentStyle::Slashes &&
         (t.starts_with("//") || t.starts_with("/*") || t.starts_with("*"))) ||
        (style == CommentStyle::Hash && t.starts_with("#") && !t.starts_with("#!")) ||
        (style == CommentStyle::Dashes && t.starts_with("--")))
        return CallerRole::Comment;
    const auto at = text::find_word(t, symbol);  // as the scan found it
    if (!at) return CallerRole::Use;
    const std::string_view before = trimmed(t.substr(0, *at));
    const std::string_view after = trimmed(t.substr(*at + symbol.size()));
    if (style == CommentStyle::Slashes && (before == "#define" || before == "# define"))
        return CallerRole::Definition;
    // NAME() { : a shell function's head, in a shell script with or without its extension.
    const bool shell_head =
        before.empty() && after.starts_with("()") && trimmed(after.substr(2)).starts_with("{");
    if (style == CommentStyle::None) return shell_head ? CallerRole::Definition : CallerRole::Use;
    static const std::vector<std::string_view> defining = {
        "def",   "function", "func",      "fn",     "sub",    "class",        "struct",
        "enum",  "union",    "interface", "trait",  "type",   "macro_rules!", "proc",
        "const", "let",      "var",       "module", "object", "record"};
    const std::string_view keyword = last_word(before);
    if (!keyword.empty() &&
        std::find(defining.begin(), defining.end(), keyword) != defining.end()) {
        const bool binding = keyword == "const" || keyword == "let" || keyword == "var";
        if (binding)
            return after.starts_with("=") || after.starts_with(":") ? CallerRole::Definition
                                                                    : CallerRole::Use;
        if (after.starts_with(";")) return CallerRole::Declaration;  // struct NAME;
        return CallerRole::Definition;
    }
    if (!after.starts_with("(")) return CallerRole::Use;
    if (shell_head && style == CommentStyle::Hash) return CallerRole::Definition;
    if (!type_ahead(before)) return CallerRole::Use;
    if (t.ends_with(";")) return CallerRole::Declaration;
    // A head ends its parameters, opens its body, or goes on to the next line.
    static const std::vector<std::string_view> qualifiers = {"const", "override", "noexcept",
                                                             "final"};
    const std::string_view end = last_word(t);
    const bool head = t.ends_with(")") || t.ends_with("{") || t.ends_with(",") ||
                      std::find(qualifiers.begin(), qualifiers.end(), end) != qualifiers.end();
    return head ? CallerRole::Definition : CallerRole::Use;
}

std::string_view caller_group_name(CallerGroup group) {
    switch (group) {
        case CallerGroup::Language:
            return "language";
        case CallerGroup::Code:
            return "code";
        case CallerGroup::Docs:
            return "docs";
    }
    return "code";
}

std::vector<std::string> language_family(const std::string& path) {
    std::string ext = extension(path);
    if (ext.empty()) return {};
    std::vector<std::string> out;
    for (const auto& family : families()) {
        if (std::find(family.begin(), family.end(), ext) == family.end()) continue;
        for (const std::string& e : family)
            if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
    }
    if (out.empty()) out.push_back(ext);
    return out;
}

CallerGroup caller_group(const std::string& path, const std::vector<std::string>& family) {
    if (is_docs(path)) return CallerGroup::Docs;
    std::string ext = extension(path);
    if (!ext.empty() && std::find(family.begin(), family.end(), ext) != family.end())
        return CallerGroup::Language;
    return CallerGroup::Code;
}

CallerScan::CallerScan(std::vector<std::string> symbols, std::size_t max_line_bytes)
    : max_line_bytes_(max_line_bytes) {
    for (auto& s : symbols) {
        if (s.empty()) continue;
        auto [it, added] = hits_.try_emplace(std::move(s));
        if (!added) continue;
        const std::string& name = it->first;
        if (all_word_bytes(name)) {
            words_.emplace(name, &*it);
            word_lengths_[std::min<std::size_t>(name.size(), 255)] = true;
            word_starts_[static_cast<unsigned char>(name[0])] = true;
        } else {
            others_[static_cast<unsigned char>(name[0])].push_back(&*it);
        }
    }
}

void CallerScan::scan(const std::string& path, std::string_view bytes) {
    ++files_scanned_;
    if (text::looks_binary(bytes)) return;
    // One pass over the bytes for every symbol. A whole match starts where no word byte
    // precedes it, so the scan hops from word to word: a word is a hit when it is one of the
    // symbols made only of word bytes; the other symbols are tried where their first byte
    // stands at such a start. Lines are counted on the way.
    std::map<const std::string*, LineNo> last_line;  // one hit per line and symbol
    LineNo line = 1;
    std::size_t line_start = 0;
    const std::size_t n = bytes.size();
    auto record = [&](Entry* entry, std::size_t at) {
        auto [seen, first] = last_line.try_emplace(&entry->first, line);
        if (!first && seen->second == line) return;
        seen->second = line;
        auto eol = bytes.find('\n', at);
        auto whole =
            bytes.substr(line_start, eol == std::string_view::npos ? eol : eol - line_start);
        if (!whole.empty() && whole.back() == '\r') whole.remove_suffix(1);
        CallerHit hit{path, line, std::string(whole), 0, CallerGroup::Code};
        hit.cut_bytes = text::cut_line(hit.text, max_line_bytes_);
        entry->second.push_back(std::move(hit));
    };
    auto try_others = [&](std::size_t at) {
        for (Entry* entry : others_[static_cast<unsigned char>(bytes[at])]) {
            const std::string& symbol = entry->first;
            std::size_t end = at + symbol.size();
            if (end > n || bytes.compare(at, symbol.size(), symbol) != 0) continue;
            if (end < n && text::is_word_byte(static_cast<unsigned char>(bytes[end]))) continue;
            record(entry, at);
        }
    };
    for (std::size_t i = 0; i < n;) {
        auto c = static_cast<unsigned char>(bytes[i]);
        if (c == '\n') {
            ++line;
            line_start = ++i;
            continue;
        }
        if (!text::is_word_byte(c)) {
            bool starts = i == 0 || !text::is_word_byte(static_cast<unsigned char>(bytes[i - 1]));
            if (starts && !others_[c].empty()) try_others(i);
            ++i;
            continue;
        }
        std::size_t j = i + 1;
        while (j < n && text::is_word_byte(static_cast<unsigned char>(bytes[j]))) ++j;
        if (word_starts_[c] && word_lengths_[std::min<std::size_t>(j - i, 255)]) {
            auto it = words_.find(bytes.substr(i, j - i));
            if (it != words_.end()) record(it->second, i);
        }
        if (!others_[c].empty()) try_others(i);
        i = j;
    }
}

void CallerScan::append(const CallerScan& later) {
    for (const auto& [symbol, found] : later.hits_) {
        auto mine = hits_.find(symbol);
        if (mine != hits_.end())
            mine->second.insert(mine->second.end(), found.begin(), found.end());
    }
    files_scanned_ += later.files_scanned_;
}

const std::vector<CallerHit>& CallerScan::hits(const std::string& symbol) const {
    static const std::vector<CallerHit> none;
    auto it = hits_.find(symbol);
    return it == hits_.end() ? none : it->second;
}

Callers summarize_callers(const std::string& symbol, const std::vector<CallerHit>& hits,
                          const std::vector<Shown>& shown, std::size_t max_hits,
                          std::size_t files_scanned, const std::string& own_path) {
    Callers out;
    out.symbol = symbol;
    out.files_scanned = files_scanned;
    out.language = language_family(own_path);
    std::map<std::string, std::size_t> counts;
    std::array<std::vector<const CallerHit*>, 3> by_group;
    std::array<std::set<std::string>, 3> files;
    for (const CallerHit& h : hits) {
        bool inside = std::any_of(shown.begin(), shown.end(), [&](const Shown& s) {
            return s.path == h.path && s.first <= h.line && h.line <= s.last;
        });
        if (inside) {
            ++out.in_windows;
            continue;
        }
        ++out.total;
        ++counts[h.path];
        auto g = static_cast<std::size_t>(caller_group(h.path, out.language));
        ++out.groups[g].hits;
        if (files[g].insert(h.path).second) ++out.groups[g].files;
        by_group[g].push_back(&h);
    }
    for (std::size_t g = 0; g < by_group.size(); ++g)
        for (const CallerHit* h : by_group[g]) {
            if (out.hits.size() == max_hits) break;
            out.hits.push_back(*h);
            out.hits.back().group = static_cast<CallerGroup>(g);
            out.hits.back().role = caller_role(h->path, h->text, symbol);
        }
    for (auto& [path, count] : counts) out.per_file.push_back({path, count});
    std::stable_sort(out.per_file.begin(), out.per_file.end(),
                     [](const FileCount& a, const FileCount& b) { return a.count > b.count; });
    return out;
}

}  // namespace cp
