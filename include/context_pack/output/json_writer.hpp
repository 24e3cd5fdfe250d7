// JSON written value by value, to text or to a document. The JSON printer's schema is one set
// of functions over a writer (json_output.cpp): JsonText prints what nlohmann::json's dump
// would print for the document, byte for byte, without the document ever being built (a
// batch's JSON is a megabyte: the document's nodes and keys cost five times its printing);
// JsonDocument builds the document, for the front ends that change it before it is printed
// (the cut markers) or hand it on (MCP's structuredContent).
#pragma once

#include <concepts>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace cp {

// Prints as `dump(indent, ' ', false, error_handler_t::replace)` does: `indent` -1 is the
// compact form, else spaces a level; `depth` is the nesting of the first value, for a value
// spliced into a document printed around it. Invalid UTF-8 is replaced as dump replaces it.
// Calls must make one well-formed value: a key before each member of an object, and every
// container ended.
class JsonText {
  public:
    explicit JsonText(std::string& out, int indent = -1, int depth = 0)
        : out_(out), indent_(indent), depth_(depth) {}

    void begin_object() { open('{'); }
    void end_object() { close('}'); }
    void begin_array() { open('['); }
    void end_array() { close(']'); }
    void key(std::string_view name);

    void null() { scalar("null"); }
    void value(bool b) { scalar(b ? "true" : "false"); }
    void value(double d);
    void value(std::string_view s);
    void value(const char* s) { value(std::string_view(s)); }
    void value(const std::string& s) { value(std::string_view(s)); }
    template <std::integral T>
    requires(!std::same_as<T, bool>) void value(T n) {
        before_value();
        if constexpr (std::is_signed_v<T>)
            if (n < 0) return append_integer(0 - static_cast<std::uint64_t>(n), true);
        append_integer(static_cast<std::uint64_t>(n), false);
    }

  private:
    void open(char bracket);
    void close(char bracket);
    void scalar(std::string_view text) {
        before_value();
        out_.append(text);
    }
    // The separator and indentation before a value: none after a key.
    void before_value();
    void newline_at(int depth);
    void append_integer(std::uint64_t magnitude, bool negative);
    void append_string(std::string_view s);

    std::string& out_;
    int indent_;
    int depth_;
    std::vector<bool> empty_;  // per open container: nothing in it yet
    bool after_key_ = false;
};

// Builds the nlohmann::ordered_json the same calls print with JsonText.
class JsonDocument {
  public:
    void begin_object() { open(nlohmann::ordered_json::object()); }
    void end_object() { open_.pop_back(); }
    void begin_array() { open(nlohmann::ordered_json::array()); }
    void end_array() { open_.pop_back(); }
    void key(std::string_view name) { key_.assign(name); }

    void null() { put(nullptr); }
    void value(bool b) { put(b); }
    void value(double d) { put(d); }
    void value(std::string_view s) { put(std::string(s)); }
    void value(const char* s) { put(std::string(s)); }
    void value(const std::string& s) { put(s); }
    template <std::integral T>
    requires(!std::same_as<T, bool>) void value(T n) { put(n); }

    // The value made, once every container is ended.
    nlohmann::ordered_json take() { return std::move(root_); }

  private:
    nlohmann::ordered_json& put(nlohmann::ordered_json v);
    void open(nlohmann::ordered_json empty) { open_.push_back(&put(std::move(empty))); }

    nlohmann::ordered_json root_;
    std::vector<nlohmann::ordered_json*> open_;  // the containers begun and not ended
    std::string key_;
};

}  // namespace cp
