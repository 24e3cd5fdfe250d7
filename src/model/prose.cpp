#include "context_pack/model/prose.hpp"

#include <fmt/format.h>

#include <charconv>
#include <set>
#include <tuple>

#include "context_pack/model/json_text.hpp"

namespace cp {
namespace {

bool path_byte(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '/' || c == '+' || c == '-';
}

bool digit(char c) {
    return c >= '0' && c <= '9';
}

bool word_byte(char c) {
    return digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// A file's look: a '/' in it, or an extension with a letter ("c", "md", "tar.gz"'s "gz").
bool looks_like_file(std::string_view path) {
    if (path.empty() || path.back() == '/') return false;
    if (path.find('/') != std::string_view::npos) return true;
    const auto dot = path.rfind('.');
    if (dot == std::string_view::npos || dot + 1 == path.size()) return false;
    for (char c : path.substr(dot + 1))
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
    return false;
}

// Digits at `at`: their value and where they end; nullopt for none or more than 18.
std::optional<std::pair<std::int64_t, std::size_t>> number_at(std::string_view text,
                                                              std::size_t at) {
    std::size_t end = at;
    while (end < text.size() && digit(text[end])) ++end;
    if (end == at || end - at > 18) return std::nullopt;
    std::int64_t v = 0;
    std::from_chars(text.data() + at, text.data() + end, v);
    return std::pair{v, end};
}

}  // namespace

std::vector<MentionSpan> find_mentions(std::string_view text) {
    std::vector<MentionSpan> out;
    for (std::size_t colon = text.find(':'); colon != std::string_view::npos;
         colon = text.find(':', colon + 1)) {
        std::size_t start = colon;
        while (start > 0 && path_byte(text[start - 1])) --start;
        if (start == colon) continue;
        if (start > 0 &&
            (text[start - 1] == ':' || static_cast<unsigned char>(text[start - 1]) >= 0x80))
            continue;  // a URL's "host:port", or a word in another script
        std::string_view path = text.substr(start, colon - start);
        if (path.front() == '/' || path.front() == '-') continue;
        if (path.starts_with("./")) path.remove_prefix(2);
        if (!looks_like_file(path)) continue;
        auto line = number_at(text, colon + 1);
        if (!line) continue;
        std::size_t end = line->second;
        std::optional<std::int64_t> end_line;
        if (end + 1 < text.size() && text[end] == '-' && digit(text[end + 1])) {
            auto last = number_at(text, end + 1);
            if (!last) continue;
            end_line = last->first;
            end = last->second;
        }
        if (end < text.size() && word_byte(text[end])) continue;  // "a.c:10abc"
        out.push_back(MentionSpan{start, end - start, std::string(path), line->first, end_line});
    }
    return out;
}

namespace {

// A key as a field's path shows it: cut after 64 bytes, so that a long key costs each of its
// mentions no more than that.
std::string field_key(const std::string& key) {
    constexpr std::size_t kMost = 64;
    if (key.size() <= kMost) return key;
    std::size_t cut = kMost;
    while (cut > 0 && (static_cast<unsigned char>(key[cut]) & 0xc0) == 0x80) --cut;
    return key.substr(0, cut) + "...";
}

// Walks a spec's JSON text and collects the mentions in its strings, with their JSON paths.
class Collector {
  public:
    explicit Collector(Spec& spec) : spec_(spec) {
        for (const Anchor& a : spec.anchors)
            if (a.mention) ++next_;
        first_ = next_;
    }

    std::size_t over() const { return over_; }

    void run() {
        JsonTokens in(spec_.json);
        if (in.peek() != '{') return;
        in.object([&](std::string_view, const std::string& key) {
            if (key == "id" || key == "base" || key == "target")
                (void)in.value();
            else if ((key == "file_changes" || key == "reads") && in.peek() == '[')
                entries(in, key);
            else
                value(in, field_key(key));
        });
    }

  private:
    void entries(JsonTokens& in, const std::string& list) {
        in.array([&](std::size_t i) {
            const std::string at = fmt::format("{}[{}]", list, i);
            if (in.peek() != '{') return value(in, at);
            in.object([&](std::string_view, const std::string& key) {
                if (key == "location" || key == "was" || key == "repin")
                    (void)in.value();
                else
                    value(in, at + "." + field_key(key));
            });
        });
    }

    // Any value: its strings searched, its nested values each under its own path.
    void value(JsonTokens& in, const std::string& at) {
        const char c = in.peek();
        if (c == '{')
            in.object([&](std::string_view, const std::string& key) {
                value(in, at + "." + field_key(key));
            });
        else if (c == '[')
            in.array([&](std::size_t i) { value(in, fmt::format("{}[{}]", at, i)); });
        else if (c == '"')
            search(json_string_value(in.token()), at);
        else
            (void)in.token();
    }

    void search(const std::string& text, const std::string& at) {
        for (MentionSpan& m : find_mentions(text)) {
            if (!seen_.emplace(m.path, m.line, m.end_line).second) continue;
            if (next_ - first_ >= kMaxProseMentions) {
                ++over_;
                continue;
            }
            Anchor a;
            a.kind = AnchorKind::Read;
            a.index = next_++;
            a.path = m.path;
            a.line = m.line;
            a.end_line = m.end_line;
            a.note = fmt::format("mentioned in {}", at);
            a.mention = Mention{at, text.substr(m.at, m.size), {}};
            spec_.anchors.push_back(std::move(a));
        }
    }

    Spec& spec_;
    std::size_t next_ = 0, first_ = 0;
    std::size_t over_ = 0;  // distinct mentions past kMaxProseMentions
    std::set<std::tuple<std::string, std::int64_t, std::optional<std::int64_t>>> seen_;
};

}  // namespace

std::size_t add_prose_anchors(Spec& spec) {
    if (spec.json.empty()) return 0;
    Collector collector(spec);
    collector.run();
    return collector.over();
}

}  // namespace cp
