"""Build arrayx's Cython/C++ kernels: -O3, C++17, threads by arrayx's own pool (-pthread).

The hot kernels (``_kernels/cpu/ax_level.cpp``) are compiled once per ISA level into the
dispatch extension, which picks one at import: the baseline, and on x86-64 AVX2 (x86-64-v3)
and AVX-512 (x86-64-v4) where the compiler builds them; a level the compiler lacks is left out
and the build says so. On glibc, those levels call libmvec's vector math functions.

``ARRAYX_EXTRA_COMPILE_ARGS`` and ``ARRAYX_EXTRA_LINK_ARGS`` (shell-quoted, split with
``shlex.split``) are appended to every extension's compile and link flags, after Python's own
``CFLAGS``, so they override them: ``tools/sanitize.sh`` builds with them (``-O1 -g
-fsanitize=address,undefined -fno-wrapv -DAX_EXACT_ALLOC ...``).
"""

import importlib.util
import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
SRC = HERE / "src"


# The C++ compiler the probes below ask (setuptools compiles with the same CXX).
CXX = (os.environ.get("CXX") or sysconfig.get_config_var("CXX") or "c++").split()


def _builds(src: str, flags: list[str]) -> bool:
    """Whether the C++ compiler builds and links the program ``src`` with ``flags``."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.cpp"
        path.write_text(src)
        cmd = [*CXX, *flags, str(path), "-o", str(Path(tmp) / "t")]
        try:
            return subprocess.run(cmd, capture_output=True).returncode == 0
        except OSError:
            return False


# -ffp-contract=off: g++ contracts a * b + c into one fused multiply-add by default (even with
# -std=c++17) where the level has FMA, so complex products gave different bits at avx2 than
# at the baseline; fused multiply-adds are written out (ax_vector_math's fma_v) where meant.
# -fno-trapping-math: no code of ours enables floating-point traps or reads the exception
# flags, and with trapping math g++ keeps floor, ceil and trunc scalar (a vector rounding
# would set the inexact flag in lanes the scalar loop had not reached); clang assumes the
# same by default. Values are unchanged.
COMPILE_ARGS = ["-O3", "-g0", "-std=c++17", "-fno-math-errno", "-fno-trapping-math",
                "-ffp-contract=off", "-Wno-unused-function", "-pthread"]
LINK_ARGS: list[str] = ["-pthread"]
COMPILE_ARGS += shlex.split(os.environ.get("ARRAYX_EXTRA_COMPILE_ARGS", ""))
LINK_ARGS += shlex.split(os.environ.get("ARRAYX_EXTRA_LINK_ARGS", ""))


def _registry(name: str, folder: str = "_kernels"):
    """The module ``arrayx/<folder>/<name>.py``: the op or dtype registry, or a table of
    documentation (modules that import nothing)."""
    spec = importlib.util.spec_from_file_location(f"arrayx_{name}",
                                                  SRC / "arrayx" / folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def generate_headers() -> None:
    """Write the kernels' generated headers, the op ids' and dtype codes' ``.pxd`` and the
    array object's operators from the registries (``arrayx/_kernels/ops.py``,
    ``arrayx/_kernels/dtypes.py``) and the operators' documentation rows."""
    ops, dtypes = _registry("ops"), _registry("dtypes")
    docs = _registry("_elementwise_docs", ".")
    kernels = SRC / "arrayx" / "_kernels"
    for target, text in ((kernels / "cpu" / "ax_ops.hpp", ops.generate_cpu_header()),
                         (kernels / "cpu" / "ax_op_counts.hpp", ops.generate_op_counts_header()),
                         (kernels / "cpu" / "ax_fold_ops.hpp", ops.generate_fold_header()),
                         (kernels / "cpu" / "ax_dtypes.hpp", dtypes.generate_cpu_header()),
                         (kernels / "dtype_codes.pxd", dtypes.generate_pxd()),
                         (kernels / "op_ids.pxd", ops.generate_pxd()),
                         (SRC / "arrayx" / "_array_operators.pxi",
                          ops.generate_operators(docs.OPERATOR_DOCS))):
        if not target.exists() or target.read_text() != text:
            target.write_text(text)


_AVX2 = ["-mavx2", "-mfma", "-mbmi", "-mbmi2", "-mf16c"]
_AVX512 = [*_AVX2, "-mavx512f", "-mavx512cd", "-mavx512bw", "-mavx512dq", "-mavx512vl",
           "-mprefer-vector-width=512"]


LEVEL_NAMES = ("baseline", "avx2", "avx512")
# The highest level to build (CI's builds that test one level build no higher).
MAX_LEVEL = os.environ.get("ARRAYX_MAX_LEVEL") or LEVEL_NAMES[-1]
if MAX_LEVEL not in LEVEL_NAMES:
    sys.exit(f"ARRAYX_MAX_LEVEL={MAX_LEVEL!r}: it must be one of {', '.join(LEVEL_NAMES)}")


def isa_levels() -> list[tuple[str, list[str]]]:
    """The ISA levels to build, with their compiler flags: those the compiler accepts.

    Only a compiler for x86-64 gets x86 flags: the target is the compiler's (so a cross
    compiler for aarch64 on an x86-64 machine builds the baseline alone, where NEON is
    always there), not the machine's.
    """
    levels = [("baseline", [])]
    if not _builds("#ifndef __x86_64__\n#error not x86-64\n#endif\nint main(){return 0;}\n", []):
        return levels
    for name, flags in (("avx2", _AVX2), ("avx512", _AVX512)):
        if LEVEL_NAMES.index(name) > LEVEL_NAMES.index(MAX_LEVEL):
            print(f"arrayx: building without the {name} level (ARRAYX_MAX_LEVEL={MAX_LEVEL})",
                  file=sys.stderr)
        elif _builds("int main(){return 0;}\n", flags):
            levels.append((name, flags))
        else:
            print(f"arrayx: the compiler lacks the {name} level; building without it",
                  file=sys.stderr)
    return levels


_LIBMVEC_PROBE = """#include <immintrin.h>
extern "C" __m256d _ZGVdN4v_exp(__m256d);
int main() {
    __m256d x = _ZGVdN4v_exp(_mm256_set1_pd(0.0));
    return _mm256_cvtsd_f64(x) == 1.0 ? 0 : 1;
}
"""
LEVELS = isa_levels()
LIBMVEC = len(LEVELS) > 1 and os.environ.get("ARRAYX_NO_LIBMVEC") is None and _builds(
    _LIBMVEC_PROBE, [*_AVX2, "-lmvec"])
if len(LEVELS) > 1 and not LIBMVEC:
    print("arrayx: no libmvec; transcendental functions run scalar loops", file=sys.stderr)
DISPATCH = "arrayx._kernels.cpu.dispatch"


KERNEL_DIR = SRC / "arrayx" / "_kernels" / "cpu"
# The CPU's headers and the scalar math it shares with the CUDA kernels.
KERNEL_HEADERS = sorted(str(p.relative_to(HERE))
                        for p in [*KERNEL_DIR.glob("*.h*"), KERNEL_DIR.parent / "ax_math.hpp"])


def _uses_kernel_headers(pyx: Path) -> bool:
    """Whether the module's C++ includes the kernel headers (directly or through a .pxd)."""
    text = pyx.read_text()
    return pyx.parent == KERNEL_DIR or "_kernels.cpu." in text or 'extern from "ax_' in text


def extensions() -> list[Extension]:
    import numpy

    exts = []
    for pyx in sorted(SRC.glob("arrayx/**/*.pyx")):
        rel = pyx.relative_to(HERE)
        name = ".".join(pyx.relative_to(SRC).with_suffix("").parts)
        macros = [("NPY_NO_DEPRECATED_API", "NPY_2_0_API_VERSION")]
        if name == DISPATCH:
            macros += [(f"AX_BUILT_{level.upper()}", "1") for level, _ in LEVELS[1:]]
        exts.append(
            Extension(
                name,
                [str(rel)],
                # A header edit recompiles the modules that include it.
                depends=KERNEL_HEADERS if _uses_kernel_headers(pyx) else [],
                language="c++",
                include_dirs=[numpy.get_include(), str(KERNEL_DIR)],
                extra_compile_args=COMPILE_ARGS,
                extra_link_args=LINK_ARGS + (["-lmvec"] if LIBMVEC and name == DISPATCH else []),
                define_macros=macros,
            )
        )
    return exts


LEVEL_SOURCE = KERNEL_DIR / "ax_level.cpp"


def level_macros(name: str) -> list[tuple[str, str]]:
    """The macros ``ax_level.cpp`` is compiled with at the level ``name``."""
    return [*([("AX_HAVE_LIBMVEC", "1")] if LIBMVEC else []), ("AX_LEVEL_NS", name),
            ("AX_LEVEL_FILL", f"fill_kernel_set_{name}")]


def print_level_commands() -> None:
    """Print the compile command of ``ax_level.cpp`` at each level, one a line (without
    Python's own flags): ``python setup.py level_commands``, which ``.ci/cross_aarch64``
    runs with a cross compiler as ``CXX`` to compile the kernels for another machine."""
    for name, flags in LEVELS:
        print(shlex.join([*CXX, *COMPILE_ARGS, *flags,
                          *(f"-D{key}={value}" for key, value in level_macros(name)),
                          f"-I{KERNEL_DIR}", "-c", str(LEVEL_SOURCE)]))


class ParallelBuildExt(build_ext):
    """Compile the extensions on every core, and the dispatch extension's ISA levels."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def build_extension(self, ext: Extension) -> None:
        if ext.name == DISPATCH:
            ext.extra_objects = self._level_objects(ext)
        super().build_extension(ext)

    def _level_objects(self, ext: Extension) -> list[str]:
        """``ax_level.cpp`` compiled once per level (in parallel), into objects of its own."""
        source = str(LEVEL_SOURCE.relative_to(HERE))

        def compile_level(level: tuple[str, list[str]]) -> list[str]:
            name, flags = level
            return self.compiler.compile(
                [source],
                output_dir=str(Path(self.build_temp) / f"level_{name}"),
                macros=level_macros(name),
                include_dirs=ext.include_dirs,
                extra_postargs=[*COMPILE_ARGS, *flags],
                depends=[*KERNEL_HEADERS, source],
            )

        with ThreadPoolExecutor(max_workers=len(LEVELS)) as pool:
            return [obj for objs in pool.map(compile_level, LEVELS) for obj in objs]


def main() -> None:
    generate_headers()
    if sys.argv[1:] == ["level_commands"]:
        print_level_commands()
        return
    # Cython (and NumPy, in extensions()) only for a build: level_commands needs neither.
    from Cython.Build import cythonize

    setup(
        ext_modules=cythonize(
            extensions(),
            nthreads=os.cpu_count() or 1,
            compiler_directives={
                "language_level": 3,
                "boundscheck": False,
                "wraparound": False,
                "cdivision": True,
                "initializedcheck": False,
                "embedsignature": True,
            },
        ),
        cmdclass={"build_ext": ParallelBuildExt},
    )


if __name__ == "__main__":  # also under pip (setuptools runs setup.py as __main__)
    main()
