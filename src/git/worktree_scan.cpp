#include "context_pack/git/worktree_scan.hpp"

#include <algorithm>
#include <cerrno>
#include <string_view>
#include <utility>

#include "context_pack/sys/fs.hpp"

namespace cp::git {
namespace {

constexpr std::uint32_t kType = 0170000, kFile = 0100000, kLink = 0120000, kGitlink = 0160000;
constexpr std::uint32_t kModeBits = 0777;

// The names in the directory, without "." and ".."; nullopt when unreadable.
std::optional<std::vector<std::string>> list(const sys::Dir& dir) {
    auto entries = dir.list();
    if (!entries) return std::nullopt;
    std::vector<std::string> out;
    out.reserve(entries->size());
    for (auto& e : *entries) out.push_back(std::move(e.name));
    return out;
}

// libgit2 skips an entry named .git in any letter case, at any depth.
bool is_dot_git(std::string_view name) {
    if (name.size() != 4 || name[0] != '.') return false;
    auto lower = [](char c) { return char(c >= 'A' && c <= 'Z' ? c + 32 : c); };
    return lower(name[1]) == 'g' && lower(name[2]) == 'i' && lower(name[3]) == 't';
}

// The mode libgit2's working-tree iterator gives a file: its kind, and for a regular file
// 0755 when the owner may execute it, else 0644.
std::uint32_t canonical_mode(const sys::FileInfo& st) {
    if (st.kind == sys::Kind::symlink) return kLink;
    if (st.kind == sys::Kind::regular) return kFile | (st.owner_executable ? 0755 : 0644);
    return 0;
}

class Scan {
  public:
    Scan(const std::string& root, const IndexFile& index, const ScanRules& rules,
         const ScanHooks& hooks)
        : root_(root), index_(index), rules_(rules), hooks_(hooks) {}

    std::optional<std::vector<ScanChange>> run() {
        for (std::size_t i = 0; i < index_.entries.size(); ++i) {
            const IndexRecord& r = index_.entries[i];
            const IndexEntry& f = r.flags;
            // Entries come sorted by path, each directory's contiguous: the walk needs both.
            if (i > 0 && !(index_.entries[i - 1].path < r.path)) return {};
            if (r.path.empty() || r.path.front() == '/' || r.path.back() == '/' ||
                r.path.find("//") != std::string::npos)
                return {};
            if (f.stage != 0 || f.assume_valid || f.skip_worktree || f.intent_to_add) return {};
            std::uint32_t type = r.mode & kType;
            if (type != kFile && type != kLink && type != kGitlink) return {};  // damage
        }
        if (!sys::has_index_stat_data()) return {};  // libgit2 compares as the platform does
        sys::Dir top = sys::Dir::open(root_);
        if (!top.is_open()) return {};
        if (!tracked(top, "", 0, index_.entries.size())) return {};
        return std::move(out_);
    }

  private:
    // The directory `prefix` (open as `at`) and the index entries [lo, hi) beneath it.
    bool tracked(const sys::Dir& at, const std::string& prefix, std::size_t lo, std::size_t hi) {
        auto names = list(at);
        if (!names) return false;
        std::vector<std::string_view> children;  // tracked names here, in order
        for (std::size_t i = lo; i < hi;) {
            std::string_view rest = std::string_view(index_.entries[i].path).substr(prefix.size());
            auto slash = rest.find('/');
            if (slash == std::string_view::npos) {  // a file here
                children.push_back(rest);
                if (!file(at, std::string(rest), index_.entries[i])) return false;
                ++i;
                continue;
            }
            std::string_view child = rest.substr(0, slash);
            children.push_back(child);
            std::string under = prefix + std::string(child) + "/";
            std::size_t end = i;
            while (end < hi && std::string_view(index_.entries[end].path).starts_with(under)) ++end;
            if (!directory(at, std::string(child), under, i, end)) return false;
            i = end;
        }
        // A name both a file and a directory of the index ("a", "a-b", "a/x"): damage.
        std::sort(children.begin(), children.end());
        if (std::adjacent_find(children.begin(), children.end()) != children.end()) return false;
        for (const std::string& name : *names) {
            if (is_dot_git(name)) continue;
            if (std::binary_search(children.begin(), children.end(), std::string_view(name)))
                continue;
            if (!untracked(at, prefix, name)) return false;
        }
        return true;
    }

    bool directory(const sys::Dir& at, const std::string& name, const std::string& under,
                   std::size_t lo, std::size_t hi) {
        sys::Dir sub = at.dir(name);
        if (!sub.is_open()) {
            if (errno != ENOENT) return false;  // now a file or a symlink, or unreadable
            for (std::size_t i = lo; i < hi; ++i) deleted(index_.entries[i]);
            return true;
        }
        return tracked(sub, under, lo, hi);
    }

    void deleted(const IndexRecord& r) {
        ScanChange c;
        c.kind = ScanChange::Kind::Deleted;
        c.path = r.path;
        c.index = &r;
        out_.push_back(std::move(c));
    }

    // libgit2's maybe_modified for an index entry and the file on disk.
    bool file(const sys::Dir& at, const std::string& name, const IndexRecord& r) {
        auto found = at.stat(name);
        if (!found) {
            if (errno != ENOENT) return false;
            deleted(r);
            return true;
        }
        const sys::FileInfo& st = *found;
        if ((r.mode & kType) == kGitlink)            // a submodule: its directory is never
            return st.kind == sys::Kind::directory;  // walked; with submodules ignored, it is
                                                     // unmodified
        std::uint32_t omode = r.mode, nmode = canonical_mode(st);
        if (nmode == 0) return false;  // a directory or something stranger: a type change
        if ((omode & kType) == kLink && (nmode & kType) == kFile && !rules_.has_symlinks)
            nmode = omode;
        if (!rules_.trust_mode && (nmode & kModeBits) != (omode & kModeBits))
            nmode = (nmode & ~kModeBits) | (omode & kModeBits);
        if ((omode & kType) != (nmode & kType)) return false;

        bool modified = false, uncertain = false;
        const auto size = std::uint32_t(st.size);
        if (omode != nmode || r.size != size) {
            modified = true;
            uncertain = r.size == 0 && size > 0;
        } else if (r.mtime_s != std::uint32_t(st.mtime_s) ||
                   (rules_.nanoseconds && r.mtime_ns != std::uint32_t(st.mtime_ns)) ||
                   (rules_.trust_ctime &&
                    (r.ctime_s != std::uint32_t(st.ctime_s) ||
                     (rules_.nanoseconds && r.ctime_ns != std::uint32_t(st.ctime_ns)))) ||
                   r.ino != std::uint32_t(st.ino) || r.uid != st.uid || r.gid != st.gid ||
                   newer_than_index(st)) {
            modified = uncertain = true;
        }
        if (!modified) return true;
        ScanChange c;
        c.kind = ScanChange::Kind::Modified;
        c.path = r.path;
        c.index = &r;
        c.mode = nmode;
        if (uncertain) {
            auto id = hooks_.blob_id(r.path, nmode);
            if (!id) return false;
            if (omode == nmode && *id == r.id) return true;  // unmodified after all
            c.id = id;
        }
        out_.push_back(std::move(c));
        return true;
    }

    // libgit2's racy-git rule: a file written in the index's own moment may have changed
    // after the index recorded it.
    bool newer_than_index(const sys::FileInfo& st) const {
        if (index_.mtime_s == 0) return false;
        auto index_s = std::int32_t(index_.mtime_s), file_s = std::int32_t(st.mtime_s);
        if (!rules_.nanoseconds) return index_s <= file_s;
        if (index_s != file_s) return index_s < file_s;
        return std::uint32_t(index_.mtime_ns) <= std::uint32_t(st.mtime_ns);
    }

    // A name beneath `prefix` that the index does not hold: a file is untracked unless
    // ignored; a directory that is not ignored is walked for its own untracked files. Each is
    // stat'ed, as libgit2's iterator does: one it may not stat is "unreadable" there, and
    // dropped from the diff.
    bool untracked(const sys::Dir& at, const std::string& prefix, const std::string& name) {
        auto found = at.stat(name);
        if (!found) return errno == ENOENT || errno == EACCES;  // gone meanwhile, or unreadable
        const sys::Kind kind = found->kind;
        if (kind != sys::Kind::regular && kind != sys::Kind::symlink &&
            kind != sys::Kind::directory)
            return true;  // libgit2 skips a fifo, a socket, a device
        std::string path = prefix + name;
        auto ignored = hooks_.ignored(path);
        if (!ignored) return false;
        if (*ignored) return true;
        if (kind != sys::Kind::directory) {
            ScanChange c;
            c.kind = ScanChange::Kind::Untracked;
            c.path = std::move(path);
            c.mode = canonical_mode(*found);
            out_.push_back(std::move(c));
            return true;
        }
        sys::Dir sub = at.dir(name);
        if (!sub.is_open()) return errno == ENOENT;
        if (sub.stat(".git", true)) return false;  // a nested repository
        auto names = list(sub);
        if (!names) return false;
        path += '/';
        for (const std::string& inner : *names) {
            if (is_dot_git(inner)) continue;
            if (!untracked(sub, path, inner)) return false;
        }
        return true;
    }

    const std::string& root_;
    const IndexFile& index_;
    const ScanRules& rules_;
    const ScanHooks& hooks_;
    std::vector<ScanChange> out_;
};

}  // namespace

std::optional<std::vector<ScanChange>> scan_worktree(const std::string& root,
                                                     const IndexFile& index, const ScanRules& rules,
                                                     const ScanHooks& hooks) {
    return Scan(root, index, rules, hooks).run();
}

}  // namespace cp::git
