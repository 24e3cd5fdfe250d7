// Window headers name the enclosing definition by the rule of the file's language.
#include "context_pack/core/funcname.hpp"
#include "support/catch.hpp"

namespace {

std::optional<cp::Definition> def(const std::string& path, const std::vector<std::string>& text,
                                  cp::LineNo at) {
    std::vector<std::string_view> lines(text.begin(), text.end());
    return cp::enclosing_definition(path, lines, at);
}

std::string found(const std::string& path, const std::vector<std::string>& text, cp::LineNo at) {
    auto d = def(path, text, at);
    return d ? std::to_string(d->line) + ": " + d->text : "none";
}

}  // namespace

TEST_CASE("funcname: languages by extension") {
    CHECK(cp::funcname_language("src/a.c") == "cpp");
    CHECK(cp::funcname_language("shaders/Interval.hlsl") == "cpp");
    CHECK(cp::funcname_language("x/Y.cs") == "csharp");
    CHECK(cp::funcname_language("A.java") == "java");
    CHECK(cp::funcname_language("b.kt") == "kotlin");
    CHECK(cp::funcname_language("lib.rs") == "rust");
    CHECK(cp::funcname_language("main.go") == "golang");
    CHECK(cp::funcname_language("tool.py") == "python");
    CHECK(cp::funcname_language("web/app.tsx") == "javascript");
    CHECK(cp::funcname_language("run.sh") == "shell");
    CHECK(cp::funcname_language("README.md") == "markdown");
    CHECK(cp::funcname_language("Makefile") == "default");
    CHECK(cp::funcname_language(".bashrc") == "default");
}

TEST_CASE("funcname: the nearest definition at or above the line, per language") {
    CHECK(found("a.c",
                {"#include <x.h>", "", "static int parse(int n) {", "  int x = 1;",
                 "again:", "  return x;", "}"},
                6) == "3: static int parse(int n) {");
    CHECK(found("a.cpp", {"class Widget {", "public:", "  void draw();", "};"}, 3) ==
          "1: class Widget {");  // "public:" is a label, not a definition
    CHECK(found("a.cs",
                {"namespace N {", "  public class C {", "    public void Run(int x)", "    {",
                 "      if (x > 0)", "        Go();", "    }"},
                6) == "3: public void Run(int x)");
    CHECK(found("A.java",
                {"public class A {", "  private int size(List<String> xs) {",
                 "    for (String x : xs) {", "      n++;"},
                4) == "2: private int size(List<String> xs) {");
    CHECK(found("b.kt", {"class K {", "  private fun go(x: Int): Int {", "    return x", "  }"},
                3) == "2: private fun go(x: Int): Int {");
    CHECK(found("lib.rs", {"impl Foo {", "    pub(crate) async fn bar(&self) {", "        x();"},
                3) == "2: pub(crate) async fn bar(&self) {");
    CHECK(found("main.go", {"package main", "func (s *S) Run() error {", "\treturn nil", "}"}, 3) ==
          "2: func (s *S) Run() error {");
    CHECK(found("t.py", {"class T:", "    async def go(self):", "        return 1"}, 3) ==
          "2: async def go(self):");
    CHECK(found("t.py", {"class T:", "    def go(self):", "        return 1"}, 3) ==
          "2: def go(self):");
    CHECK(found("app.ts",
                {"export class Store {", "  async load(id: string): Promise<void> {",
                 "    if (id) {", "      go();"},
                4) == "2: async load(id: string): Promise<void> {");
    CHECK(found("app.js", {"const add = (a, b) => {", "  return a + b;", "};"}, 2) ==
          "1: const add = (a, b) => {");
    CHECK(found("app.js", {"export default function main() {", "  run();"}, 2) ==
          "1: export default function main() {");
    CHECK(found("run.sh", {"#!/bin/sh", "build() {", "  make", "}"}, 3) == "2: build() {");
    CHECK(found("doc.md", {"# Title", "text", "## Usage", "more text"}, 4) == "3: ## Usage");
    CHECK(found("Makefile", {"all: build", "\tmake -C x", "\tdone"}, 3) == "1: all: build");
}

TEST_CASE("funcname: the definition line itself counts, and nothing above means none") {
    CHECK(found("a.py", {"def first():", "    pass"}, 1) == "1: def first():");
    CHECK(found("a.py", {"    x = 1", "    y = 2"}, 2) == "none");
    CHECK(found("a.c", {"/* only a comment */", "  int x;"}, 2) == "none");
}

TEST_CASE("funcname: long definitions are cut, very long lines skipped") {
    std::string long_sig = "int f(" + std::string(200, 'a') + ") {";
    auto d = def("a.c", {long_sig, "  x;"}, 2);
    REQUIRE(d);
    CHECK(d->text.size() == 120);
    CHECK(found("a.c", {"int g(void) {", std::string(5000, 'x'), "  y;"}, 3) == "1: int g(void) {");
}
