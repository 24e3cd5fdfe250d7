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
    auto tree_of = [&](const git_oid& id) -> Result<const git_tree*> {
        auto it = trees_->by_id.find(id);
        if (it == trees_->by_id.end()) {
            TreeHandle t;
            if (git_tree_lookup(t.out(), repo_.get(), &id) < 0)
                return failure(fmt::format("cannot read tree {}", text::short_oid(hex(&id))));
            it = trees_->by_id.emplace(id, std::move(t)).first;
        }
        return it->second.get();
    };
    auto root_id = trees_->root_of.find(commit);
    if (root_id == trees_->root_of.end()) {
        TreeHandle root;
        if (auto r = read_commit_tree(repo_.get(), commit, root); !r) return r.error();
        git_oid id = *git_tree_id(root.get());
        trees_->by_id.try_emplace(id, std::move(root));
        root_id = trees_->root_of.emplace(commit, id).first;
    }
    auto root = tree_of(root_id->second);
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
        auto sub = tree_of(*git_tree_entry_id(e));
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

Result<Unit> diff_trees(git_repository* repo, const git_tree* a, const git_tree* b,
                        const std::string& prefix, std::vector<Delta>& out);

// Every file under a tree that one side lacks, as added or deleted.
Result<Unit> one_side(git_repository* repo, const git_tree_entry* e, const std::string& path,
                      bool added, std::vector<Delta>& out) {
    auto mode = git_tree_entry_filemode(e);
    if (mode == GIT_FILEMODE_COMMIT) return Unit{};  // submodules are not followed
    if (mode == GIT_FILEMODE_TREE) {
        TreeHandle t;
        if (git_tree_lookup(t.out(), repo, git_tree_entry_id(e)) < 0)
            return failure(fmt::format("cannot read tree {}", path));
        return added ? diff_trees(repo, nullptr, t.get(), path + "/", out)
                     : diff_trees(repo, t.get(), nullptr, path + "/", out);
    }
    Delta d;
    d.change = added ? Change::Added : Change::Deleted;
    d.old_path = d.new_path = path;
    (added ? d.new_oid : d.old_oid) = hex(git_tree_entry_id(e));
    (added ? d.new_kind : d.old_kind) = kind_of(mode);
    out.push_back(std::move(d));
    return Unit{};
}

// The name-level diff of two trees (either may be null: empty), recursing only into
// subtrees whose ids differ.
Result<Unit> diff_trees(git_repository* repo, const git_tree* a, const git_tree* b,
                        const std::string& prefix, std::vector<Delta>& out) {
    std::size_t na = a ? git_tree_entrycount(a) : 0, nb = b ? git_tree_entrycount(b) : 0;
    for (std::size_t i = 0, j = 0; i < na || j < nb;) {
        const git_tree_entry* x = i < na ? git_tree_entry_byindex(a, i) : nullptr;
        const git_tree_entry* y = j < nb ? git_tree_entry_byindex(b, j) : nullptr;
        int c = !x ? 1 : !y ? -1 : tree_order(x, y);
        if (c < 0) {
            if (auto r = one_side(repo, x, prefix + git_tree_entry_name(x), false, out); !r)
                return r;
            ++i;
            continue;
        }
        if (c > 0) {
            if (auto r = one_side(repo, y, prefix + git_tree_entry_name(y), true, out); !r)
                return r;
            ++j;
            continue;
        }
        ++i, ++j;
        auto mx = git_tree_entry_filemode(x), my = git_tree_entry_filemode(y);
        if (mx == my && git_oid_equal(git_tree_entry_id(x), git_tree_entry_id(y))) continue;
        std::string path = prefix + git_tree_entry_name(x);
        bool tx = mx == GIT_FILEMODE_TREE, ty = my == GIT_FILEMODE_TREE;
        if (tx && ty) {
            TreeHandle ta, tb;
            if (git_tree_lookup(ta.out(), repo, git_tree_entry_id(x)) < 0 ||
                git_tree_lookup(tb.out(), repo, git_tree_entry_id(y)) < 0)
                return failure(fmt::format("cannot read tree {}", path));
            if (auto r = diff_trees(repo, ta.get(), tb.get(), path + "/", out); !r) return r;
            continue;
        }
        if (tx || ty || (mx == GIT_FILEMODE_COMMIT) != (my == GIT_FILEMODE_COMMIT)) {
            // A directory or submodule became a file, or the other way round.
            if (auto r = one_side(repo, x, path, false, out); !r) return r;
            if (auto r = one_side(repo, y, path, true, out); !r) return r;
            continue;
        }
        if (mx == GIT_FILEMODE_COMMIT || my == GIT_FILEMODE_COMMIT) continue;  // submodules
        Delta d;
        d.old_path = d.new_path = path;
        d.old_oid = hex(git_tree_entry_id(x));
        d.new_oid = hex(git_tree_entry_id(y));
        d.old_kind = kind_of(mx);
        d.new_kind = kind_of(my);
        d.change = d.old_kind == d.new_kind ? Change::Modified : Change::TypeChanged;
        out.push_back(std::move(d));
    }
    return Unit{};
}

}  // namespace

Result<std::vector<Delta>> commit_deltas(const Repository& objects, const git_tree* base_tree,
                                         const std::string& target) {
    TreeHandle target_tree;
    if (auto r = read_commit_tree(raw_handle(objects), target, target_tree); !r) return r.error();
    std::vector<Delta> deltas;
    if (auto r = diff_trees(raw_handle(objects), base_tree, target_tree.get(), "", deltas); !r)
        return r.error();
    return deltas;
}

Result<std::vector<TrackedFile>> Repository::tracked_files(
    const std::optional<std::string>& target) const {
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
    TreeHandle tree;
    if (auto r = read_commit_tree(repo_.get(), *target, tree); !r) return r.error();
    int rc = git_tree_walk(
        tree.get(), GIT_TREEWALK_PRE,
        [](const char* root, const git_tree_entry* entry, void* payload) {
            auto mode = git_tree_entry_filemode(entry);
            if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE) return 0;
            static_cast<std::vector<TrackedFile>*>(payload)->push_back(
                {std::string(root) + git_tree_entry_name(entry), hex(git_tree_entry_id(entry))});
            return 0;
        },
        &files);
    if (rc < 0) return failure("cannot walk the target's tree");
    return files;
}

Result<Unit> Repository::read_tracked(const std::vector<TrackedFile>& files, std::size_t begin,
                                      std::size_t end, const FileVisitor& visit,
                                      const Repository* reader) const {
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
        if (git_odb_read_header(&size, &type, odb.get(), &oid) == 0 && size > max_file_bytes_)
            continue;  // over the size limit: not read
        BlobHandle blob;
        if (git_blob_lookup(blob.out(), objects.repo_.get(), &oid) < 0)
            return failure(fmt::format("cannot read {}", f.path));
        visit(f.path, std::string_view(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                                       static_cast<std::size_t>(git_blob_rawsize(blob.get()))));
    }
    return Unit{};
}

Result<Unit> Repository::for_each_tracked_file(const std::optional<std::string>& target,
                                               const FileVisitor& visit) const {
    auto files = tracked_files(target);
    if (!files) return files.error();
    return read_tracked(files.value(), 0, files->size(), visit);
}

}  // namespace cp::git
