"""The strided core: ``Storage`` (one shared buffer) and ``Layout`` (shape, strides, offset)."""
