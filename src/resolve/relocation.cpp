#include "relocation.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "context_pack/core/text.hpp"

namespace cp {

using git::Change;
using git::EntryKind;

namespace {

const std::size_t kLimit = 10;      // places listed; one more is looked for, to know there are more
const std::size_t kHaystacks = 32;  // haystacks kept before those of given-up bytes are dropped

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

}  // namespace

Result<Unit> Relocator::relocate(Pair& p, AnchorResult& r, const std::string& base_bytes,
                                 const Bytes& own_file, const std::vector<Hunk>* own_hunks) {
    auto base_lines = text::split_lines(base_bytes);
    std::vector<std::string_view> needle(base_lines.begin() + (r.anchor.line - 1),
                                         base_lines.begin() + r.anchor.last_line());
    if (!distinctive(needle)) return Unit{};
    std::vector<std::string> unsearched;
    auto found = search(p, r, needle, own_file, own_hunks, unsearched);
    if (!found) return found.error();
    if (!found.value().empty()) settle(p, r, base_lines, found.value(), own_file);
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

// Every place the block is, up to one more than are listed: exact matches, or if there are
// none, whitespace-blind ones.
Result<Relocator::Found> Relocator::search(Pair& p, const AnchorResult& r,
                                           const std::vector<std::string_view>& needle,
                                           const Bytes& own_file,
                                           const std::vector<Hunk>* own_hunks,
                                           std::vector<std::string>& unsearched) {
    const LineNo size = LineNo(needle.size());
    auto added = [&](LineNo at) {  // the match overlaps lines the diff added there
        if (!own_hunks) return true;
        return std::any_of(own_hunks->begin(), own_hunks->end(), [&](const Hunk& h) {
            return h.new_count > 0 && h.new_start <= at + size - 1 &&
                   at <= h.new_start + h.new_count - 1;
        });
    };
    Found found;
    for (Match how : {Match::Exact, Match::Whitespace}) {
        if (own_file && r.to) {
            for (const auto& m :
                 find_block(haystack(p, r.to->path, own_file), needle, kLimit + 1, how))
                if (added(m.line)) found.emplace_back(r.to->path, m);
        }
        if (search_elsewhere_) {
            unsearched.clear();  // each pass meets the same
            auto searched = search_other_files(p, r, needle, how, found, unsearched);
            if (!searched) return searched.error();
        }
        if (!found.empty()) break;
    }
    return found;
}

Result<Unit> Relocator::search_other_files(Pair& p, const AnchorResult& r,
                                           const std::vector<std::string_view>& needle, Match how,
                                           Found& found, std::vector<std::string>& unsearched) {
    auto whole = pairs_.whole_diff(p);
    if (!whole && whole.error().unreadable_object()) {  // no other changed file is known
        unsearched.push_back(whole.error().message);
        return Unit{};
    }
    if (!whole) return whole.error();
    for (const git::Unread& u : whole.value()->unread())
        if (u.subtree) unsearched.push_back(u.problem);
    // In target path order, which is the same whether renames were looked for from every
    // deleted path or from the anchored ones alone (Pairs::expect).
    for (const git::Delta* changed : whole.value()->by_new_path()) {
        const git::Delta& d = *changed;
        if (found.size() > kLimit) break;
        if (d.change == Change::Deleted || d.new_kind != EntryKind::File) continue;
        if (r.to && d.new_path == r.to->path) continue;  // its own file: searched apart
        auto bytes = content_.file(p.target, d.new_path);
        if (!bytes && bytes.error().unreadable_object()) {
            unsearched.push_back(bytes.error().message);
            continue;
        }
        if (!bytes) return bytes.error();
        if (!bytes.value() || text::looks_binary(*bytes.value())) continue;
        for (const auto& m :
             find_block(haystack(p, d.new_path, bytes.value()), needle, kLimit + 1, how))
            found.emplace_back(d.new_path, m);
    }
    return Unit{};
}

// What the places found make of the anchor: candidates, a move, or a pointer.
void Relocator::settle(Pair& p, AnchorResult& r, const std::vector<std::string_view>& base_lines,
                       const Found& found, const Bytes& own_file) {
    const LineNo size = r.anchor.last_line() - r.anchor.line + 1;
    auto at = [&](const std::pair<std::string, BlockMatch>& f) {
        return Location{f.first, f.second.line, f.second.line + size - 1};
    };
    const bool whitespace = found[0].second.whitespace;
    // Several matches, or one or two lines found only by ignoring whitespace (weak
    // evidence), are listed, never picked.
    if (found.size() > 1 || (size < 3 && whitespace)) {
        Relocation::Candidates several;
        for (const auto& f : found)
            if (several.listed.size() < kLimit) several.listed.push_back(at(f));
        several.total = found.size();
        r.relocation = Relocation{std::move(several), whitespace};
        return;
    }
    const auto& only = found[0];
    bool own = r.to && only.first == r.to->path;
    bool sure =
        own && (size >= 3 ? true
                          : !only.second.whitespace &&
                                neighbours_agree(base_lines, r.anchor.line, r.anchor.last_line(),
                                                 haystack(p, r.to->path, own_file).lines(),
                                                 only.second.line));
    if (!r.lines_deleted || !sure) {
        r.relocation = Relocation{Relocation::FoundAt{at(only)}, whitespace};
        return;
    }
    r.relocation = Relocation{Relocation::Moved{*r.to, true}, whitespace};
    r.to = at(only);
    r.status =
        r.to->line == r.anchor.line && r.to->path == r.anchor.path ? Status::Same : Status::Moved;
    r.lines_deleted = false;
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
