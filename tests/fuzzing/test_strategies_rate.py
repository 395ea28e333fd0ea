"""How often the Hypothesis property catches each broken codec: at least 99 runs of 100.

Each run is Hypothesis' default 100 examples of `utf8_inputs()` with a fresh example database
(none), as a project's own `@given(utf8_inputs())` test runs in CI, each from its own seed. The
examples of a run are recorded first and then put to every broken codec through
`assert_conforms`: a run catches a codec when one of its examples fails, exactly what the same
run under `@given` would report (the examples Hypothesis draws before a failure do not depend on
the codec). Slow: 100 runs.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis.internal.conjecture import providers

from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.fuzzing.conformance import assert_conforms
from utf8cert.harness.fuzzing.strategies import utf8_inputs

RUNS = int(os.environ.get("UTF8CERT_RATE_RUNS", "100"))
BROKEN = [
    *(
        f"support.broken_codecs:{name}"
        for name in (
            "NaiveBitDecoder",
            "TruncatedTailDropper",
            "Cesu8Decoder",
            "AlignedFastPath",
            "ChunkBoundaryDecoder",
            "SurrogateWritingEncoder",
            "LaxRangeValidator",
            "BomStripper",
            "NormalizingDecoder",
            "Block64Decoder",
            "Page4096Decoder",
            "CrashingDecoder",
            "BytesReturningDecoder",
        )
    ),
    *(
        f"support.fuzz_codecs:{name}"
        for name in (
            "AlignedAsciiFastPath",
            "LongInputValidator",
            "BlockBufferedDecoder",
            "ForgetfulIncremental",
            "SurrogateWritingEncoder",
        )
    ),
]
"""Every broken codec of the test suite whose defect is a `must` difference and that returns
(HangingDecoder hangs: in-process, no property can catch it; OneFffdPerByte and OneFffdPerBadRun
differ at `should` only, which `assert_conforms` does not fail by default)."""


def recorded_runs() -> list[list[bytes]]:
    """Return the examples of RUNS runs of 100, each with no example database and its own seed
    (0, 1, …: distinct runs, the same on every machine with the same Hypothesis)."""
    # Hypothesis (6.131 on) also draws constants found in the local modules loaded so far, so
    # the same seed gave other examples depending on which tests a worker had run (CI: 98 of
    # 100 for two codecs that a run alone caught in 100). Recorded without them, a run is the
    # same wherever it is recorded.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(providers, "_get_local_constants", type(providers._local_constants))
        return _record()


def _record() -> list[list[bytes]]:
    runs: list[list[bytes]] = []
    for run in range(RUNS):
        runs.append([])

        # derandomize=False: the suite's "ci" profile derandomizes, which would make every run
        # the same run; @seed keeps each one reproducible instead.
        @seed(run)
        @settings(
            database=None,
            derandomize=False,
            deadline=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(utf8_inputs())
        def record(data: bytes) -> None:
            runs[-1].append(data)

        record()
    return runs


# One xdist worker records the runs and checks every codec (.ci/run: --dist loadgroup): the
# recording is most of the cost, and two workers would each record them.
pytestmark = pytest.mark.xdist_group("strategies_rate")


@pytest.fixture(scope="module")
def runs() -> list[list[bytes]]:
    return recorded_runs()


def caught(spec: str, examples: list[bytes]) -> bool:
    codec = load_codec(spec)
    for data in examples:
        try:
            assert_conforms(codec, data)
        except AssertionError:
            return True
    return False


@pytest.mark.exhaustive
@pytest.mark.parametrize("spec", BROKEN)
def test_the_property_catches_each_broken_codec_in_99_runs_of_100(
    spec: str, runs: list[list[bytes]]
) -> None:
    assert all(len(examples) == 100 for examples in runs)
    rate = sum(caught(spec, examples) for examples in runs)
    print(f"{spec}: caught in {rate} of {len(runs)} runs")
    assert rate >= 0.99 * len(runs), f"{spec}: caught in {rate} of {len(runs)} runs"
