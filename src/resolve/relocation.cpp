#include "relocation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <list>
#include <set>

#include "context_pack/core/callers.hpp"
#include "context_pack/core/text.hpp"

namespace cp {

using git::Change;
using git::EntryKind;

namespace {

const std::size_t kLimit = 10;      // places listed; one more is looked for, to know there are more
const std::size_t kHaystacks = 32;  // haystacks kept before those of given-up bytes are dropped
// A place found by likeness is taken with at least this score and three lines equal or
// renamed consistently (one of them equal), for a block of kTakeSimilarLines telling lines,
// and when no other place comes within kRivalGap of it; a lesser one is at most a pointer.
// In a shorter block a few boilerplate lines (`return 0;`, `int main(int argc, char **argv)`)
// make a likeness anywhere, unless the block opens with the definition of the anchor's symbol
// and the place opens with that very line (a short function moved, one line edited).
const double kTakeSimilar = 0.65;
const std::size_t kTakeSimilarLines = 6;
const double kPointSimilar = 0.5;
const double kRivalGap = 0.2;
// Where a search looks (Relocator::Scope). A pair this many first-parent steps long is
// searched whole. Past it, the files of the commit where the code left are searched, then
// those of kAround commits either side (for a commit that is not a merge); a merged side is
// gone down kMaxSides deep, and its chain walked up to kMaxSideCommits for a commit that still
// holds the code (past them the merge's files are searched); where the code went on, kMaxHops
// files are followed, each found among at most kMaxHopFiles of its level. The pair's line is
// walked up to Pairs::kMaxLineCommits commits; past them the search is whole.
const std::size_t kWholeSteps = 1;
const std::size_t kAround = 1;
const std::size_t kMaxSides = 3;
const std::size_t kMaxHops = 3;
const std::size_t kMaxHopFiles = 8;
const std::size_t kMaxSideCommits = 1000;

// The lines of a block a file's filter is asked for, and how many it must hold: every
// distinct telling line (copies), or enough of them equal or of one long shape, each line
// counted once (likeness).
struct Asked {
    std::vector<LineHashes> lines;
    std::size_t wanted = 0;
    bool similar = false;
    std::optional<std::uint64_t> opening;  // a line that is enough on its own (likeness)
};

Asked asked_of(const std::vector<std::string_view>& core, bool similar, bool opens_definition) {
    Asked out;
    out.similar = similar;
    if (similar && opens_definition) out.opening = line_hashes(core.front()).squeezed;
    std::set<std::uint64_t> distinct;
    std::size_t telling = 0;
    for (std::string_view line : core) {
        if (is_margin(line)) continue;
        ++telling;
        const LineHashes h = line_hashes(line);
        if (similar || distinct.insert(h.squeezed).second) out.lines.push_back(h);
    }
    out.wanted = similar ? similar_votes_needed(telling) : out.lines.size();
    return out;
}

bool may_hold(const LineFilter& f, const Asked& asked) {
    if (asked.opening && f.may_hold_line(*asked.opening)) return true;
    std::size_t count = 0, left = asked.lines.size();
    for (const LineHashes& h : asked.lines) {
        if (count >= asked.wanted || count + left < asked.wanted) break;
        --left;
        count += f.may_hold_line(h.squeezed) ||
                 (asked.similar && h.shape_bytes >= kShapeVotes && f.may_hold_shape(h.shape));
    }
    return count >= asked.wanted;
}

// True when the line just above or just below a block at base is also just above or below
// where it was found.
bool neighbours_agree(const std::vector<std::string_view>& base, LineNo first, LineNo last,
                      const std::vector<std::string_view>& target, LineNo at) {
    LineNo size = last - first + 1;
    auto telling = [](std::string_view line) {  // a blank line or a lone brace tells nothing
        return std::count_if(line.begin(), line.end(),
                             [](char c) { return c != ' ' && c != '\t' && c != '\r'; }) >= 4;
    };
    auto same = [&](std::size_t b, std::size_t t) {
        return base[b] == target[t] && telling(base[b]);
    };
    bool above = first > 1 && at > 1 && same(std::size_t(first - 2), std::size_t(at - 2));
    bool below = last < LineNo(base.size()) && at + size - 1 < LineNo(target.size()) &&
                 same(std::size_t(last), std::size_t(at + size - 1));
    return above || below;
}

// How many of `lines` (1-based, ascending) lie among the lines `hunks` added.
std::size_t added_among(const std::vector<Hunk>& hunks, const std::vector<LineNo>& lines) {
    std::size_t n = 0;
    for (LineNo l : lines)
        n += std::any_of(hunks.begin(), hunks.end(), [&](const Hunk& h) {
            return h.new_count > 0 && h.new_start <= l && l < h.new_start + h.new_count;
        });
    return n;
}

}  // namespace

bool code_left(std::span<const Hunk> hunks, LineRange range,
               const std::vector<std::string_view>& base_lines) {
    if (all_removed(hunks, range)) return true;
    std::size_t telling = 0, removed = 0;
    for (LineNo l = range.start; l <= range.end && l <= LineNo(base_lines.size()); ++l) {
        if (is_margin(base_lines[std::size_t(l - 1)])) continue;
        ++telling;
        removed += std::any_of(hunks.begin(), hunks.end(), [&](const Hunk& h) {
            return overlaps(h, LineRange{l, l});
        });
    }
    return telling > 0 && removed * 4 >= telling * 3;
}

Result<Unit> Relocator::relocate(Pair& p, AnchorResult& r, const std::string& base_bytes,
                                 const Bytes& own_file, const std::vector<Hunk>* own_hunks) {
    Needle needle;
    needle.base = text::split_lines(base_bytes);
    const std::vector<std::string_view> lines(needle.base.begin() + (r.anchor.line - 1),
                                              needle.base.begin() + r.anchor.last_line());
    const auto [first, last] = core_of(lines);
    needle.core.assign(lines.begin() + std::ptrdiff_t(first), lines.begin() + std::ptrdiff_t(last));
    needle.before = first;
    needle.after = lines.size() - last;
    if (needle.core.empty() || !distinctive(needle.core)) return Unit{};
    needle.opens_definition =
        r.anchor.symbol &&
        caller_role(r.anchor.path, needle.core.front(), *r.anchor.symbol) == CallerRole::Definition;
    judged_.clear();  // judged for another block
    auto scoped = scope(p, state(p), r, needle);
    if (!scoped) return scoped.error();
    Scope& sc = scoped.value();
    std::vector<std::string> unsearched;
    Found found;
    // Each level's files (or every changed one), copies first, then likeness; once a level's
    // files hold nothing, the next, and past the last a hop to where its code went on.
    auto look = [&](const std::set<std::string>* paths) -> Result<bool> {
        for (bool similar : {false, true}) {
            auto got = search(p, r, needle, own_file, own_hunks, paths, similar, unsearched);
            if (!got) return got.error();
            found = std::move(got).value();
            if (!found.empty()) return true;
        }
        return false;
    };
    const std::set<std::string> none;  // its own file alone
    if (sc.whole || sc.levels.empty()) {
        if (auto got = look(sc.whole ? nullptr : &none); !got) return got.error();
    }
    for (std::size_t k = 0, hops = 0; !sc.whole && found.empty() && k < sc.levels.size(); ++k) {
        for (const auto* paths : {&sc.levels[k].step, &sc.levels[k].around}) {
            if (paths->empty() && (k > 0 || paths != &sc.levels[k].step)) continue;
            auto got = look(paths);
            if (!got) return got.error();
            if (got.value()) break;
        }
        if (found.empty() && k + 1 == sc.levels.size() && hops++ < kMaxHops) {
            auto went = hop(state(p), needle, sc);
            if (!went) return went.error();
        }
    }
    if (!found.empty()) settle(p, r, needle, found, own_file);
    if (found.empty() && !sc.where.empty()) {
        std::size_t files = 0;
        for (const Scope::Level& level : sc.levels)
            files += level.step.size() + level.around.size();
        // Said once where the reason names the commit already (its file deleted there).
        const bool named = r.reason && r.reason->find(sc.where) != std::string::npos;
        r.add_note(
            fmt::format("its lines not found among the {} changed {}{}",
                        files == 1 ? std::string("one file") : fmt::format("{} files", files),
                        named ? "there" : sc.where,
                        named ? "" : ", where they left " + text::printable(r.anchor.path)));
    }
    if (!unsearched.empty())
        r.add_note(
            fmt::format("its lines were not looked for where the object store could not give "
                        "the files{}: {}",
                        unsearched.size() > 1
                            ? fmt::format(" ({} places; the first follows)", unsearched.size())
                            : "",
                        unsearched.front()));
    return Unit{};
}

void Relocator::search_file(const std::string& path, const Haystack& hay, const Needle& needle,
                            const std::vector<Hunk>* hunks, bool similar, bool own, Found& found) {
    auto fresh = [&](const std::vector<LineNo>& lines) {
        return !hunks || added_among(*hunks, lines) * 2 >= lines.size();
    };
    if (!similar) {
        const LineNo size = LineNo(needle.core.size());
        for (Match how : {Match::Exact, Match::Whitespace}) {
            for (const BlockMatch& m : find_block(hay, needle.core, kLimit + 1, how)) {
                std::vector<LineNo> lines;
                for (LineNo l = m.line; l < m.line + size; ++l) lines.push_back(l);
                // In its own file only lines the diff added count: the rest never moved.
                const bool is_fresh = own ? hunks && added_among(*hunks, lines) > 0 : fresh(lines);
                if (own && !is_fresh) continue;
                found.push_back(
                    {path, m.line, m.line + size - 1, m.whitespace, std::nullopt, 0, 0, is_fresh});
            }
            if (!found.empty()) return;
        }
        return;
    }
    const auto opening = needle.opens_definition ? std::optional<std::size_t>(0) : std::nullopt;
    for (SimilarMatch& m : find_similar_block(hay, needle.core, 4, opening)) {
        if (m.score < kPointSimilar) continue;
        const bool is_fresh = fresh(m.aligned);
        if (own && !is_fresh) continue;
        found.push_back({path, m.line, m.end_line, false, m.score, m.equal, m.renamed, is_fresh});
    }
}

// Every place the block is, up to one more than are listed: copies (exact, else whitespace
// aside), or with `similar` places where it stands lightly edited.
Result<Relocator::Found> Relocator::search(Pair& p, const AnchorResult& r, const Needle& needle,
                                           const Bytes& own_file,
                                           const std::vector<Hunk>* own_hunks,
                                           const std::set<std::string>* paths, bool similar,
                                           std::vector<std::string>& unsearched) {
    auto note = [&](const std::string& problem) {  // each level and pass meets the same
        if (std::find(unsearched.begin(), unsearched.end(), problem) == unsearched.end())
            unsearched.push_back(problem);
    };
    Found found;
    if (own_file && r.to)
        search_file(r.to->path, haystack(own_file), needle, own_hunks, similar, true, found);
    auto whole = pairs_.whole_diff(p);
    if (!whole && whole.error().unreadable_object()) {  // no other changed file is known
        note(whole.error().message);
        return found;
    }
    if (!whole) return whole.error();
    for (const git::Unread& u : whole.value()->unread())
        if (u.subtree) note(u.problem);
    ChangedLines& ix = state(p);
    if (!ix.listed) {
        for (const git::Delta* d : whole.value()->by_new_path())
            if (d->change != Change::Deleted && d->new_kind == EntryKind::File)
                ix.files.push_back({d, false, std::nullopt, {}});
        ix.listed = true;
    }
    const Asked asked = asked_of(needle.core, similar, needle.opens_definition);
    // In target path order, which is the same whether renames were looked for from every
    // deleted path or from the anchored ones alone (Pairs::expect).
    for (ChangedLines::File& file : ix.files) {
        const git::Delta& d = *file.delta;
        if (found.size() > kLimit) break;
        if (paths && !paths->count(d.new_path)) continue;
        if (r.to && d.new_path == r.to->path) continue;  // its own file: searched apart
        auto filter = filter_of(p, file);
        if (!filter) return filter.error();
        if (!file.unread.empty()) note(file.unread);
        if (!filter.value() || !may_hold(*filter.value(), asked)) continue;
        auto bytes = content_.file(p.target, d.new_path);
        if (!bytes) return bytes.error();  // filter_of read it before
        const std::size_t had = found.size();
        search_file(d.new_path, haystack(bytes.value()), needle, nullptr, similar, false, found);
        if (found.size() == had || d.change == Change::Added) continue;
        // Found there: was it added there, or was it there before? The file's own hunks say.
        auto hunks = pairs_.hunks_for(p, d);
        if (!hunks && !hunks.error().unreadable_object()) return hunks.error();
        for (std::size_t k = had; k < found.size(); ++k) {
            Place& place = found[k];
            if (!hunks || hunks.value()->binary || hunks.value()->too_large) {
                place.fresh = false;
                continue;
            }
            std::vector<LineNo> lines;
            for (LineNo l = place.line; l <= place.end_line; ++l) lines.push_back(l);
            place.fresh = added_among(hunks.value()->hunks, lines) * 2 >= lines.size();
        }
    }
    if (similar) {  // best first, as find_similar_block gives each file's
        std::stable_sort(found.begin(), found.end(), [](const Place& a, const Place& b) {
            return *a.similarity > *b.similarity;
        });
    }
    return found;
}

// What the places found make of the anchor: its answer, a pointer, or candidates.
void Relocator::settle(Pair& p, AnchorResult& r, const Needle& needle, Found& found,
                       const Bytes& own_file) {
    const bool similar = found[0].similarity.has_value();
    if (similar) {
        // A place of the anchor's own file that overlaps the diff's answer is its code edited
        // in place: the diff's answer stands.
        const Place& best = found[0];
        if (r.to && best.path == r.to->path && best.line <= r.to->end_line &&
            r.to->line <= best.end_line)
            return;
        // Only the places that rival the best are candidates.
        std::erase_if(found, [&](const Place& f) {
            return &f != &found[0] && *f.similarity < *best.similarity - kRivalGap;
        });
    }
    auto at = [](const Place& f) { return Location{f.path, f.line, f.end_line}; };
    const bool whitespace = found[0].whitespace;
    const LineNo size = LineNo(needle.core.size());
    // Several matches, or one or two lines found only by ignoring whitespace or by likeness
    // (weak evidence: two `#include` lines are alike wherever a file includes both), are
    // listed, never picked.
    if (found.size() > 1 || (size < 3 && (whitespace || similar))) {
        Relocation::Candidates several;
        for (const auto& f : found)
            if (several.listed.size() < kLimit) several.listed.push_back(at(f));
        several.total = found.size();
        r.relocation = Relocation{std::move(several), whitespace, found[0].similarity};
        return;
    }
    const Place& only = found[0];
    auto target = content_.file(p.target, only.path);
    const Bytes place_bytes = r.to && only.path == r.to->path ? own_file
                              : target                        ? target.value()
                                                              : Bytes();
    const std::vector<std::string_view>* place_lines =
        place_bytes ? &haystack(place_bytes).lines() : nullptr;
    const LineNo core_first = r.anchor.line + LineNo(needle.before);
    bool sure = only.fresh && place_lines;
    if (sure && similar) {
        const bool own_definition =
            needle.opens_definition &&
            squeeze((*place_lines)[std::size_t(only.line - 1)]) == squeeze(needle.core.front());
        const auto telling =
            std::size_t(std::count_if(needle.core.begin(), needle.core.end(),
                                      [](std::string_view l) { return !is_margin(l); }));
        sure = *only.similarity >= kTakeSimilar && only.equal >= 1 &&
               only.equal + only.renamed >= 3 && (own_definition || telling >= kTakeSimilarLines);
    } else if (sure)
        sure = size >= 3 ||
               (!whitespace && neighbours_agree(needle.base, core_first, core_first + size - 1,
                                                *place_lines, only.line));
    // Its symbol, when it has one, must be there.
    if (sure && r.anchor.symbol) {
        bool named = false;
        for (LineNo l = only.line; l <= only.end_line && !named; ++l)
            named = text::contains_word((*place_lines)[std::size_t(l - 1)], *r.anchor.symbol);
        sure = named;
    }
    // The place with the anchor's margins, where the target has margins there too.
    Location to = at(only);
    for (std::size_t k = 0; place_lines && k < needle.before && to.line > 1 &&
                            is_margin((*place_lines)[std::size_t(to.line - 2)]);
         ++k)
        --to.line;
    for (std::size_t k = 0;
         place_lines && k < needle.after && to.end_line < LineNo(place_lines->size()) &&
         is_margin((*place_lines)[std::size_t(to.end_line)]);
         ++k)
        ++to.end_line;
    if (!sure) {
        r.relocation = Relocation{Relocation::FoundAt{std::move(to)}, whitespace, only.similarity};
        return;
    }
    r.relocation =
        Relocation{Relocation::Moved{r.to, r.lines_deleted}, whitespace, only.similarity};
    if (!r.to)  // its file deleted: what the diff said is the reason given; this is the answer
        r.reason =
            fmt::format("{} deleted at target; its code found in {}", r.anchor.path, to.path);
    const bool in_place =
        to.path == r.anchor.path && to.line == r.anchor.line && to.end_line == r.anchor.last_line();
    r.to = std::move(to);
    r.status = in_place ? Status::Same : Status::Moved;
    r.lines_deleted = false;
}

ChangedLines& Relocator::state(Pair& p) {
    if (!p.changed_lines) p.changed_lines = std::make_shared<ChangedLines>();
    return *p.changed_lines;
}

Result<const LineFilter*> Relocator::filter_of(Pair& p, ChangedLines::File& file) {
    if (!file.read) {
        file.read = true;
        auto bytes = content_.file(p.target, file.delta->new_path);
        if (!bytes && bytes.error().unreadable_object()) {
            file.unread = bytes.error().message;
            return nullptr;
        }
        if (!bytes) return bytes.error();
        if (bytes.value() && !text::looks_binary(*bytes.value()))
            file.lines.emplace(*bytes.value());
    }
    return file.lines ? &*file.lines : nullptr;
}

Result<Unit> Relocator::walk_line(Pair& p, ChangedLines& ix) {
    if (ix.line_made) return Unit{};
    ix.line_made = true;
    const git::Repository& repo = content_.repo();
    std::optional<std::string> tip = p.target;
    if (!tip) {
        auto head = repo.head_commit_if_born();
        if (!head) return head.error();
        if (!head.value()) return Unit{};
        tip = head.value();
    }
    auto walked = pairs_.first_parents(p.base, *tip);
    if (!walked) return walked.error();
    if (walked.value()->bounded) return Unit{};  // searched whole, as a pair of one step
    ix.line.push_back(p.base);
    ix.line.insert(ix.line.end(), walked.value()->commits.begin(), walked.value()->commits.end());
    if (!p.target) ix.line.push_back(std::nullopt);
    return Unit{};
}

Result<const ChangedLines::Side*> Relocator::side_of(ChangedLines& ix, const std::string& commit,
                                                     std::size_t depth) {
    const git::Repository& repo = content_.repo();
    auto known = ix.sides.find(commit);
    if (known == ix.sides.end()) {
        auto parents = repo.parents(commit);
        if (!parents) return parents.error();
        ChangedLines::Side side;
        side.ended = parents.value().size() < 2;
        if (!side.ended) side.chain.push_back(std::move(parents.value()[1]));
        known = ix.sides.emplace(commit, std::move(side)).first;
    }
    ChangedLines::Side& side = known->second;
    while (!side.ended && side.chain.size() <= depth) {
        auto parents = repo.parents(side.chain.back());
        if (!parents) return parents.error();
        side.ended = parents.value().empty();
        if (!side.ended) side.chain.push_back(std::move(parents.value()[0]));
    }
    return &side;
}

Result<Relocator::SideLine> Relocator::took_it(ChangedLines& ix, const std::string& merge,
                                               const std::vector<std::string>& paths,
                                               const Needle& needle, const Presence& at_start) {
    const SideLine none;
    auto side = side_of(ix, merge, 0);
    if (!side) return side.error();
    if (side.value()->chain.empty()) return none;
    auto tip = holds(side.value()->chain.front(), paths, needle, at_start);
    if (!tip) return tip.error();
    if (tip.value().value_or(true)) return none;
    // The nearest commit that holds it, the distance doubled each time: a topic's commits are
    // few, and its chain is walked only down to where its code still was, never to the merge
    // base (whose search walks both lines back to it).
    for (std::size_t depth = 1;; depth = std::min(depth * 2, kMaxSideCommits)) {
        auto walked = side_of(ix, merge, depth);
        if (!walked) return walked.error();
        const std::vector<std::string>& chain = walked.value()->chain;
        const std::size_t k = std::min(depth, chain.size() - 1);
        auto there = holds(chain[k], paths, needle, at_start);
        if (!there) return there.error();
        if (!there.value()) return none;
        if (*there.value()) {  // from there to the second parent, oldest first
            auto below = side_of(ix, merge, k + kAround);
            if (!below) return below.error();
            const std::vector<std::string>& more = below.value()->chain;
            const std::size_t first = std::min(k + kAround, more.size() - 1);
            return SideLine{{more.rend() - std::ptrdiff_t(first + 1), more.rend()}, first - k};
        }
        if (k < depth || depth == kMaxSideCommits) return none;
    }
}

Result<const ChangedLines::Step*> Relocator::changed(ChangedLines& ix, const std::string& from,
                                                     const Rev& to) {
    auto key = std::pair{from, to};
    if (auto known = ix.steps.find(key); known != ix.steps.end()) return &known->second;
    static const std::vector<std::string> kNoRenames;  // an added path is in scope as it is
    auto diff = content_.repo().diff(from, to, nullptr, nullptr, &kNoRenames);
    if (!diff) return diff.error();
    ChangedLines::Step step;
    for (const git::Delta& d : diff->deltas()) {
        if (d.change == Change::Deleted) continue;
        step.paths.insert(d.new_path);
        if (d.change == Change::Added) step.added.insert(d.new_path);
    }
    return &ix.steps.emplace(key, std::move(step)).first->second;
}

namespace {

const std::size_t kMostPlaces = 8;

}  // namespace

Relocator::Presence Relocator::presence(const Haystack& hay, const Needle& needle) {
    Presence out;
    out.copies = find_block(hay, needle.core, kMostPlaces, Match::Whitespace).size();
    for (const SimilarMatch& m : find_similar_block(hay, needle.core, kMostPlaces))
        out.alike += m.score >= kTakeSimilar;
    return out;
}

Result<std::optional<Relocator::Presence>> Relocator::presence_at(const Rev& rev,
                                                                  const std::string& path,
                                                                  const Needle& needle) {
    // A blob judged at another revision is judged the same.
    std::optional<std::string> id;
    if (rev) {
        auto found = content_.blob_id(rev, path);
        if (!found) return found.error();
        id = std::move(found).value();
        if (id)
            if (auto known = judged_.find(*id); known != judged_.end())
                return std::optional<Presence>(known->second);
    }
    auto bytes = content_.file(rev, path);
    if (!bytes) return bytes.error();
    if (!bytes.value()) return std::optional<Presence>();
    Presence there;  // none in a binary file
    if (!text::looks_binary(*bytes.value())) there = presence(haystack(bytes.value()), needle);
    if (id) judged_.emplace(*id, there);
    return std::optional<Presence>(there);
}

Result<std::optional<bool>> Relocator::holds(const Rev& rev, const std::vector<std::string>& paths,
                                             const Needle& needle, const Presence& at_base) {
    for (const std::string& path : paths) {
        auto there = presence_at(rev, path, needle);
        if (!there && there.error().unreadable_object()) return std::optional<bool>();
        if (!there) return there.error();
        if (!there.value()) continue;
        const Presence& p = *there.value();
        return std::optional<bool>((at_base.copies && p.copies >= at_base.copies) ||
                                   (at_base.alike && p.alike >= at_base.alike));
    }
    return std::optional<bool>(false);
}

Result<std::optional<std::size_t>> Relocator::left_at(const std::vector<Rev>& line,
                                                      std::size_t from,
                                                      const std::vector<std::string>& paths,
                                                      const Needle& needle,
                                                      const Presence& at_base) {
    std::size_t lo = from, hi = line.size() - 1;
    while (hi - lo > 1) {
        const std::size_t mid = lo + (hi - lo) / 2;
        auto there = holds(line[mid], paths, needle, at_base);
        if (!there) return there.error();
        if (!there.value()) return std::optional<std::size_t>();
        (*there.value() ? lo : hi) = mid;
    }
    return std::optional<std::size_t>(hi);
}

Result<Relocator::Scope> Relocator::scope(Pair& p, ChangedLines& ix, const AnchorResult& r,
                                          const Needle& needle) {
    Scope out;
    if (auto walked = walk_line(p, ix); !walked) return walked.error();
    if (ix.line.size() <= kWholeSteps + 1) return out;
    // Where its code is looked for at each revision: its base path, else the one the diff
    // carried it to.
    std::vector<std::string> paths{r.anchor.path};
    if (r.to && r.to->path != r.anchor.path) paths.push_back(r.to->path);
    // The base holds it; the target must not.
    // Through the haystack cache, so that the anchors lost in one file hash it once.
    auto based = presence_at(p.base, r.anchor.path, needle);
    if (!based) return based.error();
    const Presence at_base = based.value().value_or(Presence{});
    auto end = holds(ix.line.back(), paths, needle, at_base);
    if (!end) return end.error();
    if (!end.value()) return out;
    out.whole = false;
    if (*end.value()) return out;
    auto found = along(ix, ix.line, paths, needle, at_base, out);
    if (!found) return found.error();
    return out;
}

Result<Unit> Relocator::along(ChangedLines& ix, std::vector<Rev> top,
                              const std::vector<std::string>& paths, const Needle& needle,
                              const Presence& at_start, Scope& out) {
    // The lines gone down, each with the place where its code left it.
    std::vector<std::pair<const std::vector<Rev>*, std::size_t>> down;
    std::list<SideLine> sides;  // the lines of the sides gone down
    const std::vector<Rev>* line = &top;
    std::size_t held = 0;
    bool merge = false;
    for (std::size_t depth = 0;; ++depth) {
        auto left = left_at(*line, held, paths, needle, at_start);
        if (!left) return left.error();
        if (!left.value()) {  // a revision the store does not give: searched whole
            out.whole = true;
            return Unit{};
        }
        const std::size_t hi = *left.value();
        down.emplace_back(line, hi);
        merge = false;
        if (!(*line)[hi]) break;  // the working tree
        auto side = side_of(ix, *(*line)[hi], 0);
        if (!side) return side.error();
        merge = !side.value()->chain.empty();
        if (!merge || depth == kMaxSides) break;
        // Down the side it merged, when that side took it (else the merge itself did).
        auto took = took_it(ix, *(*line)[hi], paths, needle, at_start);
        if (!took) return took.error();
        if (took.value().line.empty()) break;
        sides.push_back(std::move(took).value());
        line = &sides.back().line;
        held = sides.back().held;
    }
    const auto [at_ptr, hi] = down.back();
    const std::vector<Rev>& at = *at_ptr;
    auto step = changed(ix, *at[hi - 1], at[hi]);
    if (!step) return step.error();
    Scope::Level level{step.value()->paths, {}, step.value()->added};
    if (!merge) {
        const std::size_t first = hi - 1 - std::min(hi - 1, kAround);
        auto around = changed(ix, *at[first], at[std::min(at.size() - 1, hi + kAround)]);
        if (!around) return around.error();
        const std::set<std::string>& more = around.value()->paths;
        std::set_difference(more.begin(), more.end(), level.step.begin(), level.step.end(),
                            std::inserter(level.around, level.around.end()));
        level.added.insert(around.value()->added.begin(), around.value()->added.end());
    }
    if (out.where.empty())
        out.where = at[hi] ? "in " + at[hi]->substr(0, 12) : "in the working tree";
    out.levels.push_back(std::move(level));
    // On from the commit where it left: the rest of each line gone down, then of the one
    // above it after the merge.
    std::vector<Rev> rest(at.begin() + std::ptrdiff_t(hi), at.end());
    for (std::size_t k = down.size() - 1; k-- > 0;)
        rest.insert(rest.end(), down[k].first->begin() + std::ptrdiff_t(down[k].second + 1),
                    down[k].first->end());
    out.rest = std::move(rest);
    return Unit{};
}

Result<bool> Relocator::hop(ChangedLines& ix, const Needle& needle, Scope& out) {
    // A file of the last level that holds the block where its code left, and no longer does
    // at the target: its code went on from there. The files that level added first (where
    // moved code goes: a new file, a renamed one), then the others, kMaxHopFiles at most.
    if (out.rest.size() < 2) return false;
    const Scope::Level last = out.levels.back();
    const std::vector<Rev> rest = out.rest;
    std::size_t tried = 0;
    for (const bool added : {true, false}) {
        for (const auto* paths : {&last.step, &last.around}) {
            for (const std::string& path : *paths) {
                if (last.added.count(path) != std::size_t(added)) continue;
                if (tried == kMaxHopFiles) return false;
                if (!out.hopped.insert(path).second) continue;
                ++tried;
                auto held = presence_at(rest.front(), path, needle);
                if (!held && held.error().unreadable_object()) continue;
                if (!held) return held.error();
                if (!held.value() || (!held.value()->copies && !held.value()->alike)) continue;
                const Presence there = *held.value();
                const std::vector<std::string> one{path};
                auto kept = holds(rest.back(), one, needle, there);
                if (!kept) return kept.error();
                if (kept.value().value_or(true)) continue;
                const std::size_t levels = out.levels.size();
                auto went = along(ix, rest, one, needle, there, out);
                if (!went) return went.error();
                if (out.levels.size() > levels) return true;
            }
        }
    }
    return false;
}

const Haystack& Relocator::haystack(const Bytes& bytes) {
    // By the bytes the content cache gives, which are one for a blob however it was reached.
    if (auto it = haystacks_.find(bytes.get()); it != haystacks_.end()) {
        if (it->second.bytes.lock() == bytes) return it->second.haystack;
        haystacks_.erase(it);  // made from bytes the cache has since given up
    }
    if (haystacks_.size() >= kHaystacks)  // those whose bytes the cache gave up go first
        std::erase_if(haystacks_, [](const auto& kept) { return kept.second.bytes.expired(); });
    return haystacks_.emplace(bytes.get(), Kept{bytes, Haystack(text::split_lines(*bytes))})
        .first->second.haystack;
}

}  // namespace cp
