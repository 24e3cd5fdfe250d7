#include "context_pack/model/spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>

#include "context_pack/core/text.hpp"
#include "context_pack/model/json_text.hpp"

namespace cp {
namespace {

using nlohmann::json;

const char* type_name(const json& j) {
    return json_type_name(j);
}

// Lower case without '_' and '-': the form closest_key compares.
std::string folded(std::string_view key) {
    std::string out;
    for (unsigned char c : key)
        if (c != '_' && c != '-') out += char(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    return out;
}

// A key as a warning shows it: control bytes escaped, cut after 64 bytes.
std::string shown_key(std::string_view key) {
    constexpr std::size_t kMost = 64;
    if (key.size() <= kMost) return text::printable(key);
    std::size_t cut = kMost;
    while (cut > 0 && (static_cast<unsigned char>(key[cut]) & 0xc0) == 0x80) --cut;
    return text::printable(key.substr(0, cut)) + "...";
}

// The keys the parser reads at each place; any other is named in the spec's warnings.
// `was` and `repin` are what --repin writes into each entry; the tool reads `repin` (an
// anchor it could not carry), not `was`.
const SpecKeys kKeys = {
    {"id", "base", "target", "file_changes", "reads"},
    {"location", "change", "was", "repin"},
    {"location", "why", "was", "repin"},
    {"path", "line", "end_line", "symbol"},
};

// Reads one spec object; every error names the JSON path of the offending value.
class Reader {
  public:
    explicit Reader(std::string source) : source_(std::move(source)) {}

  private:
    // Names every key of `obj` not in `known`, with the known key it was most likely meant to
    // be. In an anchor entry (`note` given), `other_note` is the other list's note key, for a
    // note under the wrong name, and a location's key is taken for one put beside the location.
    void unknown_keys(const json& obj, const std::string& at,
                      const std::vector<std::string_view>& known, const char* other_note = nullptr,
                      const char* note = nullptr) const {
        for (const auto& item : obj.items()) {
            const std::string& key = item.key();
            if (std::find(known.begin(), known.end(), key) != known.end()) continue;
            std::string line =
                fmt::format("{}{}unknown key '{}'", at, at.empty() ? "" : ": ", shown_key(key));
            if (other_note && note && key == other_note)
                line += fmt::format("; did you mean '{}'? ('{}' is for {})", note, other_note,
                                    note == std::string_view("why") ? "file_changes" : "reads");
            else if (auto meant = closest_key(key, known))
                line += fmt::format("; did you mean '{}'?", *meant);
            else if (auto inner = note ? closest_key(key, kKeys.location) : std::nullopt)
                line += fmt::format("; did you mean 'location.{}'?", *inner);
            warnings_.push_back(std::move(line));
        }
    }

    struct Draft {
        std::string source;
        std::optional<std::string> id_holder;
        std::optional<std::string> base;
        std::optional<std::string> target;
        std::vector<Anchor> anchors;
    };

    Error fail(const std::string& path, std::string_view what) const {
        if (path.empty()) return Error{fmt::format("{}: the spec {}", source_, what)};
        return Error{fmt::format("{}: {} {}", source_, path, what)};
    }

    static std::string join(const std::string& parent, std::string_view key) {
        return parent.empty() ? std::string(key) : fmt::format("{}.{}", parent, key);
    }

    std::optional<Error> opt_string(const json& obj, const std::string& at, const char* key,
                                    std::optional<std::string>& out) const {
        auto it = obj.find(key);
        if (it == obj.end() || it->is_null()) return std::nullopt;
        if (!it->is_string())
            return fail(join(at, key), fmt::format("must be a string, not {}", type_name(*it)));
        out = it->get<std::string>();
        return std::nullopt;
    }

    std::optional<Error> opt_integer(const json& obj, const std::string& at, const char* key,
                                     std::optional<std::int64_t>& out) const {
        auto it = obj.find(key);
        if (it == obj.end() || it->is_null()) return std::nullopt;
        auto where = join(at, key);
        // A whole number past what an integer holds is read as a float: it is out of range,
        // not "not an integer" (as 5.0 is an integer, JSON Schema's and ours).
        if (it->is_number_float() && std::isfinite(it->get<double>()) &&
            std::trunc(it->get<double>()) == it->get<double>()) {
            const double v = it->get<double>();
            if (v >= 9.2e18) return fail(where, "is too large for a line number");
            if (v <= -9.2e18) return fail(where, "is too small for a line number");
            out = std::int64_t(v);
            return std::nullopt;
        }
        if (!it->is_number_integer())
            return fail(where, fmt::format("must be an integer, not {}", type_name(*it)));
        if (it->is_number_unsigned() &&
            it->get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
            return fail(where, "is too large for a line number");
        out = it->get<std::int64_t>();
        return std::nullopt;
    }

    std::optional<Error> location(const json& item, const std::string& at, Anchor& a) const {
        auto it = item.find("location");
        auto where = join(at, "location");
        if (it == item.end() || it->is_null()) {
            // {"path": ..., "line": ...} written flat: say where they belong.
            if (item.contains("path") || item.contains("line"))
                return fail(where,
                            "is missing; path, line, end_line and symbol go inside it: "
                            "{\"location\": {\"path\": \"a.c\", \"line\": 3}}");
            return fail(where, "is missing");
        }
        if (!it->is_object())
            return fail(where, fmt::format("must be an object, not {}", type_name(*it)));
        std::optional<std::string> path;
        if (auto e = opt_string(*it, where, "path", path)) return e;
        if (!path || path->empty()) return fail(join(where, "path"), "is missing or empty");
        a.path = *path;
        std::optional<std::int64_t> line;
        if (auto e = opt_integer(*it, where, "line", line)) return e;
        if (!line) return fail(join(where, "line"), "is missing");
        a.line = *line;
        if (auto e = opt_integer(*it, where, "end_line", a.end_line)) return e;
        if (auto e = opt_string(*it, where, "symbol", a.symbol)) return e;
        if (a.symbol) {
            if (auto problem = symbol_problem(*a.symbol))
                return fail(join(where, "symbol"), *problem);
        }
        unknown_keys(*it, where, kKeys.location);
        return std::nullopt;
    }

    std::optional<Error> list(const json& doc, const char* key, AnchorKind kind,
                              const char* note_key, Draft& spec) const {
        auto it = doc.find(key);
        if (it == doc.end() || it->is_null()) return std::nullopt;
        if (!it->is_array())
            return fail(key, fmt::format("must be an array, not {}", type_name(*it)));
        for (std::size_t i = 0; i < it->size(); ++i) {
            const json& item = (*it)[i];
            auto at = fmt::format("{}[{}]", key, i);
            if (!item.is_object())
                return fail(at, fmt::format("must be an object, not {}", type_name(item)));
            Anchor a;
            a.kind = kind;
            a.index = i;
            if (auto e = location(item, at, a)) return e;
            std::optional<std::string> note;
            if (auto e = opt_string(item, at, note_key, note)) return e;
            if (auto e = opt_string(item, at, "repin", a.kept)) return e;
            a.note = note.value_or("");
            const bool edit = kind == AnchorKind::Edit;
            unknown_keys(item, at, edit ? kKeys.edit : kKeys.read, edit ? "why" : "change",
                         note_key);
            spec.anchors.push_back(std::move(a));
        }
        return std::nullopt;
    }

    std::string source_;
    mutable std::vector<std::string> warnings_;

  public:
    Result<Spec> run(const json& doc) {
        Draft d;
        d.source = source_;
        if (!doc.is_object())
            return fail("", fmt::format("must be a JSON object, not {}", type_name(doc)));
        if (auto e = opt_string(doc, "", "id", d.id_holder)) return *e;
        if (auto e = opt_string(doc, "", "base", d.base)) return *e;
        if (auto e = opt_string(doc, "", "target", d.target)) return *e;
        if (auto e = list(doc, "file_changes", AnchorKind::Edit, "change", d)) return *e;
        if (auto e = list(doc, "reads", AnchorKind::Read, "why", d)) return *e;
        // The top level's keys first, then each anchor's as they come.
        std::vector<std::string> later = std::move(warnings_);
        warnings_.clear();
        unknown_keys(doc, "", kKeys.top);
        warnings_.insert(warnings_.end(), std::make_move_iterator(later.begin()),
                         std::make_move_iterator(later.end()));
        return Spec{d.source,
                    d.id_holder.value_or(""),
                    d.base,
                    d.target,
                    std::move(d.anchors),
                    std::move(warnings_),
                    {},
                    {}};
    }
};

bool all_digits(std::string_view s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

std::optional<std::int64_t> to_line(std::string_view s) {
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

}  // namespace

const SpecKeys& spec_keys() {
    return kKeys;
}

Result<Spec> parse_spec(std::string_view json_text, const std::string& source) {
    auto doc = parse_json_unique_keys(json_text);
    if (!doc) return Error{fmt::format("{}: invalid JSON: {}", source, doc.error().message)};
    auto spec = Reader(source).run(doc.value());
    if (spec) spec->json = std::string(json_text);
    return spec;
}

Result<std::vector<Spec>> parse_specs(std::string_view text, const std::string& source,
                                      bool jsonl) {
    std::vector<Spec> specs;
    if (!jsonl) {
        auto spec = parse_spec(text, source);
        if (!spec) return spec.error();
        specs.push_back(std::move(spec).value());
        return specs;
    }
    std::size_t line_no = 0;
    while (!text.empty()) {
        ++line_no;
        auto nl = text.find('\n');
        auto line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
        auto spec = parse_spec(line, fmt::format("{}:{}", source, line_no));
        if (!spec) return spec.error();
        specs.push_back(std::move(spec).value());
    }
    return specs;
}

Result<Unit> check_specs(const std::vector<Spec>& specs, bool base_given,
                         std::string_view base_hint) {
    for (const auto& s : specs) {
        if (!s.base && !base_given)
            return Error{
                fmt::format("{}: the spec has no base; add \"base\": \"<commit>\" to it or {}",
                            s.source, base_hint)};
    }
    if (std::all_of(specs.begin(), specs.end(), [](const Spec& s) { return s.anchors.empty(); })) {
        // A key the parser passed over is likely where the anchors were written ("anchors").
        std::string passed;
        for (const Spec& s : specs)
            if (!s.warnings.empty() && passed.empty())
                passed = fmt::format(" ({}: {}{})", text::printable(s.source), s.warnings.front(),
                                     s.warnings.size() > 1 ? ", ..." : "");
        return Error{fmt::format(
            "nothing to resolve: the specs hold no anchors; add file_changes or reads{}", passed)};
    }
    return Unit{};
}

namespace {

template <class Json>
const char* type_of(const Json& j) {
    if (j.is_number_integer()) return "an integer";
    if (j.is_number_float()) return "a non-integer number";
    if (j.is_string()) return "a string";
    if (j.is_boolean()) return "a boolean";
    if (j.is_array()) return "an array";
    if (j.is_object()) return "an object";
    return "null";
}

}  // namespace

const char* json_type_name(const nlohmann::json& j) {
    return type_of(j);
}
const char* json_type_name(const nlohmann::ordered_json& j) {
    return type_of(j);
}

std::optional<std::string> symbol_problem(std::string_view symbol) {
    if (symbol.empty()) return "must not be empty";
    if (symbol.size() > 128)
        return fmt::format("is {} bytes long; a symbol is at most 128 bytes", symbol.size());
    for (unsigned char c : symbol) {
        if (c <= 0x20 || c == 0x7f) return "must not contain whitespace or control characters";
    }
    return std::nullopt;
}

namespace {

// "40" or "40-52": a line, or a first and a last line, in digits.
bool line_range(std::string_view range) {
    const auto dash = range.find('-');
    return all_digits(range.substr(0, dash)) &&
           (dash == std::string_view::npos || all_digits(range.substr(dash + 1)));
}

}  // namespace

Result<Anchor> parse_anchor_arg(std::string_view arg) {
    auto usage = [&](std::string_view why) {
        return Error{
            fmt::format("'{}': {}; write PATH:LINE[-END][@SYMBOL], e.g. "
                        "src/main.c:40-52@parse_args",
                        text::printable(arg), why)};
    };
    // The first ':' whose tail reads LINE[-END][@SYMBOL] splits path from range, so paths
    // may hold ':' and '@', and symbols may hold anything but whitespace.
    for (auto colon = arg.find(':'); colon != std::string_view::npos;
         colon = arg.find(':', colon + 1)) {
        auto tail = arg.substr(colon + 1);
        auto at = tail.find('@');
        auto range = tail.substr(0, at);
        if (!line_range(range)) continue;
        if (colon == 0) return usage("the path is empty");
        auto dash = range.find('-');
        auto first = range.substr(0, dash);
        auto last = dash == std::string_view::npos ? std::string_view{} : range.substr(dash + 1);
        Anchor a;
        a.kind = AnchorKind::Read;
        a.ad_hoc = true;
        a.path = std::string(arg.substr(0, colon));
        auto line = to_line(first);
        if (!line) return usage("the line number is too large");
        a.line = *line;
        if (dash != std::string_view::npos) {
            auto end = to_line(last);
            if (!end) return usage("the end line number is too large");
            a.end_line = *end;
        }
        if (at != std::string_view::npos) {
            auto symbol = tail.substr(at + 1);
            if (auto problem = symbol_problem(symbol))
                return usage(fmt::format("the symbol {}", *problem));
            a.symbol = std::string(symbol);
        }
        return a;
    }
    // "src/a.c:40-52:parse": lines, then a symbol after ':' where '@' is meant.
    for (auto colon = arg.find(':'); colon != std::string_view::npos;
         colon = arg.find(':', colon + 1)) {
        const auto tail = arg.substr(colon + 1);
        const auto sep = tail.find(':');
        if (colon == 0 || sep == std::string_view::npos || sep + 1 == tail.size()) continue;
        const auto range = tail.substr(0, sep);
        if (!line_range(range)) continue;
        const std::string meant =
            fmt::format("{}:{}@{}", arg.substr(0, colon), range, tail.substr(sep + 1));
        return usage(
            fmt::format("a symbol follows @, not ':' (did you mean {}?)", text::printable(meant)));
    }
    return usage("no :LINE after the path");
}

std::optional<std::string> closest_key(std::string_view key,
                                       const std::vector<std::string_view>& known) {
    const std::string typed = folded(key);
    std::optional<std::string> best;
    std::size_t best_distance = 0;
    for (std::string_view k : known) {
        const std::size_t limit = k.size() <= 2 ? 0 : k.size() <= 5 ? 1 : 2;
        const std::size_t d = text::edit_distance(typed, folded(k), limit);
        if (d > limit || (best && d >= best_distance)) continue;
        best = std::string(k);
        best_distance = d;
    }
    return best;
}

std::vector<std::string> warning_lines(const std::vector<Spec>& specs, std::string_view all_in,
                                       std::optional<std::string_view> failing) {
    std::vector<std::string> lines;
    std::size_t total = 0;
    for (const Spec& spec : specs)
        for (const std::string& w : spec.warnings)
            if (++total <= kMaxWarningLines)
                lines.push_back(fmt::format("{}: {}", text::printable(spec.source), w));
    if (total > kMaxWarningLines)
        lines.push_back(fmt::format(
            "{} more unknown key{} not shown; {} lists every one in each spec's warnings",
            total - kMaxWarningLines, total - kMaxWarningLines == 1 ? "" : "s", all_in));
    if (total && failing)
        lines.push_back(fmt::format(
            "{}: {} unknown key{} in the plan, so the check fails (exit status 1); mend or "
            "remove {}",
            *failing, total, total == 1 ? "" : "s", total == 1 ? "it" : "them"));
    return lines;
}

std::string anchor_label(const Anchor& a) {
    switch (a.kind) {
        case AnchorKind::Edit:
            return fmt::format("file_changes[{}]", a.index);
        case AnchorKind::Read:
            return fmt::format("{}[{}]",
                               a.ad_hoc    ? "--anchor"
                               : a.mention ? "prose"
                                           : "reads",
                               a.index);
    }
    return {};
}

}  // namespace cp
