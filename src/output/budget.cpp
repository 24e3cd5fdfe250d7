#include "context_pack/output/budget.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <sstream>

namespace cp {

FittedPack fit_pack(const Report& report, TextOptions text, JsonCaps doc,
                    const TokenBudget& budget) {
    text.over = fmt::format("{} {}", budget.option, budget.max_tokens);
    doc.max_tokens = budget.max_tokens;
    const std::optional<std::size_t> asked_lines = doc.max_lines;
    struct Made {
        FittedPack pack;
        std::size_t lines = 0;
        bool fits = false;
    };
    auto make = [&](const TextOptions& t) {
        Made m;
        const PackCuts cuts = plan_cuts(report, t);
        // The text, where it is sent or limited: a document alone is measured alone.
        if (budget.text_in_whole || budget.text_bytes != std::numeric_limits<std::size_t>::max()) {
            std::ostringstream out;
            print_pack(out, report, t, cuts);
            m.pack.text = out.str();
        }
        m.lines = m.pack.text.empty()
                      ? cuts.lines
                      : std::size_t(std::count(m.pack.text.begin(), m.pack.text.end(), '\n'));
        const std::size_t text_bytes = m.pack.text.size() + budget.text_after;
        m.fits = text_bytes <= budget.text_bytes;
        if (budget.whole_bytes) {
            JsonCaps c = doc;
            c.cuts = &cuts;
            c.max_lines = t.max_lines == std::numeric_limits<std::size_t>::max()
                              ? asked_lines
                              : std::optional<std::size_t>(t.max_lines);
            c.code_cut = t.code_cut;
            c.max_rows = t.max_rows;
            m.pack.doc = report_to_json(report, &c);
            // The text as the result carries it, a JSON string, beside the document.
            auto size = [](const auto& j, int indent) {
                return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace).size();
            };
            const std::size_t whole =
                size(*m.pack.doc, budget.indent) +
                (budget.text_in_whole ? size(nlohmann::json(m.pack.text), -1) + budget.text_after
                                      : 0);
            m.fits = m.fits && whole <= budget.whole_bytes;
        }
        return m;
    };
    // The largest value in [lo, hi] for which `set` makes a pack that fits, made; nullopt
    // when even lo does not.
    auto largest = [&](std::size_t lo, std::size_t hi, auto set) -> std::optional<Made> {
        TextOptions t = text;
        set(t, lo);
        Made best = make(t);
        if (!best.fits) return std::nullopt;
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo + 1) / 2;
            set(t, mid);
            Made m = make(t);
            if (m.fits) {
                lo = mid;
                best = std::move(m);
            } else {
                hi = mid - 1;
            }
        }
        return best;
    };

    Made whole = make(text);
    if (whole.fits) return std::move(whole.pack);
    // Fewer windows and caller lists: max_lines lowered, the table kept whole.
    if (!text.table_only && whole.lines > 0)
        if (auto fitted = largest(0, std::min(text.max_lines, whole.lines) - 1,
                                  [](TextOptions& t, std::size_t n) { t.max_lines = n; }))
            return std::move(fitted->pack);
    // No code at all, then fewer rows.
    if (!text.table_only) text.table_only = text.code_cut = true;
    std::size_t rows = 0;
    for (const SpecReport& spec : report.specs) rows = std::max(rows, spec.anchors.size());
    if (auto fitted = largest(0, rows, [](TextOptions& t, std::size_t n) { t.max_rows = n; }))
        return std::move(fitted->pack);
    // Even the tables' headers are over it (a batch of many specs): said, never cut silently.
    text.max_rows = 0;
    FittedPack smallest = make(text).pack;
    smallest.over = true;
    smallest.text += fmt::format(
        "… still over {}: the headers of the {} specs' tables alone are; ask for fewer specs "
        "at once\n",
        text.over, report.specs.size());
    return smallest;
}

}  // namespace cp
