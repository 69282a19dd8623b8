#!/usr/bin/env bash
# arrayx on a GPU machine, from the repository root: build, smoke test, the CUDA tests, the
# CuPy benchmark, the conformance suite and the whole test suite on cuda:0.
#
#   bash tools/gpu_check.sh all                      # every step, in the order below
#   bash tools/gpu_check.sh build smoke cudatests    # a subset, in the order given
#
# tools/gpu_session.sh runs these steps for one device call, conformance and fulltests at once.
#
# Steps (limits in seconds; each also stops where the whole run's budget would be passed):
#   build        setup.py build_ext --inplace -j $(nproc); if that fails pip install -e (BUILD=pip:
#                pip first)                                                                         300
#   smoke        cuda:0 arrays: x + 1, sum, to_device("cpu"), 10^7 elements                        120
#   precompile   every NVRTC module into CuPy's disk cache, $(nproc) at a time, so that xdist's
#                workers do not each compile the same modules on their first tests                 120
#   cudatests    pytest tests/test_cuda.py $CUDA_TESTS_OPTS (default -x), ARRAYX_REQUIRE_CUDA=1     240
#   bench        python -m benchmarks --json $OUT/bench_cuda.json cuda                             150
#   conformance  conformance/run.py .gpu/array-api-tests, 200 examples, -n $JOBS, on cuda:0          200
#   fulltests    pytest tests (but test_cuda.py) -n $JOBS --timeout 60, ARRAYX_DEVICE=cuda:0         240
# Every invocation first prints the machine (nvidia-smi, versions) and installs the wheels of
# .gpu/whl that the machine lacks into /tmp/site (on PYTHONPATH, after src/; the machine's own
# packages are never shadowed, except hypothesis when it is older than the suite needs, from
# .gpu/whl-hypothesis).
#
# Settings (environment): OUT (where the logs go; the device sets it), PYTHON (python3),
# GPU_CHECK_BUDGET (540: seconds for all steps), JOBS (8: xdist workers), LIMIT_<step>
# (a step's own limit), CUDA_TESTS_OPTS (-x), BUILD (inplace; pip).
# Files written to $OUT (8): env_smoke.log build.log cuda_tests.log bench_cuda.log
# bench_cuda.json conformance_gpu.log tests_gpu.log summary.txt. stdout ends with the summary.

set -o pipefail
export PYTHONUNBUFFERED=1 PYTHONFAULTHANDLER=1 PYTHONDONTWRITEBYTECODE=1
export COLUMNS=200  # pytest's one-line failure summaries are cut at the terminal's width
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO" || exit 2
OUT=${OUT:-/tmp/gpu_check_out}
mkdir -p "$OUT"
PY=${PYTHON:-python3}
BUDGET=${GPU_CHECK_BUDGET:-540}
JOBS=${JOBS:-8}
CUDA_TESTS_OPTS=${CUDA_TESTS_OPTS:--x}
SUITE_DIR=.gpu/array-api-tests
DEVICE=${GPU_CHECK_DEVICE:-cuda:0}  # ARRAYX_DEVICE of conformance and fulltests (cpu: a dry run)
ALL_STEPS=(build smoke precompile cudatests bench conformance fulltests)
declare -A LIMIT=([build]=300 [smoke]=120 [precompile]=120 [cudatests]=240 [bench]=150
                  [conformance]=200 [fulltests]=240)
for s in "${ALL_STEPS[@]}"; do
    v=LIMIT_$s
    [ -n "${!v}" ] && LIMIT[$s]=${!v}
done

steps=()
for a in "$@"; do
    if [ "$a" = all ]; then steps+=("${ALL_STEPS[@]}")
    elif [ -n "${LIMIT[$a]}" ]; then steps+=("$a")
    else echo "gpu_check: unknown step '$a' (steps: all ${ALL_STEPS[*]})"; exit 2
    fi
done
[ ${#steps[@]} -eq 0 ] && { echo "usage: bash tools/gpu_check.sh all | STEP... (${ALL_STEPS[*]})"; exit 2; }

ROWS=()          # one summary line per step
EXTRA=""         # text printed after the rows (failures, the benchmark table)
BUILD_FAILED=""
: > "$OUT/summary.txt"

row() {  # step status seconds detail
    local line
    line=$(printf '%-12s %-8s %5s  %s' "$1" "$2" "$3" "$4")
    ROWS+=("$line")
    echo "$line" >> "$OUT/summary.txt"
}

status_of() {  # exit code -> ok / FAIL / TIMEOUT
    case $1 in
        0) echo ok ;;
        124|137|130) echo TIMEOUT ;;
        *) echo "FAIL($1)" ;;
    esac
}

time_for() {  # the seconds step $1 may run: its limit, within what is left of the budget
    local want=${LIMIT[$1]} left=$(( BUDGET - SECONDS - 10 ))
    (( left < want )) && want=$left
    echo "$want"
}

# A limited command: SIGINT first (pytest then prints what it has), a kill 20 s later.
limited() { local t=$1; shift; timeout -s INT -k 20 "$t" "$@"; }

pytest_counts() {  # the last pytest count line of log $1
    grep -aE '[0-9]+ (passed|failed|error|errors|skipped|xfailed|xpassed|deselected)|no tests ran' \
        "$1" | tail -1 | sed -E 's/=+//g; s/^ +| +$//g'
}

failures_by_file() {  # "count file" of the FAILED/ERROR lines (-rfE) of log $1, top $2
    grep -aE '^(FAILED|ERROR) ' "$1" | sed -E 's/^(FAILED|ERROR) //; s/::.*//; s/ .*//; s#.*/##' \
        | sort | uniq -c | sort -rn | head -"${2:-12}"
}

section() {  # add "== $1" and the text $2 to the summary's extra lines, if $2 is not empty
    [ -n "${2//[[:space:]]/}" ] && EXTRA+=$'\n'"== $1"$'\n'"$2"
}

raised_at() {  # "count file:line" where the failures of log $1 (--tb=line) were raised, top $2
    awk '/^=+ (FAILURES|ERRORS) =+$/ {on=1; next} /^=+ .* =+$/ {on=0}
         on && /^[^ ]+\.(py|pyx|pxd):[0-9]+: / {split($1, p, ":"); n=split(p[1], f, "/");
         print f[n] ":" p[2]}' "$1" | sort | uniq -c | sort -rn | head -"${2:-8}"
}

# --- the machine, and the wheels it lacks ---------------------------------------------------

setup() {
    {
        echo "== machine"
        if command -v nvidia-smi >/dev/null; then nvidia-smi 2>&1 | head -20
        else echo "nvidia-smi: not found"; fi
        echo "python: $($PY -c 'import sys; print(sys.version.split()[0], sys.executable)' 2>&1)"
        echo "g++: $(g++ --version 2>&1 | head -1)"
        echo "nvcc: $(nvcc --version 2>&1 | tail -2 | head -1)"
        echo "cpus: $(nproc)"
    } 2>&1 | tee "$OUT/env_smoke.log"
    export PYTHONPATH="$REPO/src${PYTHONPATH:+:$PYTHONPATH}"
    local wheels=() w dist
    for w in .gpu/whl/*.whl; do
        [ -f "$w" ] || continue
        dist=$(basename "$w" | cut -d- -f1)
        if $PY -c "import importlib.metadata as m, sys; m.version(sys.argv[1])" "$dist" 2>/dev/null
        then echo "wheel $dist: the machine has it; not installed"
        else wheels+=("$w")
        fi
    done
    local old_hypothesis
    old_hypothesis=$($PY - <<'EOF' 2>/dev/null
import importlib.metadata as m
try:
    v = tuple(int(p) for p in m.version("hypothesis").split(".")[:2])
    print("yes" if v < (6, 151) else "")
except Exception:
    print("yes")
EOF
)
    if [ -n "$old_hypothesis" ] && ls .gpu/whl-hypothesis/*.whl >/dev/null 2>&1; then
        echo "hypothesis: missing or older than 6.151 (the suite's need): using .gpu/whl-hypothesis"
        wheels+=(.gpu/whl-hypothesis/*.whl)
    fi
    if [ ${#wheels[@]} -gt 0 ]; then
        if $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
               --target /tmp/site "${wheels[@]}" 2>&1 | grep -v "Running pip as the 'root'"; then :; fi
        export PYTHONPATH="$PYTHONPATH:/tmp/site"
        echo "installed into /tmp/site: ${wheels[*]##*/}"
    fi
    $PY - <<'EOF' 2>&1 | tee -a "$OUT/env_smoke.log"
import importlib.metadata as m
names = ["numpy", "cupy-cuda13x", "cupy-cuda12x", "hypothesis", "pytest", "pytest-xdist",
         "pytest-timeout", "pytest-json-report", "ndindex", "Cython", "setuptools", "torch"]
have = []
for n in names:
    try:
        have.append(f"{n} {m.version(n)}")
    except m.PackageNotFoundError:
        pass
print("packages:", ", ".join(have))
try:
    import cupy
    rt = cupy.cuda.runtime
    v, d = rt.runtimeGetVersion(), rt.driverGetVersion()
    print(f"cupy {cupy.__version__}: CUDA runtime {v // 1000}.{v % 1000 // 10}, driver "
          f"{d // 1000}.{d % 1000 // 10}, {rt.getDeviceCount()} GPU(s)")
except Exception as exc:
    print(f"cupy: {type(exc).__name__}: {exc}")
EOF
    # Per-test limits (pytest-timeout): 180 s in test_cuda.py, whose first tests compile
    # kernels, 60 s in the whole suite.
    if $PY -c "import pytest_timeout" 2>/dev/null; then
        TIMEOUT_OPT=(--timeout 60) CUDA_TIMEOUT_OPT=(--timeout 180)
    else TIMEOUT_OPT=() CUDA_TIMEOUT_OPT=(); echo "pytest-timeout missing: no per-test timeout"; fi
}

# --- steps -----------------------------------------------------------------------------------

step_build() {
    # build_ext --inplace first: it compiles on every core (here pip's editable build took
    # twice as long on 2 cores), and src/ is on PYTHONPATH; BUILD=pip tries pip first.
    local t how rc=1 tried=""
    local order=(inplace pip)
    [ "${BUILD:-inplace}" = pip ] && order=(pip inplace)
    : > "$OUT/build.log"
    for how in "${order[@]}"; do
        t=$(time_for build)
        (( t < 20 )) && break
        echo "== build: $how (limit ${t}s)" | tee -a "$OUT/build.log"
        if [ "$how" = inplace ]; then
            limited "$t" $PY setup.py build_ext --inplace -j "$(nproc)" >> "$OUT/build.log" 2>&1
        else
            limited "$t" $PY -m pip install --no-index --no-build-isolation --no-deps -e . \
                >> "$OUT/build.log" 2>&1
        fi
        rc=$?
        tried+="${tried:+, then }$how (rc $rc)"
        [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ $rc -eq 137 ] && break
        tail -5 "$OUT/build.log" | cut -c1-200
    done
    tail -3 "$OUT/build.log" | cut -c1-200
    local where
    where=$(cd /tmp && $PY -c "import arrayx; print(arrayx.__version__, 'from', arrayx.__file__)" 2>&1 | tail -1)
    echo "import: $where"
    [ $rc -eq 0 ] && ! [[ $where == *" from "* ]] && rc=3
    [ $rc -ne 0 ] && BUILD_FAILED=1
    DETAIL="$tried; arrayx $where"
    return $rc
}

step_smoke() {
    local t=$1
    echo "== smoke (limit ${t}s)"
    limited "$t" $PY - <<'EOF' 2>&1 | tee -a "$OUT/env_smoke.log"
import sys
import time
import traceback

import numpy as np

import arrayx as xp

print("arrayx", xp.__version__, "from", xp.__file__)
devices = xp.__array_namespace_info__().devices()
print("devices():", devices, "default:", xp.__array_namespace_info__().default_device())
if not any(getattr(d, "kind", None) == "cuda" for d in devices):
    try:
        import cupy
        why = f"CuPy {cupy.__version__} sees {cupy.cuda.runtime.getDeviceCount()} GPU(s)"
    except Exception as exc:
        why = f"CuPy: {type(exc).__name__}: {exc}"
    print(f"SMOKE FAIL: arrayx lists no cuda device ({why})")
    sys.exit(1)


def attempt(label, fn):
    start = time.perf_counter()
    try:
        result = fn()
    except Exception:
        print(f"SMOKE FAIL at {label}:")
        traceback.print_exc(limit=8)
        sys.exit(1)
    shown = (f"Array {result.shape} {result.dtype} on {result.device}"
             if isinstance(result, xp.Array) else result)
    print(f"{label}: {shown}  ({time.perf_counter() - start:.2f} s)")
    return result


x = attempt("x = asarray([1., 2., 3.], device='cuda:0')",
            lambda: xp.asarray([1.0, 2.0, 3.0], device="cuda:0"))
print("x.device:", x.device)
y = attempt("y = x + 1 (first kernel: compiles)", lambda: x + 1)
back = attempt("y.to_device('cpu')", lambda: np.asarray(y.to_device("cpu")).tolist())
total = attempt("float(sum(y))", lambda: float(xp.sum(y)))
z = attempt("sum of 10^7 float32 ones", lambda: float(xp.sum(xp.ones(10**7, dtype=xp.float32,
                                                                     device="cuda:0"))))
e = attempt("exp(x) back on the host", lambda: np.asarray(xp.exp(x).to_device("cpu")).tolist())
ok = back == [2.0, 3.0, 4.0] and total == 9.0 and z == 1e7 and np.allclose(e, np.exp([1, 2, 3]))
print("SMOKE OK" if ok else "SMOKE FAIL: wrong values")
sys.exit(0 if ok else 1)
EOF
    local rc=$?
    DETAIL=$(grep -aE '^SMOKE' "$OUT/env_smoke.log" | tail -1)
    [ -z "$DETAIL" ] && DETAIL=$(tail -1 "$OUT/env_smoke.log")
    return $rc
}

step_precompile() {
    local t=$1 rc
    echo "== precompile: every NVRTC module, $(nproc) processes (limit ${t}s)"
    limited "$t" $PY -c "import sys, time; from arrayx._kernels.cuda import runtime
start = time.perf_counter(); n = runtime.precompile(int(sys.argv[1]))
print(f'precompiled {n} modules in {time.perf_counter() - start:.1f} s')" "$(nproc)" \
        > "$OUT/precompile.log" 2>&1
    rc=$?
    DETAIL=$(tail -1 "$OUT/precompile.log" | cut -c1-160)
    return $rc
}

step_cudatests() {
    local t=$1 rc
    echo "== tests/test_cuda.py $CUDA_TESTS_OPTS (limit ${t}s)"
    # shellcheck disable=SC2086
    limited "$t" env ARRAYX_REQUIRE_CUDA=1 $PY -m pytest tests/test_cuda.py $CUDA_TESTS_OPTS -q \
        -p no:cacheprovider --durations=10 "${CUDA_TIMEOUT_OPT[@]}" > "$OUT/cuda_tests.log" 2>&1
    rc=$?
    DETAIL=$(pytest_counts "$OUT/cuda_tests.log")
    [ -z "$DETAIL" ] && DETAIL=$(tail -1 "$OUT/cuda_tests.log" | cut -c1-160)
    section "tests/test_cuda.py: first failures" \
        "$(grep -aE '^(FAILED|ERROR) |^E  ' "$OUT/cuda_tests.log" | head -15 | cut -c1-200)"
    section "tests/test_cuda.py: slowest" "$(grep -aE '^[0-9.]+s (call|setup)' \
        "$OUT/cuda_tests.log" | head -3 | sed -E 's#tests/test_cuda.py::##' | cut -c1-120)"
    tail -3 "$OUT/cuda_tests.log"
    return $rc
}

step_bench() {
    local t=$1 rc
    echo "== benchmark: arrayx vs CuPy (limit ${t}s)"
    limited "$t" $PY -m benchmarks --json "$OUT/bench_cuda.json" cuda > "$OUT/bench_cuda.log" 2>&1
    rc=$?
    DETAIL=$(grep -aE '^targets met|^cuda: skipped' "$OUT/bench_cuda.log" | tail -1)
    [[ $DETAIL == "cuda: skipped"* ]] && [ $rc -eq 0 ] && rc=5  # no GPU run: not a pass
    [ -z "$DETAIL" ] && DETAIL=$(tail -1 "$OUT/bench_cuda.log")
    section "benchmark (bench_cuda.log)" "$(grep -aE \
        '^(gpu|peak bandwidth|cuda runtime|cuda driver|cupy|inputs)' "$OUT/bench_cuda.log")
$(sed -n '/^case /,$p' "$OUT/bench_cuda.log" | head -20)"
    [ $rc -ne 0 ] && [ $rc -ne 5 ] && section "benchmark: end of its log" \
        "$(tail -12 "$OUT/bench_cuda.log" | cut -c1-200)"
    return $rc
}

step_conformance() {
    local t=$1 rc
    if [ ! -d "$SUITE_DIR/array_api_tests" ]; then
        DETAIL="no suite at $SUITE_DIR (carry .gpu)"
        return 4
    fi
    echo "== conformance suite on $DEVICE, 200 examples, -n $JOBS (limit ${t}s)"
    # run.py kills its pytest on KeyboardInterrupt; a no-op SIGINT handler in run.py (reset to
    # the default in the pytest it starts) lets pytest stop on the timeout's SIGINT, report
    # what ran, and run.py print the counts.
    limited "$t" env ARRAYX_DEVICE="$DEVICE" $PY -c 'import runpy, signal, sys
signal.signal(signal.SIGINT, lambda *_: None)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")' conformance/run.py "$SUITE_DIR" --max-examples 200 \
        --disable-deadline -n "$JOBS" -q -rfE --tb=line > "$OUT/conformance_gpu.log" 2>&1
    rc=$?
    DETAIL=$(grep -aE '^passed=' "$OUT/conformance_gpu.log" | tail -1)
    [ -z "$DETAIL" ] && DETAIL=$(pytest_counts "$OUT/conformance_gpu.log")
    [ -z "$DETAIL" ] && DETAIL=$(tail -1 "$OUT/conformance_gpu.log" | cut -c1-160)
    section "conformance: failures by test file" "$(failures_by_file "$OUT/conformance_gpu.log" 10)"
    section "conformance: raised at" "$(raised_at "$OUT/conformance_gpu.log" 6)"
    tail -2 "$OUT/conformance_gpu.log"
    return $rc
}

step_fulltests() {
    local t=$1 rc
    echo "== tests/ on $DEVICE (ARRAYX_DEVICE), -n $JOBS (limit ${t}s)"
    limited "$t" env ARRAYX_DEVICE="$DEVICE" $PY -m pytest tests -q -n "$JOBS" -p no:cacheprovider \
        "${TIMEOUT_OPT[@]}" -rfE --tb=line --ignore=tests/test_cuda.py 2>&1 \
        | head -c 15000000 > "$OUT/tests_gpu.log"
    rc=$?
    DETAIL=$(pytest_counts "$OUT/tests_gpu.log")
    [ -z "$DETAIL" ] && DETAIL=$(tail -1 "$OUT/tests_gpu.log" | cut -c1-160)
    section "tests/ on $DEVICE: failures by test file" "$(failures_by_file "$OUT/tests_gpu.log" 15)"
    section "tests/ on $DEVICE: raised at" "$(raised_at "$OUT/tests_gpu.log" 8)"
    section "tests/ on $DEVICE: first failures" "$(grep -aE '^(FAILED|ERROR) ' \
        "$OUT/tests_gpu.log" | head -15 | cut -c1-180)"
    tail -2 "$OUT/tests_gpu.log"
    return $rc
}

# --- run ---------------------------------------------------------------------------------------

setup
for s in "${steps[@]}"; do
    t=$(time_for "$s")
    if [ -n "$BUILD_FAILED" ] && [ "$s" != build ]; then
        row "$s" skipped 0 "the build failed"
        continue
    fi
    if (( t < 20 )); then
        row "$s" skipped 0 "out of time (budget ${BUDGET}s)"
        continue
    fi
    DETAIL=""
    start=$SECONDS
    "step_$s" "$t"
    rc=$?
    st=$(status_of $rc)
    (( SECONDS - start >= t )) && [ $rc -ne 0 ] && st=TIMEOUT
    row "$s" "$st" $(( SECONDS - start )) "$DETAIL"
done

gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
summary=$(
    echo
    echo "================ gpu_check summary: ${gpu:-no nvidia-smi}; ${SECONDS}s of ${BUDGET}s"
    printf '%-12s %-8s %5s  %s\n' step status secs detail
    printf '%s\n' "${ROWS[@]}"
    echo "$EXTRA"
    echo "logs in \$OUT: $(cd "$OUT" && ls | tr '\n' ' ')"
)
echo "$summary" | tee "$OUT/summary.txt"
# Exit 1 when a step failed or ran out of time.
printf '%s\n' "${ROWS[@]}" | awk '$2 != "ok" && $2 != "skipped" {bad=1} END {exit bad}'
