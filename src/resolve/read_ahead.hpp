// The pool's head start (--jobs): a few pairs ahead of resolution, the pool makes each pair of
// commits' name diff and the working tree's staged half; for the pair being resolved and the
// next it reads the base blobs the anchors' checks read, and reads and diffs each anchored
// path. Resolution takes each result where it would have made it (diff, collect_blob,
// collect_hunks); whatever was skipped or failed it makes, and reports, itself with the same
// functions, so the report never depends on the pool. Without a pool nothing is queued and
// every taker makes its result on the spot. Working a few pairs ahead, not the whole batch,
// keeps in memory what those pairs need.
// Threads: every method here is called on the thread that resolves (the main thread; a pool
// task that resolves a pair of commits whole has a ReadAhead without a pool). The tasks it
// queues run on pool threads and read only through their thread's reader handle, blobs and
// trees, or a pair's Diff (const); files, filters and attributes stay on the main thread.
#pragma once

#include <future>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "context_pack/core/result.hpp"
#include "context_pack/git/repository.hpp"
#include "context_pack/model/spec.hpp"
#include "context_pack/resolve/content.hpp"
#include "context_pack/resolve/pool.hpp"

namespace cp {

struct Pair;
class Pairs;

// The specs resolved together: those on one pair, or one spec whose revisions did not resolve
// (no pair). resolve() takes the groups in the order their first spec comes.
struct PairGroup {
    std::vector<std::size_t> specs;  // indices into the specs, in input order
    bool has_pair = false;
    std::string base;                   // the pair's, when it has one
    std::optional<std::string> target;  // nullopt: the working tree
};

class ReadAhead {
  public:
    // `pool`: null for no head start.
    ReadAhead(const git::Repository& repo, Content& content, Pool* pool)
        : repo_(repo), content_(content), pool_(pool) {}
    ~ReadAhead() { wait(); }

    // The groups in the order resolution takes them; the specs, groups and pairs outlive this.
    void plan(const std::vector<Spec>& specs, const std::vector<PairGroup>& groups, Pairs& pairs);
    // Before group `g` is resolved: queues the diffs of the
    // groups up to a few ahead, then for each anchor of this group and the next the xdiff of
    // its path (both blobs read on the pool at a commit target; a working-tree file is read
    // here, through the filters) or the base blob its checks read. Makes those groups' pairs,
    // as their deltas say what to queue.
    void advance(std::size_t g);
    // Waits for what the pool still does for the pair and drops it: its hunks, and the blobs
    // read for it, which go into the content cache. Before the pair is destroyed.
    void release(const Pair& p);

    // The pair's name diff: the pool's if it made one, else made here.
    // `rename_sources`: as Repository::diff takes them (Pairs::rename_sources).
    Result<git::Diff> diff(const std::string& base, const std::optional<std::string>& target,
                           const std::vector<std::string>* rename_sources);
    // Moves a blob the pool read into the content cache. A failure is left for Content::blob
    // to meet and report.
    void collect_blob(const std::string& oid);
    // Moves the pool's hunks for a delta into the pair, and the blobs read for them into the
    // content cache. A failure is left for Pairs::hunks_for to meet and report.
    void collect_hunks(Pair& p, const git::Delta& delta);

    // Until every queued task has run or been dropped: the tasks read the pairs' diffs.
    void wait();

  private:
    // The pool's result for one anchored path: its hunks, and the blobs it read for them.
    struct Fetched {
        std::optional<git::HunkInput> sides;
        Result<git::Hunks> hunks;
    };

    void queue_diff(const PairGroup& group, const Spec& spec);
    void schedule(Pair& p, const Anchor& a);
    // As Content::blob reads it; `key`: the pair it is read for (release drops it).
    void read_blob(const std::string& oid, const std::string& key);

    const git::Repository& repo_;
    Content& content_;
    Pool* pool_;
    const std::vector<Spec>* specs_ = nullptr;
    const std::vector<PairGroup>* groups_ = nullptr;
    Pairs* pairs_ = nullptr;
    std::size_t diffs_queued_ = 0;                                 // groups whose diffs are queued
    std::size_t scheduled_ = 0;                                    // groups whose reads are queued
    std::map<std::string, std::vector<std::string>> reads_for_;    // pair key -> blob ids
    std::map<std::string, std::future<Result<git::Diff>>> diffs_;  // by pair key
    std::map<std::string, std::future<Result<git::StagedChanges>>> staged_;  // by pair key
    // By blob id; nullopt: over the size limit.
    std::map<std::string, std::future<Result<std::optional<std::string>>>> reads_;
    std::map<std::pair<const Pair*, std::string>, std::future<Fetched>> hunks_;  // by base path
};

}  // namespace cp
