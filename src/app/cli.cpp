#include "context_pack/app/cli.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <type_traits>

#include "context_pack/app/exit_status.hpp"
#include "context_pack/app/mcp.hpp"
#include "context_pack/app/options.hpp"
#include "context_pack/app/pipeline.hpp"
#include "context_pack/app/spec_input.hpp"
#include "context_pack/core/text.hpp"
#include "context_pack/git/repository.hpp"
#include "context_pack/model/spec.hpp"
#include "context_pack/output/budget.hpp"
#include "context_pack/output/json_output.hpp"
#include "context_pack/output/quickfix.hpp"
#include "context_pack/output/repin.hpp"
#include "context_pack/output/text_output.hpp"
#include "context_pack/sys/terminal.hpp"

namespace cp::cli {
namespace {

// The options: what they ask of the pipeline is parsed into the request itself; the rest
// says where specs come from and how to print.
struct Options {
    Request request;
    std::vector<std::string> spec_files;
    std::vector<std::string> anchors;
    std::string format = "text";
    std::optional<std::size_t> max_lines;   // --max-lines, as given (options::max_lines)
    std::optional<std::size_t> max_tokens;  // --max-tokens (output/budget.hpp)
    std::uint64_t max_file_mib = git::kDefaultMaxFileBytes >> 20;
    std::uint64_t cache_mib = kDefaultCacheBytes >> 20;
    std::string color = "auto";
};

constexpr const char* kDescription =
    "Carry the code anchors of a change plan from its base commit onto the tree you stand on\n"
    "(a commit, or by default the working tree with its uncommitted changes) and print a\n"
    "pack: a status table (SAME, MOVED, TOUCHED, RENAMED, GONE, NEW, UNRESOLVED per anchor),\n"
    "then the code of each anchor at the target, then the callers of each symbol.\n\n"
    "Examples:\n"
    "  context-pack plan.json                      orient: the pack on the working tree\n"
    "  context-pack --at-base plan.json            check a plan at its own base\n"
    "  context-pack --since $START plan.json       re-expand what changed since $START\n"
    "  context-pack --repin --target main plan.json\n"
    "                                              the plan revised onto main\n"
    "  context-pack --base main~3 --anchor src/a.c:40-52@parse_args\n"
    "                                              one anchor, no spec file\n"
    "  context-pack --table --format json drift.jsonl\n"
    "                                              many specs, one JSON document\n\n"
    "Exit status: 0 every anchor resolved and every symbol found; 1 the pack was printed and\n"
    "some anchor is GONE, UNRESOLVED or SYMBOL_MISSING or had its lines all deleted, or,\n"
    "with --at-base, a spec has an\n"
    "unknown key (each is named on stderr), or, with --repin, an anchor stays where it was;\n"
    "2 the command could not run.\n\n"
    "context-pack mcp serves the same as a Model Context Protocol tool over standard input\n"
    "and output (see context-pack mcp --help).";

Result<std::vector<Spec>> load_specs(const Options& o, std::istream& in) {
    std::vector<Spec> specs;
    for (const auto& name : o.spec_files) {
        auto parsed = read_spec_input(name, &in);
        if (!parsed) return parsed.error();
        if (parsed.value().empty())  // a .jsonl of blank lines
            return Error{
                fmt::format("nothing to resolve: {} holds no spec; write one JSON "
                            "spec on each line",
                            name == "-" ? "standard input" : text::printable(name))};
        for (auto& s : parsed.value()) specs.push_back(std::move(s));
    }
    if (!o.anchors.empty()) {
        if (!o.request.base)
            return Error{"--anchor needs --base REV: the commit the anchors' line numbers are at"};
        Spec adhoc;
        adhoc.source = "--anchor";
        for (std::size_t i = 0; i < o.anchors.size(); ++i) {
            auto a = parse_anchor_arg(o.anchors[i]);
            if (!a) return Error{"--anchor " + a.error().message};
            a->index = i;
            adhoc.anchors.push_back(std::move(a).value());
        }
        specs.push_back(std::move(adhoc));
    }
    if (specs.empty())
        return Error{
            "nothing to resolve: give a spec file ('-' reads standard input), or "
            "--base REV --anchor PATH:LINE"};
    if (auto checked = check_specs(specs, o.request.base.has_value(), "pass --base REV"); !checked)
        return checked.error();
    return specs;
}

// The options a pointer sets itself, so the command line it quotes leaves them out.
constexpr std::string_view kRerunDrops[] = {"--only", "--max-lines", "--max-window-lines",
                                            "--max-callers", "--max-line-bytes"};

// The command line again, without the options above, for the pointers the caps print.
std::string rerun_command(int argc, char** argv) {
    std::string cmd = "context-pack";
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        bool dropped = false;
        for (std::string_view name : kRerunDrops) {
            if (arg == name) {
                ++i;  // and its value
                dropped = true;
            } else if (arg.starts_with(name) && arg.size() > name.size() &&
                       arg[name.size()] == '=') {
                dropped = true;
            }
        }
        if (dropped) continue;
        cmd += " " + text::shell_word(arg);
    }
    return cmd;
}

// A value git takes as true (git_parse_maybe_bool): true, yes, on, or a number other than 0.
bool git_bool_true(const char* value) {
    if (!value) return false;
    std::string v(value);
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
    if (v == "true" || v == "yes" || v == "on") return true;
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) return false;
    return v.find_first_not_of('0') != std::string::npos;
}

// The columns of the terminal the pack is printed on (as git's term_columns: the terminal's
// own word, else COLUMNS, else 80); 0 when it goes to a file, a pipe or a pager, which get
// whole lines.
std::size_t table_width() {
    if (!sys::is_terminal(sys::Stream::out)) return 0;
    if (unsigned columns = sys::terminal_width(sys::Stream::out); columns > 0) return columns;
    const char* columns = std::getenv("COLUMNS");
    if (columns && *columns &&
        std::string_view(columns).find_first_not_of("0123456789") == std::string_view::npos)
        return std::min<std::size_t>(std::strtoul(columns, nullptr, 10), 10000);
    return 80;
}

bool use_color(const std::string& mode) {
    if (mode != "auto") return mode == "always";
    auto set = [](const char* name) {
        const char* v = std::getenv(name);
        return v && *v;
    };
    if (set("NO_COLOR")) return false;
    auto forced = [](const char* name) {
        const char* v = std::getenv(name);
        return v && *v && std::string_view(v) != "0";
    };
    if (forced("CLICOLOR_FORCE") || forced("FORCE_COLOR")) return true;
    const char* term = std::getenv("TERM");
    if (term && std::string_view(term) == "dumb") return false;
    // Under `git -p context-pack` the output goes to git's pager, which shows colour; git
    // marks that with GIT_PAGER_IN_USE, as it does for its own commands.
    return sys::is_terminal(sys::Stream::out) || git_bool_true(std::getenv("GIT_PAGER_IN_USE"));
}

int fail(std::ostream& err, const std::string& message) {
    err << "context-pack: " << message << '\n';
    return kExitCannotRun;
}

// `status` once what was written to `out` has reached it; a failed write (a full disk, a
// closed descriptor, EPIPE with SIGPIPE ignored) is exit 2 with one line, as git and rg do.
// errno is what the failing write left, cleared by the caller before writing.
int flushed(std::ostream& out, std::ostream& err, int status) {
    int saved = errno;
    if (out) {
        out.flush();
        saved = errno;
    }
    if (out) return status;
    return fail(err, fmt::format("cannot write to standard output: {}",
                                 saved ? std::strerror(saved) : "write error"));
}

// A whole number from `lo` to `hi`, each refusal saying which way it failed: "--jobs: abc is
// not a whole number; give one from 1 to 256", "--jobs: 300 is out of range; give ...".
template <class T>
CLI::Validator whole_number(T lo, T hi) {
    return CLI::Validator(
        [lo, hi](std::string& given) -> std::string {
            const std::string shown = text::printable(given);
            const bool negative = !given.empty() && given.front() == '-';
            const std::string_view digits = std::string_view(given).substr(negative ? 1 : 0);
            if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
                return fmt::format("{} is not a whole number; give one from {} to {}", shown, lo,
                                   hi);
            std::uint64_t v = 0;
            const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
            const bool below = negative ? v > 0 || std::uint64_t(lo) > 0 : v < std::uint64_t(lo);
            if (ec != std::errc() || below || (!negative && v > std::uint64_t(hi)))
                return fmt::format("{} is out of range; give a number from {} to {}", shown, lo,
                                   hi);
            return {};
        },
        "");
}

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

// An option of the table (options.hpp) added to `app` by `add(name, help)`, with its value's
// word, its range checked and its choices; repeatable ones one value an occurrence, so that
// `--only 2 plan.json` leaves plan.json a spec file.
template <class Add>
CLI::Option* add_from_table(std::string_view name, Add&& add) {
    const options::Option& t = options::cli(name);
    CLI::Option* opt = add(std::string(t.cli), options::help_of(t));
    if (!t.metavar.empty()) opt->type_name(std::string(t.metavar));
    switch (t.kind) {
        case options::Kind::Number:
            opt->check(whole_number(t.min, t.max));
            break;
        case options::Kind::Choice:
            opt->check(CLI::IsMember(std::vector<std::string>(t.choices.begin(), t.choices.end()))
                           .description(""));
            break;
        case options::Kind::List:
            opt->expected(1)->allow_extra_args(false)->multi_option_policy(
                CLI::MultiOptionPolicy::TakeAll);
            break;
        case options::Kind::Flag:
        case options::Kind::Text:
            break;
    }
    return opt;
}

// The options, each bound to its field of `o`; names, help and ranges from the table.
void add_options(CLI::App& app, Options& o) {
    app.add_option("SPEC", o.spec_files,
                   "Spec files (.json, or .jsonl with one spec a line); - reads stdin")
        ->type_name("");
    // Each flag bound to its field: a bool is a flag, an optional told given or not.
    auto bind = [&app](std::string_view name, auto& field) {
        add_from_table(name, [&app, &field](std::string flag, std::string help) {
            using Field = std::remove_reference_t<decltype(field)>;
            if constexpr (std::is_same_v<Field, bool>)
                return app.add_flag(flag, field, help);
            else if constexpr (is_optional<Field>::value)
                return app.add_option_function<typename Field::value_type>(
                    flag, [&field](const auto& v) { field = v; }, help);
            else
                return app.add_option(flag, field, help);
        });
    };
    bind("-C", o.request.repo_dir);
    bind("--base", o.request.base);
    bind("--anchor", o.anchors);
    bind("--target", o.request.target);
    bind("--at-base", o.request.at_base);
    bind("--since", o.request.since);
    bind("--history", o.request.history);
    bind("--only", o.request.only);
    bind("--format", o.format);
    bind("--table", o.request.table_only);
    bind("--prose", o.request.prose);
    bind("--repin", o.request.repin);
    bind("--context", o.request.pack.window.context);
    bind("--max-lines", o.max_lines);
    bind("--max-tokens", o.max_tokens);
    bind("--max-window-lines", o.request.pack.window.max_anchored);
    bind("--max-callers", o.request.pack.max_callers);
    bind("--callers-in", o.request.callers_in);
    bind("--max-line-bytes", o.request.pack.window.max_line_bytes);
    bind("--max-file-mib", o.max_file_mib);
    bind("--cache-mib", o.cache_mib);
    bind("--jobs", o.request.jobs);
    bind("--color", o.color);
    // The last of --color and --no-color wins, as in git.
    add_from_table("--no-color", [&](std::string name, std::string help) {
        return app.add_flag_callback(
            name, [&o] { o.color = "never"; }, help);
    });
}

// `-C 5` from grep's habit: a number that names no directory is a request for context lines.
std::optional<std::string> context_typo(const std::string& dir) {
    if (dir.empty() || dir.find_first_not_of("0123456789") != std::string::npos) return {};
    std::error_code ec;
    if (std::filesystem::is_directory(dir, ec)) return {};
    return fmt::format(
        "-C {0} names no directory: -C is the repository to read (as in git -C); for {0} "
        "lines of context around each window, give --context {0}",
        dir);
}

// Progress of a long batch on stderr, only when stderr is a terminal: one line rewritten in
// place at most ten times a second, erased when the batch is resolved.
class Progress {
  public:
    explicit Progress(std::ostream& err) : err_(err), start_(Clock::now()) {}

    void operator()(std::size_t done, std::size_t total) {
        auto now = Clock::now();
        if (done < total && now - shown_ < std::chrono::milliseconds(100)) return;
        shown_ = now;
        std::chrono::duration<double> elapsed = now - start_;
        if (done == total) {
            if (drawn_) err_ << "\r\x1b[K" << std::flush;
            return;
        }
        err_ << fmt::format("\rcontext-pack: {}/{} anchors resolved, {:.1f} s", done, total,
                            elapsed.count())
             << std::flush;
        drawn_ = true;
    }

  private:
    using Clock = std::chrono::steady_clock;
    std::ostream& err_;
    Clock::time_point start_;
    Clock::time_point shown_{};
    bool drawn_ = false;
};

// The request the options make, with the specs they name.
Request request_of(Options o, std::vector<Spec> specs, std::ostream& out, std::ostream& err) {
    o.request.specs = std::move(specs);
    if (o.request.specs.size() > 1 && sys::is_terminal(sys::Stream::err) && &err == &std::cerr)
        o.request.on_progress = Progress(err);
    if (o.format == "jsonl" && !o.request.repin) {
        errno = 0;  // a failed write is found by flushed() at the end
        o.request.on_spec = [&out](const SpecReport& spec) { print_jsonl_spec(out, spec); };
    }
    if (o.format == "quickfix") o.request.table_only = true;  // positions only, no windows
    o.request.max_file_bytes = o.max_file_mib << 20;
    o.request.cache_bytes = o.cache_mib << 20;
    o.request.git_env = git::Environment::of_process();  // as git passes it to commands
    return std::move(o.request);
}

TextOptions text_options(const Options& o, int argc, char** argv) {
    TextOptions to;
    to.color = use_color(o.color);
    to.width = table_width();
    to.table_only = o.request.table_only;
    // --only asks for those anchors whole: the pack's cap applies only when given too.
    to.max_lines = options::max_lines(o.max_lines, !o.request.only.empty())
                       .value_or(std::numeric_limits<std::size_t>::max());
    to.rerun = rerun_command(argc, argv);
    to.max_window_lines = static_cast<std::size_t>(o.request.pack.window.max_anchored);
    to.max_callers = o.request.pack.max_callers;
    to.max_line_bytes = o.request.pack.window.max_line_bytes;
    return to;
}

// An option the command line does not have, with the one likely meant: "unknown option
// --formt; did you mean --format?". nullopt when the extra argument is no option.
std::optional<std::string> unknown_option(const CLI::App& app) {
    for (const std::string& arg : app.remaining()) {
        if (!arg.starts_with("--") || arg.size() < 3) continue;
        const std::string name = arg.substr(0, arg.find('='));
        std::vector<std::string> longs;
        for (const CLI::Option* opt : app.get_options())
            for (const std::string& l : opt->get_lnames()) longs.push_back("--" + l);
        std::vector<std::string_view> known(longs.begin(), longs.end());
        const auto meant = closest_key(name, known);
        return fmt::format("unknown option {}; {}", text::printable(name),
                           meant ? fmt::format("did you mean {}?", *meant)
                                 : std::string("see context-pack --help"));
    }
    return std::nullopt;
}

// The current directory, symlinks resolved, with / separators; empty when it cannot be told.
std::string current_directory() {
    std::error_code ec;
    const auto here = std::filesystem::current_path(ec);
    if (ec) return {};
    const auto real = std::filesystem::weakly_canonical(here, ec);
    return (ec ? here : real).generic_string();
}

void print(std::ostream& out, const Report& report, const Options& o, int argc, char** argv) {
    if (o.max_tokens) {  // text or JSON, within the budget
        TextOptions to = text_options(o, argc, argv);
        if (o.format == "json" &&
            !o.max_lines.has_value())  // the JSON is whole but for the caps given
            to.max_lines = std::numeric_limits<std::size_t>::max();
        JsonCaps caps = JsonCaps::of(to);
        if (o.max_lines.has_value()) caps.max_lines = to.max_lines;
        TokenBudget budget;
        budget.max_tokens = *o.max_tokens;
        budget.option = "--max-tokens";
        const std::size_t bytes = *o.max_tokens * kBytesPerToken;
        if (o.format == "json") {
            budget.text_bytes = std::numeric_limits<std::size_t>::max();
            budget.whole_bytes = bytes;
            budget.text_in_whole = false;
            budget.indent = 2;
        } else {
            budget.text_bytes = bytes;
        }
        FittedPack fitted = fit_pack(report, to, caps, budget);
        errno = 0;
        if (fitted.doc)
            out << fitted.doc->dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                << '\n';
        else
            out << fitted.text;
    } else if (o.format == "json" && o.max_lines.has_value()) {
        // Cut where the text pack would be, with the markers MCP's structuredContent carries.
        TextOptions to = text_options(o, argc, argv);
        const PackCuts cuts = plan_cuts(report, to);
        JsonCaps caps = JsonCaps::of(to);
        caps.max_lines = to.max_lines;
        caps.cuts = &cuts;
        errno = 0;
        print_json(out, report, &caps);
    } else if (o.format == "json") {
        errno = 0;
        print_json(out, report);
    } else if (o.format == "jsonl") {
        print_jsonl_end(out, report);  // the specs' lines are out already (request_of)
    } else if (o.format == "quickfix") {
        errno = 0;
        print_quickfix(out, report, current_directory());
    } else {
        TextOptions to = text_options(o, argc, argv);
        if (const std::string here = current_directory();
            !report.workdir.empty() && !here.empty() && path_from(here, report.workdir, "") != "")
            to.paths_from = report.workdir;
        errno = 0;
        print_pack(out, report, to);
    }
}

// --repin: the revised specs, one document for one spec (JSON Lines with --format jsonl),
// JSON Lines for several; what stays where it was named on stderr.
int print_repinned(std::ostream& out, std::ostream& err, const std::vector<Spec>& specs,
                   const Report& report, const std::string& format) {
    const int indent = specs.size() == 1 && format != "jsonl" ? 2 : -1;
    errno = 0;
    for (std::size_t i = 0; i < specs.size(); ++i)
        out << repinned_spec(specs[i], report.specs[i], indent) << '\n';
    for (const auto& line : kept_lines(report.specs)) err << "context-pack: " << line << '\n';
    int status = report.exit_status();
    for (const SpecReport& spec : report.specs)
        if (kept_count(spec)) status = 1;
    return flushed(out, err, status);
}

// The command line's run (the mcp subcommand aside).
int run_command(int argc, char** argv, std::istream& in, std::ostream& out, std::ostream& err) {
    Options o;
    CLI::App app{kDescription, "context-pack"};
    // A spec path that starts with / is a path on Windows too, as git takes it: CLI11 reads
    // /name as an option there by default.
    app.allow_windows_style_options(false);
    add_options(app, o);
    app.set_version_flag("--version", fmt::format("context-pack {} (libgit2 {})",
                                                  CONTEXT_PACK_VERSION, git::library_version()));
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        errno = 0;
        out << app.help();
        return flushed(out, err, kExitOk);
    } catch (const CLI::CallForVersion&) {
        errno = 0;
        out << app.version() << '\n';
        return flushed(out, err, kExitOk);
    } catch (const CLI::ExtrasError& e) {
        if (auto meant = unknown_option(app)) return fail(err, *meant);
        return fail(err, fmt::format("{}; see context-pack --help", e.what()));
    } catch (const CLI::ParseError& e) {
        return fail(err, fmt::format("{}; see context-pack --help", e.what()));
    }

    // The last of --color and --no-color wins, as in git.
    for (const CLI::Option* opt : app.parse_order())
        if (opt->check_name("--no-color"))
            o.color = "never";
        else if (opt->check_name("--color"))
            o.color = opt->as<std::string>();
    if (auto typo = context_typo(o.request.repo_dir)) return fail(err, *typo);
    auto specs = load_specs(o, in);  // bad input stops here, before the repository is touched
    if (!specs) return fail(err, specs.error().message);
    // Unknown keys are named before the run; under --at-base they fail it (exit status 1).
    for (const auto& line : warning_lines(
             specs.value(), "--format json",
             o.request.at_base ? std::optional<std::string_view>(o.request.names.at_base.name)
                               : std::nullopt))
        err << "context-pack: " << line << '\n';
    if (o.request.repin && o.format == "quickfix")
        return fail(err, "--repin prints the revised plan as JSON; drop --format quickfix");
    if (o.max_tokens && (o.request.repin || o.format == "jsonl" || o.format == "quickfix"))
        return fail(err,
                    fmt::format("--max-tokens bounds the pack as text or JSON; drop it with {}",
                                o.request.repin ? "--repin, which prints the plan whole"
                                                : "--format " + o.format));
    const Request request = request_of(o, std::move(specs).value(), out, err);
    auto report = build_report(request);
    if (!report) return fail(err, report.error().message);
    if (o.request.repin) return print_repinned(out, err, request.specs, report.value(), o.format);
    print(out, report.value(), o, argc, argv);
    return flushed(out, err, report->exit_status());
}

}  // namespace

int run(int argc, char** argv, std::istream& in, std::ostream& out, std::ostream& err) {
    if (argc >= 2 && std::string_view(argv[1]) == "mcp") return mcp::run(argc, argv, in, out, err);
    // Memory running out (a ulimit, a container's limit) is said once, with the mend.
    try {
        return run_command(argc, argv, in, out, err);
    } catch (const std::bad_alloc&) {
        out.flush();
        return fail(err,
                    "out of memory: the run needed more than this machine or its limit gives; "
                    "give fewer --jobs, a smaller --cache-mib or a smaller --max-file-mib");
    }
}

}  // namespace cp::cli
