// zlib's inflate, as every read of an object calls it (libgit2's packs, our loose objects),
// through libdeflate where the whole stream is at hand: a pack's object is inflated in one
// call whose input runs past its end and whose output has room for all of it, and libdeflate
// decodes such a buffer about twice as fast as zlib (docs/performance.md). Where the link
// wraps inflate (CONTEXT_PACK_FAST_INFLATE, cmake/Libgit2.cmake), a fresh stream is first
// offered to libdeflate; anything it does not take whole (a stream cut at a window's end, a
// small output such as a delta's header, damaged bytes, a preset dictionary) goes to zlib
// as it came, untouched, so zlib's answers and its errors are what the caller sees.
#include "context_pack/git/repository.hpp"

#if CONTEXT_PACK_FAST_INFLATE
#include <libdeflate.h>
#include <zlib.h>

#include <atomic>
#include <cstdint>

extern "C" int __real_inflate(z_streamp strm, int flush);

namespace {

std::atomic<std::uint64_t> whole_streams{0};

// One a thread, made when the thread first inflates, freed when it ends.
struct Decompressor {
    libdeflate_decompressor* d = libdeflate_alloc_decompressor();
    Decompressor() = default;
    Decompressor(const Decompressor&) = delete;
    Decompressor& operator=(const Decompressor&) = delete;
    ~Decompressor() { libdeflate_free_decompressor(d); }
};

// Below this much room for output (a delta's 32-byte header read), zlib alone: libdeflate
// would build its tables only to stop short.
constexpr uInt kLeastOutput = 512;

}  // namespace

extern "C" int __wrap_inflate(z_streamp strm, int flush) {
    if (strm && strm->total_in == 0 && strm->total_out == 0 && strm->next_in && strm->next_out &&
        strm->avail_in >= 6 && strm->avail_out >= kLeastOutput) {
        thread_local Decompressor one;
        std::size_t in = 0, out = 0;
        if (one.d &&
            libdeflate_zlib_decompress_ex(one.d, strm->next_in, strm->avail_in, strm->next_out,
                                          strm->avail_out, &in, &out) == LIBDEFLATE_SUCCESS) {
            // As zlib leaves a stream it read to its end. zlib's own state was never used:
            // the callers end or reset the stream after Z_STREAM_END, never inflate it again.
            const Bytef* trailer = strm->next_in + in - 4;  // the Adler-32 libdeflate checked
            strm->adler = (uLong{trailer[0]} << 24) | (uLong{trailer[1]} << 16) |
                          (uLong{trailer[2]} << 8) | uLong{trailer[3]};
            strm->next_in += in;
            strm->avail_in -= static_cast<uInt>(in);
            strm->total_in += in;
            strm->next_out += out;
            strm->avail_out -= static_cast<uInt>(out);
            strm->total_out += out;
            whole_streams.fetch_add(1, std::memory_order_relaxed);
            return Z_STREAM_END;
        }
    }
    return __real_inflate(strm, flush);
}

namespace cp::git {
std::uint64_t streams_inflated_whole() {
    return whole_streams.load(std::memory_order_relaxed);
}
}  // namespace cp::git

#else

namespace cp::git {
std::uint64_t streams_inflated_whole() {
    return 0;
}
}  // namespace cp::git

#endif
