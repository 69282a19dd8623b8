/* OpenMP where the build has it; single-threaded stubs where it does not. */
#pragma once
#ifdef _OPENMP
#include <omp.h>
#else
static inline int omp_get_max_threads(void) { return 1; }
#endif
