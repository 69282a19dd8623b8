"""``vmap``: a function of one example run on a batch, by the batching rules of ``_batching``.

Inside ``vmap`` the batched inputs are :class:`Batched` arrays: array-API arrays that stand
for one example (``shape`` is the example's) and hold the whole batch, batch axis first.
Their namespace, ``arrayx.autograd.batched``, runs each function once on the batch where
``_batching.RULES`` has a rule for it, and once per example otherwise. It computes with the
traced namespace, so ``vmap`` composes with the autograd transforms: ``grad(vmap(f))``
differentiates the batched computation, and ``vmap(grad(f))`` (per-example gradients) is the
gradient of the batch's sum with respect to per-example copies of the inputs. ``vmap`` nests:
each call has a level, and a function works on the innermost level among its arguments.
"""

from __future__ import annotations

import functools
import math
import threading
import types
import weakref
from collections.abc import Callable

import arrayx
from arrayx.autograd import _batching
from arrayx.autograd._pytree import LEAF, flatten, rebuild, unflatten
from arrayx.autograd._tracer import install_operators, traced

batched = types.ModuleType("arrayx.autograd.batched",
                           "arrayx's namespace on batches: the namespace inside vmap.")
# Functions that ``vmap`` runs by a rule of their own: function -> rule(in_axes, out_axes,
# args) (the per-example gradients of ``grad`` and ``value_and_grad``, filled in by ``_api``).
VMAP_RULES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


# Functions that make arrays: inside vmap they are of the batched namespace (the same for
# every example), so that library code finds one namespace for them and the batch.
CREATION = frozenset({
    "arange", "asarray", "empty", "eye", "from_dlpack", "full", "linspace", "logspace",
    "ones", "zeros",
})


class _Depth(threading.local):
    """How many ``vmap`` calls are live in this thread."""

    def __init__(self) -> None:
        self.depth = 0


_live = _Depth()


class Batched:
    """One example of a batch, inside ``vmap``. ``value`` holds the batch, batch axis first,
    when ``mapped``; otherwise it is the same for every example (an unbatched argument, or an
    array made inside ``vmap``), so that every array there has the one batched namespace.
    ``level`` is the depth of the ``vmap`` it belongs to."""

    __slots__ = ("value", "level", "mapped")

    def __init__(self, value, level: int, mapped: bool = True) -> None:
        self.value = value
        self.level = level
        self.mapped = mapped

    def __array_namespace__(self, *, api_version=None):
        """The batched namespace."""
        return batched

    shape = property(lambda self: tuple(self.value.shape[1:] if self.mapped
                                        else self.value.shape), doc="One example's shape.")
    dtype = property(lambda self: self.value.dtype, doc="The dtype.")
    device = property(lambda self: self.value.device, doc="The device.")
    ndim = property(lambda self: len(self.shape), doc="One example's dimensions.")
    size = property(lambda self: math.prod(self.shape), doc="One example's size.")
    T = property(lambda self: batched.permute_dims(self, (1, 0)), doc="The transpose (2-D).")
    mT = property(lambda self: batched.matrix_transpose(self),
                  doc="The transpose of the last two axes.")

    def to_device(self, device, /, *, stream=None):
        """The array on ``device`` (the CPU is the only device: the same array)."""
        return self

    def __getitem__(self, key):
        return batched.__getitem__(self, key)

    def __setitem__(self, key, value) -> None:
        _setitem(self, key, value)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def _concrete(self, *args, **kw):
        raise TypeError("an example inside vmap has no single value: Python control flow "
                        "(if, bool, int, float) on it cannot run once for the whole batch; "
                        "use xp.where")

    __bool__ = __int__ = __float__ = __complex__ = __index__ = _concrete
    __array__ = __dlpack__ = _concrete

    def __repr__(self) -> str:
        return f"Batched({self.value!r}, level={self.level})"

    __hash__ = None


def _top(args, kw) -> int:
    top = 0
    for a in (*args, *kw.values()):
        if type(a) is Batched:
            top = max(top, a.level)
        elif isinstance(a, (list, tuple)):
            for item in a:
                if type(item) is Batched:
                    top = max(top, item.level)
    _check_live(top)
    return top


def _check_live(level: int) -> None:
    if level > _live.depth:
        raise RuntimeError("a batched array was used after the vmap that made it ended")


def _split(a, top: int):
    """``a``'s value one level down, and whether it is batched at ``top``."""
    if type(a) is Batched and a.level == top:
        return a.value, a.mapped
    if isinstance(a, (list, tuple)) and any(type(i) is Batched for i in a):
        parts = [_split(i, top) for i in a]
        return [p[0] for p in parts], [p[1] for p in parts]
    return a, (False if hasattr(a, "__array_namespace__") else None)


def _size(vals, bat) -> int:
    for v, b in zip(vals, bat, strict=True):
        if b is True:
            return v.shape[0]
        if isinstance(b, list):
            for item, flag in zip(v, b, strict=True):
                if flag:
                    return item.shape[0]
    raise AssertionError("no batched argument")


def _wrap(out, top: int, mapped: bool = True):
    if isinstance(out, tuple):
        return rebuild(type(out), [_wrap(o, top, mapped) for o in out])
    if type(out) is Batched and out.level == top and not mapped:
        return out
    if hasattr(out, "__array_namespace__"):
        return Batched(out, top, mapped)
    if not mapped:
        return out
    raise TypeError(f"a function returned {type(out).__name__} inside vmap: only arrays can "
                    f"be batched")


def function(name: str, base: Callable) -> Callable:
    """The batched form of the function ``name`` (``base`` computes one level down)."""
    rule = _batching.RULES.get(name)
    any_position = rule in _batching.ANY_POSITION
    creation = name in CREATION

    def general(*args, **kw):
        top = _top(args, kw)
        if not top:
            out = base(*args, **kw)
            depth = _live.depth
            return _wrap(out, depth, False) if creation and depth else out
        parts = [_split(a, top) for a in args]
        vals, bat = [p[0] for p in parts], [p[1] for p in parts]
        kparts = {k: _split(v, top) for k, v in kw.items()}
        kvals = {k: p[0] for k, p in kparts.items()}
        kbat = {k: p[1] for k, p in kparts.items()}
        if not any(b is True or (isinstance(b, list) and any(b))
                   for b in (*bat, *kbat.values())):
            return _wrap(general(*vals, **kvals), top, False)
        size = _size(vals + list(kvals.values()), bat + list(kbat.values()))
        return _batched(vals, bat, kvals, kbat, top, size,
                        rule is not None and _applies(rule, bat, kbat))

    def _batched(vals, bat, kvals, kbat, top, size, applies):
        # One level down there is no batch to dispatch unless vmaps nest.
        nested = _live.depth > 1
        fn = general if nested else base
        if applies:
            out = rule(batched if nested else traced, fn, size, vals, bat, kvals, kbat)
        else:
            out = _per_example(fn, size, vals, bat, kvals, kbat)
        return _wrap(out, top)

    def op(*args, **kw):
        scan = _one_level(args)
        if scan is None:
            return general(*args, **kw)
        level, vals, bat = scan
        kvals, kbat = {}, {}
        if kw:
            scan = _one_level(kw.values(), level)
            if scan is None:
                return general(*args, **kw)
            level, values, flags = scan
            kvals = dict(zip(kw, values, strict=True))
            kbat = dict(zip(kw, flags, strict=True))
        if not level:
            return general(*args, **kw)
        _check_live(level)
        if True in bat:
            first = bat.index(True)
            size = vals[first].shape[0]
            applies = rule is not None and (
                any_position or (first == 0 and True not in bat[1:]
                                 and True not in kbat.values()))
        elif True in kbat.values():
            size = next(kvals[k].shape[0] for k, b in kbat.items() if b is True)
            applies = any_position
        else:
            return _wrap(general(*vals, **kvals), level, False)
        return _batched(vals, bat, kvals, kbat, level, size, applies)

    if rule is _batching.elementwise:
        op = _elementwise(base, op)
    op.__name__ = op.__qualname__ = name.rpartition(".")[2]
    op.__doc__ = getattr(base, "__doc__", None)
    return op


def _one_level(args, level: int = 0):
    """``(level, values, flags)`` of arguments (positional ones, or keyword values) batched by
    at most one level (``level`` when arguments before them were), whose values hold no batch
    of another, and none of them a sequence (the common call: ``level`` 0 when none is
    batched; ``flags`` as ``_split``'s); None for any other call."""
    vals = []
    flags = []
    for a in args:
        if type(a) is Batched:
            if (level and a.level != level) or type(a.value) is Batched:
                return None
            level = a.level
            vals.append(a.value)
            flags.append(a.mapped)
        elif isinstance(a, (list, tuple)):
            return None
        else:
            vals.append(a)
            flags.append(False if hasattr(a, "__array_namespace__") else None)
    return level, vals, flags


_SCALARS = frozenset({bool, int, float, complex})


def _elementwise(base: Callable, general: Callable) -> Callable:
    """The fast path of an elementwise function: the common call (``_one_level``) without
    keywords, its examples' axes aligned by reshaping, then one call (one batched array
    alone or beside a Python scalar, without the scan); anything else goes to ``general``."""
    def op(*args, **kw):
        if not kw:
            # One batched array, alone or beside a Python scalar: nothing to align.
            a = args[0] if args else None
            if type(a) is Batched and (len(args) == 1 or (
                    len(args) == 2 and type(args[1]) in _SCALARS)):
                if type(a.value) is not Batched:
                    _check_live(a.level)
                    return Batched(base(a.value, *args[1:]), a.level, a.mapped)
            elif len(args) == 2 and type(args[1]) is Batched:
                b = args[1]
                if type(a) in _SCALARS:
                    if type(b.value) is not Batched:
                        _check_live(b.level)
                        return Batched(base(a, b.value), b.level, b.mapped)
                elif (type(a) is Batched and a.level == b.level
                      and type(a.value) is not Batched and type(b.value) is not Batched
                      and _aligned(a, b)):
                    # Two arrays of one level whose axes broadcasting already pairs.
                    _check_live(a.level)
                    return Batched(base(a.value, b.value), a.level, a.mapped or b.mapped)
        scan = None if kw else _one_level(args)
        if scan is None:
            return general(*args, **kw)
        level, vals, flags = scan
        if not level:
            return base(*args)
        _check_live(level)
        mapped = True in flags
        if mapped:
            vals = _batching._align(traced if _live.depth == 1 else batched, vals, flags)
        return Batched(base(*vals), level, mapped)
    return op


def _aligned(a: Batched, b: Batched) -> bool:
    """Whether broadcasting the values of ``a`` and ``b`` pairs their examples' axes (as
    ``_batching._align`` would leave them): both batched with examples of one rank, or one
    batched with the other's example of no more dimensions than its own."""
    if a.mapped:
        return b.value.ndim == a.value.ndim if b.mapped else b.value.ndim < a.value.ndim
    return not b.mapped or a.value.ndim < b.value.ndim


def _applies(rule, bat, kbat) -> bool:
    """Whether ``rule`` handles this call: the rules of ``_batching.ANY_POSITION`` take
    batched arrays anywhere; the others a batched first argument and nothing else batched
    (as the common call's check in ``function`` says too)."""
    if rule in _batching.ANY_POSITION:
        return True
    return (bat[0] is True and not any(b is True or isinstance(b, list) for b in bat[1:])
            and not any(b is True for b in kbat.values()))


def _pick(v, b, i: int):
    if b is True:
        return v[i]
    if isinstance(b, list):
        return type(v)(x[i] if f else x for x, f in zip(v, b, strict=True))
    return v


def _per_example(op, size: int, vals, bat, kvals, kbat):
    """The function on each example, stacked: for functions without a batching rule."""
    outs = [op(*[_pick(v, b, i) for v, b in zip(vals, bat, strict=True)],
               **{k: _pick(v, kbat[k], i) for k, v in kvals.items()}) for i in range(size)]
    if not outs:
        raise ValueError("a function without a batching rule cannot run on an empty batch")
    if isinstance(outs[0], tuple):
        return rebuild(type(outs[0]), [batched.stack([o[j] for o in outs])
                                       for j in range(len(outs[0]))])
    if not hasattr(outs[0], "__array_namespace__"):
        raise TypeError(f"a function returned {type(outs[0]).__name__} inside vmap: only "
                        f"arrays can be batched")
    return batched.stack(outs)


def _setitem(x: Batched, key, value) -> None:
    """``x[key] = value`` for every example."""
    if type(value) is Batched and value.level > x.level:
        raise ValueError("an array batched by an inner vmap cannot be written into one "
                         "batched by an outer vmap")
    same = type(value) is Batched and value.level == x.level
    if not x.mapped:
        if same and value.mapped:
            raise ValueError("a batched value cannot be written into an array that is the "
                             "same for every example")
        x.value[key] = value.value if same else value
        return
    key = (slice(None),) + (key if isinstance(key, tuple) else (key,))
    if same and value.mapped:
        (v,) = _batching._align(batched, [value.value], [True], x.value[key].ndim - 1)
        x.value[key] = v
    else:
        x.value[key] = value.value if same else value


def _inplace(fn, op: str):
    def method(self, other):
        result = fn(self, other)
        if result.shape != self.shape:
            raise ValueError(f"{op} cannot change the shape {self.shape} to {result.shape}")
        _setitem(self, Ellipsis, batched.astype(result, self.dtype))
        return self
    return method


def build() -> types.ModuleType:
    """Fill the batched namespace from the traced one."""
    def fill(target, source, names, prefix):
        for name in names:
            obj = getattr(source, name)
            if callable(obj) and not isinstance(obj, type):
                obj = function(prefix + name, obj)
            setattr(target, name, obj)

    fill(batched, traced, [n for n in traced.__all__ if n not in ("linalg", "fft", "lib")], "")
    batched.__getitem__ = function("__getitem__", _getitem)
    for sub in ("linalg", "fft"):
        module = types.ModuleType(f"arrayx.autograd.batched.{sub}")
        fill(module, getattr(traced, sub), getattr(traced, sub).__all__, sub + ".")
        module.__all__ = list(getattr(traced, sub).__all__)
        setattr(batched, sub, module)
    batched.lib = arrayx.lib
    batched.__array_api_version__ = arrayx.__array_api_version__
    batched.__all__ = list(traced.__all__)
    install_operators(Batched, batched, _inplace)
    return batched


def _getitem(x, key):
    return x[key]


# --- vmap ------------------------------------------------------------------------------------

def _axes_of(spec, tree, what: str, count: int | None = None) -> list:
    """The batch axis (or None) of each leaf of ``tree`` (``count`` of them, when known),
    from ``spec``: an int or None for a whole subtree, or a tuple, list or dict of such specs
    along ``tree``'s structure."""
    if spec is None or (isinstance(spec, int) and not isinstance(spec, bool)):
        return [spec] * (len(flatten(tree)[0]) if count is None else count)
    if not isinstance(spec, (dict, list, tuple)):
        raise TypeError(f"{what} entries must be ints, None, or tuples, lists and dicts of "
                        f"them; got {type(spec).__name__}")
    if isinstance(spec, dict) and isinstance(tree, dict) and sorted(spec) == sorted(tree):
        return [a for k in sorted(tree) for a in _axes_of(spec[k], tree[k], what)]
    if (isinstance(spec, (list, tuple)) and isinstance(tree, (list, tuple))
            and len(spec) == len(tree)):
        return [a for s, t in zip(spec, tree, strict=True) for a in _axes_of(s, t, what)]
    raise ValueError(f"{what} does not match the structure of what it describes")


def vmap(f: Callable, in_axes=0, out_axes=0) -> Callable:
    """``f``, written for one example, run on a batch (as ``torch.func.vmap`` and
    ``jax.vmap``).

    Parameters
    ----------
    f : callable
        A function of arrays (or tuples, lists and dicts of them) written against the array
        API (``xp = x.__array_namespace__()``).
    in_axes : int, None or sequence, optional
        The batch axis of each positional argument: an int or None (not batched) for every
        argument, or one entry per argument, itself an int, None or a tree of ints of the
        argument's structure.
    out_axes : int, None or tree, optional
        Where the batch axis goes in each output (None: an output that does not depend on the
        batch, returned once).

    Returns
    -------
    callable
        The batched function.

    Raises
    ------
    ValueError
        If the batched arguments disagree on the batch size, or none is batched.
    TypeError
        If ``f`` uses an example's value in Python control flow (``if x > 0``).

    Examples
    --------
    >>> import arrayx as xp
    >>> from arrayx.autograd import grad, vmap
    >>> def f(x):
    ...     ns = x.__array_namespace__()
    ...     return ns.sum(x * x)
    >>> vmap(f)(xp.asarray([[1.0, 2.0], [3.0, 4.0]]))
    Array([ 5., 25.], dtype=float64)
    >>> vmap(grad(f))(xp.asarray([[1.0, 2.0], [3.0, 4.0]]))
    Array([[2., 4.],
           [6., 8.]], dtype=float64)
    """
    @functools.wraps(f)
    def run(*args):
        return batch_call(f, in_axes, out_axes, args)
    return run


def batch_call(f: Callable, in_axes, out_axes, args, level: int | None = None,
               size: int | None = None):
    """``vmap(f, in_axes, out_axes)(*args)``; at ``level``, when given, the level of a live
    ``vmap`` whose batched arrays are all lowered into ``args`` (``grad`` inside ``vmap``
    goes on at its level: no deeper one to dispatch through). With ``size``, the caller
    made the batches: ``in_axes`` holds 0 or None for each argument, and the batch size is
    ``size`` (nothing to check). A function with a rule of its own for ``vmap`` (``grad``:
    ``VMAP_RULES``) runs by that rule."""
    rule = VMAP_RULES.get(f) if level is None else None
    if rule is not None:
        return rule(in_axes, out_axes, args)
    checked = size is None
    if checked:
        flat, axes, size = batch_inputs(in_axes, args)
    new = level is None
    if new:
        _live.depth += 1
        level = _live.depth
    try:
        if not checked:
            wrapped = [_entering_tree(a, axis, level)
                       for a, axis in zip(args, in_axes, strict=True)]
        else:
            wrapped = []
            for (leaves, structure), ax in zip(flat, axes, strict=True):
                if structure is LEAF:
                    wrapped.append(_entering(leaves[0], ax[0], level))
                else:
                    wrapped.append(unflatten(structure, [
                        _entering(leaf, axis, level)
                        for leaf, axis in zip(leaves, ax, strict=True)]))
        out = f(*wrapped)
    finally:
        if new:
            _live.depth -= 1
    if type(out) is Batched and (out_axes is None or type(out_axes) is int):
        return _unbatch(out, out_axes, level, size)
    leaves, structure = flatten(out)
    spec = _axes_of(out_axes, out, "out_axes", len(leaves))
    return unflatten(structure, [_unbatch(leaf, axis, level, size)
                                 for leaf, axis in zip(leaves, spec, strict=True)])


def batch_inputs(in_axes, args) -> tuple[list, list, int]:
    """Each argument's leaves and structure, each leaf's batch axis (from ``in_axes``, checked
    against the leaf) and the batch size they agree on."""
    if isinstance(in_axes, (list, tuple)):
        if len(in_axes) != len(args):
            raise ValueError(f"in_axes has {len(in_axes)} entries for {len(args)} "
                             f"arguments")
        specs = list(in_axes)
    else:
        specs = [in_axes] * len(args)
    flat, axes = [], []
    size = None
    for spec, a in zip(specs, args, strict=True):
        leaves, structure = flatten(a)
        ax = ([spec] * len(leaves) if spec is None or type(spec) is int
              else _axes_of(spec, a, "in_axes", len(leaves)))
        flat.append((leaves, structure))
        axes.append(ax)
        if spec is None:
            continue
        for leaf, axis in zip(leaves, ax, strict=True):
            if axis is None:
                continue
            if not hasattr(leaf, "__array_namespace__"):
                raise TypeError(f"a batched argument must be an array, got "
                                f"{type(leaf).__name__}")
            shape = leaf.shape
            if not -len(shape) <= axis < len(shape):
                raise ValueError(f"in_axes {axis} is out of range for an argument of "
                                 f"{len(shape)} dimensions")
            n = shape[axis]
            if size is not None and n != size:
                raise ValueError(f"vmap got batch sizes {size} and {n}")
            size = n
    if size is None:
        raise ValueError("vmap needs at least one batched argument (in_axes)")
    return flat, axes, size


def to_front(leaf, axis: int):
    """``leaf`` with its batch axis ``axis`` first."""
    return leaf if axis == 0 else batched.moveaxis(leaf, axis, 0)


def out_axes_applied(out, out_axes):
    """``out``, whose arrays have the batch axis first, with it moved to ``out_axes``."""
    if type(out_axes) is int and out_axes == 0 and hasattr(out, "__array_namespace__"):
        return out
    leaves, structure = flatten(out)
    spec = ([out_axes] * len(leaves) if out_axes is None or type(out_axes) is int
            else _axes_of(out_axes, out, "out_axes", len(leaves)))
    moved = []
    for leaf, axis in zip(leaves, spec, strict=True):
        if not hasattr(leaf, "__array_namespace__"):
            raise TypeError(f"vmap's function returned {type(leaf).__name__}: only arrays "
                            f"can be batched")
        if axis is None:
            raise ValueError("an output with out_axes=None depends on the batch")
        moved.append(leaf if axis == 0 else leaf.__array_namespace__().moveaxis(leaf, 0, axis))
    return unflatten(structure, moved)


def _entering_tree(tree, axis, level: int):
    """``_entering`` for every leaf of ``tree``, all batched along ``axis`` (or None)."""
    if tree is None or isinstance(tree, (dict, list, tuple)):
        leaves, structure = flatten(tree)
        return unflatten(structure, [_entering(leaf, axis, level) for leaf in leaves])
    return _entering(tree, axis, level)


def _entering(leaf, axis, level: int):
    """An argument's leaf inside ``vmap``: batched along ``axis``, or (None) the same for
    every example, as an array of the batched namespace (arrays only)."""
    if axis is not None:
        return Batched(to_front(leaf, axis), level)
    return Batched(leaf, level, False) if hasattr(leaf, "__array_namespace__") else leaf


def _unbatch(leaf, axis, level: int, size: int):
    if type(leaf) is Batched and leaf.level == level and not leaf.mapped:
        leaf = leaf.value
    if type(leaf) is Batched and leaf.level == level:
        if axis is None:
            raise ValueError("an output with out_axes=None depends on the batch")
        return leaf.value if axis == 0 else batched.moveaxis(leaf.value, 0, axis)
    if not hasattr(leaf, "__array_namespace__"):
        raise TypeError(f"vmap's function returned {type(leaf).__name__}: only arrays can be "
                        f"batched")
    if axis is None:
        return leaf
    ns = leaf.__array_namespace__()
    full = ns.broadcast_to(ns.expand_dims(leaf, axis=0), (size,) + tuple(leaf.shape))
    return ns.moveaxis(full, 0, axis)


# --- transforms inside vmap ------------------------------------------------------------------

def has_batched(args) -> bool:
    """Whether a leaf of ``args`` is batched by a live ``vmap``."""
    if not _live.depth:
        return False
    for a in args:
        if type(a) is Batched:
            return True
        if isinstance(a, (list, tuple, dict)) and any(
                type(x) is Batched for x in flatten(a)[0]):
            return True
    return False


def batch_level(args) -> int:
    """The innermost vmap level among the leaves of ``args`` (0 when none is batched)."""
    top = 0
    for leaf in flatten(list(args))[0]:
        if type(leaf) is Batched:
            top = max(top, leaf.level)
    return top


def per_example_inputs(args, nums) -> tuple[int, int, list, tuple]:
    """For ``grad`` inside ``vmap``: the innermost level among ``args``, the batch size, the
    arguments as whole batches (batch axis first: the batched ones, and per-example copies
    of those in ``nums``, to be differentiated), and the ``in_axes`` that map them."""
    flat = [flatten(a) for a in args]
    top = max((x.level for leaves, _ in flat for x in leaves if type(x) is Batched),
              default=0)
    size = next((x.value.shape[0] for leaves, _ in flat for x in leaves
                 if type(x) is Batched and x.level == top and x.mapped), None)
    if size is None:
        raise ValueError("grad inside vmap got no batched argument; it closes over the "
                         "batch: pass the batched array as an argument")
    lowered, axes = [], []
    for leaves, structure in flat:
        lowered.append(([x.value if type(x) is Batched and x.level == top else x
                         for x in leaves], structure))
        axes.append([0 if type(x) is Batched and x.level == top and x.mapped else None
                     for x in leaves])
    full, in_axes = whole_batches(lowered, axes, nums, size)
    return top, size, full, in_axes


def whole_batches(flat: list, axes: list, nums, size: int) -> tuple[list, tuple]:
    """The arguments (``flat``: each one's leaves and structure; ``axes``: each leaf's batch
    axis or None) as ``grad`` inside ``vmap`` takes them, and the ``in_axes`` that map them:
    an argument in ``nums`` (to be differentiated) or with a batched leaf as a whole batch,
    batch axis first, its unbatched leaves copied to every example; any other as it is."""
    full, in_axes = [], []
    for i, ((leaves, structure), ax) in enumerate(zip(flat, axes, strict=True)):
        if structure is LEAF:
            # One array (the common argument): as it is, to the front, or copied.
            a = ax[0]
            if a is not None:
                full.append(to_front(leaves[0], a))
            elif i in nums:
                full.append(copies(leaves[0], size))
            else:
                full.append(leaves[0])
                in_axes.append(None)
                continue
            in_axes.append(0)
        elif i in nums or ax.count(None) != len(ax):
            full.append(unflatten(structure, [
                copies(x, size) if a is None else to_front(x, a)
                for x, a in zip(leaves, ax, strict=True)]))
            in_axes.append(0)
        else:
            full.append(unflatten(structure, leaves))
            in_axes.append(None)
    return full, tuple(in_axes)


def copies(x, size: int):
    """``size`` copies of ``x`` along a new first axis (a broadcast view)."""
    if hasattr(x, "__array_namespace__"):
        ns = x.__array_namespace__()
    else:
        ns = arrayx
        x = arrayx.asarray(x)
    return ns.broadcast_to(ns.expand_dims(x, axis=0), (size,) + tuple(x.shape))


def relevel(tree, level: int):
    """``tree``'s arrays as batched at ``level`` (their first axis the batch)."""
    leaves, structure = flatten(tree)
    return unflatten(structure, [Batched(x, level) if hasattr(x, "__array_namespace__") else x
                                 for x in leaves])


def _example(x, top: int, i: int):
    if type(x) is Batched and x.level == top:
        return x.value[i] if x.mapped else x.value
    return x


def per_example(run: Callable, args):
    """``run(*args)`` on each example of the innermost batch among ``args``, stacked."""
    top = batch_level(args)
    sizes = [leaf.value.shape[0] for leaf in flatten(list(args))[0]
             if type(leaf) is Batched and leaf.level == top and leaf.mapped]
    if not sizes:
        raise ValueError("a transformation inside vmap got no batched argument")
    outs = []
    for i in range(sizes[0]):
        example = []
        for a in args:
            leaves, structure = flatten(a)
            example.append(unflatten(structure, [_example(x, top, i) for x in leaves]))
        outs.append(run(*example))
    leaves = [flatten(o)[0] for o in outs]
    structure = flatten(outs[0])[1]
    stacked = [Batched(batched.stack([row[j] for row in leaves]), top)
               for j in range(len(leaves[0]))]
    return unflatten(structure, stacked)
