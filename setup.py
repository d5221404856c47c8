"""The optional compiled engine: `president/game/_fastplay.c` and `_fastplay_rules.c` (docs/compiled.md).

Built by `pip install .` when a C compiler and the Python headers are there;
`optional=True` makes a failed build a warning, and the package then runs its
pure Python engine (`president --version` says which one is in use).
"""
from setuptools import Extension, setup

SOURCES = ["president/game/_fastplay.c", "president/game/_fastplay_rules.c", "president/game/_fastplay_bots.c"]

setup(ext_modules=[Extension("president.game._fastplay", SOURCES,
                             depends=["president/game/_fastplay.h"], optional=True),
                   Extension("personalities._odds", ["personalities/_odds.c"], optional=True),
                   Extension("recycle.interp._cardsets", ["recycle/interp/_cardsets.c", "recycle/interp/_cardsets_sets.c",
                                                          "recycle/interp/_cardsets_memo.c"],
                             depends=["recycle/interp/_cardsets.h"], optional=True)])
