// The build's paths, given to this file alone (tests/CMakeLists.txt), so that every other test
// file compiles to the same object in every build directory.
#include "support/fixture.hpp"

namespace cptest {

std::string binary() {
    return CONTEXT_PACK_BINARY;
}

std::string source_dir() {
    return CONTEXT_PACK_SOURCE_DIR;
}

}  // namespace cptest
