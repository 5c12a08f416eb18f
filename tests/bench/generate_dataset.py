"""Bulk-generate a large arena in PostgreSQL for the API latency benchmark.

    python tests/bench/generate_dataset.py [--bots 10000] [--games 1000000] [--database NAME]

Players own ten bots each, every bot has one active auction4 version with a rating, and
matches of 10 boards (20 games, each with a replay of a real engine hand) fill the games
table; the last match has ``BIG_MATCH_BOARDS`` boards, as many as matchmaking plays. Rows
are made by the database itself (INSERT ... SELECT generate_series), which takes minutes
rather than hours. Uses the database ``arena_bench_api`` (recreated), or
``--database``: several people benchmarking on one PostgreSQL server each need their own.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import time

from benchlib import setup_django

DATABASE = "arena_bench_api"
BOARDS_PER_MATCH = 10
BIG_MATCH_BOARDS = 50


def sample_replay() -> str:
    from engine.hand import new_hand
    from engine.replay import Replay

    state = new_hand("auction4", seed=5)
    state.play_randomly(random.Random(5))
    hand = Replay.from_state(state).to_json()
    document = {
        "format": "pinochle-arena/game-replay",
        "version": 1,
        "match": 0,
        "board": 1,
        "table": "A",
        "seat_versions": [1, 2, 1, 2],
        "hand": hand,
        "timings_ms": [0.5] * len(hand["actions"]),
        "fault": None,
        "team_scores": hand["result"]["team_scores"],
    }
    return json.dumps(document)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--database", default=DATABASE)
    args = parser.parse_args()
    subprocess.run(
        [
            "psql",
            "-h",
            "127.0.0.1",
            "-U",
            "postgres",
            "-qc",
            f"DROP DATABASE IF EXISTS {args.database}",
        ],
        check=True,
    )
    setup_django(args.database)
    from django.db import connection

    players = max(1, args.bots // 10)
    matches = args.games // (2 * BOARDS_PER_MATCH)
    replay = sample_replay()
    rules = json.dumps(json.loads(replay)["hand"]["rules"])
    # Every statement is run with the same two parameters; literal percent signs are doubled.
    steps = [
        (
            "users",
            f"""
            INSERT INTO auth_user (password, is_superuser, username, first_name, last_name,
                                   email, is_staff, is_active, date_joined)
            SELECT '!', false, 'player' || g, '', '', '', false, true, now()
            FROM generate_series(1, {players}) g""",
        ),
        (
            "players",
            """
            INSERT INTO arena_player (user_id, display_name, created)
            SELECT id, username, now() FROM auth_user WHERE username LIKE 'player%%'""",
        ),
        (
            "bots",
            f"""
            INSERT INTO arena_bot (owner_id, name, variant, description, created)
            SELECT p.id, 'bot' || g, 'auction4', '', now()
            FROM arena_player p CROSS JOIN generate_series(1, {args.bots // players}) g""",
        ),
        (
            "versions",
            """
            INSERT INTO arena_botversion (bot_id, number, kind, source, sha256, size, status,
                status_reason, build_log, fault_count, games_played, created, publish_pending)
            SELECT id, 1, 'module', convert_to('def act(o, l):\n    return l[0]\n', 'UTF8'),
                   md5(id::text) || md5(id::text), 33, 'active', '', '', 0, 0, now(), false
            FROM arena_bot""",
        ),
        (
            "ratings",
            """
            INSERT INTO arena_rating (version_id, variant, elo, elo_low, elo_high, matches,
                boards, last_match)
            SELECT id, 'auction4', r.elo, r.elo - 50, r.elo + 50, 20, 200, now()
            FROM arena_botversion, LATERAL (SELECT 1500 + (random() * 800 - 400) AS elo) r""",
        ),
        (
            "matches",
            f"""
            INSERT INTO arena_match (variant, rules, seed, board_count, version_x_id,
                version_y_id, decision_ms, bank_ms, kind, rated, status, attempts, claim_token,
                error, created, started, finished, completion_seq, score_x, share_x, mean_x,
                ci95, board_results, faults, stderr, board_controls, seed_chosen,
                seed_commitment, seed_secret, publish_pending)
            SELECT 'auction4', %(rules)s::jsonb, g, {BOARDS_PER_MATCH},
                   v.first + (g %% v.count), v.first + ((g * 7 + 1) %% v.count), 1000, 60000,
                   'matchmaking', true, 'done', 1, '', '', now(), now(), now(), g, 0, 0.5, 0,
                   0, '[0,0,0,0,0,0,0,0,0,0]'::jsonb, 0, '{{}}'::jsonb, '[]'::jsonb, false, '',
                   '', false
            FROM generate_series(1, {matches}) g,
                 (SELECT min(id) AS first, count(*) AS count FROM arena_botversion) v""",
        ),
        (
            "boards",
            f"""
            INSERT INTO arena_board (variant, rules, seed, dealer, created)
            SELECT 'auction4', %(rules)s::jsonb, g, g %% 4, now()
            FROM generate_series(1, {matches * BOARDS_PER_MATCH}) g""",
        ),
        (
            "games",
            f"""
            INSERT INTO arena_game (match_id, board_id, number, "table", seat_versions,
                                    team_scores, result, fault)
            SELECT m.id, b.first + (m.id - m0.first) * {BOARDS_PER_MATCH} + n - 1, n, t,
                   '[1,2,1,2]'::jsonb, '[0,0]'::jsonb, NULL, NULL
            FROM arena_match m, generate_series(1, {BOARDS_PER_MATCH}) n,
                 (VALUES ('A'), ('B')) tables(t),
                 (SELECT min(id) AS first FROM arena_board) b,
                 (SELECT min(id) AS first FROM arena_match) m0""",
        ),
        (
            "big match",
            f"""
            INSERT INTO arena_match (variant, rules, seed, board_count, version_x_id,
                version_y_id, decision_ms, bank_ms, kind, rated, status, attempts, claim_token,
                error, created, started, finished, completion_seq, score_x, share_x, mean_x,
                ci95, board_results, faults, stderr, board_controls, seed_chosen,
                seed_commitment, seed_secret, publish_pending)
            SELECT 'auction4', %(rules)s::jsonb, 0, {BIG_MATCH_BOARDS}, v.first, v.first + 1,
                   1000, 60000, 'matchmaking', true, 'done', 1, '', '', now(), now(), now(),
                   {matches + 1}, 0, 0.5, 0, 0,
                   (SELECT jsonb_agg(0) FROM generate_series(1, {BIG_MATCH_BOARDS})), 0,
                   '{{}}'::jsonb, '[]'::jsonb, false, '', '', false
            FROM (SELECT min(id) AS first FROM arena_botversion) v""",
        ),
        (
            "its boards",
            f"""
            INSERT INTO arena_board (variant, rules, seed, dealer, created)
            SELECT 'auction4', %(rules)s::jsonb, {matches * BOARDS_PER_MATCH} + g, g %% 4, now()
            FROM generate_series(1, {BIG_MATCH_BOARDS}) g""",
        ),
        (
            "its games",
            f"""
            INSERT INTO arena_game (match_id, board_id, number, "table", seat_versions,
                                    team_scores, result, fault)
            SELECT m.id, b.last - {BIG_MATCH_BOARDS} + n, n, t, '[1,2,1,2]'::jsonb,
                   '[0,0]'::jsonb, NULL, NULL
            FROM (SELECT max(id) AS id FROM arena_match) m,
                 generate_series(1, {BIG_MATCH_BOARDS}) n, (VALUES ('A'), ('B')) tables(t),
                 (SELECT max(id) AS last FROM arena_board) b""",
        ),
        (
            "replays",
            """
            INSERT INTO arena_replay (game_id, document)
            SELECT id, %(replay)s::jsonb FROM arena_game""",
        ),
        ("analyse", "ANALYZE"),
    ]
    total = time.perf_counter()
    with connection.cursor() as cursor:
        for name, sql in steps:
            started = time.perf_counter()
            cursor.execute(sql, {"rules": rules, "replay": replay})
            print(f"{name:9s} {cursor.rowcount:>10,} rows  {time.perf_counter() - started:6.1f} s")
    elapsed = time.perf_counter() - total
    print(f"dataset of {args.bots:,} bots and {args.games:,} games in {elapsed:.0f} s")


if __name__ == "__main__":
    main()
