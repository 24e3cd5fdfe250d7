#include "context_pack/resolve/pool.hpp"

#include <algorithm>
#include <system_error>

namespace cp {

std::unique_ptr<Pool> Pool::start(const git::Repository& repo, unsigned threads,
                                  const std::function<void()>& on_start) {
    if (threads == 0) threads = std::min(std::thread::hardware_concurrency(), 8u);
    if (threads < 2) return nullptr;
    std::unique_ptr<Pool> pool(new Pool());
    for (unsigned i = 0; i < threads; ++i) {
        auto reader = repo.open_reader();
        if (!reader) return nullptr;  // the main thread reads everything itself
        pool->readers_.push_back(std::move(reader).value());
    }
    for (const git::Repository& reader : pool->readers_) {
        try {
            pool->threads_.emplace_back([p = pool.get(), &reader, on_start] {
                if (on_start) on_start();
                p->loop(reader);
            });
        } catch (const std::system_error&) {
            break;  // a process limit: work with the threads there are
        }
    }
    if (pool->threads_.size() < 2) return nullptr;
    return pool;
}

Pool::~Pool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
        queue_.clear();  // their futures report broken promises; nobody waits on them now
    }
    ready_.notify_all();
    for (auto& t : threads_) t.join();
}

void Pool::loop(const git::Repository& reader) {
    for (;;) {
        std::function<void(const git::Repository&)> job;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            job = std::move(queue_.front());
            queue_.pop_front();
        }
        job(reader);
    }
}

}  // namespace cp
