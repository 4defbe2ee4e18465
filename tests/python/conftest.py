"""pytest configuration of the tabai Python tests.

Hypothesis profiles (choose with the environment variable HYPOTHESIS_PROFILE):
    ci    (default) moderate example counts, the whole suite in well under a minute per tier
    long  ten times more examples and no deadline, for fuzzing
TABAI_TEST_ITERS scales the example counts (e.g. 0.25, 4). TABAI_TEST_SEED replays a run: every
run prints its seed in the header. TABAI_CPU (generic, bmi2, avx2, ..., native) caps the
dispatch tier of the whole run; tests that walk every tier use tabai.set_tier as well.
"""

import os
import random
import sys

import pytest
from hypothesis import HealthCheck, settings

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)  # failure reports print 8192-bit ints in decimal

ITERS = float(os.environ.get("TABAI_TEST_ITERS", "1"))
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")


def examples(n: int) -> int:
    """The max_examples of one test: n for the ci profile, 10n for long, times TABAI_TEST_ITERS."""
    return max(1, int(n * ITERS * (10 if PROFILE == "long" else 1)))


_common = dict(
    database=None,  # no .hypothesis folder; regressions are kept as @example
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile("ci", max_examples=examples(60), deadline=None, **_common)
settings.register_profile("long", max_examples=examples(60), deadline=None, **_common)
settings.load_profile(PROFILE)

_SEED = os.environ.get("TABAI_TEST_SEED") or str(random.SystemRandom().randrange(1, 2**32))
# pytest-xdist's workers (make pytest runs -n) start after this and inherit it: one seed a run
os.environ["TABAI_TEST_SEED"] = _SEED


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    # one seed for every hypothesis test, printed in the header (replay: TABAI_TEST_SEED=...)
    if getattr(config.option, "hypothesis_seed", None) is None:
        config.option.hypothesis_seed = _SEED


def pytest_report_header(config):
    import tabai

    info = tabai.cpu()
    seed = getattr(config.option, "hypothesis_seed", _SEED)
    return [
        f"tabai {tabai.__version__} from {os.path.dirname(tabai.__file__)}",
        f"tabai cpu: {info['brand']}; features {', '.join(info['features']) or '-'}; "
        f"native tier {info['native']}; tier in use {info['tier']} "
        f"(TABAI_CPU={os.environ.get('TABAI_CPU', '')!r})",
        f"tabai tests: TABAI_TEST_SEED={seed} TABAI_TEST_ITERS={ITERS:g} "
        f"hypothesis profile {PROFILE}",
    ]


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    # with -q pytest hides the header: repeat the tier and seed lines at the end
    if config.get_verbosity() < 0:
        for line in pytest_report_header(config):
            terminalreporter.write_line(line)
