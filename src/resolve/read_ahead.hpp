// The pool's head start (--jobs): before resolution, the pool makes every pair of commits' name
// diff and the working tree's staged half, reads the base blobs the anchors' checks read, and
// reads and diffs each anchored path. Resolution takes each result where it would have made it
// (diff, collect_blob, collect_hunks); whatever was skipped or failed it makes, and reports,
// itself with the same functions, so the report never depends on the pool. Without a pool
// nothing is queued and every taker makes its result on the spot.
// Threads: every method here is called on the main thread. The tasks it queues run on pool
// threads and read only through their thread's reader handle, blobs and trees, or a pair's
// Diff (const); files, filters and attributes stay on the main thread.
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
struct StartedSpec;

class ReadAhead {
  public:
    // `pool`: null for no head start.
    ReadAhead(const git::Repository& repo, Content& content, Pool* pool)
        : repo_(repo), content_(content), pool_(pool) {}
    ~ReadAhead() { wait(); }

    // Queues the pairs' diffs, then for each anchor the xdiff of its path (both blobs read on
    // the pool at a commit target; a working-tree file is read here, through the filters) or
    // the base blob its checks read. Makes the pairs, as their deltas say what to queue.
    void start(const std::vector<Spec>& specs, const std::vector<StartedSpec>& starts,
               Pairs& pairs);

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

    void queue_diff(const StartedSpec& s, const Spec& spec, Pairs& pairs);
    void schedule(Pair& p, const Anchor& a);
    void read_blob(const std::string& oid);  // as Content::blob reads it

    const git::Repository& repo_;
    Content& content_;
    Pool* pool_;
    std::map<std::string, std::future<Result<git::Diff>>> diffs_;            // by pair key
    std::map<std::string, std::future<Result<git::StagedChanges>>> staged_;  // by pair key
    // By blob id; nullopt: over the size limit.
    std::map<std::string, std::future<Result<std::optional<std::string>>>> reads_;
    std::map<std::pair<const Pair*, std::string>, std::future<Fetched>> hunks_;  // by base path
};

}  // namespace cp
