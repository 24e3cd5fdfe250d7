#include "context_pack/core/funcname.hpp"

#include <map>
#include <regex>

#include "context_pack/core/text.hpp"

namespace cp {
namespace {

// A rule: lines matching `exclude` never count; a line counts when it matches `include`.
struct Rule {
    std::regex include;
    std::optional<std::regex> exclude;
};

constexpr auto kFlags = std::regex::extended | std::regex::optimize;

Rule rule(const char* include, const char* exclude = nullptr) {
    Rule r{std::regex(include, kFlags), std::nullopt};
    if (exclude) r.exclude = std::regex(exclude, kFlags);
    return r;
}

const Rule& rule_for(std::string_view language) {
    static const std::map<std::string_view, Rule> rules = [] {
        std::map<std::string_view, Rule> m;
        const char* kw_blocks =
            "^[ \t]*(if|else|for|foreach|while|do|switch|case|return|new|"
            "using|catch|throw|try|instanceof)([^A-Za-z0-9_]|$)";
        // C family: a top-level line that starts a name, not a label such as "public:".
        m.emplace("cpp", rule("^(::[ \t]*)?[A-Za-z_~].*$",
                              "^[ \t]*[A-Za-z_][A-Za-z_0-9]*:[ \t]*($|/[/*])"));
        m.emplace("csharp",
                  rule("^[ \t]*(((public|private|protected|internal|static|sealed|abstract|"
                       "partial|async|override|virtual|unsafe|readonly|extern|new)[ \t]+)*"
                       "(class|struct|interface|enum|record|namespace)[ \t]+[A-Za-z_@]|"
                       "((public|private|protected|internal|static|sealed|abstract|async|"
                       "override|virtual|unsafe|extern|new)[ \t]+)*[A-Za-z_@][][A-Za-z0-9_<>,.?@]*"
                       "[ \t]+[A-Za-z_@][A-Za-z0-9_<>@]*[ \t]*\\(.*$)",
                       kw_blocks));
        m.emplace("java",
                  rule("^[ \t]*(([a-z]+[ \t]+)*(class|interface|enum|record)[ \t]+[A-Za-z_$]|"
                       "([a-z]+[ \t]+)*[A-Za-z_$][][A-Za-z0-9_$<>,.?]*[ \t]+[A-Za-z_$]"
                       "[A-Za-z0-9_$]*[ \t]*\\(.*$)",
                       kw_blocks));
        m.emplace("kotlin", rule("^[ \t]*([a-z]+[ \t]+)*(fun|class|interface|object)[ \t]+.*$"));
        m.emplace("rust", rule("^[ \t]*(pub(\\([^)]*\\))?[ \t]+)?((async|const|unsafe|extern)"
                               "([ \t]+\"[^\"]*\")?[ \t]+)*(fn|struct|enum|union|mod|trait|impl|"
                               "macro_rules!)[ \t<].*$"));
        m.emplace("golang", rule("^[ \t]*(func[ \t(]|type[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]+"
                                 "(struct|interface)).*$"));
        m.emplace("python", rule("^[ \t]*((async[ \t]+)?def|class)[ \t].*$"));
        m.emplace("javascript",
                  rule("^[ \t]*((export[ \t]+)?(default[ \t]+)?(async[ \t]+)?function[ \t*]|"
                       "(export[ \t]+)?(default[ \t]+)?(abstract[ \t]+)?class[ \t]|"
                       "(export[ \t]+)?(interface|enum|namespace|module)[ \t]+[A-Za-z_$]|"
                       "(export[ \t]+)?(const|let|var)[ \t]+[A-Za-z_$][A-Za-z0-9_$]*[ \t]*"
                       "(:[^=]*)?=[ \t]*(async[ \t]+)?(function|\\([^)]*\\)[^=]*=>|"
                       "[A-Za-z_$][A-Za-z0-9_$]*[ \t]*=>)|"
                       "((public|private|protected|static|async|readonly|get|set)[ \t]+)*"
                       "[A-Za-z_$][A-Za-z0-9_$]*[ \t]*\\([^;]*\\)[ \t]*(:[^{;]*)?\\{[ \t]*$).*$",
                       kw_blocks));
        m.emplace("shell", rule("^[ \t]*(function[ \t]+[A-Za-z_][A-Za-z0-9_.:-]*|"
                                "[A-Za-z_][A-Za-z0-9_.:-]*[ \t]*\\([ \t]*\\)).*$"));
        m.emplace("markdown", rule("^ {0,3}#{1,6}[ \t].*$"));
        m.emplace("default", rule("^[A-Za-z_$].*$"));
        return m;
    }();
    auto it = rules.find(language);
    return it == rules.end() ? rules.at("default") : it->second;
}

std::string_view extension(std::string_view path) {
    auto slash = path.rfind('/');
    auto name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    auto dot = name.rfind('.');
    return dot == std::string_view::npos || dot == 0 ? std::string_view{} : name.substr(dot + 1);
}

}  // namespace

std::string_view funcname_language(std::string_view path) {
    static const std::map<std::string_view, std::string_view> by_extension = {
        {"c", "cpp"},          {"h", "cpp"},
        {"cc", "cpp"},         {"cpp", "cpp"},
        {"cxx", "cpp"},        {"c++", "cpp"},
        {"hh", "cpp"},         {"hpp", "cpp"},
        {"hxx", "cpp"},        {"inl", "cpp"},
        {"ipp", "cpp"},        {"hlsl", "cpp"},
        {"hlsli", "cpp"},      {"glsl", "cpp"},
        {"cginc", "cpp"},      {"compute", "cpp"},
        {"shader", "cpp"},     {"frag", "cpp"},
        {"vert", "cpp"},       {"comp", "cpp"},
        {"geom", "cpp"},       {"m", "cpp"},
        {"mm", "cpp"},         {"cs", "csharp"},
        {"java", "java"},      {"kt", "kotlin"},
        {"kts", "kotlin"},     {"rs", "rust"},
        {"go", "golang"},      {"py", "python"},
        {"pyi", "python"},     {"js", "javascript"},
        {"jsx", "javascript"}, {"mjs", "javascript"},
        {"cjs", "javascript"}, {"ts", "javascript"},
        {"tsx", "javascript"}, {"mts", "javascript"},
        {"cts", "javascript"}, {"sh", "shell"},
        {"bash", "shell"},     {"zsh", "shell"},
        {"md", "markdown"},    {"markdown", "markdown"},
    };
    auto it = by_extension.find(extension(path));
    return it == by_extension.end() ? std::string_view("default") : it->second;
}

std::optional<Definition> enclosing_definition(std::string_view path,
                                               const std::vector<std::string_view>& lines,
                                               LineNo at) {
    const Rule& r = rule_for(funcname_language(path));
    LineNo stop = std::max<LineNo>(1, at - 10000);
    for (LineNo n = std::min<LineNo>(at, LineNo(lines.size())); n >= stop; --n) {
        std::string line(lines[std::size_t(n - 1)]);
        if (line.size() > 1000) continue;  // minified or generated: no definition to read
        if (r.exclude && std::regex_search(line, *r.exclude)) continue;
        if (!std::regex_search(line, r.include)) continue;
        auto first = line.find_first_not_of(" \t");
        auto last = line.find_last_not_of(" \t\r");
        Definition d{n, line.substr(first, last - first + 1)};
        text::cut_line(d.text, 120);
        return d;
    }
    return std::nullopt;
}

}  // namespace cp
