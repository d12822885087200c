"""The scoring engine: `evaluate(scorecard)` checks a scorecard against its ruleset and says
what every player writes for every hand (see docs/contracts/scorecard.md).

This package is also a Django app (for its management command and API views), but importing
`scoring` itself pulls in no Django: the engine and the rules are pure Python.
"""

from scoring.engine import describe_rulesets, evaluate
from scoring.errors import ScorecardInvalid

__all__ = ["ScorecardInvalid", "describe_rulesets", "evaluate"]
