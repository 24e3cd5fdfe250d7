#include "context_pack/resolve/pack.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <map>
#include <optional>
#include <set>

namespace cp {
namespace {

// An anchor gets a window and its symbol a caller list unless --since found it untouched.
bool wanted(const AnchorResult& a) {
    return a.edited_since != false;
}

// Its symbol gets a caller list where its code is at the target: not for an anchor GONE,
// UNRESOLVED, or whose lines were all deleted.
bool has_callers(const AnchorResult& a) {
    return a.anchor.symbol && wanted(a) && a.to && !a.lines_deleted && a.to->end_line >= a.to->line;
}

// Where an anchor's window is, if it has one.
std::optional<TargetLines> window_lines(const AnchorResult& a) {
    const Location* at = a.window_location();
    if (!at) return std::nullopt;
    TargetLines lines{at->path, {at->line, at->end_line}, std::nullopt};
    // A TOUCHED anchor's best lines, marked where they are fewer than its range.
    if (a.best && a.to && a.best->line > 0 && at == &*a.to && a.best->line >= at->line &&
        a.best->end_line <= at->end_line &&
        (a.best->line > at->line || a.best->end_line < at->end_line))
        lines.best = LineRange{a.best->line, a.best->end_line};
    return lines;
}

// What a caller scan passed over because the object store did not give it (a file's blob, a
// directory's tree): path and why, the directories first, then the files in file order.
using Unscanned = std::vector<std::pair<std::string, std::string>>;

// The files a caller scan reads: the target's tracked files, and in the working tree its
// untracked ones that are not ignored (read from disk as tracked files are), in path order,
// those `within` names but for `not_callers`.
Result<std::vector<git::TrackedFile>> files_to_scan(const git::Repository& repo,
                                                    const std::optional<std::string>& target,
                                                    const PathFilter& within,
                                                    const std::vector<std::string>& not_callers,
                                                    const git::Repository::SkipVisitor& skip) {
    auto files = repo.tracked_files(target, skip);
    if (!files) return files.error();
    if (!target) {
        auto untracked = repo.untracked_files();
        if (!untracked) return untracked.error();
        for (std::string& path : untracked.value()) files->push_back({std::move(path), {}});
        std::sort(
            files->begin(), files->end(),
            [](const git::TrackedFile& a, const git::TrackedFile& b) { return a.path < b.path; });
    }
    std::erase_if(files.value(), [&](const git::TrackedFile& f) {
        return (!within.everything() && !within.matches(f.path)) ||
               std::find(not_callers.begin(), not_callers.end(), f.path) != not_callers.end();
    });
    return files;
}

// Every whole-word hit of `symbols` in the files to scan. With a pool, the files are cut into
// runs of consecutive ones, each scanned on the pool through its thread's handle, and the
// runs' hits joined in file order: the same hits, in the same order, as one pass. Files and
// directories the object store does not give are passed over into `unscanned`.
Result<CallerScan> scan_callers(const git::Repository& repo,
                                const std::optional<std::string>& target,
                                const std::vector<std::string>& symbols, std::size_t max_line_bytes,
                                const PathFilter& within,
                                const std::vector<std::string>& not_callers, Pool* pool,
                                Unscanned& unscanned) {
    CallerScan all(symbols, max_line_bytes);
    auto scan_into = [](CallerScan& scan) {
        return [&scan](const std::string& path, std::string_view bytes) { scan.scan(path, bytes); };
    };
    auto skip_into = [](Unscanned& list) {
        return [&list](const std::string& path, const Error& why) {
            list.emplace_back(path, why.message);
        };
    };
    auto files = files_to_scan(repo, target, within, not_callers, skip_into(unscanned));
    if (!files) return files.error();
    if (!pool) {
        auto read = repo.read_tracked(files.value(), 0, files->size(), scan_into(all), nullptr,
                                      skip_into(unscanned));
        if (!read) return read.error();
        return all;
    }
    // Runs small enough to balance the threads, large enough that a run outweighs its task.
    const std::size_t run = std::max<std::size_t>(16, files->size() / (pool->size() * 16) + 1);
    struct Part {
        CallerScan scan;
        Unscanned unscanned;
    };
    std::vector<std::future<Result<Part>>> runs;
    for (std::size_t begin = 0; begin < files->size(); begin += run) {
        std::size_t end = std::min(files->size(), begin + run);
        runs.push_back(pool->run([&, begin, end](const git::Repository& reader) -> Result<Part> {
            Part part{CallerScan(symbols, max_line_bytes), {}};
            auto read = repo.read_tracked(files.value(), begin, end, scan_into(part.scan), &reader,
                                          skip_into(part.unscanned));
            if (!read) return read.error();
            return part;
        }));
    }
    std::optional<Error> error;
    for (auto& r : runs) {  // every run is waited for: they read `files`
        auto part = r.get();
        if (!part && !error) error = part.error();
        if (!part) continue;
        all.append(part->scan);
        unscanned.insert(unscanned.end(), part->unscanned.begin(), part->unscanned.end());
    }
    if (error) return *error;
    return all;
}

}  // namespace

Result<Unit> add_windows_and_callers(Content& content, Report& report, const PackOptions& options,
                                     Pool* pool) {
    for (SpecReport& spec : report.specs) {
        auto target = spec.target_commit();
        std::optional<Error> error;
        std::map<std::string, std::string> unread;  // path -> why its window is not shown
        std::vector<Bytes> held;  // what build_windows reads stays alive while it reads
        FileBytes bytes = [&](const std::string& path) -> const std::string* {
            auto file = content.file(target, path);
            if (!file && file.error().unreadable_object()) {
                unread.emplace(path, file.error().message);
                return nullptr;
            }
            if (!file) {
                error = file.error();
                return nullptr;
            }
            held.push_back(std::move(file).value());
            return held.back().get();
        };
        std::vector<std::optional<TargetLines>> shown;
        std::vector<std::size_t> index;  // position in spec.anchors of each shown anchor
        for (std::size_t i = 0; i < spec.anchors.size(); ++i) {
            if (!wanted(spec.anchors[i])) continue;
            shown.push_back(window_lines(spec.anchors[i]));
            index.push_back(i);
        }
        spec.windows = build_windows(shown, bytes, options.window);
        if (error) return *error;
        for (AnchorResult& a : spec.anchors) {  // a window the store could not give: said
            const Location* at = a.window_location();
            auto why = at ? unread.find(at->path) : unread.end();
            if (why != unread.end()) a.add_note("its window is not shown: " + why->second);
        }
        for (Window& w : spec.windows)
            for (auto& a : w.anchors) a = index[a];
    }
    if (!options.callers) return Unit{};

    // One scan per distinct target, for the symbols of every spec on it.
    std::map<std::string, std::vector<SpecReport*>> by_target;
    for (SpecReport& spec : report.specs)
        if (spec.target.resolved()) by_target[spec.target.name()].push_back(&spec);
    for (auto& [target, specs] : by_target) {
        std::set<std::string> symbols;
        for (SpecReport* spec : specs)
            for (const AnchorResult& a : spec->anchors)
                if (has_callers(a)) symbols.insert(*a.anchor.symbol);
        if (symbols.empty()) continue;
        Unscanned unscanned;
        auto scanned = scan_callers(content.repo(), specs.front()->target_commit(),
                                    {symbols.begin(), symbols.end()}, options.window.max_line_bytes,
                                    options.callers_in, options.not_callers, pool, unscanned);
        if (!scanned) return scanned.error();
        const CallerScan& scan = scanned.value();
        // Its callers may lie in what was passed over: each anchor with a symbol says so.
        if (!unscanned.empty()) {
            std::string note = fmt::format(
                "callers were not searched in {} tracked {} the object store could not give; "
                "the first: {}",
                unscanned.size(), unscanned.size() == 1 ? "path" : "paths",
                unscanned.front().second);
            for (SpecReport* spec : specs)
                for (AnchorResult& a : spec->anchors)
                    if (has_callers(a)) a.add_note(note);
        }

        for (SpecReport* spec : specs) {
            std::vector<std::string> order;  // symbols in order of first use
            for (const AnchorResult& a : spec->anchors)
                if (has_callers(a) &&
                    std::find(order.begin(), order.end(), *a.anchor.symbol) == order.end())
                    order.push_back(*a.anchor.symbol);
            for (const std::string& symbol : order) {
                std::vector<Shown> own;  // the symbol's own windows, context included
                for (const Window& w : spec->windows) {
                    bool holds = std::any_of(w.anchors.begin(), w.anchors.end(), [&](auto i) {
                        return spec->anchors[i].anchor.symbol == symbol;
                    });
                    LineNo last_shown = w.omitted() ? w.omitted_from - 1 : w.last;
                    if (holds) own.push_back({w.path, w.first, last_shown});
                }
                // Its own file: that of its first anchor, where it landed, else at base.
                auto owner = std::find_if(spec->anchors.begin(), spec->anchors.end(),
                                          [&](const AnchorResult& a) {
                                              return a.anchor.symbol == symbol && has_callers(a);
                                          });
                const std::string& own_path = owner->to ? owner->to->path : owner->anchor.path;
                spec->callers.push_back(summarize_callers(symbol, scan.hits(symbol), own,
                                                          options.max_callers, scan.files_scanned(),
                                                          own_path));
            }
        }
    }
    return Unit{};
}

}  // namespace cp
