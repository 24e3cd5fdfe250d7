#include "context_pack/model/report.hpp"

#include <algorithm>

namespace cp {

std::string_view status_name(Status status) {
    switch (status) {
        case Status::Same:
            return "SAME";
        case Status::Moved:
            return "MOVED";
        case Status::Touched:
            return "TOUCHED";
        case Status::Gone:
            return "GONE";
        case Status::New:
            return "NEW";
        case Status::Unresolved:
            return "UNRESOLVED";
    }
    return "?";
}

void AnchorResult::add_note(const std::string& note) {
    reason = reason ? *reason + "; " + note : note;
}

bool AnchorResult::ok() const {
    bool resolved = status == Status::Same || status == Status::Moved ||
                    status == Status::Touched || status == Status::New;
    // Lines all deleted at the target leave nothing of it there to change.
    return resolved && symbol_found != false && !lines_deleted;
}

const Location* AnchorResult::window_location() const {
    if (relocation)  // none of its lines is left where the diff put it
        if (const auto* found = relocation->found_at()) return &found->at;
    bool mapped = status == Status::Same || status == Status::Moved || status == Status::Touched ||
                  status == Status::New;
    return mapped && to ? &*to : nullptr;
}

std::string AnchorResult::status_label() const {
    std::string label(status_name(status));
    if (renamed) label += "+RENAMED";
    return label;
}

std::size_t SpecReport::count(Status status) const {
    return std::count_if(anchors.begin(), anchors.end(),
                         [&](const AnchorResult& a) { return a.status == status; });
}

std::size_t SpecReport::renamed_count() const {
    return std::count_if(anchors.begin(), anchors.end(),
                         [](const AnchorResult& a) { return a.renamed; });
}

std::size_t SpecReport::symbol_missing_count() const {
    return std::count_if(anchors.begin(), anchors.end(),
                         [](const AnchorResult& a) { return a.symbol_found == false; });
}

std::string Target::name() const {
    switch (kind) {
        case Kind::Unresolved:
            return {};
        case Kind::WorkingTree:
            return "worktree";
        case Kind::Commit:
            return commit;
    }
    return {};
}

std::optional<std::string> SpecReport::target_commit() const {
    if (target.kind != Target::Kind::Commit) return std::nullopt;
    return target.commit;
}

int Report::exit_status() const {
    for (const auto& spec : specs)
        for (const auto& a : spec.anchors)
            if (!a.ok()) return 1;
    return warnings_fail && warning_count() > 0 ? 1 : 0;
}

std::size_t Report::warning_count() const {
    std::size_t n = 0;
    for (const auto& spec : specs) n += spec.warnings.size();
    return n;
}

}  // namespace cp
