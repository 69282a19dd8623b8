"""Mutation check of arrayx.autograd's gradient rules: do the tests notice a wrong rule?

For every vector-Jacobian product (the rule tables of ``arrayx.autograd._rules`` and
``_linalg_rules``), one at a time, this plants a wrong rule and runs the tests:

- ``factor``: one input's gradient times 2 (a missing or extra factor);
- ``conj``: one input's gradient conjugated (a dropped or extra ``conj``), for functions
  with a complex domain;
- ``swap``: the first two inputs' rules exchanged (a swapped argument), for functions of
  two or more arrays.

A mutant is killed when a test fails. Each runs first against the gradient checks of its own
function (``tests/test_autograd_rules.py``), then, if it survives, against every autograd
test. The report lists the survivors; the exit status is 1 when there is one.

Run from the repository root (about ten minutes on 2 cores)::

    python tools/mutate_rules.py [--jobs 2] [--only NAME ...]

The same file is the pytest plugin that plants a mutant in a test process (``-p
mutate_rules``, with the mutant in ``ARRAYX_RULE_MUTANT``).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = "ARRAYX_RULE_MUTANT"
FAILED = 1  # pytest's exit status when a test failed (not when it could not run)
TESTS = ["tests/test_autograd_rules.py", "tests/test_autograd.py",
         "tests/test_autograd_third_party.py"]
# Mutants that cannot change any gradient, with the reason.
EQUIVALENT = {
    "add:swap": "both inputs' rules are the identity",
    "real:0:conj": "the gradient of real(z) is the real cotangent, its own conjugate",
}


def _tables() -> dict:
    """Table name -> (the dict, the prefix of its functions' qualified names)."""
    from arrayx.autograd import _linalg_rules, _rules
    return {
        "ELEMENTWISE": (_rules.ELEMENTWISE, ""), "STATISTICAL": (_rules.STATISTICAL, ""),
        "MANIPULATION": (_rules.MANIPULATION, ""), "INDEXING": (_rules.INDEXING, ""),
        "UPDATES": (_rules.UPDATES, ""), "LINALG": (_linalg_rules.LINALG, "linalg."),
        "LINALG_MULTI": (_linalg_rules.LINALG_MULTI, "linalg."), "FFT": (_linalg_rules.FFT, "fft."),
    }


def _real_only() -> frozenset:
    sys.path.insert(0, str(ROOT / "tests"))
    from autograd_cases import REAL_ONLY
    return REAL_ONLY


def mutants(only: list[str] | None = None) -> list[str]:
    """Every mutant, as ``TABLE:name:input:kind`` (input ``-`` for a swap)."""
    real_only = _real_only()
    out = []
    for table, (rules, prefix) in _tables().items():
        for name, rule in rules.items():
            qualified = prefix + name
            if only and qualified not in only:
                continue
            inputs = ([i for i, m in enumerate(rule) if m is not None]
                      if type(rule) is tuple else [0])
            for i in inputs:
                out.append(f"{table}:{name}:{i}:factor")
                if qualified not in real_only:
                    out.append(f"{table}:{name}:{i}:conj")
            if type(rule) is tuple and len(inputs) >= 2:
                out.append(f"{table}:{name}:-:swap")
    return [m for m in out if _short(m) not in EQUIVALENT]


def _short(mutant: str) -> str:
    _, name, i, kind = mutant.split(":")
    return f"{name}:{kind}" if i == "-" else f"{name}:{i}:{kind}"


def _change(kind: str):
    from arrayx.autograd._tracer import traced

    def change(v):
        if v is None:
            return None
        if kind == "factor":
            return v * 2
        return traced.conj(v) if v.dtype.kind == "c" else v
    return change


def _mutated(rule, i, kind: str):
    """``rule`` with the mutation planted."""
    if kind == "swap":
        return (rule[1], rule[0]) + rule[2:]
    change = _change(kind)
    if type(rule) is tuple:
        maker = rule[i]

        def wrong(*args, **kw):
            back = maker(*args, **kw)
            return lambda g: change(back(g))
        return rule[:i] + (wrong,) + rule[i + 1:]

    def joint_wrong(*args, **kw):
        back = rule(*args, **kw)

        def first_changed(g):
            grads = tuple(back(g))
            return (change(grads[0]),) + grads[1:]
        return first_changed
    return joint_wrong


def plant(mutant: str) -> None:
    """Put ``mutant`` into the rule tables and rebuild the traced namespace."""
    from arrayx.autograd import _namespace
    table, name, i, kind = mutant.split(":")
    rules, _ = _tables()[table]
    rules[name] = _mutated(rules[name], None if i == "-" else int(i), kind)
    if name in _namespace.RULES:
        _namespace.RULES[name] = rules[name]
    _namespace.build()


def _cases(mutant: str) -> set[str]:
    table, name, _, _ = mutant.split(":")
    prefix = _tables()[table][1]
    return {prefix + name}


# --- the pytest plugin -----------------------------------------------------------------------

def pytest_configure(config) -> None:
    mutant = os.environ.get(ENV)
    if mutant:
        plant(mutant)


def pytest_collection_modifyitems(config, items) -> None:
    mutant = os.environ.get(ENV)
    if not mutant or os.environ.get("ARRAYX_RULE_MUTANT_ALL"):
        return
    names = _cases(mutant)
    keep = []
    for item in items:
        spec = getattr(item, "callspec", None)
        case = spec.params.get("name") if spec else None
        if case is not None and any(case == n or case.startswith(n + "_") for n in names):
            keep.append(item)
    items[:] = keep or items


# --- the driver ------------------------------------------------------------------------------

def run(mutant: str) -> tuple[str, str]:
    """``(mutant, verdict)``: "killed", "killed (all tests)" or "survived"; RuntimeError when
    the tests could not run (a mutant that breaks collection counts as nothing)."""
    base = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "mutate_rules",
            "-p", "no:cacheprovider", "--hypothesis-seed=0"]
    path = os.pathsep.join(filter(None, [str(ROOT / "tools"), os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, PYTHONPATH=path, **{ENV: mutant})
    env.pop("ARRAYX_RULE_MUTANT_ALL", None)
    focused = subprocess.run([*base, "tests/test_autograd_rules.py"], cwd=ROOT, env=env,
                             capture_output=True, text=True)
    if focused.returncode == FAILED:
        return mutant, "killed"
    env["ARRAYX_RULE_MUTANT_ALL"] = "1"
    whole = subprocess.run([*base, *TESTS], cwd=ROOT, env=env, capture_output=True, text=True)
    if whole.returncode not in (0, FAILED) or focused.returncode not in (0, FAILED):
        tail = (focused.stdout + whole.stdout).strip().splitlines()[-5:]
        raise RuntimeError(f"the tests of {mutant} did not run: " + "\n".join(tail))
    return mutant, "killed (all tests)" if whole.returncode == FAILED else "survived"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", nargs="*", help="qualified function names (linalg.det)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    todo = mutants(args.only)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for mutant, verdict in pool.map(run, todo):
            results[mutant] = verdict
            print(f"{verdict:20s} {mutant}", flush=True)
    survivors = sorted(m for m, v in results.items() if v == "survived")
    print(f"\n{len(results)} mutants, {len(results) - len(survivors)} killed, "
          f"{len(survivors)} survived; {len(EQUIVALENT)} equivalent mutants not planted")
    for m in survivors:
        print(f"  survived: {m}")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
