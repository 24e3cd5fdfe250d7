// The allocator's settings (src/sys/posix.cpp): with glibc's allocator, a large block comes
// from the arena and stays with it once freed, until release_freed_memory gives it back, and
// the heaps are asked for huge pages where the kernel has them. Elsewhere (another C library,
// a sanitizer's allocator) the calls change nothing to test.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

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

// The flags of the mapping that holds `p` (/proc/self/smaps' VmFlags: "hg" is huge pages
// asked for); empty if no mapping holds it.
std::string vm_flags_at(const void* p) {
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    std::ifstream smaps("/proc/self/smaps");
    bool inside = false;
    for (std::string line; std::getline(smaps, line);) {
        std::uintptr_t from = 0, to = 0;
        char dash = 0;
        std::istringstream head(line);
        if (head >> std::hex >> from >> dash >> to && dash == '-') {
            inside = from <= at && at < to;
            continue;
        }
        if (inside && line.rfind("VmFlags:", 0) == 0) return line.substr(8) + " ";
    }
    return {};
}

// Whether this kernel has transparent huge pages (madvise may ask for them).
bool kernel_has_huge_pages() {
    return std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good();
}

}  // namespace

TEST_CASE("memory: the main heap and a thread's are asked for huge pages") {
    if (!kernel_has_huge_pages()) {
        SUCCEED("no transparent huge pages in this kernel: nothing is asked");
        return;
    }
    cp::sys::keep_freed_memory();
    constexpr std::size_t kBlock = std::size_t{8} << 20;  // spans a huge page of the pad
    auto* main_block = static_cast<char*>(std::malloc(kBlock));
    REQUIRE(main_block != nullptr);
    CHECK(vm_flags_at(main_block + kBlock / 2).find(" hg ") != std::string::npos);
    std::free(main_block);

    std::string asked, not_asked;
    std::atomic<bool> looked{false}, compared{false};
    std::thread asking([&] {
        cp::sys::huge_pages_for_this_thread();
        auto* block = static_cast<char*>(std::malloc(kBlock));
        if (block) asked = vm_flags_at(block + kBlock / 2);
        looked = true;
        while (!compared) std::this_thread::yield();  // its arena in use: the other gets one
        std::free(block);
    });
    while (!looked) std::this_thread::yield();
    std::thread([&] {  // a thread that does not ask, with an arena of its own
        auto* block = static_cast<char*>(std::malloc(kBlock));
        if (block) not_asked = vm_flags_at(block + kBlock / 2);
        std::free(block);
    })
        .join();
    compared = true;
    asking.join();
    CHECK(asked.find(" hg ") != std::string::npos);
    CHECK_FALSE(not_asked.empty());
    CHECK(not_asked.find(" hg ") == std::string::npos);
}

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
