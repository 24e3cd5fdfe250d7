// Caller lists: every whole-word occurrence of each symbol across the target's files, found
// in one pass over the files for all symbols together, then summarised per symbol: the hits
// grouped (the symbol's own language first, then other code, then documentation and test
// data), the first of them as `path:line: text`, counts per group and per file (most first)
// and the total. Pure: bytes in.
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

// Where a hit's file stands to the symbol's own file, in the order hits are listed:
//  Docs: documentation and test data, whatever the language: a path with a directory named
//        doc, docs, documentation, fixtures, testdata, test_data, test-data, __fixtures__,
//        __snapshots__ or golden; a file ending .md, .markdown, .rst, .txt, .adoc, .asciidoc,
//        .org, .texi, .texinfo, .pod, .csv or .tsv; or one named README, CHANGELOG, NEWS,
//        HISTORY, LICENSE or COPYING, with any extension (names in any letter case);
//  Language: otherwise, a file of the own file's language family (language_family);
//  Code: every other file.
enum class CallerGroup { Language, Code, Docs };
inline constexpr std::array kAllCallerGroups = {CallerGroup::Language, CallerGroup::Code,
                                                CallerGroup::Docs};
std::string_view caller_group_name(CallerGroup group);  // "language", "code", "docs"

// The extensions of the language family a path's extension belongs to, lowercase, as ".c/.h":
// C (.c .h), C++ (.cc .cpp .cxx .c++ .hpp .hh .hxx .h++ .h .ipp .tpp .inl), Objective-C
// (.m .mm .h), Python (.py .pyi .pyx), JavaScript/TypeScript (.js .jsx .mjs .cjs .ts .tsx
// .mts .cts), Go, Rust, Java, Kotlin (.kt .kts), C# (.cs), Ruby (.rb .rake), PHP, Perl (.pl
// .pm .t), shell (.sh .bash .zsh), Lua, Swift, Scala; a .h file is of C, C++ and
// Objective-C together. Any other extension is a family of its own; no extension, none (and
// then no file is of its language).
std::vector<std::string> language_family(const std::string& path);
CallerGroup caller_group(const std::string& path, const std::vector<std::string>& family);

// What a hit's line does with the symbol, read from the line alone (caller_role), so that a
// reader tells the calls from the rest:
//  Definition: it defines it: a function's head (a type or modifiers before the name, no `;`
//        after the parameters), a keyword's (def, function, func, fn, sub, class, struct,
//        enum, union, interface, trait, type, macro_rules!), `NAME() {` in shell, `#define
//        NAME`, or `const|let|var NAME =`;
//  Declaration: a function's prototype (a head ending in `;`), or `struct NAME;`;
//  Comment: a line comment or a comment block's line in the file's language (// /* * in
//        the C family and its kin, # in shell, Python, Perl, Ruby, Makefiles, YAML, TOML,
//        -- in Lua and SQL);
//  Use: anything else (a call, a reference), and every line of a file of no known language
//        (documentation, data) but a shell function's head.
enum class CallerRole { Use, Definition, Declaration, Comment };
std::string_view caller_role_name(CallerRole role);  // "use", "definition", ...
CallerRole caller_role(std::string_view path, std::string_view line, std::string_view symbol);

struct CallerHit {
    std::string path;
    LineNo line = 0;
    std::string text;  // the line, cut like a window line
    std::size_t cut_bytes = 0;
    CallerGroup group = CallerGroup::Code;  // set by summarize_callers
    CallerRole role = CallerRole::Use;      // of the hits listed, set by summarize_callers
};

struct GroupCount {
    std::size_t hits = 0;
    std::size_t files = 0;
};

struct FileCount {
    std::string path;
    std::size_t count = 0;
};

struct Callers {
    std::string symbol;
    std::vector<std::string> language;   // the own file's language family (language_family)
    std::vector<CallerHit> hits;         // the first `max_hits`, by group, then path and line
    std::array<GroupCount, 3> groups{};  // hits outside its windows, by CallerGroup
    std::vector<FileCount> per_file;     // every file with hits, most first, then by path
    std::size_t total = 0;               // hits outside the symbol's own windows
    std::size_t in_windows = 0;          // hits left out because its windows show them
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

// `hits` in path then line order; `own_path`: the file of the symbol's anchor, whose language
// is listed first.
Callers summarize_callers(const std::string& symbol, const std::vector<CallerHit>& hits,
                          const std::vector<Shown>& shown, std::size_t max_hits,
                          std::size_t files_scanned, const std::string& own_path = {});

}  // namespace cp
