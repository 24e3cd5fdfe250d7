#include "context_pack/output/table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "context_pack/core/text.hpp"

namespace cp {
namespace {

using Row = std::vector<std::string>;

std::string target_cell(const Target& target, const std::string& written) {
    switch (target.kind) {
        case Target::Kind::Unresolved:
            return written + " (unresolved)";
        case Target::Kind::WorkingTree:
            return "worktree";
        case Target::Kind::Commit:
            return text::short_oid(target.commit);
    }
    return written;
}

std::string header_line(const SpecReport& spec) {
    std::string base = spec.base.empty() ? text::printable(spec.base_rev) + " (unresolved)"
                                         : text::short_oid(spec.base);
    std::string target = target_cell(spec.target, text::printable(spec.target_rev));
    std::string name = text::printable(
        spec.id.empty() ? spec.source : fmt::format("{} ({})", spec.id, spec.source));
    std::string counts;
    for (Status s : kAllStatuses) {
        if (auto n = spec.count(s))
            counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", n, status_name(s));
    }
    if (auto n = spec.renamed_count()) counts += fmt::format("; {} RENAMED", n);
    if (auto n = spec.symbol_missing_count()) counts += fmt::format("; {} SYMBOL_MISSING", n);
    auto total = spec.anchors.size();
    std::string since;
    if (!spec.since.empty()) {
        auto edited = std::count_if(spec.anchors.begin(), spec.anchors.end(),
                                    [](const AnchorResult& a) { return a.edited_since == true; });
        since = fmt::format("; {} edited since {}", edited, text::short_oid(spec.since));
    }
    return fmt::format("{}: base {} -> target {}, {} anchor{}{}{}{}", name, base, target, total,
                       total == 1 ? "" : "s", counts.empty() ? "" : ": ", counts, since);
}

std::string symbol_cell(const AnchorResult& a) {
    if (!a.anchor.symbol) return "-";
    if (!a.symbol_found) return fmt::format("{} (unchecked)", *a.anchor.symbol);
    return fmt::format("{} {}", *a.anchor.symbol, *a.symbol_found ? "found" : "SYMBOL_MISSING");
}

std::string relocation_note(const Relocation& r) {
    const std::string ws = r.similarity
                               ? fmt::format(", edited ({:.0f}% alike)", *r.similarity * 100)
                           : r.whitespace ? ", whitespace aside"
                                          : "";
    if (const auto* moved = r.moved(); moved && moved->margins)
        return fmt::format(
            "its code kept whole, lines put between it and its margins; the "
            "diff said {}",
            format_location(*moved->diff_to));
    if (const auto* moved = r.moved())
        return fmt::format("found by content{}; the diff said {}", ws,
                           moved->diff_to ? format_location(*moved->diff_to) : "deleted");
    const auto* found = r.found_at();
    const auto* several = r.candidates();
    // One place: pointed at, or listed alone (too weak a match of too few lines to take).
    if (const Location* one = found                 ? &found->at
                              : several->total == 1 ? &several->listed[0]
                                                    : nullptr) {
        const std::string at =
            r.similarity ? fmt::format("lines like its own at {} ({:.0f}% alike)",
                                       format_location(*one), *r.similarity * 100)
                         : fmt::format("its lines are at {}{}", format_location(*one), ws);
        return found ? at : at + ", too few lines to take";
    }
    std::string list;
    for (const Location& c : several->listed)
        list += (list.empty() ? "" : ", ") + format_location(c);
    if (several->total > several->listed.size())
        list += fmt::format(", … +{} more", several->total - several->listed.size());
    return fmt::format("its lines occur {} times{}, not picked: {}", several->total, ws, list);
}

}  // namespace

std::string best_note(const AnchorResult& a) {
    const RangeAnswer& best = *a.best;
    const std::string& path = a.to->path;
    if (best.tier == LineTier::Deleted) return "best: none, its lines are gone";
    if (best.tier == LineTier::Ambiguous) {
        std::string list;
        for (const LineCandidate& c : best.candidates)
            list += fmt::format("{}{} ({:.2f})", list.empty() ? "" : " or ",
                                format_location({path, c.line, c.last()}), c.score);
        return "best: ambiguous, " + list;
    }
    auto unplaced = std::count_if(best.lines.begin(), best.lines.end(),
                                  [](const LineAnswer& l) { return !l.located(); });
    return fmt::format("best {} ({:.2f}, {}{})", format_location({path, best.line, best.end_line}),
                       best.score, tier_name(best.tier),
                       unplaced ? fmt::format("; {} of {} lines without a counterpart", unplaced,
                                              best.lines.size())
                                : "");
}

namespace {

std::string note_cell(const AnchorResult& a) {
    std::string note = a.reason.value_or("");
    auto add = [&](const std::string& more) { note += (note.empty() ? "" : "; ") + more; };
    if (a.renamed && a.to && a.followed.empty()) add(fmt::format("renamed from {}", a.anchor.path));
    if (a.relocation) add(relocation_note(*a.relocation));
    if (a.best && a.to) add(best_note(a));
    if (a.binary && a.status != Status::Unresolved) add("binary file");
    if (a.symbol_found == false)
        add(fmt::format("'{}' is not a whole word in the lines at target", *a.anchor.symbol));
    return note;
}

// --history: how many commits (and the working tree) changed its lines; "-" with no lines
// at the target to follow.
std::string history_cell(const AnchorResult& a) {
    if (!a.history) return "-";
    return std::to_string(a.history->size());
}

Row row_of(const AnchorResult& a, bool since, bool history) {
    Location at_base{a.anchor.path, a.anchor.line, a.anchor.last_line()};
    Row row{std::to_string(a.row),
            a.anchor.kind == AnchorKind::Edit ? "edit"
            : a.anchor.mention                ? "prose"
                                              : "read",
            format_location(at_base),
            a.status_label(),
            a.to ? format_location(*a.to) : "-",
            symbol_cell(a)};
    if (since) row.push_back(!a.edited_since ? "-" : *a.edited_since ? "edited" : "no");
    if (history) row.push_back(history_cell(a));
    row.push_back(text::printable(note_cell(a)));
    return row;
}

}  // namespace

std::string format_location(const Location& loc) {
    Location l{text::printable(loc.path), loc.line, loc.end_line};
    if (l.end_line < l.line) {
        if (l.end_line == 0) return fmt::format("{}:(deleted at the top)", l.path);
        return fmt::format("{}:(deleted after {})", l.path, l.end_line);
    }
    if (l.end_line == l.line) return fmt::format("{}:{}", l.path, l.line);
    return fmt::format("{}:{}-{}", l.path, l.line, l.end_line);
}

std::string paint(bool on, const char* code, const std::string& text) {
    if (!on) return text;
    return fmt::format("\x1b[{}m{}\x1b[0m", code, text);
}

const char* status_color(const AnchorResult& a) {
    if (!a.ok()) return "31";  // red: GONE, UNRESOLVED, SYMBOL_MISSING, its lines deleted
    switch (a.status) {
        case Status::Same:
            return "32";
        case Status::Moved:
            return "36";
        case Status::Touched:
            return "33";
        default:
            return "34";
    }
}

std::vector<std::string> spec_table(const SpecReport& spec, bool color, std::size_t rows_shown,
                                    std::size_t width) {
    bool since = !spec.since.empty();
    Row head{"#", "kind", "at base", "status", "at target", "symbol"};
    if (since) head.push_back("since");
    if (spec.history) head.push_back("history");
    head.push_back("note");
    std::vector<Row> rows{head};
    for (std::size_t i = 0; i < spec.anchors.size() && i < rows_shown; ++i)
        rows.push_back(row_of(spec.anchors[i], since, spec.history));
    std::vector<std::size_t> column(head.size());
    for (const Row& r : rows)
        for (std::size_t c = 0; c < r.size(); ++c) column[c] = std::max(column[c], r[c].size());

    std::vector<std::string> out{paint(color, "1", header_line(spec))};
    // A note that would run past the terminal's edge goes beneath its row, under "kind".
    const std::size_t indent = column[0] + 2;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        std::size_t length = column[0];
        for (std::size_t c = 1; c < r.size(); ++c)
            length += 2 + (c + 1 == r.size() ? r[c].size() : column[c]);
        const bool beneath = i > 0 && width > 0 && length > width && !r.back().empty();
        std::string line = fmt::format("{:>{}}", r[0], column[0]);
        for (std::size_t c = 1; c < r.size() - (beneath ? 1 : 0); ++c) {
            std::string cell = fmt::format("{:<{}}", r[c], c + 1 == r.size() ? 0 : column[c]);
            if (i > 0 && c == 3) cell = paint(color, status_color(spec.anchors[i - 1]), cell);
            line += "  " + cell;
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out.push_back(std::move(line));
        if (!beneath) continue;
        const std::size_t room = width > indent + 20 ? width - indent : 20;
        for (const std::string& part : text::wrapped(r.back(), room))
            out.push_back(std::string(indent, ' ') + part);
    }
    return out;
}

std::size_t print_spec_table(std::ostream& out, const SpecReport& spec, bool color,
                             std::size_t rows_shown, std::size_t width) {
    const std::vector<std::string> lines = spec_table(spec, color, rows_shown, width);
    for (const std::string& line : lines) out << line << '\n';
    return lines.size();
}

void print_summary(std::ostream& out, const Summary& summary, bool color) {
    const Counts& all = summary.all;
    auto percent = [](std::size_t part, std::size_t whole) {
        return whole ? fmt::format("{}%", (part * 100 + whole / 2) / whole) : std::string("-");
    };
    out << paint(color, "1",
                 fmt::format("drift over {} specs, {} anchors: {} drifted ({}), {} RENAMED, {} "
                             "SYMBOL_MISSING",
                             summary.by_spec.size(), all.total, all.drifted(),
                             percent(all.drifted(), all.total), all.renamed, all.symbol_missing))
        << '\n';
    Row head{"", "anchors"};
    for (Status s : kAllStatuses) head.push_back(std::string(status_name(s)));
    for (const char* extra : {"RENAMED", "SYMBOL_MISSING", "drifted"}) head.push_back(extra);
    auto row = [&](const std::string& name, const Counts& c) {
        Row r{name, std::to_string(c.total)};
        for (Status s : kAllStatuses) r.push_back(std::to_string(c.of(s)));
        r.push_back(std::to_string(c.renamed));
        r.push_back(std::to_string(c.symbol_missing));
        r.push_back(percent(c.drifted(), c.total));
        return r;
    };
    std::vector<Row> rows{head, row("all", all), Row{"by spec"}};
    for (const auto& [name, c] : summary.by_spec)
        rows.push_back(row("  " + text::printable(name), c));
    rows.push_back(Row{"by path prefix"});
    for (const auto& [name, c] : summary.by_prefix)
        rows.push_back(row("  " + text::printable(name), c));
    std::vector<std::size_t> width(head.size());
    for (const Row& r : rows)
        for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
    for (const Row& r : rows) {
        std::string line = fmt::format("{:<{}}", r[0], r.size() == 1 ? 0 : width[0]);
        for (std::size_t c = 1; c < r.size(); ++c) line += fmt::format("  {:>{}}", r[c], width[c]);
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out << line << '\n';
    }
}

}  // namespace cp
