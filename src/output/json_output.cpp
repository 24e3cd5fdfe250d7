#include "context_pack/output/json_output.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <string>
#include <system_error>
#include <vector>

#include "context_pack/model/summary.hpp"
#include "context_pack/output/json_writer.hpp"

namespace cp {
namespace {

using nlohmann::ordered_json;

constexpr std::size_t kMaxHistory = 20;  // commits listed per anchor's history

// The schema, once, over a writer: JsonText prints it, JsonDocument builds it
// (json_writer.hpp). put() writes a value, field() a member.
template <class W>
void put(W& w, std::nullptr_t);
template <class W, class T>
void put(W& w, const T& v);
template <class W, class T>
void put(W& w, const std::optional<T>& v);
template <class W>
void put(W& w, const Location& l);
template <class W>
void put(W& w, const std::vector<std::string>& list);
template <class W, class T>
void field(W& w, std::string_view name, const T& v);

template <class W>
void put(W& w, std::nullptr_t) {
    w.null();
}
template <class W, class T>
void put(W& w, const T& v) {
    w.value(v);
}
template <class W, class T>
void put(W& w, const std::optional<T>& v) {
    if (v)
        put(w, *v);
    else
        w.null();
}
template <class W, class T>
void field(W& w, std::string_view name, const T& v) {
    w.key(name);
    put(w, v);
}
// A member whose value is an object when `present`, else null: `members` writes what is in it.
template <class W, class Members>
void object_or_null(W& w, std::string_view name, bool present, Members members) {
    w.key(name);
    if (!present) return w.null();
    w.begin_object();
    members();
    w.end_object();
}

// A member whose value is an array of objects, one an item: `members(item)` writes what is in
// each.
template <class W, class Items, class Members>
void objects(W& w, std::string_view name, const Items& items, Members members) {
    w.key(name);
    w.begin_array();
    for (const auto& item : items) {
        w.begin_object();
        members(item);
        w.end_object();
    }
    w.end_array();
}

// A string that is null when empty.
std::optional<std::string_view> unless_empty(const std::string& s) {
    return s.empty() ? std::nullopt : std::optional<std::string_view>(s);
}

template <class W>
void put(W& w, const Location& l) {
    w.begin_object();
    field(w, "path", l.path);
    field(w, "line", l.line);
    field(w, "end_line", l.end_line);
    w.end_object();
}

template <class W>
void put(W& w, const std::vector<std::string>& list) {
    w.begin_array();
    for (const std::string& s : list) w.value(s);
    w.end_array();
}

template <class W>
void write_window(W& w, const SpecReport& spec, const Window& win) {
    w.begin_object();
    field(w, "path", win.path);
    field(w, "line", win.first);
    field(w, "end_line", win.lines.empty() ? win.last : win.lines.back().number);
    w.key("rows");
    w.begin_array();
    for (auto i : win.anchors) w.value(spec.anchors[i].row);
    w.end_array();
    objects(w, "lines", win.lines, [&](const WindowLine& l) {
        field(w, "line", l.number);
        field(w, "text", l.text);
        field(w, "anchored", l.anchored);
        field(w, "best", l.best);
        field(w, "cut_bytes", l.cut_bytes);
    });
    object_or_null(w, "omitted", win.omitted() != 0, [&] {
        field(w, "line", win.omitted_from);
        field(w, "end_line", win.omitted_to);
        field(w, "count", win.omitted());
    });
    object_or_null(w, "definition", win.definition.has_value(), [&] {
        field(w, "line", win.definition->line);
        field(w, "text", win.definition->text);
    });
    field(w, "unavailable", win.unavailable);
    w.end_object();
}

template <class W>
void write_callers(W& w, const Callers& c) {
    w.begin_object();
    field(w, "symbol", c.symbol);
    field(w, "language", c.language);
    objects(w, "groups", kAllCallerGroups, [&](CallerGroup g) {
        const GroupCount& n = c.groups[static_cast<std::size_t>(g)];
        field(w, "group", caller_group_name(g));
        field(w, "hits", n.hits);
        field(w, "files", n.files);
    });
    field(w, "total", c.total);
    field(w, "in_windows", c.in_windows);
    field(w, "files_searched", c.files_scanned);
    objects(w, "hits", c.hits, [&](const CallerHit& h) {
        field(w, "path", h.path);
        field(w, "line", h.line);
        field(w, "text", h.text);
        field(w, "cut_bytes", h.cut_bytes);
        field(w, "group", caller_group_name(h.group));
        field(w, "role", caller_role_name(h.role));
    });
    objects(w, "per_file", c.per_file, [&](const FileCount& f) {
        field(w, "path", f.path);
        field(w, "count", f.count);
    });
    w.end_object();
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
    if (caps.compact)
        for (auto& anchor : s["anchors"]) anchor["line_map"] = nullptr;
    auto& callers = s["callers"];
    for (std::size_t c = 0; c < spec.callers.size(); ++c) {
        auto& j = callers[c];
        const Callers& list = spec.callers[c];
        if (caps.compact) {
            auto& files = j["per_file"];
            const std::size_t more = files.size() - std::min(files.size(), kFilesCounted);
            if (more) files.erase(files.end() - std::ptrdiff_t(more), files.end());
            j["per_file_more"] = more;
        }
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
    if (!caps.max_tokens) return;
    // The budget's cuts: the code, then rows.
    auto rows = [&](std::size_t first, std::size_t last) {
        return ordered_json{{"only", ordered_json::array({rows_of(spec, first, last)})}};
    };
    const bool code = caps.code_cut && !spec.anchors.empty();
    s["code_cut"] = code
                        ? ordered_json{{"by", "max_tokens"}, {"lift", rows(0, code_rows(spec) - 1)}}
                        : ordered_json(nullptr);
    if (code) {
        s["windows"] = ordered_json::array();
        s["callers"] = ordered_json::array();
        for (auto& anchor : s["anchors"]) anchor["window"] = nullptr;
    }
    const std::size_t shown = std::min(caps.max_rows, spec.anchors.size());
    const std::size_t more = spec.anchors.size() - shown;
    s["rows_more"] = more ? ordered_json{{"count", more},
                                         {"by", "max_tokens"},
                                         {"lift", rows(shown, spec.anchors.size() - 1)}}
                          : ordered_json(nullptr);
    if (more) s["anchors"].erase(s["anchors"].begin() + std::ptrdiff_t(shown), s["anchors"].end());
    any = any || code || more;
}

double rounded(double score) {
    return std::round(score * 100) / 100;
}

// The relocation keys, every one present on every anchor (null, false or empty without it).
template <class W>
void write_relocation(W& w, const std::optional<Relocation>& r) {
    const auto* moved = r ? r->moved() : nullptr;
    const auto* found = r ? r->found_at() : nullptr;
    const auto* several = r ? r->candidates() : nullptr;
    field(w, "by",
          moved ? std::optional<std::string_view>(moved->margins ? "margins" : "content")
                : std::nullopt);
    field(w, "whitespace", r && r->whitespace);
    field(w, "similarity",
          r && r->similarity ? std::optional<double>(rounded(*r->similarity)) : std::nullopt);
    object_or_null(w, "diff", moved != nullptr, [&] {
        field(w, "to", moved->diff_to);
        field(w, "lines_deleted", moved->diff_lines_deleted);
    });
    field(w, "found_at", found ? std::optional<Location>(found->at) : std::nullopt);
    w.key("candidates");
    w.begin_array();
    if (several)
        for (const Location& c : several->listed) put(w, c);
    w.end_array();
    field(w, "candidates_total", several ? several->total : std::size_t{0});
}

// A line number, or null where the line is not located.
std::optional<LineNo> located(bool is, LineNo line) {
    return is ? std::optional<LineNo>(line) : std::nullopt;
}

// A TOUCHED anchor's line-level precision: `best` (the lines its base lines became, or the
// candidates when they are not settled) and `line_map`, one entry a base line.
template <class W>
void write_best(W& w, const AnchorResult& a) {
    if (!a.best || !a.to) {
        field(w, "best", nullptr);
        field(w, "line_map", nullptr);
        return;
    }
    const RangeAnswer& best = *a.best;
    const bool is = best.line > 0;
    w.key("best");
    w.begin_object();
    field(w, "path", a.to->path);
    field(w, "line", located(is, best.line));
    field(w, "end_line", located(is, best.end_line));
    field(w, "score", rounded(best.score));
    field(w, "tier", tier_name(best.tier));
    if (best.tier == LineTier::Ambiguous)
        objects(w, "candidates", best.candidates, [&](const LineCandidate& c) {
            field(w, "path", a.to->path);
            field(w, "line", c.line);
            field(w, "end_line", c.last());
            field(w, "score", rounded(c.score));
        });
    w.end_object();
    LineNo base = a.anchor.line;
    objects(w, "line_map", best.lines, [&](const LineAnswer& l) {
        field(w, "base", base++);
        field(w, "target", located(l.located(), l.line));
        field(w, "score", rounded(l.score));
        field(w, "tier", tier_name(l.tier));
    });
}

// --history: the newest kMaxHistory commits, the working tree's entry after them, and what
// the cap left out.
template <class W>
void write_history(W& w, const std::optional<std::vector<HistoryEntry>>& history) {
    if (!history) {
        field(w, "history", nullptr);
        field(w, "history_more", nullptr);
        return;
    }
    std::size_t commits = 0, listed = 0;
    w.key("history");
    w.begin_array();
    for (const HistoryEntry& e : *history) {
        if (e.worktree()) {
            w.begin_object();
            field(w, "commit", "worktree");
            field(w, "author_time", nullptr);
            field(w, "subject", nullptr);
            w.end_object();
            continue;
        }
        ++commits;
        if (listed == kMaxHistory) continue;
        ++listed;
        w.begin_object();
        field(w, "commit", e.commit);
        field(w, "author_time", e.author_time);
        field(w, "subject", e.subject);
        w.end_object();
    }
    w.end_array();
    object_or_null(w, "history_more", commits > listed, [&] {
        field(w, "count", commits - listed);
        field(w, "by", "history_cap");
        field(w, "cap", kMaxHistory);
    });
}

template <class W>
void write_anchor(W& w, const SpecReport& spec, std::size_t index,
                  std::optional<std::size_t> window_of) {
    const AnchorResult& a = spec.anchors[index];
    const Anchor& in = a.anchor;
    w.begin_object();
    field(w, "row", a.row);
    field(w, "kind", in.kind == AnchorKind::Edit ? "edit" : "read");
    field(w, "label", anchor_label(in));
    field(w, "path", in.path);
    field(w, "line", in.line);
    field(w, "end_line", in.last_line());
    field(w, "symbol", in.symbol);
    field(w, "status", status_name(a.status));
    field(w, "renamed", a.renamed);
    // The renames its file was followed through, oldest first (commit null: the working
    // tree's).
    w.key("followed");
    w.begin_array();
    for (const FollowedRename& f : a.followed) {
        w.begin_object();
        field(w, "from", f.from);
        field(w, "to", f.to);
        field(w, "commit",
              f.commit.empty() ? std::nullopt : std::optional<std::string_view>(f.commit));
        w.end_object();
    }
    w.end_array();
    field(w, "to", a.to);
    field(w, "symbol_found", a.symbol_found);
    field(w, "lines_deleted", a.lines_deleted);
    field(w, "reason", a.reason);
    field(w, "exists_at_target", a.exists_at_target);
    field(w, "binary", a.binary);
    field(w, in.kind == AnchorKind::Edit ? "change" : "why", in.note);
    // --prose: where the mention was written, and as what.
    object_or_null(w, "mention", in.mention.has_value(), [&] {
        field(w, "field", in.mention->field);
        field(w, "text", in.mention->text);
    });
    field(w, "edited_since", a.edited_since);
    field(w, "base_blob", a.base_blob);
    field(w, "target_blob", a.target_blob);
    write_relocation(w, a.relocation);
    write_best(w, a);
    field(w, "window", window_of);  // an index into the spec's windows
    if (spec.history) write_history(w, a.history);
    w.end_object();
}

template <class W>
void write_counts_fields(W& w, const Counts& c) {
    field(w, "anchors", c.total);
    for (Status s : kAllStatuses) field(w, status_name(s), c.of(s));
    field(w, "RENAMED", c.renamed);
    field(w, "SYMBOL_MISSING", c.symbol_missing);
    field(w, "drifted", c.drifted());
}

template <class W>
void write_summary(W& w, const Summary& summary) {
    auto counts_list = [&w](std::string_view key, std::string_view name_key, const auto& list) {
        objects(w, key, list, [&](const auto& named) {
            write_counts_fields(w, named.second);
            field(w, name_key, named.first);
        });
    };
    w.begin_object();
    w.key("all");
    w.begin_object();
    write_counts_fields(w, summary.all);
    w.end_object();
    counts_list("by_spec", "spec", summary.by_spec);
    counts_list("by_prefix", "prefix", summary.by_prefix);
    w.end_object();
}

// One spec's part of the document: its members, for the document's object of it or a JSON
// line's.
template <class W>
void write_spec_fields(W& w, const SpecReport& spec) {
    field(w, "id", unless_empty(spec.id));
    field(w, "source", spec.source);
    field(w, "base", unless_empty(spec.base));
    field(w, "base_rev", spec.base_rev);
    field(w, "target",
          spec.target.resolved() ? std::optional<std::string>(spec.target.name()) : std::nullopt);
    field(w, "head", spec.head);
    field(w, "target_rev", unless_empty(spec.target_rev));
    field(w, "since", unless_empty(spec.since));
    field(w, "since_rev", unless_empty(spec.since_rev));
    // Windows are listed once per spec; each anchor names the one that holds it.
    std::vector<std::optional<std::size_t>> window_of(spec.anchors.size());
    for (std::size_t i = 0; i < spec.windows.size(); ++i)
        for (auto a : spec.windows[i].anchors) window_of[a] = i;
    w.key("anchors");
    w.begin_array();
    for (std::size_t i = 0; i < spec.anchors.size(); ++i) write_anchor(w, spec, i, window_of[i]);
    w.end_array();
    w.key("windows");
    w.begin_array();
    for (const Window& win : spec.windows) write_window(w, spec, win);
    w.end_array();
    w.key("callers");
    w.begin_array();
    for (const Callers& c : spec.callers) write_callers(w, c);
    w.end_array();
    field(w, "warnings", spec.warnings);
}

template <class W>
void write_spec(W& w, const SpecReport& spec) {
    w.begin_object();
    write_spec_fields(w, spec);
    w.end_object();
}

ordered_json spec_json(const SpecReport& spec) {
    JsonDocument d;
    write_spec(d, spec);
    return d.take();
}

ordered_json summary_json(const Summary& summary) {
    JsonDocument d;
    write_summary(d, summary);
    return d.take();
}

std::string compact(const ordered_json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

JsonCaps JsonCaps::of(const TextOptions& text) {
    JsonCaps caps;
    caps.max_window_lines = text.max_window_lines;
    caps.max_callers = text.max_callers;
    caps.max_line_bytes = text.max_line_bytes;
    return caps;
}

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
        out["caps"] = {{"max_lines", caps->max_lines ? ordered_json(*caps->max_lines) : nullptr},
                       {"max_window_lines", caps->max_window_lines},
                       {"max_callers", caps->max_callers},
                       {"max_line_bytes", caps->max_line_bytes}};
        out["cut"] = any;
        if (caps->compact) out["compact"] = true;
        if (caps->max_tokens) out["max_tokens"] = *caps->max_tokens;
    }
    out["specs"] = std::move(specs);
    if (report.specs.size() > 1) out["summary"] = summary_json(summarize(report));
    return out;
}

void print_jsonl_spec(std::ostream& out, const SpecReport& spec) {
    std::string line;
    JsonText w(line);
    w.begin_object();
    field(w, "type", "spec");
    field(w, "format_version", kJsonFormatVersion);
    write_spec_fields(w, spec);
    w.end_object();
    out << line << '\n' << std::flush;  // read while the batch runs
}

void print_jsonl_end(std::ostream& out, const Report& report) {
    ordered_json line{{"type", "end"},
                      {"format_version", kJsonFormatVersion},
                      {"exit_status", report.exit_status()},
                      {"summary", summary_json(summarize(report))}};
    out << compact(line) << '\n';
}

namespace {

// A spec's text in the document, at nesting 2, with the separator after it.
std::string spec_text(const std::vector<SpecReport>& specs, std::size_t i) {
    std::string text("    ");
    JsonText w(text, 2, 2);
    write_spec(w, specs[i]);
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
        JsonText w(text, 2, 1);
        write_summary(w, summarize(report));
        out << text;
    }
    out << "\n}\n";
}

}  // namespace cp
