// Threads that run tasks in the order given. Resolution hands them what reads only objects
// (through a repository handle of their own, see git::Repository::open_reader) or nothing at
// all: the name diff of a pair of commits, blobs, xdiff (see resolve.cpp). Everything else
// stays on the main thread.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace cp {

class Pool {
  public:
    // `threads` threads, or as many as can be started; nullptr for fewer than 2 (one thread
    // beside the main one gains little) or none at all, and the caller does the work itself.
    static std::unique_ptr<Pool> start(unsigned threads);
    ~Pool();  // drops the tasks not yet begun, waits for those running

    std::size_t size() const { return threads_.size(); }

    // Queues `task`, which is called with the index of the thread that runs it (below size());
    // its result (or exception) arrives through the future.
    template <class F>
    auto run(F task) -> std::future<decltype(task(std::size_t{}))> {
        using R = decltype(task(std::size_t{}));
        auto job = std::make_shared<std::packaged_task<R(std::size_t)>>(std::move(task));
        auto result = job->get_future();
        {
            std::lock_guard<std::mutex> lock(mutex_);
            queue_.emplace_back([job](std::size_t thread) { (*job)(thread); });
        }
        ready_.notify_one();
        return result;
    }

  private:
    Pool() = default;
    void loop(std::size_t index);

    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::function<void(std::size_t)>> queue_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace cp
