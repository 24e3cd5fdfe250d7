// File bytes at a target, read once while they are needed: a blob by id, a path at a commit,
// or a path in the working tree (what is on disk; for a file a sparse checkout leaves off
// disk, the index's blob, as git counts it). Shared by resolution (symbol checks), windows
// and callers.
//
// Blobs are kept within a budget, the least recently used given up first: a batch over many
// pairs holds what its pairs in flight read, not all it ever read. A blob is handed out as a
// shared pointer, so one given up while a caller holds it stays alive for that caller. The
// working tree's files are kept for the whole run, so that resolution, windows and callers
// all see the same bytes of a file that may be changing.
//
// One thread's. A pool task that resolves a pair of commits whole has its own, over its
// reader, with a pool thread's part of the main one's budget; it reads no working-tree file,
// so every step still sees the main Content's one set of those bytes.
#pragma once

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "context_pack/core/result.hpp"
#include "context_pack/git/repository.hpp"

namespace cp {

// A file's bytes, shared by the cache and whoever reads them.
using Bytes = std::shared_ptr<const std::string>;

// 16 MiB of blobs by default (--cache-mib): on git/git, a 300-pair batch reads no faster with
// 64 (docs/performance.md), and a pair's own reads fit many times over.
inline constexpr std::uint64_t kDefaultCacheBytes = std::uint64_t{16} << 20;

class Content {
  public:
    explicit Content(const git::Repository& repo, std::uint64_t budget = kDefaultCacheBytes)
        : repo_(repo), budget_(budget) {}

    // Null when the blob is over the repository's file size limit. `of`: what the blob is to
    // the caller ("of a.c at base"), for the error when the store cannot give it.
    Result<Bytes> blob(const std::string& oid, std::string_view of = {});
    bool held(const std::string& oid) const { return blobs_.count(oid) > 0; }
    // Keeps a blob read elsewhere (on the pool), unless it is kept already.
    void adopt(const std::string& oid, std::string bytes);
    // `target`: a commit, or nullopt for the working tree. Null when there is no regular file
    // at that path (absent, a directory, a symlink, a submodule, or over the size limit). An
    // object the store cannot give is an error naming the path (Error::object).
    Result<Bytes> file(const std::optional<std::string>& target, const std::string& path);

    // The blob id of the regular file at `path` at a commit (from its tree), or in the working
    // tree (its bytes hashed as git would store them; the index's blob for a file a sparse
    // checkout leaves off disk). nullopt when there is none (absent, not a regular file, or
    // in the working tree over the size limit, or an object the store does not give).
    Result<std::optional<std::string>> blob_id(const std::optional<std::string>& target,
                                               const std::string& path);

    const git::Repository& repo() const { return repo_; }
    std::uint64_t budget() const { return budget_; }
    // The bytes of the blobs kept now, and the most they ever came to.
    std::uint64_t kept_bytes() const { return kept_; }
    std::uint64_t peak_bytes() const { return peak_; }

  private:
    const Bytes& keep(const std::string& oid, std::string bytes);
    // The blob id of the regular file at `path` at a commit, looked up once (at_commit_).
    Result<const std::optional<std::string>*> id_at(const std::string& commit,
                                                    const std::string& path);

    const git::Repository& repo_;
    std::uint64_t budget_;
    std::uint64_t kept_ = 0, peak_ = 0;
    struct Kept {
        Bytes bytes;
        std::list<std::string>::iterator use;  // its place in uses_
    };
    std::unordered_map<std::string, Kept> blobs_;                     // by blob id
    std::list<std::string> uses_;                                     // most recent first
    std::map<std::string, Bytes> worktree_;                           // path -> bytes
    std::map<std::string, std::optional<std::string>> at_commit_;     // "commit:path" -> blob id
    std::map<std::string, std::optional<std::string>> worktree_ids_;  // path -> blob id
};

}  // namespace cp
