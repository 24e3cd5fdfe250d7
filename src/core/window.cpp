#include "context_pack/core/window.hpp"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

#include "context_pack/core/text.hpp"

namespace cp {
namespace {

// One anchor's span at target, context included, clamped to the file.
struct Span {
    LineNo first, last;
    LineRange anchored;
    std::size_t anchor;
    std::optional<LineRange> best;
};

// The anchors that have a window, by target path, in the order paths first appear.
std::vector<std::pair<std::string, std::vector<std::size_t>>> by_path(
    const std::vector<std::optional<TargetLines>>& anchors) {
    std::vector<std::pair<std::string, std::vector<std::size_t>>> groups;
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < anchors.size(); ++i) {
        if (!anchors[i]) continue;
        auto [it, added] = index.try_emplace(anchors[i]->path, groups.size());
        if (added) groups.push_back({anchors[i]->path, {}});
        groups[it->second].second.push_back(i);
    }
    return groups;
}

// A window that cannot show its file's lines: it spans its anchors' lines and says why.
Window unavailable_window(const std::string& path, const std::vector<std::size_t>& members,
                          const std::vector<std::optional<TargetLines>>& anchors, bool absent) {
    Window w;
    w.path = path;
    w.anchors = members;
    w.first = anchors[members.front()]->lines.start;
    for (std::size_t i : members) {
        w.first = std::min(w.first, anchors[i]->lines.start);
        w.last = std::max(w.last, anchors[i]->lines.end);
    }
    w.unavailable = absent ? "no readable file at target (absent, or over the file size limit): "
                             "not shown"
                           : "binary file at target: not shown";
    return w;
}

// Each member's span with `context` lines around it, clamped to a file of `n` lines, merged
// into groups of spans that overlap or touch, in line order.
std::vector<std::vector<Span>> merged_spans(const std::vector<std::size_t>& members,
                                            const std::vector<std::optional<TargetLines>>& anchors,
                                            LineNo n, LineNo context) {
    std::vector<Span> spans;
    for (std::size_t i : members) {
        const LineRange& to = anchors[i]->lines;
        LineRange r{to.start, std::min(to.end, n)};
        // An empty range (its lines deleted) shows the context around the gap.
        LineNo first = r.empty() ? r.end - context + 1 : r.start - context;
        LineNo last = r.end + context;
        spans.push_back({std::max<LineNo>(1, first), std::min(n, last), r, i, anchors[i]->best});
    }
    std::stable_sort(spans.begin(), spans.end(),
                     [](const Span& a, const Span& b) { return a.first < b.first; });
    std::vector<std::vector<Span>> groups;
    LineNo group_last = 0;
    for (const Span& s : spans) {
        if (!groups.empty() && s.first <= group_last + 1) {
            groups.back().push_back(s);
            group_last = std::max(group_last, s.last);
            continue;
        }
        groups.push_back({s});
        group_last = s.last;
    }
    return groups;
}

// The window of one group of merged spans over the file's `lines`.
Window group_window(const std::string& path, const std::vector<Span>& group,
                    const std::vector<std::string_view>& lines, const WindowOptions& options) {
    Window w;
    w.path = path;
    w.first = group.front().first;
    for (const Span& s : group) {
        w.last = std::max(w.last, s.last);
        w.anchors.push_back(s.anchor);
    }
    std::sort(w.anchors.begin(), w.anchors.end());
    // Which lines of the window some anchor's range holds.
    std::vector<char> anchored(static_cast<std::size_t>(std::max<LineNo>(0, w.last - w.first + 1)));
    auto is_anchored = [&](LineNo line) {
        return anchored[static_cast<std::size_t>(line - w.first)] != 0;
    };
    for (const Span& s : group)
        for (LineNo line = std::max(s.anchored.start, w.first);
             line <= std::min(s.anchored.end, w.last); ++line)
            anchored[static_cast<std::size_t>(line - w.first)] = 1;
    auto is_best = [&](LineNo line) {
        return std::any_of(group.begin(), group.end(), [&](const Span& s) {
            return s.best && s.best->start <= line && line <= s.best->end;
        });
    };

    // The enclosing definition of the first anchored line (or of the gap).
    LineNo first_anchored = w.first;
    while (first_anchored <= w.last && !is_anchored(first_anchored)) ++first_anchored;
    if (first_anchored > w.last) first_anchored = group.front().anchored.end;
    w.definition = enclosing_definition(path, lines, first_anchored);

    LineNo shown = 0;
    for (LineNo line = w.first; line <= w.last; ++line) {
        if (is_anchored(line) && shown == options.max_anchored) {
            w.omitted_from = line;
            w.omitted_to = w.last;
            break;
        }
        shown += is_anchored(line);
        WindowLine wl;
        wl.number = line;
        wl.text = std::string(lines[static_cast<std::size_t>(line - 1)]);
        wl.cut_bytes = text::cut_line(wl.text, options.max_line_bytes);
        wl.anchored = is_anchored(line);
        wl.best = wl.anchored && is_best(line);
        w.lines.push_back(std::move(wl));
    }
    return w;
}

}  // namespace

std::vector<Window> build_windows(const std::vector<std::optional<TargetLines>>& anchors,
                                  const FileBytes& bytes, const WindowOptions& options) {
    std::vector<Window> windows;
    for (const auto& [path, members] : by_path(anchors)) {
        const std::string* content = bytes(path);
        if (!content || text::looks_binary(*content)) {
            windows.push_back(unavailable_window(path, members, anchors, !content));
            continue;
        }
        auto lines = text::split_lines(*content);
        const auto n = static_cast<LineNo>(lines.size());
        for (const auto& group : merged_spans(members, anchors, n, options.context))
            windows.push_back(group_window(path, group, lines, options));
    }
    std::stable_sort(windows.begin(), windows.end(), [](const Window& a, const Window& b) {
        return a.anchors.front() < b.anchors.front();
    });
    return windows;
}

}  // namespace cp
