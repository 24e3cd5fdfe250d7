// libFuzzer target: the commit tree walks of cp::git::Repository, that is the name-level diff
// of two commits (Repository::diff: our walk, then renames), the files a commit tracks
// (tracked_files, for_each_tracked_file) and path lookups, over object graphs that the input
// builds. Trees are written as raw objects, byte for byte, so entries may be unsorted or
// repeated, names odd ('/', '.', '..', '.git', any byte but NUL), modes bogus (100664, 0,
// 170000, unparsable ones), and entries may name missing objects or objects of the wrong
// type; one subtree may be named many times over, so its paths multiply (2^k from k trees).
// The objects go to an in-memory object database (libgit2's mempack) added to a fresh handle
// on a bare repository made once, whose core.maxTreeDepth is 64 and diff.renameLimit 100.
//
// Where every tree a walk reads is well formed (sorted as git sorts, names unique, non-empty
// and without '/'), the answers must be those of a model made here from the same objects
// with name maps: the deltas (renames taken apart into the deletion and addition they
// paired), the files in tree order with their bytes, each lookup; and an error, one line,
// exactly where the model meets a tree that cannot be read, a tree deeper than the limit, a
// walk of more paths than the handle's limit, or a missing blob that rename detection must
// measure. Where a walk reads a tree that is not well formed, any answer will do, but never a
// crash, a leak, a hang or a multi-line error.
#include <git2.h>
#include <git2/sys/mempack.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "context_pack/git/repository.hpp"
#include "libgit2.hpp"  // raw_handle: the mempack goes into the handle's object database

namespace {

using cp::git::Change;
using cp::git::EntryKind;

// The handle's limit on the paths one walk may pass, kept small so that a tree that names one
// subtree many times is refused in milliseconds; and the depth set in the repository's config.
constexpr std::size_t kMaxPaths = 2000;
constexpr int kMaxDepth = 64;
constexpr std::size_t kMaxObjects = 400;

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
    std::fprintf(stderr, "fuzz_tree: %s: %.*s\n", what, static_cast<int>(detail.size()),
                 detail.data());
    std::abort();
}

// The bare repository, made once in a scratch directory that is removed at exit.
const std::string& bare_repository() {
    static const std::string path = [] {
        std::string dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        std::string tmpl = dir + "/fuzz-tree-XXXXXX";
        if (!mkdtemp(tmpl.data())) fail("mkdtemp");
        git_libgit2_init();
        // No configuration but the repository's own: the user's and the system's stay unread.
        for (auto level : {GIT_CONFIG_LEVEL_SYSTEM, GIT_CONFIG_LEVEL_XDG, GIT_CONFIG_LEVEL_GLOBAL,
                           GIT_CONFIG_LEVEL_PROGRAMDATA})
            git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, tmpl.c_str());
        std::string repo = tmpl + "/repo.git";
        git_repository* raw = nullptr;
        if (git_repository_init(&raw, repo.c_str(), 1) < 0) fail("git_repository_init");
        git_config* config = nullptr;
        if (git_repository_config(&config, raw) < 0 ||
            git_config_set_int64(config, "core.maxTreeDepth", kMaxDepth) < 0 ||
            git_config_set_int64(config, "diff.renameLimit", 100) < 0)
            fail("cannot configure the repository");
        git_config_free(config);
        git_repository_free(raw);
        return tmpl;
    }();
    static const bool removed_at_exit = std::atexit([] {
                                            std::error_code ec;
                                            std::filesystem::remove_all(path, ec);
                                        }) == 0;
    (void)removed_at_exit;
    static const std::string repo = path + "/repo.git";
    return repo;
}

struct OidLess {
    bool operator()(const git_oid& a, const git_oid& b) const { return git_oid_cmp(&a, &b) < 0; }
};

std::string hex(const git_oid& id) {
    return cp::git::hex(&id);
}

// libgit2's reading of a tree entry's mode (git_tree_entry_filemode): a directory when the
// type bits say so, else executable when the owner may execute, else a submodule, a symlink,
// or a plain file.
unsigned normalize(unsigned mode) {
    unsigned type = mode & ~0777u;
    if (type == 0040000) return GIT_FILEMODE_TREE;
    if (mode & 0100) return GIT_FILEMODE_BLOB_EXECUTABLE;
    if (type == 0160000) return GIT_FILEMODE_COMMIT;
    if (type == 0120000) return GIT_FILEMODE_LINK;
    return GIT_FILEMODE_BLOB;
}

// What the tool makes of a mode (libgit2.hpp's kind_of): anything else is a file.
EntryKind kind_of(unsigned mode) {
    return cp::git::kind_of(static_cast<git_filemode_t>(mode));
}

// Modes as written; the last two are not modes libgit2 parses, which makes the tree unreadable.
struct ModeText {
    const char* text;
    bool parses;
};
constexpr ModeText kModes[16] = {
    {"100644", true}, {"100755", true}, {"40000", true},    {"120000", true},
    {"160000", true}, {"100644", true}, {"40000", true},    {"100664", true},
    {"040000", true}, {"0", true},      {"100744", true},   {"100654", true},
    {"170000", true}, {"40755", true},  {"1000644", false}, {"", false},
};

const char* const kNames[] = {
    "a",    "b",      "c",   "d",    "e",    "f",        "a.c",  "b.h",
    "x.py", "README", "sub", "lib",  ".",    "..",       ".git", ".gitattributes",
    "a/b",  "-",      " ",   "\x01", "\xff", "\xc3\xa4", "a\\b", "~"};
constexpr std::size_t kNameCount = sizeof kNames / sizeof kNames[0];

// The objects the input wrote, as the model knows them.
struct ModelEntry {
    unsigned mode = 0;  // normalized; 0 when the written mode does not parse
    std::string name;
    git_oid id{};
};
struct Object {
    git_object_t type = GIT_OBJECT_BLOB;
    std::string bytes;                // a blob's
    std::vector<ModelEntry> entries;  // a tree's, in written order
    bool parses = true;               // every mode parses
    bool clean = true;                // parses, sorted as git sorts, names unique and plain
    git_oid tree{};                   // a commit's
};

// git's tree order: names bytewise, a directory's as if it ended in '/'.
int tree_order(std::string_view x, bool x_tree, std::string_view y, bool y_tree) {
    std::size_t n = std::min(x.size(), y.size());
    if (int c = std::memcmp(x.data(), y.data(), n)) return c;
    auto next = [n](std::string_view s, bool tree) -> int {
        if (s.size() > n) return static_cast<unsigned char>(s[n]);
        return tree ? '/' : 0;
    };
    return next(x, x_tree) - next(y, y_tree);
}

class Input {
  public:
    Input(const std::uint8_t* data, std::size_t size) : p_(data), n_(size) {}
    bool done() const { return n_ == 0; }
    std::uint8_t byte() {
        if (!n_) return 0;
        --n_;
        return *p_++;
    }

  private:
    const std::uint8_t* p_;
    std::size_t n_;
};

// Builds the objects the input describes, writing each into `odb`. The input is a list of
// operations, each a byte (mod 5) and its operands:
//   0 blob:    a length byte (mod 64), then that many bytes
//   1 tree:    a byte: entry count (low 4 bits), raw order (bit 4: written as given, else
//              sorted as git sorts with later repeats of a name dropped); then per entry a mode
//              byte (kModes), a name byte (below 0xc0: kNames and a number; else a literal of
//              up to 15 bytes that follow, NULs made 0x01) and a target byte (below 0xf0: the
//              object that many back from the last, else a missing one)
//   2 commit:  a target byte, as above, for its tree
//   3 fan-out: a byte: 2 to 8 directories a, b, ... all naming the last tree written
//   4 nest:    a byte: 1 to 32 trees, each holding only the one before as directory "d"
class Builder {
  public:
    explicit Builder(git_odb* odb) : odb_(odb) {}

    void run(Input& in) {
        while (!in.done() && order_.size() < kMaxObjects) {
            switch (in.byte() % 5) {
                case 0:
                    blob(in);
                    break;
                case 1:
                    tree(in);
                    break;
                case 2:
                    commit(pick(in.byte()));
                    break;
                case 3:
                    fan_out(in.byte());
                    break;
                default:
                    nest(in.byte());
                    break;
            }
        }
    }

    // The commits to walk: the last two written (one: diffed with itself; none: one is made
    // for the last object, or for an empty tree).
    std::pair<git_oid, git_oid> commits() {
        if (commits_.empty()) {
            if (order_.empty()) write_tree({}, false);
            commit(order_.back());
        }
        return {commits_[commits_.size() > 1 ? commits_.size() - 2 : 0], commits_.back()};
    }

    const Object* find(const git_oid& id) const {
        auto it = objects_.find(id);
        return it == objects_.end() ? nullptr : &it->second;
    }

  private:
    git_oid pick(std::uint8_t target) const {
        git_oid id;
        if (target >= 0xf0 || order_.empty()) {
            std::memset(id.id, target, sizeof id.id);  // no object hashes to this
            return id;
        }
        return order_[order_.size() - 1 - target % order_.size()];
    }

    git_oid write(git_object_t type, const std::string& bytes, Object object) {
        git_oid id;
        if (git_odb_write(&id, odb_, bytes.data(), bytes.size(), type) < 0) fail("git_odb_write");
        object.type = type;
        objects_.emplace(id, std::move(object));
        order_.push_back(id);
        return id;
    }

    void blob(Input& in) {
        Object o;
        for (std::size_t n = in.byte() % 64; n; --n) o.bytes.push_back(char(in.byte()));
        std::string bytes = o.bytes;
        write(GIT_OBJECT_BLOB, bytes, std::move(o));
    }

    struct Written {
        const ModeText* mode;
        std::string name;
        git_oid id;
    };

    std::string name(Input& in) {
        std::uint8_t n = in.byte();
        if (n < 0xc0) {
            std::string s = kNames[n % kNameCount];
            if (n / kNameCount) s += std::to_string(n / kNameCount);
            return s;
        }
        std::string s;
        for (std::size_t len = n & 0x0f; len; --len) {
            char c = char(in.byte());
            s.push_back(c ? c : '\x01');
        }
        return s;
    }

    void tree(Input& in) {
        std::uint8_t header = in.byte();
        std::vector<Written> entries;
        for (std::size_t n = header & 0x0f; n; --n) {
            const ModeText* mode = &kModes[in.byte() % 16];
            std::string nm = name(in);
            entries.push_back({mode, std::move(nm), pick(in.byte())});
        }
        write_tree(std::move(entries), header & 0x10);
    }

    void fan_out(std::uint8_t n) {
        git_oid sub = pick(0);
        for (auto it = order_.rbegin(); it != order_.rend(); ++it)
            if (objects_.at(*it).type == GIT_OBJECT_TREE) {
                sub = *it;
                break;
            }
        std::vector<Written> entries;
        for (std::size_t i = 0; i < 2u + n % 7; ++i)
            entries.push_back({&kModes[2], std::string(1, char('a' + i)), sub});
        write_tree(std::move(entries), false);
    }

    void nest(std::uint8_t n) {
        for (std::size_t i = 0; i < 1u + n % 32 && order_.size() < kMaxObjects; ++i)
            write_tree({{&kModes[2], "d", pick(0)}}, false);
    }

    void write_tree(std::vector<Written> entries, bool raw) {
        auto normalized = [](const Written& w) {
            return w.mode->parses ? normalize(unsigned(std::strtoul(w.mode->text, nullptr, 8)))
                                  : 0u;
        };
        auto before = [&](const Written& x, const Written& y) {
            return tree_order(x.name, normalized(x) == GIT_FILEMODE_TREE, y.name,
                              normalized(y) == GIT_FILEMODE_TREE) < 0;
        };
        if (!raw) {
            std::stable_sort(entries.begin(), entries.end(), before);
            std::set<std::string> seen;
            std::erase_if(entries, [&](const Written& w) { return !seen.insert(w.name).second; });
        }
        Object o;
        std::string bytes;
        std::set<std::string> names;
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const Written& w = entries[i];
            bytes += w.mode->text;
            bytes += ' ';
            bytes += w.name;
            bytes += '\0';
            bytes.append(reinterpret_cast<const char*>(w.id.id), sizeof w.id.id);
            o.parses = o.parses && w.mode->parses;
            bool plain = !w.name.empty() && w.name.find('/') == std::string::npos;
            bool sorted = i == 0 || before(entries[i - 1], w);
            o.clean = o.clean && plain && sorted && names.insert(w.name).second;
            o.entries.push_back({normalized(w), w.name, w.id});
        }
        o.clean = o.clean && o.parses;
        write(GIT_OBJECT_TREE, bytes, std::move(o));
    }

    void commit(const git_oid& tree) {
        std::string bytes = "tree " + hex(tree) +
                            "\nauthor F <f@x> 0 +0000\ncommitter F <f@x> 0 +0000\n\nc" +
                            std::to_string(commits_.size()) + "\n";
        Object o;
        o.tree = tree;
        commits_.push_back(write(GIT_OBJECT_COMMIT, bytes, std::move(o)));
    }

    git_odb* odb_;
    std::map<git_oid, Object, OidLess> objects_;
    std::vector<git_oid> order_;  // every write, repeats included, for picks
    std::vector<git_oid> commits_;
};

// ---- the model ------------------------------------------------------------------------------

enum class Expect { Success, Failure, Unknown };

// What a walk of the model met.
struct Walk {
    std::size_t paths = 0;
    bool cut = false;      // more paths than kMaxPaths: the tool must stop with an error
    bool failure = false;  // a tree it cannot read, or one too deep
    bool unknown = false;  // a tree that is not well formed: any answer will do
    Expect expect() const {
        return unknown ? Expect::Unknown : failure || cut ? Expect::Failure : Expect::Success;
    }
    // One more path passed; false once past the limit.
    bool pass() {
        if (++paths > kMaxPaths) cut = true;
        return !cut;
    }
};

// The tree `id`, when a walk can read it; else the walk learns why not.
const Object* read_tree(const Builder& b, const git_oid& id, Walk& w) {
    const Object* o = b.find(id);
    if (!o || o->type != GIT_OBJECT_TREE || !o->parses) {
        w.failure = true;
        return nullptr;
    }
    if (!o->clean) {
        w.unknown = true;
        return nullptr;
    }
    return o;
}

const Object* commit_tree(const Builder& b, const git_oid& commit, Walk& w) {
    const Object* c = b.find(commit);
    if (!c || c->type != GIT_OBJECT_COMMIT) {
        w.failure = true;
        return nullptr;
    }
    return read_tree(b, c->tree, w);
}

using DeltaKey =
    std::tuple<int, std::string, std::string, std::string, std::string, EntryKind, EntryKind>;

DeltaKey key(Change change, const std::string& old_path, const std::string& new_path,
             const std::string& old_oid, const std::string& new_oid, EntryKind old_kind,
             EntryKind new_kind) {
    return {int(change), old_path, new_path, old_oid, new_oid, old_kind, new_kind};
}

// A file one side lacks, as the tool writes it.
DeltaKey one_side(const ModelEntry& e, const std::string& path, bool added) {
    std::string id = hex(e.id);
    return added ? key(Change::Added, path, path, "", id, EntryKind::File, kind_of(e.mode))
                 : key(Change::Deleted, path, path, id, "", kind_of(e.mode), EntryKind::File);
}

// The name-level diff of two trees (either null: empty), by name: a path whose entries are
// the same on both sides is passed by whole.
void model_diff(const Builder& b, const Object* x_tree, const Object* y_tree,
                const std::string& prefix, std::size_t depth, Walk& w, std::vector<DeltaKey>& out) {
    std::map<std::string, std::pair<const ModelEntry*, const ModelEntry*>> names;
    if (x_tree)
        for (const auto& e : x_tree->entries) names[e.name].first = &e;
    if (y_tree)
        for (const auto& e : y_tree->entries) names[e.name].second = &e;
    for (const auto& [name, sides] : names) {
        auto [x, y] = sides;
        if (x && y && x->mode == y->mode && git_oid_equal(&x->id, &y->id)) continue;
        if (!w.pass()) return;
        std::string path = prefix + name;
        bool tx = x && x->mode == GIT_FILEMODE_TREE, ty = y && y->mode == GIT_FILEMODE_TREE;
        bool cx = x && x->mode == GIT_FILEMODE_COMMIT, cy = y && y->mode == GIT_FILEMODE_COMMIT;
        if (x && y && !tx && !ty && cx == cy) {
            if (cx) continue;  // submodules are not followed
            EntryKind kx = kind_of(x->mode), ky = kind_of(y->mode);
            out.push_back(key(kx == ky ? Change::Modified : Change::TypeChanged, path, path,
                              hex(x->id), hex(y->id), kx, ky));
            continue;
        }
        // One side only, or a directory or submodule that became a file (or the other way
        // round): the old side's files deleted, the new side's added; submodules not followed.
        const Object *next_x = nullptr, *next_y = nullptr;
        if (x && !cx && !tx) out.push_back(one_side(*x, path, false));
        if (y && !cy && !ty) out.push_back(one_side(*y, path, true));
        if (tx) next_x = read_tree(b, x->id, w);
        if (ty) next_y = read_tree(b, y->id, w);
        if (!tx && !ty) continue;
        if (depth + 2 > std::size_t(kMaxDepth)) {
            w.failure = true;
            continue;
        }
        if (next_x || next_y) model_diff(b, next_x, next_y, path + "/", depth + 1, w, out);
        if (w.cut) return;
    }
}

struct ModelDiff {
    Expect expect;
    std::vector<DeltaKey> deltas;
};

ModelDiff model_commit_diff(const Builder& b, const git_oid& base, const git_oid& target) {
    Walk w;
    const Object* x = commit_tree(b, base, w);
    const Object* y = commit_tree(b, target, w);
    std::vector<DeltaKey> deltas;
    if (x && y) model_diff(b, x, y, "", 0, w, deltas);
    Expect e = w.expect();
    // Rename detection measures every added and deleted file (submodules never are one), but
    // only when there are both: with no deletion or no addition it reads nothing.
    auto any = [&](Change c) {
        return std::any_of(deltas.begin(), deltas.end(),
                           [c](const DeltaKey& d) { return Change(std::get<0>(d)) == c; });
    };
    if (e == Expect::Success && any(Change::Added) && any(Change::Deleted)) {
        for (const auto& d : deltas) {
            auto change = Change(std::get<0>(d));
            if (change != Change::Added && change != Change::Deleted) continue;
            git_oid id;
            git_oid_fromstr(&id,
                            (change == Change::Added ? std::get<4>(d) : std::get<3>(d)).c_str());
            const Object* o = b.find(id);
            if (!o)
                e = e == Expect::Unknown ? e : Expect::Failure;
            else if (o->type != GIT_OBJECT_BLOB)
                e = Expect::Unknown;
        }
    }
    std::sort(deltas.begin(), deltas.end());
    return {e, std::move(deltas)};
}

struct ModelFiles {
    Expect expect;
    std::vector<std::pair<std::string, git_oid>> files;
};

void model_files(const Builder& b, const Object* t, const std::string& prefix, std::size_t depth,
                 Walk& w, std::vector<std::pair<std::string, git_oid>>& out) {
    for (const auto& e : t->entries) {
        if (!w.pass()) return;
        std::string path = prefix + e.name;
        if (e.mode == GIT_FILEMODE_BLOB || e.mode == GIT_FILEMODE_BLOB_EXECUTABLE) {
            out.emplace_back(path, e.id);
            continue;
        }
        if (e.mode != GIT_FILEMODE_TREE) continue;
        if (depth + 2 > std::size_t(kMaxDepth)) {
            w.failure = true;
            continue;
        }
        if (const Object* sub = read_tree(b, e.id, w))
            model_files(b, sub, path + "/", depth + 1, w, out);
        if (w.cut) return;
    }
}

ModelFiles model_tracked(const Builder& b, const git_oid& commit) {
    Walk w;
    std::vector<std::pair<std::string, git_oid>> files;
    if (const Object* t = commit_tree(b, commit, w)) model_files(b, t, "", 0, w, files);
    return {w.expect(), std::move(files)};
}

struct ModelLookup {
    Expect expect = Expect::Success;
    std::optional<cp::git::Entry> entry;
    std::string blocked_by;
    EntryKind blocked_kind = EntryKind::File;
};

ModelLookup model_lookup(const Builder& b, const git_oid& commit, const std::string& path) {
    Walk w;
    ModelLookup out;
    const Object* tree = commit_tree(b, commit, w);
    std::size_t pos = 0;
    while (tree) {
        auto slash = path.find('/', pos);
        std::string name = path.substr(pos, slash == std::string::npos ? path.npos : slash - pos);
        auto e = std::find_if(tree->entries.begin(), tree->entries.end(),
                              [&](const ModelEntry& m) { return m.name == name; });
        if (e == tree->entries.end()) break;
        EntryKind kind = kind_of(e->mode);
        if (slash == std::string::npos) {
            out.entry = cp::git::Entry{kind, hex(e->id), e->mode == GIT_FILEMODE_BLOB_EXECUTABLE};
            break;
        }
        if (kind != EntryKind::Directory) {
            if (kind != EntryKind::File) {
                out.blocked_by = path.substr(0, slash);
                out.blocked_kind = kind;
            }
            break;
        }
        tree = read_tree(b, e->id, w);
        pos = slash + 1;
    }
    out.expect = w.expect();
    return out;
}

// ---- the checks -----------------------------------------------------------------------------

template <class T>
void check_outcome(const char* what, Expect expect, const cp::Result<T>& got) {
    if (!got) {
        const std::string& m = got.error().message;
        if (m.empty()) fail(what, "an error that says nothing");
        if (m.find('\n') != std::string::npos) fail(what, "an error of more than one line: " + m);
    }
    if (expect == Expect::Success && !got)
        fail(what, "an error where the model has none: " + got.error().message);
    if (expect == Expect::Failure && got) fail(what, "an answer where the model meets an error");
}

void check_diff(const cp::git::Repository& repo, const Builder& b, const git_oid& base,
                const git_oid& target) {
    ModelDiff model = model_commit_diff(b, base, target);
    auto diff = repo.diff(hex(base), hex(target));
    // A subtree the store cannot give is kept as unread, for the anchors under it to say so,
    // rather than failing the whole diff: an answer then holds at least one.
    if (model.expect == Expect::Failure && diff && !diff->unread().empty()) {
        for (const auto& u : diff->unread())
            if (u.problem.empty() || u.problem.find('\n') != std::string::npos)
                fail("diff", "an unread subtree whose problem is not one line: " + u.problem);
        return;
    }
    check_outcome("diff", model.expect, diff);
    if (!diff) return;
    const auto& deltas = diff->deltas();
    for (const auto& d : deltas) {
        if (d.change == Change::Renamed || d.change == Change::Modified) {
            if (diff->find_old(d.old_path) == nullptr)
                fail("diff", "find_old misses " + d.old_path);
            if (diff->find_new(d.new_path) == nullptr)
                fail("diff", "find_new misses " + d.new_path);
        }
    }
    if (model.expect != Expect::Success) return;
    std::vector<DeltaKey> got;
    for (const auto& d : deltas) {
        if (d.change == Change::Renamed) {  // taken apart into what it paired
            got.push_back(key(Change::Deleted, d.old_path, d.old_path, d.old_oid, "", d.old_kind,
                              EntryKind::File));
            got.push_back(key(Change::Added, d.new_path, d.new_path, "", d.new_oid, EntryKind::File,
                              d.new_kind));
            continue;
        }
        if (d.untracked) fail("diff", "an untracked file between two commits");
        got.push_back(
            key(d.change, d.old_path, d.new_path, d.old_oid, d.new_oid, d.old_kind, d.new_kind));
    }
    std::sort(got.begin(), got.end());
    if (got != model.deltas)
        fail("diff", "deltas differ from the model's (" + std::to_string(got.size()) + " vs " +
                         std::to_string(model.deltas.size()) + ")");
}

void check_tracked(const cp::git::Repository& repo, const Builder& b, const git_oid& commit) {
    ModelFiles model = model_tracked(b, commit);
    auto files = repo.tracked_files(hex(commit));
    check_outcome("tracked_files", model.expect, files);
    if (!files || model.expect != Expect::Success) return;
    if (files->size() != model.files.size()) fail("tracked_files", "another number of files");
    for (std::size_t i = 0; i < files->size(); ++i)
        if ((*files)[i].path != model.files[i].first ||
            (*files)[i].oid != hex(model.files[i].second))
            fail("tracked_files", "another file: " + (*files)[i].path);

    // Reading them: every one must be a blob.
    Expect read = Expect::Success;
    for (const auto& [path, id] : model.files) {
        const Object* o = b.find(id);
        if (!o || o->type != GIT_OBJECT_BLOB) read = Expect::Failure;
    }
    std::size_t seen = 0;
    bool same = true;
    auto visited = repo.for_each_tracked_file(hex(commit), [&](const std::string& path,
                                                               std::string_view bytes) {
        const Object* o = seen < model.files.size() ? b.find(model.files[seen].second) : nullptr;
        if (!o || path != model.files[seen].first || bytes != o->bytes) same = false;
        ++seen;
    });
    check_outcome("for_each_tracked_file", read, visited);
    if (visited && (!same || seen != model.files.size()))
        fail("for_each_tracked_file", "visits other files or bytes than the model's");
}

void check_lookup(const cp::git::Repository& repo, const Builder& b, const git_oid& commit,
                  const std::string& path) {
    ModelLookup model = model_lookup(b, commit, path);
    auto got = repo.lookup(hex(commit), path);
    check_outcome("lookup", model.expect, got);
    if (!got || model.expect != Expect::Success) return;
    const cp::git::PathLookup& l = got.value();
    if (l.entry.has_value() != model.entry.has_value()) fail("lookup", "entry presence: " + path);
    if (l.entry && (l.entry->kind != model.entry->kind || l.entry->oid != model.entry->oid ||
                    l.entry->executable != model.entry->executable))
        fail("lookup", "another entry: " + path);
    if (l.blocked_by != model.blocked_by ||
        (!l.blocked_by.empty() && l.blocked_kind != model.blocked_kind))
        fail("lookup", "blocked by another: " + path);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // A fresh handle each input, so that no cache (libgit2's objects, the handle's trees)
    // holds what an earlier input wrote; its object database gets the mempack in front.
    auto opened = cp::git::Repository::open(bare_repository());
    if (!opened) fail("cannot open the bare repository", opened.error().message);
    cp::git::Repository repo = std::move(opened).value();
    repo.set_max_tree_paths(kMaxPaths);
    if (repo.max_tree_depth() != std::size_t(kMaxDepth)) fail("core.maxTreeDepth not read");
    git_odb* odb = nullptr;
    git_odb_backend* mempack = nullptr;
    if (git_repository_odb(&odb, cp::git::raw_handle(repo)) < 0 || git_mempack_new(&mempack) < 0 ||
        git_odb_add_backend(odb, mempack, 1000) < 0)
        fail("cannot add the in-memory object database");

    Builder builder(odb);
    Input in(data, size);
    builder.run(in);
    auto [base, target] = builder.commits();

    check_diff(repo, builder, base, target);
    check_diff(repo, builder, target, base);
    check_diff(repo, builder, target, target);
    check_tracked(repo, builder, target);

    // Lookups of a few paths the model has, their directories, and a path beneath a file.
    ModelFiles files = model_tracked(builder, target);
    std::vector<std::string> paths = {"a", "a/b", "d/d/d"};
    for (std::size_t i = 0; i < files.files.size() && i < 3; ++i) {
        const std::string& p = files.files[i].first;
        paths.push_back(p);
        paths.push_back(p + "/x");
        if (auto slash = p.rfind('/'); slash != std::string::npos)
            paths.push_back(p.substr(0, slash));
    }
    for (const auto& p : paths) check_lookup(repo, builder, target, p);

    // The hunks of a few changed files: any answer, but no crash.
    if (auto diff = repo.diff(hex(base), hex(target))) {
        std::size_t asked = 0;
        for (const auto& d : diff->deltas()) {
            if (asked == 3) break;
            if (d.change != Change::Modified && d.change != Change::Renamed) continue;
            ++asked;
            (void)diff->hunks(d);
        }
    }
    git_odb_free(odb);
    return 0;
}
