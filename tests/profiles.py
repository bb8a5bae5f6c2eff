"""How long Hypothesis searches: ``ci``, which the suite loads, and ``thorough`` for a longer run
(``pytest --hypothesis-profile thorough``). Neither has a deadline: a busy machine is no failure."""

from __future__ import annotations

from hypothesis import settings

CI = "ci"
THOROUGH = "thorough"

settings.register_profile(CI, max_examples=50, deadline=None)
settings.register_profile(THOROUGH, max_examples=1000, deadline=None)


def examples(share: float) -> int:
    """A property's number of examples as a share of the profile in force, for one whose
    examples cost much more, or find much less, than most."""
    return max(1, round(settings.default.max_examples * share))
