#include "context_pack/core/window.hpp"

#include <algorithm>
#include <map>

#include "context_pack/core/text.hpp"

namespace cp {
namespace {

// One anchor's span at target, context included, clamped to the file.
struct Span {
    LineNo first, last;
    LineRange anchored;
    std::size_t anchor;
};

}  // namespace

std::vector<Window> build_windows(const std::vector<std::optional<TargetLines>>& anchors,
                                  const FileBytes& bytes, const WindowOptions& options) {
    // Group anchors by target path, keeping the order in which paths first appear.
    std::vector<std::string> order;
    std::map<std::string, std::vector<std::size_t>> by_path;
    for (std::size_t i = 0; i < anchors.size(); ++i) {
        if (!anchors[i]) continue;
        auto [it, added] = by_path.try_emplace(anchors[i]->path);
        if (added) order.push_back(anchors[i]->path);
        it->second.push_back(i);
    }

    std::vector<Window> windows;
    for (const auto& path : order) {
        const auto& members = by_path[path];
        const std::string* content = bytes(path);
        if (!content || text::looks_binary(*content)) {
            Window w;
            w.path = path;
            w.anchors = members;
            // The anchors' span, though not shown.
            w.first = anchors[members.front()]->lines.start;
            for (std::size_t i : members) {
                w.first = std::min(w.first, anchors[i]->lines.start);
                w.last = std::max(w.last, anchors[i]->lines.end);
            }
            w.unavailable = content ? "binary file at target: not shown"
                                    : "no readable file at target (absent, or over the file "
                                      "size limit): not shown";
            windows.push_back(std::move(w));
            continue;
        }
        auto lines = text::split_lines(*content);
        const LineNo n = static_cast<LineNo>(lines.size());
        const LineNo c = options.context;

        std::vector<Span> spans;
        for (std::size_t i : members) {
            const LineRange& to = anchors[i]->lines;
            LineRange r{to.start, std::min(to.end, n)};
            // An empty range (its lines deleted) shows the context around the gap.
            LineNo first = r.empty() ? r.end - c + 1 : r.start - c;
            LineNo last = r.end + c;
            spans.push_back({std::max<LineNo>(1, first), std::min(n, last), r, i});
        }
        std::stable_sort(spans.begin(), spans.end(),
                         [](const Span& a, const Span& b) { return a.first < b.first; });

        // Merge spans that overlap or touch into one window.
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

        for (const auto& group : groups) {
            Window w;
            w.path = path;
            w.first = group.front().first;
            for (const Span& s : group) {
                w.last = std::max(w.last, s.last);
                w.anchors.push_back(s.anchor);
            }
            std::sort(w.anchors.begin(), w.anchors.end());
            // Which lines of the window some anchor's range holds.
            std::vector<char> anchored(
                static_cast<std::size_t>(std::max<LineNo>(0, w.last - w.first + 1)));
            for (const Span& s : group)
                for (LineNo line = std::max(s.anchored.start, w.first);
                     line <= std::min(s.anchored.end, w.last); ++line)
                    anchored[static_cast<std::size_t>(line - w.first)] = 1;

            // The enclosing definition of the first anchored line (or of the gap).
            LineNo first_anchored = w.first;
            while (first_anchored <= w.last &&
                   !anchored[static_cast<std::size_t>(first_anchored - w.first)])
                ++first_anchored;
            if (first_anchored > w.last) first_anchored = group.front().anchored.end;
            w.definition = enclosing_definition(path, lines, first_anchored);

            LineNo shown = 0;
            for (LineNo line = w.first; line <= w.last; ++line) {
                bool is_anchored = anchored[static_cast<std::size_t>(line - w.first)];
                if (is_anchored && shown == options.max_anchored) {
                    w.omitted_from = line;
                    w.omitted_to = w.last;
                    break;
                }
                shown += is_anchored;
                WindowLine wl;
                wl.number = line;
                wl.text = std::string(lines[static_cast<std::size_t>(line - 1)]);
                wl.cut_bytes = text::cut_line(wl.text, options.max_line_bytes);
                wl.anchored = is_anchored;
                w.lines.push_back(std::move(wl));
            }
            windows.push_back(std::move(w));
        }
    }
    std::stable_sort(windows.begin(), windows.end(), [](const Window& a, const Window& b) {
        return a.anchors.front() < b.anchors.front();
    });
    return windows;
}

}  // namespace cp
