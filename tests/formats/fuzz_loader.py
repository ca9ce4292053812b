"""A fuzz target for the loader and the whole lint pass, driven by hypothesis.

    python tests/fuzz_loader.py --seconds 300      # fuzz for five minutes (CI nightly, or by hand)
    pytest tests/fuzz_loader.py                     # a bounded smoke run (~100 inputs, a few seconds)

Every input -- random bytes, or a valid bank file mutated at the byte and token level -- goes through
``decode`` and the run's per-file path (``pipeline.check_sources``: the YAML reader, every default rule). The target fails on any exception, on a finding
without a path and line, on unsorted or non-deterministic findings, and on an input that costs more
than ``PER_INPUT_SECONDS``.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the suite's helpers

from qlint.config import Config, Settings, resolve_rules  # noqa: E402
from qlint.finding import Finding  # noqa: E402
from qlint.formats.base import decode  # noqa: E402
from qlint.limits import Limits  # noqa: E402
from qlint.registry import load_registry  # noqa: E402
from qlint.run.pipeline import check_sources  # noqa: E402

PER_INPUT_SECONDS = 5.0
LIMITS = Limits()

SEEDS = [
    b"""questions:
  - id: s-1
    stem: Which call returns a Python float from a one-element tensor?  # qlint: ignore[reading-level] ok
    options:
      - text: loss.item()
        correct: true
        rationale: Correct. It copies the value out.
      - {text: loss.detach(), rationale: Incorrect. It returns a tensor.}
    tags: [autograd]
    meta: {a: &x [1, 2], b: *x}
""",
    b"id: s-2\nstem: >-\n  Folded stem\n  over lines?\nselect: 2\noptions:\n  - text: 'a'\n    correct: true\n"
    b"  - text: \"b\\tc\"\n    correct: true\n  - text: |\n      literal\n",
]
TOKENS = [b"\t", b": ", b"- ", b"[", b"]", b"{", b"}", b"&a ", b"*a", b"!!python/object/apply:os.system ['true'] ",
          b"!t ", b"? ", b"|", b">", b"#", b"---\n", b"%TAG ! tag:x,1:\n", b"\r\n", b"\x00", b"\xef\xbb\xbf",
          b"\xff\xfe", b"\xc3", b"\"", b"'", b"\\u", b"<<: *a", b"\n  ", b"[" * 100, b"*a, " * 50]


@st.composite
def inputs(draw) -> bytes:
    if draw(st.integers(0, 4)) == 0:
        return draw(st.binary(max_size=2000))
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 12))):
        pos = draw(st.integers(0, len(data)))
        op = draw(st.integers(0, 3))
        if op == 0:
            data[pos:pos] = draw(st.sampled_from(TOKENS))
        elif op == 1:
            del data[pos:pos + draw(st.integers(1, 8))]
        elif op == 2:
            data[pos:pos + 1] = draw(st.binary(min_size=1, max_size=3))
        else:  # copy a chunk elsewhere: duplicated keys, lines and anchors
            start = draw(st.integers(0, len(data)))
            data[pos:pos] = data[start:start + draw(st.integers(1, 60))]
    return bytes(data)


_ACTIVE = None


def _active():
    global _ACTIVE
    if _ACTIVE is None:
        registry = load_registry()
        config = Config(Settings(), Path.cwd(), None)
        _ACTIVE = (resolve_rules(config, registry), [r.name for r in registry] + [r.code for r in registry])
    return _ACTIVE


def check_one(data: bytes) -> None:
    """The property every input must satisfy."""
    active, names = _active()
    start = time.monotonic()
    text, problems = decode(data, "fuzz.yaml")
    assert text is not None or problems
    results = [("fuzz.yaml", data)] if text is not None else []
    findings = check_sources(results, active, limits=LIMITS, all_rules=names) if results else []
    problems = [] if results else problems   # checked with the file, the decoding problems are among the findings
    for finding in [*problems, *findings]:
        assert finding.path == "fuzz.yaml" and finding.line >= 1 and finding.column >= 1, finding
    assert findings == sorted(findings, key=Finding.sort_key)
    if results:
        again = check_sources(results, active, limits=LIMITS, all_rules=names)
        assert again == findings
    elapsed = time.monotonic() - start
    assert elapsed < PER_INPUT_SECONDS, f"one input took {elapsed:.1f}s"


def fuzz_test(max_examples: int, derandomize: bool):
    @settings(max_examples=max_examples, deadline=None, database=None, derandomize=derandomize,
              phases=[Phase.explicit, Phase.generate, Phase.shrink], print_blob=True,
              suppress_health_check=list(HealthCheck))
    @given(inputs())
    def target(data: bytes) -> None:
        check_one(data)
    return target


def test_fuzz_loader_bounded():
    """The CI budget: a fixed, derandomized batch so the run is reproducible and takes seconds."""
    start = time.monotonic()
    fuzz_test(max_examples=120, derandomize=True)()
    assert time.monotonic() - start < 60


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to fuzz")
    parser.add_argument("--batch", type=int, default=500, help="inputs per hypothesis run")
    args = parser.parse_args(argv)
    deadline = time.monotonic() + args.seconds
    runs = 0
    while time.monotonic() < deadline:
        fuzz_test(max_examples=args.batch, derandomize=False)()  # raises (with a reproducer) on a failure
        runs += args.batch
    print(f"fuzz_loader: {runs} inputs, no failure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
