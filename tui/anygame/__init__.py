"""Any RECYCLE game at the terminal (`recycle play`): a person in one seat, bots in the others.

The model has no Textual import and is unit-tested on corpus games: `seats`
(who sits where), `faces` (card faces from card attributes, with a legend),
`board` (what the person may see, by owner), `events` (the log in words) and
`session` (the game, its options filtered by selected cards, bot decisions,
game over, transcripts). `render`, `screen` and `app` draw it with the shared
card, hand, bot-worker and reasoning widgets of `tui`; `pilot` drives it in
tests.
"""
