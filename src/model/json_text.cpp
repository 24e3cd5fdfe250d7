#include "context_pack/model/json_text.hpp"

#include <fmt/format.h>

namespace cp {
namespace {

// Thrown by the parser callback at the first array or object past the limit, which stops the
// parse there: the value is never built deeper.
struct TooDeep {};

std::string parse_message(const std::exception& e) {
    // nlohmann prefixes "[json.exception.parse_error.101] parse error at line 1, column 2: "
    std::string_view what = e.what();
    if (auto p = what.find("] "); p != std::string_view::npos) what.remove_prefix(p + 2);
    return std::string(what);
}

template <class Json>
Result<Json> parse(std::string_view text) {
    auto bounded = [](int depth, nlohmann::json::parse_event_t event, Json&) {
        // depth counts the arrays and objects around this one: 0 for the outermost.
        if ((event == nlohmann::json::parse_event_t::object_start ||
             event == nlohmann::json::parse_event_t::array_start) &&
            depth >= kMaxJsonDepth)
            throw TooDeep{};
        return true;
    };
    try {
        return Json::parse(text, bounded);
    } catch (const TooDeep&) {
        return Error{fmt::format("arrays and objects nested deeper than {} levels", kMaxJsonDepth)};
    } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for 1e400
        return Error{parse_message(e)};
    }
}

}  // namespace

Result<nlohmann::json> parse_json(std::string_view text) {
    return parse<nlohmann::json>(text);
}

Result<nlohmann::ordered_json> parse_ordered_json(std::string_view text) {
    return parse<nlohmann::ordered_json>(text);
}

}  // namespace cp
