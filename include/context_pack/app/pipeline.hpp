// The whole job as one call, shared by the command line and the MCP server: open the
// repository, check the revisions the caller named, resolve, keep the rows --only names,
// and attach windows and callers unless only the table is wanted. The front ends say what
// was asked; the policy that follows from it (what resolution searches, what is read) is
// decided here once, and every error names options as the request's front end does.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "context_pack/core/option_names.hpp"
#include "context_pack/core/result.hpp"
#include "context_pack/git/repository.hpp"
#include "context_pack/model/report.hpp"
#include "context_pack/model/spec.hpp"
#include "context_pack/resolve/pack.hpp"
#include "context_pack/resolve/resolve.hpp"

namespace cp {

struct Request {
    std::vector<Spec> specs;
    std::string repo_dir = ".";
    git::Environment git_env;           // git's repository environment, taken as git takes it
    std::optional<std::string> base;    // overrides every spec's base
    std::optional<std::string> target;  // overrides every spec's target
    bool at_base = false;               // every spec's target is its own base
    std::optional<std::string> since;   // mark the anchors whose lines changed since
    bool history = false;               // each anchor's commits since base (--history)
    std::vector<std::string> only;      // table rows ("3") or labels ("file_changes[2]")
    bool table_only = false;
    // Revise the specs onto their targets (output/repin): every anchor resolved, each
    // target a commit; no windows or callers.
    bool repin = false;
    // Take each spec's `path:line` mentions in its strings as extra reads (model/prose).
    bool prose = false;
    std::uint64_t max_file_bytes = git::kDefaultMaxFileBytes;  // files over it are not read
    std::uint64_t cache_bytes = kDefaultCacheBytes;  // blobs kept for reuse (Content's budget)
    // Threads that read and diff beside the main one (--jobs): 0 one a core, at most 8 (none
    // for 16 anchors or fewer); 1 none.
    // The report never depends on it.
    unsigned jobs = 0;
    PackOptions pack;
    // Where callers are searched: pathspecs PathFilter takes (checked before the repository is
    // opened); empty: every file.
    std::vector<std::string> callers_in;
    // Called with each spec's finished report, in input order: as soon as it is resolved
    // with table_only and no `only`, else once the whole report is made.
    std::function<void(const SpecReport&)> on_spec;
    std::function<void(std::size_t done, std::size_t total)> on_progress;  // anchors resolved
    // Asked after each spec is resolved and before the pack step: true stops the job, and
    // build_report returns an Error saying it was cancelled (MCP: notifications/cancelled).
    std::function<bool()> cancelled;
    OptionNames names = kCommandLineNames;  // how errors name the options above
    // The front end's word on each place of the repository as it is opened, before the place
    // is looked at (git::Repository::open; MCP: each must lie inside the client's roots);
    // absent: any repository.
    git::Repository::Admit admit_place;
};

Result<Report> build_report(const Request& request);

// Keeps the anchors that `only` names, by table row, range of rows ("4-9") or label; false
// when none matched.
bool select_only(Report& report, const std::vector<std::string>& only);

}  // namespace cp
