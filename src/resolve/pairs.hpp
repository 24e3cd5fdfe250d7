// A (base, target) pair: the one name-level diff of it with renames, shared by every anchor of
// every spec on that pair, and the -U0 hunks of each anchored path, made once. For the working
// tree the diff may be partial: only the anchored paths, each settled alone, with the whole
// diff made later only if relocation needs it.
// One thread's: the main thread's, or in a batch of pairs of commits a pool task's, over its
// reader (resolve.cpp). The pool's tasks (read_ahead.hpp) read a pair's Diff but never change
// it; a pair is never removed while they may run (~Pairs waits for them).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "context_pack/core/line_map.hpp"
#include "context_pack/core/result.hpp"
#include "context_pack/git/repository.hpp"
#include "context_pack/model/spec.hpp"
#include "context_pack/resolve/content.hpp"

namespace cp {

class ReadAhead;
struct StartedSpec;

struct ChangedLines;

struct Pair {
    Pair(std::string b, std::optional<std::string> t, git::Diff d)
        : base(std::move(b)), target(std::move(t)), diff(std::move(d)) {}
    std::string base;
    std::optional<std::string> target;         // nullopt: the working tree
    git::Diff diff;                            // partial when settled path by path
    std::map<std::string, git::Hunks> hunks;   // by base path
    std::map<std::string, LineMap> line_maps;  // by base path, made for TOUCHED anchors
    std::optional<git::Diff> whole;  // when `diff` is partial or its renames restricted, and
                                     // the whole one is needed
    // Relocation's index of the changed files' lines (relocation.hpp), made when a block is
    // first looked for in the pair.
    std::shared_ptr<ChangedLines> changed_lines;
};

// The key of a pair in the caches: "base:target" or "base:worktree".
std::string pair_key(const std::string& base, const std::optional<std::string>& target);

// The anchored base paths of every started spec, by pair key, sorted: the only paths whose
// renames the pair's diff looks for (git::Repository::diff's rename_sources), which spares
// scoring every other deleted file against every added one. A pair no spec starts on (one
// that --since asks for) has none, and gets the whole detection. Made once for the batch;
// read, never changed, by every thread that resolves pairs.
using RenameSources = std::map<std::string, std::vector<std::string>>;
RenameSources rename_sources_of(const std::vector<Spec>& specs,
                                const std::vector<StartedSpec>& starts);

class Pairs {
  public:
    // `ahead` gives the diffs and hunks the pool made; it and `sources` must outlive the pairs.
    Pairs(const git::Repository& repo, Content& content, ReadAhead& ahead,
          const RenameSources& sources)
        : repo_(repo), content_(content), ahead_(ahead), rename_sources_(sources) {}
    ~Pairs();  // waits for the pool's tasks, which read the pairs' diffs

    bool has(const std::string& key) const { return pairs_.count(key) > 0; }

    // The rename sources of a pair key (rename_sources_of); null for none.
    const std::vector<std::string>* rename_sources(const std::string& key) const;

    // The pair, its diff made (or taken from the pool) the first time it is asked for.
    // `sources`: for a pair no spec starts on (one following asks for), the base paths whose
    // renames are wanted, instead of every deleted path's.
    Result<Pair*> get(const std::string& base, const std::optional<std::string>& target,
                      const std::vector<std::string>* sources = nullptr);

    // Gives up the pair (its diffs, its hunks, what the pool still does for it) once every
    // spec on it is resolved; asked for again, it is made again.
    void release(const std::string& base, const std::optional<std::string>& target);

    // The pair's diff where it answers a lookup of `path` as the whole diff would
    // (git::Diff::answers_for), else the whole diff, made once.
    Result<const git::Diff*> diff_for(Pair& p, std::string_view path);

    // Every (base, working tree) pair whose anchored paths can each be settled alone gets a
    // partial diff of them (git::Repository::worktree_diff_of): its cost follows the anchors,
    // not the size of the tree, and its answers are the whole diff's. Any other pair gets the
    // whole diff when it is first needed.
    Result<Unit> settle_paths_alone(const std::vector<Spec>& specs,
                                    const std::vector<StartedSpec>& starts);

    // A diff of every changed path of a pair whose own may be partial (see
    // settle_paths_alone); its renames may be restricted, which changes no path it lists.
    Result<const git::Diff*> whole_diff(Pair& p);

    // The hunks of a changed path, made once (or taken from the pool). `old_bytes`: the base
    // blob, when the caller holds it.
    Result<const git::Hunks*> hunks_for(Pair& p, const git::Delta& delta,
                                        const std::string* old_bytes = nullptr);

    // `git rev-list --first-parent tip ^base` (git::Repository::first_parents, at most
    // kMaxLineCommits), walked once for following and relocation alike.
    static constexpr std::size_t kMaxLineCommits = 100000;
    Result<const git::FirstParents*> first_parents(const std::string& base, const std::string& tip);

  private:
    // The pair's `whole` diff (every path, renames from every deleted one), made once.
    Result<const git::Diff*> made_whole(Pair& p);

    const git::Repository& repo_;
    Content& content_;
    ReadAhead& ahead_;
    std::map<std::string, std::unique_ptr<Pair>> pairs_;                      // by pair_key
    std::map<std::pair<std::string, std::string>, git::FirstParents> lines_;  // (base, tip)
    const RenameSources& rename_sources_;
};

}  // namespace cp
