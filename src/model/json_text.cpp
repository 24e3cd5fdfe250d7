#include "context_pack/model/json_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "context_pack/core/text.hpp"

namespace cp {
namespace {

// Whether `text` opens arrays and objects more than kMaxJsonDepth deep, by one pass over its
// bytes (brackets inside strings do not count). Checked before the parse, so that the value is
// never built deeper; nlohmann's parser callback would do it too, but its end_object walks the
// enclosing array each time, which makes a spec of 100,000 anchors quadratic.
bool too_deep(std::string_view text) {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth) return true;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return false;
}

// What nlohmann's parser says it expected; nothing else may follow a quote of the input.
bool token_names(std::string_view s) {
    static constexpr std::string_view kNames[] = {"true literal",
                                                  "false literal",
                                                  "null literal",
                                                  "string literal",
                                                  "number literal",
                                                  "'['",
                                                  "'{'",
                                                  "']'",
                                                  "'}'",
                                                  "':'",
                                                  "','",
                                                  "end of input",
                                                  "'[', '{', or a literal"};
    return std::find(std::begin(kNames), std::end(kNames), s) != std::end(kNames);
}

// nlohmann's message, without its tag and without the bytes it quotes: a spec file may hold
// anything (a secret pasted by mistake), and no message is to repeat it. What is left is the
// position and what was wrong and expected, all words of the parser's own.
std::string parse_message(const nlohmann::json::exception& e) {
    if (e.id == 406) return "a number is out of the range of a double";  // it quoted the number
    // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error while
    // parsing value - invalid literal; last read: 'tru'; expected '[', '{', or a literal"
    std::string_view what = e.what();
    if (auto p = what.find("] "); p != std::string_view::npos) what.remove_prefix(p + 2);
    auto quote = what.find("; last read: '");
    if (quote == std::string_view::npos) return std::string(what);  // "unexpected ']'" etc.
    std::string message(what.substr(0, quote));
    auto expected = what.rfind("; expected ");
    if (expected != std::string_view::npos && expected > quote &&
        token_names(what.substr(expected + 11)))
        message += what.substr(expected);
    return message;
}

template <class Json>
Result<Json> parse(std::string_view text) {
    if (too_deep(text))
        return Error{fmt::format("arrays and objects nested deeper than {} levels", kMaxJsonDepth)};
    try {
        return Json::parse(text);
    } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for 1e400
        return Error{parse_message(e)};
    }
}

}  // namespace

Result<nlohmann::json> parse_json(std::string_view text) {
    return parse<nlohmann::json>(text);
}

namespace {

// A pass over a JSON text that only looks for an object giving one key twice (nlohmann's SAX
// interface: its parser callback's end_object walks the object built so far, quadratic in a
// spec of 100,000 anchors). Any syntax error ends it; the parse proper then names it.
class KeyTwice : public nlohmann::json_sax<nlohmann::json> {
  public:
    std::optional<std::string> twice;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override {
        open_.emplace_back();
        return true;
    }
    bool key(string_t& name) override {
        if (open_.empty() || open_.back().insert(name).second) return true;
        twice = name;
        return false;
    }
    bool end_object() override {
        if (!open_.empty()) open_.pop_back();
        return true;
    }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
        return false;
    }

  private:
    std::vector<std::set<std::string>> open_;  // the keys of each object open, innermost last
};

}  // namespace

Result<nlohmann::json> parse_json_unique_keys(std::string_view text) {
    if (too_deep(text))
        return Error{fmt::format("arrays and objects nested deeper than {} levels", kMaxJsonDepth)};
    KeyTwice check;
    try {
        nlohmann::json::sax_parse(text, &check);
    } catch (const nlohmann::json::exception&) {  // the parse proper names it
    }
    if (check.twice)
        return Error{fmt::format(
            "the key '{}' is given twice in one object, and a JSON parser keeps only one of "
            "them; give it once",
            text::printable(*check.twice))};
    return parse_json(text);
}

Result<nlohmann::ordered_json> parse_ordered_json(std::string_view text) {
    return parse<nlohmann::ordered_json>(text);
}

JsonTokens::JsonTokens(std::string_view text) : s_(text) {
    if (s_.starts_with("\xEF\xBB\xBF")) pos_ = 3;
}

void JsonTokens::skip_space() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
        ++pos_;
}

bool JsonTokens::eat(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
        ++pos_;
        return true;
    }
    return false;
}

char JsonTokens::peek() {
    skip_space();
    return pos_ < s_.size() ? s_[pos_] : '\0';
}

std::string_view JsonTokens::token() {
    skip_space();
    const std::size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '"') {
        for (++pos_; pos_ < s_.size() && s_[pos_] != '"'; ++pos_)
            if (s_[pos_] == '\\') ++pos_;
        pos_ = std::min(pos_ + 1, s_.size());
    } else {
        while (pos_ < s_.size() &&
               std::string_view(",]}: \t\r\n").find(s_[pos_]) == std::string_view::npos)
            ++pos_;
    }
    return s_.substr(start, pos_ - start);
}

std::string_view JsonTokens::value() {
    skip_space();
    const std::size_t start = pos_;
    const char c = peek();
    if (c != '{' && c != '[') return token();
    // Brackets inside strings are passed over with the strings.
    int depth = 0;
    do {
        const char at = peek();
        if (at == '"') {
            token();
            continue;
        }
        if (at == '{' || at == '[') ++depth;
        if (at == '}' || at == ']') --depth;
        ++pos_;
    } while (depth > 0 && pos_ < s_.size());
    return s_.substr(start, pos_ - start);
}

std::string json_string_value(std::string_view token) {
    return nlohmann::json::parse(token).get<std::string>();
}

}  // namespace cp
