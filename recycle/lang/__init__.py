"""RECYCLE, the card game description language: reader and typed syntax tree.

    from recycle.lang import parse_game, load_game, check_file
    game = load_game("Agram4.gdl")          # a recycle.lang.tree.Game
    for d in check_file("Broken.rcy"):      # recycle.kernel.diagnostics.Diagnostic
        print(d.render())

All three published dialects are read (see docs/recycle-language.md); which
one a file uses shows in `Game.dialect` / `Game.features`. Errors raise
`GameSyntaxError` (a `recycle.kernel.diagnostics.DiagnosticError`) carrying every
located error found. Nothing from a file is ever executed.

Layers: `lexer` (pyparsing tokens -> s-expressions), `build_expr`,
`build_values`, `build_actions`, `build_game` (typed builders), `tree`/`expr`
(the nodes), `vocab` (keywords, kinds, dialect markers), `errors`, `reader`.
"""
from recycle.lang.errors import GameSyntaxError
from recycle.lang.lexer import MAX_CHARS, MAX_DEPTH
from recycle.lang.reader import check_file, check_text, load_game, parse_game, read_game
from recycle.lang.tree import Game

__all__ = ["GameSyntaxError", "Game", "parse_game", "load_game", "check_file", "check_text", "read_game",
           "MAX_CHARS", "MAX_DEPTH"]
