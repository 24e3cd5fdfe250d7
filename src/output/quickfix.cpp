#include "context_pack/output/quickfix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "context_pack/core/text.hpp"
#include "context_pack/output/table.hpp"

namespace cp {
namespace {

// The components of a path, "." and empty ones left out.
std::vector<std::string_view> parts(std::string_view path) {
    std::vector<std::string_view> out;
    for (std::size_t at = 0; at <= path.size();) {
        std::size_t slash = path.find('/', at);
        if (slash == std::string_view::npos) slash = path.size();
        const std::string_view part = path.substr(at, slash - at);
        if (part == "..") {
            if (!out.empty()) out.pop_back();
        } else if (!part.empty() && part != ".") {
            out.push_back(part);
        }
        at = slash + 1;
    }
    return out;
}

// The root a path starts from: "/" or a drive ("C:/").
std::string_view root_of(std::string_view path) {
    if (path.size() >= 3 && path[1] == ':' && path[2] == '/') return path.substr(0, 3);
    return path.starts_with('/') ? path.substr(0, 1) : std::string_view{};
}

}  // namespace

std::string path_from(const std::string& cwd, const std::string& top, const std::string& path) {
    const std::string full = top + (top.ends_with('/') ? "" : "/") + path;
    const std::string_view root = root_of(full);
    if (root.empty() || root != root_of(cwd)) return full;
    const auto to = parts(std::string_view(full).substr(root.size()));
    const auto from = parts(std::string_view(cwd).substr(root.size()));
    std::size_t common = 0;
    while (common < to.size() && common < from.size() && to[common] == from[common]) ++common;
    std::string out;
    for (std::size_t i = common; i < from.size(); ++i) out += "../";
    for (std::size_t i = common; i < to.size(); ++i)
        out += std::string(to[i]) + (i + 1 < to.size() ? "/" : "");
    return out;
}

void print_quickfix(std::ostream& out, const Report& report, const std::string& cwd) {
    for (const SpecReport& spec : report.specs) {
        for (const AnchorResult& a : spec.anchors) {
            const Anchor& in = a.anchor;
            // Where the anchor is now (at its symbol when found, else at the first of the
            // lines it became, as `best` places them); where it was when it is nowhere now.
            // A range whose lines were all deleted points at the line after the gap, never
            // line 0.
            const bool now = a.to.has_value();
            const bool best = now && a.best;
            const std::string& path = now ? a.to->path : in.path;
            LineNo line = std::max<LineNo>(1, now ? a.to->line : in.line);
            std::size_t column = 1;
            if (best && a.best->line > 0) line = a.best->line;
            if (now && a.symbol_at) std::tie(line, column) = *a.symbol_at;
            const bool error = a.status == Status::Gone || a.status == Status::Unresolved ||
                               a.symbol_found == false;
            const char* kind = error ? "error" : a.status == Status::Touched ? "warning" : "note";
            std::string text = fmt::format("{} {}", a.status_label(), anchor_label(in));
            if (in.symbol) {
                text += " " + text::printable(*in.symbol);
                if (a.symbol_found) text += *a.symbol_found ? " found" : " missing";
            }
            text += fmt::format(" (spec {}; at base {}", text::printable(spec.id),
                                format_location({in.path, in.line, in.last_line()}));
            if (now) text += fmt::format("; now {}", format_location(*a.to));
            if (best) text += "; " + best_note(a);
            text += ")";
            if (a.reason) text += ": " + text::printable(*a.reason);
            const std::string shown =
                cwd.empty() || report.workdir.empty() ? path : path_from(cwd, report.workdir, path);
            out << fmt::format("{}:{}:{}: {}: {}\n", text::printable(shown), line, column, kind,
                               text);
        }
    }
}

}  // namespace cp
