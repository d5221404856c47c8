"""Journals you can trust: chained digests, one writer, I/O failures, torn lines, the state folder,
files read once, and Ctrl-C that keeps the work and says how to go on (issues 32 and 33)."""
from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from president.cli.main import main
from recycle.cli.main import main as recycle_main
from recycle.kernel.diagnostics import DiagnosticError
from recycle.kernel.journal_file import Journal, JournalBusy, verify

from pure_runs import as_at_a_terminal

TINY = ["Classic", "Gambler", "random", "--matches", "3", "--rounds", "2", "--seed", "5"]


def tournament(tmp_path: Path, *argv: str, name: str = "t") -> tuple[int, dict | None]:
    out = tmp_path / f"{name}.json"
    code = main(["tournament", *argv, "--json", str(out)])
    return code, json.loads(out.read_text()) if out.exists() else None


# ---- the digest chain ------------------------------------------------------------------------
def _journal(path: Path) -> bytes:
    with Journal.create(path, {"format": "test", "config": {"seed": 5, "name": "Classic \u00e9"}}) as journal:
        for k in range(3):
            journal.append({"game": k, "places": [[1, 2], [2, 1]], "points": [[1.5, -0.25], [0.0, 3e-7]]})
    return path.read_bytes()


def test_a_whole_journal_reads_back(tmp_path):
    _journal(tmp_path / "j.jsonl")
    assert [data.get("game") for _, data in verify(tmp_path / "j.jsonl", 10**6, "a test journal")] == [None, 0, 1, 2]


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_any_single_edited_byte_of_a_record_is_refused_naming_its_line(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("chain") / "j.jsonl"
    original = _journal(path)
    lines = original.split(b"\n")[:-1]
    line = data.draw(st.integers(0, len(lines) - 1), label="line")
    column = data.draw(st.integers(0, len(lines[line]) - 1), label="column")  # not the newline: see below
    byte = data.draw(st.integers(0, 255).filter(lambda b: b != lines[line][column]), label="byte")
    edited = bytearray(original)
    edited[sum(len(l) + 1 for l in lines[:line]) + column] = byte
    path.write_bytes(bytes(edited))
    with pytest.raises(DiagnosticError) as refused:
        list(verify(path, 10**6, "a test journal"))
    assert f"j.jsonl:{line + 1}:" in refused.value.render() or byte == ord("\n")  # a newline splits the line


def test_a_torn_last_line_is_dropped_with_a_warning_and_lines_moved_or_removed_are_refused(tmp_path):
    path = tmp_path / "j.jsonl"
    original = _journal(path)
    lines = original.decode().splitlines(keepends=True)
    path.write_text("".join(lines[:3]) + lines[3][:30])  # a kill mid-write
    warnings = []
    journal, header = Journal.resume(path, 10**6, "a test journal", warnings.append)
    journal.append({"game": 2, "places": [], "points": []})
    journal.close()
    assert "dropped an unfinished last line" in warnings[0] and header["format"] == "test"
    assert len(list(verify(path, 10**6, "a test journal"))) == 4
    for changed in (lines[:1] + lines[2:], lines[:1] + [lines[2], lines[1]] + lines[3:]):
        path.write_text("".join(changed))
        with pytest.raises(DiagnosticError, match="j.jsonl:2:1: error: this record does not match"):
            list(verify(path, 10**6, "a test journal"))


# ---- shared/repro: journals -------------------------------------------------------------------
def test_repro_an_edited_places_line_is_refused_naming_the_line(tmp_path, capsys):
    """../shared/repro/journal_places_edit_accepted.sh: the edit silently changed the standings."""
    journal = tmp_path / "ref.jsonl"
    assert tournament(tmp_path, *TINY, "-j1", "--out", str(journal), name="ref")[0] == 0
    lines = journal.read_text().splitlines()
    for i, line in enumerate(lines):
        data = json.loads(line)
        if data.get("game") == 0:
            last = data["places"][-1]
            last[last.index(3)] = 2  # two 2nd places, no 3rd: impossible, and edited
            lines[i] = json.dumps(data, separators=(",", ":"))
            break
    (tmp_path / "j.jsonl").write_text("\n".join(lines[:8]) + "\n")
    capsys.readouterr()
    code, result = tournament(tmp_path, "--resume", str(tmp_path / "j.jsonl"), "-j1", name="res")
    err = capsys.readouterr().err
    assert code == 3 and result is None
    assert f"j.jsonl:{i + 1}:1: error: this record does not match its integrity digest" in err


def test_repro_a_second_writer_is_refused_and_the_journal_stays_resumable(tmp_path, capsys):
    """../shared/repro/journal_two_writers.sh: both writers succeeded and duplicated games."""
    journal = tmp_path / "tw.jsonl"
    _, reference = tournament(tmp_path, *TINY, "-j1", "--out", str(journal), name="ref")
    journal.write_text("".join(journal.read_text().splitlines(keepends=True)[:6]))
    first, _ = Journal.resume(journal, 1 << 32, "a tournament results file")  # the first writer holds it
    try:
        capsys.readouterr()
        assert tournament(tmp_path, "--resume", str(journal), "-j1", name="second")[0] == 1
        err = capsys.readouterr().err
        assert "in use by another run" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    finally:
        first.close()
    code, resumed = tournament(tmp_path, "--resume", str(journal), "-j1", name="later")
    assert code == 0 and resumed == reference
    with pytest.raises(JournalBusy):  # and between processes: a child holding it keeps this one out
        child = subprocess.Popen([sys.executable, "-c", "import sys, time; from recycle.kernel.journal_file import "
                                  "Journal; Journal.resume(sys.argv[1], 1 << 32, 'j'); print('held', flush=True); "
                                  "time.sleep(30)", str(journal)], stdout=subprocess.PIPE, text=True)
        try:
            assert child.stdout.readline().strip() == "held"
            Journal.resume(journal, 1 << 32, "a tournament results file")
        finally:
            child.kill()
            child.wait()


def test_a_full_disk_or_size_limit_exits_1_with_the_reason_and_keeps_the_journal_resumable(tmp_path):
    journal = tmp_path / "t.jsonl"
    _, reference = tournament(tmp_path, *TINY, "-j1", "--out", str(tmp_path / "ref.jsonl"), name="ref")

    size = len((tmp_path / "ref.jsonl").read_text().splitlines(keepends=True)[0]) + 500

    def limit() -> None:  # as `ulimit -f`: the header and a few games fit, the rest does not
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    proc = subprocess.run([sys.executable, "-m", "president.cli.main", "tournament", *TINY, "-j1", "--out", str(journal)],
                          capture_output=True, text=True, preexec_fn=limit, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "cannot write the journal" in proc.stderr and "File too large" in proc.stderr
    assert "Traceback" not in proc.stderr and journal.read_text().endswith("\n")
    code, resumed = tournament(tmp_path, "--resume", str(journal), "-j1", name="resumed")
    assert code == 0 and resumed == reference


def test_a_journal_of_the_previous_version_is_refused_with_a_reason(tmp_path, capsys):
    old = {"format": "recycle-tournament", "version": 1, "config": {"bots": ["Classic", "random"]}}
    (tmp_path / "old.jsonl").write_text(json.dumps(old) + "\n")
    assert main(["tournament", "--resume", str(tmp_path / "old.jsonl")]) == 2
    assert "version 1, without integrity digests, cannot be resumed" in capsys.readouterr().err


# ---- nothing in the current folder; a second run gets its own journal ---------------------------
def test_runs_not_told_where_keep_their_journals_in_the_state_folder_under_new_names(tmp_path, monkeypatch,
                                                                                    run_state_folder, capsys):
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    assert main(["tournament", *TINY, "-j1"]) == 0
    assert main(["tournament", *TINY, "-j1"]) == 0  # the same command again: never "already exists"
    err = capsys.readouterr().err
    assert sorted(p.name for p in run_state_folder.iterdir()) == ["tournament-5-2.jsonl", "tournament-5.jsonl"]
    assert str(run_state_folder / "tournament-5-2.jsonl") in err.replace("\n", "")
    assert list(here.iterdir()) == []  # (analyses: see the Ctrl-C test below)


# ---- read once, used throughout ----------------------------------------------------------------
def test_a_personality_edited_after_the_start_changes_nothing_and_is_named_on_resume(tmp_path, user_rules_folder,
                                                                                  capsys):
    from personalities.catalog import shipped_text

    mine = user_rules_folder / "Mine.rul"
    mine.write_text(shipped_text("Classic"))
    args = ["Mine", "Gambler", "random", *TINY[3:]]
    journal = tmp_path / "m.jsonl"
    _, reference = tournament(tmp_path, *args, "-j1", "--out", str(journal), name="ref")
    header = json.loads(journal.read_text().splitlines()[0])
    [(path, digest, text)] = header["files"]["texts"]
    assert path.endswith("Mine.rul") and text == mine.read_text() and len(digest) == 64
    journal.write_text("".join(journal.read_text().splitlines(keepends=True)[:5]))
    mine.write_text(shipped_text("Gambler"))  # edited while the run is stopped
    capsys.readouterr()
    code, resumed = tournament(tmp_path, "--resume", str(journal), "-j2", name="resumed")
    assert code == 0 and resumed == reference
    assert "Mine.rul changed since this run started; the run goes on with the text recorded" in \
        capsys.readouterr().err.replace("\n", "")


# ---- Ctrl-C: kept, shown, and the exact command to go on ------------------------------------------
def _interrupt_when(cmd: list[str], journal_glob: tuple[Path, str], lines: int) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "120"}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                            env=env, preexec_fn=as_at_a_terminal)
    folder, pattern = journal_glob
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        found = list(folder.glob(pattern))
        if found and found[0].read_text().count("\n") >= lines:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


@pytest.mark.slow
def test_ctrl_c_in_a_single_game_analysis_prints_partial_figures_and_the_resume_command(tmp_path,
                                                                                       run_state_folder):
    # (enough games that a loaded machine cannot finish them between the journal's 4th line and Ctrl-C)
    args = ["analyze", "President5", "--games", "12", "--rollouts", "1", "--bootstrap", "10", "--seed", "3"]
    stopped = _interrupt_when([sys.executable, "-m", "recycle.cli.main", *args, "--json", str(tmp_path / "r.json")],
                              (run_state_folder, "analysis-*.jsonl"), 4)
    journal = run_state_folder / "analysis-President5-3.jsonl"
    assert stopped.returncode == 130, stopped.stderr
    assert "partial results" in stopped.stdout and "fairness" in stopped.stdout
    hint = f"continue with: recycle analyze --resume {journal} --json {tmp_path / 'r.json'}"
    assert hint in stopped.stderr.replace("\n", "") and "Traceback" not in stopped.stderr
    assert recycle_main(["analyze", "--resume", str(journal), "--json", str(tmp_path / "r.json")]) == 0
    assert recycle_main([*args, "--json", str(tmp_path / "whole.json")]) == 0
    resumed, whole = (json.loads((tmp_path / f).read_text()) for f in ("r.json", "whole.json"))
    for obj in resumed + whole:
        obj["metrics"].pop("forward_model")
    assert resumed == whole


@pytest.mark.slow
def test_ctrl_c_in_evolve_prints_the_generations_done_and_the_resume_command(tmp_path):
    out = tmp_path / "x.rul"
    cmd = [sys.executable, "-m", "president.cli.main", "evolve", "Classic", "--generations", "300", "--population", "1",
           "--deals", "2", "--rounds", "1", "--seed", "4", "--against", "Cautious,Gambler", "--out", str(out)]
    stopped = _interrupt_when(cmd, (tmp_path, "x-evolve-*.jsonl"), 2)  # the header and a generation
    journal = tmp_path / "x-evolve-4.jsonl"
    assert stopped.returncode == 130, stopped.stderr
    assert "generation 1" in stopped.stdout and "the personality reached so far" in stopped.stdout
    assert f"continue with: president evolve --resume {journal}" in stopped.stderr.replace("\n", "")
    assert "Traceback" not in stopped.stderr and not out.exists()
