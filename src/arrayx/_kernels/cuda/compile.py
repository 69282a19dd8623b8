"""NVRTC compilation of the kernel modules, with subnormal floats kept, cached on disk.

``cupy.RawModule`` compiles with ``-ftz=true`` appended to every option list (CuPy's choice for
its own kernels): float32 subnormals then read and compute as zero, so ``0 - 2.9e-40`` gives 0,
``log10(1e-45)`` gives ``-inf`` and ``nextafter(0, 1)`` skips the subnormals, where NumPy, the
CPU build and IEEE 754 keep them. Here the modules are compiled by CuPy's NVRTC call without that
flag (``--ftz=false``, NVRTC's own default, stated), loaded as ``cupy.cuda.function.Module``,
and kept in CuPy's kernel cache directory (``CUPY_CACHE_DIR``) under names of their own
(``arrayx-<sha256>.cubin``), keyed by the source, the options, the NVRTC and CuPy versions and
the device's compute capability.
"""

from __future__ import annotations

import hashlib
import os
import tempfile

__all__ = ["load_module", "options"]

_CUPY_CACHE = os.path.expanduser("~/.cupy/kernel_cache")
"""CuPy's kernel cache directory where ``CUPY_CACHE_DIR`` does not name another."""


def options(cp: object) -> tuple[str, ...]:
    """NVRTC options: C++17, IEEE float32 arithmetic (no flush to zero, IEEE division and square
    root) and the libcu++ headers CuPy ships (``<cuda/std/...>``)."""
    root = os.path.join(os.path.dirname(cp.__file__), "_core", "include", "cupy", "_cccl",
                        "libcudacxx")
    return ("-std=c++17", "--ftz=false", "--prec-div=true", "--prec-sqrt=true", f"-I{root}")


def _cache_path(cp: object, code: str, opts: tuple[str, ...]) -> str:
    """Where the compiled module of ``code`` for the current device is kept."""
    capability = cp.cuda.Device().compute_capability
    key = "\0".join([code, *opts, repr(cp.cuda.nvrtc.getVersion()), str(capability),
                     cp.__version__])
    name = f"arrayx-{hashlib.sha256(key.encode()).hexdigest()}.cubin"
    return os.path.join(os.environ.get("CUPY_CACHE_DIR", _CUPY_CACHE), name)


def _store(path: str, image: bytes) -> None:
    """Write ``image`` at ``path`` in one replacement (readers never see part of it); a cache
    that cannot be written is skipped."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=os.path.dirname(path), delete=False) as handle:
            handle.write(image)
        os.replace(handle.name, path)
    except OSError:
        return


def load_module(cp: object, code: str) -> object:
    """``code`` compiled for the current device and loaded: a ``cupy.cuda.function.Module``.

    Parameters
    ----------
    cp : module
        CuPy.
    code : str
        A CUDA C++ translation unit.

    Returns
    -------
    cupy.cuda.function.Module
        The loaded module; ``get_function(name)`` gives a kernel whose ``ptr`` launches.
    """
    opts = options(cp)
    path = _cache_path(cp, code, opts)
    image = None
    try:
        with open(path, "rb") as f:
            image = f.read()
    except OSError:
        pass
    if not image:
        compiled = cp.cuda.compiler.compile_using_nvrtc(code, opts)
        image = compiled[0] if isinstance(compiled, tuple) else compiled
        if isinstance(image, str):
            image = image.encode()
        _store(path, image)
    module = cp.cuda.function.Module()
    module.load(image)
    return module
