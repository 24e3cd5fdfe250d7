#include "context_pack/pool.hpp"

#include <system_error>

namespace cp {

std::unique_ptr<Pool> Pool::start(unsigned threads) {
    if (threads < 2) return nullptr;
    std::unique_ptr<Pool> pool(new Pool());
    for (unsigned i = 0; i < threads; ++i) {
        try {
            pool->threads_.emplace_back([p = pool.get(), i] { p->loop(i); });
        } catch (const std::system_error&) {
            break;  // a process limit: work with the threads there are
        }
    }
    if (pool->threads_.empty()) return nullptr;
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

void Pool::loop(std::size_t index) {
    for (;;) {
        std::function<void(std::size_t)> job;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            job = std::move(queue_.front());
            queue_.pop_front();
        }
        job(index);
    }
}

}  // namespace cp
