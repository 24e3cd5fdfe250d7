#include "context_pack/output/json_output.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <string>
#include <system_error>
#include <vector>

#include "context_pack/model/summary.hpp"

namespace cp {
namespace {

using nlohmann::ordered_json;

constexpr std::size_t kMaxHistory = 20;  // commits listed per anchor's history

template <class T>
ordered_json or_null(const std::optional<T>& v) {
    return v ? ordered_json(*v) : ordered_json(nullptr);
}

ordered_json location_json(const std::optional<Location>& l) {
    if (!l) return nullptr;
    return ordered_json{{"path", l->path}, {"line", l->line}, {"end_line", l->end_line}};
}

ordered_json window_json(const SpecReport& spec, const Window& w) {
    ordered_json lines = ordered_json::array();
    for (const WindowLine& l : w.lines)
        lines.push_back({{"line", l.number},
                         {"text", l.text},
                         {"anchored", l.anchored},
                         {"best", l.best},
                         {"cut_bytes", l.cut_bytes}});
    ordered_json rows = ordered_json::array();
    for (auto i : w.anchors) rows.push_back(spec.anchors[i].row);
    ordered_json omitted = nullptr;
    if (w.omitted())
        omitted = {{"line", w.omitted_from}, {"end_line", w.omitted_to}, {"count", w.omitted()}};
    return ordered_json{{"path", w.path},
                        {"line", w.first},
                        {"end_line", w.lines.empty() ? w.last : w.lines.back().number},
                        {"rows", rows},
                        {"lines", lines},
                        {"omitted", omitted},
                        {"definition", w.definition ? ordered_json{{"line", w.definition->line},
                                                                   {"text", w.definition->text}}
                                                    : ordered_json(nullptr)},
                        {"unavailable", or_null(w.unavailable)}};
}

ordered_json callers_json(const Callers& c) {
    ordered_json hits = ordered_json::array();
    for (const CallerHit& h : c.hits)
        hits.push_back({{"path", h.path},
                        {"line", h.line},
                        {"text", h.text},
                        {"cut_bytes", h.cut_bytes},
                        {"group", caller_group_name(h.group)}});
    ordered_json per_file = ordered_json::array();
    for (const FileCount& f : c.per_file)
        per_file.push_back({{"path", f.path}, {"count", f.count}});
    ordered_json groups = ordered_json::array();
    for (CallerGroup g : kAllCallerGroups) {
        const GroupCount& n = c.groups[static_cast<std::size_t>(g)];
        groups.push_back({{"group", caller_group_name(g)}, {"hits", n.hits}, {"files", n.files}});
    }
    return ordered_json{
        {"symbol", c.symbol}, {"language", c.language},     {"groups", std::move(groups)},
        {"total", c.total},   {"in_windows", c.in_windows}, {"files_searched", c.files_scanned},
        {"hits", hits},       {"per_file", per_file}};
}

// The arguments that lift a cut: {"only": ["3"]} plus the cap raised, if any.
ordered_json lift(std::size_t row, const char* cap = nullptr, std::size_t value = 0) {
    ordered_json j{{"only", ordered_json::array({std::to_string(row)})}};
    if (cap) j[cap] = value;
    return j;
}

ordered_json cut_by_max_lines(std::size_t row) {
    return ordered_json{{"by", "max_lines"}, {"lift", lift(row)}};
}

bool listed_in(const std::vector<std::size_t>& v, std::size_t i) {
    return std::find(v.begin(), v.end(), i) != v.end();
}

std::size_t owner_row(const SpecReport& spec, const Callers& c) {
    for (const AnchorResult& a : spec.anchors)
        if (a.anchor.symbol == c.symbol) return a.row;
    return 0;
}

// The cut markers of one spec (JsonCaps): windows and caller lists left out under max_lines
// lose their lines and hits; every cut names what lifts it.
void mark_cuts(ordered_json& s, const SpecReport& spec, const JsonCaps& caps,
               const PackCuts::Spec* cut, bool& any) {
    std::size_t longest = 0;
    auto& windows = s["windows"];
    for (std::size_t w = 0; w < spec.windows.size(); ++w) {
        auto& j = windows[w];
        const Window& win = spec.windows[w];
        std::size_t row = spec.anchors[win.anchors.front()].row;
        bool dropped = cut && listed_in(cut->windows, w);
        j["cut"] = dropped ? cut_by_max_lines(row) : ordered_json(nullptr);
        if (dropped) j["lines"] = ordered_json::array();
        if (win.omitted())
            j["omitted"]["lift"] =
                lift(row, "max_window_lines",
                     caps.max_window_lines + static_cast<std::size_t>(win.omitted()));
        any = any || dropped || win.omitted();
        if (!dropped)
            for (const WindowLine& l : win.lines)
                if (l.cut_bytes) longest = std::max(longest, caps.max_line_bytes + l.cut_bytes);
    }
    auto& callers = s["callers"];
    for (std::size_t c = 0; c < spec.callers.size(); ++c) {
        auto& j = callers[c];
        const Callers& list = spec.callers[c];
        std::size_t row = owner_row(spec, list);
        bool dropped = cut && listed_in(cut->callers, c);
        j["cut"] = dropped ? cut_by_max_lines(row) : ordered_json(nullptr);
        if (dropped) j["hits"] = ordered_json::array();
        j["more"] = list.total > list.hits.size()
                        ? ordered_json{{"count", list.total - list.hits.size()},
                                       {"lift", lift(row, "max_callers", list.total)}}
                        : ordered_json(nullptr);
        any = any || dropped || list.total > list.hits.size();
        if (!dropped)
            for (const CallerHit& h : list.hits)
                if (h.cut_bytes) longest = std::max(longest, caps.max_line_bytes + h.cut_bytes);
    }
    s["long_lines"] =
        longest ? ordered_json{{"by", "max_line_bytes"}, {"lift", {{"max_line_bytes", longest}}}}
                : ordered_json(nullptr);
    any = any || longest;
}

// The relocation keys, every one present on every anchor (null, false or empty without it).
void add_relocation(ordered_json& j, const std::optional<Relocation>& r) {
    const auto* moved = r ? r->moved() : nullptr;
    const auto* found = r ? r->found_at() : nullptr;
    const auto* several = r ? r->candidates() : nullptr;
    j["by"] = moved ? ordered_json("content") : ordered_json(nullptr);
    j["whitespace"] = r && r->whitespace;
    j["diff"] = moved ? ordered_json{{"to", location_json(moved->diff_to)},
                                     {"lines_deleted", moved->diff_lines_deleted}}
                      : ordered_json(nullptr);
    j["found_at"] = found ? location_json(found->at) : ordered_json(nullptr);
    ordered_json candidates = ordered_json::array();
    if (several)
        for (const Location& c : several->listed) candidates.push_back(location_json(c));
    j["candidates"] = std::move(candidates);
    j["candidates_total"] = several ? several->total : std::size_t{0};
}

double rounded(double score) {
    return std::round(score * 100) / 100;
}

// A TOUCHED anchor's line-level precision: `best` (the lines its base lines became, or the
// candidates when they are not settled) and `line_map`, one entry a base line.
void add_best(ordered_json& j, const AnchorResult& a) {
    if (!a.best || !a.to) {
        j["best"] = nullptr;
        j["line_map"] = nullptr;
        return;
    }
    const RangeAnswer& best = *a.best;
    const bool located = best.line > 0;
    ordered_json b{{"path", a.to->path},
                   {"line", located ? ordered_json(best.line) : ordered_json(nullptr)},
                   {"end_line", located ? ordered_json(best.end_line) : ordered_json(nullptr)},
                   {"score", rounded(best.score)},
                   {"tier", tier_name(best.tier)}};
    if (best.tier == LineTier::Ambiguous) {
        ordered_json list = ordered_json::array();
        for (const LineCandidate& c : best.candidates)
            list.push_back({{"path", a.to->path},
                            {"line", c.line},
                            {"end_line", c.last()},
                            {"score", rounded(c.score)}});
        b["candidates"] = std::move(list);
    }
    j["best"] = std::move(b);
    ordered_json lines = ordered_json::array();
    LineNo base = a.anchor.line;
    for (const LineAnswer& l : best.lines)
        lines.push_back({{"base", base++},
                         {"target", l.located() ? ordered_json(l.line) : ordered_json(nullptr)},
                         {"score", rounded(l.score)},
                         {"tier", tier_name(l.tier)}});
    j["line_map"] = std::move(lines);
}

// --history: the newest kMaxHistory commits, the working tree's entry after them, and what
// the cap left out.
void add_history(ordered_json& j, const std::optional<std::vector<HistoryEntry>>& history) {
    if (!history) {
        j["history"] = nullptr;
        j["history_more"] = nullptr;
        return;
    }
    ordered_json list = ordered_json::array();
    std::size_t commits = 0, listed = 0;
    for (const HistoryEntry& e : *history) {
        if (e.worktree()) {
            list.push_back(
                {{"commit", "worktree"}, {"author_time", nullptr}, {"subject", nullptr}});
            continue;
        }
        ++commits;
        if (listed == kMaxHistory) continue;
        ++listed;
        list.push_back(
            {{"commit", e.commit}, {"author_time", e.author_time}, {"subject", e.subject}});
    }
    j["history"] = std::move(list);
    j["history_more"] =
        commits > listed
            ? ordered_json{{"count", commits - listed}, {"by", "history_cap"}, {"cap", kMaxHistory}}
            : ordered_json(nullptr);
}

ordered_json anchor_json(const SpecReport& spec, std::size_t index,
                         std::optional<std::size_t> window_of) {
    const AnchorResult& a = spec.anchors[index];
    const Anchor& in = a.anchor;
    ordered_json j;
    j["row"] = a.row;
    j["kind"] = in.kind == AnchorKind::Edit ? "edit" : "read";
    j["label"] = anchor_label(in);
    j["path"] = in.path;
    j["line"] = in.line;
    j["end_line"] = in.last_line();
    j["symbol"] = or_null(in.symbol);
    j["status"] = status_name(a.status);
    j["renamed"] = a.renamed;
    j["to"] = location_json(a.to);
    j["symbol_found"] = or_null(a.symbol_found);
    j["lines_deleted"] = a.lines_deleted;
    j["reason"] = or_null(a.reason);
    j["exists_at_target"] = or_null(a.exists_at_target);
    j["binary"] = a.binary;
    j[in.kind == AnchorKind::Edit ? "change" : "why"] = in.note;
    // --prose: where the mention was written, and as what.
    j["mention"] = in.mention
                       ? ordered_json{{"field", in.mention->field}, {"text", in.mention->text}}
                       : ordered_json(nullptr);
    j["edited_since"] = or_null(a.edited_since);
    j["base_blob"] = or_null(a.base_blob);
    j["target_blob"] = or_null(a.target_blob);
    add_relocation(j, a.relocation);
    add_best(j, a);
    j["window"] = or_null(window_of);  // an index into the spec's windows
    if (spec.history) add_history(j, a.history);
    return j;
}

ordered_json counts_json(const Counts& c) {
    ordered_json j{{"anchors", c.total}};
    for (Status s : kAllStatuses) j[std::string(status_name(s))] = c.of(s);
    j["RENAMED"] = c.renamed;
    j["SYMBOL_MISSING"] = c.symbol_missing;
    j["drifted"] = c.drifted();
    return j;
}

ordered_json summary_json(const Summary& summary) {
    ordered_json by_spec = ordered_json::array(), by_prefix = ordered_json::array();
    for (const auto& [name, c] : summary.by_spec) {
        auto j = counts_json(c);
        j["spec"] = name;
        by_spec.push_back(std::move(j));
    }
    for (const auto& [name, c] : summary.by_prefix) {
        auto j = counts_json(c);
        j["prefix"] = name;
        by_prefix.push_back(std::move(j));
    }
    return ordered_json{{"all", counts_json(summary.all)},
                        {"by_spec", std::move(by_spec)},
                        {"by_prefix", std::move(by_prefix)}};
}

// One spec's part of the document.
ordered_json spec_json(const SpecReport& spec) {
    ordered_json s;
    s["id"] = spec.id.empty() ? ordered_json(nullptr) : ordered_json(spec.id);
    s["source"] = spec.source;
    s["base"] = spec.base.empty() ? ordered_json(nullptr) : ordered_json(spec.base);
    s["base_rev"] = spec.base_rev;
    s["target"] = spec.target.resolved() ? ordered_json(spec.target.name()) : ordered_json(nullptr);
    s["head"] = or_null(spec.head);
    s["target_rev"] =
        spec.target_rev.empty() ? ordered_json(nullptr) : ordered_json(spec.target_rev);
    s["since"] = spec.since.empty() ? ordered_json(nullptr) : ordered_json(spec.since);
    s["since_rev"] = spec.since_rev.empty() ? ordered_json(nullptr) : ordered_json(spec.since_rev);
    // Windows are listed once per spec; each anchor names the one that holds it.
    std::vector<std::optional<std::size_t>> window_of(spec.anchors.size());
    ordered_json windows = ordered_json::array();
    for (std::size_t w = 0; w < spec.windows.size(); ++w) {
        for (auto i : spec.windows[w].anchors) window_of[i] = w;
        windows.push_back(window_json(spec, spec.windows[w]));
    }
    ordered_json anchors = ordered_json::array();
    for (std::size_t i = 0; i < spec.anchors.size(); ++i)
        anchors.push_back(anchor_json(spec, i, window_of[i]));
    s["anchors"] = std::move(anchors);
    s["windows"] = std::move(windows);
    ordered_json callers = ordered_json::array();
    for (const Callers& c : spec.callers) callers.push_back(callers_json(c));
    s["callers"] = std::move(callers);
    s["warnings"] = spec.warnings;
    return s;
}

std::string compact(const ordered_json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

ordered_json report_to_json(const Report& report, const JsonCaps* caps) {
    ordered_json specs = ordered_json::array();
    bool any = false;
    for (std::size_t i = 0; i < report.specs.size(); ++i) {
        auto s = spec_json(report.specs[i]);
        if (caps) {
            const auto* cut =
                caps->cuts && i < caps->cuts->specs.size() ? &caps->cuts->specs[i] : nullptr;
            mark_cuts(s, report.specs[i], *caps, cut, any);
        }
        specs.push_back(std::move(s));
    }
    ordered_json out{{"format_version", kJsonFormatVersion}, {"exit_status", report.exit_status()}};
    if (caps) {
        out["caps"] = {{"max_lines", or_null(caps->max_lines)},
                       {"max_window_lines", caps->max_window_lines},
                       {"max_callers", caps->max_callers},
                       {"max_line_bytes", caps->max_line_bytes}};
        out["cut"] = any;
    }
    out["specs"] = std::move(specs);
    if (report.specs.size() > 1) out["summary"] = summary_json(summarize(report));
    return out;
}

void print_jsonl_spec(std::ostream& out, const SpecReport& spec) {
    ordered_json line{{"type", "spec"}, {"format_version", kJsonFormatVersion}};
    line.update(spec_json(spec));
    out << compact(line) << '\n' << std::flush;  // read while the batch runs
}

void print_jsonl_end(std::ostream& out, const Report& report) {
    ordered_json line{{"type", "end"},
                      {"format_version", kJsonFormatVersion},
                      {"exit_status", report.exit_status()},
                      {"summary", summary_json(summarize(report))}};
    out << compact(line) << '\n';
}

namespace {

// Appends `j` to `to` as nlohmann::json's dump with an indent of 2 prints it at nesting
// `depth`. Paths and symbols are bytes; invalid UTF-8 is replaced rather than aborting the
// print.
void append_pretty(std::string& to, const ordered_json& j, int depth) {
    const std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    const std::string_view rest(text);
    to.reserve(to.size() + text.size() + text.size() / 4);
    std::size_t from = 0;  // a newline is never inside a dumped string: it is escaped there
    for (std::size_t nl; (nl = rest.find('\n', from)) != std::string_view::npos; from = nl + 1) {
        to.append(rest.substr(from, nl + 1 - from));
        to.append(std::size_t(2 * depth), ' ');
    }
    to.append(rest.substr(from));
}

// A spec's text in the document, at nesting 2, with the separator after it.
std::string spec_text(const std::vector<SpecReport>& specs, std::size_t i) {
    std::string text("    ");
    append_pretty(text, spec_json(specs[i]), 2);
    text += i + 1 < specs.size() ? ",\n" : "\n";
    return text;
}

// The specs' texts, in order, made a round of specs at a time and written before the next
// round is made, so that no more than a round's texts are held: the round's first half on
// this thread, its second on a thread of its own.
void write_specs(std::ostream& out, const std::vector<SpecReport>& specs) {
    constexpr std::size_t kRound = 32;
    auto make = [&specs](std::size_t first, std::size_t last) {
        std::vector<std::string> texts;
        for (std::size_t i = first; i < last; ++i) texts.push_back(spec_text(specs, i));
        return texts;
    };
    for (std::size_t from = 0; from < specs.size(); from += kRound) {
        const std::size_t end = std::min(specs.size(), from + kRound);
        const std::size_t mid = from + (end - from + 1) / 2;
        std::future<std::vector<std::string>> second;
        if (mid < end) {
            try {
                second = std::async(std::launch::async, make, mid, end);
            } catch (const std::system_error&) {  // no thread to be had: made here, after
            }
        }
        for (const std::string& text : make(from, mid)) out << text;
        for (const std::string& text : second.valid() ? second.get() : make(mid, end)) out << text;
    }
}

}  // namespace

void print_json(std::ostream& out, const Report& report, const JsonCaps* caps) {
    if (caps) {  // the cuts are known once every spec is marked: the whole document at once
        out << report_to_json(report, caps)
                   .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
            << '\n';
        return;
    }
    // Spec by spec, so that a batch's document is never whole in memory; the same bytes as
    // report_to_json's dump.
    out << "{\n  \"format_version\": " << kJsonFormatVersion
        << ",\n  \"exit_status\": " << report.exit_status() << ",\n  \"specs\": ";
    if (report.specs.empty()) {
        out << "[]";
    } else {
        out << "[\n";
        write_specs(out, report.specs);
        out << "  ]";
    }
    if (report.specs.size() > 1) {
        std::string text(",\n  \"summary\": ");
        append_pretty(text, summary_json(summarize(report)), 1);
        out << text;
    }
    out << "\n}\n";
}

}  // namespace cp
