// The object database of a handle: packs read by libgit2, loose objects by the reader below.
#include "object_store.hpp"

#include <fmt/format.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>
#include <zlib.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <utility>

#include "context_pack/core/text.hpp"
#include "context_pack/sys/fs.hpp"
#include "libgit2.hpp"

namespace cp::git {
namespace {

constexpr int kPackedPriority = 2;  // libgit2's own: packs are asked first, then loose objects
constexpr int kLoosePriority = 1;
constexpr int kMaxAlternateDepth = 5;    // as git and libgit2
constexpr std::size_t kMaxHeader = 64;   // "commit 18446744073709551615\0" fits
constexpr std::size_t kChunk = 1 << 20;  // zlib takes at most UINT_MAX bytes a call

// One failed read: libgit2's error set, its code returned.
int fail(int klass, const std::string& message) {
    git_error_set_str(klass, message.c_str());
    return GIT_ERROR;
}

// A loose object's file, opened without waiting (a FIFO there never blocks the run) and only
// when it is a regular file; `size` its length. GIT_ENOTFOUND when there is none.
int open_file(const std::string& path, sys::File& file, std::uint64_t& size) {
    file = sys::File::open(path, sys::File::nonblocking);
    if (!file.is_open()) {
        if (errno == ENOENT || errno == ENOTDIR) return GIT_ENOTFOUND;
        return fail(GIT_ERROR_OS, fmt::format("cannot open its file: {}", std::strerror(errno)));
    }
    auto st = file.info();
    if (!st)
        return fail(GIT_ERROR_OS, fmt::format("cannot stat its file: {}", std::strerror(errno)));
    if (st->kind != sys::Kind::regular)
        return fail(GIT_ERROR_ODB, "its path is not a regular file");
    size = st->size;
    return 0;
}

// Appends the file's next bytes to `out` until it holds `upto` (fewer at the end).
int read_to(const sys::File& file, std::string& out, std::size_t upto) {
    std::size_t got = out.size();
    out.resize(upto);
    while (got < out.size()) {
        auto n = file.read(out.data() + got, out.size() - got);
        if (n < 0)
            return fail(GIT_ERROR_OS,
                        fmt::format("cannot read its file: {}", std::strerror(errno)));
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    out.resize(got);
    return 0;
}

// The most bytes zlib writes for `size` bytes of input, stored (zlib's deflateBound, with
// room for the header "blob 123\0"): a loose object's file is never longer.
std::uint64_t most_compressed(std::uint64_t size) {
    return size + (size >> 12) + (size >> 14) + (size >> 25) + 13 + 64;
}

// Inflates a zlib stream into a caller's buffer, chunk by chunk, never looping without
// progress: the input ending before the stream does is an error, as is any zlib error.
class Inflater {
  public:
    explicit Inflater(std::string_view in) : in_(in) {}
    Inflater(const Inflater&) = delete;
    Inflater& operator=(const Inflater&) = delete;
    ~Inflater() {
        if (ready_) inflateEnd(&z_);
    }

    int init() {
        if (inflateInit(&z_) != Z_OK) return fail(GIT_ERROR_ZLIB, "cannot start zlib");
        ready_ = true;
        return 0;
    }

    // Fills up to `size` bytes at `out`, or fewer when the stream ends; `made` says how many.
    // `stop_at_nul`: returns once a NUL byte has been written (for the header).
    int fill(unsigned char* out, std::size_t size, std::size_t& made, bool stop_at_nul = false) {
        made = 0;
        while (made < size && !ended_) {
            feed();
            z_.next_out = out + made;
            z_.avail_out = static_cast<uInt>(std::min(size - made, kChunk));
            const uInt before_in = z_.avail_in, before_out = z_.avail_out;
            int rc = inflate(&z_, Z_NO_FLUSH);
            std::size_t wrote = before_out - z_.avail_out;
            used_ += before_in - z_.avail_in;
            if (rc == Z_STREAM_END) ended_ = true;
            if (rc == Z_NEED_DICT || rc == Z_DATA_ERROR)
                return fail(GIT_ERROR_ZLIB, fmt::format("its zlib data is corrupt: {}",
                                                        z_.msg ? z_.msg : "invalid data"));
            if (rc == Z_MEM_ERROR) return fail(GIT_ERROR_NOMEMORY, "out of memory in zlib");
            if (!ended_ && wrote == 0 && before_in == z_.avail_in) {
                if (used_ >= in_.size())
                    return fail(GIT_ERROR_ZLIB,
                                "the file is cut short: its zlib stream ends early");
                return fail(GIT_ERROR_ZLIB, "its zlib stream makes no progress");
            }
            if (stop_at_nul && std::memchr(out + made, 0, wrote)) {
                made += wrote;
                return 0;
            }
            made += wrote;
        }
        return 0;
    }

    bool ended() const { return ended_; }
    bool input_left() const { return used_ < in_.size(); }

  private:
    void feed() {
        if (z_.avail_in > 0) return;
        std::size_t left = in_.size() - used_;
        z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in_.data() + used_));
        z_.avail_in = static_cast<uInt>(std::min(left, kChunk));
    }

    std::string_view in_;
    std::size_t used_ = 0;  // input bytes zlib consumed
    z_stream z_{};
    bool ready_ = false;
    bool ended_ = false;
};

// "type size\0" at the start of an object: the type and the size, or an error.
int parse_header(const unsigned char* head, std::size_t len, git_object_t& type, std::size_t& size,
                 std::size_t& header_len) {
    const char* text = reinterpret_cast<const char*>(head);
    const void* nul = std::memchr(text, 0, len);
    const char* space = static_cast<const char*>(std::memchr(text, ' ', len));
    if (!nul || !space || space > nul)
        return fail(GIT_ERROR_OBJECT, "its header is not \"type size\"");
    std::string name(text, static_cast<std::size_t>(space - text));
    type = git_object_string2type(name.c_str());
    if (type != GIT_OBJECT_COMMIT && type != GIT_OBJECT_TREE && type != GIT_OBJECT_BLOB &&
        type != GIT_OBJECT_TAG)
        return fail(GIT_ERROR_OBJECT, "its header names no object type");
    const char* digits = space + 1;
    const char* end = static_cast<const char*>(nul);
    if (digits == end || (*digits == '0' && end - digits > 1))
        return fail(GIT_ERROR_OBJECT, "its header has no valid size");
    std::uint64_t value = 0;
    for (const char* c = digits; c < end; ++c) {
        if (*c < '0' || *c > '9' || value > (UINT64_MAX - 9) / 10)
            return fail(GIT_ERROR_OBJECT, "its header has no valid size");
        value = value * 10 + static_cast<std::uint64_t>(*c - '0');
    }
    if (value >= SIZE_MAX) return fail(GIT_ERROR_NOMEMORY, "it is too large to read");
    size = static_cast<std::size_t>(value);
    header_len = static_cast<std::size_t>(end - text) + 1;
    return 0;
}

// Starts `z` and inflates the object's header ("type size\0") into `head`: `made` bytes, of
// which the header is `header_len`.
int start(Inflater& z, unsigned char (&head)[kMaxHeader], std::size_t& made, git_object_t& type,
          std::size_t& size, std::size_t& header_len) {
    if (int rc = z.init(); rc < 0) return rc;
    if (int rc = z.fill(head, sizeof head, made, true); rc < 0) return rc;
    return parse_header(head, made, type, size, header_len);
}

// The object in a loose object file, checked: its zlib stream to the end, its header, a body
// of the size the header gives, and an id that is the one asked for. The body is allocated
// for libgit2, with a NUL after it as libgit2's own reader leaves one.
int read_loose(git_odb_backend* backend, const std::string& path, const git_oid* id, void** out,
               std::size_t* out_len, git_object_t* out_type) {
    // The header first, from the file's start; then the rest, once the header's size says how
    // long the file can be: a file longer than that (a stream followed by a hole of 30 GiB) is
    // refused before it is read.
    sys::File opened;
    std::uint64_t file_size = 0;
    if (int rc = open_file(path, opened, file_size); rc != 0) return rc;
    std::string file;
    if (int rc = read_to(opened, file, std::size_t(std::min<std::uint64_t>(file_size, 64 << 10)));
        rc != 0)
        return rc;
    git_object_t type = GIT_OBJECT_INVALID;
    std::size_t size = 0, header_len = 0, made = 0;
    unsigned char head[kMaxHeader];
    if (Inflater z(file); int rc = start(z, head, made, type, size, header_len)) return rc;
    if (file_size > most_compressed(size))
        return fail(GIT_ERROR_ZLIB,
                    fmt::format("its file is {} bytes, more than the zlib stream of a {}-byte "
                                "object can be: bytes follow its zlib stream",
                                file_size, size));
    if (int rc = read_to(opened, file, std::size_t(file_size)); rc != 0) return rc;
    Inflater z(file);
    if (int rc = start(z, head, made, type, size, header_len)) return rc;
    std::size_t in_head = made - header_len;
    if (in_head > size) return fail(GIT_ERROR_OBJECT, "it is longer than its header says");
    auto* body = static_cast<unsigned char*>(git_odb_backend_data_alloc(backend, size + 1));
    if (!body) return fail(GIT_ERROR_NOMEMORY, "out of memory for a loose object");
    std::unique_ptr<unsigned char, void (*)(unsigned char*)> owned(
        body, [](unsigned char* p) { git_odb_backend_data_free(nullptr, p); });
    std::memcpy(body, head + header_len, in_head);
    std::size_t filled = 0;
    if (int rc = z.fill(body + in_head, size - in_head, filled); rc < 0) return rc;
    if (in_head + filled < size)
        return fail(GIT_ERROR_OBJECT, "it is shorter than its header says");
    if (!z.ended()) {
        unsigned char extra = 0;
        std::size_t more = 0;
        if (int rc = z.fill(&extra, 1, more); rc < 0) return rc;
        if (more) return fail(GIT_ERROR_OBJECT, "it is longer than its header says");
    }
    if (z.input_left()) return fail(GIT_ERROR_ZLIB, "bytes follow its zlib stream");
    body[size] = 0;
    git_oid actual;
    if (git_odb_hash(&actual, body, size, type) < 0) return GIT_ERROR;
    if (!git_oid_equal(&actual, id))
        return fail(GIT_ERROR_ODB, fmt::format("its content is that of {}", hex(&actual)));
    *out = owned.release();
    *out_len = size;
    *out_type = type;
    return 0;
}

// libgit2's loose backend for what reads no object's content (headers, existence, prefixes,
// the walk of every id), and our reader for what does.
struct LooseBackend {
    git_odb_backend parent;
    git_odb_backend* inner;
    std::string dir;  // the objects directory, ending in '/'

    std::string path_of(const git_oid* id) const {
        std::string h = hex(id);
        return dir + h.substr(0, 2) + "/" + h.substr(2);
    }
};

LooseBackend* self(git_odb_backend* b) {
    return reinterpret_cast<LooseBackend*>(b);
}

// A failed read's error names the object, for readers that libgit2 runs itself (its diffs read
// trees) and so name none: "loose object 1a2b3c4d5e: …".
int naming(int rc, const git_oid* id) {
    if (rc >= 0 || rc == GIT_ENOTFOUND) return rc;
    const git_error* e = git_error_last();
    std::string message = fmt::format("loose object {}: {}", text::short_oid(hex(id)),
                                      e && e->message ? e->message : "unreadable");
    git_error_set_str(e ? e->klass : GIT_ERROR_ODB, message.c_str());
    return rc;
}

int loose_read(void** out, size_t* len, git_object_t* type, git_odb_backend* b, const git_oid* id) {
    return naming(read_loose(b, self(b)->path_of(id), id, out, len, type), id);
}

int loose_read_prefix(git_oid* found, void** out, size_t* len, git_object_t* type,
                      git_odb_backend* b, const git_oid* short_id, size_t hex_len) {
    git_odb_backend* inner = self(b)->inner;
    git_oid full;
    if (hex_len >= GIT_OID_HEXSZ) {
        git_oid_cpy(&full, short_id);
    } else if (int rc = inner->exists_prefix(&full, inner, short_id, hex_len); rc < 0) {
        return rc;
    }
    int rc = read_loose(b, self(b)->path_of(&full), &full, out, len, type);
    if (rc == 0) git_oid_cpy(found, &full);
    return naming(rc, &full);
}

int loose_read_header(size_t* len, git_object_t* type, git_odb_backend* b, const git_oid* id) {
    // libgit2's reader opens the file and would wait on a FIFO: only a regular file goes to it.
    if (auto st = sys::stat(self(b)->path_of(id)); st && st->kind != sys::Kind::regular)
        return naming(fail(GIT_ERROR_ODB, "its path is not a regular file"), id);
    git_odb_backend* inner = self(b)->inner;
    return naming(inner->read_header(len, type, inner, id), id);
}

int loose_exists(git_odb_backend* b, const git_oid* id) {
    git_odb_backend* inner = self(b)->inner;
    return inner->exists(inner, id);
}

int loose_exists_prefix(git_oid* found, git_odb_backend* b, const git_oid* short_id,
                        size_t hex_len) {
    git_odb_backend* inner = self(b)->inner;
    return inner->exists_prefix(found, inner, short_id, hex_len);
}

int loose_foreach(git_odb_backend* b, git_odb_foreach_cb cb, void* payload) {
    git_odb_backend* inner = self(b)->inner;
    return inner->foreach (inner, cb, payload);
}

void loose_free(git_odb_backend* b) {
    git_odb_backend* inner = self(b)->inner;
    inner->free(inner);
    delete self(b);
}

// Our loose reader for `dir`; nothing written (the tool never writes).
Result<git_odb_backend*> loose_backend(const std::string& dir) {
    git_odb_backend* inner = nullptr;
    if (git_odb_backend_loose(&inner, dir.c_str(), -1, 0, 0, 0) < 0)
        return failure("cannot open the loose objects");
    auto* b = new LooseBackend{};
    git_odb_init_backend(&b->parent, GIT_ODB_BACKEND_VERSION);
    b->inner = inner;
    b->dir = dir.back() == '/' ? dir : dir + "/";
    b->parent.read = loose_read;
    b->parent.read_prefix = loose_read_prefix;
    b->parent.read_header = loose_read_header;
    b->parent.exists = loose_exists;
    b->parent.exists_prefix = loose_exists_prefix;
    b->parent.foreach = loose_foreach;
    b->parent.free = loose_free;
    return &b->parent;
}

// The lines of an objects directory's info/alternates, as git reads them: one directory a
// line, '#' for comments, relative to that objects directory. A regular file only, opened
// without waiting, and at most kMaxAlternatesBytes of it.
constexpr std::size_t kMaxAlternatesBytes = std::size_t{1} << 20;

Result<std::vector<std::string>> alternates_of(const std::string& dir) {
    const std::string path = dir + "/info/alternates";
    sys::File file;
    std::uint64_t size = 0;
    // What open_file or read_to told libgit2, said of the file. A FIFO or a device there was
    // refused with its object directory's info (refuse_special_files).
    auto unreadable = [&path] {
        const git_error* e = git_error_last();
        Error out{fmt::format("cannot read {}: {}", text::printable(path),
                              e && e->message ? text::printable(e->message) : "unreadable")};
        git_error_clear();
        return out;
    };
    if (int rc = open_file(path, file, size); rc == GIT_ENOTFOUND)
        return std::vector<std::string>{};
    else if (rc < 0)
        return unreadable();
    if (size > kMaxAlternatesBytes)
        return Error{
            fmt::format("{} holds {} bytes, more than the {} MiB an alternates file "
                        "of object directories could: remove it or mend it",
                        text::printable(path), size, kMaxAlternatesBytes >> 20)};
    std::string text;
    if (read_to(file, text, std::size_t(size)) < 0) return unreadable();
    std::vector<std::string> out;
    for (std::string_view line : text::split_lines(text)) {
        if (line.ends_with('\r')) line.remove_suffix(1);
        if (line.empty() || line[0] == '#') continue;
        out.push_back(line[0] == '/' ? std::string(line) : dir + "/" + std::string(line));
    }
    return out;
}

class Assembly {
  public:
    Assembly(git_odb* odb, const Repository::Admit& admit) : odb_(odb), admit_(admit) {}

    // `dir` with its alternates; an alternate that is not a directory is passed over, as
    // git and libgit2 pass it over. `named`: the environment named it. Admitted first.
    Result<Unit> add(const std::string& dir, bool alternate, int depth, bool named = false) {
        if (admit_)
            if (auto admitted = admit_(Repository::place_of({dir, alternate, named})); !admitted)
                return admitted;
        auto st = sys::stat(dir);
        if (!st || st->kind != sys::Kind::directory) {
            if (alternate) return Unit{};
            return Error{fmt::format("cannot read the object directory {}: {}",
                                     text::printable(dir), std::strerror(st ? ENOTDIR : errno))};
        }
        if (!seen_.insert({st->dev, st->ino}).second) return Unit{};
        opened.push_back({dir, alternate, named});
        // Its info and pack files (multi-pack-index, the packs, alternates) before libgit2
        // opens any.
        for (const char* sub : {"/info", "/pack"})
            if (auto refused = refuse_special_files(dir + sub, 0); !refused) return refused;
        git_odb_backend* packed = nullptr;
        if (git_odb_backend_pack(&packed, dir.c_str()) < 0)
            return failure(fmt::format("cannot read the packs of {}", text::printable(dir)));
        if (auto r = attach(packed, kPackedPriority, alternate); !r) return r;
        auto loose = loose_backend(dir);
        if (!loose) return loose.error();
        if (auto r = attach(loose.value(), kLoosePriority, alternate); !r) return r;
        if (depth < kMaxAlternateDepth) {
            auto more = alternates_of(dir);
            if (!more) return more.error();
            for (const auto& next : more.value())
                if (auto r = add(next, true, depth + 1); !r) return r;
        }
        return Unit{};
    }

  private:
    Result<Unit> attach(git_odb_backend* backend, int priority, bool alternate) {
        if ((alternate ? git_odb_add_alternate(odb_, backend, priority)
                       : git_odb_add_backend(odb_, backend, priority)) < 0) {
            backend->free(backend);
            return failure("cannot assemble the object database");
        }
        return Unit{};
    }

  public:
    std::vector<Repository::ObjectDirectory> opened;

  private:
    git_odb* odb_;
    const Repository::Admit& admit_;
    std::set<std::pair<std::uint64_t, std::uint64_t>> seen_;
};

}  // namespace

Result<Unit> refuse_special_file(const std::string& path, std::string_view also) {
    auto st = sys::stat(path);  // through symlinks: what libgit2 would open
    if (!st) return Unit{};
    std::string_view kind;
    switch (st->kind) {
        case sys::Kind::fifo:
            kind = "a FIFO, which git and libgit2 would wait on forever";
            break;
        case sys::Kind::socket:
            kind = "a socket, which no read can open";
            break;
        case sys::Kind::char_device:
        case sys::Kind::block_device:
            kind = "a device, which git and libgit2 would read without end";
            break;
        default:
            return Unit{};
    }
    return Error{fmt::format("{} is {}: remove it (rm {}){}", text::printable(path), kind,
                             text::shell_word(path), also)};
}

Result<Unit> refuse_special_files(const std::string& path, int levels) {
    sys::Dir dir = sys::Dir::open(path);
    if (!dir.is_open()) return Unit{};
    auto entries = dir.list();
    if (!entries) return Unit{};
    const std::string under = path.ends_with('/') ? path : path + "/";
    for (const auto& e : *entries) {
        const std::string full = under + e.name;
        if (e.kind == sys::Kind::directory) {
            if (levels > 0)
                if (auto r = refuse_special_files(full, levels - 1); !r) return r;
            continue;
        }
        if (e.kind == sys::Kind::regular) continue;  // the listing says, without a stat
        if (auto r = refuse_special_file(
                full, e.name == "index" ? " and rebuild the index from HEAD (git reset)" : "");
            !r)
            return r;
    }
    return Unit{};
}

Result<std::vector<Repository::ObjectDirectory>> use_object_store(
    git_repository* repo, const std::string& objects, const std::vector<std::string>& alternates,
    const Repository::Admit& admit) {
    std::string dir = objects;
    if (dir.empty()) {
        git_buf path = GIT_BUF_INIT;
        if (git_repository_item_path(&path, repo, GIT_REPOSITORY_ITEM_OBJECTS) < 0)
            return failure("cannot find the object directory");
        dir = path.ptr;
        git_buf_dispose(&path);
    }
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    OdbHandle odb;
    if (git_odb_new(odb.out()) < 0) return failure("cannot make an object database");
    Assembly assembly(odb.get(), admit);
    if (auto r = assembly.add(dir, false, 0, !objects.empty()); !r) return r.error();
    for (const auto& alternate : alternates)
        if (auto r = assembly.add(alternate, true, 0, true); !r) return r.error();
    git_repository_set_odb(repo, odb.get());  // the repository takes its own reference
    return std::move(assembly.opened);
}

}  // namespace cp::git
