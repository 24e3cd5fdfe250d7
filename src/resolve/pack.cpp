#include "context_pack/resolve/pack.hpp"

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

// Where an anchor's window is, if it has one.
std::optional<TargetLines> window_lines(const AnchorResult& a) {
    const Location* at = a.window_location();
    if (!at) return std::nullopt;
    return TargetLines{at->path, {at->line, at->end_line}};
}

// Every whole-word hit of `symbols` in the target's tracked files. With a pool, the files are
// cut into runs of consecutive ones, each scanned on the pool through its thread's handle,
// and the runs' hits joined in file order: the same hits, in the same order, as one pass.
Result<CallerScan> scan_callers(const git::Repository& repo,
                                const std::optional<std::string>& target,
                                const std::vector<std::string>& symbols, std::size_t max_line_bytes,
                                Pool* pool) {
    CallerScan all(symbols, max_line_bytes);
    auto scan_into = [](CallerScan& scan) {
        return [&scan](const std::string& path, std::string_view bytes) { scan.scan(path, bytes); };
    };
    if (!pool) {
        auto walked = repo.for_each_tracked_file(target, scan_into(all));
        if (!walked) return walked.error();
        return all;
    }
    auto files = repo.tracked_files(target);
    if (!files) return files.error();
    // Runs small enough to balance the threads, large enough that a run outweighs its task.
    const std::size_t run = std::max<std::size_t>(16, files->size() / (pool->size() * 16) + 1);
    std::vector<std::future<Result<CallerScan>>> runs;
    for (std::size_t begin = 0; begin < files->size(); begin += run) {
        std::size_t end = std::min(files->size(), begin + run);
        runs.push_back(
            pool->run([&, begin, end](const git::Repository& reader) -> Result<CallerScan> {
                CallerScan part(symbols, max_line_bytes);
                auto read = repo.read_tracked(files.value(), begin, end, scan_into(part), &reader);
                if (!read) return read.error();
                return part;
            }));
    }
    std::optional<Error> error;
    for (auto& r : runs) {  // every run is waited for: they read `files`
        auto part = r.get();
        if (!part && !error) error = part.error();
        if (part) all.append(part.value());
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
        FileBytes bytes = [&](const std::string& path) -> const std::string* {
            auto file = content.file(target, path);
            if (!file) {
                error = file.error();
                return nullptr;
            }
            return file.value();
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
                if (a.anchor.symbol && wanted(a)) symbols.insert(*a.anchor.symbol);
        if (symbols.empty()) continue;
        auto scanned =
            scan_callers(content.repo(), specs.front()->target_commit(),
                         {symbols.begin(), symbols.end()}, options.window.max_line_bytes, pool);
        if (!scanned) return scanned.error();
        const CallerScan& scan = scanned.value();

        for (SpecReport* spec : specs) {
            std::vector<std::string> order;  // symbols in order of first use
            for (const AnchorResult& a : spec->anchors)
                if (a.anchor.symbol && wanted(a) &&
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
                spec->callers.push_back(summarize_callers(
                    symbol, scan.hits(symbol), own, options.max_callers, scan.files_scanned()));
            }
        }
    }
    return Unit{};
}

}  // namespace cp
