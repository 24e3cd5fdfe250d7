// Mutexes under the link's pthread_mutex_lock (src/git/spin_locks.cpp, where the link wraps
// it; the plain call elsewhere): exclusion under contention, a lock that must sleep until the
// holder lets go, and each kind's own answers.
#include <pthread.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "support/catch.hpp"

TEST_CASE("mutexes: threads contending for one still take it one at a time") {
    std::mutex m;
    long counter = 0;  // unguarded but by the mutex: a lost update shows in the sum
    int inside = 0;
    bool overlapped = false;
    constexpr int kThreads = 4, kRounds = 100000;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < kRounds; ++i) {
                std::lock_guard<std::mutex> hold(m);
                if (++inside != 1) overlapped = true;
                ++counter;
                --inside;
            }
        });
    for (auto& t : threads) t.join();
    CHECK_FALSE(overlapped);
    CHECK(counter == long{kThreads} * kRounds);
}

TEST_CASE("mutexes: a lock held longer than any spin waits, then takes it") {
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    REQUIRE(pthread_mutex_lock(&m) == 0);
    std::atomic<bool> released{false}, taken{false};
    std::thread waiter([&] {
        REQUIRE(pthread_mutex_lock(&m) == 0);
        taken = released.load();  // only after the holder let go
        pthread_mutex_unlock(&m);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    released = true;
    pthread_mutex_unlock(&m);
    waiter.join();
    CHECK(taken);
    pthread_mutex_destroy(&m);
}

TEST_CASE("mutexes: a recursive one is taken again, an error-checking one refuses") {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_t recursive;
    REQUIRE(pthread_mutex_init(&recursive, &attr) == 0);
    CHECK(pthread_mutex_lock(&recursive) == 0);
    CHECK(pthread_mutex_lock(&recursive) == 0);
    CHECK(pthread_mutex_unlock(&recursive) == 0);
    CHECK(pthread_mutex_unlock(&recursive) == 0);
    CHECK(pthread_mutex_trylock(&recursive) == 0);  // free again
    CHECK(pthread_mutex_unlock(&recursive) == 0);
    pthread_mutex_destroy(&recursive);

    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_t checking;
    REQUIRE(pthread_mutex_init(&checking, &attr) == 0);
    CHECK(pthread_mutex_lock(&checking) == 0);
    CHECK(pthread_mutex_lock(&checking) == EDEADLK);
    CHECK(pthread_mutex_unlock(&checking) == 0);
    pthread_mutex_destroy(&checking);
    pthread_mutexattr_destroy(&attr);
}
