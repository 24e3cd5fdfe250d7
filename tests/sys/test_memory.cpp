// The allocator's settings (src/sys/posix.cpp): with glibc's allocator, a large block comes
// from the arena and stays with it once freed, until release_freed_memory gives it back.
// Elsewhere (another C library, a sanitizer's allocator) the calls change nothing to test.
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "context_pack/sys/memory.hpp"
#include "support/catch.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CP_TEST_OWN_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define CP_TEST_OWN_ALLOCATOR 1
#endif
#endif

#if defined(__GLIBC__) && defined(__linux__) && !defined(CP_TEST_OWN_ALLOCATOR)
#include <malloc.h>
#include <unistd.h>

namespace {

// Resident bytes of this process (/proc/self/statm's second field, in pages).
std::size_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t size = 0, resident = 0;
    statm >> size >> resident;
    return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

TEST_CASE("memory: a freed large block is kept for reuse, and given back when asked") {
    cp::sys::keep_freed_memory();
    // Under glibc's defaults, in a process that has freed no large block yet (ctest runs each
    // test case in a process of its own), a block this large is a mapping of its own,
    // unmapped when it is freed.
    constexpr std::size_t kBlock = std::size_t{24} << 20;
    const std::size_t mapped_before = mallinfo2().hblkhd;
    auto* block = static_cast<char*>(std::malloc(kBlock));
    REQUIRE(block != nullptr);
    std::memset(block, 1, kBlock);
    CHECK(mallinfo2().hblkhd == mapped_before);  // no mapping of its own
    const std::size_t resident = resident_bytes();
    std::free(block);
    CHECK(mallinfo2().fordblks >= kBlock);              // free in the arena
    CHECK(resident_bytes() + (kBlock / 2) > resident);  // and still resident
    cp::sys::release_freed_memory();
    CHECK(resident_bytes() + (kBlock / 2) < resident);  // its pages handed back
}
#endif
