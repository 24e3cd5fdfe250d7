// The rename step of Repository::diff: a name-level diff's deleted and added paths handed to
// rename.hpp (git's diffcore-rename), which reads their content lazily through RenameFiles,
// and the pairs it finds made into renamed deltas.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "context_pack/core/text.hpp"
#include "context_pack/git/rename.hpp"
#include "context_pack/sys/fs.hpp"
#include "diff_steps.hpp"

namespace cp::git {
namespace {

// What a candidate's blob is, for what the store says of it: "of a.c at base".
std::string of(const Delta& d, bool source) {
    return fmt::format("of {} at {}", text::printable(source ? d.old_path : d.new_path),
                       source ? "base" : "target");
}

// A rename candidate whose blob the store did not give, as the diff keeps it (see Unread).
Unread unread_blob(const Repository& repo, const Delta& d, bool source, const Error& error) {
    Unread u;
    u.path = source ? d.old_path : d.new_path;
    u.at_base = source;
    u.oid = source ? d.old_oid : d.new_oid;
    u.problem = error.message;
    if (error.object == Error::Object::Missing) u.fetch_from = repo.promisor_remote();
    return u;
}

// What rename detection reads: blobs at base for sources, blobs or converted working-tree
// files for targets, each at most once. A blob the store does not give is kept in `unread`.
class RenameFiles : public rename::Files {
  public:
    RenameFiles(const Repository& repo, bool worktree, std::vector<Unread>& unread)
        : repo_(repo), worktree_(worktree), unread_(unread) {}

    // The candidates of the next detection, and the blob sizes known of them.
    void use(const std::vector<const Delta*>& sources, const std::vector<const Delta*>& targets,
             const std::map<const Delta*, std::uint64_t>& sizes) {
        sources_ = &sources;
        targets_ = &targets;
        sizes_ = &sizes;
    }

    std::string content_id(rename::Side side, std::size_t i) override {
        if (side == rename::Side::Source) return (*sources_)[i]->old_oid;
        if (!worktree_) return (*targets_)[i]->new_oid;
        auto b = bytes(side, i);
        git_oid oid;
        if (git_odb_hash(&oid, b.data(), b.size(), GIT_OBJECT_BLOB) < 0) {
            remember(failure("cannot hash a working-tree file"));
            return {};
        }
        return hex(&oid);
    }

    // A blob's size is its header's, measured when the candidates were listed: the size test
    // that comes before any scoring reads no content. A working-tree file's is that of its
    // bytes as git would store them.
    std::uint64_t size(rename::Side side, std::size_t i) override {
        bool source = side == rename::Side::Source;
        const Delta* d = source ? (*sources_)[i] : (*targets_)[i];
        if (auto it = sizes_->find(d); it != sizes_->end()) return it->second;
        return bytes(side, i).size();
    }

    std::string_view bytes(rename::Side side, std::size_t i) override {
        bool source = side == rename::Side::Source;
        const Delta& d = source ? *(*sources_)[i] : *(*targets_)[i];
        auto& slot = bytes_[source ? 0 : 1][&d];
        if (!slot) {
            if (!source && worktree_) {
                auto file = repo_.read_worktree_as_stored(d.new_path);
                if (!file) remember(file.error());
                slot = file && file.value() ? *file.value() : std::string();
            } else {
                auto blob = repo_.blob(source ? d.old_oid : d.new_oid, of(d, source));
                if (!blob && blob.error().unreadable_object())
                    unread_.push_back(unread_blob(repo_, d, source, blob.error()));
                else if (!blob)
                    remember(blob.error());
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
    bool worktree_;
    std::vector<Unread>& unread_;
    const std::vector<const Delta*>* sources_ = nullptr;
    const std::vector<const Delta*>* targets_ = nullptr;
    const std::map<const Delta*, std::uint64_t>* sizes_ = nullptr;
    std::map<const Delta*, std::optional<std::string>> bytes_[2];
    std::optional<Error> error_;
};

// The deltas that take part in rename detection, each list in path order, and the sizes of
// their blobs, read from the objects' headers.
struct RenameCandidates {
    std::vector<const Delta*> sources, targets;
    std::map<const Delta*, std::uint64_t> sizes;
};

// Deleted paths are rename sources, added and untracked ones targets, in path order.
// Submodules and files over the size limit take no part: detection would read them whole.
// A blob whose size the store does not give is kept in `unread`, and stays a candidate for
// exact renames, which need only its id.
Result<RenameCandidates> rename_candidates(const Repository& repo, const Repository& objects,
                                           const std::vector<Delta>& deltas, bool worktree,
                                           std::vector<Unread>& unread) {
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
            auto st = sys::lstat(repo.workdir() + d->new_path);
            return !(st && st->size > max);
        }
        auto size = objects.blob_size(source ? d->old_oid : d->new_oid, of(*d, source));
        if (!size && size.error().unreadable_object()) {
            unread.push_back(unread_blob(objects, *d, source, size.error()));
            return true;
        }
        if (!size) return size.error();
        c.sizes.emplace(d, size.value());
        return size.value() <= max;
    };
    if (sources.empty() || targets.empty()) return RenameCandidates{};  // nothing to pair
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
                                  std::vector<Delta> deltas, bool worktree,
                                  std::vector<Unread>& unread,
                                  const std::vector<std::string>* only) {
    auto candidates = rename_candidates(repo, objects, deltas, worktree, unread);
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
    if (only) {
        std::vector<std::size_t> listed;
        for (std::size_t s = 0; s < sources.size(); ++s)
            if (std::binary_search(only->begin(), only->end(), sources[s]->old_path))
                listed.push_back(s);
        if (listed.empty()) return PairedDeltas{std::move(deltas), std::nullopt};
        options.only_sources = std::move(listed);
    }
    if (!sources.empty() && !targets.empty()) {
        auto limit = rename_limit(objects);
        if (!limit) return limit.error();
        options.limit = limit.value();
    }
    RenameFiles files(objects, worktree, unread);
    files.use(sources, targets, candidates->sizes);
    rename::Detection detection;
    if (unread.empty()) {
        detection = rename::detect_renames(source_names, target_names, files, options);
        if (files.error()) return *files.error();
    }
    if (!unread.empty()) {
        // Content the store did not give: a partner by content may lie in it, so renames are
        // found by id alone, which reads nothing, and the diff says what it could not read.
        options.minimum_score = rename::kMaxScore;
        detection = rename::detect_renames(source_names, target_names, files, options);
        if (files.error()) return *files.error();
    }
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
