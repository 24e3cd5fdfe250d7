// The drift summary of a report with several specs (seed B4's report in one command): anchor
// counts by status, by spec and by path prefix (the first directory of the path at base).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "context_pack/model/report.hpp"

namespace cp {

struct Counts {
    std::array<std::size_t, kAllStatuses.size()> by_status{};  // in kAllStatuses order
    std::size_t renamed = 0;
    std::size_t symbol_missing = 0;
    std::size_t total = 0;

    std::size_t of(Status s) const { return by_status[static_cast<std::size_t>(s)]; }
    std::size_t drifted() const { return total - of(Status::Same); }  // not SAME
    void add(const AnchorResult& a);
};

struct Summary {
    Counts all;
    std::vector<std::pair<std::string, Counts>> by_spec;    // in input order
    std::vector<std::pair<std::string, Counts>> by_prefix;  // most anchors first
};

Summary summarize(const Report& report);

// "src/" for "src/a/b.c", "(top)" for a file at the root.
std::string path_prefix(const std::string& path);

}  // namespace cp
