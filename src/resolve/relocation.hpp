// Beyond the diff (SPEC §4a): when the diff lost every line of an anchor (or its file), its
// base text is looked for by content at the target, and the outcome is the anchor's
// Relocation (report.hpp). Exact matches first, in its own file (only among lines the diff
// added there, so an old copy that never moved is not taken for it) and, when windows are
// wanted, in every file the diff added or changed; then the same ignoring whitespace.
// One thread's, as Pairs.
#pragma once

#include <map>
#include <memory>
#include <optional>
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

class Relocator {
  public:
    // `search_elsewhere`: look in every file the diff added or changed, not only the anchor's.
    Relocator(Content& content, Pairs& pairs, bool search_elsewhere)
        : content_(content), pairs_(pairs), search_elsewhere_(search_elsewhere) {}

    // Looks for `r`'s base text (in `base_bytes`) at the pair's target. `own_file`: the bytes
    // of the file the diff carried it to, if any, with that diff's `own_hunks`. A unique match
    // in its own file moves an anchor whose lines were deleted when the block vouches for
    // itself (three lines or more, or a neighbour that came along, and exact for one or two
    // lines); any other unique match is a pointer (FoundAt) and the status stays the diff's;
    // several are listed, never picked. Blocks without a distinctive line are never searched.
    // Files the object store does not give are passed over, and the reason says so: a match
    // there would have made a unique one several.
    Result<Unit> relocate(Pair& p, AnchorResult& r, const std::string& base_bytes,
                          const Bytes& own_file, const std::vector<Hunk>* own_hunks);

  private:
    using Found = std::vector<std::pair<std::string, BlockMatch>>;  // path, match

    // `unsearched`: what the object store did not give, so that its lines were not looked
    // for there (a changed file's blob, a subtree the diff could not read).
    Result<Found> search(Pair& p, const AnchorResult& r,
                         const std::vector<std::string_view>& needle, const Bytes& own_file,
                         const std::vector<Hunk>* own_hunks, std::vector<std::string>& unsearched);
    Result<Unit> search_other_files(Pair& p, const AnchorResult& r,
                                    const std::vector<std::string_view>& needle, Match how,
                                    Found& found, std::vector<std::string>& unsearched);
    void settle(Pair& p, AnchorResult& r, const std::vector<std::string_view>& base_lines,
                const Found& found, const Bytes& own_file);
    // A target file's lines, prepared once per (target, path) for every search in it while
    // the content cache keeps its bytes: a haystack points into bytes it does not own, which
    // the caller holds, and is made again from the caller's when the cache read them anew.
    const Haystack& haystack(const Pair& p, const std::string& path, const Bytes& bytes);

    Content& content_;
    Pairs& pairs_;
    bool search_elsewhere_;
    struct Kept {
        std::weak_ptr<const std::string> bytes;  // which the haystack's lines point into
        Haystack haystack;
    };
    std::map<std::pair<std::optional<std::string>, std::string>, Kept> haystacks_;
};

}  // namespace cp
