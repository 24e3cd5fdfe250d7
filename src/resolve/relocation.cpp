#include "relocation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <set>

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
// make a likeness anywhere.
const double kTakeSimilar = 0.65;
const std::size_t kTakeSimilarLines = 6;
const double kPointSimilar = 0.5;
const double kRivalGap = 0.2;

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
    std::vector<std::string> unsearched;
    auto found = search(p, r, needle, own_file, own_hunks, false, unsearched);
    if (!found) return found.error();
    if (found.value().empty()) {
        found = search(p, r, needle, own_file, own_hunks, true, unsearched);
        if (!found) return found.error();
    }
    if (!found.value().empty()) settle(p, r, needle, found.value(), own_file);
    if (!unsearched.empty())
        r.reason = fmt::format(
            "{}its lines were not looked for where the object store could not "
            "give the files{}: {}",
            r.reason ? *r.reason + "; " : "",
            unsearched.size() > 1
                ? fmt::format(" ({} places; the first follows)", unsearched.size())
                : "",
            unsearched.front());
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
    for (SimilarMatch& m : find_similar_block(hay, needle.core)) {
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
                                           const std::vector<Hunk>* own_hunks, bool similar,
                                           std::vector<std::string>& unsearched) {
    Found found;
    if (own_file && r.to)
        search_file(r.to->path, haystack(p, r.to->path, own_file), needle, own_hunks, similar, true,
                    found);
    unsearched.clear();  // each pass meets the same
    auto whole = pairs_.whole_diff(p);
    if (!whole && whole.error().unreadable_object()) {  // no other changed file is known
        unsearched.push_back(whole.error().message);
        return found;
    }
    if (!whole) return whole.error();
    for (const git::Unread& u : whole.value()->unread())
        if (u.subtree) unsearched.push_back(u.problem);
    auto indexed = index(p, *whole.value());
    if (!indexed) return indexed.error();
    const ChangedLines& ix = *indexed.value();
    unsearched.insert(unsearched.end(), ix.unsearched.begin(), ix.unsearched.end());
    const std::vector<bool> may = may_hold(ix, needle, similar);
    // In target path order, which is the same whether renames were looked for from every
    // deleted path or from the anchored ones alone (Pairs::expect).
    for (std::size_t id = 0; id < ix.files.size(); ++id) {
        const git::Delta& d = *ix.files[id].delta;
        if (found.size() > kLimit) break;
        if (!may[id]) continue;
        if (r.to && d.new_path == r.to->path) continue;  // its own file: searched apart
        auto bytes = content_.file(p.target, d.new_path);
        if (!bytes) return bytes.error();  // the index read it before
        const std::size_t had = found.size();
        search_file(d.new_path, haystack(p, d.new_path, bytes.value()), needle, nullptr, similar,
                    false, found);
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
    // Several matches, or one or two lines found only by ignoring whitespace (weak
    // evidence), are listed, never picked.
    if (found.size() > 1 || (size < 3 && whitespace)) {
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
        place_bytes ? &haystack(p, only.path, place_bytes).lines() : nullptr;
    const LineNo core_first = r.anchor.line + LineNo(needle.before);
    bool sure = only.fresh && place_lines;
    if (sure && similar)
        sure = *only.similarity >= kTakeSimilar && only.equal >= 1 &&
               only.equal + only.renamed >= 3 &&
               std::size_t(std::count_if(needle.core.begin(), needle.core.end(),
                                         [](std::string_view l) { return !is_margin(l); })) >=
                   kTakeSimilarLines;
    else if (sure)
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

Result<const ChangedLines*> Relocator::index(Pair& p, const git::Diff& whole) {
    if (p.changed_lines) return p.changed_lines.get();
    auto made = std::make_shared<ChangedLines>();
    for (const git::Delta* changed : whole.by_new_path()) {
        const git::Delta& d = *changed;
        if (d.change == Change::Deleted || d.new_kind != EntryKind::File) continue;
        auto bytes = content_.file(p.target, d.new_path);
        if (!bytes && bytes.error().unreadable_object()) {
            made->unsearched.push_back(bytes.error().message);
            continue;
        }
        if (!bytes) return bytes.error();
        if (bytes.value() && !text::looks_binary(*bytes.value()))
            made->files.push_back({&d, LineFilter(*bytes.value())});
    }
    p.changed_lines = std::move(made);
    return p.changed_lines.get();
}

std::vector<bool> Relocator::may_hold(const ChangedLines& ix, const Needle& needle,
                                      bool similar) const {
    // A copy holds every telling line of the block (each distinct one asked once); a likeness
    // enough of them, equal or of one long shape, each line counted once.
    std::vector<LineHashes> asked;
    std::set<std::uint64_t> distinct;
    std::size_t telling = 0;
    for (std::string_view line : needle.core) {
        if (is_margin(line)) continue;
        ++telling;
        const LineHashes h = line_hashes(line);
        if (similar || distinct.insert(h.squeezed).second) asked.push_back(h);
    }
    const std::size_t wanted = similar ? similar_votes_needed(telling) : asked.size();
    std::vector<bool> out(ix.files.size());
    for (std::size_t id = 0; id < out.size(); ++id) {
        const LineFilter& f = ix.files[id].lines;
        std::size_t count = 0, left = asked.size();
        for (const LineHashes& h : asked) {
            if (count >= wanted || count + left < wanted) break;
            --left;
            count += f.may_hold_line(h.squeezed) ||
                     (similar && h.shape_bytes >= kShapeVotes && f.may_hold_shape(h.shape));
        }
        out[id] = count >= wanted;
    }
    return out;
}

const Haystack& Relocator::haystack(const Pair& p, const std::string& path, const Bytes& bytes) {
    auto key = std::pair{p.target, path};  // a target's file is the same in every pair
    if (auto it = haystacks_.find(key); it != haystacks_.end()) {
        if (it->second.bytes.lock() == bytes) return it->second.haystack;
        haystacks_.erase(it);  // made from bytes the cache has since given up
    }
    if (haystacks_.size() >= kHaystacks)  // those whose bytes the cache gave up go first
        std::erase_if(haystacks_, [](const auto& kept) { return kept.second.bytes.expired(); });
    return haystacks_.emplace(key, Kept{bytes, Haystack(text::split_lines(*bytes))})
        .first->second.haystack;
}

}  // namespace cp
