#include "anchor.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "context_pack/core/mapping.hpp"
#include "context_pack/core/text.hpp"
#include "context_pack/resolve/resolve.hpp"

namespace cp {

using git::Change;
using git::EntryKind;

namespace {

const char* kind_word(EntryKind kind) {
    switch (kind) {
        case EntryKind::File:
            return "file";
        case EntryKind::Symlink:
            return "symlink";
        case EntryKind::Submodule:
            return "submodule";
        case EntryKind::Directory:
            return "directory";
    }
    return "entry";
}

// Why the anchor names no lines of a file, or nullopt when it does.
std::optional<std::string> malformed(const Anchor& a) {
    if (a.kept)  // its location is an older base's: never taken for this one's
        return fmt::format(
            "not carried by --repin, which marked it \"{}\"; revise its location by hand, "
            "then delete its \"repin\" key",
            text::printable(*a.kept));
    if (a.mention && !a.mention->problem.empty()) return a.mention->problem;
    if (auto bad = path_problem(a.path)) return bad;
    if (a.line < 1)
        return fmt::format("line {} is before the first line: lines count from 1", a.line);
    if (a.last_line() < a.line)
        return fmt::format("end_line {} is before line {}", a.last_line(), a.line);
    return std::nullopt;
}

// An object the store does not give, with where it is to the anchor ("a.c at base: ") before
// the message when the message does not say; any other error as it is.
Error where(const Error& e, const std::string& where) {
    if (!e.unreadable_object()) return e;
    return Error{where + e.message, e.object};
}

// What a pair's diff could not read (Diff::unread), for a deleted file whose renamed copy may
// lie there: the first thing and its mend, or, when every one is missing from a partial
// clone, the one fetch that brings them all (git's own rename detection fetches more than
// eight: git diff -M, which in a partial clone fetches what it compares).
std::string unread_note(const Pair& p) {
    const auto& unread = p.diff.unread();
    const git::Unread& first = unread.front();
    if (unread.size() == 1) return first.problem;
    const bool fetchable = std::all_of(unread.begin(), unread.end(), [&](const git::Unread& u) {
        return !u.fetch_from.empty() && u.fetch_from == first.fetch_from;
    });
    if (!fetchable)
        return fmt::format("{} objects could not be read; the first: {}", unread.size(),
                           first.problem);
    if (unread.size() <= 8) {
        std::string ids;
        for (const git::Unread& u : unread) ids += " " + u.oid;
        return fmt::format(
            "{} objects are not in this partial clone; fetch them from its promisor remote: "
            "git fetch {}{}",
            unread.size(), text::shell_word(first.fetch_from), ids);
    }
    return fmt::format(
        "{} objects are not in this partial clone; git's own rename detection fetches what it "
        "compares: git diff -M --name-status {}{} >/dev/null",
        unread.size(), p.base, p.target ? " " + *p.target : "");
}

}  // namespace

void check_symbol(AnchorResult& r, const std::string* content) {
    if (!r.anchor.symbol || !content) return;
    r.symbol_at.reset();
    if (r.to && r.to->end_line >= r.to->line) {
        LineNo at = r.to->line;
        for (std::string_view line : text::split_lines(*content, r.to->line, r.to->end_line)) {
            if (auto column = text::find_word(line, *r.anchor.symbol)) {
                r.symbol_at = {at, *column + 1};
                break;
            }
            ++at;
        }
    }
    r.symbol_found = r.symbol_at.has_value();
}

Result<Unit> AnchorRules::check_symbol_there(const Pair& p, AnchorResult& r) {
    if (!r.anchor.symbol) return Unit{};
    auto there = content_.file(p.target, r.to->path);
    if (!there) return where(there.error(), r.to->path + " at target: ");
    check_symbol(r, there.value().get());
    return Unit{};
}

Result<Unit> AnchorRules::resolve(Pair& p, AnchorResult& r, bool check_symbols) {
    auto filled = fill(p, r, check_symbols);
    if (filled || !filled.error().unreadable_object()) return filled;
    // An object it needs that the store does not give (missing, or damaged): UNRESOLVED, why.
    AnchorResult left;
    left.anchor = std::move(r.anchor);
    left.row = r.row;
    left.base_blob = std::move(r.base_blob);
    left.reason = filled.error().message;
    r = std::move(left);
    return Unit{};
}

Result<Unit> AnchorRules::fill(Pair& p, AnchorResult& r, bool check_symbols) {
    const Anchor& a = r.anchor;
    if (auto bad = malformed(a)) {
        r.reason = *bad;
        return Unit{};
    }
    auto found = repo_.lookup(p.base, a.path);
    if (!found) return where(found.error(), a.path + " at base: ");
    const git::PathLookup& at_base = found.value();
    if (!at_base.blocked_by.empty()) {
        r.reason = fmt::format("{} lies inside {} {} at base; anchor files of this repository",
                               a.path, kind_word(at_base.blocked_kind), at_base.blocked_by);
        return Unit{};
    }
    // A subtree the diff could not read holds it: what became of it is not known.
    if (const git::Unread* lost = p.diff.unread_at(a.path)) {
        r.reason =
            fmt::format("{} lies beneath what the diff could not read: {}", a.path, lost->problem);
        return Unit{};
    }
    if (!at_base.entry) return resolve_absent(p, r);
    if (at_base.entry->kind != EntryKind::File) {
        r.reason =
            fmt::format("{} is a {} at base, not a file", a.path, kind_word(at_base.entry->kind));
        return Unit{};
    }
    r.base_blob = at_base.entry->oid;
    auto base = read_base(p, r, *at_base.entry);
    if (!base) return base.error();
    if (!base.value()) return Unit{};
    const std::string& base_bytes = *base.value();
    r.binary = text::looks_binary(base_bytes);

    // The pair's diff, or the whole one where its renames were looked for from other paths.
    auto answering = pairs_.diff_for(p, a.path);
    if (!answering) return answering.error();
    const git::Delta* delta = answering.value()->find_old(a.path);
    if (!p.target) {
        // Reads never follow a symlink out of the working tree: refuse, don't guess.
        const std::string& there = delta ? delta->new_path : a.path;
        if (auto link = repo_.worktree_symlink(there)) {
            r.reason = fmt::format(
                "{} is reached through the symlink {} in the working "
                "tree; refused, as it may lead outside the repository",
                there, *link);
            return Unit{};
        }
    }
    if (!delta) {  // unchanged between base and target
        r.status = Status::Same;
        r.to = Location{a.path, a.line, a.last_line()};
        if (check_symbols) check_symbol(r, &base_bytes);
        return Unit{};
    }
    if (delta->change == Change::Deleted && !p.diff.unread().empty()) {
        // Renames were found by id alone: a copy by content may lie in what was not read.
        r.reason = fmt::format(
            "{} deleted at target; whether it was renamed cannot be told, as rename detection "
            "could not read all it compares: {}",
            a.path, unread_note(p));
        return Unit{};
    }
    if (delta->change == Change::Deleted) {
        r.status = Status::Gone;
        if (const auto& skipped = p.diff.renames_skipped()) {
            // git's own advice, as git diff -M words it: the limit that would have sufficed.
            r.reason = fmt::format(
                "{} deleted at target; rename detection was skipped, as {} deleted x {} added "
                "files are over diff.renameLimit {} squared; to look for its renamed copy, run "
                "git config diff.renameLimit {}",
                a.path, skipped->sources, skipped->targets, skipped->limit, skipped->needed);
        } else {
            r.reason =
                fmt::format("{} deleted at target; no file of similar content found", a.path);
        }
        // Followed through its renames first: its file's own history is the surer witness.
        if (!following_) {
            auto followed = follow(p, r, check_symbols);
            if (!followed || r.to) return followed;
        }
        auto relocated = relocator_.relocate(p, r, base_bytes, nullptr, nullptr);
        if (!relocated || !r.to || !check_symbols) return relocated;
        return check_symbol_there(p, r);
    }
    if (delta->change == Change::TypeChanged || delta->new_kind != EntryKind::File) {
        r.status = Status::Gone;
        r.reason = fmt::format("{} is a {} at target, no longer a file", delta->new_path,
                               kind_word(delta->new_kind));
        return Unit{};
    }
    auto carried = carry(p, r, *delta, base.value(), check_symbols);
    if (carried && delta->untracked && delta->old_path == delta->new_path && !r.reason)
        r.reason = fmt::format(
            "{} deleted from the index (as by git rm --cached); still on disk, untracked: "
            "carried onto the file there",
            a.path);
    return carried;
}

Result<Bytes> AnchorRules::read_base(Pair& p, AnchorResult& r, const git::Entry& entry) {
    const Anchor& a = r.anchor;
    if (const git::Delta* d = p.diff.answers_for(a.path) ? p.diff.find_old(a.path) : nullptr)
        ahead_.collect_hunks(p, *d);
    ahead_.collect_blob(entry.oid);
    const std::string of = "of " + a.path + " at base";
    auto base_content = content_.blob(entry.oid, of);  // measured before it is read
    if (!base_content) return base_content.error();
    if (!base_content.value()) {  // over the size limit
        auto base_size = repo_.blob_size(entry.oid, of);
        if (!base_size) return base_size.error();
        r.reason = fmt::format(
            "{} is {} MiB at base, over the {} MiB the tool reads; raise "
            "{} to carry it",
            a.path, base_size.value() >> 20, repo_.max_file_bytes() >> 20,
            repo_.option_names().max_file_mib.name);
        return Bytes();
    }
    // Counted up to the anchor's last line: past it only when the file ends before.
    const std::int64_t lines = text::count_lines(*base_content.value(), a.last_line());
    if (a.last_line() > lines) {
        r.reason = fmt::format("{}:{}-{} is past the end of the file at base ({} lines)", a.path,
                               a.line, a.last_line(), lines);
        return Bytes();
    }
    return std::move(base_content).value();
}

// Whether every telling line of `best` was found with its very text, close together (within
// twice the range's length): the anchor's lines are there, in whatever order.
static bool found_verbatim(const RangeAnswer& best) {
    std::size_t telling = 0;
    for (const LineAnswer& l : best.lines) {
        if (!l.telling) continue;
        if (!l.located() || l.content < 1.0) return false;
        ++telling;
    }
    return telling > 0 && std::size_t(best.end_line - best.line) < 2 * best.lines.size();
}

// A TOUCHED anchor whose text relocation found elsewhere, while its line map says the lines
// were changed here: the evidence disagrees, so its best lines are left open (Ambiguous, the
// map's answer the one candidate), and `found_at` or the candidates still name the copies.
// Relocation's places found by likeness (lightly edited) are weaker than lines found with
// their very text: where every telling line of the map's answer reads verbatim, the map's
// answer stands and those places are dropped (look-alike lines reordered read like an edited
// copy of the block next to its own).
static void weigh_against_relocation(AnchorResult& r) {
    RangeAnswer& best = *r.best;
    auto agrees = [&](const Location& l) {
        return l.path == r.to->path && l.line == best.line && l.end_line == best.end_line;
    };
    const auto* found = r.relocation ? r.relocation->found_at() : nullptr;
    const auto* several = r.relocation ? r.relocation->candidates() : nullptr;
    if (best.line == 0) return;
    if (!(found && !agrees(found->at)) &&
        !(several && std::none_of(several->listed.begin(), several->listed.end(), agrees)))
        return;
    if (r.relocation->similarity && found_verbatim(best)) {
        r.relocation.reset();
        return;
    }
    if (best.tier == LineTier::Exact) return;
    auto open = [](auto& answer) {  // a LineAnswer or the RangeAnswer
        answer.candidates = {{answer.line, answer.score, answer.end_line}};
        answer.line = answer.end_line = 0;
        answer.tier = LineTier::Ambiguous;
    };
    for (LineAnswer& l : best.lines)
        if (l.located() && l.tier != LineTier::Exact) open(l);
    open(best);
}

// Whether the anchor's symbol, in its lines at base, is in none of the lines the union rule
// gives it at the target: what the diff kept of it is then look-alike lines (two like functions,
// their comments paired across), not its code.
static bool symbol_left(const AnchorResult& r, const std::vector<std::string_view>& base,
                        const std::vector<std::string_view>& target) {
    if (!r.anchor.symbol || r.anchor.last_line() > LineNo(base.size())) return false;
    auto holds = [&](const std::vector<std::string_view>& lines, LineNo from, LineNo to) {
        for (LineNo l = std::max<LineNo>(from, 1); l <= to && l <= LineNo(lines.size()); ++l)
            if (text::contains_word(lines[std::size_t(l - 1)], *r.anchor.symbol)) return true;
        return false;
    };
    return holds(base, r.anchor.line, r.anchor.last_line()) &&
           !holds(target, r.to->line, r.to->end_line);
}

// A TOUCHED anchor whose blank first or last lines the diff parted from its code (new lines put
// between them, a function added just above it; or its margin taken away with the code next to
// it): its code is the answer, SAME or MOVED where the diff kept every line of it, else
// TOUCHED, with as many blank lines either side as the anchor had and the target has next to
// it there. The union rule's answer is kept beside it. Gives the base lines of its code.
static std::optional<LineRange> part_margins(AnchorResult& r, std::span<const Hunk> hunks,
                                             const std::vector<std::string_view>& base,
                                             const std::vector<std::string_view>& target) {
    const LineRange range{r.anchor.line, r.anchor.last_line()};
    if (range.end > LineNo(base.size())) return std::nullopt;
    LineNo lead = 0, trail = 0;
    while (range.start + lead < range.end &&
           text::is_blank(base[std::size_t(range.start + lead - 1)]))
        ++lead;
    while (range.end - trail > range.start + lead &&
           text::is_blank(base[std::size_t(range.end - trail - 1)]))
        ++trail;
    auto code = parted_margins(hunks, range, lead, trail);
    if (!code || code->to.end > LineNo(target.size())) return std::nullopt;
    LineRange to = code->to;
    for (LineNo k = 0;
         k < lead && to.start > 1 && text::is_blank(target[std::size_t(to.start - 2)]); ++k)
        --to.start;
    for (LineNo k = 0;
         k < trail && to.end < LineNo(target.size()) && text::is_blank(target[std::size_t(to.end)]);
         ++k)
        ++to.end;
    r.relocation = Relocation{Relocation::Moved{r.to, r.lines_deleted, true}, false, std::nullopt};
    r.to->line = to.start;
    r.to->end_line = to.end;
    r.status = code->status == LineStatus::Touched              ? Status::Touched
               : to.start == range.start && to.end == range.end ? Status::Same
                                                                : Status::Moved;
    return LineRange{range.start + lead, range.end - trail};
}

Result<Unit> AnchorRules::carry(Pair& p, AnchorResult& r, const git::Delta& delta,
                                const Bytes& base, bool check_symbols) {
    const std::string& base_bytes = *base;
    const Anchor& a = r.anchor;
    r.renamed = delta.change == Change::Renamed;
    auto found_hunks = pairs_.hunks_for(p, delta, &base_bytes);
    if (!found_hunks) return where(found_hunks.error(), delta.new_path + " at target: ");
    const git::Hunks& h = *found_hunks.value();
    if (h.too_large) {
        r.reason = fmt::format(
            "{} is over the {} MiB the tool reads at target; raise "
            "{} to carry it",
            delta.new_path, repo_.max_file_bytes() >> 20, repo_.option_names().max_file_mib.name);
        return Unit{};
    }
    if (h.binary || r.binary) {
        r.binary = true;
        if (!h.hunks.empty() || delta.change != Change::Renamed || delta.similarity < 100) {
            r.reason =
                fmt::format("binary file {} changed: no line hunks to carry the range", a.path);
            return Unit{};
        }
    }
    LineRange range{a.line, a.last_line()};
    Mapping m = map_range(h.hunks, range);
    r.status = m.status == LineStatus::Same    ? Status::Same
               : m.status == LineStatus::Moved ? Status::Moved
                                               : Status::Touched;
    r.lines_deleted = m.lines_deleted;
    r.to = Location{delta.new_path, m.to.start, m.to.end};
    if (r.binary) return Unit{};

    auto target_content = content_.file(p.target, delta.new_path);
    if (!target_content) return target_content.error();
    const std::vector<std::string_view> base_lines = text::split_lines(base_bytes);
    const bool touched = r.status == Status::Touched && target_content.value();
    const std::vector<std::string_view> target_lines =
        touched ? text::split_lines(*target_content.value()) : std::vector<std::string_view>();
    std::optional<LineRange> code;  // its lines less blank margins the diff parted from them
    // The diff took its code from its place, or paired what it kept with look-alike lines
    // of other code: look for it by content.
    if (r.lines_deleted || code_left(h.hunks, range, base_lines) ||
        (touched && symbol_left(r, base_lines, target_lines))) {
        auto relocated = relocator_.relocate(p, r, base_bytes, target_content.value(), &h.hunks);
        if (!relocated) return relocated;
    } else if (touched) {
        code = part_margins(r, h.hunks, base_lines, target_lines);
    }
    if (r.status == Status::Touched && target_content.value()) {
        auto made = p.line_maps.find(a.path);
        if (made == p.line_maps.end())
            made = p.line_maps.try_emplace(a.path, base, target_content.value(), h.hunks).first;
        // Placed by its code's lines alone where its margins were parted from them.
        r.best = map_lines(made->second, code.value_or(range));
        if (code) r.best->lines = map_lines(made->second, range).lines;
        weigh_against_relocation(r);
    }
    return check_symbols ? check_symbol_there(p, r) : Unit{};
}

// On POSIX a backslash is part of a file's name, as git takes it; said where one may have
// been meant as a separator.
static void backslash_note(AnchorResult& r) {
    if (r.anchor.path.find('\\') != std::string::npos)
        *r.reason += "; its \\ is part of the file's name (directories are separated by /)";
}

std::string AnchorRules::near_miss(const std::string& base, const std::string& path) {
    auto listed = base_paths_.find(base);
    if (listed == base_paths_.end()) {
        // A tree the store does not give is passed over: the note is a hint, never a failure.
        auto files = repo_.tracked_paths(base, [](const std::string&, const Error&) {});
        listed = base_paths_.emplace(base, files ? std::move(files).value() : nullptr).first;
    }
    if (!listed->second) return "";
    constexpr std::size_t kMost = 3;
    std::size_t more = 0;
    auto close = text::similar_paths(path, listed->second->paths, kMost, &more);
    if (close.empty()) return "";
    std::string named;
    for (std::size_t i = 0; i < close.size(); ++i) {
        const bool last = i + 1 == close.size() && !more;
        named += (i == 0 ? "" : last ? " or " : ", ") + text::printable(close[i]);
    }
    if (more) named += fmt::format(" or {} more", more);
    return fmt::format("; did you mean {}?", named);
}

Result<Unit> AnchorRules::resolve_absent(Pair& p, AnchorResult& r) {
    const Anchor& a = r.anchor;
    if (a.kind == AnchorKind::Read && !a.ad_hoc) {
        // A read is of code the base has; a file the plan creates is an edit's.
        r.status = Status::Unresolved;
        r.reason = fmt::format(
            "{} absent at base: a read names a file the base has (a file the plan creates "
            "belongs in file_changes)",
            text::printable(a.path));
        backslash_note(r);
        *r.reason += near_miss(p.base, a.path);
        return Unit{};
    }
    auto made = resolve_new(p, r);
    if (!made) return made;
    backslash_note(r);
    // Not at the target either: perhaps a typo for a file the base has.
    if (r.exists_at_target == false) *r.reason += near_miss(p.base, a.path);
    return Unit{};
}

Result<Unit> AnchorRules::resolve_new(Pair& p, AnchorResult& r) {
    r.status = Status::New;
    bool exists = false;
    if (p.target) {
        auto at_target = repo_.lookup(*p.target, r.anchor.path);
        if (!at_target) return where(at_target.error(), r.anchor.path + " at target: ");
        exists = at_target->entry.has_value();
    } else {
        exists = p.diff.find_new(r.anchor.path) != nullptr;
        if (!exists) {
            auto file = content_.file(std::nullopt, r.anchor.path);
            if (!file) return file.error();
            exists = file.value() != nullptr;
        }
    }
    r.exists_at_target = exists;
    r.reason = fmt::format("{} absent at base; {} at target", text::printable(r.anchor.path),
                           exists ? "present" : "not yet");
    if (exists) return place_new(p, r);
    return Unit{};
}

Result<Unit> AnchorRules::place_new(Pair& p, AnchorResult& r) {
    const Anchor& a = r.anchor;
    auto file = content_.file(p.target, a.path);
    if (!file) return where(file.error(), a.path + " at target: ");
    // No regular file within the size limit (a symlink, a submodule, too large): no lines.
    if (!file.value()) return Unit{};
    if (text::looks_binary(*file.value())) {
        r.binary = true;
        return Unit{};
    }
    // The anchor's own range, clamped to the file; its first lines when the range starts past
    // the end (as many as the anchor spans); none in an empty file.
    const std::int64_t n = text::count_lines(*file.value());
    if (n == 0) {
        *r.reason += "; empty at target";
        return Unit{};
    }
    if (a.line <= n) {
        r.to = Location{a.path, a.line, std::min(a.last_line(), n)};
        return Unit{};
    }
    r.to = Location{a.path, 1, std::min(a.last_line() - a.line + 1, n)};
    *r.reason += fmt::format("; lines {}-{} are past its end ({} lines): its first lines shown",
                             a.line, a.last_line(), n);
    return Unit{};
}

Result<bool> AnchorRules::edited_since(const std::string& base, const std::string& since,
                                       const std::optional<std::string>& target,
                                       const AnchorResult& r) {
    auto later = pairs_.get(since, target);
    if (!later) return later.error();
    Pair& now = *later.value();
    if (r.status == Status::New) {  // a file the plan creates: any change to it counts
        return now.diff.find_old(r.anchor.path) != nullptr ||
               now.diff.find_new(r.anchor.path) != nullptr;
    }
    auto earlier = pairs_.get(base, since);
    if (!earlier) return earlier.error();
    AnchorResult then;
    then.anchor = r.anchor;
    // What the store does not give leaves the state then unknown: an error, not a guess.
    if (auto filled = fill(*earlier.value(), then, false); !filled) return filled.error();
    const git::Diff& before = earlier.value()->diff;
    if (then.status == Status::Unresolved && !before.unread().empty())
        return Error{*then.reason, before.unread().front().fetch_from.empty()
                                       ? Error::Object::Damaged
                                       : Error::Object::Missing};
    if (!then.to || then.status == Status::Gone) return then.status != r.status;
    auto answering = pairs_.diff_for(now, then.to->path);
    if (!answering) return answering.error();
    const git::Delta* delta = answering.value()->find_old(then.to->path);
    if (!delta) return false;
    if (delta->change != Change::Modified) return true;  // renamed, deleted, retyped
    auto hunks = pairs_.hunks_for(now, *delta);
    if (!hunks) return hunks.error();
    LineRange range{then.to->line, then.to->end_line};
    for (const Hunk& h : hunks.value()->hunks) {
        if (range.empty() ? h.old_count == 0 && h.old_start == range.end : overlaps(h, range))
            return true;
    }
    return false;
}

}  // namespace cp
