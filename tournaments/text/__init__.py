"""Words for what is stored as codes: the audit trail's actions and fields, the rulesets'
names and options, and the engine's messages, in the reader's language (the scoring
engine's own lines are `tournaments.engine_text`)."""
