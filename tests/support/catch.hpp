// Catch2, version 2 or 3, for every test file: include "support/catch.hpp", never Catch2's own
// headers. tests/CMakeLists.txt finds either and says which (CONTEXT_PACK_CATCH2_MAJOR). The
// tests are written against version 2's names; under version 3 the few that moved are given
// back: Approx at global scope, and Catch::Contains, Catch::StartsWith and Catch::EndsWith, the
// string matchers.
#pragma once

#if CONTEXT_PACK_CATCH2_MAJOR == 3
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <string>

namespace Catch {
inline Matchers::StringContainsMatcher Contains(const std::string& text,
                                                CaseSensitive cased = CaseSensitive::Yes) {
    return Matchers::ContainsSubstring(text, cased);
}
using Matchers::EndsWith;
using Matchers::StartsWith;
}  // namespace Catch
using Catch::Approx;
#elif CONTEXT_PACK_CATCH2_MAJOR == 2
#include <catch2/catch.hpp>
#else
#error "CONTEXT_PACK_CATCH2_MAJOR is 2 or 3 (tests/CMakeLists.txt)"
#endif
