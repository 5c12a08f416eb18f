"""The engine's two builds: the compiled core (``make engine-compiled``) and pure Python.

Each case runs a fresh interpreter, since the build is chosen once, when ``engine`` is
first imported. The cases comparing the builds are skipped (saying so) when the compiled
core is not built; ``make test`` builds it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.native import COMPILED_MODULES, NATIVE_DIR

ROOT = Path(__file__).resolve().parents[2]

# Whole hands of every pinochle game through the public interface and the fast path: the
# results, the action texts and a copy's and an unpickled state's results, as JSON.
PLAY = """
import json, pickle, random
import engine
from engine.registry import load_game
out = {"build": engine.BUILD, "hands": []}
for variant in ("single4", "auction4", "double4", "cutthroat3", "twohand"):
    for seed in range(12):
        state = load_game(variant).new_initial_state(seed=seed, dealer=seed % 2)
        choose = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions
            if len(legal):
                state.apply(legal[choose.randrange(len(legal))])
            else:
                state.play_randomly(choose)
        fast = load_game(variant).new_initial_state(seed=seed, dealer=seed % 2)
        copied = pickle.loads(pickle.dumps(fast.copy()))
        copied.play_randomly(random.Random(seed))
        out["hands"].append([
            state.result().to_json(),
            [str(action) for action in state.history],
            copied.result().to_json(),
            [str(action) for action in copied.history],
            state.observation(0),
        ])
print(json.dumps(out))
"""


def run(code: str, build: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ENGINE_BUILD": build}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True
    )


def built() -> bool:
    return run("import engine; print(engine.BUILD)", "auto").stdout.strip() == "compiled"


def test_an_unknown_build_is_refused_by_name() -> None:
    done = run("import engine", "fastest")
    assert done.returncode != 0
    assert "ENGINE_BUILD must be one of auto, pure, compiled, not 'fastest'" in done.stderr


def test_the_pure_build_runs_the_sources() -> None:
    done = run("import engine, engine.hand as h; print(engine.BUILD, h.__file__)", "pure")
    build, path = done.stdout.split()
    assert build == "pure" and path.endswith("hand.py")


@pytest.mark.skipif(not built(), reason="the compiled engine is not built (make engine-compiled)")
def test_both_builds_play_the_same_hands_to_the_same_results() -> None:
    compiled = json.loads(run(PLAY, "compiled").stdout)
    pure = json.loads(run(PLAY, "pure").stdout)
    assert (compiled["build"], pure["build"]) == ("compiled", "pure")
    assert len(compiled["hands"]) == 60
    assert compiled["hands"] == pure["hands"]


@pytest.mark.skipif(not built(), reason="the compiled engine is not built (make engine-compiled)")
def test_an_edited_source_is_never_shadowed_by_a_stale_build(tmp_path: Path) -> None:
    # A copy of the engine and its build, one compiled module's source then changed.
    shutil.copytree(ROOT / "engine", tmp_path / "engine")
    shutil.copytree(NATIVE_DIR, tmp_path / NATIVE_DIR.relative_to(ROOT))
    probe = "import engine; print(engine.BUILD)"
    assert run(probe, "auto", tmp_path).stdout.strip() == "compiled"
    source = tmp_path / "engine" / f"{COMPILED_MODULES[-1]}.py"
    source.write_text(source.read_text() + "\n# edited\n")
    assert run(probe, "auto", tmp_path).stdout.strip() == "pure"
    required = run(probe, "compiled", tmp_path)
    assert required.returncode != 0
    assert f"is stale: engine/{COMPILED_MODULES[-1]}.py changed" in required.stderr
