// Caller lists: every whole-word occurrence of each symbol across the target's files, found
// in one pass over the files for all symbols together, then summarised per symbol: the first
// hits as `path:line: text`, per-file counts (most first) and the total. Pure: bytes in.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "context_pack/core/mapping.hpp"

namespace cp {

struct CallerHit {
    std::string path;
    LineNo line = 0;
    std::string text;  // the line, cut like a window line
    std::size_t cut_bytes = 0;
};

struct FileCount {
    std::string path;
    std::size_t count = 0;
};

struct Callers {
    std::string symbol;
    std::vector<CallerHit> hits;      // the first `max_hits`, in path then line order
    std::vector<FileCount> per_file;  // every file with hits, most first, then by path
    std::size_t total = 0;            // hits outside the symbol's own windows
    std::size_t in_windows = 0;       // hits left out because its windows show them
    std::size_t files_scanned = 0;
};

// Collects hits for a fixed set of symbols as files stream past.
class CallerScan {
  public:
    explicit CallerScan(std::vector<std::string> symbols, std::size_t max_line_bytes = 300);
    // Moves only: the word table points into the hit lists.
    CallerScan(CallerScan&&) = default;
    CallerScan& operator=(CallerScan&&) = default;
    CallerScan(const CallerScan&) = delete;
    CallerScan& operator=(const CallerScan&) = delete;

    // One file; binary content is skipped, as git grep skips it.
    void scan(const std::string& path, std::string_view bytes);

    const std::vector<CallerHit>& hits(const std::string& symbol) const;
    std::size_t files_scanned() const { return files_scanned_; }
    // Appends what `later` found in files that come after this scan's (same symbols).
    void append(const CallerScan& later);

  private:
    using Entry = std::pair<const std::string, std::vector<CallerHit>>;
    std::map<std::string, std::vector<CallerHit>> hits_;
    std::unordered_map<std::string_view, Entry*> words_;  // symbols of word bytes only
    std::array<bool, 256> word_lengths_{};                // their lengths, 255 for longer
    std::array<bool, 256> word_starts_{};                 // and their first bytes
    std::array<std::vector<Entry*>, 256> others_;         // the rest, by first byte
    std::size_t max_line_bytes_;
    std::size_t files_scanned_ = 0;
};

// A span of lines a reader already sees in a window: hits there are left out.
struct Shown {
    std::string path;
    LineNo first = 0;
    LineNo last = 0;
};

Callers summarize_callers(const std::string& symbol, const std::vector<CallerHit>& hits,
                          const std::vector<Shown>& shown, std::size_t max_hits,
                          std::size_t files_scanned);

}  // namespace cp
