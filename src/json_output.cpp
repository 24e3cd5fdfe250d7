#include "context_pack/json_output.hpp"

namespace cp {
namespace {

using nlohmann::ordered_json;

template <class T>
ordered_json or_null(const std::optional<T>& v) {
    return v ? ordered_json(*v) : ordered_json(nullptr);
}

ordered_json location_json(const std::optional<Location>& l) {
    if (!l) return nullptr;
    return ordered_json{{"path", l->path}, {"line", l->line}, {"end_line", l->end_line}};
}

ordered_json anchor_json(const AnchorResult& a) {
    const Anchor& in = a.anchor;
    ordered_json j;
    j["kind"] = in.kind == AnchorKind::Edit ? "edit" : "read";
    j["label"] = anchor_label(in);
    j["path"] = in.path;
    j["line"] = in.line;
    j["end_line"] = in.last_line();
    j["symbol"] = or_null(in.symbol);
    j["status"] = status_name(a.status);
    j["renamed"] = a.renamed;
    j["to"] = location_json(a.to);
    j["symbol_found"] = or_null(a.symbol_found);
    j["lines_deleted"] = a.lines_deleted;
    j["reason"] = or_null(a.reason);
    j["exists_at_target"] = or_null(a.exists_at_target);
    j["binary"] = a.binary;
    j[in.kind == AnchorKind::Edit ? "change" : "why"] = in.note;
    return j;
}

}  // namespace

ordered_json report_to_json(const Report& report) {
    ordered_json specs = ordered_json::array();
    for (const SpecReport& spec : report.specs) {
        ordered_json s;
        s["id"] = spec.id;
        s["source"] = spec.source;
        s["base"] = spec.base.empty() ? ordered_json(nullptr) : ordered_json(spec.base);
        s["base_rev"] = spec.base_rev;
        s["target"] = spec.target;
        s["target_rev"] = spec.target_rev.empty() ? ordered_json(nullptr)
                                                  : ordered_json(spec.target_rev);
        ordered_json anchors = ordered_json::array();
        for (const AnchorResult& a : spec.anchors) anchors.push_back(anchor_json(a));
        s["anchors"] = std::move(anchors);
        specs.push_back(std::move(s));
    }
    return ordered_json{{"format_version", kJsonFormatVersion},
                        {"exit_status", report.exit_status()},
                        {"specs", std::move(specs)}};
}

void print_json(std::ostream& out, const Report& report) {
    // Paths and symbols are bytes; invalid UTF-8 is replaced rather than aborting the print.
    out << report_to_json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
        << '\n';
}

}  // namespace cp
