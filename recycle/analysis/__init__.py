"""Game analysis: CardStock's heuristics and TAG's metrics for any game of the protocol.

`experiment` plays CardStock's three sets (all random, one estimating AI at
seat 0, all estimating AI) as picklable work units on the tournament's worker
pool; `estimator` is the estimating AI; `heuristics` and `metrics` compute
every figure of docs/analysis.md from the game logs of `records`; `stats` gives
each one a 95% bootstrap interval; `result` ties them together; `report`
writes the HTML page and `folder` the resumable table of a folder of games.
"""
from recycle.analysis.experiment import PlayUnit, RecycleSubject, Unit, units
from recycle.analysis.records import ALL_AI, ONE_AI, RANDOM, SETS, DecisionRecord, GameLog
from recycle.analysis.result import Analysis, Config, analyze, compute

__all__ = ["ALL_AI", "ONE_AI", "RANDOM", "SETS", "Analysis", "Config", "DecisionRecord", "GameLog", "PlayUnit",
           "RecycleSubject", "Unit", "analyze", "compute", "units"]
