#include "context_pack/output/repin.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string_view>
#include <tuple>
#include <utility>

#include "context_pack/core/text.hpp"
#include "context_pack/model/json_text.hpp"
#include "context_pack/model/prose.hpp"

namespace cp {
namespace {

using Scanner = JsonTokens;

// A string as a JSON text, bytes that are not UTF-8 replaced with U+FFFD.
std::string json_string(const std::string& s) {
    return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Whether JSON can carry the string as it is.
bool valid_utf8(const std::string& s) {
    try {
        (void)nlohmann::json(s).dump();
        return true;
    } catch (const nlohmann::json::exception&) {
        return false;
    }
}

std::string range_text(const Location& at) {
    return at.end_line > at.line ? fmt::format("{}:{}-{}", at.path, at.line, at.end_line)
                                 : fmt::format("{}:{}", at.path, at.line);
}

// What the search by content found, for an anchor that stays: "; its text is at a.c:4-9, not
// taken for it", "; its text is in 3 places: a.c:4-9, b.c:1-6, ...".
std::string found_note(const AnchorResult& a) {
    if (!a.relocation) return {};
    const auto* found = a.relocation->found_at();
    const auto* c = a.relocation->candidates();
    if (const Location* one = found ? &found->at : c && c->total == 1 ? &c->listed[0] : nullptr)
        return fmt::format("; its text is at {}, not taken for it",
                           text::printable(range_text(*one)));
    if (c) {
        std::string listed;
        for (const Location& l : c->listed)
            listed += (listed.empty() ? "" : ", ") + text::printable(range_text(l));
        return fmt::format("; its text is in {} places: {}{}", c->total, listed,
                           c->total > c->listed.size() ? ", ..." : "");
    }
    return {};
}

RepinAnswer stays(std::string why) {
    return RepinAnswer{std::nullopt, std::move(why)};
}

}  // namespace

RepinAnswer repin_answer(const AnchorResult& a) {
    if (a.anchor.kept) return stays(*a.anchor.kept);  // as the revision that kept it said
    const std::string label = a.status_label();
    switch (a.status) {
        case Status::New:
            if (a.exists_at_target == true)
                return stays(fmt::format(
                    "NEW: {} is at the target now, and the plan creates it; revise the anchor "
                    "by hand",
                    text::printable(a.anchor.path)));
            return RepinAnswer{Location{a.anchor.path, a.anchor.line, a.anchor.last_line()}, {}};
        case Status::Gone:
        case Status::Unresolved:
            return stays(
                fmt::format("{}: {}{}", label, a.reason.value_or("not carried"), found_note(a)));
        case Status::Same:
        case Status::Moved:
        case Status::Touched:
            break;
    }
    if (!a.to || a.lines_deleted || a.to->end_line < a.to->line)
        return stays(
            fmt::format("{}: its lines were deleted at the target{}", label, found_note(a)));
    if (a.symbol_found == false)
        return stays(fmt::format("SYMBOL_MISSING: '{}' is not in {} at the target",
                                 text::printable(*a.anchor.symbol),
                                 text::printable(range_text(*a.to))));
    if (a.anchor.symbol && !a.symbol_found)
        return stays(fmt::format("{}: its symbol could not be checked at the target{}", label,
                                 a.reason ? ": " + *a.reason : std::string()));
    if (!valid_utf8(a.to->path))
        return stays(
            fmt::format("{}: its path at the target, {}, is not valid UTF-8, which a "
                        "JSON plan cannot hold",
                        label, text::printable(a.to->path)));
    return RepinAnswer{*a.to, {}};
}

namespace {

// JSON text written value by value, on one line or indented as nlohmann's dump(indent) does.
class Writer {
  public:
    explicit Writer(int indent) : indent_(indent) {}

    void begin(char bracket) {
        out_ += bracket;
        fresh_.push_back(true);
    }
    void end(char bracket) {
        const bool empty = fresh_.back();
        fresh_.pop_back();
        if (!empty) newline();
        out_ += bracket;
    }
    // Before each element of an array.
    void item() {
        if (!fresh_.back()) out_ += ',';
        fresh_.back() = false;
        newline();
    }
    void key(std::string_view raw) {
        item();
        out_ += raw;
        out_ += indent_ < 0 ? ":" : ": ";
    }
    void scalar(std::string_view raw) { out_ += raw; }
    std::string take() { return std::move(out_); }

  private:
    void newline() {
        if (indent_ < 0) return;
        out_ += '\n';
        out_.append(fresh_.size() * std::size_t(indent_), ' ');
    }

    int indent_;
    std::string out_;
    std::vector<bool> fresh_;  // per open bracket: nothing written in it yet
};

// What becomes of a string value's token: itself, or its text with mentions re-pinned.
using Strings = std::function<std::string(std::string_view token)>;

// Copies one value, every string and number byte for byte but the strings `strings` changes.
void copy(Scanner& in, Writer& out, const Strings* strings = nullptr) {
    const char c = in.peek();
    if (c == '{') {
        out.begin('{');
        in.object([&](std::string_view raw, const std::string&) {
            out.key(raw);
            copy(in, out, strings);
        });
        out.end('}');
    } else if (c == '[') {
        out.begin('[');
        in.array([&](std::size_t) {
            out.item();
            copy(in, out, strings);
        });
        out.end(']');
    } else if (c == '"' && strings) {
        out.scalar((*strings)(in.token()));
    } else {
        out.scalar(in.token());
    }
}

void skip(Scanner& in) {
    (void)in.value();
}

// "plan.r3" -> "plan.r4" (decimal, any length); nullopt for an id without .rN at its end.
std::optional<std::string> next_revision(const std::string& id) {
    std::size_t digits = id.size();
    while (digits > 0 && id[digits - 1] >= '0' && id[digits - 1] <= '9') --digits;
    if (digits == id.size() || digits < 2 || id.compare(digits - 2, 2, ".r") != 0)
        return std::nullopt;
    std::string next = id;
    std::size_t i = next.size();
    while (i > digits && next[i - 1] == '9') next[--i] = '0';
    if (i == digits)
        next.insert(digits, 1, '1');
    else
        ++next[i - 1];
    return next;
}

// A JSON string token's text, and for each of its bytes (and its end) where that byte's
// character is written in the token: escapes take several bytes of the token.
struct Decoded {
    std::string text;
    std::vector<std::size_t> at;
};

void append_utf8(std::string& out, std::uint32_t c) {
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xc0 | (c >> 6));
        out += char(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        out += char(0xe0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3f));
        out += char(0x80 | (c & 0x3f));
    } else {
        out += char(0xf0 | (c >> 18));
        out += char(0x80 | ((c >> 12) & 0x3f));
        out += char(0x80 | ((c >> 6) & 0x3f));
        out += char(0x80 | (c & 0x3f));
    }
}

// The token was parsed once (it is well formed, its surrogates paired).
Decoded decode(std::string_view token) {
    Decoded d;
    auto hex = [&](std::size_t i) {
        std::uint32_t v = 0;
        for (std::size_t k = i; k < i + 4 && k < token.size(); ++k) {
            const char c = token[k];
            v = v * 16 + std::uint32_t(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
        }
        return v;
    };
    std::size_t i = 1;
    while (i + 1 < token.size()) {
        const std::size_t start = i;
        const std::size_t before = d.text.size();
        if (token[i] != '\\') {
            d.text += token[i++];
        } else if (token[i + 1] != 'u') {
            const char e = token[i + 1];
            d.text += e == 'n'   ? '\n'
                      : e == 't' ? '\t'
                      : e == 'r' ? '\r'
                      : e == 'b' ? '\b'
                      : e == 'f' ? '\f'
                                 : e;
            i += 2;
        } else {
            std::uint32_t c = hex(i + 2);
            i += 6;
            if (c >= 0xd800 && c < 0xdc00 && i + 1 < token.size() && token[i] == '\\') {
                c = 0x10000 + ((c - 0xd800) << 10) + (hex(i + 2) - 0xdc00);
                i += 6;
            }
            append_utf8(d.text, c);
        }
        d.at.insert(d.at.end(), d.text.size() - before, start);
    }
    d.at.push_back(i);
    return d;
}

class Revision {
  public:
    Revision(const SpecReport& report, const nlohmann::json& doc, int indent)
        : report_(report), doc_(doc), out_(indent) {
        for (const AnchorResult& a : report.anchors) {
            if (!a.anchor.mention) {
                results_[{a.anchor.kind, a.anchor.index}] = &a;
                continue;
            }
            auto spans = find_mentions(a.anchor.mention->text);
            if (spans.size() == 1) prose_[{spans[0].path, spans[0].line, spans[0].end_line}] = &a;
        }
        if (!prose_.empty()) strings_ = [this](std::string_view token) { return prose(token); };
        was_base_ = report.base.empty() ? report.base_rev : report.base;
    }

    std::string run(Scanner& in) {
        const auto target = report_.target_commit();
        out_.begin('{');
        if (target && doc_.find("base") == doc_.end()) write("base", json_string(*target));
        in.object([&](std::string_view raw, const std::string& name) {
            out_.key(raw);
            if (name == "base" && target) {
                skip(in);
                out_.scalar(json_string(*target));
            } else if (name == "id" && in.peek() == '"') {
                const auto token = in.token();
                if (const auto next = next_revision(json_string_value(token)))
                    out_.scalar(json_string(*next));
                else
                    out_.scalar(token);
            } else if ((name == "file_changes" || name == "reads") && in.peek() == '[') {
                const AnchorKind kind =
                    name == "file_changes" ? AnchorKind::Edit : AnchorKind::Read;
                out_.begin('[');
                in.array([&](std::size_t i) {
                    out_.item();
                    entry(in, kind, name, i);
                });
                out_.end(']');
            } else {  // prose anywhere but in the revisions (add_prose_anchors)
                copy(in, out_, name == "target" ? nullptr : strings());
            }
        });
        out_.end('}');
        return out_.take();
    }

  private:
    void write(std::string_view key, std::string_view raw) {
        out_.key(json_string(std::string(key)));
        out_.scalar(raw);
    }

    void entry(Scanner& in, AnchorKind kind, const std::string& list, std::size_t i) {
        const auto found = results_.find({kind, i});
        if (found == results_.end() || in.peek() != '{') {  // the parser refuses such a spec
            copy(in, out_);
            return;
        }
        const AnchorResult& a = *found->second;
        const RepinAnswer answer = repin_answer(a);
        const nlohmann::json& location = doc_.at(list).at(i).at("location");
        const auto end = location.find("end_line");
        const bool has_end = end != location.end() && !end->is_null();
        out_.begin('{');
        in.object([&](std::string_view raw, const std::string& name) {
            // This revision writes its own, but for an anchor an earlier one kept: its `was`
            // names the base its location is at.
            if ((name == "was" || name == "repin") && !a.anchor.kept) {
                skip(in);
                return;
            }
            out_.key(raw);
            if (name == "location" && answer.to && in.peek() == '{')
                moved_location(in, *answer.to, has_end);
            else
                copy(in, out_, name == "location" ? nullptr : strings());
        });
        if (!a.anchor.kept) {
            out_.key("\"was\"");
            out_.begin('{');
            write("base", json_string(was_base_));
            write("path", json_string(a.anchor.path));
            write("line", std::to_string(a.anchor.line));
            write("end_line", std::to_string(a.anchor.last_line()));
            out_.end('}');
            if (!answer.carried()) write("repin", json_string(answer.why));
        }
        out_.end('}');
    }

    void moved_location(Scanner& in, const Location& to, bool has_end) {
        out_.begin('{');
        in.object([&](std::string_view raw, const std::string& name) {
            out_.key(raw);
            if (name == "path") {
                skip(in);
                out_.scalar(json_string(to.path));
            } else if (name == "line") {
                skip(in);
                out_.scalar(std::to_string(to.line));
                if (!has_end && to.end_line != to.line)
                    write("end_line", std::to_string(to.end_line));
            } else if (name == "end_line") {
                skip(in);
                out_.scalar(std::to_string(to.end_line));
            } else {
                copy(in, out_);
            }
        });
        out_.end('}');
    }

    // A string token with each mention of a carried prose anchor written where it is now: its
    // path as written unless the file was renamed, its new line or range.
    std::string prose(std::string_view token) {
        const Decoded decoded = decode(token);
        const std::string& text = decoded.text;
        std::string revised;   // the token's bytes, each carried mention written anew
        std::size_t done = 0;  // of the token
        bool escaped = false;  // a rewritten mention was written with escapes in it
        std::string plain;     // the same, as text: for a mention written with escapes
        std::size_t plain_done = 0;
        for (const MentionSpan& m : find_mentions(text)) {
            auto found = prose_.find({m.path, m.line, m.end_line});
            if (found == prose_.end()) continue;
            const AnchorResult& a = *found->second;
            const RepinAnswer answer = repin_answer(a);
            if (!answer.to || a.status == Status::New) continue;
            const std::string written = text.substr(m.at, m.size);
            const Location& to = *answer.to;
            const std::string path =
                to.path != a.anchor.path ? to.path : written.substr(0, written.find(':'));
            const std::string now = m.end_line || to.end_line != to.line
                                        ? fmt::format("{}:{}-{}", path, to.line, to.end_line)
                                        : fmt::format("{}:{}", path, to.line);
            const std::size_t from = decoded.at[m.at], until = decoded.at[m.at + m.size];
            escaped = escaped || until - from != m.size;
            const std::string quoted = json_string(now);
            revised += token.substr(done, from - done);
            revised += std::string_view(quoted).substr(1, quoted.size() - 2);
            done = until;
            plain += text.substr(plain_done, m.at - plain_done) + now;
            plain_done = m.at + m.size;
        }
        if (done == 0) return std::string(token);
        if (escaped) return json_string(plain + text.substr(plain_done));
        return revised + std::string(token.substr(done));
    }

    const Strings* strings() const { return strings_ ? &strings_ : nullptr; }

    const SpecReport& report_;
    const nlohmann::json& doc_;
    Writer out_;
    std::map<std::pair<AnchorKind, std::size_t>, const AnchorResult*> results_;
    std::map<std::tuple<std::string, std::int64_t, std::optional<std::int64_t>>,
             const AnchorResult*>
        prose_;  // the prose anchors, by their mention
    Strings strings_;
    std::string was_base_;
};

// A spec of --anchor flags as the plan it stands for: its anchors as reads, in order.
std::string ad_hoc_json(const Spec& spec) {
    nlohmann::ordered_json reads = nlohmann::ordered_json::array();
    for (const Anchor& a : spec.anchors) {
        nlohmann::ordered_json location = {{"path", a.path}, {"line", a.line}};
        if (a.end_line) location["end_line"] = *a.end_line;
        if (a.symbol) location["symbol"] = *a.symbol;
        reads.push_back({{"location", std::move(location)}});
    }
    return nlohmann::ordered_json{{"reads", std::move(reads)}}.dump(
        -1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace

std::string repinned_spec(const Spec& spec, const SpecReport& report, int indent) {
    const std::string text = spec.json.empty() ? ad_hoc_json(spec) : spec.json;
    auto doc = parse_json(text);
    if (!doc) return text;  // parsed before it was resolved; never so
    Scanner in(text);
    return Revision(report, doc.value(), indent).run(in);
}

std::size_t kept_count(const SpecReport& report) {
    std::size_t kept = 0;
    for (const AnchorResult& a : report.anchors) kept += !repin_answer(a).carried();
    return kept;
}

std::vector<std::string> kept_lines(const std::vector<SpecReport>& specs) {
    std::vector<std::string> lines;
    std::size_t total = 0;
    for (const SpecReport& spec : specs)
        for (const AnchorResult& a : spec.anchors) {
            const RepinAnswer answer = repin_answer(a);
            if (answer.carried() || ++total > kMaxWarningLines) continue;
            lines.push_back(fmt::format("{}: {} stays where it was: {}",
                                        text::printable(spec.source), anchor_label(a.anchor),
                                        text::printable(answer.why)));
        }
    if (total > kMaxWarningLines)
        lines.push_back(
            fmt::format("{} more anchors stay where they were; each has its reason "
                        "in its entry's \"repin\"",
                        total - kMaxWarningLines));
    return lines;
}

}  // namespace cp
