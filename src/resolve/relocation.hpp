// Beyond the diff (SPEC §4a): when the diff took an anchor's code from its place (or deleted
// its file), its base text is looked for by content at the target, and the outcome is the
// anchor's Relocation (report.hpp): its answer when one place vouches for itself, else a
// pointer or the candidates. The same in every mode. One thread's, as Pairs.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "context_pack/core/mapping.hpp"
#include "context_pack/core/relocate.hpp"
#include "context_pack/core/result.hpp"
#include "context_pack/model/report.hpp"
#include "context_pack/resolve/content.hpp"
#include "pairs.hpp"

namespace cp {

// The files a pair's whole diff added or changed, each with the filter of its lines
// (core/relocate's LineFilter), so that a block is looked for only in the files that could
// hold it rather than in every one. Made once a pair, in target path order.
struct ChangedLines {
    struct File {
        const git::Delta* delta;  // the whole diff's, which the pair keeps
        LineFilter lines;
    };
    std::vector<File> files;
    std::vector<std::string> unsearched;  // files the object store did not give
};

class Relocator {
  public:
    Relocator(Content& content, Pairs& pairs) : content_(content), pairs_(pairs) {}

    // Looks for `r`'s base code (in `base_bytes`: the anchor's lines less the margins around
    // them, core/relocate's core_of) at the pair's target: in `own_file`, the file the diff
    // carried it to (only among the lines its diff `own_hunks` added, so an old copy that
    // never moved is not taken for it), and in every other file the diff added or changed.
    // Copies first (exact, then whitespace aside); where there is none, places where it
    // stands lightly edited (find_similar_block). One place, among lines the diff added
    // there, that vouches for itself (a copy of three lines or more, or of one or two with a
    // neighbour that came along; a likeness of kTakeSimilar with three lines equal or renamed,
    // clear of any rival) becomes the anchor's answer: MOVED (or SAME), `to` that place with its
    // margins, the diff's answer kept in the Relocation. Any other single place is a pointer
    // (FoundAt), several are listed (Candidates), never picked. Blocks without a distinctive
    // line are never searched. Files the object store does not give are passed over, and the
    // reason says so: a match there would have made a unique one several.
    Result<Unit> relocate(Pair& p, AnchorResult& r, const std::string& base_bytes,
                          const Bytes& own_file, const std::vector<Hunk>* own_hunks);

  private:
    struct Place {
        std::string path;
        LineNo line = 0, end_line = 0;
        bool whitespace = false;
        std::optional<double> similarity;  // found by likeness
        std::size_t equal = 0;             // by likeness: its lines found equal
        std::size_t renamed = 0;           // and equal but for names renamed one way
        bool fresh = false;                // most of its lines are lines the diff added to its file
    };
    using Found = std::vector<Place>;
    struct Needle {
        std::vector<std::string_view> base;  // the base file's lines
        std::vector<std::string_view> core;  // the anchor's lines less its margins
        std::size_t before = 0, after = 0;   // margin lines cut off above and below
    };

    // `unsearched`: what the object store did not give, so that its lines were not looked
    // for there (a changed file's blob, a subtree the diff could not read). `similar`: by
    // likeness rather than copies.
    Result<Found> search(Pair& p, const AnchorResult& r, const Needle& needle,
                         const Bytes& own_file, const std::vector<Hunk>* own_hunks, bool similar,
                         std::vector<std::string>& unsearched);
    // The places in one file; `hunks` the diff's hunks of it (null: every line is added).
    void search_file(const std::string& path, const Haystack& hay, const Needle& needle,
                     const std::vector<Hunk>* hunks, bool similar, bool own, Found& found);
    void settle(Pair& p, AnchorResult& r, const Needle& needle, Found& found,
                const Bytes& own_file);
    // The pair's ChangedLines, made the first time.
    Result<const ChangedLines*> index(Pair& p, const git::Diff& whole);
    // The files of `ix` that may hold the block: every line of it (copies), or enough of its
    // telling lines equal or of one long shape (likeness).
    std::vector<bool> may_hold(const ChangedLines& ix, const Needle& needle, bool similar) const;
    // A target file's lines, prepared once per (target, path) for every search in it while
    // the content cache keeps its bytes: a haystack points into bytes it does not own, which
    // the caller holds, and is made again from the caller's when the cache read them anew.
    const Haystack& haystack(const Pair& p, const std::string& path, const Bytes& bytes);

    Content& content_;
    Pairs& pairs_;
    struct Kept {
        std::weak_ptr<const std::string> bytes;  // which the haystack's lines point into
        Haystack haystack;
    };
    std::map<std::pair<std::optional<std::string>, std::string>, Kept> haystacks_;
};

// Whether the diff took the anchor's code from its place: its lines all deleted or removed,
// or at least three quarters of its telling lines (not margins) removed, so that what the
// union rule kept there is mostly margins or other code. Then relocation looks for it.
bool code_left(std::span<const Hunk> hunks, LineRange range,
               const std::vector<std::string_view>& base_lines);

}  // namespace cp
