"""A screen guard for any table: below its minimum size, the screen shows only
"terminal too small (need WxH)", and comes back as soon as the terminal is resized.

    class MyTable(Screen):
        def compose(self): ...; yield TooSmall(70, 22)
        def on_resize(self, event): self.query_one(TooSmall).check(event.size)

`check` puts the class `-too-small` on the screen, which hides every other
child of the screen; `TooSmall.active` tells the screen to ignore game keys.
The API of this module is shared by both tables: keep it stable.
"""
from __future__ import annotations

from textual.geometry import Size
from textual.widgets import Static


class TooSmall(Static):
    """The message shown instead of a table that does not fit."""

    SCOPED_CSS = False  # the rules below style the screen and its other children
    DEFAULT_CSS = """
    TooSmall { display: none; width: 1fr; height: 1fr; content-align: center middle; text-align: center;
               text-style: bold; color: $warning; }
    .-too-small > * { display: none; }
    .-too-small > TooSmall { display: block; }
    """

    def __init__(self, min_width: int, min_height: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.min_width, self.min_height = min_width, min_height
        self.active = False

    def check(self, size: Size) -> bool:
        """Show or hide the message for a terminal of `size`; True when it is too small."""
        self.active = size.width < self.min_width or size.height < self.min_height
        self.update(f"terminal too small (need {self.min_width}x{self.min_height}, "
                    f"have {size.width}x{size.height})\nmake the window larger, or ctrl+q to quit")
        self.screen.set_class(self.active, "-too-small")
        return self.active
