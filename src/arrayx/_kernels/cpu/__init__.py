"""CPU kernels: C++ loop templates (``*.hpp``) driven by Cython (``iterate``)."""
