"""Round trip of a human's action at a table of reference bots, per variant and bot.

    python tests/bench/bench_play_latency.py [--hands 3] [--database arena_bench_play]

Each hand is played by a random human through the API's action endpoint (Django's test
client: middleware, view, the service under its row lock, the reference bots' replies up to
the human's next turn, the selector and the JSON), on PostgreSQL. The time of each POST is
one sample. The baseline, measured in the same run on the same actions, is the engine alone
rebuilding the hand from its log and applying the action (what any refereed action costs
at the least). Target: p95 of the round trip at most 300 ms for every reference bot.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from benchlib import percentile, setup_django

from bots.reference import reference_bots

DATABASE = "arena_bench_play"
TARGET_MS = 300.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--database", default=DATABASE)
    parser.add_argument("--bots", default="random,greedy,strong")
    args = parser.parse_args()
    # The test client speaks as "testserver"; nothing listens on the network.
    os.environ["ALLOWED_HOSTS"] = "testserver"
    setup_django(args.database)

    from django.contrib.auth.models import User
    from rest_framework.test import APIClient

    from engine.registry import load_game, variant_names
    from tables import referee
    from tables.models import PlayTable

    user, _ = User.objects.get_or_create(username="bench-player")
    client = APIClient()
    client.force_authenticate(user)
    print(
        f"{'variant':<11} {'bot':<7} {'actions':>7} {'p50 ms':>8} {'p95 ms':>8} "
        f"{'engine p50':>10} {'engine p95':>10} {'p95 ratio':>9}"
    )
    worst = 0.0
    for variant in variant_names():
        game = load_game(variant)
        for bot in args.bots.split(","):
            if bot not in reference_bots(game):
                continue
            trips: list[float] = []
            engine: list[float] = []
            rng = random.Random(1)
            for hand_number in range(args.hands):
                spec = {"kind": "reference", "name": bot}
                table = client.post(
                    "/api/play/tables/",
                    {
                        "variant": variant,
                        "human_seat": hand_number % 2,
                        "dealer": 0,
                        "bots": [spec] * (game.players - 1),
                    },
                    format="json",
                ).json()
                while table["status"] == "playing":
                    action = rng.choice(table["controls"]["legal"])
                    row = PlayTable.objects.get(pk=table["id"])
                    started = time.perf_counter()
                    hand = referee.rebuild(
                        variant,
                        rules=row.rules,
                        seed=row.seed,
                        dealer=row.dealer,
                        actions=row.actions,
                    )
                    hand.apply(action)
                    engine.append((time.perf_counter() - started) * 1000)
                    started = time.perf_counter()
                    answer = client.post(
                        f"/api/play/tables/{table['id']}/actions/",
                        {"action": action, "ply": table["ply"]},
                        format="json",
                    )
                    trips.append((time.perf_counter() - started) * 1000)
                    assert answer.status_code == 200, answer.content
                    table = answer.json()["table"]
            p95 = percentile(trips, 0.95)
            worst = max(worst, p95)
            print(
                f"{variant:<11} {bot:<7} {len(trips):>7} {percentile(trips, 0.5):>8.1f} "
                f"{p95:>8.1f} {percentile(engine, 0.5):>10.2f} {percentile(engine, 0.95):>10.2f} "
                f"{p95 / max(percentile(engine, 0.95), 1e-6):>9.1f}"
            )
    print(
        f"worst p95 {worst:.1f} ms (target {TARGET_MS:.0f} ms): "
        f"{'met' if worst <= TARGET_MS else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
