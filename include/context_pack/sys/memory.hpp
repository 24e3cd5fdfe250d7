// What the C library's allocator does with freed memory (src/sys/posix.cpp,
// src/sys/windows.cpp).
#pragma once

#include <cstddef>

namespace cp::sys {

// Freed memory kept for the next allocations instead of given back to the kernel at once,
// and the main thread's heap grown in large steps backed by huge pages where the kernel gives
// them on request. glibc's defaults give a large block (128 KiB and up: most blobs, the
// diff's tables) its own mapping, unmapped when it is freed, hand a thread's arena back as
// soon as 128 KiB of it is free, and grow it 128 KiB at a time: each blob read after that
// faults its pages in again, 4 KiB at a time, and the faults cost more than the reads that
// touch the pages (docs/performance.md, issue 17, round ten). Called first thing in main,
// before any thread runs; nothing to do where the C library is not glibc on Linux.
void keep_freed_memory();

// The calling thread's heap (its glibc arena, made at its first allocation) backed by huge
// pages where the kernel gives them on request (transparent_hugepage "madvise" or "always"):
// first thing on each thread that reads and diffs (the pool's, an MCP call's).
void huge_pages_for_this_thread();

// Gives freed memory back to the kernel: a long-lived process (the MCP server) between the
// calls it runs, so that a large call's memory does not stay with it.
void release_freed_memory();

// Whether the process could not reserve `bytes` more of address space now (a ulimit -v, a
// 32-bit process's end): reserved and let go at once, nothing touched. What tells a read
// that failed for want of memory (a pack window libgit2 could not map) from damage or
// absence, which libgit2's words do not always tell.
bool address_space_short(std::size_t bytes);

}  // namespace cp::sys
