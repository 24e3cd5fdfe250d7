// File bytes at a target, read once: a blob by id, a path at a commit, or a path in the
// working tree (what is on disk; for a file a sparse checkout leaves off disk, the index's
// blob, as git counts it). Shared by resolution (symbol checks), windows and callers.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "context_pack/core/result.hpp"
#include "context_pack/git/repository.hpp"

namespace cp {

class Content {
  public:
    explicit Content(const git::Repository& repo) : repo_(repo) {}

    // nullptr when the blob is over the repository's file size limit. `of`: what the blob is
    // to the caller ("of a.c at base"), for the error when the store cannot give it.
    Result<const std::string*> blob(const std::string& oid, std::string_view of = {});
    bool held(const std::string& oid) const { return blobs_.count(oid) > 0; }
    // Keeps a blob read elsewhere (on the pool), unless it is kept already.
    void adopt(const std::string& oid, std::string bytes) {
        blobs_.try_emplace(oid, std::move(bytes));
    }
    // `target`: a commit, or nullopt for the working tree. nullptr when there is no regular
    // file at that path (absent, a directory, a symlink, a submodule, or over the size limit).
    // An object the store cannot give is an error naming the path (Error::object).
    Result<const std::string*> file(const std::optional<std::string>& target,
                                    const std::string& path);

    // The blob id of the regular file at `path` at a commit (from its tree), or in the working
    // tree (its bytes hashed as git would store them; the index's blob for a file a sparse
    // checkout leaves off disk). nullopt when there is none (absent, not a regular file, or
    // in the working tree over the size limit, or an object the store does not give).
    Result<std::optional<std::string>> blob_id(const std::optional<std::string>& target,
                                               const std::string& path);

    const git::Repository& repo() const { return repo_; }

  private:
    const git::Repository& repo_;
    std::map<std::string, std::string> blobs_;
    std::map<std::string, std::optional<std::string>> worktree_;
    std::map<std::string, std::optional<std::string>> at_commit_;     // "commit:path" -> blob id
    std::map<std::string, std::optional<std::string>> worktree_ids_;  // path -> blob id
};

}  // namespace cp
