"""A RECYCLE game file as the subject of `recycle analyze` (`recycle.analysis.subject.Subject`).

It lives on the game's side so that the analysis imports neither the reader nor the interpreter:
the file is read once per process (a worker without the file parses the text it was sent), and
`describe` reads the interpreter's store.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from recycle.lang import load_game
from recycle.lang.reader import parse_game

from recycle.interp.setup import new_game

_LOADED: dict[tuple, Any] = {}


@dataclass(frozen=True)
class RecycleSubject:
    """A RECYCLE game file under analysis (the game is read once per process).

    With `text` (the file's content, see `with_text`) a worker parses that
    instead of opening `path`: what a machine without the file needs.
    """

    path: str
    max_choices: int = 500
    compat: str | None = None
    text: str | None = None
    engine: str | None = None  # "reference" or "fast" (None: fast); the numbers do not depend on it

    def with_text(self) -> "RecycleSubject":
        """The same subject carrying its file's content, for workers that cannot read the file."""
        return replace(self, text=Path(self.path).read_text(encoding="utf-8"))

    def _game(self):
        key = (self.path, None if self.text is None else hash(self.text))
        if key not in _LOADED:
            while len(_LOADED) >= 16:  # a folder run reads many games: keep the last few
                del _LOADED[next(iter(_LOADED))]
            _LOADED[key] = load_game(self.path) if self.text is None else parse_game(self.text, self.path)
        return _LOADED[key]

    @property
    def name(self) -> str:
        return Path(self.path).stem

    @property
    def players(self) -> int:
        return self.new_state(0).num_players

    def new_state(self, seed: int):
        extra = {"compat": self.compat} if self.compat else {}
        return new_game(self._game(), seed, max_choices=self.max_choices, engine=self.engine, **extra)

    def episode(self, state) -> int:
        return 0

    def places(self, state) -> tuple[tuple[int, ...], ...]:
        return (state.results().ranks,)

    def rounds(self, state) -> int | None:
        return None

    def called(self, state) -> bool:
        return bool(state.called)

    def describe(self, state, player: int) -> tuple[int, float]:
        """Cards in play plus storages and non-empty locations; the share of cards `player` cannot see."""
        st = state.st
        cards = sum(len(c) for k, c in st.locs.items() if k[2] != "mem")
        locations = sum(1 for k, c in st.locs.items() if c and k[2] != "mem")
        size = cards + locations + len(st.ints) + len(st.strs)
        return size, (len(state.hidden_cards(player)) / cards if cards else 0.0)
