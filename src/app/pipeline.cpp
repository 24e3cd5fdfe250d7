#include "context_pack/app/pipeline.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "context_pack/core/text.hpp"
#include "context_pack/git/repository.hpp"
#include "context_pack/model/prose.hpp"
#include "context_pack/resolve/content.hpp"
#include "context_pack/sys/fs.hpp"
#include "context_pack/sys/memory.hpp"

namespace cp {

namespace {

// A row range "FIRST-LAST" of `only` (both table rows, FIRST <= LAST); nullopt for anything
// else.
std::optional<std::pair<std::size_t, std::size_t>> row_range(std::string_view o) {
    const auto dash = o.find('-');
    if (dash == std::string_view::npos) return std::nullopt;
    auto number = [](std::string_view digits) -> std::optional<std::size_t> {
        if (digits.empty() || digits.size() > 9 ||
            !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
        return std::stoul(std::string(digits));
    };
    const auto first = number(o.substr(0, dash)), last = number(o.substr(dash + 1));
    if (!first || !last || *first > *last) return std::nullopt;
    return std::pair{*first, *last};
}

// Whether `only` names the anchor at `row` of its table: by its row, a range of rows, its
// label, its path or its symbol.
bool only_names(const std::vector<std::string>& only, const Anchor& a, std::size_t row) {
    return std::any_of(only.begin(), only.end(), [&](const std::string& o) {
        const auto range = row_range(o);
        return o == std::to_string(row) || (range && range->first <= row && row <= range->second) ||
               o == anchor_label(a) || o == a.path || (a.symbol && o == *a.symbol);
    });
}

// What `only` could have named, for the refusal when it names nothing.
std::string only_problem(const std::vector<Spec>& specs, const OptionNames& names) {
    std::size_t rows = 0, edits = 0, reads = 0;
    for (const Spec& spec : specs) {
        rows = std::max(rows, spec.anchors.size());
        std::size_t e = 0, r = 0;
        for (const Anchor& a : spec.anchors) (a.kind == AnchorKind::Edit ? e : r) += 1;
        edits = std::max(edits, e);
        reads = std::max(reads, r);
    }
    std::vector<std::string> labels;
    if (edits) labels.push_back(fmt::format("file_changes[0]-[{}]", edits - 1));
    if (reads) labels.push_back(fmt::format("reads[0]-[{}]", reads - 1));
    return fmt::format(
        "{} matches no anchor of the plan, whose table has rows 1-{} ({}); give a row, a range of "
        "rows (4-9), a label, an anchor's path or its symbol",
        names.only.name, rows, fmt::join(labels, ", "));
}

}  // namespace

bool select_only(Report& report, const std::vector<std::string>& only) {
    bool any = false;
    for (SpecReport& spec : report.specs) {
        std::erase_if(spec.anchors,
                      [&](const AnchorResult& a) { return !only_names(only, a.anchor, a.row); });
        any = any || !spec.anchors.empty();
    }
    return any;
}

namespace {

// Thrown from the progress hook when the request is cancelled, and caught in build_report:
// resolution stops between specs, as if a spec had failed.
struct Cancelled {};

const char* const kCancelled = "cancelled before it finished";

// At most this many anchors in all, and the default --jobs reads them on the main thread.
const std::size_t kFewAnchors = 16;

// What resolution does for this request. Lost lines are looked for in other files only when
// windows are wanted: that adds pointers (found_at, candidates), never a status.
ResolveOptions resolve_options(const Request& request) {
    ResolveOptions options;
    options.base = request.base;
    options.target = request.target;
    options.at_base = request.at_base;
    options.since = request.since;
    options.history = request.history;
    // A spec is finished when resolved only if nothing after resolution changes it.
    if (request.table_only && request.only.empty()) options.on_spec = request.on_spec;
    if (request.cancelled)
        options.on_progress = [&request](std::size_t done, std::size_t total) {
            if (request.on_progress) request.on_progress(done, total);
            if (request.cancelled()) throw Cancelled{};
        };
    else
        options.on_progress = request.on_progress;
    return options;
}

// The pool's threads: as asked, else none for a handful of anchors, whose reads take less
// than starting threads and their handles does (docs/performance.md).
unsigned pool_threads(const Request& request) {
    if (request.jobs != 0) return request.jobs;
    std::size_t anchors = 0;
    for (const Spec& spec : request.specs) anchors += spec.anchors.size();
    return anchors <= kFewAnchors ? 1 : 0;
}

}  // namespace

Result<Report> build_report(const Request& request) {
    const OptionNames& names = request.names;
    const ResolveOptions ro = resolve_options(request);
    if (ro.at_base && ro.target)
        return Error{fmt::format("{} and {} both set the target; give one of them",
                                 names.at_base.name, names.target.name)};

    auto callers_in = PathFilter::parse(request.callers_in, names.callers_in.name);
    if (!callers_in) return callers_in.error();
    PackOptions pack = request.pack;
    pack.callers_in = std::move(callers_in).value();

    if (request.repin && !request.only.empty())
        return Error{fmt::format("{} revises every anchor of the plan; drop {}", names.repin.name,
                                 names.only.name)};

    auto repo =
        git::Repository::open(request.repo_dir, names, request.git_env, request.admit_place);
    if (!repo) return repo.error();
    // A revised plan is pinned at a commit: the working tree is no base for it.
    if (request.repin && !ro.at_base && !ro.target && !repo->is_bare())
        for (const Spec& spec : request.specs)
            if (!spec.target)
                return Error{fmt::format(
                    "{} revises a plan onto a commit, and the target of {} is the working "
                    "tree; commit the changes first, then give {} (HEAD for the commit just "
                    "made)",
                    names.repin.name, text::printable(spec.source), names.target.give)};
    repo->set_max_file_bytes(request.max_file_bytes);
    // The spec files that lie in the work tree are no callers of what they name.
    if (const std::string top = repo->workdir(); !top.empty()) {
        std::string dir = sys::real_path(top).value_or(top);
        if (dir.back() != '/') dir += '/';
        for (const Spec& spec : request.specs) {
            if (spec.file.empty() || !spec.file.starts_with(dir)) continue;
            std::string path = spec.file.substr(dir.size());
            if (std::find(pack.not_callers.begin(), pack.not_callers.end(), path) ==
                pack.not_callers.end())
                pack.not_callers.push_back(std::move(path));
        }
    }

    // A mistyped --base, --target or --since is a usage error, not a per-anchor outcome: the
    // caller typed it just now. (A spec's own base that names nothing is its UNRESOLVED.)
    for (auto [flag, rev] :
         {std::pair{&names.target, &ro.target}, std::pair{&names.since, &ro.since},
          std::pair{&names.base, &ro.base}}) {
        if (!*rev) continue;
        auto found = repo->resolve_commit(**rev);
        if (found.outcome != git::Revision::Outcome::Commit)
            return Error{revision_problem(repo.value(), flag->name.c_str(), **rev, found)};
    }

    std::vector<Spec> with_prose;  // --prose: the specs with their mentions as reads
    if (request.prose) {
        with_prose = request.specs;
        for (Spec& spec : with_prose)
            if (std::size_t over = add_prose_anchors(spec))
                return Error{fmt::format(
                    "{}: {} takes at most {} distinct path:line mentions from a spec's text, and "
                    "it holds {} more; cite fewer in one spec, or drop {}",
                    text::printable(spec.source), names.prose.name, kMaxProseMentions, over,
                    names.prose.name)};
    }
    const std::vector<Spec>& specs = request.prose ? with_prose : request.specs;
    // Before the work: rows are the anchors' places in their specs.
    if (!request.only.empty()) {
        bool named = false;
        for (const Spec& spec : specs)
            for (std::size_t i = 0; i < spec.anchors.size() && !named; ++i)
                named = only_names(request.only, spec.anchors[i], i + 1);
        if (!named) return Error{only_problem(specs, names)};
    }

    Content content(repo.value(), request.cache_bytes);
    auto pool = Pool::start(repo.value(), pool_threads(request), sys::huge_pages_for_this_thread);
    std::optional<Result<Report>> resolved;
    try {
        resolved = resolve(content, specs, ro, pool.get());
    } catch (const Cancelled&) {
        return Error{kCancelled};
    }
    auto& report = *resolved;
    if (!report) return report.error();
    report->warnings_fail = request.at_base;  // the planner's check: an unknown key fails it
    if (const std::string top = repo->workdir(); !top.empty()) {
        std::error_code ec;  // symlinks resolved, as the current directory's are
        const auto real = std::filesystem::weakly_canonical(top, ec);
        report->workdir = ec ? top : real.generic_string();
    }
    if (request.cancelled && request.cancelled()) return Error{kCancelled};

    if (!request.only.empty() && !select_only(report.value(), request.only))
        return Error{only_problem(specs, names)};

    if (!request.table_only && !request.repin) {  // windows and callers read the files again
        auto packed = add_windows_and_callers(content, report.value(), pack, pool.get());
        if (!packed) return packed.error();
    }
    if (request.on_spec && !ro.on_spec)
        for (const SpecReport& spec : report->specs) request.on_spec(spec);
    return std::move(report);
}

}  // namespace cp
