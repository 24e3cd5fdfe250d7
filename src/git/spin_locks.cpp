// pthread_mutex_lock, as the statically linked code calls it (libgit2's pack and window
// locks above all), spinning a little before it sleeps. Every object read takes a pack's
// locks (its index search, each window it opens), and the pool's threads read the same pack:
// a glibc mutex of the default kind sleeps in the kernel the moment it finds the lock held,
// though the holder lets go within a microsecond or two, and the sleep and the wake-up cost
// more than the wait (369 context switches a 12-pair batch of git/git, 74 with the spin;
// docs/performance.md). Where the link wraps the call (CONTEXT_PACK_SPIN_LOCKS,
// cmake/Libgit2.cmake: glibc, GNU ld, libgit2's archive), a lock first watches the mutex's
// word for a bounded number of pauses and takes it with trylock when it reads free; then it
// blocks as before. trylock takes a mutex of any kind as lock would (a recursive one held by
// this thread, again), and what it answers other than "busy" (a dead owner, a count at its
// limit) is lock's answer too.
#include <cerrno>

#if CONTEXT_PACK_SPIN_LOCKS
#include <pthread.h>

extern "C" int __real_pthread_mutex_lock(pthread_mutex_t* mutex);

extern "C" int __wrap_pthread_mutex_lock(pthread_mutex_t* mutex) {
    // About as long as a sleep and a wake-up take (5 to 30 microseconds, by the processor's
    // pause); 50 pauses were too few to matter, 400 to 2,000 did as well as each other.
    constexpr int kSpins = 500;
    for (int i = 0; i < kSpins; ++i) {
        if (__atomic_load_n(&mutex->__data.__lock, __ATOMIC_RELAXED) == 0) {
            const int rc = pthread_mutex_trylock(mutex);
            if (rc != EBUSY) return rc;
        }
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("yield");
#endif
    }
    return __real_pthread_mutex_lock(mutex);
}
#endif
