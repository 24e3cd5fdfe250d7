#include "context_pack/model/summary.hpp"

#include <algorithm>
#include <map>

namespace cp {

void Counts::add(const AnchorResult& a) {
    ++by_status[static_cast<std::size_t>(a.status)];
    renamed += a.renamed;
    symbol_missing += a.symbol_found == false;
    ++total;
}

std::string path_prefix(const std::string& path) {
    auto slash = path.find('/');
    return slash == std::string::npos ? "(top)" : path.substr(0, slash + 1);
}

Summary summarize(const Report& report) {
    Summary out;
    std::map<std::string, Counts> prefixes;
    for (const SpecReport& spec : report.specs) {
        Counts c;
        for (const AnchorResult& a : spec.anchors) {
            c.add(a);
            out.all.add(a);
            prefixes[path_prefix(a.anchor.path)].add(a);
        }
        out.by_spec.emplace_back(spec.id.empty() ? spec.source : spec.id, c);
    }
    out.by_prefix.assign(prefixes.begin(), prefixes.end());
    std::stable_sort(out.by_prefix.begin(), out.by_prefix.end(),
                     [](const auto& a, const auto& b) { return a.second.total > b.second.total; });
    return out;
}

}  // namespace cp
