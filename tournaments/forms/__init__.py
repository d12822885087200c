"""Forms of the server-rendered pages. They parse what a browser posts into the arguments of
the services and map the services' and the engine's contract-shaped errors back to the field
they concern.

One module per page family: `common` (the ruleset's description for a form and the errors put
back on their field), `events`, `players`, `officiating` (rounds and the referee) and `hands`
(the hand form built from the ruleset's own description, checked against the engine while it
is typed). The names below are what the views import.
"""

from tournaments.forms.cards import CardWriteForm
from tournaments.forms.common import (
    ANNOUNCEMENT_ROWS,
    BLANK,
    CONTRA_ROWS,
    PENALTY_ROWS,
    add_service_errors,
    is_money,
    kc_to_haler,
    ruleset_choices,
    ruleset_description,
    score_label,
)
from tournaments.forms.events import (
    EventForm,
    VenueTakeForm,
)
from tournaments.forms.hands import (
    ALONE,
    PER_PLAYER,
    ROWS,
    EntryContext,
    HandForm,
    card_for_engine,
    entry_context,
    game_fields,
    hand_feedback,
    penalty_choices,
)
from tournaments.forms.officiating import (
    AdjustmentForm,
    AnnulForm,
    CallResolveForm,
    DecisionForm,
    DisputeForm,
    HallNoticeForm,
    MoneySheetForm,
    PenaltyForm,
    ReasonForm,
    RefereeCallForm,
    SwapForm,
)
from tournaments.forms.players import (
    CountryField,
    CountryInput,
    CsvImportForm,
    EntryForm,
    MessagesForm,
    PlayerAddForm,
    PlayerEditForm,
    PlayerMergeForm,
    RegistryManagerForm,
    StatusForm,
    import_errors_by_row,
)

__all__ = [
    "ALONE",
    "ANNOUNCEMENT_ROWS",
    "AdjustmentForm",
    "AnnulForm",
    "BLANK",
    "CallResolveForm",
    "HallNoticeForm",
    "RefereeCallForm",
    "CONTRA_ROWS",
    "CardWriteForm",
    "CountryField",
    "MessagesForm",
    "VenueTakeForm",
    "EntryForm",
    "CountryInput",
    "CsvImportForm",
    "import_errors_by_row",
    "DecisionForm",
    "DisputeForm",
    "EntryContext",
    "EventForm",
    "HandForm",
    "MoneySheetForm",
    "PENALTY_ROWS",
    "PER_PLAYER",
    "PenaltyForm",
    "PlayerAddForm",
    "PlayerEditForm",
    "PlayerMergeForm",
    "RegistryManagerForm",
    "ROWS",
    "ReasonForm",
    "StatusForm",
    "SwapForm",
    "add_service_errors",
    "card_for_engine",
    "entry_context",
    "game_fields",
    "hand_feedback",
    "is_money",
    "kc_to_haler",
    "penalty_choices",
    "ruleset_choices",
    "ruleset_description",
    "score_label",
]
