#include "context_pack/table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "context_pack/git.hpp"

namespace cp {
namespace {

constexpr std::size_t kColumns = 7;
using Row = std::array<std::string, kColumns>;

std::string header_line(const SpecReport& spec) {
    std::string base = spec.base.empty() ? spec.base_rev + " (unresolved)" : git::short_oid(spec.base);
    std::string target = spec.target == "worktree" ? "worktree" : git::short_oid(spec.target);
    std::string name = spec.id.empty() ? spec.source : fmt::format("{} ({})", spec.id, spec.source);
    std::string counts;
    for (Status s : kAllStatuses) {
        if (auto n = spec.count(s))
            counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", n, status_name(s));
    }
    if (auto n = spec.renamed_count()) counts += fmt::format("; {} RENAMED", n);
    if (auto n = spec.symbol_missing_count()) counts += fmt::format("; {} SYMBOL_MISSING", n);
    auto total = spec.anchors.size();
    return fmt::format("{}: base {} -> target {}, {} anchor{}{}{}", name, base, target, total,
                       total == 1 ? "" : "s", counts.empty() ? "" : ": ", counts);
}

std::string symbol_cell(const AnchorResult& a) {
    if (!a.anchor.symbol) return "-";
    if (!a.symbol_found) return fmt::format("{} (unchecked)", *a.anchor.symbol);
    return fmt::format("{} {}", *a.anchor.symbol, *a.symbol_found ? "found" : "SYMBOL_MISSING");
}

std::string note_cell(const AnchorResult& a) {
    std::string note = a.reason.value_or("");
    auto add = [&](const std::string& more) { note += (note.empty() ? "" : "; ") + more; };
    if (a.renamed && a.to) add(fmt::format("renamed from {}", a.anchor.path));
    if (a.binary && a.status != Status::Unresolved) add("binary file");
    if (a.symbol_found == false)
        add(fmt::format("'{}' is not a whole word in the lines at target", *a.anchor.symbol));
    return note;
}

Row row_of(std::size_t number, const AnchorResult& a) {
    Location at_base{a.anchor.path, a.anchor.line, a.anchor.last_line()};
    return Row{std::to_string(number),
               a.anchor.kind == AnchorKind::Edit ? "edit" : "read",
               format_location(at_base),
               a.status_label(),
               a.to ? format_location(*a.to) : "-",
               symbol_cell(a),
               note_cell(a)};
}

}  // namespace

std::string format_location(const Location& l) {
    if (l.end_line < l.line) {
        if (l.end_line == 0) return fmt::format("{}:(deleted at the top)", l.path);
        return fmt::format("{}:(deleted after {})", l.path, l.end_line);
    }
    if (l.end_line == l.line) return fmt::format("{}:{}", l.path, l.line);
    return fmt::format("{}:{}-{}", l.path, l.line, l.end_line);
}

void print_table(std::ostream& out, const Report& report) {
    const Row head{"#", "kind", "at base", "status", "at target", "symbol", "note"};
    bool first = true;
    for (const SpecReport& spec : report.specs) {
        if (!first) out << '\n';
        first = false;
        out << header_line(spec) << '\n';
        std::vector<Row> rows{head};
        for (std::size_t i = 0; i < spec.anchors.size(); ++i)
            rows.push_back(row_of(i + 1, spec.anchors[i]));
        std::array<std::size_t, kColumns> width{};
        for (const Row& r : rows)
            for (std::size_t c = 0; c < kColumns; ++c) width[c] = std::max(width[c], r[c].size());
        for (const Row& r : rows) {
            std::string line = fmt::format("{:>{}}", r[0], width[0]);
            for (std::size_t c = 1; c < kColumns; ++c)
                line += fmt::format("  {:<{}}", r[c], c + 1 == kColumns ? 0 : width[c]);
            while (!line.empty() && line.back() == ' ') line.pop_back();
            out << line << '\n';
        }
    }
}

}  // namespace cp
