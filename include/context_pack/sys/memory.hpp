// What the C library's allocator does with freed memory (src/sys/posix.cpp,
// src/sys/windows.cpp).
#pragma once

namespace cp::sys {

// Freed memory kept for the next allocations instead of given back to the kernel at once.
// glibc's defaults give a large block (128 KiB and up: most blobs, the diff's tables) its own
// mapping, unmapped when it is freed, and hand a thread's arena back as soon as 128 KiB of it
// is free: each blob read after that faults its pages in again, and a fault costs more than
// the copy that touched the page (docs/performance.md, issue 17, round ten). Called first
// thing in main, before any thread runs; nothing to do where the C library is not glibc.
void keep_freed_memory();

// Gives freed memory back to the kernel: a long-lived process (the MCP server) between the
// calls it runs, so that a large call's memory does not stay with it.
void release_freed_memory();

}  // namespace cp::sys
