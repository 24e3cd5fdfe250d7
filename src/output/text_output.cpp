#include "context_pack/output/text_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "context_pack/core/text.hpp"
#include "context_pack/output/table.hpp"

namespace cp {
namespace {

constexpr std::size_t kMaxPointers = 20;  // pointers listed for what the cap left out
constexpr std::size_t kHistoryShown = 3;  // commits of an anchor's history in its window

// The pointer that asks for the pack again, as the front end says it.
std::string again(const TextOptions& o, std::optional<std::string> rows,
                  const OptionName* cap = nullptr, std::size_t value = 0) {
    if (o.again) return o.again(rows, cap, value);
    std::string cmd = o.rerun;
    if (rows) cmd += fmt::format(" {} {}", o.names.only.name, *rows);
    if (cap) cmd += fmt::format(" {} {}", cap->name, value);
    return cmd;
}

std::string again(const TextOptions& o, std::size_t row, const OptionName* cap = nullptr,
                  std::size_t value = 0) {
    return again(o, std::optional<std::string>(std::to_string(row)), cap, value);
}

std::string rerun_one(const TextOptions& o, const AnchorResult& a) {
    return again(o, a.row);
}

std::string anchor_line(const AnchorResult& a) {
    Location at_base{a.anchor.path, a.anchor.line, a.anchor.last_line()};
    std::string line =
        fmt::format("#{} {} {} {}, at base {}", a.row, anchor_label(a.anchor), a.status_label(),
                    a.to ? format_location(*a.to) : "-", format_location(at_base));
    if (!a.anchor.note.empty())
        line += fmt::format(" | {}: {}", a.anchor.kind == AnchorKind::Edit ? "change" : "why",
                            text::printable(a.anchor.note));
    return line;
}

// --history under an anchor's line: the newest few commits that changed its lines, then
// the working tree's changes, then how many more.
void add_history_lines(const AnchorResult& a, std::vector<std::string>& out) {
    if (!a.history) return;
    if (a.history->empty()) {
        out.push_back("  history: no commit since base changed these lines");
        return;
    }
    std::size_t commits = 0;
    for (const HistoryEntry& e : *a.history) commits += !e.worktree();
    out.push_back(fmt::format("  history: {} commit{} since base{}", commits,
                              commits == 1 ? "" : "s",
                              commits < a.history->size() ? ", and uncommitted changes" : ""));
    std::size_t shown = 0;
    for (const HistoryEntry& e : *a.history) {
        if (e.worktree()) {
            out.push_back("    worktree (uncommitted changes)");
        } else if (shown < kHistoryShown) {
            ++shown;
            out.push_back(
                fmt::format("    {} {}", text::short_oid(e.commit), text::printable(e.subject)));
        }
    }
    if (commits > shown) out.push_back(fmt::format("    … +{} more", commits - shown));
}

// A window as text, one string per line.
std::vector<std::string> window_lines(const SpecReport& spec, const Window& w, const TextOptions& o,
                                      std::size_t& longest_cut) {
    const bool color = o.color;
    std::vector<std::string> out;
    LineNo last_shown = w.lines.empty() ? w.first - 1 : w.lines.back().number;
    if (w.unavailable) last_shown = w.last;  // the anchors' span, though not shown
    std::string span = last_shown >= w.first ? format_location({w.path, w.first, last_shown})
                                             : text::printable(w.path);
    std::string in = w.definition
                         ? fmt::format(" in {} (line {})", text::printable(w.definition->text),
                                       w.definition->line)
                         : "";
    out.push_back(paint(color, "1", fmt::format("== {} =={}", span, in)));
    for (auto i : w.anchors) {
        out.push_back(anchor_line(spec.anchors[i]));
        add_history_lines(spec.anchors[i], out);
    }
    if (w.unavailable) {
        out.push_back("  (" + *w.unavailable + ")");
        return out;
    }
    auto width = std::to_string(w.last).size();
    // Where an anchor's lines were all deleted, a marker stands in the gap they left.
    auto gaps_after = [&](LineNo line) {
        for (auto i : w.anchors) {
            const AnchorResult& a = spec.anchors[i];
            if (a.lines_deleted && a.to && a.to->end_line == line)
                out.push_back(
                    fmt::format("{:>{}} ~ (#{}: its lines at base {}:{}-{} were "
                                "deleted here)",
                                "", width + 2, a.row, text::printable(a.anchor.path), a.anchor.line,
                                a.anchor.last_line()));
        }
    };
    if (w.lines.empty()) out.push_back("  (no lines at target)");
    gaps_after(w.first - 1);
    for (const WindowLine& l : w.lines) {
        std::string text = text::visible(l.text);
        if (l.cut_bytes) {
            text += fmt::format(" … (+{} bytes)", l.cut_bytes);
            longest_cut = std::max(longest_cut, o.max_line_bytes + l.cut_bytes);
        }
        std::string number = fmt::format("{:>{}}", l.number, width);
        if (l.anchored)  // '*': a best line of a TOUCHED anchor, '>' any other anchored line
            out.push_back(fmt::format("{} {} | {}", paint(color, "1", l.best ? "*" : ">"),
                                      paint(color, "1", number), text));
        else
            out.push_back(fmt::format("  {} | {}", number, text));
        gaps_after(l.number);
    }
    if (w.omitted())
        out.push_back(fmt::format(
            "… +{} line{} ({}:{}-{}); {} shows them", w.omitted(), w.omitted() == 1 ? "" : "s",
            text::printable(w.path), w.omitted_from, w.omitted_to,
            again(o, spec.anchors[w.anchors.front()].row, &o.names.max_window_lines,
                  o.max_window_lines + static_cast<std::size_t>(w.omitted()))));
    return out;
}

// A caller group as the text names it: "same language (.c/.h)", "other code", "docs and
// test data".
std::string group_label(const Callers& c, CallerGroup g) {
    if (g == CallerGroup::Code) return c.language.empty() ? "code" : "other code";
    if (g == CallerGroup::Docs) return "docs and test data";
    std::string family;
    for (std::size_t i = 0; i < c.language.size() && i < 4; ++i)
        family += (i ? "/" : "") + text::printable(c.language[i]);
    if (c.language.size() > 4) family += "/…";
    return fmt::format("same language ({})", family);
}

std::vector<std::string> caller_lines(const Callers& c, const AnchorResult& owner,
                                      const TextOptions& o, std::size_t& longest_cut) {
    const bool color = o.color;
    std::vector<std::string> out;
    std::string in_windows =
        c.in_windows ? fmt::format("; {} more in its own windows", c.in_windows) : "";
    if (c.total == 0) {
        out.push_back(paint(
            color, "1",
            fmt::format("== callers of {}: none at target outside its windows "
                        "({} file{} searched{}) ==",
                        c.symbol, c.files_scanned, c.files_scanned == 1 ? "" : "s", in_windows)));
        return out;
    }
    std::string groups;
    for (CallerGroup g : kAllCallerGroups)
        if (auto n = c.groups[static_cast<std::size_t>(g)].hits)
            groups += fmt::format("{}{} {}", groups.empty() ? "" : ", ", group_label(c, g), n);
    out.push_back(paint(color, "1",
                        fmt::format("== callers of {}: {} hit{} in {} file{} at target ({}){} ==",
                                    c.symbol, c.total, c.total == 1 ? "" : "s", c.per_file.size(),
                                    c.per_file.size() == 1 ? "" : "s", groups, in_windows)));
    for (std::size_t i = 0; i < c.hits.size(); ++i) {
        const CallerHit& h = c.hits[i];
        if (i == 0 || c.hits[i - 1].group != h.group)
            out.push_back(fmt::format("-- {} --", group_label(c, h.group)));
        std::string text = text::visible(h.text);
        if (h.cut_bytes) {
            text += fmt::format(" … (+{} bytes)", h.cut_bytes);
            longest_cut = std::max(longest_cut, o.max_line_bytes + h.cut_bytes);
        }
        const std::string role = h.role == CallerRole::Use
                                     ? std::string()
                                     : fmt::format("[{}] ", caller_role_name(h.role));
        out.push_back(fmt::format("{}:{}: {}{}", text::printable(h.path), h.line, role, text));
    }
    if (c.total > c.hits.size()) {
        std::string files;
        std::size_t listed = 0;
        for (const FileCount& f : c.per_file) {
            if (listed == kFilesCounted) break;
            files += fmt::format("{}{} {}", listed ? ", " : "", text::printable(f.path), f.count);
            ++listed;
        }
        if (listed < c.per_file.size())
            files += fmt::format(", … +{} files", c.per_file.size() - listed);
        out.push_back(fmt::format("… +{} more hits; per file: {}", c.total - c.hits.size(), files));
        out.push_back(
            fmt::format("  {} lists them all", again(o, owner.row, &o.names.max_callers, c.total)));
    }
    return out;
}

// A window or caller list, after a blank line.
void print_block(std::ostream& out, const std::vector<std::string>& lines) {
    out << '\n';
    for (const auto& l : lines) out << l << '\n';
}

// The anchor whose symbol a caller list is of.
const AnchorResult& owner_of(const SpecReport& spec, const Callers& c) {
    return *std::find_if(spec.anchors.begin(), spec.anchors.end(),
                         [&](const AnchorResult& a) { return a.anchor.symbol == c.symbol; });
}

// --since with no anchor edited since: the pack says so in place of its code.
bool nothing_since(const SpecReport& spec) {
    return !spec.since.empty() &&
           std::none_of(spec.anchors.begin(), spec.anchors.end(),
                        [](const AnchorResult& a) { return a.edited_since == true; });
}

void print_pointers(std::ostream& out, const TextOptions& o, const char* what,
                    const std::vector<std::string>& pointers) {
    if (pointers.empty()) return;
    out << '\n'
        << fmt::format("… {} {}{} not shown (over {} {}); print one with:", pointers.size(), what,
                       pointers.size() == 1 ? "" : "s", o.names.max_lines.name, o.max_lines)
        << '\n';
    for (std::size_t i = 0; i < pointers.size() && i < kMaxPointers; ++i)
        out << "  " << pointers[i] << '\n';
    if (pointers.size() > kMaxPointers)
        out << fmt::format("  … +{} more; raise {} to see them all", pointers.size() - kMaxPointers,
                           o.names.max_lines.name)
            << '\n';
}

}  // namespace

std::string rows_of(const SpecReport& spec, std::size_t first, std::size_t last) {
    return fmt::format("{}-{}", spec.anchors[first].row, spec.anchors[last].row);
}

std::size_t code_rows(const SpecReport& spec) {
    return std::min(spec.anchors.size(), kCodeRowsSuggested);
}

// Which windows and caller lists fit under max_lines, in the order the pack prints them: the
// tables (and a first line naming where paths are relative to) count first, then each block
// that still fits with its blank line before it; a block that does not is left out and the
// next one tried.
PackCuts plan_cuts(const Report& report, const TextOptions& o) {
    PackCuts cuts;
    cuts.specs.assign(report.specs.size(), {});
    std::size_t used = o.paths_from.empty() ? 0 : 1;
    auto fits = [&](std::size_t lines) {
        if (used + lines + 1 > o.max_lines) return false;
        used += lines + 1;
        return true;
    };
    for (std::size_t s = 0; s < report.specs.size(); ++s) {
        const SpecReport& spec = report.specs[s];
        const std::size_t rows = std::min(o.max_rows, spec.anchors.size());
        used += spec_table(spec, false, rows, o.width).size() + (rows < spec.anchors.size());
        if (o.table_only || nothing_since(spec)) continue;
        for (std::size_t wi = 0; wi < spec.windows.size(); ++wi) {
            std::size_t cut = 0;
            if (!fits(window_lines(spec, spec.windows[wi], o, cut).size()))
                cuts.specs[s].windows.push_back(wi);
        }
        for (std::size_t ci = 0; ci < spec.callers.size(); ++ci) {
            std::size_t cut = 0;
            if (!fits(caller_lines(spec.callers[ci], owner_of(spec, spec.callers[ci]), o, cut)
                          .size()))
                cuts.specs[s].callers.push_back(ci);
        }
    }
    cuts.lines = used;
    return cuts;
}

void print_pack(std::ostream& out, const Report& report, const TextOptions& o) {
    print_pack(out, report, o, plan_cuts(report, o));
}

void print_pack(std::ostream& out, const Report& report, const TextOptions& o,
                const PackCuts& cuts) {
    auto left_out = [](const std::vector<std::size_t>& cut, std::size_t i) {
        return std::binary_search(cut.begin(), cut.end(), i);
    };
    if (!o.paths_from.empty())
        out << fmt::format("Paths are relative to the repository's top, {}\n",
                           text::printable(o.paths_from));
    bool first = true;
    for (std::size_t s = 0; s < report.specs.size(); ++s) {
        const SpecReport& spec = report.specs[s];
        if (!first) out << '\n';
        first = false;
        const std::size_t rows = std::min(o.max_rows, spec.anchors.size());
        print_spec_table(out, spec, o.color, rows, o.width);
        if (rows < spec.anchors.size()) {
            out << fmt::format("… {} more rows not shown (over {}); {} shows them",
                               spec.anchors.size() - rows, o.over,
                               again(o, rows_of(spec, rows, spec.anchors.size() - 1)))
                << '\n';
        }
        if (o.code_cut && !spec.anchors.empty()) {
            const std::string shown = rows_of(spec, 0, code_rows(spec) - 1);
            out << fmt::format(
                       "… the code and callers are not shown (over {}); {} shows them for rows {}",
                       o.over, again(o, shown), shown)
                << '\n';
        }
        if (o.table_only) continue;
        if (nothing_since(spec)) {
            out << '\n'
                << fmt::format("No anchor's lines changed since {}: nothing to re-expand.",
                               text::short_oid(spec.since))
                << '\n';
            continue;
        }

        std::vector<std::string> skipped;
        std::size_t longest_cut = 0;  // the longest line cut at --max-line-bytes, whole
        for (std::size_t wi = 0; wi < spec.windows.size(); ++wi) {
            const Window& w = spec.windows[wi];
            if (!left_out(cuts.specs[s].windows, wi)) {
                std::size_t cut = 0;
                print_block(out, window_lines(spec, w, o, cut));
                longest_cut = std::max(longest_cut, cut);
                continue;
            }
            const AnchorResult& a = spec.anchors[w.anchors.front()];
            skipped.push_back(fmt::format("{:<40} # {}", rerun_one(o, a),
                                          a.to ? format_location(*a.to) : w.path));
        }
        print_pointers(out, o, "window", skipped);

        std::vector<std::string> callers_skipped;
        for (std::size_t ci = 0; ci < spec.callers.size(); ++ci) {
            const Callers& c = spec.callers[ci];
            const AnchorResult& owner = owner_of(spec, c);
            if (!left_out(cuts.specs[s].callers, ci)) {
                std::size_t cut = 0;
                print_block(out, caller_lines(c, owner, o, cut));
                longest_cut = std::max(longest_cut, cut);
                continue;
            }
            callers_skipped.push_back(
                fmt::format("{:<40} # callers of {}", rerun_one(o, owner), c.symbol));
        }
        print_pointers(out, o, "caller list", callers_skipped);
        if (longest_cut)
            out << '\n'
                << fmt::format(
                       "… lines longer than {} bytes are cut where marked (+N bytes); {} "
                       "shows them whole",
                       o.max_line_bytes,
                       again(o, std::nullopt, &o.names.max_line_bytes, longest_cut))
                << '\n';
    }
    if (report.specs.size() > 1) {  // a batch: the drift report over all of them
        out << '\n';
        print_summary(out, summarize(report), o.color);
    }
}

}  // namespace cp
