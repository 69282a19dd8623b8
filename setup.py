"""Build arrayx's Cython/C++ kernels: -O3, C++17, and OpenMP where the compiler has it.

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
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
SRC = HERE / "src"


def _compiler_accepts(flag: str) -> bool:
    """Whether the C++ compiler builds and links an OpenMP program with ``flag``."""
    cxx = os.environ.get("CXX") or sysconfig.get_config_var("CXX") or "c++"
    src = "#include <omp.h>\nint main(){return omp_get_max_threads() > 0 ? 0 : 1;}\n"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.cpp"
        path.write_text(src)
        cmd = [*cxx.split(), flag, str(path), "-o", str(Path(tmp) / "t")]
        try:
            return subprocess.run(cmd, capture_output=True).returncode == 0
        except OSError:
            return False


OPENMP = os.environ.get("ARRAYX_NO_OPENMP") is None and _compiler_accepts("-fopenmp")
if not OPENMP:
    print("arrayx: building without OpenMP (kernels run on one thread)", file=sys.stderr)

COMPILE_ARGS = ["-O3", "-g0", "-std=c++17", "-fno-math-errno", "-Wno-unused-function"]
LINK_ARGS: list[str] = []
if OPENMP:
    COMPILE_ARGS.append("-fopenmp")
    LINK_ARGS.append("-fopenmp")
COMPILE_ARGS += shlex.split(os.environ.get("ARRAYX_EXTRA_COMPILE_ARGS", ""))
LINK_ARGS += shlex.split(os.environ.get("ARRAYX_EXTRA_LINK_ARGS", ""))


def generate_headers() -> None:
    """Write the op kernels' header from the op table (``arrayx/_kernels/ops.py``)."""
    spec = importlib.util.spec_from_file_location("arrayx_ops", SRC / "arrayx/_kernels/ops.py")
    ops = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ops)
    target = SRC / "arrayx" / "_kernels" / "cpu" / "ax_ops.hpp"
    text = ops.generate_cpu_header()
    if not target.exists() or target.read_text() != text:
        target.write_text(text)


KERNEL_DIR = SRC / "arrayx" / "_kernels" / "cpu"
KERNEL_HEADERS = sorted(str(p.relative_to(HERE)) for p in KERNEL_DIR.glob("*.h*"))


def _uses_kernel_headers(pyx: Path) -> bool:
    """Whether the module's C++ includes the kernel headers (directly or through a .pxd)."""
    text = pyx.read_text()
    return "_kernels.cpu.kernels cimport" in text or 'extern from "ax_' in text


def extensions() -> list[Extension]:
    exts = []
    for pyx in sorted(SRC.glob("arrayx/**/*.pyx")):
        rel = pyx.relative_to(HERE)
        name = ".".join(pyx.relative_to(SRC).with_suffix("").parts)
        exts.append(
            Extension(
                name,
                [str(rel)],
                # A header edit recompiles the modules that include it.
                depends=KERNEL_HEADERS if _uses_kernel_headers(pyx) else [],
                language="c++",
                include_dirs=[numpy.get_include(), str(KERNEL_DIR)],
                extra_compile_args=COMPILE_ARGS,
                extra_link_args=LINK_ARGS,
                define_macros=[("NPY_NO_DEPRECATED_API", "NPY_2_0_API_VERSION")],
            )
        )
    return exts


class ParallelBuildExt(build_ext):
    """Compile the extensions on every core."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1


generate_headers()
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
