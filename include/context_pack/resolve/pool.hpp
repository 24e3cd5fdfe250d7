// Threads that run tasks in the order given, each reading through a handle of its own on the
// repository (git::Repository::open_reader): libgit2 1.5 reads one handle's objects under one
// lock. The pipeline makes one pool a run (--jobs); resolution and the caller scan hand it
// what reads only objects, files or nothing at all: a whole pair of commits resolved, or the
// name diff of one, revisions, blobs, xdiff, tracked files for callers. Everything else stays
// on the main thread.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "context_pack/git/repository.hpp"

namespace cp {

class Pool {
  public:
    // `threads` threads (0: one a core, at most 8), or as many as can be started with their
    // handles; nullptr for fewer than 2 (one thread beside the main one gains little), and
    // the caller does the work itself. `on_start`, if given, is called first on each thread
    // (the pipeline's: sys::huge_pages_for_this_thread).
    static std::unique_ptr<Pool> start(const git::Repository& repo, unsigned threads,
                                       const std::function<void()>& on_start = {});
    ~Pool();  // drops the tasks not yet begun, waits for those running

    std::size_t size() const { return threads_.size(); }

    // Queues `task`, which is called with the running thread's repository handle; its result
    // (or exception) arrives through the future.
    template <class F>
    auto run(F task) -> std::future<decltype(task(std::declval<const git::Repository&>()))> {
        using R = decltype(task(std::declval<const git::Repository&>()));
        auto job = std::make_shared<std::packaged_task<R(const git::Repository&)>>(std::move(task));
        auto result = job->get_future();
        {
            std::lock_guard<std::mutex> lock(mutex_);
            queue_.emplace_back([job](const git::Repository& reader) { (*job)(reader); });
        }
        ready_.notify_one();
        return result;
    }

  private:
    Pool() = default;
    void loop(const git::Repository& reader);

    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::function<void(const git::Repository&)>> queue_;
    bool stopping_ = false;
    std::vector<git::Repository> readers_;  // one a thread, made before any starts
    std::vector<std::thread> threads_;
};

}  // namespace cp
