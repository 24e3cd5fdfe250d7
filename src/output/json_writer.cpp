#include "context_pack/output/json_writer.hpp"

#include <cstddef>

namespace cp {
namespace {

// Whether `s` is well-formed UTF-8 (the Unicode standard's table 3-7: no overlong forms, no
// surrogates, nothing past U+10FFFF), which dump prints as it is.
bool well_formed_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t n;
        unsigned char low = 0x80, high = 0xBF;  // the second byte's range
        if (c < 0x80) {
            ++i;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            n = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 3;
            if (c == 0xE0) low = 0xA0;
            if (c == 0xED) high = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 4;
            if (c == 0xF0) low = 0x90;
            if (c == 0xF4) high = 0x8F;
        } else {
            return false;
        }
        if (s.size() - i < n) return false;
        for (std::size_t k = 1; k < n; ++k) {
            const auto b = static_cast<unsigned char>(s[i + k]);
            if (b < (k == 1 ? low : 0x80) || b > (k == 1 ? high : 0xBF)) return false;
        }
        i += n;
    }
    return true;
}

}  // namespace

void JsonText::key(std::string_view name) {
    before_value();
    append_string(name);
    out_.append(indent_ < 0 ? ":" : ": ");
    after_key_ = true;
}

void JsonText::value(double d) {
    before_value();  // dump's shortest round-trip digits, and null for what is not finite
    out_.append(nlohmann::json(d).dump());
}

void JsonText::value(std::string_view s) {
    before_value();
    append_string(s);
}

void JsonText::open(char bracket) {
    before_value();
    out_.push_back(bracket);
    empty_.push_back(true);
}

void JsonText::close(char bracket) {
    const bool empty = empty_.back();
    empty_.pop_back();
    if (!empty && indent_ >= 0) newline_at(depth_ + static_cast<int>(empty_.size()));
    out_.push_back(bracket);
}

void JsonText::before_value() {
    if (after_key_) {  // a member's value: its key has placed it
        after_key_ = false;
        return;
    }
    if (empty_.empty()) return;  // the value at the top
    if (!empty_.back()) out_.push_back(',');
    empty_.back() = false;
    if (indent_ >= 0) newline_at(depth_ + static_cast<int>(empty_.size()));
}

void JsonText::newline_at(int depth) {
    out_.push_back('\n');
    out_.append(static_cast<std::size_t>(depth * indent_), ' ');
}

void JsonText::append_integer(std::uint64_t magnitude, bool negative) {
    char digits[20];
    std::size_t n = 0;
    do {
        digits[n++] = static_cast<char>('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude != 0);
    if (negative) out_.push_back('-');
    while (n != 0) out_.push_back(digits[--n]);
}

// dump_escaped's rules, with ensure_ascii off: the two escapes, the five short control
// escapes, every other control byte as \u00xx, anything else as it is. A string that is not
// well-formed UTF-8 is handed to dump, whose replacements of the bad bytes are its own.
void JsonText::append_string(std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    const std::size_t start = out_.size();
    out_.push_back('"');
    std::size_t plain = 0;  // the start of the run of bytes copied as they are
    bool checked = false;   // the rest of `s` from its first byte past ASCII is well-formed
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') continue;
        if (c >= 0x80) {
            if (checked || (checked = well_formed_utf8(s.substr(i)))) continue;
            out_.resize(start);
            out_.append(nlohmann::json(std::string(s))
                            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
            return;
        }
        out_.append(s.substr(plain, i - plain));
        plain = i + 1;
        out_.push_back('\\');
        if (c == '"' || c == '\\') {
            out_.push_back(static_cast<char>(c));
        } else if (c >= '\b' && c <= '\r' && c != '\v') {  // \b \t \n \f \r
            out_.push_back("btn?fr"[c - '\b']);
        } else {
            out_.append("u00");
            out_.push_back(kHex[c >> 4]);
            out_.push_back(kHex[c & 0xf]);
        }
    }
    out_.append(s.substr(plain));
    out_.push_back('"');
}

nlohmann::ordered_json& JsonDocument::put(nlohmann::ordered_json v) {
    if (open_.empty()) return root_ = std::move(v);
    nlohmann::ordered_json& in = *open_.back();
    if (in.is_array()) return in.emplace_back(std::move(v));
    return in[key_] = std::move(v);
}

}  // namespace cp
