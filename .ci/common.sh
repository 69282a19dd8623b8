# Shared by .ci's scripts (sourced): fresh virtual environments and the suite in one of them.

# new_venv PYTHON DIR: a fresh virtual environment at DIR, with a pip that reads pyproject
# extras (>= 21.3; older ones are upgraded).
new_venv() {
    "$1" -m venv "$2"
    if ! "$2/bin/python" -c 'import sys, pip; sys.exit(tuple(map(int, pip.__version__.split(".")[:2])) < (21, 3))'
    then
        "$2/bin/python" -m pip install --quiet --upgrade pip
    fi
}

# levels PYTHON: the ISA levels the installed arrayx runs on this machine, lowest first.
levels() {
    "$1" -c 'from arrayx._kernels.cpu import dispatch; print(*dispatch.supported_levels())'
}

# find_python VERSION: the path of a working python VERSION (3.10 ...), found on PATH, else in
# pyenv's versions, checked to answer with its version; or nothing.
find_python() {
    local candidate
    for candidate in "$(command -v "python$1" || true)" \
            $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}/versions/$1".*/bin/"python$1" 2>/dev/null | sort -V -r); do
        if [ -n "$candidate" ] && [ "$("$candidate" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" = "$1" ]; then
            echo "$candidate"
            return
        fi
    done
}

# other_pythons: the paths of the Pythons from 3.10 up (requires-python) that this machine has
# besides python3, one a line, oldest first.
other_pythons() {
    local main version
    main="$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
    for version in $(seq -f '3.%g' 10 20); do
        [ "$version" = "$main" ] || find_python "$version"
    done
}

# The tests whose outcome no ISA level can change, left out at every level but the best one
# (the other builds run them): nvcc's compile of the CUDA sources, which the CPU kernels are
# not part of; the fuzzers, whose inputs are refused or taken before any kernel is chosen;
# the docstring examples, the autograd rules and the PyData stack, which reach the kernels
# through the operations that test_elementwise, test_statistical and the others check at each
# level against NumPy; reference counts and thread safety, which live in the Cython layer.
LEVEL_FREE=(tests/test_cuda_compile.py tests/test_fuzz.py tests/test_docs.py
            tests/test_autograd.py tests/test_autograd_rules.py tests/test_autograd_third_party.py
            tests/test_pydata_stack.py tests/test_leaks.py tests/test_threads.py)

# suite PYTHON LEVEL [SKIPPED ...]: the README's test command at ISA level LEVEL
# (ARRAYX_CPU_LEVEL caps the kernels' level), without the test files SKIPPED, against the
# arrayx installed in PYTHON's environment: the repository's src/ is never on the path (src
# layout), which the first line checks. The runs beside the main one (the wheel at its best
# level) call it with ARRAYX_HYPOTHESIS_PROFILE=brief: 20 hypothesis examples a test where the
# main run draws 60 (tests/conftest.py), other draws of the same tests.
suite() {
    local python="$1" level="$2" skipped file
    shift 2
    "$python" -c 'import arrayx, sys; sys.exit("src" in arrayx.__file__.split("/")[-3:-1])' || {
        echo "arrayx comes from the source tree, not the installed package"; return 1; }
    echo "tests at ISA level $level ($("$python" --version), arrayx from $("$python" -c 'import arrayx; print(arrayx.__file__)'), hypothesis profile ${ARRAYX_HYPOTHESIS_PROFILE:-arrayx})${*:+, without $*}"
    skipped=()
    for file in "$@"; do skipped+=("--ignore=$file"); done
    ARRAYX_CPU_LEVEL="$level" "$python" -m pytest tests -n 2 -q "${skipped[@]}"
    # The engine's device branches without a GPU: tests/test_cuda.py on cuda:0 backed by host
    # memory (tests/fake_cuda.py); the real kernels run on a GPU (tools/gpu_check.sh).
    ARRAYX_CPU_LEVEL="$level" ARRAYX_FAKE_CUDA=1 "$python" -m pytest tests/test_cuda.py -n 2 -q
}

# our_warnings LOG: the compiler's warnings about arrayx's own sources in a build log (none
# expected: the build passes -Wall); fails when there are any.
our_warnings() {
    if grep -E '(src/arrayx|_kernels)/[^ :]+:[0-9]+:[0-9]+: warning:' "$1"; then
        echo "the build warned about arrayx's sources (above; the whole log: $1)"
        return 1
    fi
}
