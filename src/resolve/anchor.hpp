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

// Whether the anchor's symbol is a whole word in the lines `to` names, in `content`, the
// bytes of its file there; unchecked without them.
void check_symbol(AnchorResult& r, const std::string* content);

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

    // Gives up the pairs and routes following made (follow.cpp), once a group's specs are
    // resolved.
    void release_followed();

  private:
    // follow.cpp. One pair of a route: the anchor carried on `path` from `from` to `to`.
    struct Leg {
        std::string from;
        std::optional<std::string> to;  // nullopt: the working tree
        std::string path;
    };
    // How a file deleted between base and target without a partner got to the target: the
    // legs to carry an anchor along; none when it cannot be followed, `why` then saying so
    // where there is something to say.
    struct Route {
        std::vector<Leg> legs;
        std::string why;       // why it was not followed, added to the reason
        bool deleted = false;  // `why` names the commit that deleted it: it is the reason
    };
    // The anchor's file deleted by the pair's diff without a partner: followed through its
    // renames in history (and, for the working tree, HEAD then the working tree), each leg's
    // diff carrying its range in turn. Leaves `r` as it was (with `why` added to its reason)
    // when the file cannot be followed, or a leg loses the lines; where history shows the commit
    // that deleted it, that is the reason.
    Result<Unit> follow(Pair& p, AnchorResult& r, bool check_symbols);
    Result<const Route*> route(const Pair& p, const std::string& path);
    // The legs along the first-parent line from `base` to the commit `tip`, where `path` is
    // at base: walked commit by commit to each commit where the path went, renames found
    // there. Adds to `out`; false when it cannot follow.
    Result<bool> route_commits(const std::string& base, const std::string& tip, std::string& path,
                               Route& out);
    Result<Pair*> follow_pair(const std::string& base, const std::optional<std::string>& target,
                              const std::string& path);

    // check_symbol in the file `r.to` names at the pair's target (its own, or the one its
    // code was followed or found in), read from the content cache.
    Result<Unit> check_symbol_there(const Pair& p, AnchorResult& r);
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
    // Following: on while a leg is carried (a leg is never followed further); the routes
    // found, by pair key and path; the pairs made for them.
    bool following_ = false;
    std::map<std::pair<std::string, std::string>, Route> routes_;
    std::vector<std::pair<std::string, std::optional<std::string>>> follow_pairs_;
};

}  // namespace cp
