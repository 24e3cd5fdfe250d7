// Following the code where it went: a file the direct diff deletes without a partner is
// followed through its renames (in history, staged, unstaged) and the anchor carried leg by
// leg; code the diff took from its place is answered where it went, in its file or another,
// copied or lightly edited; every mode gives the same answer; what is really gone stays so.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "context_pack/core/mapping.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/git_diff.hpp"
#include "support/random_text.hpp"

using nlohmann::json;

namespace {

// `n` distinctive lines of a file, each naming `tag` and its number.
std::string lines_of(const std::string& tag, int from, int to) {
    std::string out;
    for (int i = from; i <= to; ++i)
        out += "int " + tag + "_" + std::to_string(i) + " = compute_" + tag + "(" +
               std::to_string(i * 7) + ");\n";
    return out;
}

// A function of `n` distinctive lines named `name`; `local` is the name of its variable.
std::string function(const std::string& name, int n, const std::string& local = "value") {
    std::string out = "static int " + name + "(int " + local + ")\n{\n";
    for (int i = 1; i <= n; ++i)
        out += "\t" + local + " = " + local + " * " + std::to_string(i + 1) + " + " + name +
               "_step(" + std::to_string(i) + ");\n";
    return out + "\treturn " + local + ";\n}\n";
}

json pack(const cptest::Repo& repo, const std::string& args) {
    auto o = cptest::context_pack(repo.dir(), "--format json " + args);
    INFO(o.err);
    REQUIRE((o.status == 0 || o.status == 1));
    return json::parse(o.out)["specs"][0];
}

// The anchor's answer as a full pack and as --table: both must say the same.
json answer(const cptest::Repo& repo, const std::string& args, std::size_t k = 0) {
    json full = pack(repo, args)["anchors"][k];
    json table = pack(repo, "--table " + args)["anchors"][k];
    INFO(full.dump() << "\n" << table.dump());
    for (const char* key : {"status", "renamed", "followed", "to", "symbol_found", "by",
                            "similarity", "found_at", "candidates", "reason", "best"})
        CHECK(full[key] == table[key]);
    return full;
}

json loc(const std::string& path, int line, int end_line) {
    return json{{"path", path}, {"line", line}, {"end_line", end_line}};
}

// A file whose history drifts: after `base`, most of it is rewritten (so that the base and a
// later rename are under git's 50% similarity) and two lines are put on top; lines 3-6 of the
// base stay, at 5-8.
std::string drift(cptest::Repo& repo, const std::string& path) {
    repo.write(path, lines_of("kept", 1, 10) + lines_of("old", 11, 40));
    auto base = repo.commit("base");
    repo.write(path, lines_of("top", 1, 2) + lines_of("kept", 1, 10) + lines_of("new", 11, 40));
    repo.commit("rewritten");
    return base;
}

}  // namespace

TEST_CASE("follow: a staged rename with an old base is followed to the new name") {
    cptest::Repo repo;
    auto base = drift(repo, "refs.c");
    repo.git("mv refs.c refs-core.c");
    json a = answer(repo, "--base " + base + " --anchor refs.c:3-6@kept_4");
    CHECK(a["status"] == "MOVED");
    CHECK(a["renamed"] == true);
    CHECK(a["to"] == loc("refs-core.c", 5, 8));
    CHECK(a["symbol_found"] == true);
    CHECK(a["followed"] ==
          json::array({{{"from", "refs.c"}, {"to", "refs-core.c"}, {"commit", nullptr}}}));
    CHECK(a["reason"].get<std::string>().find("refs.c -> refs-core.c (in the working tree)") !=
          std::string::npos);
}

TEST_CASE("follow: an unstaged rename (moved on disk) with an old base is followed") {
    cptest::Repo repo;
    auto base = drift(repo, "a.c");
    cptest::rename_file(repo, "a.c", "b.c");  // a deletion and an untracked file
    json a = answer(repo, "--base " + base + " --anchor a.c:3-6");
    CHECK(a["status"] == "MOVED");
    CHECK(a["to"] == loc("b.c", 5, 8));
    CHECK(a["followed"].size() == 1);
}

TEST_CASE("follow: a committed rename with an old base is followed through history") {
    cptest::Repo repo;
    auto base = drift(repo, "a.c");
    repo.git("mv a.c b.c");
    auto renamed = repo.commit("rename");
    repo.write("b.c", lines_of("above", 1, 3) + repo.read("b.c"));
    repo.commit("three more on top");
    json a = answer(repo, "--base " + base + " --target HEAD --anchor a.c:3-6@kept_3");
    CHECK(a["status"] == "MOVED");
    CHECK(a["to"] == loc("b.c", 8, 11));
    CHECK(a["followed"] == json::array({{{"from", "a.c"}, {"to", "b.c"}, {"commit", renamed}}}));
    CHECK(a["symbol_found"] == true);
}

TEST_CASE("follow: two renames in history, with edits between and inside the range") {
    cptest::Repo repo;
    auto base = drift(repo, "a.c");
    repo.git("mv a.c b.c");
    auto first = repo.commit("first rename");
    repo.write("b.c", lines_of("more", 1, 30) + repo.read("b.c"));  // under 50% again
    repo.commit("grown");
    std::filesystem::create_directories(repo.at("sub"));
    repo.git("mv b.c sub/c.c");
    auto second = repo.commit("second rename");
    auto text = repo.read("sub/c.c");
    const std::string line = "int kept_4 = compute_kept(28);\n";
    text.replace(text.find(line), line.size(), "int kept_4 = compute_kept(29);\n");
    repo.write("sub/c.c", text);
    repo.commit("an edit inside the anchor");
    json a = answer(repo, "--base " + base + " --target HEAD --anchor a.c:3-6@kept_4");
    CHECK(a["status"] == "TOUCHED");
    CHECK(a["to"] == loc("sub/c.c", 35, 38));
    CHECK(a["followed"] == json::array({{{"from", "a.c"}, {"to", "b.c"}, {"commit", first}},
                                        {{"from", "b.c"}, {"to", "sub/c.c"}, {"commit", second}}}));
    CHECK(a["symbol_found"] == true);
}

TEST_CASE("follow: a name taken again by another file is not the file followed") {
    // a.c becomes b.c, b.c becomes c.c, then a new small b.c comes: the anchor's code is in
    // c.c, as git log --follow says, though b.c exists at the target.
    cptest::Repo repo;
    auto base = drift(repo, "a.c");
    repo.git("mv a.c b.c");
    auto first = repo.commit("first rename");
    repo.git("mv b.c c.c");
    auto second = repo.commit("second rename");
    repo.write("b.c", "#include \"c.c\"\n");
    repo.commit("b.c again, another file");
    json a = answer(repo, "--base " + base + " --target HEAD --anchor a.c:3-6@kept_4");
    CHECK(a["status"] == "MOVED");
    CHECK(a["to"] == loc("c.c", 5, 8));
    CHECK(a["followed"] == json::array({{{"from", "a.c"}, {"to", "b.c"}, {"commit", first}},
                                        {{"from", "b.c"}, {"to", "c.c"}, {"commit", second}}}));
    auto log = repo.git("log --follow --format=%H -- c.c");
    CHECK(log.find(first) != std::string::npos);  // git follows it the same way
}

TEST_CASE("follow: a file deleted in history stays GONE and says where") {
    cptest::Repo repo;
    auto base = drift(repo, "a.c");
    repo.remove("a.c");
    auto deleted = repo.commit("deleted");
    repo.write("other.c", lines_of("other", 1, 5));
    repo.commit("unrelated");
    json a = answer(repo, "--base " + base + " --target HEAD --anchor a.c:3-6");
    CHECK(a["status"] == "GONE");
    CHECK(a["to"].is_null());
    CHECK(a["followed"].empty());
    // Its lines were looked for where they left, and around it: other.c, the next commit's.
    CHECK(a["reason"] == "a.c deleted at target: deleted in " + deleted.substr(0, 12) +
                             ", with no file of similar content there; its lines not found "
                             "among the one file changed there");
}

TEST_CASE("follow: renamed, then deleted: GONE, the note says how far it was followed") {
    cptest::Repo repo;
    auto base = drift(repo, "a.c");
    repo.git("mv a.c b.c");
    auto renamed = repo.commit("renamed");
    repo.remove("b.c");
    auto deleted = repo.commit("deleted");
    json a = answer(repo, "--base " + base + " --target HEAD --anchor a.c:3-6");
    CHECK(a["status"] == "GONE");
    CHECK(a["followed"].empty());
    CHECK(a["reason"] == "a.c deleted at target: followed to b.c, deleted in " +
                             deleted.substr(0, 12) +
                             ", with no file of similar content there; its lines not found "
                             "among the one file changed in " +
                             renamed.substr(0, 12) + ", where they left a.c");
}

TEST_CASE("follow: where the direct diff pairs the file, its answer stands") {
    cptest::Repo repo;
    repo.write("a.c", lines_of("kept", 1, 20));
    auto base = repo.commit();
    repo.git("mv a.c b.c");
    repo.commit();
    json a = answer(repo, "--base " + base + " --target HEAD --anchor a.c:3-6");
    CHECK(a["status"] == "SAME");
    CHECK(a["renamed"] == true);
    CHECK(a["followed"].empty());
}

// The reference: each leg's union rule (map_range over git's own -U0 hunks) applied in turn,
// the legs being the stretches between renames and each rename's commit; or, where git's
// direct diff pairs the file itself, that diff's answer alone.
TEST_CASE("follow: the composed mapping matches each leg's union rule, on random histories") {
    int checked = 0, followed = 0;
    const int cases = cptest::scaled(24);
    for (int seed = 1; seed <= cases; ++seed) {
        cptest::Gen gen(std::uint64_t(seed) * 7919);
        cptest::Repo repo;
        std::vector<std::string> lines;
        for (int i = 1; i <= 40; ++i) lines.push_back("int base_" + std::to_string(i) + " = 0;");
        std::string path = "f0.c";
        auto text = [&] {
            std::string t;
            for (auto& l : lines) t += l + "\n";
            return t;
        };
        repo.write(path, text());
        const std::string base = repo.commit();
        std::vector<std::string> commits{base};
        std::vector<std::string> paths{path};  // the file's path at each commit
        int fresh = 0;
        const int steps = gen.uniform(3, 6);
        for (int s = 0; s < steps; ++s) {
            if (gen.chance(0.4)) {  // a rename, now and then with a small edit
                std::string to = "d" + std::to_string(s) + "/f" + std::to_string(s + 1) + ".c";
                std::filesystem::create_directories(repo.at("d" + std::to_string(s)));
                repo.git("mv " + path + " " + to);
                path = to;
            } else {  // edits: a few blocks replaced, inserted or removed
                for (int e = gen.uniform(1, 3); e > 0; --e) {
                    int at = gen.uniform(0, int(lines.size()) - 1);
                    int n = std::min(gen.uniform(1, 10), int(lines.size()) - at);
                    int add = gen.uniform(0, 10);
                    lines.erase(lines.begin() + at, lines.begin() + at + n);
                    for (int k = 0; k < add; ++k)
                        lines.insert(lines.begin() + at,
                                     "int fresh_" + std::to_string(++fresh) + " = 1;");
                    if (lines.size() < 10)
                        lines.push_back("int pad_" + std::to_string(++fresh) + ";");
                }
                repo.write(path, text());
            }
            commits.push_back(repo.commit("step " + std::to_string(s)));
            paths.push_back(path);
        }
        const std::string target = commits.back();
        const int first = gen.uniform(1, 36), last = first + gen.uniform(0, 4);
        // The reference's answer.
        cp::LineRange range{first, last};
        auto direct = repo.git("diff -M --name-status " + base + " " + target);
        const bool paired = direct.find("R") == 0 || direct.find("\nR") != std::string::npos ||
                            paths.back() == paths.front();
        std::vector<std::pair<std::size_t, std::size_t>> legs;  // commit indices
        if (paired) {
            legs.push_back({0, commits.size() - 1});
        } else {
            std::size_t from = 0;
            for (std::size_t c = 1; c < commits.size(); ++c) {
                if (paths[c] == paths[c - 1]) continue;
                if (c - 1 > from) legs.push_back({from, c - 1});
                legs.push_back({c - 1, c});
                from = c;
            }
            if (from + 1 < commits.size()) legs.push_back({from, commits.size() - 1});
        }
        bool lost = false;
        for (auto [x, y] : legs) {
            auto patch = repo.git("diff -U0 -M " + commits[x] + " " + commits[y] + " -- " +
                                  paths[x] + " " + paths[y]);
            auto hunks = cptest::parse_patch(patch).hunks;
            cp::Mapping m = cp::map_range(hunks, range);
            if (m.to.end < m.to.start) {
                lost = true;
                break;
            }
            range = {m.to.start, m.to.end};
        }
        json a = pack(repo, "--table --base " + base + " --target " + target + " --anchor " +
                                paths.front() + ":" + std::to_string(first) + "-" +
                                std::to_string(last))["anchors"][0];
        INFO("seed " << seed << " legs " << legs.size() << " " << a.dump());
        if (lost) {
            CHECK(a["to"].is_null());
            continue;
        }
        REQUIRE_FALSE(a["to"].is_null());
        CHECK(a["to"] == loc(paths.back(), int(range.start), int(range.end)));
        CHECK(a["followed"].size() ==
              (paired ? 0 : legs.size() - std::count_if(legs.begin(), legs.end(), [&](auto l) {
                                return paths[l.first] == paths[l.second];
                            })));
        ++checked;
        followed += !paired;
    }
    CHECK(checked >= cases / 2);
    if (cases >= 6) CHECK(followed >= 1);
}

TEST_CASE("moved: a function moved down its file, its margins with it, is answered there") {
    cptest::Repo repo;
    repo.write("a.c",
               lines_of("top", 1, 5) + "\n" + function("mover", 6) + "\n" + lines_of("mid", 1, 20));
    auto base = repo.commit();
    repo.write("a.c", lines_of("top", 1, 5) + "\n" + lines_of("mid", 1, 20) + "\n" +
                          function("mover", 6) + "\n");
    repo.commit();
    // Lines 6-17: the blank line, the function's 10 lines, the blank line.
    json a = answer(repo, "--base HEAD~ --target HEAD --anchor a.c:6-17@mover");
    CHECK(a["status"] == "MOVED");
    CHECK(a["by"] == "content");
    CHECK(a["to"]["line"] == 27);
    CHECK(a["to"]["end_line"] == 38);
    CHECK(a["symbol_found"] == true);
    CHECK_FALSE(a["diff"].is_null());
    // The neighbour above, untouched, keeps its lines and its symbol.
    json n = answer(repo, "--base HEAD~ --target HEAD --anchor a.c:1-5@top_3");
    CHECK(n["status"] == "SAME");
    CHECK(n["symbol_found"] == true);
}

TEST_CASE("moved: a function moved to another file is answered there, committed or not") {
    cptest::Repo repo;
    repo.write("a.c",
               lines_of("a", 1, 5) + "\n" + function("traveller", 5) + "\n" + lines_of("a2", 1, 5));
    repo.write("b.c", lines_of("b", 1, 8));
    auto base = repo.commit();
    repo.write("a.c", lines_of("a", 1, 5) + "\n" + lines_of("a2", 1, 5));
    repo.write("b.c", lines_of("b", 1, 8) + "\n" + function("traveller", 5));
    for (bool commit : {false, true}) {
        if (commit) repo.commit();
        const std::string target = commit ? " --target HEAD" : "";
        json a = answer(repo, "--base " + base + target + " --anchor a.c:6-15@traveller");
        CHECK(a["status"] == "MOVED");
        CHECK(a["to"] == loc("b.c", 9, 18));
        CHECK(a["symbol_found"] == true);
        CHECK(a["diff"]["to"]["path"] == "a.c");
    }
}

TEST_CASE("moved: a lightly edited function moved to another file is found, said edited") {
    // A function whose parameter is used in most of its lines, and a line that is not.
    auto width_of = [](const std::string& local, const std::string& factor) {
        std::string out = "static int width_of(const char *" + local + ", int len)\n{\n";
        out += "\tint total = 0;\n";
        for (int i = 1; i <= 6; ++i)
            out += "\ttotal += glyph_width(" + local + "[" + std::to_string(i) + "], " +
                   (i == 4 ? factor : std::to_string(i)) + ");\n";
        out += "\ttrace_width(\"width_of\", len);\n\treturn total;\n}\n";
        return out;
    };
    cptest::Repo repo;
    repo.write("pretty.c", lines_of("p", 1, 6) + width_of("s", "4") + lines_of("q", 1, 6));
    repo.write("utf8.c", lines_of("u", 1, 10));
    auto base = repo.commit();
    repo.write("pretty.c", lines_of("p", 1, 6) + lines_of("q", 1, 6));
    // Moved, its parameter renamed and one line changed.
    repo.write("utf8.c", lines_of("u", 1, 10) + width_of("text", "tab_width"));
    for (bool commit : {false, true}) {
        if (commit) repo.commit();
        const std::string target = commit ? " --target HEAD" : "";
        json a = answer(repo, "--base " + base + target + " --anchor pretty.c:7-18@width_of");
        CHECK(a["status"] == "MOVED");
        CHECK(a["by"] == "content");
        CHECK(a["to"] == loc("utf8.c", 11, 22));
        CHECK(a["symbol_found"] == true);
        REQUIRE(a["similarity"].is_number());
        CHECK(a["similarity"].get<double>() < 1.0);
        CHECK(a["similarity"].get<double>() >= 0.6);
    }
}

TEST_CASE("moved: two look-alike functions swapped, the diff pairing their comments across") {
    // Two stubs with the same comment opening: moving the first past the second, the diff
    // keeps the comment lines where they were and pairs them with the other stub's, so the
    // union rule gives each stub's range to the other. Each is found where its code is.
    auto stub = [](const std::string& name, const std::string& why) {
        return "int " + name +
               "(void *data)\n{\n\t/*\n\t * Do nothing.\n\t *\n\t * The main purpose" +
               " of this function is to break\n\t * " + why + "\n\t */\n\treturn ENOSYS;\n}\n";
    };
    const std::string init =
        stub("dummy_init", "flow analysis or it may realize that it is a no-op");
    const std::string join = stub("dummy_join", "flow analysis and avoid false warnings.");
    cptest::Repo repo;
    repo.write("t.c", lines_of("t", 1, 5) + "\n" + init + "\n" + join + "\n#endif\n");
    auto base = repo.commit();
    repo.write("t.c", lines_of("t", 1, 5) + "\n" + join + "\n#endif\n\n" + init);
    json i = answer(repo, "--base " + base + " --anchor t.c:7-16@dummy_init");
    json j = answer(repo, "--base " + base + " --anchor t.c:18-27@dummy_join");
    CHECK(i["status"] == "MOVED");
    CHECK(i["to"] == loc("t.c", 20, 29));
    CHECK(i["symbol_found"] == true);
    CHECK(j["status"] == "MOVED");
    CHECK(j["to"] == loc("t.c", 7, 16));
    CHECK(j["symbol_found"] == true);
}

TEST_CASE("margins: a function put just above an anchored one, inside its blank margin") {
    // The anchor is a function with the blank lines around it; the diff puts the new
    // function after the anchor's first (blank) line, so the union rule's range would hold it.
    cptest::Repo repo;
    repo.write("a.c",
               lines_of("a", 1, 5) + "\n" + function("kept", 5) + "\n" + lines_of("z", 1, 5));
    auto base = repo.commit();
    repo.write("a.c", lines_of("a", 1, 5) + "\n" + function("added", 4) + "\n" +
                          function("kept", 5) + "\n" + lines_of("z", 1, 5));
    json a = answer(repo, "--base " + base + " --anchor a.c:6-16@kept");
    CHECK(a["status"] == "MOVED");
    CHECK(a["by"] == "margins");
    CHECK(a["to"] == loc("a.c", 15, 25));
    CHECK(a["diff"]["to"] == loc("a.c", 6, 25));
    CHECK(a["symbol_found"] == true);
    auto table = cptest::context_pack(repo.dir(), "--table --base " + base + " --anchor a.c:6-16");
    CHECK(table.out.find("its code kept whole, lines put between it and its margins; the diff "
                         "said a.c:6-25") != std::string::npos);
    // One of its lines edited too: TOUCHED, its own lines still, the new function left out.
    std::string edited = function("kept", 5);
    edited.replace(edited.find("* 3"), 3, "* 9");
    repo.write("a.c", lines_of("a", 1, 5) + "\n" + function("added", 4) + "\n" + edited + "\n" +
                          lines_of("z", 1, 5));
    json t = answer(repo, "--base " + base + " --anchor a.c:6-16@kept");
    CHECK(t["status"] == "TOUCHED");
    CHECK(t["by"] == "margins");
    CHECK(t["to"] == loc("a.c", 15, 25));
    CHECK(t["best"]["line"] == 16);
    // Put inside its code, not beside it: the union rule's answer alone.
    std::string grown = function("kept", 5);
    grown.insert(grown.find("\treturn"), "\tvalue += 1;\n");
    repo.write("a.c", lines_of("a", 1, 5) + "\n" + grown + "\n" + lines_of("z", 1, 5));
    json g = answer(repo, "--base " + base + " --anchor a.c:6-16@kept");
    CHECK(g["status"] == "TOUCHED");
    CHECK(g["by"].is_null());
    CHECK(g["to"] == loc("a.c", 6, 17));
}

TEST_CASE("moved: a short function moved with one line edited is taken where it opens the same") {
    // Four telling lines, one changed on the way: short of the six a likeness needs, but it
    // opens with its own definition, which the place opens with too.
    auto release = [](const std::string& arg, const std::string& name) {
        return "void " + name + "(struct strbuf *sb)\n{\n\tif (sb->alloc) {\n\t\tfree(sb->buf);\n" +
               "\t\tstrbuf_init(sb, " + arg + ");\n\t}\n}\n";
    };
    cptest::Repo repo;
    repo.write("strbuf.c", lines_of("s", 1, 6) + "\n" + release("0", "strbuf_release") + "\n" +
                               lines_of("t", 1, 6));
    repo.write("checkout.c", lines_of("c", 1, 8));
    auto base = repo.commit();
    repo.write("strbuf.c", lines_of("s", 1, 6) + "\n" + lines_of("t", 1, 6));
    for (const bool renamed : {false, true}) {
        // Renamed on the way, it could be another function of the same shape: a pointer.
        repo.write("checkout.c", lines_of("c", 1, 8) + "\n" +
                                     release("1", renamed ? "strbuf_free" : "strbuf_release"));
        json a = answer(repo, "--base " + base + " --anchor strbuf.c:7-14@strbuf_release");
        if (renamed) {
            CHECK(a["status"] == "TOUCHED");
            CHECK(a["by"].is_null());
            CHECK(a["found_at"] == loc("checkout.c", 9, 16));
            continue;
        }
        CHECK(a["status"] == "MOVED");
        CHECK(a["by"] == "content");
        CHECK(a["to"] == loc("checkout.c", 9, 16));
        CHECK(a["symbol_found"] == true);
    }
}

TEST_CASE("moved: a function of short lines, its local renamed, is found by its definition") {
    // Its lines other than the definition are short and all renamed: only the definition
    // line is equal, and no other line is long enough to vote for a place alone.
    auto agent = [](const std::string& local) {
        return "const char *git_user_agent(void)\n{\n\tstatic const char *" + local +
               " = NULL;\n\n\tif (!" + local + ") {\n\t\t" + local +
               " = getenv(\"GIT_USER_AGENT\");\n\t\tif (!" + local + ")\n\t\t\t" + local +
               " = GIT_USER_AGENT;\n\t}\n\n\treturn " + local + ";\n}\n";
    };
    cptest::Repo repo;
    repo.write("version.c",
               lines_of("v", 1, 6) + "\n" + agent("agent") + "\n" + lines_of("w", 1, 6));
    repo.write("help.c", lines_of("h", 1, 8));
    auto base = repo.commit();
    repo.write("version.c", lines_of("v", 1, 6) + "\n" + lines_of("w", 1, 6));
    repo.write("help.c", lines_of("h", 1, 8) + "\n" + agent("agent_v2"));
    json a = answer(repo, "--base " + base + " --anchor version.c:7-20@git_user_agent");
    CHECK(a["status"] == "MOVED");
    CHECK(a["by"] == "content");
    CHECK(a["to"] == loc("help.c", 9, 21));
    CHECK(a["symbol_found"] == true);
}

TEST_CASE("moved: a function wholly renamed elsewhere is named, never taken") {
    // Every name of it renamed: it could be another function of the same shape.
    cptest::Repo repo;
    repo.write("a.c", lines_of("a", 1, 5) + function("left", 6) + lines_of("a2", 1, 5));
    repo.write("b.c", lines_of("b", 1, 5));
    auto base = repo.commit();
    repo.write("a.c", lines_of("a", 1, 5) + lines_of("a2", 1, 5));
    std::string other = function("right", 6, "count");
    repo.write("b.c", lines_of("b", 1, 5) + other);
    repo.commit();
    json a = answer(repo, "--base HEAD~ --target HEAD --anchor a.c:6-15");
    CHECK(a["status"] == "TOUCHED");
    CHECK(a["by"].is_null());
    CHECK(a["found_at"] == loc("b.c", 6, 15));
    auto table =
        cptest::context_pack(repo.dir(), "--table --base HEAD~ --target HEAD --anchor a.c:6-15");
    CHECK(table.out.find("lines like its own at b.c:6-15 (90% alike)") != std::string::npos);
}

TEST_CASE("moved: a short block like boilerplate elsewhere is pointed at, never taken") {
    // Three telling lines, each common (the end of a function, a main's opening): a likeness
    // of so few lines is no evidence of a move.
    cptest::Repo repo;
    repo.write("pull.c", lines_of("pull", 1, 8) +
                             "\tread_all(fd_in, sha1, 20);\n\treturn 0;\n}\n\n" +
                             "int main(int argc, char **argv)\n{\n\tchar *commit_id;\n" +
                             lines_of("pullmain", 1, 8));
    repo.write("fetch.c", lines_of("fetch", 1, 8));
    auto base = repo.commit();
    repo.write("pull.c", "int pull_stub;\n");
    repo.write("fetch.c", lines_of("fetch", 1, 8) +
                              "\tget_sha1_hex(hex, sha1);\n\treturn 0;\n}\n\n" +
                              "int main(int argc, char **argv)\n{\n\tchar *commit_id;\n" +
                              lines_of("other", 1, 8));
    repo.commit();
    json a = answer(repo, "--base HEAD~ --target HEAD --anchor pull.c:9-15@argc");
    CHECK(a["status"] == "TOUCHED");
    CHECK(a["by"].is_null());
    CHECK(a["to"]["path"] == "pull.c");
}

TEST_CASE("moved: two lines alike elsewhere are listed, never pointed at alone") {
    // Two includes, removed here; another file includes both with a third between them. A
    // likeness of two lines is what any file including both has: named, not taken.
    cptest::Repo repo;
    repo.write("commit.c", "#include \"cache.h\"\n#include <string.h>\n#include <limits.h>\n" +
                               lines_of("commit", 1, 8));
    repo.write("cache.h", lines_of("cache", 1, 4));
    auto base = repo.commit();
    repo.write("commit.c", "#include \"cache.h\"\n" + lines_of("commit", 1, 8));
    repo.write("cache.h", lines_of("cache", 1, 4) +
                              "#include <string.h>\n#include <errno.h>\n#include <limits.h>\n");
    repo.commit();
    json a = answer(repo, "--base HEAD~ --target HEAD --anchor commit.c:2-3");
    CHECK(a["status"] == "TOUCHED");
    CHECK(a["by"].is_null());
    CHECK(a["found_at"].is_null());
    CHECK(a["candidates_total"] == 1);
    CHECK(a["candidates"] == json::array({loc("cache.h", 5, 7)}));
    auto table = cptest::context_pack(repo.dir(),
                                      "--table --base HEAD~ --target HEAD --anchor commit.c:2-3");
    CHECK(table.out.find("lines like its own at cache.h:5-7 (100% alike), too few lines to take") !=
          std::string::npos);
}

TEST_CASE("moved: two equally good places are both named, neither chosen") {
    cptest::Repo repo;
    repo.write("a.c", lines_of("a", 1, 5) + function("twin", 5) + lines_of("a2", 1, 5));
    repo.write("b.c", lines_of("b", 1, 5));
    repo.write("c.c", lines_of("c", 1, 5));
    auto base = repo.commit();
    repo.write("a.c", lines_of("a", 1, 5) + lines_of("a2", 1, 5));
    repo.write("b.c", lines_of("b", 1, 5) + function("twin", 5));
    repo.write("c.c", lines_of("c", 1, 5) + function("twin", 5));
    repo.commit();
    json a = answer(repo, "--base HEAD~ --target HEAD --anchor a.c:6-13@twin");
    CHECK(a["status"] == "TOUCHED");
    CHECK(a["by"].is_null());
    CHECK(a["candidates_total"] == 2);
}

TEST_CASE("moved: look-alike lines reversed are answered where each is, not at a look-alike") {
    // Forty lines alike but for their numbers, reversed: next to the anchor's three lines
    // (now in reverse order) stand three others that read like an edited copy of the block.
    // The lines themselves, each found with its very text, are the answer.
    cptest::Repo repo;
    std::vector<std::string> lines;
    for (int k = 0; k < 60; ++k)
        lines.push_back("int value_" + std::to_string(k) + " = compute(" + std::to_string(k) +
                        ", " + std::to_string(7 * k) + ");\n");
    auto joined = [&] {
        std::string out;
        for (const std::string& l : lines) out += l;
        return out;
    };
    repo.write("a.c", joined());
    repo.commit();
    std::reverse(lines.begin() + 10, lines.begin() + 50);
    repo.write("a.c", joined());
    repo.commit();
    // Base lines 21-23 (value_20..22) are now at 38-40, in reverse order.
    json a = answer(repo, "--base HEAD~ --target HEAD --anchor a.c:21-23");
    CHECK(a["status"] == "TOUCHED");
    CHECK(a["found_at"].is_null());
    CHECK(a["best"]["tier"] != "ambiguous");
    CHECK(a["best"]["line"] == 38);
    CHECK(a["best"]["end_line"] == 40);
    for (const json& l : a["line_map"]) CHECK(l["target"] == 40 - (l["base"].get<int>() - 21));
}

TEST_CASE("moved: code rewritten in place keeps the diff's answer, code gone stays gone") {
    cptest::Repo repo;
    repo.write("a.c", lines_of("a", 1, 5) + function("rewritten", 6) + function("dropped", 6) +
                          lines_of("z", 1, 5));
    repo.write("b.c", lines_of("b", 1, 5));
    auto base = repo.commit();
    std::string again = function("rewritten", 6, "count");
    repo.write("a.c", lines_of("a", 1, 5) + again + lines_of("z", 1, 5));
    // An old copy of the dropped function's first lines elsewhere, there before: not a move.
    repo.write("b.c", lines_of("b", 1, 6));
    repo.commit();
    json r = answer(repo, "--base HEAD~ --target HEAD --anchor a.c:6-14@rewritten");
    CHECK(r["status"] == "TOUCHED");
    CHECK(r["to"]["path"] == "a.c");
    CHECK(r["by"].is_null());
    json d = answer(repo, "--base HEAD~ --target HEAD --anchor a.c:15-23@dropped");
    CHECK(d["by"].is_null());
    CHECK(d["found_at"].is_null());
    CHECK(d["symbol_found"] == false);
}

// Searched by history: past one first-parent step, moved code is looked for in the files
// changed by the commit where it left its file (bisected as git blame -C would look), then
// around it, then where it went on from there; not in every file the pair changed.
namespace {

// A few commits that change only `path`, each a new line at its end.
void filler(cptest::Repo& repo, const std::string& path, int commits) {
    static int n = 0;
    for (int i = 0; i < commits; ++i) {
        repo.write(path, lines_of("filler", 1, ++n));
        repo.commit("filler " + std::to_string(n));
    }
}

// A base of a.c holding `f` among distinctive lines, b.c and c.c beside it; then three
// commits that change x.c alone. Returns the base.
std::string three_files(cptest::Repo& repo, const std::string& f) {
    repo.write("a.c", lines_of("a", 1, 20) + f + lines_of("a", 21, 40));
    repo.write("b.c", lines_of("b", 1, 20));
    repo.write("c.c", lines_of("c", 1, 20));
    auto base = repo.commit("base");
    filler(repo, "x.c", 3);
    return base;
}

std::string first_line_of(const std::string& text) {
    return text.substr(0, text.find('\n'));
}

}  // namespace

TEST_CASE(
    "history scope: code moved in the middle of a long history is found where that commit "
    "put it, and a copy made later elsewhere does not make it ambiguous") {
    cptest::Repo repo;
    const std::string f = function("moved_fn", 9);
    auto base = three_files(repo, f);
    repo.write("a.c", lines_of("a", 1, 20) + lines_of("a", 21, 40));
    repo.write("b.c", lines_of("b", 1, 20) + f);
    auto moved = repo.commit("move moved_fn to b.c");
    filler(repo, "x.c", 3);
    repo.write("c.c", lines_of("c", 1, 20) + f);
    repo.commit("a copy in c.c");
    filler(repo, "x.c", 2);
    // git's own account of where the lines left a.c.
    auto log = repo.git("log --format=%H -S\"" + first_line_of(f) + "\" " + base + "..HEAD -- a.c");
    CHECK(log == moved + "\n");
    json a = answer(repo, "--base " + base + " --target HEAD --anchor a.c:21-32@moved_fn");
    CHECK(a["status"] == "MOVED");
    CHECK(a["to"] == loc("b.c", 21, 32));
    CHECK(a["symbol_found"] == true);
    CHECK(a["candidates"].empty());
    // One step, the commit itself: every file it changed is searched.
    json step =
        answer(repo, "--base " + moved + "~1 --target " + moved + " --anchor a.c:21-32@moved_fn");
    CHECK(step["status"] == "MOVED");
    CHECK(step["to"] == loc("b.c", 21, 32));
}

TEST_CASE(
    "history scope: a function deleted in the middle of a long history stays deleted, and "
    "the note names the commit where its lines left") {
    cptest::Repo repo;
    const std::string f = function("doomed_fn", 9);
    repo.write("a.c", lines_of("a", 1, 20) + f + lines_of("a", 21, 40));
    auto base = repo.commit("base");
    filler(repo, "x.c", 4);
    repo.write("a.c", lines_of("a", 1, 20) + lines_of("a", 21, 40));
    repo.write("b.c", lines_of("b", 1, 20));
    auto deleted = repo.commit("drop doomed_fn");
    filler(repo, "x.c", 4);
    auto log = repo.git("log --format=%H -S\"" + first_line_of(f) + "\" " + base + "..HEAD -- a.c");
    CHECK(log == deleted + "\n");
    json a = answer(repo, "--base " + base + " --target HEAD --anchor a.c:21-32@doomed_fn");
    CHECK(a["lines_deleted"] == true);
    CHECK(a["candidates"].empty());
    CHECK(a["found_at"].is_null());
    // a.c and b.c the commit's own change; x.c the commits' around it.
    CHECK(a["reason"] == "its lines not found among the 3 files changed in " +
                             deleted.substr(0, 12) + ", where they left a.c");
}

TEST_CASE(
    "history scope: a file renamed, then its function moved on to a new file, then the file "
    "deleted: found through the file it went to") {
    cptest::Repo repo;
    const std::string f = function("wandering_fn", 9);
    repo.write("a.c", lines_of("a", 1, 30) + f + lines_of("a", 31, 60));
    auto base = repo.commit("base");
    repo.git("mv a.c b.c");
    repo.commit("rename a.c to b.c");
    filler(repo, "x.c", 4);
    repo.write("b.c", lines_of("a", 1, 30) + lines_of("a", 31, 60));
    repo.write("c.c", lines_of("c", 1, 5) + f);
    auto moved = repo.commit("wandering_fn to c.c");
    filler(repo, "x.c", 4);
    repo.remove("b.c");
    repo.commit("drop b.c");
    json a = answer(repo, "--base " + base + " --target HEAD --anchor a.c:31-42@wandering_fn");
    CHECK(a["status"] == "MOVED");
    CHECK(a["to"] == loc("c.c", 6, 17));
    CHECK(a["symbol_found"] == true);
}

TEST_CASE(
    "history scope: code moved to a new file among many changed ones, then moved on, is "
    "followed through the new file first") {
    cptest::Repo repo;
    const std::string f = function("passing_fn", 9);
    repo.write("a.c", lines_of("a", 1, 30) + f + lines_of("a", 31, 60));
    auto other = [](int k) { return std::string(k < 10 ? "m0" : "m") + std::to_string(k) + ".c"; };
    for (int k = 0; k < 12; ++k) repo.write(other(k), lines_of("m", 1, 5 + k));
    auto base = repo.commit("base");
    filler(repo, "x.c", 3);
    // One commit moves it to a new file and touches twelve others, which sort before it.
    repo.write("a.c", lines_of("a", 1, 30) + lines_of("a", 31, 60));
    for (int k = 0; k < 12; ++k) repo.write(other(k), lines_of("m", 1, 6 + k));
    repo.write("n.c", lines_of("n", 1, 5) + f);
    repo.commit("passing_fn to n.c, with other changes");
    filler(repo, "x.c", 3);
    repo.write("n.c", lines_of("n", 1, 5));
    repo.write("p.c", lines_of("p", 1, 8) + f);
    repo.commit("passing_fn on to p.c");
    filler(repo, "x.c", 3);
    json a = answer(repo, "--base " + base + " --target HEAD --anchor a.c:31-42@passing_fn");
    INFO(a.dump());
    CHECK(a["status"] == "MOVED");
    CHECK(a["to"] == loc("p.c", 9, 20));
    CHECK(a["symbol_found"] == true);
}

TEST_CASE(
    "history scope: a move inside a merged topic is found in the topic commit that made "
    "it, not among every file the merge brought") {
    cptest::Repo repo;
    const std::string f = function("topic_fn", 9);
    auto base = three_files(repo, f);
    repo.git("checkout -q -b topic");
    repo.write("y.c", lines_of("y", 1, 5));
    repo.commit("topic: first");
    repo.write("y.c", lines_of("y", 1, 9));
    repo.commit("topic: second");
    repo.write("a.c", lines_of("a", 1, 20) + lines_of("a", 21, 40));
    repo.write("b.c", lines_of("b", 1, 20) + f);
    repo.commit("topic: move topic_fn to b.c");
    repo.write("y.c", lines_of("y", 1, 12));
    repo.commit("topic: third");
    repo.write("z.c", lines_of("z", 1, 12));
    repo.commit("topic: fourth");
    repo.write("c.c", lines_of("c", 1, 20) + f);
    repo.commit("topic: a copy in c.c");
    repo.git("checkout -q -");
    repo.git("merge -q --no-ff -m merge-topic topic");
    filler(repo, "x.c", 3);
    json a = answer(repo, "--base " + base + " --target HEAD --anchor a.c:21-32@topic_fn");
    CHECK(a["status"] == "MOVED");
    CHECK(a["to"] == loc("b.c", 21, 32));
    CHECK(a["candidates"].empty());
}

namespace {

// A topic branched off before the base, five commits in when `change` makes its commit on
// it, six more after, merged into a line that went on two commits past the base (and goes on
// two after the merge). Returns the base and the commit `change` made.
std::pair<std::string, std::string> forked_topic(cptest::Repo& repo, const std::string& f,
                                                 const std::function<void()>& change,
                                                 const std::function<void()>& later = {}) {
    repo.write("a.c", lines_of("a", 1, 20) + f + lines_of("a", 21, 40));
    repo.write("b.c", lines_of("b", 1, 20));
    repo.write("c.c", lines_of("c", 1, 20));
    repo.commit("start");
    repo.git("branch topic");
    filler(repo, "x.c", 2);
    const std::string base = repo.git("rev-parse HEAD").substr(0, 40);
    filler(repo, "x.c", 2);
    repo.git("checkout -q topic");
    filler(repo, "y.c", 5);
    change();
    const std::string changed = repo.commit("topic: the change");
    filler(repo, "y.c", 6);
    if (later) later();
    repo.git("checkout -q -");
    repo.git("merge -q --no-ff -m merge-topic topic");
    filler(repo, "x.c", 2);
    return {base, changed};
}

}  // namespace

TEST_CASE(
    "history scope: a long topic forked before the base is walked down only to the commit "
    "that moved the code, and its later copy elsewhere is not taken for it") {
    cptest::Repo repo;
    const std::string f = function("forked_fn", 9);
    const auto [base, moved] = forked_topic(
        repo, f,
        [&] {
            repo.write("a.c", lines_of("a", 1, 20) + lines_of("a", 21, 40));
            repo.write("b.c", lines_of("b", 1, 20) + f);
        },
        [&] {
            repo.write("c.c", lines_of("c", 1, 20) + f);
            repo.commit("topic: a copy in c.c");
            filler(repo, "y.c", 2);
        });
    for (const std::string mode : {"", " --table"}) {
        json a =
            answer(repo, "--base " + base + " --target HEAD --anchor a.c:21-32@forked_fn" + mode);
        INFO(a.dump());
        CHECK(a["status"] == "MOVED");
        CHECK(a["to"] == loc("b.c", 21, 32));
        CHECK(a["candidates"].empty());
    }
}

TEST_CASE(
    "history scope: a function a long topic forked before the base deleted is said deleted "
    "in the topic's commit, not the merge") {
    cptest::Repo repo;
    const std::string f = function("dropped_fn", 9);
    const auto [base, deleting] = forked_topic(
        repo, f, [&] { repo.write("a.c", lines_of("a", 1, 20) + lines_of("a", 21, 40)); });
    json gone = answer(repo, "--base " + base + " --target HEAD --anchor a.c:21-32@dropped_fn");
    INFO(gone.dump());
    CHECK(gone["lines_deleted"] == true);
    CHECK(gone["reason"].get<std::string>().find("changed in " + deleting.substr(0, 12)) !=
          std::string::npos);
}

TEST_CASE(
    "history scope: a move made in the working tree, with the base far back, is found "
    "among the files changed since HEAD") {
    cptest::Repo repo;
    const std::string f = function("uncommitted_fn", 9);
    auto base = three_files(repo, f);
    filler(repo, "x.c", 3);
    repo.write("a.c", lines_of("a", 1, 20) + lines_of("a", 21, 40));
    repo.write("b.c", lines_of("b", 1, 20) + f);
    json a = answer(repo, "--base " + base + " --anchor a.c:21-32@uncommitted_fn");
    CHECK(a["status"] == "MOVED");
    CHECK(a["to"] == loc("b.c", 21, 32));
    CHECK(a["symbol_found"] == true);
    // Deleted in the working tree instead: the note says so (a.c changed there, x.c by the
    // commit before it).
    repo.write("b.c", lines_of("b", 1, 20));
    json gone = answer(repo, "--base " + base + " --anchor a.c:21-32@uncommitted_fn");
    CHECK(gone["lines_deleted"] == true);
    CHECK(gone["reason"] ==
          "its lines not found among the 2 files changed in the working tree, where they left "
          "a.c");
}
