// libFuzzer target: the spec parser (cp::parse_specs) on arbitrary bytes.
// The first byte picks the mode (odd: one spec per line, as for .jsonl; even: one JSON spec),
// the rest is the text. Any answer is fine, but it must not crash, hang, leak or throw, an
// error must say something, and a spec it accepts must hold what the parser promises: anchors
// with a path and a valid symbol, file_changes before reads, indexes in order, and the same
// spec again when it is written back as JSON and parsed.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "context_pack/model/prose.hpp"
#include "context_pack/model/report.hpp"
#include "context_pack/model/spec.hpp"
#include "context_pack/output/repin.hpp"

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
    std::fprintf(stderr, "fuzz_spec: %s: %.*s\n", what, static_cast<int>(detail.size()),
                 detail.data());
    std::abort();
}

// Non-blank lines as parse_specs counts them: any byte other than space, tab and CR.
std::size_t spec_lines(std::string_view text) {
    std::size_t count = 0;
    while (!text.empty()) {
        auto nl = text.find('\n');
        auto line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        if (line.find_first_not_of(" \t\r") != std::string_view::npos) ++count;
    }
    return count;
}

// The spec written back as SPEC §2 JSON.
std::string to_json(const cp::Spec& spec) {
    nlohmann::json doc = {{"id", spec.id}};
    if (spec.base) doc["base"] = *spec.base;
    if (spec.target) doc["target"] = *spec.target;
    for (const cp::Anchor& a : spec.anchors) {
        nlohmann::json loc = {{"path", a.path}, {"line", a.line}};
        if (a.end_line) loc["end_line"] = *a.end_line;
        if (a.symbol) loc["symbol"] = *a.symbol;
        const bool edit = a.kind == cp::AnchorKind::Edit;
        doc[edit ? "file_changes" : "reads"].push_back(
            {{"location", loc}, {edit ? "change" : "why", a.note}});
    }
    return doc.dump();  // throws on invalid UTF-8: the parser must never have let it in
}

bool same(const cp::Anchor& a, const cp::Anchor& b) {
    return a.kind == b.kind && a.ad_hoc == b.ad_hoc && a.index == b.index && a.path == b.path &&
           a.line == b.line && a.end_line == b.end_line && a.symbol == b.symbol && a.note == b.note;
}

// A spec without the values a revision writes: what it must keep as it came.
nlohmann::json planner_keys(nlohmann::json doc) {
    doc.erase("base");
    doc.erase("id");
    for (const char* list : {"file_changes", "reads"}) {
        auto it = doc.find(list);
        if (it == doc.end() || !it->is_array()) continue;
        for (auto& entry : *it) {
            entry.erase("was");
            entry.erase("repin");
            for (const char* key : {"path", "line", "end_line"}) entry["location"].erase(key);
        }
    }
    return doc;
}

// Whether the fuzz revision moves the anchor: every other one, where the numbers have room.
bool moves(const cp::Spec& spec, std::size_t i) {
    const cp::Anchor& a = spec.anchors[i];
    return i % 2 == 0 && a.line > -1000000 && a.last_line() >= a.line &&
           a.last_line() < 1000000000000;
}

// The spec revised as if every other anchor moved (to "m/" + its path, a line down, a line
// longer) and the rest were GONE: the revision parses, holds the moves, and keeps the rest.
void check_repin(const cp::Spec& spec) {
    cp::SpecReport report;
    report.source = spec.source;
    report.base = "1111111111111111111111111111111111111111";
    report.target = cp::Target::at("2222222222222222222222222222222222222222");
    for (std::size_t i = 0; i < spec.anchors.size(); ++i) {
        cp::AnchorResult r;
        r.anchor = spec.anchors[i];
        if (moves(spec, i)) {
            r.status = cp::Status::Moved;
            r.to = cp::Location{"m/" + r.anchor.path, r.anchor.line + 1, r.anchor.last_line() + 2};
            if (r.anchor.symbol) r.symbol_found = true;
        } else {
            r.status = cp::Status::Gone;
            r.reason = "gone";
        }
        report.anchors.push_back(std::move(r));
    }
    const auto original = nlohmann::json::parse(spec.json);
    for (int indent : {-1, 2}) {
        const std::string text = cp::repinned_spec(spec, report, indent);
        auto revised = cp::parse_spec(text, spec.source);
        if (!revised) fail("the revised spec does not parse", revised.error().message);
        if (revised->base != report.target.commit) fail("the revised spec's base", text);
        if (revised->anchors.size() != spec.anchors.size())
            fail("the revised spec has other anchors", text);
        for (std::size_t i = 0; i < spec.anchors.size(); ++i) {
            const cp::Anchor& was = spec.anchors[i];
            const cp::Anchor& now = revised->anchors[i];
            const bool moved = moves(spec, i);
            if (now.path != (moved ? "m/" + was.path : was.path) ||
                now.line != (moved ? was.line + 1 : was.line) ||
                now.last_line() != (moved ? was.last_line() + 2 : was.last_line()) ||
                now.symbol != was.symbol || now.note != was.note)
                fail("a revised anchor is not where it was put", text);
        }
        if (planner_keys(nlohmann::json::parse(text)) != planner_keys(original))
            fail("the revision changed a value it does not own", text);
    }
}

// --prose: the mentions come after the spec's own anchors as reads prose[0], prose[1], ...,
// and a revision that moves every one of them a line down still parses.
void check_prose(const cp::Spec& spec) {
    cp::Spec with = spec;
    cp::add_prose_anchors(with);
    cp::SpecReport report;
    report.source = spec.source;
    report.base = "1111111111111111111111111111111111111111";
    report.target = cp::Target::at("2222222222222222222222222222222222222222");
    for (std::size_t i = 0; i < with.anchors.size(); ++i) {
        const cp::Anchor& a = with.anchors[i];
        if (i < spec.anchors.size()) {
            if (a.mention) fail("a spec anchor taken for a mention", a.path);
            continue;
        }
        if (!a.mention || a.kind != cp::AnchorKind::Read || a.path.empty() ||
            a.index != i - spec.anchors.size())
            fail("a mention that is not the next prose read", a.path);
        cp::AnchorResult r;
        r.anchor = a;
        r.status = cp::Status::Moved;
        if (a.line > 0 && a.last_line() >= a.line && a.last_line() < 1000000000000)
            r.to = cp::Location{a.path, a.line + 1, a.last_line() + 1};
        else
            r.status = cp::Status::Unresolved;
        report.anchors.push_back(std::move(r));
    }
    const std::string text = cp::repinned_spec(with, report, -1);
    if (!cp::parse_spec(text, spec.source)) fail("the revision with prose does not parse", text);
}

void check(const cp::Spec& spec) {
    std::size_t edits = 0, reads = 0;
    for (const cp::Anchor& a : spec.anchors) {
        if (a.path.empty()) fail("an anchor with an empty path");
        if (a.ad_hoc) fail("a spec anchor marked ad hoc", a.path);
        if (a.symbol && cp::symbol_problem(*a.symbol)) fail("an invalid symbol", *a.symbol);
        if (a.kind == cp::AnchorKind::Edit) {
            if (reads != 0) fail("a file_changes anchor after a reads anchor", a.path);
            if (a.index != edits++) fail("file_changes indexes out of order", a.path);
        } else if (a.index != reads++) {
            fail("reads indexes out of order", a.path);
        }
    }

    const std::string again_text = to_json(spec);
    auto again = cp::parse_spec(again_text, spec.source);
    if (!again) fail("the spec written back does not parse", again.error().message);
    if (again->source != spec.source || again->id != spec.id || again->base != spec.base ||
        again->target != spec.target || again->anchors.size() != spec.anchors.size())
        fail("the spec written back parses differently", again_text);
    for (std::size_t i = 0; i < spec.anchors.size(); ++i)
        if (!same(spec.anchors[i], again->anchors[i]))
            fail("an anchor written back parses differently", again_text);
    check_repin(spec);
    check_prose(spec);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const bool jsonl = (data[0] & 1) != 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);

    auto specs = cp::parse_specs(text, "fuzz", jsonl);
    if (!specs) {
        if (specs.error().message.empty()) fail("an error without a message");
        return 0;
    }
    if (!jsonl && specs->size() != 1) fail("not one spec from a JSON document");
    if (jsonl && specs->size() != spec_lines(text)) fail("not one spec per non-blank line");
    for (const cp::Spec& spec : *specs) {
        if (spec.source.rfind("fuzz", 0) != 0) fail("a spec that forgot its source", spec.source);
        check(spec);
    }
    return 0;
}
