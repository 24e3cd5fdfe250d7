// The commit tree walk: a path's entry at a commit (through the tree cache), the name-level
// diff of two commits that reads only the subtrees whose ids differ, and the files a target
// tracks.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "caches.hpp"
#include "context_pack/core/text.hpp"
#include "diff_steps.hpp"

namespace cp::git {

Result<PathLookup> Repository::lookup(const std::string& commit, std::string_view path) const {
    // `dir`: the tree's path, for what the store says of it when it cannot give it.
    auto tree_of = [&](const git_oid& id, std::string_view dir) -> Result<const git_tree*> {
        auto it = trees_->by_id.find(id);
        if (it == trees_->by_id.end()) {
            TreeHandle t;
            if (int rc = git_tree_lookup(t.out(), repo_.get(), &id); rc < 0)
                return unreadable(*this, rc, "tree", id, "of " + text::printable(dir)).error;
            it = trees_->by_id.emplace(id, std::move(t)).first;
        }
        return it->second.get();
    };
    // Past kMaxTrees the trees kept are all given up (none is in use between lookups): a
    // batch over many pairs keeps the trees of the pairs it is on, not every tree it read.
    if (trees_->by_id.size() > kMaxTrees) {
        trees_->by_id.clear();
        trees_->root_of.clear();
    }
    auto root_id = trees_->root_of.find(commit);
    if (root_id == trees_->root_of.end()) {
        TreeHandle root;
        if (auto r = read_commit_tree(*this, commit, root); !r) return r.error();
        git_oid id = *git_tree_id(root.get());
        trees_->by_id.try_emplace(id, std::move(root));
        root_id = trees_->root_of.emplace(commit, id).first;
    }
    auto root = tree_of(root_id->second, "commit " + text::short_oid(commit));
    if (!root) return root.error();
    PathLookup out;
    const git_tree* tree = root.value();
    std::size_t pos = 0;
    for (;;) {
        auto slash = path.find('/', pos);
        std::string name(
            path.substr(pos, slash == std::string_view::npos ? path.npos : slash - pos));
        const git_tree_entry* e = git_tree_entry_byname(tree, name.c_str());
        if (!e) return out;
        auto kind = kind_of(git_tree_entry_filemode(e));
        if (slash == std::string_view::npos) {
            out.entry = Entry{kind, hex(git_tree_entry_id(e)),
                              git_tree_entry_filemode(e) == GIT_FILEMODE_BLOB_EXECUTABLE};
            return out;
        }
        if (kind != EntryKind::Directory) {
            if (kind == EntryKind::File) return out;  // a file where a directory was expected
            out.blocked_by = std::string(path.substr(0, slash));
            out.blocked_kind = kind;
            return out;
        }
        auto sub = tree_of(*git_tree_entry_id(e), path.substr(0, slash));
        if (!sub) return sub.error();
        tree = sub.value();
        pos = slash + 1;
    }
}

namespace {

// git's tree order: names compare bytewise, a tree's name as if it ended in '/'.
int tree_order(const git_tree_entry* a, const git_tree_entry* b) {
    std::string_view x = git_tree_entry_name(a), y = git_tree_entry_name(b);
    std::size_t n = std::min(x.size(), y.size());
    if (int c = std::memcmp(x.data(), y.data(), n)) return c;
    auto next = [n](std::string_view s, const git_tree_entry* e) -> int {
        if (s.size() > n) return static_cast<unsigned char>(s[n]);
        return git_tree_entry_filemode(e) == GIT_FILEMODE_TREE ? '/' : 0;
    };
    return next(x, a) - next(y, b);
}

// A tree as deep as `depth` path components, refused past the limit as git refuses it
// (core.maxTreeDepth): the walks below keep their levels on the heap, never on the stack.
Result<Unit> check_depth(std::size_t depth, std::size_t max_depth, const std::string& path) {
    if (depth <= max_depth) return Unit{};
    return Error{fmt::format(
        "a tree is more than {} directories deep (at {}...); git refuses to walk such trees "
        "(core.maxTreeDepth) and so does this tool: give revisions whose trees are shallower, "
        "or raise the limit with git config core.maxTreeDepth N",
        max_depth, text::printable(path.substr(0, 200)))};
}

// A walk that has passed more than `max_paths` paths, refused: a tree that names one subtree
// many times multiplies its paths (2^k from k trees of two entries): without a bound, 16
// objects making 4^10 paths held a run for a minute and 800 MB, and each level more is 4x.
Result<Unit> check_paths(std::size_t paths, std::size_t max_paths, const std::string& path) {
    if (paths <= max_paths) return Unit{};
    return Error{fmt::format(
        "the trees hold more than {} paths (at {}), as a tree that names the same subtree "
        "many times can (a \"git bomb\"); this tool walks no further: give revisions whose "
        "trees hold fewer files",
        max_paths, text::printable(path.substr(0, 200)))};
}

// One level of the name-level diff: a pair of trees (either null: empty) and how far through
// their entries the walk is.
struct Level {
    TreeHandle owned_a, owned_b;
    const git_tree* a = nullptr;
    const git_tree* b = nullptr;
    std::string prefix;
    std::size_t depth = 0;  // path components of `prefix`
    std::size_t i = 0, j = 0;
};

// The subtree at `path`; `side` (" at base"), for what the store says of it, may be empty.
Result<TreeHandle> tree_of(const Repository& repo, const git_tree_entry* e, const std::string& path,
                           std::string_view side = {}) {
    TreeHandle t;
    if (int rc = git_tree_lookup(t.out(), raw_handle(repo), git_tree_entry_id(e)); rc < 0)
        return unreadable(repo, rc, "tree", *git_tree_entry_id(e),
                          fmt::format("of {}{}", text::printable(path), side))
            .error;
    return t;
}

// A subtree the store did not give, as the diff keeps it (see Unread).
Unread unread_subtree(const Repository& repo, const git_tree_entry* e, const std::string& path,
                      bool at_base, const Error& error) {
    Unread u;
    u.path = path;
    u.subtree = true;
    u.at_base = at_base;
    u.oid = hex(git_tree_entry_id(e));
    u.problem = error.message;
    if (error.object == Error::Object::Missing) u.fetch_from = repo.promisor_remote();
    return u;
}

// A file one side lacks, as added or deleted.
Delta one_side(const git_tree_entry* e, const std::string& path, bool added) {
    Delta d;
    d.change = added ? Change::Added : Change::Deleted;
    d.old_path = d.new_path = path;
    (added ? d.new_oid : d.old_oid) = hex(git_tree_entry_id(e));
    (added ? d.new_kind : d.old_kind) = kind_of(git_tree_entry_filemode(e));
    return d;
}

// Both sides of a path whose entries differ: a file's change, or the level to walk next
// (a subtree on either side, or on both when both are trees). A subtree the store does not
// give is kept in `unread`, and nothing beneath the path is walked on either side.
Result<std::optional<Level>> compare(const Repository& repo, const git_tree_entry* x,
                                     const git_tree_entry* y, const std::string& path,
                                     std::vector<Delta>& out, std::vector<Unread>& unread) {
    auto mx = x ? git_tree_entry_filemode(x) : GIT_FILEMODE_UNREADABLE;
    auto my = y ? git_tree_entry_filemode(y) : GIT_FILEMODE_UNREADABLE;
    bool tx = mx == GIT_FILEMODE_TREE, ty = my == GIT_FILEMODE_TREE;
    bool both_files =
        x && y && !tx && !ty && (mx == GIT_FILEMODE_COMMIT) == (my == GIT_FILEMODE_COMMIT);
    if (both_files) {
        if (mx == GIT_FILEMODE_COMMIT) return std::optional<Level>();  // submodules
        Delta d;
        d.old_path = d.new_path = path;
        d.old_oid = hex(git_tree_entry_id(x));
        d.new_oid = hex(git_tree_entry_id(y));
        d.old_kind = kind_of(mx);
        d.new_kind = kind_of(my);
        d.change = d.old_kind == d.new_kind ? Change::Modified : Change::TypeChanged;
        out.push_back(std::move(d));
        return std::optional<Level>();
    }
    // One side only, or a directory or submodule that became a file (or the other way
    // round): the old side's files are deleted, the new side's added; submodules not followed.
    Level next;
    next.prefix = path + "/";
    bool lost = false;
    for (bool base : {true, false}) {
        const git_tree_entry* e = base ? x : y;
        if (!e || (base ? mx : my) == GIT_FILEMODE_COMMIT) continue;
        if (!(base ? tx : ty)) {
            out.push_back(one_side(e, path, !base));
            continue;
        }
        auto t = tree_of(repo, e, path, base ? " at base" : " at target");
        if (!t && !t.error().unreadable_object()) return t.error();
        if (!t) {
            unread.push_back(unread_subtree(repo, e, path, base, t.error()));
            lost = true;
            continue;
        }
        (base ? next.owned_a : next.owned_b) = std::move(t).value();
    }
    if (lost || (!next.owned_a.get() && !next.owned_b.get())) return std::optional<Level>();
    next.a = next.owned_a.get();
    next.b = next.owned_b.get();
    return std::optional<Level>(std::move(next));
}

// The name-level diff of two trees (either may be null: empty), descending only into
// subtrees whose ids differ. The deltas come in walk order; Repository::diff sorts them.
Result<Unit> diff_trees(const Repository& repo, const git_tree* a, const git_tree* b,
                        std::vector<Delta>& out, std::vector<Unread>& unread) {
    const std::size_t max_depth = repo.max_tree_depth();
    const std::size_t max_paths = repo.max_tree_paths();
    std::size_t paths = 0;
    std::vector<Level> stack(1);
    stack[0].a = a;
    stack[0].b = b;
    while (!stack.empty()) {
        Level& level = stack.back();
        std::size_t na = level.a ? git_tree_entrycount(level.a) : 0;
        std::size_t nb = level.b ? git_tree_entrycount(level.b) : 0;
        if (level.i >= na && level.j >= nb) {
            stack.pop_back();
            continue;
        }
        const git_tree_entry* x = level.i < na ? git_tree_entry_byindex(level.a, level.i) : nullptr;
        const git_tree_entry* y = level.j < nb ? git_tree_entry_byindex(level.b, level.j) : nullptr;
        int c = !x ? 1 : !y ? -1 : tree_order(x, y);
        if (c < 0) y = nullptr;
        if (c > 0) x = nullptr;
        level.i += x != nullptr;
        level.j += y != nullptr;
        if (x && y && git_tree_entry_filemode(x) == git_tree_entry_filemode(y) &&
            git_oid_equal(git_tree_entry_id(x), git_tree_entry_id(y)))
            continue;
        std::string path = level.prefix + git_tree_entry_name(x ? x : y);
        if (auto many = check_paths(++paths, max_paths, path); !many) return many;
        std::size_t depth = level.depth + 1;
        auto next = compare(repo, x, y, path, out, unread);
        if (!next) return next.error();
        if (!next.value()) continue;
        if (auto deep = check_depth(depth + 1, max_depth, path); !deep) return deep;
        next.value()->depth = depth;
        stack.push_back(std::move(*next.value()));  // `level` is not used past this point
    }
    return Unit{};
}

}  // namespace

Result<CommitDeltas> commit_deltas(const Repository& objects, const git_tree* base_tree,
                                   const std::string& target) {
    TreeHandle target_tree;
    if (auto r = read_commit_tree(objects, target, target_tree); !r) return r.error();
    CommitDeltas out;
    if (auto r = diff_trees(objects, base_tree, target_tree.get(), out.deltas, out.unread); !r)
        return r.error();
    return out;
}

namespace {

// The regular files of a commit's tree, depth first in tree order (as git_tree_walk's
// pre-order visits them): `on_file(path, entry)` for each, the path in one buffer reused from
// entry to entry, and the levels on the heap (a tree's depth is the repository author's to
// choose). A subtree the store does not give goes to `skip` when given, else is the error.
template <class OnFile>
Result<Unit> walk_files(const Repository& repo, const std::string& commit,
                        const Repository::SkipVisitor& skip, OnFile on_file) {
    TreeHandle tree;
    if (auto r = read_commit_tree(repo, commit, tree); !r) return r.error();
    struct Open {
        TreeHandle owned;
        const git_tree* tree;
        std::size_t prefix;  // the length of its path, with its '/'
        std::size_t next = 0;
    };
    std::vector<Open> stack;
    stack.push_back({TreeHandle(), tree.get(), 0, 0});
    std::string path;
    std::size_t paths = 0;
    while (!stack.empty()) {
        Open& open = stack.back();
        if (open.next >= git_tree_entrycount(open.tree)) {
            stack.pop_back();
            continue;
        }
        const git_tree_entry* e = git_tree_entry_byindex(open.tree, open.next++);
        path.resize(open.prefix);
        path += git_tree_entry_name(e);
        if (auto many = check_paths(++paths, repo.max_tree_paths(), path); !many)
            return many.error();
        auto mode = git_tree_entry_filemode(e);
        if (mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE) {
            on_file(path, e);
            continue;
        }
        if (mode != GIT_FILEMODE_TREE) continue;
        if (auto deep = check_depth(stack.size() + 1, repo.max_tree_depth(), path); !deep)
            return deep.error();
        auto sub = tree_of(repo, e, path);
        if (!sub && skip && sub.error().unreadable_object()) {
            skip(path, sub.error());
            continue;
        }
        if (!sub) return sub.error();
        const git_tree* t = sub.value().get();
        path += '/';
        stack.push_back({std::move(sub).value(), t, path.size(), 0});  // `open` not used after
    }
    return Unit{};
}

}  // namespace

Result<std::vector<TrackedFile>> Repository::tracked_files(const std::optional<std::string>& target,
                                                           const SkipVisitor& skip) const {
    std::vector<TrackedFile> files;
    if (!target) {
        Handle<git_index, git_index_free> index;
        if (git_repository_index(index.out(), repo_.get()) < 0)
            return failure("cannot read the index");
        for (size_t i = 0, n = git_index_entrycount(index.get()); i < n; ++i) {
            const git_index_entry* e = git_index_get_byindex(index.get(), i);
            auto mode = static_cast<git_filemode_t>(e->mode);
            if (mode == GIT_FILEMODE_LINK || mode == GIT_FILEMODE_COMMIT) continue;
            if (!files.empty() && files.back().path == e->path) continue;  // conflict stages
            files.push_back({e->path, {}});
        }
        return files;
    }
    auto walked = walk_files(*this, *target, skip, [&](const std::string& path, const auto* e) {
        files.push_back({path, hex(git_tree_entry_id(e))});
    });
    if (!walked) return walked.error();
    return files;
}

Result<std::unique_ptr<const PathList>> Repository::tracked_paths(const std::string& commit,
                                                                  const SkipVisitor& skip) const {
    auto list = std::make_unique<PathList>();
    std::vector<std::size_t> ends;
    auto walked = walk_files(*this, commit, skip, [&](const std::string& path, const auto*) {
        list->bytes += path;
        ends.push_back(list->bytes.size());
    });
    if (!walked) return walked.error();
    list->paths.reserve(ends.size());
    std::size_t begin = 0;
    for (std::size_t end : ends) {
        list->paths.emplace_back(list->bytes.data() + begin, end - begin);
        begin = end;
    }
    return std::unique_ptr<const PathList>(std::move(list));
}

Result<Unit> Repository::read_tracked(const std::vector<TrackedFile>& files, std::size_t begin,
                                      std::size_t end, const FileVisitor& visit,
                                      const Repository* reader, const SkipVisitor& skip) const {
    const Repository& objects = reader ? *reader : *this;
    OdbHandle odb;
    if (git_repository_odb(odb.out(), objects.repo_.get()) < 0)
        return failure("cannot open the odb");
    for (std::size_t i = begin; i < end; ++i) {
        const TrackedFile& f = files[i];
        if (f.oid.empty()) {  // the working tree's file (this handle's working tree)
            auto bytes = read_worktree(f.path);
            if (!bytes) return bytes.error();
            if (bytes.value()) visit(f.path, *bytes.value());
            continue;
        }
        git_oid oid;
        if (git_oid_fromstr(&oid, f.oid.c_str()) < 0) return failure("bad object id");
        size_t size = 0;
        git_object_t type = GIT_OBJECT_INVALID;
        if (git_odb_read_header(&size, &type, odb.get(), &oid) == 0 &&
            size > settings_.max_file_bytes)
            continue;  // over the size limit: not read
        BlobHandle blob;
        if (int rc = git_blob_lookup(blob.out(), objects.repo_.get(), &oid); rc < 0) {
            Error why = unreadable(objects, rc, "blob", oid, "of " + text::printable(f.path)).error;
            if (!skip || !why.unreadable_object()) return why;
            skip(f.path, why);
            continue;
        }
        visit(f.path, std::string_view(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                                       static_cast<std::size_t>(git_blob_rawsize(blob.get()))));
    }
    return Unit{};
}

Result<Unit> Repository::for_each_tracked_file(const std::optional<std::string>& target,
                                               const FileVisitor& visit,
                                               const SkipVisitor& skip) const {
    auto files = tracked_files(target, skip);
    if (!files) return files.error();
    return read_tracked(files.value(), 0, files->size(), visit, nullptr, skip);
}

}  // namespace cp::git
