// The JSON writers against nlohmann::json's own: random documents, written call by call, print
// as dump prints them (compact, indented, spliced at a depth) and build the same document.
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "context_pack/output/json_writer.hpp"
#include "support/catch.hpp"

using nlohmann::ordered_json;

namespace {

// Bytes drawn to make strings: plain ASCII, what JSON escapes, and the pieces of UTF-8
// sequences, well-formed or not (overlong leads, surrogates, past U+10FFFF, lone
// continuations, sequences cut short).
std::string random_string(std::mt19937& rng) {
    static const unsigned char kPieces[] = {
        'a',  'Z',  '0',  ' ',  '~',  '"',  '\\', '/',  '\b', '\t', '\n', '\f', '\r',
        0x00, 0x01, 0x1b, 0x1f, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1,
        0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xff};
    std::string s;
    const int n = std::uniform_int_distribution<int>(0, 12)(rng);
    for (int i = 0; i < n; ++i) {
        if (rng() % 4 == 0) {  // a whole code point, encoded
            static const std::uint32_t kPoints[] = {0x7f,   0x80,   0x7ff,  0x800,   0xd7ff,
                                                    0xe000, 0xfffd, 0xffff, 0x10000, 0x10ffff,
                                                    0xe9,   0x4e2d, 0x1f600};
            const std::uint32_t cp = kPoints[rng() % std::size(kPoints)];
            if (cp < 0x80) {
                s += static_cast<char>(cp);
            } else if (cp < 0x800) {
                s += static_cast<char>(0xc0 | cp >> 6);
                s += static_cast<char>(0x80 | (cp & 0x3f));
            } else if (cp < 0x10000) {
                s += static_cast<char>(0xe0 | cp >> 12);
                s += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
                s += static_cast<char>(0x80 | (cp & 0x3f));
            } else {
                s += static_cast<char>(0xf0 | cp >> 18);
                s += static_cast<char>(0x80 | (cp >> 12 & 0x3f));
                s += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
                s += static_cast<char>(0x80 | (cp & 0x3f));
            }
        } else {
            s += static_cast<char>(kPieces[rng() % std::size(kPieces)]);
        }
    }
    return s;
}

ordered_json random_value(std::mt19937& rng, int depth) {
    const int kind = std::uniform_int_distribution<int>(0, depth < 4 ? 9 : 6)(rng);
    switch (kind) {
        case 0:
            return nullptr;
        case 1:
            return rng() % 2 == 0;
        case 2: {
            static const std::int64_t kInts[] = {0,
                                                 1,
                                                 -1,
                                                 9,
                                                 10,
                                                 -10,
                                                 123456789,
                                                 std::numeric_limits<std::int64_t>::min(),
                                                 std::numeric_limits<std::int64_t>::max()};
            return kInts[rng() % std::size(kInts)];
        }
        case 3: {
            static const std::uint64_t kUints[] = {0, 7, 1000,
                                                   std::numeric_limits<std::uint64_t>::max()};
            return kUints[rng() % std::size(kUints)];
        }
        case 4: {
            static const double kDoubles[] = {0.0, 1.0, -2.5, 0.1, 0.57, 1e300, 1.0 / 3, 100.0};
            return kDoubles[rng() % std::size(kDoubles)];
        }
        case 5:
        case 6:
            return random_string(rng);
        case 7:
        case 8: {
            ordered_json o = ordered_json::object();
            const int n = std::uniform_int_distribution<int>(0, 5)(rng);
            for (int i = 0; i < n; ++i) o[random_string(rng)] = random_value(rng, depth + 1);
            return o;
        }
        default: {
            ordered_json a = ordered_json::array();
            const int n = std::uniform_int_distribution<int>(0, 5)(rng);
            for (int i = 0; i < n; ++i) a.push_back(random_value(rng, depth + 1));
            return a;
        }
    }
}

// Writes `j` through a writer's calls.
template <class W>
void replay(W& w, const ordered_json& j) {
    switch (j.type()) {
        case ordered_json::value_t::object:
            w.begin_object();
            for (auto it = j.begin(); it != j.end(); ++it) {
                w.key(it.key());
                replay(w, it.value());
            }
            w.end_object();
            break;
        case ordered_json::value_t::array:
            w.begin_array();
            for (const auto& v : j) replay(w, v);
            w.end_array();
            break;
        case ordered_json::value_t::string:
            w.value(j.get_ref<const std::string&>());
            break;
        case ordered_json::value_t::boolean:
            w.value(j.get<bool>());
            break;
        case ordered_json::value_t::number_integer:
            w.value(j.get<std::int64_t>());
            break;
        case ordered_json::value_t::number_unsigned:
            w.value(j.get<std::uint64_t>());
            break;
        case ordered_json::value_t::number_float:
            w.value(j.get<double>());
            break;
        default:
            w.null();
    }
}

std::string dump(const ordered_json& j, int indent) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

TEST_CASE("JSON writers: random documents print as dump prints them and build the same document") {
    std::mt19937 rng(20261203);
    for (int round = 0; round < 3000; ++round) {
        const ordered_json j = random_value(rng, 0);
        INFO("round " << round << ": " << dump(j, -1));
        for (int indent : {-1, 0, 2, 4}) {
            std::string text;
            cp::JsonText w(text, indent);
            replay(w, j);
            CHECK(text == dump(j, indent));
        }
        // Spliced at depth 3 after text already there: dump's lines, each indented three
        // levels more.
        std::string text = "prefix";
        cp::JsonText w(text, 2, 3);
        replay(w, j);
        std::string expected = "prefix";
        for (char c : dump(j, 2)) {
            expected += c;
            if (c == '\n') expected += std::string(6, ' ');
        }
        CHECK(text == expected);

        cp::JsonDocument d;
        replay(d, j);
        CHECK(dump(d.take(), 2) == dump(j, 2));
    }
}

TEST_CASE("JSON writers: what each value prints as") {
    std::string text;
    cp::JsonText w(text, 2);
    w.begin_object();
    w.key("empty");
    w.begin_object();
    w.end_object();
    w.key("list");
    w.begin_array();
    w.value(std::size_t{3});
    w.value(-4);
    w.value("a\"b\\c\td\x01");
    w.value(std::string("caf\xc3\xa9 \xf0\x9f\x98\x80\x7f"));  // UTF-8 and DEL, as they are
    w.null();
    w.value(false);
    w.begin_array();
    w.end_array();
    w.end_array();
    w.end_object();
    CHECK(text ==
          "{\n"
          "  \"empty\": {},\n"
          "  \"list\": [\n"
          "    3,\n"
          "    -4,\n"
          "    \"a\\\"b\\\\c\\td\\u0001\",\n"
          "    \"caf\xc3\xa9 \xf0\x9f\x98\x80\x7f\",\n"
          "    null,\n"
          "    false,\n"
          "    []\n"
          "  ]\n"
          "}");
}
