"""At a venue (issue #32, docs/venue.md): an event run on a venue's laptop while the
federation's server shows it. One installation writes an event at a time: the server lends it
to the laptop (`services.hold_take`, answering the event's archive and a key), refuses every
other write to it (`edges`, and the audit trail's own check in tournaments.services.audit),
and brings it to the laptop's state at each of the laptop's pushes (`services.push_apply`,
through the archive's import in place). The laptop (`client`) takes the event, pushes it and
hands it back over HTTP; the server's staff take back an event whose laptop is lost.

Rooms: `services` (the holds' writes, on both sides), `client` (the laptop's HTTP calls),
`api` and `urls` (the server's endpoints), `edges` (the refusal at the pages and the API).
"""
