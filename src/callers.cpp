#include "context_pack/callers.hpp"

#include <algorithm>

#include "context_pack/text.hpp"
#include "context_pack/window.hpp"

namespace cp {

CallerScan::CallerScan(std::vector<std::string> symbols, std::size_t max_line_bytes)
    : max_line_bytes_(max_line_bytes) {
    for (auto& s : symbols) hits_[std::move(s)];
}

void CallerScan::scan(const std::string& path, std::string_view bytes) {
    ++files_scanned_;
    if (text::looks_binary(bytes)) return;
    for (auto& [symbol, hits] : hits_) {
        // Walk the matches in order, counting newlines between them for line numbers.
        LineNo line = 1;
        std::size_t counted = 0;
        LineNo last_hit_line = 0;
        for (auto pos = bytes.find(symbol); pos != std::string_view::npos;
             pos = bytes.find(symbol, pos + 1)) {
            line += std::count(bytes.begin() + counted, bytes.begin() + pos, '\n');
            counted = pos;
            if (line == last_hit_line) continue;  // one hit per line, as grep -n
            auto begin = bytes.rfind('\n', pos);
            begin = begin == std::string_view::npos ? 0 : begin + 1;
            auto end = bytes.find('\n', pos);
            auto whole = bytes.substr(begin, end == std::string_view::npos ? end : end - begin);
            if (!text::contains_word(whole, symbol)) continue;
            last_hit_line = line;
            if (!whole.empty() && whole.back() == '\r') whole.remove_suffix(1);
            CallerHit hit{path, line, std::string(whole), 0};
            hit.cut_bytes = cut_line(hit.text, max_line_bytes_);
            hits.push_back(std::move(hit));
        }
    }
}

const std::vector<CallerHit>& CallerScan::hits(const std::string& symbol) const {
    static const std::vector<CallerHit> none;
    auto it = hits_.find(symbol);
    return it == hits_.end() ? none : it->second;
}

Callers summarize_callers(const std::string& symbol, const std::vector<CallerHit>& hits,
                          const std::vector<Shown>& shown, std::size_t max_hits,
                          std::size_t files_scanned) {
    Callers out;
    out.symbol = symbol;
    out.files_scanned = files_scanned;
    std::map<std::string, std::size_t> counts;
    for (const CallerHit& h : hits) {
        bool inside = std::any_of(shown.begin(), shown.end(), [&](const Shown& s) {
            return s.path == h.path && s.first <= h.line && h.line <= s.last;
        });
        if (inside) {
            ++out.in_windows;
            continue;
        }
        ++out.total;
        ++counts[h.path];
        if (out.hits.size() < max_hits) out.hits.push_back(h);
    }
    for (auto& [path, count] : counts) out.per_file.push_back({path, count});
    std::stable_sort(out.per_file.begin(), out.per_file.end(),
                     [](const FileCount& a, const FileCount& b) { return a.count > b.count; });
    return out;
}

}  // namespace cp
