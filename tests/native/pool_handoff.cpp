// The pool's job handoff under a late worker (tests/test_pool_handoff.py builds and runs it).
//
// Job A (2 units, which its caller runs alone, the workers still waking) then job B (64 units),
// with the submitting thread sleeping between B's fields and B's opening
// (AX_POOL_HANDOFF_WINDOW): a worker woken for A reads A's generation, then B's fields. Every
// unit of B must run exactly once, and none may still run when parallel_for returns.
// Prints one line per bad iteration and a summary; exits 1 if any iteration was bad.
#include <time.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

static std::atomic<bool> widen{false};

static void sleep_us(long us) {
    timespec ts{0, us * 1000};
    nanosleep(&ts, nullptr);
}

static void handoff_window() {
    if (widen.load(std::memory_order_relaxed)) sleep_us(200);
}

#define AX_POOL_HANDOFF_WINDOW() handoff_window()
#include "ax_pool.hpp"

constexpr int UNITS = 64;

struct CountJob {
    std::atomic<int> ran[UNITS];
    std::atomic<int> running{0};
};

static void count_unit(void* ctx, int64_t u) {
    CountJob* j = static_cast<CountJob*>(ctx);
    j->running.fetch_add(1);
    j->ran[u].fetch_add(1);
    for (volatile int i = 0; i < 2000; i = i + 1) {
    }
    j->running.fetch_sub(1);
}

static void nothing(void*, int64_t) {}

int main(int argc, char** argv) {
    const int iterations = argc > 1 ? std::atoi(argv[1]) : 300;
    static CountJob job;
    int bad = 0;
    for (int it = 0; it < iterations; ++it) {
        sleep_us(300);  // the workers go back to sleep (they spin briefly, then wait)
        widen = false;
        ax_pool::parallel_for(2, 3, &nothing, nullptr);
        for (auto& r : job.ran) r = 0;
        widen = true;
        ax_pool::parallel_for(UNITS, 3, &count_unit, &job);
        widen = false;
        const int still = job.running.load();
        sleep_us(200);  // a late second run of a unit shows here
        int wrong = -1;
        for (int u = 0; u < UNITS && wrong < 0; ++u)
            if (job.ran[u].load() != 1) wrong = u;
        if (still != 0 || wrong >= 0) {
            ++bad;
            std::printf("iteration %d: %d unit(s) running after parallel_for returned; unit %d "
                        "ran %d times\n", it, still, wrong, wrong < 0 ? 1 : job.ran[wrong].load());
        }
    }
    std::printf("%d bad of %d\n", bad, iterations);
    return bad != 0;
}
