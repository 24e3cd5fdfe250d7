#include "support/git_diff.hpp"

#include <filesystem>
#include <sstream>

#include "support/catch.hpp"

namespace cptest {

using cp::Hunk;
using cp::git::Change;
using cp::git::Repository;
using cp::git::StagedChanges;

namespace {

long long parse_number(const std::string& s, std::size_t& pos) {
    std::size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
    REQUIRE(pos > start);
    return std::stoll(s.substr(start, pos - start));
}

// One `@@ -a[,b] +c[,d] @@` header; a missing count is 1.
Hunk parse_header(const std::string& line) {
    INFO("hunk header: " << line);
    REQUIRE(line.rfind("@@ -", 0) == 0);
    std::size_t pos = 4;
    Hunk h;
    h.old_start = parse_number(line, pos);
    h.old_count = 1;
    if (pos < line.size() && line[pos] == ',') h.old_count = parse_number(line, ++pos);
    REQUIRE(line.compare(pos, 2, " +") == 0);
    pos += 2;
    h.new_start = parse_number(line, pos);
    h.new_count = 1;
    if (pos < line.size() && line[pos] == ',') h.new_count = parse_number(line, ++pos);
    REQUIRE(line.compare(pos, 3, " @@") == 0);
    return h;
}

}  // namespace

Repository open_repo(const Repo& repo) {
    auto opened = Repository::open(repo.dir());
    INFO((opened ? std::string() : opened.error().message));
    REQUIRE(opened.ok());
    return std::move(opened).value();
}

std::string describe(const cp::git::Diff& diff) {
    std::string out;
    for (const auto& d : diff.deltas())
        out += std::to_string(int(d.change)) + " " + d.old_path + " " + d.new_path + " " +
               d.old_oid + " " + d.new_oid + " " + std::to_string(d.similarity) + " " +
               std::to_string(int(d.old_kind)) + std::to_string(int(d.new_kind)) + "\n";
    return out;
}

cp::git::Diff diff_of(const Repository& repo, const std::string& base,
                      const std::optional<std::string>& target) {
    auto d = repo.diff(base, target);
    INFO((d ? std::string() : d.error().message));
    REQUIRE(d.ok());
    if (!target) {  // the same with its staged half made through a second handle
        auto reader = repo.open_reader();
        REQUIRE(reader.ok());
        auto staged = reader->staged_changes(base, repo.index_file());
        INFO((staged ? std::string() : staged.error().message));
        REQUIRE(staged.ok());
        bool taken = false;
        auto split = repo.diff(base, target, nullptr, [&]() -> std::optional<StagedChanges> {
            taken = true;
            return std::move(staged).value();
        });
        REQUIRE(split.ok());
        CHECK(taken);
        CHECK(describe(split.value()) == describe(d.value()));
        // and with libgit2's own index-to-workdir diff in place of our scan
        auto plain = Repository::open(repo.workdir());
        REQUIRE(plain.ok());
        plain->set_worktree_scan(false);
        auto by_libgit2 = plain->diff(base, target);
        REQUIRE(by_libgit2.ok());
        CHECK_FALSE(by_libgit2->scanned());
        CHECK(describe(by_libgit2.value()) == describe(d.value()));
    }
    return std::move(d).value();
}

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
    return s;
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::string show(const std::vector<Hunk>& hunks) {
    std::string out;
    for (const auto& h : hunks)
        out += "-" + std::to_string(h.old_start) + "," + std::to_string(h.old_count) + " +" +
               std::to_string(h.new_start) + "," + std::to_string(h.new_count) + "\n";
    return out.empty() ? "(no hunks)\n" : out;
}

std::string visible(const std::string& text, std::size_t cap) {
    std::string out;
    for (char c : text.substr(0, cap)) {
        if (c == '\r')
            out += "\\r";
        else if (c == '\0')
            out += "\\0";
        else
            out += c;
    }
    if (text.size() > cap) out += "...(" + std::to_string(text.size()) + " bytes)";
    return out;
}

GitHunks parse_patch(const std::string& patch) {
    GitHunks out;
    for (const auto& line : split_lines(patch)) {
        if (line.rfind("@@ -", 0) == 0) out.hunks.push_back(parse_header(line));
        if (line.rfind("Binary files ", 0) == 0) out.binary = true;
    }
    return out;
}

std::map<std::string, std::string> git_patches(const Repo& repo, const std::string& range,
                                               const std::vector<std::string>& paths) {
    std::string script =
        "cd " + q(repo.dir()) +
        " && while IFS= read -r p; do printf '\\036%s\\n' \"$p\"; git diff -U0 --no-color "
        "--no-ext-diff --no-textconv " +
        range + " -- \"$p\" || exit 1; done";
    std::string input;
    for (const auto& p : paths) input += p + "\n";
    auto o = cptest::sh(script, input);
    INFO(o.err);
    REQUIRE(o.status == 0);
    std::map<std::string, std::string> out;
    std::string* current = nullptr;
    std::size_t pos = 0;
    while (pos < o.out.size()) {
        auto nl = o.out.find('\n', pos);
        if (nl == std::string::npos) nl = o.out.size();
        std::string line = o.out.substr(pos, nl - pos);
        if (!line.empty() && line[0] == '\036') {
            current = &out[line.substr(1)];
        } else {
            REQUIRE(current != nullptr);
            *current += line + "\n";
        }
        pos = nl + 1;
    }
    REQUIRE(out.size() == paths.size());
    return out;
}

std::map<std::pair<std::string, std::string>, GitHunks> git_patch_sections(
    const std::string& patch) {
    std::map<std::pair<std::string, std::string>, std::string> text;
    std::string* current = nullptr;
    for (const auto& line : split_lines(patch)) {
        if (line.rfind("diff --git a/", 0) == 0) {
            auto sep = line.find(" b/");
            REQUIRE(sep != std::string::npos);
            std::string a = line.substr(13, sep - 13), b = line.substr(sep + 3);
            current = &text[{a, b}];
            continue;
        }
        REQUIRE(current != nullptr);
        *current += line + "\n";
    }
    std::map<std::pair<std::string, std::string>, GitHunks> out;
    for (const auto& [key, body] : text) out[key] = parse_patch(body);
    return out;
}

char letter(Change c) {
    switch (c) {
        case Change::Modified:
            return 'M';
        case Change::Added:
            return 'A';
        case Change::Deleted:
            return 'D';
        case Change::Renamed:
            return 'R';
        case Change::TypeChanged:
            return 'T';
        case Change::Conflicted:
            return 'U';
    }
    return '?';
}

NameSet ours_names(const cp::git::Diff& diff) {
    NameSet out;
    for (const auto& d : diff.deltas()) out.insert({letter(d.change), d.old_path, d.new_path});
    return out;
}

NameSet parse_name_status(const std::string& text) {
    NameSet out;
    for (const auto& line : split_lines(text)) {
        if (line.empty()) continue;
        std::vector<std::string> fields;
        std::size_t pos = 0;
        for (;;) {
            auto tab = line.find('\t', pos);
            fields.push_back(line.substr(pos, tab == std::string::npos ? tab : tab - pos));
            if (tab == std::string::npos) break;
            pos = tab + 1;
        }
        INFO("name-status line: " << line);
        REQUIRE((fields.size() == 2 || fields.size() == 3));
        char l = fields[0].at(0);
        if (fields.size() == 3)
            out.insert({l, fields[1], fields[2]});
        else
            out.insert({l, fields[1], fields[1]});
    }
    return out;
}

std::string show(const NameSet& set) {
    std::string out;
    for (const auto& [l, a, b] : set) out += std::string(1, l) + " " + a + " -> " + b + "\n";
    return out.empty() ? "(none)\n" : out;
}

void compare_hunks(const Repo& repo, const cp::git::Diff& diff, const std::string& range,
                   const std::vector<std::string>& paths,
                   const std::map<std::string, std::string>& base_text,
                   const std::map<std::string, std::string>& target_text, int& compared,
                   const std::map<std::string, std::string>& notes) {
    auto patches = git_patches(repo, range, paths);
    for (const auto& path : paths) {
        const std::string& patch = patches.at(path);
        GitHunks expected = parse_patch(patch);
        INFO("path " << path << " (git diff -U0 " << range << ")"
                     << (notes.count(path) ? " " + notes.at(path) : std::string()));
        INFO("base content:\n"
             << (base_text.count(path) ? visible(base_text.at(path)) : "?") << "\n"
             << "target content:\n"
             << (target_text.count(path) ? visible(target_text.at(path)) : "?"));
        INFO("git's patch:\n" << visible(patch));
        const cp::git::Delta* delta = diff.find_old(path);
        if (!delta) {
            // No delta: git must show no change either.
            CHECK(expected.hunks.empty());
            CHECK_FALSE(expected.binary);
            continue;
        }
        CHECK(delta->change == Change::Modified);
        CHECK(delta->old_path == path);
        CHECK(delta->new_path == path);
        auto ours = diff.hunks(*delta);
        INFO((ours ? std::string() : ours.error().message));
        REQUIRE(ours.ok());
        CHECK(ours->binary == expected.binary);
        CHECK(show(ours->hunks) == show(expected.hunks));
        ++compared;
    }
}

std::string git_worktree_view(const Repo& repo, const std::string& args) {
    cptest::TempDir tmp;
    std::string index = tmp.path() + "/index";
    std::string env = "GIT_INDEX_FILE=" + q(index) + " ";
    std::string gitc = "git -C " + q(repo.dir()) + " ";
    // `cp -p`: the copy keeps the index's mtime, which git's racy-clean check compares with
    // the entries' (a fresh mtime would let a same-size edit made in the same clock tick as
    // the base commit pass as clean).
    auto o = cptest::sh("cp -p " + q(repo.dir() + "/.git/index") + " " + q(index) + " && " + env +
                        gitc + "add -A && " + env + gitc + "diff --cached " + args);
    INFO(o.err);
    REQUIRE(o.status == 0);
    return o.out;
}

bool system_attributes() {
    return std::filesystem::exists("/etc/gitattributes");
}

std::string body(const std::string& prefix, int n) {
    return numbered(n, prefix + " line ");
}

std::string edited(const std::string& prefix, int n, int line) {
    std::string out;
    for (int i = 1; i <= n; ++i)
        out += (i == line ? prefix + " EDITED " : prefix + " line ") + std::to_string(i) + "\n";
    return out;
}

void rename_file(const Repo& repo, const std::string& from, const std::string& to) {
    std::string text = repo.read(from);
    repo.remove(from);
    repo.write(to, text);
}

}  // namespace cptest
