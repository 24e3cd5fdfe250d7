#include "context_pack/output/quickfix.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "context_pack/core/text.hpp"
#include "context_pack/output/table.hpp"

namespace cp {

void print_quickfix(std::ostream& out, const Report& report) {
    for (const SpecReport& spec : report.specs) {
        for (const AnchorResult& a : spec.anchors) {
            const Anchor& in = a.anchor;
            // Where the anchor is now; where it was when it is nowhere now. A range whose
            // lines were all deleted points at the line after the gap, never line 0.
            const bool now = a.to.has_value();
            const std::string& path = now ? a.to->path : in.path;
            LineNo line = std::max<LineNo>(1, now ? a.to->line : in.line);
            std::string text = fmt::format("{} {}", a.status_label(), anchor_label(in));
            if (in.symbol) {
                text += " " + text::printable(*in.symbol);
                if (a.symbol_found) text += *a.symbol_found ? " found" : " missing";
            }
            text += fmt::format(" (spec {}; at base {}", text::printable(spec.id),
                                format_location({in.path, in.line, in.last_line()}));
            if (now) text += fmt::format("; now {}", format_location(*a.to));
            text += ")";
            if (a.reason) text += ": " + text::printable(*a.reason);
            out << fmt::format("{}:{}:1: {}\n", text::printable(path), line, text);
        }
    }
}

}  // namespace cp
