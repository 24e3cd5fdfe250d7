#include "context_pack/cli.hpp"

#include <fmt/format.h>
#include <git2.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <sstream>

#include "context_pack/git.hpp"
#include "context_pack/json_output.hpp"
#include "context_pack/resolve.hpp"
#include "context_pack/spec.hpp"
#include "context_pack/table.hpp"

namespace cp::cli {
namespace {

struct Options {
    std::vector<std::string> spec_files;
    std::vector<std::string> anchors;
    std::string repo_dir = ".";
    std::optional<std::string> base;
    std::optional<std::string> target;
    std::string format = "text";
    bool table_only = false;
};

constexpr const char* kDescription =
    "Carry the code anchors of a change plan from its base commit onto the tree you stand on\n"
    "(a commit, or by default the working tree with its uncommitted changes) and print a\n"
    "status table: SAME, MOVED, TOUCHED, RENAMED, GONE, NEW or UNRESOLVED per anchor.\n\n"
    "Examples:\n"
    "  context-pack plan.json                      orient: anchors onto the working tree\n"
    "  context-pack --target \"$(jq -r .base plan.json)\" plan.json\n"
    "                                              check a plan at its own base\n"
    "  context-pack --base main~3 --anchor src/a.c:40-52@parse_args\n"
    "                                              one anchor, no spec file\n"
    "  context-pack --format json drift.jsonl      many specs, one JSON document\n\n"
    "Exit status: 0 every anchor resolved and every symbol found; 1 the table was printed and\n"
    "some anchor is GONE, UNRESOLVED or SYMBOL_MISSING; 2 the command could not run.";

Result<std::string> read_input(const std::string& name, std::istream& in) {
    if (name == "-") {
        std::ostringstream buf;
        buf << in.rdbuf();
        return buf.str();
    }
    struct stat st {};
    if (::stat(name.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        return Error{fmt::format("{} is a directory; give a spec file (.json or .jsonl)", name)};
    std::ifstream file(name, std::ios::binary);
    if (!file)
        return Error{fmt::format("cannot read spec file {}: {}", name, std::strerror(errno))};
    std::ostringstream buf;
    buf << file.rdbuf();
    return buf.str();
}

Result<std::vector<Spec>> load_specs(const Options& o, std::istream& in) {
    std::vector<Spec> specs;
    for (const auto& name : o.spec_files) {
        auto text = read_input(name, in);
        if (!text) return text.error();
        bool jsonl = name.size() > 6 && name.ends_with(".jsonl");
        auto parsed = parse_specs(text.value(), name == "-" ? "<stdin>" : name, jsonl);
        if (!parsed) return parsed.error();
        for (auto& s : parsed.value()) specs.push_back(std::move(s));
    }
    if (!o.anchors.empty()) {
        if (!o.base)
            return Error{"--anchor needs --base REV: the commit the anchors' line numbers are at"};
        Spec adhoc;
        adhoc.source = "--anchor";
        for (std::size_t i = 0; i < o.anchors.size(); ++i) {
            auto a = parse_anchor_arg(o.anchors[i]);
            if (!a) return a.error();
            a->index = i;
            adhoc.anchors.push_back(std::move(a).value());
        }
        specs.push_back(std::move(adhoc));
    }
    if (specs.empty())
        return Error{"nothing to resolve: give a spec file ('-' reads standard input), or "
                     "--base REV --anchor PATH:LINE"};
    for (const auto& s : specs) {
        if (!s.base && !o.base)
            return Error{fmt::format(
                "{}: the spec has no base; add \"base\": \"<commit>\" to it or pass --base REV",
                s.source)};
    }
    return specs;
}

int fail(std::ostream& err, const std::string& message) {
    err << "context-pack: " << message << '\n';
    return kExitCannotRun;
}

}  // namespace

int run(int argc, char** argv, std::istream& in, std::ostream& out, std::ostream& err) {
    Options o;
    CLI::App app{kDescription, "context-pack"};
    app.add_option("specs", o.spec_files, "Spec files (.json, or .jsonl with one spec a line); - reads stdin");
    app.add_option("-C", o.repo_dir, "Repository to read (default: the current directory)");
    app.add_option("--base", o.base, "Base revision for --anchor, overriding every spec's base");
    app.add_option("--anchor", o.anchors, "Ad hoc anchor PATH:LINE[-END][@SYMBOL] (repeatable)");
    app.add_option("--target", o.target,
                   "Target revision (default: the working tree; HEAD in a bare repository)");
    app.add_option("--format", o.format, "Output format")->check(CLI::IsMember({"text", "json"}));
    app.add_flag("--table", o.table_only, "Print the status table alone");
    app.set_version_flag("--version",
                         fmt::format("context-pack {} (libgit2 {})", CONTEXT_PACK_VERSION,
                                     LIBGIT2_VERSION));
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        out << app.help();
        return kExitOk;
    } catch (const CLI::CallForVersion&) {
        out << app.version() << '\n';
        return kExitOk;
    } catch (const CLI::ParseError& e) {
        return fail(err, fmt::format("{}; see context-pack --help", e.what()));
    }

    auto specs = load_specs(o, in);  // bad input stops here, before the repository is touched
    if (!specs) return fail(err, specs.error().message);

    auto repo = git::Repository::open(o.repo_dir);
    if (!repo) return fail(err, repo.error().message);

    if (o.target) {  // a mistyped --target is a usage error, not a per-anchor outcome
        auto t = repo->resolve_commit(*o.target);
        if (t.outcome != git::Revision::Outcome::Commit)
            return fail(err, fmt::format("--target {} does not name a commit in this repository",
                                         *o.target));
    }

    Content content(repo.value());
    ResolveOptions ro{o.base, o.target};
    auto report = resolve(content, specs.value(), ro);
    if (!report) return fail(err, report.error().message);

    if (o.format == "json")
        print_json(out, report.value());
    else
        print_table(out, report.value());
    out.flush();
    return report->exit_status();
}

}  // namespace cp::cli
