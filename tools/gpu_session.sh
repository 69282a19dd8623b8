#!/usr/bin/env bash
# One device call's worth of GPU checks, with the suite and tests/ side by side: what a lent
# GPU's 15 minutes are best spent on. Run from the repository root on the GPU machine, with
# the suite and the wheels it lacks in .gpu (see tools/gpu_check.sh) carried:
#
#   bash tools/gpu_session.sh        # device tool: carry [".gpu"], timeout_s 500
#
# .gpu (ignored through .git/info/exclude, never committed) holds, made on this side first:
# array-api-tests/, a copy of the pinned suite (../shared/CONFORMANCE.md); whl/, the wheels the
# GPU machine's Python 3.12 lacks: ndindex, pytest-json-report, pytest-metadata and arrayx's own
# dependency scipy-openblas64 (without it the products share NumPy's OpenBLAS and
# test_blas_library fails); whl-hypothesis/, hypothesis >= 6.151. Each from
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
#       --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
#       --platform manylinux_2_24_x86_64 --platform manylinux_2_17_x86_64 -d .gpu/whl NAME==VERSION
# 1. build, smoke, precompile, tests/test_cuda.py (-n 8)     gpu_check.sh, budget 230 s
# 2. conformance (200 examples, -n 7) and tests/ on cuda:0 (-n 7), at once: 16 cores keep both
#    busy and the GPU is idle most of the time           two gpu_check.sh, budget 200 s each
# 3. the benchmark against CuPy                                              budget 40 s
# On an H100 (2026-11-26) the three took 150, 130 and 8 s; on an H200 (2026-11-27, with the
# precompile step) 188, 125 and 7 s, and the device call 330 s in all; on 2026-11-28, 155-190,
# 100-165 and 7-9 s, the device call 266-364 s (the first start of a machine about 45 s more). After each step every
# log so far is packed into $OUT/logs.tgz (the device tool brings back 8 files at most), so a
# run stopped at its limit still brings back what it did; stdout ends with each step's summary.
set -o pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
R=/tmp/gpu_session
OUT=${OUT:-/tmp/gpu_session_out}
mkdir -p "$R"/{a,b,c,d} "$OUT"
export JOBS=7
pack() { tar czf "$OUT/logs.tgz.tmp" -C "$R" . && mv "$OUT/logs.tgz.tmp" "$OUT/logs.tgz"; }
summary() { sed -n '/gpu_check summary/,$p' "$1" | head -"$2"; }

OUT=$R/a GPU_CHECK_BUDGET=230 LIMIT_build=150 LIMIT_smoke=40 LIMIT_precompile=40 \
    LIMIT_cudatests=120 CUDA_TESTS_OPTS="-n 8" \
    bash tools/gpu_check.sh build smoke precompile cudatests > "$R/a/stdout.log" 2>&1
pack
summary "$R/a/stdout.log" 20
# The first call installed the missing wheels into /tmp/site; the next ones find them there.
export PYTHONPATH=/tmp/site
OUT=$R/b GPU_CHECK_BUDGET=200 bash tools/gpu_check.sh conformance > "$R/b/stdout.log" 2>&1 &
OUT=$R/c GPU_CHECK_BUDGET=200 bash tools/gpu_check.sh fulltests > "$R/c/stdout.log" 2>&1 &
wait
pack
summary "$R/b/stdout.log" 16
summary "$R/c/stdout.log" 30
OUT=$R/d GPU_CHECK_BUDGET=40 LIMIT_bench=30 bash tools/gpu_check.sh bench > "$R/d/stdout.log" 2>&1
pack
summary "$R/d/stdout.log" 24
