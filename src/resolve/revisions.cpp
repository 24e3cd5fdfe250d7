#include "revisions.hpp"

#include <fmt/format.h>

#include <future>
#include <map>
#include <set>
#include <string_view>

#include "context_pack/core/text.hpp"

namespace cp {

using git::Revision;

namespace {

// Revisions by name, each looked up once.
class RevisionCache {
  public:
    explicit RevisionCache(const git::Repository& repo) : repo_(repo) {}

    const Revision& operator()(const std::string& rev) {
        auto it = revisions_.find(rev);
        if (it == revisions_.end()) it = revisions_.emplace(rev, repo_.resolve_commit(rev)).first;
        return it->second;
    }

    // Looks up the names not yet known, a batch's many shared among the pool's threads, each
    // through its own handle, and this one.
    void look_up(const std::vector<std::string>& names, Pool* pool) {
        std::vector<std::string> unknown;  // each once, in the order first named
        std::set<std::string_view> seen;
        for (const std::string& name : names)
            if (!revisions_.contains(name) && seen.insert(name).second) unknown.push_back(name);
        constexpr std::size_t kAlone = 16;  // fewer are looked up here alone
        const std::size_t parts = pool && unknown.size() >= kAlone ? pool->size() + 1 : 1;
        auto part = [&](std::size_t k) { return unknown.size() * k / parts; };
        auto resolve_part = [&unknown](const git::Repository& repo, std::size_t from,
                                       std::size_t to) {
            std::vector<Revision> found;
            for (std::size_t i = from; i < to; ++i)
                found.push_back(repo.resolve_commit(unknown[i]));
            return found;
        };
        std::vector<std::future<std::vector<Revision>>> asked;
        struct Wait {  // the tasks read `unknown`: none outlives it, whatever is thrown here
            std::vector<std::future<std::vector<Revision>>>& tasks;
            ~Wait() {
                for (auto& t : tasks)
                    if (t.valid()) t.wait();
            }
        } wait{asked};
        for (std::size_t k = 1; k < parts; ++k)
            asked.push_back(
                pool->run([&, from = part(k), to = part(k + 1)](const git::Repository& reader) {
                    return resolve_part(reader, from, to);
                }));
        std::vector<Revision> here = resolve_part(repo_, 0, part(1));
        for (std::size_t i = 0; i < here.size(); ++i)
            revisions_.emplace(unknown[i], std::move(here[i]));
        for (std::size_t k = 1; k < parts; ++k) {
            std::vector<Revision> found = asked[k - 1].get();
            for (std::size_t i = 0; i < found.size(); ++i)
                revisions_.emplace(unknown[part(k) + i], std::move(found[i]));
        }
    }

  private:
    const git::Repository& repo_;
    std::map<std::string, Revision> revisions_;
};

// A spec's report header: which revisions it names, not yet looked up.
StartedSpec name_revisions(const Spec& spec, const ResolveOptions& options) {
    StartedSpec start;
    SpecReport& out = start.out;
    out.source = spec.source;
    out.id = spec.id;
    out.warnings = spec.warnings;
    out.base_rev = options.base ? *options.base : spec.base.value_or("");
    out.target_rev = options.target ? *options.target : spec.target.value_or("");
    if (options.at_base) out.target_rev = out.base_rev;  // check the spec at its own base
    if (options.since) out.since_rev = *options.since;
    return start;
}

// The header's revisions looked up: base, target and since filled in, or the problem.
Result<Unit> look_up_revisions(const git::Repository& repo, RevisionCache& revision,
                               StartedSpec& start) {
    SpecReport& out = start.out;
    const Revision& base = revision(out.base_rev);
    start.problem = revision_problem(repo, "base", out.base_rev, base);
    if (base.outcome == Revision::Outcome::Commit) out.base = base.oid;

    std::optional<std::string> target;
    if (!out.target_rev.empty()) {
        const Revision& t = revision(out.target_rev);
        if (t.outcome == Revision::Outcome::Commit) {
            target = t.oid;
        } else if (start.problem.empty()) {
            start.problem = revision_problem(repo, "target", out.target_rev, t);
        }
    } else if (repo.is_bare()) {
        auto head = repo.head_commit();  // a bare repository has no working tree
        if (!head) return head.error();
        target = head.value();
    }
    // An unresolved target is no working tree: the report says it is unknown.
    out.target = target                   ? Target::at(*target)
                 : out.target_rev.empty() ? Target::working_tree()
                                          : Target{};
    if (!out.since_rev.empty()) {
        const Revision& s = revision(out.since_rev);
        if (s.outcome == Revision::Outcome::Commit) out.since = s.oid;
    }
    return Unit{};
}

}  // namespace

Result<std::vector<StartedSpec>> start_specs(const git::Repository& repo,
                                             const std::vector<Spec>& specs,
                                             const ResolveOptions& options, Pool* pool) {
    std::vector<StartedSpec> started;
    std::vector<std::string> names;  // every revision named, as written
    for (const Spec& spec : specs) {
        const SpecReport& out = started.emplace_back(name_revisions(spec, options)).out;
        names.push_back(out.base_rev);  // an empty base is looked up too: it is invalid
        if (!out.target_rev.empty()) names.push_back(out.target_rev);
        if (!out.since_rev.empty()) names.push_back(out.since_rev);
    }
    RevisionCache revision(repo);
    revision.look_up(names, pool);
    std::optional<std::optional<std::string>> head;  // read once, for working-tree targets
    for (StartedSpec& start : started) {
        if (auto looked = look_up_revisions(repo, revision, start); !looked) return looked.error();
        if (start.out.target.kind == Target::Kind::WorkingTree) {
            if (!head) {
                auto read = repo.head_commit_if_born();
                if (!read) return read.error();
                head = read.value();
            }
            start.out.head = *head;
        }
    }
    return started;
}

namespace {

// A whole object id (SHA-1 or SHA-256 hex): what `git fetch origin ID` can bring by itself.
bool is_object_id(std::string_view rev) {
    return (rev.size() == 40 || rev.size() == 64) &&
           rev.find_first_not_of("0123456789abcdefABCDEF") == std::string_view::npos;
}

}  // namespace

// Why a revision did not name one commit, with the mend. The revision is the spec author's
// text: messages show it escaped, and a suggested command names only what a fetch can bring.
std::string revision_problem(const git::Repository& repo, const char* role,
                             const std::string& spelled, const Revision& r) {
    const std::string rev = text::printable(spelled);
    switch (r.outcome) {
        case Revision::Outcome::Commit:
            return {};
        case Revision::Outcome::NotFound:
            if (auto lost = repo.packs_without_data(); !lost.empty())
                return fmt::format(
                    "{} {} not found, and the object store is damaged: {}{} has no .pack beside "
                    "it, so the objects it lists are missing; git fsck names what is broken; "
                    "restore the pack from a good clone of the repository",
                    role, rev, text::printable(lost.front()),
                    lost.size() > 1 ? fmt::format(" (and {} more)", lost.size() - 1) : "");
            if (repo.is_empty())
                return fmt::format(
                    "{} {} not in this repository, which has no commits yet; commit first, or "
                    "run in the repository the plan was written against",
                    role, rev);
            if (repo.is_shallow())
                return fmt::format("{} {} not in this shallow clone: git fetch --unshallow origin",
                                   role, rev);
            if (is_object_id(spelled))
                return fmt::format("{} {} not in this repository: git fetch origin {}", role, rev,
                                   text::shell_word(spelled));
            return fmt::format(
                "{} {} not in this repository; if it is on the remote, fetch it "
                "(git fetch origin) or give its full commit id",
                role, rev);
        case Revision::Outcome::Ambiguous: {
            std::string list;
            for (const auto& c : r.candidates) list += (list.empty() ? "" : ", ") + c;
            return fmt::format("{} {} is ambiguous{}{}{}; give more hex digits", role, rev,
                               list.empty() ? "" : " (", list, list.empty() ? "" : ")");
        }
        case Revision::Outcome::NotACommit:
            return fmt::format("{} {} names {}, not a commit", role, rev, text::short_oid(r.oid));
        case Revision::Outcome::Invalid:
            if (spelled.find('\0') != std::string::npos)
                return fmt::format(
                    "{} '{}' holds a NUL byte, which no revision can; write it "
                    "without one",
                    role, rev);
            return fmt::format("{} '{}' is not a valid revision", role, rev);
        case Revision::Outcome::Missing:  // the object, why, and the mend
            return fmt::format("{} {}: {}", role, rev, r.problem);
    }
    return {};
}

std::optional<std::string> path_problem(std::string_view path) {
    auto bad = [&](std::string_view why) {
        return fmt::format(
            "path '{}' {}; write it relative to the repository root with / "
            "separators",
            text::printable(path), why);
    };
    if (path.empty()) return bad("is empty");
    if (path.front() == '/') return bad("is absolute");
    if (path.find('\0') != std::string_view::npos) return bad("holds a NUL byte");
    std::size_t pos = 0;
    for (;;) {
        auto slash = path.find('/', pos);
        auto part = path.substr(pos, slash == std::string_view::npos ? path.npos : slash - pos);
        if (part == "..") return bad("leaves the repository through '..'");
        if (part.empty() || part == ".") return bad("has an empty or '.' component");
        if (part == ".git") return bad("points into .git");
        if (slash == std::string_view::npos) return std::nullopt;
        pos = slash + 1;
    }
}

}  // namespace cp
