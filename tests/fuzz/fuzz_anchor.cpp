// libFuzzer target: the --anchor argument parser (cp::parse_anchor_arg) on arbitrary bytes.
// Any answer is fine, but it must not crash, hang, leak or throw, and an anchor it accepts must
// survive a round trip: written back as PATH:LINE[-END][@SYMBOL] and parsed again, it is the
// same anchor.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "context_pack/model/spec.hpp"

namespace {

[[noreturn]] void fail(const char* what, std::string_view arg) {
    std::fprintf(stderr, "fuzz_anchor: %s; argument (%zu bytes): '%.*s'\n", what, arg.size(),
                 static_cast<int>(arg.size()), arg.data());
    std::abort();
}

std::string format(const cp::Anchor& a) {
    std::string out = a.path + ":" + std::to_string(a.line);
    if (a.end_line) out += "-" + std::to_string(*a.end_line);
    if (a.symbol) out += "@" + *a.symbol;
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view arg(reinterpret_cast<const char*>(data), size);
    auto anchor = cp::parse_anchor_arg(arg);
    if (!anchor) {
        if (anchor.error().message.empty()) fail("an error without a message", arg);
        return 0;
    }
    const cp::Anchor& a = *anchor;
    if (a.path.empty()) fail("an empty path", arg);
    if (arg.substr(0, a.path.size()) != a.path || arg.size() <= a.path.size() ||
        arg[a.path.size()] != ':')
        fail("the path is not the text before a ':'", arg);
    if (a.line < 0 || (a.end_line && *a.end_line < 0)) fail("a negative line number", arg);
    if (a.kind != cp::AnchorKind::Read || !a.ad_hoc || a.index != 0 || !a.note.empty())
        fail("not a fresh ad hoc read anchor", arg);
    if (a.symbol) {
        if (cp::symbol_problem(*a.symbol)) fail("an invalid symbol", arg);
        if (arg.size() < a.symbol->size() || arg.substr(arg.size() - a.symbol->size()) != *a.symbol)
            fail("the symbol is not the end of the argument", arg);
    }

    const std::string again_text = format(a);
    auto again = cp::parse_anchor_arg(again_text);
    if (!again) fail("the anchor written back does not parse", again_text);
    const cp::Anchor& b = *again;
    if (b.kind != a.kind || b.ad_hoc != a.ad_hoc || b.index != a.index || b.path != a.path ||
        b.line != a.line || b.end_line != a.end_line || b.symbol != a.symbol || b.note != a.note)
        fail("the anchor written back parses differently", again_text);
    return 0;
}
