// Line hunks: both sides of a delta read (Diff::read_sides), then git's -U0 diff of them
// (line_hunks) through libgit2's bundled xdiff, called directly where the build allows, else
// through libgit2's public API.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "context_pack/core/text.hpp"
#include "context_pack/git/build_config.hpp"
#include "context_pack/sys/fs.hpp"
#include "libgit2.hpp"
#if CONTEXT_PACK_DIRECT_XDIFF
#include "xdiff_hunks.h"
#endif

namespace {
constexpr std::size_t kXdiffMaxSize = 1024ul * 1024 * 1023;  // GIT_XDIFF_MAX_SIZE
}  // namespace

namespace cp::git {
namespace {

// git's trim_common_tail for -U0 diffs (xdiff-interface.c): drop the identical tail in
// 1 KiB blocks, keeping the rest of the line the last block cut into.
void trim_common_tail(std::string_view& a, std::string_view& b) {
    constexpr std::size_t kBlock = 1024;
    std::size_t trimmed = 0, recovered = 0;
    std::size_t smaller = std::min(a.size(), b.size());
    while (kBlock + trimmed <= smaller &&
           std::memcmp(a.data() + a.size() - trimmed - kBlock,
                       b.data() + b.size() - trimmed - kBlock, kBlock) == 0)
        trimmed += kBlock;
    const char* ap = a.data() + a.size() - trimmed;
    while (recovered < trimmed)
        if (ap[recovered++] == '\n') break;
    a = a.substr(0, a.size() - (trimmed - recovered));
    b = b.substr(0, b.size() - (trimmed - recovered));
}

#if CONTEXT_PACK_DIRECT_XDIFF
// xdiff itself (xdiff_hunks.h), with the indent heuristic unless asked otherwise, -U0.
Result<Hunks> direct_xdiff(std::string_view a, std::string_view b, const std::string& path,
                           bool indent_heuristic = true) {
    Hunks out;
    auto on_hunk = [](long old_at, long old_count, long new_at, long new_count, void* to) -> int {
        // 0-based first lines as xdiff counts them; a hunk header (and libgit2's hunks) names
        // the line before an empty side.
        static_cast<Hunks*>(to)->hunks.push_back({old_count ? old_at + 1 : old_at, old_count,
                                                  new_count ? new_at + 1 : new_at, new_count});
        return 0;
    };
    if (cp_xdiff_hunks(a.data(), long(a.size()), b.data(), long(b.size()), indent_heuristic,
                       on_hunk, &out) < 0)
        return Error{fmt::format("cannot diff {}: out of memory", path)};
    return out;
}
#endif

// The same diff through libgit2's public API: the same xdiff with the same flags, the sides
// forced to text (binary was decided before), after SHA-1 hashes of both.
Result<Hunks> library_xdiff(std::string_view a, std::string_view b, const std::string& path,
                            bool indent_heuristic = true) {
    // libgit2's init function rather than its INIT macro, whose brace list clang flags as
    // missing fields (-Wmissing-field-initializers) in every file that expands it.
    git_diff_options options;
    if (git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION) < 0)
        return failure("cannot set up a diff of two buffers");
    options.flags = GIT_DIFF_FORCE_TEXT | (indent_heuristic ? GIT_DIFF_INDENT_HEURISTIC : 0);
    options.context_lines = 0;
    options.interhunk_lines = 0;
    Hunks out;
    auto on_hunk = [](const git_diff_delta*, const git_diff_hunk* hunk, void* to) -> int {
        static_cast<Hunks*>(to)->hunks.push_back(
            {hunk->old_start, hunk->old_lines, hunk->new_start, hunk->new_lines});
        return 0;
    };
    if (git_diff_buffers(a.data(), a.size(), nullptr, b.data(), b.size(), nullptr, &options,
                         nullptr, nullptr, on_hunk, nullptr, &out) < 0)
        return failure(fmt::format("cannot diff {}", path));
    return out;
}

}  // namespace

Result<HunkInput> Diff::read_sides(const Delta& delta, const std::string* given_old,
                                   const std::string* given_new, const Repository* reader) const {
    const Repository& from = reader && !worktree_ ? *reader : *repo_;  // reads objects
    HunkInput in;
    in.old_path = delta.old_path;
    in.new_path = delta.new_path;
    in.has_old = delta.change != Change::Added;    // an added file diffs against nothing at base,
    in.has_new = delta.change != Change::Deleted;  // a deleted one against nothing at target
    // Sides over the size limit are not read: no line hunks from them.
    const std::uint64_t max = repo_->max_file_bytes();
    auto over = [&](const std::string& oid) -> Result<bool> {
        auto size = from.blob_size(oid);
        if (!size) return size.error();
        return size.value() > max;
    };
    if (worktree_) given_new = nullptr;  // a working-tree file is read converted, below
    if (in.has_old && !given_old) {
        auto big = over(delta.old_oid);
        if (!big) return big.error();
        in.too_large = big.value();
    }
    if (in.has_new && !given_new && !in.too_large) {
        if (worktree_) {
            auto st = sys::lstat(repo_->workdir() + delta.new_path);
            in.too_large = st && st->size > max;
        } else {
            auto big = over(delta.new_oid);
            if (!big) return big.error();
            in.too_large = big.value();
        }
    }
    if (in.too_large) return in;
    in.given_old = given_old;
    in.given_new = given_new;
    if (in.has_old && !given_old) {
        auto bytes = from.blob(delta.old_oid);
        if (!bytes) return bytes.error();
        in.owned_old = std::move(bytes).value();
    }
    if (!in.has_new || given_new) {
    } else if (worktree_) {
        auto file = partial_ ? repo_->read_worktree(delta.new_path)
                             : repo_->read_worktree_as_stored(delta.new_path);
        if (!file) return file.error();
        if (file.value()) in.owned_new = std::move(*file.value());
    } else {
        auto bytes = from.blob(delta.new_oid);
        if (!bytes) return bytes.error();
        in.owned_new = std::move(bytes).value();
    }
    return in;
}

Result<Hunks> line_hunks(const HunkInput& in, DiffAttribute old_attribute,
                         DiffAttribute new_attribute, XdiffCall call) {
    if (in.too_large) return Hunks{false, true, {}};
    // Binary as git diff decides: the diff attribute first, then the content.
    auto binary = [&](DiffAttribute attribute, std::string_view bytes) {
        switch (attribute) {
            case DiffAttribute::Binary:
                return true;
            case DiffAttribute::Text:
                return false;
            case DiffAttribute::Unset:
                return text::looks_binary(bytes);
        }
        return false;
    };
    if ((in.has_old && binary(old_attribute, in.old_bytes())) ||
        (in.has_new && binary(new_attribute, in.new_bytes())))
        return Hunks{true, false, {}};

    std::string_view a = in.old_bytes(), b = in.new_bytes();
    trim_common_tail(a, b);
    if (a.size() > kXdiffMaxSize || b.size() > kXdiffMaxSize)  // libgit2 calls them binary
        return Hunks{true, false, {}};
    init_library();  // xdiff allocates through libgit2's allocator
    switch (call) {
        case XdiffCall::Direct:
#if CONTEXT_PACK_DIRECT_XDIFF
            return direct_xdiff(a, b, in.new_path);
#else
            return Error{"this build calls xdiff through libgit2's API only (cmake/Libgit2.cmake)"};
#endif
        case XdiffCall::Library:
            break;
    }
    return library_xdiff(a, b, in.new_path);
}

Result<std::vector<Hunk>> line_log_hunks(std::string_view parent, std::string_view commit,
                                         XdiffCall call) {
    trim_common_tail(parent, commit);
    if (parent.size() > kXdiffMaxSize || commit.size() > kXdiffMaxSize)
        return Error{"a file over 1 GiB cannot be diffed line by line"};
    init_library();
    Result<Hunks> made = Error{""};
    if (call == XdiffCall::Direct) {
#if CONTEXT_PACK_DIRECT_XDIFF
        made = direct_xdiff(parent, commit, "a file", false);
#else
        return Error{"this build calls xdiff through libgit2's API only (cmake/Libgit2.cmake)"};
#endif
    } else {
        made = library_xdiff(parent, commit, "a file", false);
    }
    if (!made) return made.error();
    return std::move(made.value().hunks);
}

XdiffCall default_xdiff_call() {
    return CONTEXT_PACK_DIRECT_XDIFF ? XdiffCall::Direct : XdiffCall::Library;
}

Result<Hunks> Diff::hunks(const Delta& delta, const std::string* old_bytes,
                          const std::string* new_bytes) const {
    auto in = read_sides(delta, old_bytes, new_bytes);
    if (!in) return in.error();
    auto old_attribute = diff_attribute(delta.old_path);
    if (!old_attribute) return old_attribute.error();
    auto new_attribute = diff_attribute(delta.new_path);
    if (!new_attribute) return new_attribute.error();
    return line_hunks(in.value(), old_attribute.value(), new_attribute.value());
}

}  // namespace cp::git
