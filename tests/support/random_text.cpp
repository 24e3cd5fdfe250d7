#include "support/random_text.hpp"

#include <algorithm>
#include <cstdlib>

namespace cptest {

std::string TextFile::text(bool no_lone_cr) const {
    if (no_lone_cr && !final_newline && !lines.empty() && !lines.back().empty() &&
        lines.back().back() == '\r') {
        TextFile copy = *this;
        copy.lines.back().pop_back();
        return copy.text();
    }
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        out += lines[i];
        if (i + 1 < lines.size() || final_newline) out += '\n';
    }
    return out;
}

std::string Gen::eol(const TextFile& f, std::string line) {
    if (f.eol == Eol::Crlf || (f.eol == Eol::Mixed && chance(0.5))) line += '\r';
    return line;
}

std::string Gen::line(const TextFile& f) {
    static const std::vector<std::string> vocab = {"a", "b", "c", "", "}", "{", "    x;"};
    static const std::vector<std::string> code = {
        "",          "}",         "    }",      "    if (x) {",  "        y();",
        "    x++;",  "int f() {", "// comment", "    return 0;", "\treturn 1;",
        "        }", "  ",        "    else {"};
    static const std::vector<std::string> words = {"the",    "anchor", "moves", "with", "its",
                                                   "lines",  "when",   "a",     "hunk", "lands",
                                                   "before", "it",     "and",   "git",  "agrees"};
    switch (f.style) {
        case Style::Vocab:
            return eol(f, pick(vocab));
        case Style::Code:
            return eol(f, pick(code));
        case Style::Prose: {
            std::string s;
            for (int n = uniform(0, 5), i = 0; i < n; ++i) s += (i ? " " : "") + pick(words);
            return eol(f, s);
        }
        case Style::Runs:
            return eol(f, chance(0.85) ? "same" : pick(vocab));
        case Style::Unique:
            break;
    }
    return eol(f, "line " + std::to_string(rng_() % 1000000));
}

std::vector<std::string> Gen::lines(const TextFile& f, int n) {
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i) out.push_back(line(f));
    return out;
}

std::vector<std::string> Gen::block(const TextFile& f) {
    std::vector<std::string> raw;
    std::string name = "f" + std::to_string(uniform(0, 9));
    raw.push_back("int " + name + "(int x) {");
    for (int i = 0, n = uniform(0, 3); i < n; ++i) {
        if (chance(0.5)) {
            raw.push_back("    if (x > " + std::to_string(uniform(0, 3)) + ") {");
            raw.push_back("        return x;");
            raw.push_back("    }");
        } else {
            raw.push_back(chance(0.5) ? "    x++;" : "");
        }
    }
    raw.push_back("    return " + std::to_string(uniform(0, 2)) + ";");
    raw.push_back("}");
    if (chance(0.8)) raw.push_back("");
    std::vector<std::string> out;
    for (auto& l : raw) out.push_back(eol(f, l));
    return out;
}

std::vector<std::string> Gen::fresh(const TextFile& f, int n) {
    if (f.style != Style::Code) return lines(f, n);
    std::vector<std::string> out;
    while (static_cast<int>(out.size()) < n) {
        auto b = block(f);
        if (chance(0.2))
            out.push_back(line(f));
        else
            out.insert(out.end(), b.begin(), b.end());
    }
    return out;
}

TextFile Gen::file() {
    TextFile f;
    f.style = static_cast<Style>(uniform(0, 4));
    int e = uniform(0, 9);
    f.eol = e < 7 ? Eol::Lf : e < 9 ? Eol::Crlf : Eol::Mixed;
    f.final_newline = !chance(0.15);
    int size = chance(0.05) ? 0 : chance(0.12) ? uniform(150, 400) : uniform(1, 60);
    f.lines = fresh(f, size);
    return f;
}

int Gen::position(int n) {
    int r = uniform(0, 9);
    if (r == 0) return 0;
    if (r == 1) return n;
    return uniform(0, n);
}

void Gen::edit_once(TextFile& f) {
    auto& L = f.lines;
    int n = static_cast<int>(L.size());
    switch (uniform(0, 13)) {
        case 0:
        case 1: {  // insert lines
            auto add = fresh(f, uniform(1, 5));
            L.insert(L.begin() + position(n), add.begin(), add.end());
            break;
        }
        case 2:
        case 3: {  // delete a range
            if (n == 0) break;
            int at = uniform(0, n - 1), len = std::min(uniform(1, 6), n - at);
            L.erase(L.begin() + at, L.begin() + at + len);
            break;
        }
        case 4:
        case 5: {  // replace a range
            if (n == 0) break;
            int at = uniform(0, n - 1), len = std::min(uniform(1, 4), n - at);
            auto add = lines(f, uniform(1, 4));
            L.erase(L.begin() + at, L.begin() + at + len);
            L.insert(L.begin() + at, add.begin(), add.end());
            break;
        }
        case 6: {  // move a block
            if (n < 2) break;
            int at = uniform(0, n - 1), len = std::min(uniform(1, 8), n - at);
            std::vector<std::string> moved(L.begin() + at, L.begin() + at + len);
            L.erase(L.begin() + at, L.begin() + at + len);
            int to = position(static_cast<int>(L.size()));
            L.insert(L.begin() + to, moved.begin(), moved.end());
            break;
        }
        case 7: {  // duplicate a block next to itself or elsewhere
            if (n == 0) break;
            int at = uniform(0, n - 1), len = std::min(uniform(1, 4), n - at);
            std::vector<std::string> copy(L.begin() + at, L.begin() + at + len);
            int to = chance(0.5) ? at + len : position(n);
            L.insert(L.begin() + to, copy.begin(), copy.end());
            break;
        }
        case 8: {  // insert a code block between lines
            auto b = block(f);
            L.insert(L.begin() + position(n), b.begin(), b.end());
            break;
        }
        case 9:  // toggle the final newline
            f.final_newline = !f.final_newline;
            break;
        case 10: {  // flip one line's ending
            if (n == 0) break;
            auto& l = L[static_cast<std::size_t>(uniform(0, n - 1))];
            if (!l.empty() && l.back() == '\r')
                l.pop_back();
            else
                l += '\r';
            break;
        }
        case 11: {  // blank line somewhere
            L.insert(L.begin() + position(n), eol(f, ""));
            break;
        }
        case 12:  // delete everything
            if (chance(0.3)) L.clear();
            break;
        case 13:  // rewrite the whole file
            if (chance(0.3)) L = fresh(f, uniform(0, 40));
            break;
    }
}

void Gen::edit(TextFile& f) {
    for (int i = 0, n = uniform(1, 6); i < n; ++i) edit_once(f);
}

int scaled(int full) {
    const char* s = std::getenv("CONTEXT_PACK_TEST_SCALE");
    const double scale = s && *s ? std::strtod(s, nullptr) : 1.0;
    if (!(scale > 0.0) || scale >= 1.0) return full;
    return std::max(1, static_cast<int>(full * scale));
}

std::uint64_t seed_from_env(std::uint64_t fallback) {
    const char* s = std::getenv("CP_TEST_GIT_SEED");
    return s && *s ? std::strtoull(s, nullptr, 10) : fallback;
}

}  // namespace cptest
