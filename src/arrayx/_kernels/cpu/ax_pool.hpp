// arrayx's own thread pool: fn(ctx, u) for every u in [0, units), the calling thread and up to
// threads - 1 pool workers taking units one at a time from a shared counter.
//
// Why not OpenMP: GNU OpenMP's idle workers spin for up to 300,000 pause loops (milliseconds)
// after each parallel region, holding the cores OpenBLAS's threads need for the product that
// follows, and a static or guided split waits for a worker that another process keeps off its
// core. Here a worker spins only briefly (AX_POOL_SPIN pauses, tens of microseconds), then
// sleeps on a condition variable; the units are small and taken one at a time, so the calling
// thread finishes what a late or descheduled worker has not started. No process-wide setting
// changes: the pool is arrayx's alone.
//
// An idle worker does not keep looking between sched_yield calls: a yielding thread stays
// runnable, and the scheduler shares a core between it and OpenBLAS's threads. On the 2-core
// Xeon (Emerald Rapids) ten milliseconds of yielding made the workloads that alternate
// products and elementwise ops 10-25% slower and their times bimodal (the MLP step 60-94 ms,
// one thread 63), where waking a sleeping worker costs the next job 0.03-0.05 ms (an exp of
// 10^6 elements, 0.6 ms, after a gap of 1-5 ms).
//
// On a machine whose cores are busy with other work, a worker that holds a unit can lose its
// core for a scheduler time slice (milliseconds), and the caller waits for it: more threads
// than free cores is slower than one thread. So the caller times each job: when it waited for
// other threads' units more than a quarter of the job (and over 50 us), the next jobs run on
// the caller alone for a while (5 ms, doubling while probes keep finding the cores busy, up to
// half a second), after which one job tries the workers again. The same happens when
// AX_POOL_ABSENT_JOBS jobs in a row of at least AX_POOL_ABSENT_US ran on the caller alone, no
// worker having taken a unit (shorter jobs the caller ran alone do not count either way):
// OpenBLAS's idle threads keep polling for work for a while after each product, and a worker
// woken beside them waited milliseconds for a core, then took it from the caller or from the
// next product (on the 2-core Xeon, over 20 runs of the workloads' MLP step, OpenBLAS's worker
// ran 1.23 s of the 1.36 s, arrayx's spent 1.1 s runnable and not running, and a step took
// 60-94 ms against one thread's 63; with the rule, 56-57 ms).
//
// The job's counter holds the job's generation in its high 24 bits and the next unit in its low
// 40: a worker claims a unit by a compare-and-swap that names the generation it read. A worker
// that wakes late may read the generation of a job that has ended and then fields (function,
// context, unit count) the next job's caller is writing; its claim must fail, or it would run a
// unit of the new job that the new job hands out again, and count it as finished there, so that
// the caller could return with a unit still running. So the caller first closes the old
// generation (the counter at the new generation with every unit taken, UNIT_MASK) and only then,
// after a release fence, writes the fields and opens the job; a worker reads the fields, then
// an acquire fence, then claims: whoever read any field of the new job sees the closed counter
// and claims nothing, and a worker that reads the closed counter itself waits for the post that
// follows. (On x86 both fences cost nothing: they only keep the compiler's order.)
// The caller returns when every unit has finished (not when every worker has looked), and a
// worker touches nothing of the job's after finishing its last unit. A job submitted while
// another runs (a second Python thread) runs on its caller alone. After fork() the child starts
// a fresh pool (its parent's workers do not exist there).
#pragma once
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <new>
#include <thread>

namespace ax_pool {

typedef void (*unit_fn)(void* ctx, int64_t unit);

constexpr int GEN_SHIFT = 40;
constexpr uint64_t UNIT_MASK = (uint64_t(1) << GEN_SHIFT) - 1;
#ifndef AX_POOL_SPIN
#define AX_POOL_SPIN 2000
#endif
#ifndef AX_POOL_ABSENT_JOBS
#define AX_POOL_ABSENT_JOBS 3
#endif
// A job the caller ran alone counts as one no worker came to only when it lasted this long:
// a shorter one may just have ended before a sleeping worker woke (tens of microseconds, on
// a virtual machine up to a millisecond), which says nothing of the cores being busy.
#ifndef AX_POOL_ABSENT_US
#define AX_POOL_ABSENT_US 200
#endif
// Runs between a job's fields and its opening, on the submitting thread: nothing, except in
// the test that widens that window (tests/native/pool_handoff.cpp).
#ifndef AX_POOL_HANDOFF_WINDOW
#define AX_POOL_HANDOFF_WINDOW() ((void)0)
#endif

inline void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

struct Pool {
    std::atomic<uint64_t> counter{0};    // generation << 40 | next unit
    std::atomic<int64_t> finished{0};    // units of the current job run to their end
    std::atomic<uint32_t> posted{0};     // the generation workers wait for
    std::atomic<int> sleepers{0};
    // The current job (written before counter and posted; atomics so that a worker's late
    // read is no data race).
    std::atomic<unit_fn> fn{nullptr};
    std::atomic<void*> ctx{nullptr};
    std::atomic<int64_t> units{0};
    std::atomic<int> helpers{0};         // workers that may take part in it
    int workers = 0;                     // workers started
    // Under the submit lock: until when jobs run on their caller alone, and for how long the
    // last contended probe sent them there.
    std::chrono::steady_clock::time_point serial_until{};
    std::chrono::microseconds backoff{0};
    int absent = 0;                      // jobs in a row that no worker took a unit of
    std::mutex submit;                   // one job at a time
    std::mutex sleep;
    std::condition_variable wake;
};

inline Pool* pool_instance = nullptr;    // never freed: workers may wait on it at exit

inline void reset_after_fork() noexcept {
    // The child has none of the parent's workers; the parent's pool is left as it was.
    pool_instance = new (std::nothrow) Pool();
}

inline Pool* pool() noexcept {
    static std::once_flag once;
    std::call_once(once, [] {
        pool_instance = new (std::nothrow) Pool();
        pthread_atfork(nullptr, nullptr, reset_after_fork);
    });
    return pool_instance;
}

// Claim the next unit of generation gen; -1 when that job has none left (or has ended).
inline int64_t claim(Pool* p, uint64_t gen, int64_t units) noexcept {
    uint64_t c = p->counter.load(std::memory_order_acquire);
    while ((c >> GEN_SHIFT) == gen && int64_t(c & UNIT_MASK) < units) {
        if (p->counter.compare_exchange_weak(c, c + 1, std::memory_order_acq_rel))
            return int64_t(c & UNIT_MASK);
    }
    return -1;
}

// Run units of the job whose generation is gen until none is left; how many this thread ran.
inline int64_t work(Pool* p, uint64_t gen, unit_fn fn, void* ctx, int64_t units) noexcept {
    int64_t u, ran = 0;
    while ((u = claim(p, gen, units)) >= 0) {
        fn(ctx, u);
        p->finished.fetch_add(1, std::memory_order_acq_rel);
        ++ran;
    }
    return ran;
}

inline void worker_loop(Pool* p, int index) noexcept {
    uint32_t seen = p->posted.load(std::memory_order_acquire);
    for (;;) {
        uint32_t now = p->posted.load(std::memory_order_acquire);
        for (int spin = 0; now == seen && spin < AX_POOL_SPIN; ++spin) {
            pause();
            now = p->posted.load(std::memory_order_acquire);
        }
        if (now == seen) {
            std::unique_lock<std::mutex> lock(p->sleep);
            p->sleepers.fetch_add(1, std::memory_order_seq_cst);
            p->wake.wait(lock, [&] {
                return p->posted.load(std::memory_order_seq_cst) != seen;
            });
            p->sleepers.fetch_sub(1, std::memory_order_relaxed);
            now = p->posted.load(std::memory_order_acquire);
        }
        seen = now;
        // A closed counter (every unit taken) is a job being set up: its post follows.
        const uint64_t c = p->counter.load(std::memory_order_acquire);
        if ((c & UNIT_MASK) == UNIT_MASK) continue;
        const int helpers = p->helpers.load(std::memory_order_relaxed);
        const unit_fn fn = p->fn.load(std::memory_order_relaxed);
        void* const ctx = p->ctx.load(std::memory_order_relaxed);
        const int64_t units = p->units.load(std::memory_order_relaxed);
        // Any field of a later job read above was written after that job's caller closed the
        // counter: from this fence on, the claim sees it closed and runs nothing.
        std::atomic_thread_fence(std::memory_order_acquire);
        if (index < helpers) work(p, c >> GEN_SHIFT, fn, ctx, units);
    }
}

// fn(ctx, u) for u in [0, units) on the calling thread and up to threads - 1 workers (on the
// calling thread alone when the pool cannot be had).
inline void parallel_for(int64_t units, int threads, unit_fn fn, void* ctx) noexcept {
    Pool* p = threads > 1 && units > 1 ? pool() : nullptr;
    std::unique_lock<std::mutex> job;
    if (p != nullptr) job = std::unique_lock<std::mutex>(p->submit, std::try_to_lock);
    using clock = std::chrono::steady_clock;
    const clock::time_point start = p != nullptr && job.owns_lock() ? clock::now()
                                                                   : clock::time_point{};
    if (p == nullptr || !job.owns_lock() || units >= int64_t(UNIT_MASK) ||
        start < p->serial_until) {
        for (int64_t u = 0; u < units; ++u) fn(ctx, u);
        return;
    }
    const int helpers = int(threads - 1 < units - 1 ? threads - 1 : units - 1);
    while (p->workers < helpers) {
        try {
            std::thread(worker_loop, p, p->workers).detach();
        } catch (...) {
            break;  // no more threads: the ones there are (and the caller) do the work
        }
        ++p->workers;
    }
    const uint64_t gen = ((p->counter.load(std::memory_order_relaxed) >> GEN_SHIFT) + 1) &
                         ((uint64_t(1) << (64 - GEN_SHIFT)) - 1);
    // Close the last job before its fields change (no claim of an older generation succeeds
    // from here on), and fence, so that a worker that reads a field written below sees this.
    p->counter.store((gen << GEN_SHIFT) | UNIT_MASK, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    p->fn.store(fn, std::memory_order_relaxed);
    p->ctx.store(ctx, std::memory_order_relaxed);
    p->units.store(units, std::memory_order_relaxed);
    p->helpers.store(helpers, std::memory_order_relaxed);
    p->finished.store(0, std::memory_order_relaxed);
    AX_POOL_HANDOFF_WINDOW();
    p->counter.store(gen << GEN_SHIFT, std::memory_order_release);
    p->posted.fetch_add(1, std::memory_order_seq_cst);
    if (p->sleepers.load(std::memory_order_seq_cst) > 0) {
        std::lock_guard<std::mutex> lock(p->sleep);
        p->wake.notify_all();
    }
    const bool alone = work(p, gen, fn, ctx, units) == units;
    bool contended = alone && clock::now() - start > std::chrono::microseconds(AX_POOL_ABSENT_US)
                     && ++p->absent >= AX_POOL_ABSENT_JOBS;
    // Units a worker still runs: wait for them, giving the core away if it takes long.
    if (!alone) {
        p->absent = 0;
        const clock::time_point own = clock::now();
        for (int spin = 0; p->finished.load(std::memory_order_acquire) < units; ++spin) {
            if (spin < AX_POOL_SPIN) pause();
            else sched_yield();
        }
        const clock::time_point end = clock::now();
        contended = end - own > std::chrono::microseconds(50) && (end - own) * 4 > end - start;
        if (!contended) p->backoff = std::chrono::microseconds(0);
    }
    if (contended) {
        using std::chrono::microseconds;
        p->absent = 0;
        p->backoff = p->backoff < microseconds(5000) ? microseconds(5000)
                     : p->backoff * 2 > microseconds(500000) ? microseconds(500000)
                     : p->backoff * 2;
        p->serial_until = clock::now() + p->backoff;
    }
}

}  // namespace ax_pool
