// Per-anchor resolution. An anchor is checked (path, range), looked up and read at base, then
// carried onto the target: unchanged, deleted or retyped by the pair's name diff, else by the
// boundary rule (map_range over its path's -U0 hunks, SPEC §3). A path absent at base is NEW.
// When the diff lost its lines, the Relocator looks for them; its symbol is looked for in the
// lines it landed on; with --since, edited_since says whether an edit since then touched it.
// Per-anchor outcomes are data in the AnchorResult; errors only stop the whole run.
// One thread's, as Pairs.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "context_pack/core/result.hpp"
#include "context_pack/git/repository.hpp"
#include "context_pack/model/report.hpp"
#include "context_pack/resolve/content.hpp"
#include "pairs.hpp"
#include "read_ahead.hpp"
#include "relocation.hpp"

namespace cp {

class AnchorRules {
  public:
    AnchorRules(const git::Repository& repo, Content& content, Pairs& pairs, ReadAhead& ahead,
                Relocator& relocator)
        : repo_(repo), content_(content), pairs_(pairs), ahead_(ahead), relocator_(relocator) {}

    // Fills `r`, whose anchor is set, for the pair. `check_symbols`: look for its symbol in
    // the lines at target (off for --since's look at the state in between). An object it
    // needs that the store does not give makes it UNRESOLVED, saying which and why.
    Result<Unit> resolve(Pair& p, AnchorResult& r, bool check_symbols = true);

    // Whether an edit between `since` and the target touched the anchor's lines as they
    // stood at `since`: a hunk overlapping them, or their file renamed or deleted since. An
    // object the store does not give is an error saying so (Error::object).
    Result<bool> edited_since(const std::string& base, const std::string& since,
                              const std::optional<std::string>& target, const AnchorResult& r);

    // Gives up the paths near_miss listed for `base`, once no spec left needs them.
    void forget_paths(const std::string& base) { base_paths_.erase(base); }

  private:
    // resolve(), an object the store does not give left as the error it is.
    Result<Unit> fill(Pair& p, AnchorResult& r, bool check_symbols);
    // The anchor's file at base, or nullptr when `r` got its reason (too large, too short).
    Result<Bytes> read_base(Pair& p, AnchorResult& r, const git::Entry& entry);
    // Through a changed file: the hunks, the boundary rule, then relocation and the symbol.
    Result<Unit> carry(Pair& p, AnchorResult& r, const git::Delta& delta, const Bytes& base,
                       bool check_symbols);
    // A path absent at base: NEW for an edit (or an --anchor), UNRESOLVED for a read.
    Result<Unit> resolve_absent(Pair& p, AnchorResult& r);
    Result<Unit> resolve_new(Pair& p, AnchorResult& r);
    // "; did you mean src/parser.c?" for a path absent at base, when paths there are close
    // (text::similar_paths), else "". A base's paths are listed the first time an anchor
    // needs them and kept until forget_paths(base).
    std::string near_miss(const std::string& base, const std::string& path);
    // A NEW anchor whose file is at the target: its range there (README, "NEW anchors").
    Result<Unit> place_new(Pair& p, AnchorResult& r);

    const git::Repository& repo_;
    Content& content_;
    Pairs& pairs_;
    ReadAhead& ahead_;
    Relocator& relocator_;
    // The regular files of each base near_miss looked in, in path order (null: its tree
    // could not be read).
    std::map<std::string, std::unique_ptr<const git::PathList>> base_paths_;
};

}  // namespace cp
