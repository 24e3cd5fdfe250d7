#include "context_pack/core/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

namespace cp::text {

std::int64_t count_lines(std::string_view content, std::int64_t most) {
    std::int64_t n = 0;
    const char* at = content.data();
    const char* const end = at + content.size();
    for (; at < end && n < most; ++n) {  // each pass one line, ended by '\n' or by the buffer
        const void* nl = std::memchr(at, '\n', std::size_t(end - at));
        at = nl ? static_cast<const char*>(nl) + 1 : end;
    }
    return n;
}

std::vector<std::string_view> split_lines(std::string_view content, std::int64_t first,
                                          std::int64_t last) {
    std::vector<std::string_view> lines;
    const char* at = content.data();
    const char* const end = at + content.size();
    for (std::int64_t n = 1; at < end && n <= last; ++n) {
        const auto* nl = static_cast<const char*>(std::memchr(at, '\n', std::size_t(end - at)));
        if (n >= first) {
            std::string_view line(at, std::size_t((nl ? nl : end) - at));
            if (nl && !line.empty() && line.back() == '\r') line.remove_suffix(1);
            lines.push_back(line);
        }
        at = nl ? nl + 1 : end;
    }
    return lines;
}

std::vector<std::string_view> split_lines(std::string_view content) {
    return split_lines(content, 1, std::numeric_limits<std::int64_t>::max());
}

std::size_t cut_line(std::string& line, std::size_t max_bytes) {
    if (line.size() <= max_bytes) return 0;
    std::size_t keep = max_bytes;
    while (keep > 0 && (static_cast<unsigned char>(line[keep]) & 0xC0) == 0x80) --keep;
    std::size_t cut = line.size() - keep;
    line.resize(keep);
    return cut;
}

std::string short_oid(std::string_view oid) {
    return std::string(oid.substr(0, 10));
}

bool looks_binary(std::string_view content) {
    return content.substr(0, 8000).find('\0') != std::string_view::npos;
}

std::optional<std::size_t> find_word(std::string_view line, std::string_view needle) {
    if (needle.empty()) return std::nullopt;
    for (auto pos = line.find(needle); pos != std::string_view::npos;
         pos = line.find(needle, pos + 1)) {
        bool left_ok = pos == 0 || !is_word_byte(static_cast<unsigned char>(line[pos - 1]));
        auto after = pos + needle.size();
        bool right_ok =
            after == line.size() || !is_word_byte(static_cast<unsigned char>(line[after]));
        if (left_ok && right_ok) return pos;
    }
    return std::nullopt;
}

bool is_blank(std::string_view line) {
    return line.find_first_not_of(" \t\r\f\v\n") == std::string_view::npos;
}

bool contains_word(std::string_view line, std::string_view needle) {
    return find_word(line, needle).has_value();
}

namespace {

// The length of the UTF-8 sequence at bytes[i] and its code point; 0 when it is none.
std::size_t utf8_at(std::string_view bytes, std::size_t i, std::uint32_t& code) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    const std::size_t n = c >= 0xc2 && c <= 0xdf   ? 2
                          : c >= 0xe0 && c <= 0xef ? 3
                          : c >= 0xf0 && c <= 0xf4 ? 4
                                                   : 0;
    if (n == 0 || i + n > bytes.size()) return 0;
    code = c & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
    for (std::size_t k = 1; k < n; ++k) {
        const auto b = static_cast<unsigned char>(bytes[i + k]);
        if ((b & 0xc0) != 0x80) return 0;
        code = (code << 6) | (b & 0x3f);
    }
    return n;
}

// The characters that reorder text on a terminal (bidirectional overrides and isolates), which
// can make code read other than it runs.
bool reorders(std::uint32_t code) {
    return (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

// printable() and visible(): control bytes escaped; `named` writes \n, \t and \r as such,
// else the tab stays. C1 controls (as UTF-8, or a lone byte 80-9F that a terminal in 8-bit
// mode takes for one) and the bidirectional overrides and isolates are escaped too.
std::string escaped(std::string_view bytes, bool named) {
    std::string out;
    out.reserve(bytes.size());
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        auto c = static_cast<unsigned char>(bytes[i]);
        if (named && c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += named ? "\\t" : "\t";
        } else if (named && c == '\r') {
            out += "\\r";
        } else if (c < 0x20 || c == 0x7f) {
            out += fmt::format("\\x{:02x}", c);
        } else if (c < 0x80) {
            out += bytes[i];
        } else if (std::uint32_t code = 0; std::size_t n = utf8_at(bytes, i, code)) {
            if ((code >= 0x80 && code <= 0x9f) || reorders(code))
                out += fmt::format("\\u{:04x}", code);
            else
                out += bytes.substr(i, n);
            i += n - 1;
        } else if (c <= 0x9f) {  // a lone C1 byte
            out += fmt::format("\\x{:02x}", c);
        } else {
            out += bytes[i];
        }
    }
    return out;
}

}  // namespace

std::string printable(std::string_view bytes) {
    return escaped(bytes, true);
}

std::string visible(std::string_view line) {
    return escaped(line, false);
}

std::string shell_word(std::string_view word) {
    bool plain = !word.empty() && word.find_first_not_of(
                                      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                      "0123456789-_./:=@,+%^~") == std::string_view::npos;
    if (plain) return std::string(word);
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit) {
    const std::size_t over = limit + 1;
    if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > limit) return over;
    // Three rows of the table: two back (for a swap), the last, and this one.
    std::vector<std::size_t> two(b.size() + 1), last(b.size() + 1), row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) last[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        row[0] = i;
        std::size_t least = row[0];
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            row[j] = std::min({last[j] + 1, row[j - 1] + 1, last[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                row[j] = std::min(row[j], two[j - 2] + 1);
            least = std::min(least, row[j]);
        }
        if (least > limit) return over;  // every later row is at least this
        std::swap(two, last);
        std::swap(last, row);
    }
    return std::min(last[b.size()], over);
}

namespace {

std::string_view basename_of(std::string_view path) {
    auto slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// The extension of a basename, its last '.' on ("" without one; a leading '.' is none).
std::string_view extension_of(std::string_view name) {
    auto dot = name.rfind('.');
    return dot == std::string_view::npos || dot == 0 ? std::string_view{} : name.substr(dot);
}

}  // namespace

std::vector<std::string> similar_paths(std::string_view path,
                                       std::span<const std::string_view> paths, std::size_t most,
                                       std::size_t* more) {
    const std::string_view name = basename_of(path);
    const std::string_view ext = extension_of(name);
    const std::size_t stem = name.size() - ext.size();
    const std::size_t limit = stem >= 6 ? 2 : stem >= 3 ? 1 : 0;
    std::vector<std::string> found;
    for (std::string_view p : paths) {
        if (p == path) continue;
        const std::string_view other = basename_of(p);
        bool close = other == name;
        if (!close && limit > 0 && extension_of(other) == ext)
            close = edit_distance(path, p, limit) <= limit;
        if (close) found.emplace_back(p);
    }
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    if (more) *more = found.size() > most ? found.size() - most : 0;
    if (found.size() > most) found.resize(most);
    return found;
}

std::vector<std::string> wrapped(const std::string& text, std::size_t room) {
    std::vector<std::string> lines;
    std::string line;
    for (std::size_t at = 0; at < text.size();) {
        std::size_t end = text.find(' ', at);
        if (end == std::string::npos) end = text.size();
        const std::string word = text.substr(at, end - at);
        if (!line.empty() && line.size() + 1 + word.size() > room) {
            lines.push_back(line);
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        at = end + 1;
    }
    if (!line.empty()) lines.push_back(line);
    return lines;
}

}  // namespace cp::text
