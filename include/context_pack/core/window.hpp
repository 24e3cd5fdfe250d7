// Windows: the lines of each resolved anchor at the target, with a few lines of context.
// Windows that overlap or touch in one file merge into one; each shows at most
// `max_anchored` anchored lines and names the rest. Pure: file bytes come in, values go out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "context_pack/core/funcname.hpp"
#include "context_pack/core/mapping.hpp"

namespace cp {

struct WindowOptions {
    int context = 3;                   // lines of context on each side
    LineNo max_anchored = 100;         // anchored lines shown per window
    std::size_t max_line_bytes = 300;  // longer lines are cut with a marker
};

struct WindowLine {
    LineNo number = 0;
    std::string text;           // without its newline or carriage return; maybe cut
    bool anchored = false;      // inside an anchor's range (else context)
    bool best = false;          // one of the best lines of a TOUCHED anchor (anchored too)
    std::size_t cut_bytes = 0;  // bytes of a long line left out
};

struct Window {
    std::string path;                  // at target
    LineNo first = 0;                  // first and last line the window spans, context
    LineNo last = 0;                   // included (last < first: nothing to show)
    std::vector<std::size_t> anchors;  // indices of the anchors it holds, in table order
    std::vector<WindowLine> lines;
    LineNo omitted_from = 1;                 // lines left out past the cap: path:omitted_from-
    LineNo omitted_to = 0;                   // omitted_to; omitted_to < omitted_from when none
    std::optional<std::string> unavailable;  // why no lines are shown (binary, unreadable)
    std::optional<Definition> definition;    // the function, class or section enclosing it

    LineNo omitted() const {
        return omitted_to >= omitted_from ? omitted_to - omitted_from + 1 : 0;
    }
};

// The bytes of a path at the target, or nullptr when there is none to show.
using FileBytes = std::function<const std::string*(const std::string& path)>;

// Where one anchor's lines are at the target. An empty range (end == start - 1) is the gap
// its deleted lines left after line `end`; the window shows the context around it.
// `best`: the lines of them that its base lines became, where that is narrower.
struct TargetLines {
    std::string path;
    LineRange lines;
    std::optional<LineRange> best;
};

// Windows for the anchors that have lines at the target (nullopt: no window), in the order of
// the first anchor each holds; a window's `anchors` are indices into `anchors`.
std::vector<Window> build_windows(const std::vector<std::optional<TargetLines>>& anchors,
                                  const FileBytes& bytes, const WindowOptions& options);

}  // namespace cp
