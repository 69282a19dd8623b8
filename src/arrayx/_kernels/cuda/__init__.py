"""CUDA kernels: CUDA C++ templates (``*.cuh``) and the generator of their sources (``source``)."""
