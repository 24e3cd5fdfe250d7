// The rename step of Repository::diff: a name-level diff's deleted and added paths handed to
// rename.hpp (git's diffcore-rename), which reads their content lazily through RenameFiles,
// and the pairs it finds made into renamed deltas.
#include <sys/stat.h>

#include <algorithm>
#include <optional>

#include "context_pack/git/rename.hpp"
#include "diff_steps.hpp"

namespace cp::git {
namespace {

// What rename detection reads: blobs at base for sources, blobs or converted working-tree
// files for targets, each at most once.
class RenameFiles : public rename::Files {
  public:
    RenameFiles(const Repository& repo, const std::vector<const Delta*>& sources,
                const std::vector<const Delta*>& targets, bool worktree)
        : repo_(repo),
          sources_(sources),
          targets_(targets),
          worktree_(worktree),
          bytes_{std::vector<std::optional<std::string>>(sources.size()),
                 std::vector<std::optional<std::string>>(targets.size())} {}

    std::string content_id(rename::Side side, std::size_t i) override {
        if (side == rename::Side::Source) return sources_[i]->old_oid;
        if (!worktree_) return targets_[i]->new_oid;
        auto b = bytes(side, i);
        git_oid oid;
        if (git_odb_hash(&oid, b.data(), b.size(), GIT_OBJECT_BLOB) < 0) {
            remember(failure("cannot hash a working-tree file"));
            return {};
        }
        return hex(&oid);
    }

    std::uint64_t size(rename::Side side, std::size_t i) override { return bytes(side, i).size(); }

    std::string_view bytes(rename::Side side, std::size_t i) override {
        bool source = side == rename::Side::Source;
        auto& slot = bytes_[source ? 0 : 1][i];
        if (!slot) {
            const Delta& d = source ? *sources_[i] : *targets_[i];
            if (!source && worktree_) {
                auto file = repo_.read_worktree_as_stored(d.new_path);
                if (!file) remember(file.error());
                slot = file && file.value() ? *file.value() : std::string();
            } else {
                auto blob = repo_.blob(source ? d.old_oid : d.new_oid);
                if (!blob) remember(blob.error());
                slot = blob ? blob.value() : std::string();
            }
        }
        return *slot;
    }

    const std::optional<Error>& error() const { return error_; }

  private:
    void remember(Error e) {
        if (!error_) error_ = std::move(e);
    }

    const Repository& repo_;
    const std::vector<const Delta*>& sources_;
    const std::vector<const Delta*>& targets_;
    bool worktree_;
    std::vector<std::optional<std::string>> bytes_[2];
    std::optional<Error> error_;
};

// The deltas that take part in rename detection, each list in path order.
struct RenameCandidates {
    std::vector<const Delta*> sources, targets;
};

// Deleted paths are rename sources, added and untracked ones targets, in path order.
// Submodules and files over the size limit take no part: detection would read them whole.
Result<RenameCandidates> rename_candidates(const Repository& repo, const Repository& objects,
                                           const std::vector<Delta>& deltas, bool worktree) {
    RenameCandidates c;
    std::vector<const Delta*>& sources = c.sources;
    std::vector<const Delta*>& targets = c.targets;
    for (const Delta& d : deltas) {
        if (d.change == Change::Deleted) sources.push_back(&d);
        if (d.change == Change::Added && d.new_kind != EntryKind::Directory) targets.push_back(&d);
    }
    auto by_old = [](const Delta* a, const Delta* b) { return a->old_path < b->old_path; };
    auto by_new = [](const Delta* a, const Delta* b) { return a->new_path < b->new_path; };
    std::sort(sources.begin(), sources.end(), by_old);
    std::sort(targets.begin(), targets.end(), by_new);
    const std::uint64_t max = repo.max_file_bytes();
    auto small = [&](const Delta* d, bool source) -> Result<bool> {
        if (!source && worktree) {
            struct stat st {};
            return !(::lstat((repo.workdir() + d->new_path).c_str(), &st) == 0 &&
                     std::uint64_t(st.st_size) > max);
        }
        auto size = objects.blob_size(source ? d->old_oid : d->new_oid);
        if (!size) return size.error();
        return size.value() <= max;
    };
    for (auto* list : {&sources, &targets}) {
        std::vector<const Delta*> kept;
        for (const Delta* d : *list) {
            if (d->old_kind == EntryKind::Submodule || d->new_kind == EntryKind::Submodule)
                continue;
            auto ok = small(d, list == &sources);
            if (!ok) return ok.error();
            if (ok.value()) kept.push_back(d);
        }
        *list = std::move(kept);
    }
    return c;
}

// git's diff.renameLimit: the default 1000 when unset, no limit at 0 or below. Read through
// the handle that reads the objects: a commit diff's may be another thread's reader.
Result<std::size_t> rename_limit(const Repository& repo) {
    Handle<git_config, git_config_free> config;
    if (git_repository_config_snapshot(config.out(), raw_handle(repo)) < 0)
        return failure("cannot read the repository's configuration");
    auto limit = config_int(config.get(), "diff.renameLimit", rename::kDefaultLimit);
    if (!limit)
        return Error{
            "diff.renameLimit is not an integer, and git refuses it too; fix it with git config "
            "diff.renameLimit 1000"};
    return *limit > 0 ? std::size_t(*limit) : 0;
}

}  // namespace

Result<PairedDeltas> pair_renames(const Repository& repo, const Repository& objects,
                                  std::vector<Delta> deltas, bool worktree) {
    auto candidates = rename_candidates(repo, objects, deltas, worktree);
    if (!candidates) return candidates.error();
    const std::vector<const Delta*>& sources = candidates->sources;
    const std::vector<const Delta*>& targets = candidates->targets;
    std::vector<rename::Candidate> source_names, target_names;
    for (const Delta* d : sources)
        source_names.push_back({d->old_path, d->old_kind == EntryKind::File});
    for (const Delta* d : targets)
        target_names.push_back({d->new_path, d->new_kind == EntryKind::File});
    // The limit is read only when there is something to pair, so that a diff without renames
    // (or settled path by path) does not depend on it.
    rename::Options options;
    if (!sources.empty() && !targets.empty()) {
        auto limit = rename_limit(objects);
        if (!limit) return limit.error();
        options.limit = limit.value();
    }
    RenameFiles files(objects, sources, targets, worktree);
    auto detection = rename::detect_renames(source_names, target_names, files, options);
    if (files.error()) return *files.error();
    const std::vector<rename::Pair>& pairs = detection.pairs;

    PairedDeltas paired_deltas;
    paired_deltas.skipped = detection.skipped;
    std::vector<Delta>& out = paired_deltas.deltas;
    std::vector<bool> paired(deltas.size());
    for (const rename::Pair& p : pairs) {
        const Delta& from = *sources[p.source];
        const Delta& to = *targets[p.target];
        Delta renamed = from;
        renamed.change = from.old_path == to.new_path ? Change::Modified : Change::Renamed;
        renamed.new_path = to.new_path;
        renamed.new_oid = to.new_oid;
        renamed.new_kind = to.new_kind;
        renamed.untracked = to.untracked;
        renamed.similarity = p.score * 100 / rename::kMaxScore;
        paired[static_cast<std::size_t>(&from - deltas.data())] = true;
        paired[static_cast<std::size_t>(&to - deltas.data())] = true;
        out.push_back(std::move(renamed));
    }
    for (std::size_t i = 0; i < deltas.size(); ++i)
        if (!paired[i]) out.push_back(std::move(deltas[i]));
    return paired_deltas;
}

}  // namespace cp::git
