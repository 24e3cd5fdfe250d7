// Beyond the diff (SPEC §4a): when the diff took an anchor's code from its place (or deleted
// its file), its base text is looked for by content at the target, and the outcome is the
// anchor's Relocation (report.hpp): its answer when one place vouches for itself, else a
// pointer or the candidates. The same in every mode. One thread's, as Pairs.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
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
// (core/relocate's LineFilter), made the first time the file is in a search's scope, so that
// a block is looked for only in the files that could hold it rather than in every one; and
// the pair's first-parent line, for scoping a search by history. Made once a pair, in target
// path order.
struct ChangedLines {
    struct File {
        const git::Delta* delta;  // the whole diff's, which the pair keeps
        bool read = false;        // `lines` made, or the file found binary or not given
        std::optional<LineFilter> lines;
        std::string unread;  // why the object store did not give it
    };
    std::vector<File> files;
    bool listed = false;  // `files` taken from the pair's whole diff
    // The base, then each commit of the first-parent line to the target (for the working
    // tree: to HEAD, then nullopt); empty until first needed, or where it is not walked.
    std::vector<std::optional<std::string>> line;
    bool line_made = false;
    using Rev = std::optional<std::string>;
    // The target paths changed between two revisions, and those of them added there.
    struct Step {
        std::set<std::string> paths, added;
    };
    std::map<std::pair<std::string, Rev>, Step> steps;
    // What each commit of a line merged: its second parent, then that one's first parents,
    // as far as a search has walked them; empty for a commit of one parent.
    struct Side {
        std::vector<std::string> chain;
        bool ended = false;  // the chain reached a commit without parents
    };
    std::map<std::string, Side> sides;
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
    // in a block of six telling lines or opening with its symbol's definition, clear of any
    // rival) becomes the anchor's answer: MOVED (or SAME), `to` that place with its
    // margins, the diff's answer kept in the Relocation. Any other single place is a pointer
    // (FoundAt), but one of a block of one or two lines found whitespace-blind or by likeness
    // is listed, as several are (Candidates), never picked. Blocks without a distinctive
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
        // The core opens with the definition of the anchor's symbol: that line votes for a
        // place on its own (find_similar_block's `opening`).
        bool opens_definition = false;
    };
    // How many places of a file hold a block: copies (whitespace aside), and places alike
    // to kTakeSimilar (copies among them), each counted up to kMostPlaces.
    struct Presence {
        std::size_t copies = 0, alike = 0;
    };

    // Where a search looks beyond the anchor's own file. Every file the pair changed, where
    // the pair is one first-parent step; else, as git blame -C looks in the commit that took
    // lines away, the files changed by the commit where its file stopped holding the block:
    // bisected along the first-parent line, then, where that step is a merge whose merged
    // side took it, along that side's line (kMaxSides deep). When that commit is not a merge,
    // the files changed by the kAround commits either side of it are searched next: a move
    // made in two commits. Where the target's file still holds the block, no other file is
    // searched: its code is still there.
    using Rev = ChangedLines::Rev;
    struct Scope {
        bool whole = true;  // every changed file
        struct Level {
            std::set<std::string> step, around;  // target paths; `around` less `step`'s
            std::set<std::string> added;         // those of both that were added there
        };
        // The commit where it left its file, then for each hop where it left the file it
        // went to there.
        std::vector<Level> levels;
        std::string where;  // "in <commit>" or "in the working tree", of the first
        // The revisions on from the commit where the last level's code left, to the target.
        std::vector<Rev> rest;
        std::set<std::string> hopped;  // the files hop() looked at
    };
    Result<Scope> scope(Pair& p, ChangedLines& ix, const AnchorResult& r, const Needle& needle);
    // Bisects `paths` along `top`, a line of revisions to the target (a merge that took it,
    // then down the side it merged), and adds the level of the commit where its code left.
    Result<Unit> along(ChangedLines& ix, std::vector<Rev> top,
                       const std::vector<std::string>& paths, const Needle& needle,
                       const Presence& at_start, Scope& out);
    // Where nothing was found: a file of the last level that held the block where its code
    // left, and no longer does at the target, is followed along() from there (the code moved
    // on: renamed, then moved again). False when there is none.
    Result<bool> hop(ChangedLines& ix, const Needle& needle, Scope& out);
    static Presence presence(const Haystack& hay, const Needle& needle);
    // The first revision of `line` past `from` whose file no longer holds the block, where
    // `line[from]` holds it and the last does not; nullopt when the object store does not
    // give one.
    Result<std::optional<std::size_t>> left_at(const std::vector<Rev>& line, std::size_t from,
                                               const std::vector<std::string>& paths,
                                               const Needle& needle, const Presence& at_base);
    // The block's Presence in the file at `path` at a revision, judged once a blob (none in a
    // binary file); nullopt where there is no such file.
    Result<std::optional<Presence>> presence_at(const Rev& rev, const std::string& path,
                                                const Needle& needle);
    // Whether the file (at the first of `paths` it is at) holds the block at a revision: as
    // many copies, or as many places alike, as the base file has (`at_base`), so that another
    // copy or a like sibling left behind does not count; nullopt when the object store does
    // not give it.
    Result<std::optional<bool>> holds(const Rev& rev, const std::vector<std::string>& paths,
                                      const Needle& needle, const Presence& at_base);
    // The pair's first-parent line (ChangedLines::line), walked the first time.
    Result<Unit> walk_line(Pair& p, ChangedLines& ix);
    // What a commit merged (ChangedLines::sides), its chain walked at least `depth` commits
    // past the second parent where it goes on.
    Result<const ChangedLines::Side*> side_of(ChangedLines& ix, const std::string& commit,
                                              std::size_t depth);
    // The line of the side a merge merged that took the block from the files at `paths`,
    // oldest first, to the second parent: from kAround commits below the nearest commit of
    // its chain that still holds it (at `at_start`'s measure), which is `held`. Empty where
    // the second parent holds it, no commit within kMaxSideCommits does, or the object store
    // does not give one (then the merge's own files are searched).
    struct SideLine {
        std::vector<Rev> line;
        std::size_t held = 0;
    };
    Result<SideLine> took_it(ChangedLines& ix, const std::string& merge,
                             const std::vector<std::string>& paths, const Needle& needle,
                             const Presence& at_start);
    // The target paths changed between two revisions, diffed once a pair.
    Result<const ChangedLines::Step*> changed(ChangedLines& ix, const std::string& from,
                                              const Rev& to);

    // Appends to `unsearched` what the object store did not give, so that its lines were not
    // looked for there (a changed file's blob, a subtree the diff could not read). `paths`:
    // the scope (null: every changed file). `similar`: by likeness rather than copies.
    Result<Found> search(Pair& p, const AnchorResult& r, const Needle& needle,
                         const Bytes& own_file, const std::vector<Hunk>* own_hunks,
                         const std::set<std::string>* paths, bool similar,
                         std::vector<std::string>& unsearched);
    // The places in one file; `hunks` the diff's hunks of it (null: every line is added).
    void search_file(const std::string& path, const Haystack& hay, const Needle& needle,
                     const std::vector<Hunk>* hunks, bool similar, bool own, Found& found);
    void settle(Pair& p, AnchorResult& r, const Needle& needle, Found& found,
                const Bytes& own_file);
    // The pair's ChangedLines, made empty the first time.
    static ChangedLines& state(Pair& p);
    // A changed file's filter, made the first time; null for a binary file, or one the store
    // does not give (its `unread` then says why).
    Result<const LineFilter*> filter_of(Pair& p, ChangedLines::File& file);
    // A file's lines, prepared once for every search in them while the content cache keeps
    // its bytes, which are one for a blob at every revision and path it is reached by: a
    // haystack points into bytes it does not own, which the caller holds, and is made again
    // when the cache read them anew.
    const Haystack& haystack(const Bytes& bytes);

    Content& content_;
    Pairs& pairs_;
    struct Kept {
        std::weak_ptr<const std::string> bytes;  // which the haystack's lines point into
        Haystack haystack;
    };
    std::map<const std::string*, Kept> haystacks_;
    // The block relocate() looks for, its Presence in each blob judged so far, by blob id.
    std::map<std::string, Presence> judged_;
};

// Whether the diff took the anchor's code from its place: its lines all deleted or removed,
// or at least three quarters of its telling lines (not margins) removed, so that what the
// union rule kept there is mostly margins or other code. Then relocation looks for it.
bool code_left(std::span<const Hunk> hunks, LineRange range,
               const std::vector<std::string_view>& base_lines);

}  // namespace cp
