// --repin: each spec revised onto its target commit, as a planner would write it there. The
// revision is the spec's own JSON text with the tool's values rewritten (the base, a `.rN`
// id, each carried anchor's location) and each entry's `was` (and, for an anchor left where it
// was, `repin`) written last; every other byte of every value is copied as it came, so keys
// the tool does not know survive in place and unchanged.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "context_pack/model/report.hpp"
#include "context_pack/model/spec.hpp"

namespace cp {

// Where the anchor goes in the revised plan, or why it stays where it was. Carried: SAME,
// MOVED, TOUCHED (+RENAMED) with lines left and its symbol found there, a relocation by
// content taken for it, and a NEW anchor whose file is still absent (it stays as it is).
struct RepinAnswer {
    std::optional<Location> to;  // where it goes; nullopt: it stays, for `why`
    std::string why;             // empty when it goes
    bool carried() const { return why.empty(); }
};
RepinAnswer repin_answer(const AnchorResult& result);

// `spec` revised with what `report` (its own report, every anchor in it) found: its `base`
// the target commit, an `id` ending in .rN made .r(N+1), each anchor's location moved or kept
// as repin_answer says, each entry given `was` ({base, path, line, end_line} as it stood) and,
// when it stays, `repin` (a `was` or `repin` already there is replaced). A spec of --anchor
// flags becomes one with those anchors as `reads`. `indent` < 0: one line; else nested
// values indented by that many spaces a level.
std::string repinned_spec(const Spec& spec, const SpecReport& report, int indent);

// How many of the report's anchors stay where they were; the run's exit status is 1 when any
// does.
std::size_t kept_count(const SpecReport& report);

// "plan.json: reads[2] stays: GONE: ..." for a person, one line an anchor that stays: the
// first kMaxWarningLines, then one line with how many more.
std::vector<std::string> kept_lines(const std::vector<SpecReport>& specs);

}  // namespace cp
