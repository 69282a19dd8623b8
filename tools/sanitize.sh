#!/usr/bin/env bash
# Build arrayx with AddressSanitizer + UndefinedBehaviorSanitizer and run tests/ and the fuzzers
# under it. Exits non-zero when a test fails or any sanitizer report appears.
#
#   tools/sanitize.sh [extra pytest arguments]
#
# What it does:
#   1. copies the checkout's files (tracked, plus untracked ones git does not ignore: the
#      working tree as it is) into build/sanitize/src (only changed files are rewritten, so a
#      rerun recompiles only what changed);
#   2. builds them with ARRAYX_EXTRA_COMPILE_ARGS (see setup.py): -O1 -g
#      -fsanitize=address,undefined -fno-sanitize-recover=all, -fno-wrapv after Python's -fwrapv
#      (signed overflow is undefined again, so UBSan catches it) and -DAX_EXACT_ALLOC (storage
#      buffers end exactly at nbytes: no 64-byte alignment slack hiding small overruns);
#   3. installs that build (not editable) into the venv build/sanitize/venv
#      (--system-site-packages: pytest, hypothesis, numpy, scipy come from the system Python);
#   4. runs `pytest tests -n 2` with the ASan/UBSan runtimes preloaded into the (uninstrumented)
#      interpreter and PYTHONMALLOC=malloc, so ASan also sees Python's own allocations; child
#      interpreters the tests start inherit all of it;
#   5. runs every fuzzer of tests/fuzz_cases.py (if present) for SANITIZE_FUZZ_EXAMPLES cases;
#   6. fails on a pytest failure, a fuzzer failure, a report file in build/sanitize/logs (every
#      process, children included, writes its reports there) or a report in the output.
#
# Environment: PYTHON (default python3), SANITIZE_DIR (default build/sanitize),
# SANITIZE_JOBS (pytest-xdist workers, default 2), SANITIZE_FUZZ_EXAMPLES (default 300; 0 skips
# the fuzzers), SANITIZE_SKIP_TESTS=1 (fuzzers only).
set -uo pipefail

START=$(date +%s)
ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
PYTHON=${PYTHON:-python3}
DIR=${SANITIZE_DIR:-$ROOT/build/sanitize}
JOBS=${SANITIZE_JOBS:-2}
FUZZ_EXAMPLES=${SANITIZE_FUZZ_EXAMPLES:-300}
COPY=$DIR/src
VENV=$DIR/venv
LOGS=$DIR/logs

elapsed() { echo "sanitize: $1 after $(( $(date +%s) - START )) s"; }
die() { echo "sanitize: FAILED: $*" >&2; elapsed "failed"; exit 1; }

mkdir -p "$COPY" "$LOGS" || die "cannot create $DIR"
rm -f "$LOGS"/*

# --- 1. copy the working tree (only files whose bytes changed get a new mtime) ---------------
git -C "$ROOT" ls-files -z --cached --others --exclude-standard \
  | "$PYTHON" -c '
import os, shutil, sys
root, copy = sys.argv[1], sys.argv[2]
names = [n for n in sys.stdin.buffer.read().decode().split("\0") if n]
manifest = os.path.join(copy, ".sanitize-manifest")
old = set(open(manifest).read().split("\0")) if os.path.exists(manifest) else set()
keep = set()
for name in names:
    src, dst = os.path.join(root, name), os.path.join(copy, name)
    if not os.path.isfile(src):
        continue  # deleted in the working tree, still in the index
    keep.add(name)
    data = open(src, "rb").read()
    if not os.path.exists(dst) or open(dst, "rb").read() != data:
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(data)
        shutil.copymode(src, dst)
for name in old - keep:
    if name and os.path.exists(os.path.join(copy, name)):
        os.remove(os.path.join(copy, name))
with open(manifest, "w") as f:
    f.write("\0".join(sorted(keep)))
' "$ROOT" "$COPY" || die "copying the checkout"

# --- 2./3. build and install ------------------------------------------------------------------
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv --system-site-packages "$VENV" \
  || die "creating the venv"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
export ARRAYX_EXTRA_COMPILE_ARGS="-O1 -g -fno-omit-frame-pointer $SAN -fno-wrapv -DAX_EXACT_ALLOC"
export ARRAYX_EXTRA_LINK_ARGS="$SAN"
echo "sanitize: building $COPY with $ARRAYX_EXTRA_COMPILE_ARGS"
(cd "$COPY" && "$VENV/bin/python" -m pip install --no-build-isolation --no-deps -q .) \
  > "$DIR/build.log" 2>&1 || { tail -50 "$DIR/build.log"; die "build (log: $DIR/build.log)"; }
unset ARRAYX_EXTRA_COMPILE_ARGS ARRAYX_EXTRA_LINK_ARGS
elapsed "built"

# --- 4. sanitizer runtime for every process from here on --------------------------------------
LIBASAN=$(gcc -print-file-name=libasan.so)
LIBUBSAN=$(gcc -print-file-name=libubsan.so)
[ -f "$LIBASAN" ] && [ -f "$LIBUBSAN" ] || die "no libasan/libubsan from gcc"
PRELOAD="$LIBASAN $LIBUBSAN"
# Only the interpreter (and what it starts) runs with the runtimes, not this script's tools.
py() { LD_PRELOAD="$PRELOAD" "$VENV/bin/python" "$@"; }
# detect_leaks=0: CPython and NumPy keep their allocations at exit by design.
# allocator_may_return_null=1: tests check that a huge request is a MemoryError.
export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:abort_on_error=1:\
halt_on_error=1:detect_stack_use_after_return=0:log_path=$LOGS/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$LOGS/ubsan"
export PYTHONMALLOC=malloc
export PYTHONFAULTHANDLER=1

cd "$COPY" || die "no $COPY"
py -c '
import sys, arrayx, arrayx._core.storage as s
assert arrayx.__file__.startswith(sys.prefix), arrayx.__file__
print("sanitize: testing", arrayx.__file__)
' || die "the venv does not import its own arrayx"

STATUS=0
: > "$DIR/pytest.log"
if [ "${SANITIZE_SKIP_TESTS:-0}" = 0 ]; then
  echo "sanitize: pytest tests -n $JOBS $*"
  py -m pytest tests -n "$JOBS" -q -p no:cacheprovider \
    --ignore=tests/test_cuda_compile.py "$@" 2>&1 | tee "$DIR/pytest.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "sanitize: pytest failed"; STATUS=1; }
  elapsed "tests done"
fi

# --- 5. fuzzers -------------------------------------------------------------------------------
: > "$DIR/fuzz.log"
if [ "$FUZZ_EXAMPLES" -gt 0 ] && [ -f tests/fuzz_cases.py ]; then
  FUZZERS=$(py -c 'import sys; sys.path.insert(0, "tests")
import fuzz_cases; print(*fuzz_cases.FUZZERS)') || { echo "sanitize: no fuzzer list"; STATUS=1; }
  for name in ${FUZZERS:-}; do
    py tests/fuzz_cases.py "$name" "$FUZZ_EXAMPLES" "$DIR/fuzz-case.log" \
      2>&1 | tee -a "$DIR/fuzz.log"
    if [ "${PIPESTATUS[0]}" -ne 0 ]; then
      echo "sanitize: fuzzer $name failed; its last case: $(head -c 2000 "$DIR/fuzz-case.log")"
      STATUS=1
    fi
  done
  elapsed "fuzzers done"
fi

# --- 6. reports -------------------------------------------------------------------------------
PATTERN='ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|SUMMARY: UndefinedBehaviorSanitizer|SUMMARY: AddressSanitizer'
# Report files hold only reports (and warnings such as "failed to allocate", which do not count).
REPORTS=$(grep -E -l "$PATTERN" "$LOGS"/* 2>/dev/null)
if [ -n "$REPORTS" ]; then
  echo "sanitize: sanitizer reports in $LOGS:"
  for f in $REPORTS; do echo "=== $f"; head -80 "$f"; done
  STATUS=1
fi
if grep -E -q "$PATTERN" "$DIR/pytest.log" "$DIR/fuzz.log"; then
  echo "sanitize: sanitizer report in the output:"
  grep -E -n "$PATTERN" "$DIR/pytest.log" "$DIR/fuzz.log" | head -20
  STATUS=1
fi
if [ "$STATUS" -eq 0 ]; then
  elapsed "CLEAN: tests passed, no sanitizer report"
else
  elapsed "FAILED"
fi
exit "$STATUS"
