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

# suite PYTHON LEVEL: the README's test command at ISA level LEVEL (ARRAYX_CPU_LEVEL caps the
# kernels' level), against the arrayx installed in PYTHON's environment: the repository's
# src/ is never on the path (src layout), which the first line checks.
suite() {
    "$1" -c 'import arrayx, sys; sys.exit("src" in arrayx.__file__.split("/")[-3:-1])' || {
        echo "arrayx comes from the source tree, not the installed package"; return 1; }
    echo "tests at ISA level $2 ($("$1" --version), arrayx from $("$1" -c 'import arrayx; print(arrayx.__file__)'))"
    ARRAYX_CPU_LEVEL="$2" "$1" -m pytest tests -n 2 -q
    # The engine's device branches without a GPU: tests/test_cuda.py on cuda:0 backed by host
    # memory (tests/fake_cuda.py); the real kernels run on a GPU (tools/gpu_check.sh).
    ARRAYX_CPU_LEVEL="$2" ARRAYX_FAKE_CUDA=1 "$1" -m pytest tests/test_cuda.py -n 2 -q
}

# our_warnings LOG: the compiler's warnings about arrayx's own sources in a build log (none
# expected: the build passes -Wall); fails when there are any.
our_warnings() {
    if grep -E '(src/arrayx|_kernels)/[^ :]+:[0-9]+:[0-9]+: warning:' "$1"; then
        echo "the build warned about arrayx's sources (above; the whole log: $1)"
        return 1
    fi
}
