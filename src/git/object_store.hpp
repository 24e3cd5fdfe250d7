// The object database every handle reads through: libgit2's pack reader, and our own reader of
// loose objects in place of libgit2's. libgit2 1.5 loops forever on a truncated loose object
// (its zlib drain loop makes no progress once the input ends early), pads a body shorter than
// its header says with NULs, and, with hash verification off, takes any well-formed content
// for the object asked for. Ours inflates to the end of the stream, checks the header's type
// and size against the body, and hashes the object: a loose object file is written whole and
// renamed into place, so damage shows there as nowhere else. Packed objects are left to
// libgit2: each entry's zlib stream carries a checksum, and sizes and deltas are checked.
// Private to src/git/.
#pragma once

#include <git2.h>

#include <string>
#include <string_view>
#include <vector>

#include "context_pack/core/result.hpp"
#include "context_pack/git/repository.hpp"

namespace cp::git {

// Gives `repo` an object database of `objects` (empty: the repository's own objects
// directory) with its info/alternates, and `alternates` (GIT_ALTERNATE_OBJECT_DIRECTORIES)
// with theirs, as git reads them: each a pack reader and our loose reader.
// The directories opened, in order (Repository::object_directories); `admit`, when given, is
// asked of each before anything in it is looked at.
Result<std::vector<Repository::ObjectDirectory>> use_object_store(
    git_repository* repo, const std::string& objects, const std::vector<std::string>& alternates,
    const Repository::Admit& admit = {});

// A file of the git directory that is no regular file (a FIFO, a socket, a device, or a
// symlink to one): libgit2 opens such a file and waits on it, or reads it without end, so it
// is refused before libgit2 is asked for anything: `path`'s entries (`levels` deep below it;
// a missing directory is none), each named with its mend. `also`: what to add to the mend.
Result<Unit> refuse_special_files(const std::string& path, int levels);
Result<Unit> refuse_special_file(const std::string& path, std::string_view also = {});

}  // namespace cp::git
