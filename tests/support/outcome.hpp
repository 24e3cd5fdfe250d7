// The two shapes a bad input's answer takes, checked the same way by every test of the front
// ends: a usage error (exit 2, nothing on stdout, one line on stderr naming the problem) and
// an UNRESOLVED anchor in a printed pack (exit 1, the reason in the table).
#pragma once

#include <algorithm>
#include <string>

#include "support/catch.hpp"
#include "support/fixture.hpp"

namespace cptest {

inline void usage_error(const Output& o, const std::string& message) {
    INFO(o.err);
    CHECK(o.status == 2);
    CHECK(o.out.empty());
    CHECK(o.err.find(message) != std::string::npos);
    CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
}

inline void unresolved(const Output& o, const std::string& reason) {
    INFO(o.out << o.err);
    CHECK(o.status == 1);
    CHECK(o.out.find("UNRESOLVED") != std::string::npos);
    CHECK(o.out.find(reason) != std::string::npos);
}

}  // namespace cptest
