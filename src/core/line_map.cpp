#include "context_pack/core/line_map.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "context_pack/core/text.hpp"
#include "line_compare.hpp"
#include "line_match.hpp"

namespace cp {
namespace {

using Scores = LineMapScores;
using line_compare::Key;

const LineNo kBand = 30;           // past that, lines this far apart in a region are not compared
const std::size_t kSameText = 8;   // lines of its text elsewhere a removed line looks at
const LineNo kJoinGap = 3;         // hunks at most this many blank or brace lines apart join
const LineNo kJoinAny = 1;         // and at most this many lines of any kind
const double kInPlaceGain = 0.1;   // how much better an edit in place reads than a block's edge
const LineNo kHop = 3;             // lines put in (or removed) a moved block goes on past
const std::size_t kWrapNames = 2;  // names a wrapped line at a moved block's edge must hold
const std::size_t kLandingNames = 3;         // and one it goes on to past lines put in
const std::size_t kLandingReads = 1u << 24;  // bytes and words read to tell one apart, at most
const LineNo kRegionLines = 400;  // hunks join while their lines, removed and added, stay under

}  // namespace

std::string_view tier_name(LineTier tier) {
    switch (tier) {
        case LineTier::Exact:
            return "exact";
        case LineTier::Whitespace:
            return "whitespace";
        case LineTier::Edited:
            return "edited";
        case LineTier::Split:
            return "split";
        case LineTier::Merged:
            return "merged";
        case LineTier::Moved:
            return "moved";
        case LineTier::Ambiguous:
            return "ambiguous";
        case LineTier::Deleted:
            return "deleted";
    }
    return "deleted";
}

LineMap::LineMap(std::shared_ptr<const std::string> base, std::shared_ptr<const std::string> target,
                 std::span<const Hunk> hunks)
    : base_text_(std::move(base)),
      target_text_(std::move(target)),
      hunks_(hunks.begin(), hunks.end()) {
    base_ = text::split_lines(*base_text_);
    target_ = text::split_lines(*target_text_);
    start();
}

LineMap::LineMap(const std::vector<std::string_view>& base,
                 const std::vector<std::string_view>& target, std::span<const Hunk> hunks)
    : hunks_(hunks.begin(), hunks.end()) {
    auto own = [](const std::vector<std::string_view>& lines,
                  std::vector<std::string_view>& views) {
        auto text = std::make_shared<std::string>();
        for (auto l : lines) text->append(l).push_back('\n');
        std::size_t at = 0;
        for (auto l : lines) views.emplace_back(text->data() + at, l.size()), at += l.size() + 1;
        return std::shared_ptr<const std::string>(std::move(text));
    };
    base_text_ = own(base, base_);
    target_text_ = own(target, target_);
    start();
}

void LineMap::start() {
    // Hunks that only blank lines and braces part, kJoinGap of them at most (or kJoinAny lines
    // of any kind), are one region: which `}` the diff kept says nothing of where the lines
    // around it went.
    auto kept_after = [](const Hunk& h) {
        return h.old_count ? h.old_start + h.old_count : h.old_start + 1;
    };
    auto kept_before = [](const Hunk& h) { return h.old_count ? h.old_start : h.old_start + 1; };
    std::vector<Region> regions;
    region_of_.assign(hunks_.size(), 0);
    LineNo changed = 0;  // the lines the current region removes and adds
    for (std::size_t k = 0; k < hunks_.size(); ++k) {
        bool joins = false;
        if (k > 0) {
            const LineNo from = kept_after(hunks_[k - 1]), to = kept_before(hunks_[k]);
            auto quiet = [&](LineNo n) {  // a blank line or a brace
                return n >= 1 && n <= LineNo(base_.size()) &&
                       !line_compare::telling(base_[std::size_t(n - 1)]);
            };
            joins = to - from <= kJoinAny;
            if (!joins && to - from <= kJoinGap) {
                joins = true;
                for (LineNo n = from; n < to; ++n) joins = joins && quiet(n);
            }
        }
        // A region stays small enough to settle alone: a file of many hunks a line apart
        // is not one region.
        const LineNo lines = hunks_[k].old_count + hunks_[k].new_count;
        joins = joins && changed + lines <= kRegionLines;
        changed = joins ? changed + lines : lines;
        if (joins)
            regions.back().last = k;
        else
            regions.push_back({k, k});
        region_of_[k] = regions.size() - 1;
    }
    for (Region& g : regions) {
        const Hunk &first = hunks_[g.first], &last = hunks_[g.last];
        g.old_start = kept_before(first);
        g.old_count = kept_after(last) - g.old_start;
        g.new_start = first.new_count ? first.new_start : first.new_start + 1;
        g.new_count =
            (last.new_count ? last.new_start + last.new_count : last.new_start + 1) - g.new_start;
    }
    regions_ = std::move(regions);
    settled_.assign(regions_.size(), false);
    answers_.resize(hunks_.size());
}

namespace {

using line_compare::Changed;
using line_compare::Scored;
using line_match::How;
using line_match::kMovedContent;
using line_match::kNone;

// Whether the nearest removed lines with a word above and below removed line `i`, with only
// removed lines between, are both left free.
bool among_free(const std::vector<Changed>& left, const line_match::Choice& choice, std::size_t i) {
    for (int step : {-1, 1}) {
        std::size_t j = i;
        for (;;) {
            const std::size_t next = j + std::size_t(step);
            if ((step < 0 && j == 0) || next >= left.size() ||
                left[next].line != left[j].line + step)
                return false;  // a line the diff kept, or another hunk's
            j = next;
            if (line_compare::worded(left[j].text)) break;
        }
        if (choice.match[j] != kNone) return false;
    }
    return true;
}

// The answer for removed line `i` of a region from the choice: located when sure and without
// a rival, else Ambiguous with its candidates, or Deleted. `low` and `high` bound the added
// lines a chained line's rival may be: between those the chained lines around it took.
LineAnswer answer_of(std::size_t i, const line_match::Lines& lines, const std::vector<Scored>& mine,
                     const line_match::Choice& choice, std::size_t low, std::size_t high,
                     const std::vector<std::string_view>& base,
                     const std::vector<std::string_view>& target) {
    const auto& right = lines.right;
    const Changed& l = lines.left[i];
    const std::size_t r = choice.match[i];
    const How how = choice.how[i];
    LineAnswer a;
    if (r == kNone) {
        // Its text is in several places, nearly as it was: moved, but to which? Not a line
        // without a word (`}`, `});`) between removed lines with words left free: it went
        // with them, and its copies elsewhere say nothing.
        for (const Scored& s : mine)
            if (s.content >= kMovedContent && !choice.taken[s.to] && a.candidates.size() < 3)
                a.candidates.push_back({right[s.to].line, s.score});
        a.tier = a.candidates.size() > 1 &&
                         (line_compare::worded(l.text) || !among_free(lines.left, choice, i))
                     ? LineTier::Ambiguous
                     : LineTier::Deleted;
        if (a.tier == LineTier::Deleted) a.candidates.clear();
        return a;
    }
    a.score = choice.score[i];
    // A free line scoring about as well leaves the choice open: for a line of the chain, one
    // that keeps the order; for a hunk's edge, one of the region's own (its place outranks a
    // copy elsewhere). A line of a block, split or merged has no rival.
    // A line that continues a neighbour's pair is placed by it, whatever twin it has.
    const bool rival = (line_match::ordered(how) || how == How::Edge || how == How::Moved) &&
                       !(line_match::ordered(how) && line_match::continues(lines, choice, i)) &&
                       std::any_of(mine.begin(), mine.end(), [&](const Scored& s) {
                           return s.to != r && !choice.taken[s.to] &&
                                  (!line_match::ordered(how) || (s.to >= low && s.to < high)) &&
                                  (how != How::Edge || s.to < lines.own) &&
                                  s.score >= a.score - Scores::kMargin;
                       });
    const bool sure = a.score >= Scores::kSure || how == How::Block || how == How::Wrapped ||
                      ((line_match::ordered(how) || how == How::Edge) &&
                       choice.content[i] >= Scores::kSureContent);
    if (!sure || rival) {
        a.tier = LineTier::Ambiguous;
        for (const Scored& s : mine)
            if (s.score >= Scores::kFloor && s.content >= Scores::kContent &&
                a.candidates.size() < 3)
                a.candidates.push_back({right[s.to].line, s.score});
        if (std::none_of(a.candidates.begin(), a.candidates.end(),
                         [&](const LineCandidate& c) { return c.line == right[r].line; }))
            a.candidates.insert(a.candidates.begin(), {right[r].line, a.score});
        return a;
    }
    a.line = right[r].line;
    a.end_line = how == How::Split ? right[choice.split[i].to].line : a.line;
    a.content = choice.content[i];
    const std::string_view old_text = base[std::size_t(l.line - 1)];
    const std::string_view new_text = target[std::size_t(right[r].line - 1)];
    a.tier = how == How::Split             ? LineTier::Split
             : how == How::Merged          ? LineTier::Merged
             : l.region != right[r].region ? LineTier::Moved
             : old_text == new_text        ? LineTier::Exact
             : l.flat == right[r].flat     ? LineTier::Whitespace
                                           : LineTier::Edited;
    return a;
}

}  // namespace

LineNo LineMap::Region::at(double position, bool old_side) const {
    const LineNo start = old_side ? old_start : new_start, count = old_side ? old_count : new_count;
    return start + LineNo(std::llround(position * double(count - 1)));
}

bool LineMap::lone_block(LineNo l) const {
    if (grown_.count(l)) return false;
    const LineNo t = block_.at(l);
    for (int step : {-1, 1})
        if (auto n = block_.find(l + step); n != block_.end() && n->second == t + step)
            return false;
    return true;
}

// Which region a line of a side belongs to (kNone: the diff kept it): the hunk whose side
// holds it.
std::size_t LineMap::region_at(LineNo n, bool old_side) const {
    auto after = std::upper_bound(hunks_.begin(), hunks_.end(), n, [&](LineNo line, const Hunk& h) {
        return line < (old_side ? h.old_start : h.new_start);
    });
    if (after == hunks_.begin()) return kNone;
    const auto k = std::size_t(after - hunks_.begin() - 1);
    const Hunk& h = hunks_[k];
    const LineNo start = old_side ? h.old_start : h.new_start;
    const LineNo count = old_side ? h.old_count : h.new_count;
    return n >= start && n < start + count ? region_of_[k] : kNone;
}

// What every region's settling reads, made once: each added line by the key of its text and
// of its code, how many removed lines have each key, and the blocks that moved from one
// region to another. A block starts at a removed line whose text (or code) no other removed
// line has and only one added line of another region has; it takes the lines beside both,
// on as long as they are changed and read at least kContent alike, or the one wraps or
// rewords the other (stopping at a weak pair
// with an edit in place, going on past a few lines put in; see below). Settled for the whole
// file from the keys alone, a block is the same whichever region is asked first.
void LineMap::index() const {
    if (indexed_) return;
    indexed_ = true;
    for (const Hunk& h : hunks_) {
        for (LineNo n = h.new_start; n < h.new_start + h.new_count; ++n) {
            if (n < 1 || n > LineNo(target_.size())) continue;
            auto keys = line_compare::keys_of(target_[std::size_t(n - 1)]);
            if (keys.flat.bytes) added_by_key_[keys.flat.h].push_back(n);
            if (keys.code.bytes && keys.code.h != keys.flat.h)
                added_by_key_[keys.code.h].push_back(n);
        }
        for (LineNo n = h.old_start; n < h.old_start + h.old_count; ++n) {
            if (n < 1 || n > LineNo(base_.size())) continue;
            auto keys = line_compare::keys_of(base_[std::size_t(n - 1)]);
            ++removed_count_[keys.flat.h];
            if (keys.code.h != keys.flat.h) ++removed_count_[keys.code.h];
        }
    }
    auto reads = [&](LineNo l, LineNo t) {
        return line_similarity(base_[std::size_t(l - 1)], target_[std::size_t(t - 1)]);
    };
    // The lines that start blocks, all of them before any block grows: a block stops at the
    // next one, which is surer than any neighbour's likeness.
    std::vector<std::pair<LineNo, LineNo>> starts;
    for (const Hunk& h : hunks_)
        for (LineNo l = h.old_start; l < h.old_start + h.old_count && l <= LineNo(base_.size());
             ++l) {
            auto keys = line_compare::keys_of(base_[std::size_t(l - 1)]);
            for (const Key* key : {&keys.flat, &keys.code}) {
                if (!key->bytes || removed_count_[key->h] != 1) continue;
                auto same = added_by_key_.find(key->h);
                if (same == added_by_key_.end() || same->second.size() != 1) continue;
                const LineNo t = same->second.front();
                if (region_at(t, false) != region_at(l, true) && blocked_.insert(t).second) {
                    block_[l] = t;
                    starts.emplace_back(l, t);
                }
                break;
            }
        }
    // A pair that reads under kContent alike but where the one line wraps the other, with
    // kWrapNames names or more (`def add(a, b):` -> `def add(a: M, b: M) -> M:` above its
    // moved body); going up, not where the added line above is wrapped too: the removed line
    // was split, and that is its first piece.
    auto wraps = [&](LineNo bl, LineNo bt) {
        if (bl < 1 || bl > LineNo(base_.size()) || bt < 1 || bt > LineNo(target_.size()))
            return false;
        return line_compare::wrapped_names(line_compare::words(base_[std::size_t(bl - 1)]),
                                           line_compare::words(target_[std::size_t(bt - 1)]))
                   .value_or(0) >= kWrapNames;
    };
    auto split_above = [&](LineNo bl, LineNo bt, int step) {
        return step < 0 && wraps(bl, bt - 1);
    };
    auto wrapped = [&](LineNo bl, LineNo bt, int step) {
        return wraps(bl, bt) && !split_above(bl, bt, step);
    };
    // A line's words, each once, sorted.
    auto distinct_words = [](std::string_view line) {
        auto out = line_compare::words(line);
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
    };
    // Whether added line `bt` holds the words of removed line `bl` in their order, with more of
    // its own and kLandingNames names among them, and of the changed lines of the file no
    // other holds them (as many or more), nor is any other removed line's words all held in
    // it. The lines that may are looked up: added lines by a word of `bl`'s, the one fewest
    // hold, removed lines by the word of theirs that fewest removed lines hold (all of a line's
    // words stand in `bt`, so that one does too). The lines so read, and `bt`'s words each
    // time a removed line is tried against them, count against kLandingReads bytes and words
    // for the whole file: past them, no such pair lands.
    std::unordered_map<std::string_view, std::vector<LineNo>> added_by_word, removed_by_rarest;
    bool looked_up = false;
    std::size_t read_so_far = 0;
    auto look_up = [&] {
        looked_up = true;
        std::unordered_map<std::string_view, std::size_t> removed_holding;
        std::vector<std::pair<LineNo, std::vector<std::string_view>>> removed;
        for (const Hunk& h : hunks_) {
            for (LineNo n = h.new_start; n < h.new_start + h.new_count; ++n)
                if (n >= 1 && n <= LineNo(target_.size()))
                    for (std::string_view w : distinct_words(target_[std::size_t(n - 1)]))
                        added_by_word[w].push_back(n);
            for (LineNo n = h.old_start; n < h.old_start + h.old_count; ++n) {
                if (n < 1 || n > LineNo(base_.size())) continue;
                auto words = distinct_words(base_[std::size_t(n - 1)]);
                for (std::string_view w : words) ++removed_holding[w];
                if (!words.empty()) removed.emplace_back(n, std::move(words));
            }
        }
        for (auto& [n, words] : removed)
            removed_by_rarest[*std::min_element(words.begin(), words.end(),
                                                [&](std::string_view x, std::string_view y) {
                                                    return removed_holding[x] < removed_holding[y];
                                                })]
                .push_back(n);
    };
    auto grown_into = [&](LineNo bl, LineNo bt) {
        const auto mine = line_compare::words(base_[std::size_t(bl - 1)]);
        const auto theirs = line_compare::words(target_[std::size_t(bt - 1)]);
        if (theirs.size() <= mine.size() ||
            line_compare::wrapped_names(mine, theirs).value_or(0) < kLandingNames ||
            read_so_far > kLandingReads)
            return false;
        if (!looked_up) look_up();
        const std::vector<LineNo>* fewest = nullptr;
        for (std::string_view w : mine)
            if (auto x = added_by_word.find(w);
                x != added_by_word.end() && (!fewest || x->second.size() < fewest->size()))
                fewest = &x->second;
        if (!fewest) return false;  // bt holds every word of mine: never so
        for (LineNo n : *fewest) {
            const std::string_view line = target_[std::size_t(n - 1)];
            if ((read_so_far += line.size()) > kLandingReads) return false;
            if (n != bt && line_compare::holds_in_order(mine, line)) return false;
        }
        for (std::string_view w : distinct_words(target_[std::size_t(bt - 1)]))
            if (auto x = removed_by_rarest.find(w); x != removed_by_rarest.end())
                for (LineNo n : x->second) {
                    const std::string_view line = base_[std::size_t(n - 1)];
                    if ((read_so_far += line.size() + theirs.size()) > kLandingReads) return false;
                    if (n != bl && line_compare::held_in_order(line, theirs)) return false;
                }
        return true;
    };
    // How alike a pair a block goes on to past lines put in reads, where it is one: lines that
    // say something, each its text's only copy on its side (of twins, which is the block's is
    // unknown), reading kSureContent alike, or the added line grown from the removed one
    // (`def add(a, b):` -> `def add(a: M, b: M) -> M:` above a docstring and a guard put in
    // before its moved body).
    auto landing = [&](LineNo bl, LineNo bt, int step) -> std::optional<double> {
        const std::string_view a = base_[std::size_t(bl - 1)], b = target_[std::size_t(bt - 1)];
        if (!line_compare::telling(a) || !line_compare::telling(b)) return std::nullopt;
        auto added = added_by_key_.find(line_compare::keys_of(b).flat.h);
        auto removed = removed_count_.find(line_compare::keys_of(a).flat.h);
        if (added == added_by_key_.end() || added->second.size() != 1 ||
            removed == removed_count_.end() || removed->second != 1)
            return std::nullopt;
        const double alike = line_similarity(a, b);
        if (alike >= Scores::kSureContent || (!split_above(bl, bt, step) && grown_into(bl, bt)))
            return alike;
        return std::nullopt;
    };
    // A line put in (or removed) that a block goes past: one that says something (a fragment
    // beside the block's line may be a piece of it, split).
    auto passed = [&](std::string_view line) { return line_compare::telling(line); };
    // A block grows while the next lines read kContent alike, or the one wraps or rewords the
    // other (line_compare::reworded). A pair under kSureContent alike
    // stops it where either line has an edit in place reading kInPlaceGain more alike:
    // `return self.items[-1]` is not carried onto `self._items = []` above a moved method,
    // where `self.items = []` became it. Where the next lines do not read alike, the block goes
    // on past up to kHop lines put in (or removed) on one side, to the one landing pair there:
    // `def peek(self):` moved carries `return self.items[-1]` past the
    // `if self.is_empty(): return None` put between them.
    for (auto [l, t] : starts) {
        const std::size_t from = region_at(l, true);
        auto open_base = [&](LineNo bl) {
            return region_at(bl, true) == from && !block_.count(bl);
        };
        auto open_target = [&](LineNo bt) {
            return region_at(bt, false) != kNone && !blocked_.count(bt);
        };
        for (int step : {-1, 1})
            for (LineNo bl = l + step, bt = t + step;; bl += step, bt += step) {
                if (!open_base(bl) || !open_target(bt)) break;
                double pair = reads(bl, bt);
                if (pair < Scores::kContent && !wrapped(bl, bt, step) &&
                    !line_compare::reworded(base_[std::size_t(bl - 1)],
                                            target_[std::size_t(bt - 1)])) {
                    // Past lines put in, or removed, on one side, each a changed line of no
                    // block, to the one landing pair.
                    LineNo past_t = 0, past_l = 0;
                    int pairs = 0;
                    for (LineNo j = 1; j <= kHop && open_target(bt + step * j) &&
                                       passed(target_[std::size_t(bt + step * (j - 1) - 1)]);
                         ++j)
                        if (const auto alike = landing(bl, bt + step * j, step))
                            past_t = bt + step * j, pair = *alike, ++pairs;
                    for (LineNo j = 1; j <= kHop && open_base(bl + step * j) &&
                                       passed(base_[std::size_t(bl + step * (j - 1) - 1)]);
                         ++j)
                        if (const auto alike = landing(bl + step * j, bt, step))
                            past_l = bl + step * j, pair = *alike, ++pairs;
                    if (pairs != 1) break;
                    if (past_t)
                        bt = past_t;
                    else
                        bl = past_l;
                }
                if (pair < Scores::kSureContent &&
                    (edited_in_place(bl, /*old_side=*/true, pair + kInPlaceGain) ||
                     edited_in_place(bt, /*old_side=*/false, pair + kInPlaceGain)))
                    break;
                block_[bl] = bt, blocked_.insert(bt);
                grown_.insert(l), grown_.insert(bl);
            }
    }
    // A lone line yields its copy to an edit in place: where the copy's own region removes a
    // line near it that reads kSureContent like it (and has no copy elsewhere), the copy is that
    // line's edit (`DisposePtr(ptr2)` -> `DisposePtr(ptr)`), not a short statement come from
    // far away.
    for (auto [l, t] : starts) {
        if (!lone_block(l)) continue;
        // A lone blank line or brace, however rare in the file, says nothing of where it went.
        if (!line_compare::worded(base_[std::size_t(l - 1)])) {
            block_.erase(l), blocked_.erase(t);
            continue;
        }
        if (edited_in_place(t, /*old_side=*/false, Scores::kSureContent))
            block_.erase(l), blocked_.erase(t);
    }
}

bool LineMap::edited_in_place(LineNo n, bool old_side, double floor) const {
    // The other side's lines of its region within kBand of its place there, as a removed line's
    // candidates are found.
    const std::size_t g = region_at(n, old_side);
    const Region& there = regions_[g];
    const LineNo centre =
        old_side ? there.at(line_compare::position_in(n, there.old_start, there.old_count), false)
                 : there.at(line_compare::position_in(n, there.new_start, there.new_count), true);
    const auto& other = old_side ? target_ : base_;
    for (LineNo x = std::max<LineNo>(centre - kBand, 1);
         x <= centre + kBand && x <= LineNo(other.size()); ++x) {
        if (region_at(x, !old_side) != g || (old_side ? blocked_.count(x) : block_.count(x)))
            continue;
        const std::string_view a = old_side ? base_[std::size_t(n - 1)] : base_[std::size_t(x - 1)];
        const std::string_view b =
            old_side ? target_[std::size_t(x - 1)] : target_[std::size_t(n - 1)];
        if (line_similarity(a, b) >= std::max(floor, Scores::kSureContent)) return true;
    }
    return false;
}

// The answers for the lines region `g` removes, made when one of them is first asked for: its
// changed lines, each removed line's candidates (the added lines within kBand of its place in
// the region, and those anywhere whose text or code is its own), the choice among them
// (line_match.hpp), and the answer each makes.
void LineMap::settle(std::size_t g) const {
    if (settled_[g]) return;
    settled_[g] = true;
    index();
    const Region& region = regions_[g];
    line_match::Lines lines;
    for (std::size_t k = region.first; k <= region.last; ++k) {
        const Hunk& h = hunks_[k];
        const std::size_t left_from = lines.left.size(), right_from = lines.right.size();
        for (LineNo n = h.old_start; n < h.old_start + h.old_count && n <= LineNo(base_.size());
             ++n)
            lines.left.push_back(
                line_compare::prepare(base_, n, g, region.old_start, region.old_count));
        for (LineNo n = h.new_start; n < h.new_start + h.new_count && n <= LineNo(target_.size());
             ++n)
            lines.right.push_back(
                line_compare::prepare(target_, n, g, region.new_start, region.new_count));
        if (lines.left.size() > left_from && lines.right.size() > right_from) {
            lines.edges.emplace_back(left_from, right_from);
            lines.edges.emplace_back(lines.left.size() - 1, lines.right.size() - 1);
            if (lines.left.size() == left_from + 1 && lines.right.size() == right_from + 1)
                lines.replaced.emplace_back(left_from, right_from);
        }
    }
    lines.own = lines.right.size();
    const auto& left = lines.left;
    auto& right = lines.right;
    std::map<LineNo, std::size_t> elsewhere;  // added lines of other regions: line -> index
    auto add_elsewhere = [&](LineNo n) {
        auto [at, added] = elsewhere.try_emplace(n, right.size());
        if (added) {
            const std::size_t other = region_at(n, false);
            right.push_back(line_compare::prepare(target_, n, other, regions_[other].new_start,
                                                  regions_[other].new_count));
        }
        return at->second;
    };

    std::vector<std::vector<Scored>> candidates(left.size());
    std::vector<bool> unique(left.size());
    std::vector<std::pair<std::size_t, std::size_t>> block, lone;
    for (std::size_t i = 0; i < left.size(); ++i) {
        const Changed& l = left[i];
        if (auto b = block_.find(l.line); b != block_.end()) {
            // A block of several lines is settled with it; a lone line moved is taken only if
            // the region's ordered pairs leave it free.
            if (!lone_block(l.line)) {
                block.emplace_back(i, add_elsewhere(b->second));
                continue;
            }
            lone.emplace_back(i, add_elsewhere(b->second));
        }
        std::vector<std::size_t> pool;
        const LineNo centre = region.at(l.position, /*old_side=*/false);
        // The index of the region's added line n, or of the first after it.
        auto own_at = [&](LineNo n) {
            return std::size_t(
                std::lower_bound(right.begin(), right.begin() + std::ptrdiff_t(lines.own), n,
                                 [](const Changed& x, LineNo line) { return x.line < line; }) -
                right.begin());
        };
        for (std::size_t r = own_at(centre - kBand);
             r < lines.own && right[r].line <= centre + kBand; ++r)
            pool.push_back(r);
        for (const std::string* text : {&l.flat, &l.code}) {
            if (text->empty()) continue;
            auto same = added_by_key_.find(line_compare::key_of(*text));
            if (same == added_by_key_.end()) continue;
            for (std::size_t c = 0; c < same->second.size() && c < kSameText; ++c) {
                const LineNo n = same->second[c];
                pool.push_back(region_at(n, false) == g ? own_at(n) : add_elsewhere(n));
            }
        }
        std::sort(pool.begin(), pool.end());
        pool.erase(std::unique(pool.begin(), pool.end()), pool.end());
        candidates[i] = line_compare::best_of(l, right, pool);
        unique[i] = removed_count_[line_compare::key_of(l.flat)] == 1 &&
                    (l.code.empty() || removed_count_[line_compare::key_of(l.code)] == 1);
    }
    std::vector<bool> reserved(lines.own);
    for (std::size_t r = 0; r < lines.own; ++r) reserved[r] = blocked_.count(right[r].line) > 0;

    const line_match::Choice choice =
        line_match::choose(lines, candidates, unique, block, lone, reserved);
    // The added lines a chained line's rival may be: between those of the chained lines
    // before and after it.
    const line_match::Bounds bounds = line_match::chain_bounds(choice, lines.own);
    std::size_t i = 0;  // the hunks' removed lines, in order
    for (std::size_t k = region.first; k <= region.last; ++k)
        for (LineNo n = hunks_[k].old_start;
             n < hunks_[k].old_start + hunks_[k].old_count && i < left.size() && left[i].line == n;
             ++n, ++i)
            answers_[k].push_back(answer_of(i, lines, candidates[i], choice, bounds.low[i],
                                            bounds.high[i], base_, target_));
}

LineAnswer LineMap::at(LineNo base_line) const {
    const bool says = base_line >= 1 && base_line <= LineNo(base_.size()) &&
                      line_compare::telling(base_[std::size_t(base_line - 1)]);
    // The hunk that removes it, if one does: the last one starting at or before it.
    auto after = std::upper_bound(hunks_.begin(), hunks_.end(), base_line,
                                  [](LineNo line, const Hunk& h) { return line < h.old_start; });
    if (after != hunks_.begin()) {
        const auto k = std::size_t(after - hunks_.begin() - 1);
        const Hunk& h = hunks_[k];
        if (h.old_count && base_line < h.old_start + h.old_count &&
            base_line <= LineNo(base_.size())) {
            settle(region_of_[k]);
            LineAnswer a = answers_[k][std::size_t(base_line - h.old_start)];
            a.telling = says;
            return a;
        }
    }
    LineAnswer kept;  // where the boundary rule puts a line no hunk removes
    kept.line = kept.end_line = map_range(hunks_, {base_line, base_line}).to.start;
    kept.score = kept.content = 1;
    kept.tier = LineTier::Exact;
    kept.telling = says;
    kept.kept = true;
    return kept;
}

bool LineMap::same_text(LineNo base_line, LineNo target_line) const {
    return base_line >= 1 && base_line <= LineNo(base_.size()) && target_line >= 1 &&
           target_line <= LineNo(target_.size()) &&
           base_[std::size_t(base_line - 1)] == target_[std::size_t(target_line - 1)];
}

namespace {

// A range's blank lines and braces that the diff kept apart from a run of its lines found
// moved or edited (each run's lines consecutive on both sides), put beside that run where they
// read the same at their distance from it: the diff matched them with another `{` or blank
// line, which says nothing of where they went. Every line outside the run must be such a line;
// of the runs that allow it, the longest, unless two are as long. Lines the diff kept on both
// sides of an insertion stay where it kept them (git slides an insertion to where it reads
// best), and lines split or merged are left as they are.
void unslide(const LineMap& map, LineNo first, std::vector<LineAnswer>& lines) {
    struct Run {
        std::size_t from = 0, to = 0;  // indices into lines, inclusive
    };
    std::vector<Run> runs;
    std::size_t previous = lines.size();
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const LineAnswer& a = lines[i];
        if (!a.located()) continue;
        if (a.tier == LineTier::Split || a.tier == LineTier::Merged) return;
        if (previous < lines.size() && a.line == lines[previous].end_line + LineNo(i - previous))
            runs.back().to = i;
        else
            runs.push_back({i, i});
        previous = i;
    }
    if (runs.size() < 2) return;
    const Run* best = nullptr;
    bool tie = false;
    for (const Run& run : runs) {
        const LineNo at = lines[run.from].line - LineNo(run.from);  // where index 0 would go
        bool fits = true;
        for (std::size_t i = 0; i < lines.size() && fits; ++i) {
            const LineAnswer& a = lines[i];
            if (!a.located()) continue;
            fits = i >= run.from && i <= run.to
                       ? !a.kept
                       : a.kept && !a.telling && map.same_text(first + LineNo(i), at + LineNo(i));
        }
        if (!fits) continue;
        const std::size_t size = run.to - run.from;
        if (best && size == best->to - best->from) tie = true;
        if (!best || size > best->to - best->from) best = &run, tie = false;
    }
    if (!best || tie) return;
    const LineNo at = lines[best->from].line - LineNo(best->from);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        LineAnswer& a = lines[i];
        if (!a.located() || (i >= best->from && i <= best->to)) continue;
        a.line = a.end_line = at + LineNo(i);
        a.score = a.content = 1;
        a.tier = LineTier::Exact;
        a.kept = false;
    }
}

// The tier that says most about what became of a range.
int rank(LineTier t) {
    switch (t) {
        case LineTier::Exact:
            return 0;
        case LineTier::Whitespace:
            return 1;
        case LineTier::Edited:
            return 2;
        case LineTier::Merged:
            return 3;
        case LineTier::Split:
            return 4;
        case LineTier::Moved:
            return 5;
        default:
            return -1;
    }
}

}  // namespace

RangeAnswer map_lines(const LineMap& map, LineRange range) {
    RangeAnswer out;
    const LineNo width = range.end - range.start + 1;
    bool any_telling = false;
    for (LineNo n = range.start; n <= range.end; ++n) {
        out.lines.push_back(map.at(n));
        any_telling = any_telling || out.lines.back().telling;
    }
    unslide(map, range.start, out.lines);
    // The lines that place the range: its telling lines found at the target (or, in a range
    // of blank lines and braces, any found). A brace left in place does not hold a range whose
    // code went elsewhere.
    std::vector<const LineAnswer*> placing;
    for (const LineAnswer& a : out.lines)
        if (a.located() && (a.telling || !any_telling)) placing.push_back(&a);
    if (placing.empty()) {
        for (const LineAnswer& a : out.lines)
            if (a.tier == LineTier::Ambiguous) {
                out.candidates = a.candidates;
                break;
            }
        out.tier = out.candidates.empty() ? LineTier::Deleted : LineTier::Ambiguous;
        out.score = out.candidates.empty() ? 0 : out.candidates.front().score;
        return out;
    }
    // Lines found far apart: the largest group of them places the range when it holds most of
    // them; otherwise the groups are the candidates.
    std::sort(placing.begin(), placing.end(),
              [](const LineAnswer* a, const LineAnswer* b) { return a->line < b->line; });
    struct Group {
        LineNo first = 0, last = 0;
        std::size_t size = 0;
        double total = 0;
        bool kept = false;  // holds a line the diff kept
    };
    std::vector<Group> groups;
    const LineAnswer* previous = nullptr;
    for (const LineAnswer* a : placing) {
        // Lines the diff kept stay together whatever it put between them: it keeps their order.
        bool together = previous && previous->kept && a->kept;
        if (groups.empty() || (a->line > groups.back().last + width + 3 && !together))
            groups.push_back({a->line, a->end_line, 0, 0, false});
        Group& g = groups.back();
        g.last = std::max(g.last, a->end_line);
        ++g.size;
        g.total += a->score;
        g.kept = g.kept || a->kept;
        previous = a;
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const Group& a, const Group& b) { return a.size > b.size; });
    const Group& most = groups.front();
    if (2 * most.size < placing.size() || (groups.size() > 1 && groups[1].size == most.size)) {
        for (const Group& g : groups)
            if (out.candidates.size() < 3)
                out.candidates.push_back({g.first, g.total / double(g.size), g.last});
        out.tier = LineTier::Ambiguous;
        out.score = out.candidates.front().score;
        return out;
    }
    // The other lines found within reach of the group join it, and the lines the diff kept
    // join a group that holds such a line.
    double total = 0;
    std::size_t counted = 0;
    LineTier tier = LineTier::Exact;
    for (const LineAnswer& a : out.lines) {
        const bool reach = a.end_line >= most.first - width && a.line <= most.last + width;
        if (!a.located() || !(reach || (a.kept && most.kept))) continue;
        out.line = out.line ? std::min(out.line, a.line) : a.line;
        out.end_line = std::max(out.end_line, a.end_line);
        total += a.score;
        ++counted;
        if (rank(a.tier) > rank(tier)) tier = a.tier;
    }
    out.score = total / double(counted);
    out.tier = tier;
    return out;
}

}  // namespace cp
