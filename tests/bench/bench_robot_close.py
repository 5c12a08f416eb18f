"""How long a robot event's close holds the event's lock, by the number of boards in play.

    python tests/bench/bench_robot_close.py [--tables 10,50,200] [--repeat 3]
        [--database arena_bench_robot_close]

The close ends every table still in play as its forfeit, in the same transaction as the
close (each table locked, its hand rebuilt by the engine, the forfeit stored, the board
recorded). For each count an instant single4 event against greedy robots is set up with
that many entrants at South's first turn of board 1, and the close is timed inside a
transaction that is then rolled back (so the same tables are closed again at each repeat,
and no par task is sent). The baseline is the same close with every entrant's board
recorded already: what the close cost before it ended any table. On PostgreSQL.
"""

from __future__ import annotations

import argparse
import statistics
import time

from benchlib import setup_django

DATABASE = "arena_bench_robot_close"


class _RolledBack(Exception):
    """Raised at the end of a timed close to undo it."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", default="10,50,200")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--database", default=DATABASE)
    args = parser.parse_args()
    setup_django(args.database)

    from django.contrib.auth.models import Permission, User
    from django.db import transaction

    from arena.models import Player
    from robot_events import services
    from robot_events.models import RobotEvent, RobotPlay
    from tables import services as play_services
    from tables.models import PlayTable

    def player(name: str) -> Player:
        user, _ = User.objects.get_or_create(username=name)
        return Player.objects.get_or_create(user=user, defaults={"display_name": name})[0]

    director = player("bench-director")
    director.user.user_permissions.add(Permission.objects.get(codename="direct_robotevent"))
    director = Player.objects.select_related("user").get(pk=director.pk)

    def timed_close(event: RobotEvent) -> tuple[float, int]:
        """The close's time in ms, and the boards it recorded as closed forfeits."""
        started = time.perf_counter()
        try:
            with transaction.atomic():
                services.robot_event_close(event=event, by=director)
                elapsed = time.perf_counter() - started
                forfeits = RobotPlay.objects.filter(
                    entry__event=event, result__fault__kind="closed"
                ).count()
                assert not PlayTable.objects.filter(
                    robot_play__entry__event=event, status=PlayTable.Status.PLAYING
                ).exists()
                raise _RolledBack
        except _RolledBack:
            pass
        return elapsed * 1000, forfeits

    print(
        f"{'in play':>7} {'close ms':>9} {'per table ms':>12} {'baseline ms':>11} {'forfeits':>8}"
    )
    for count in (int(value) for value in args.tables.split(",")):
        event = services.robot_event_create(
            director=director,
            name=f"bench close {count}",
            variant="single4",
            boards=1,
            robots="greedy",
            kind="instant",
            scoring="mp",
        )
        for number in range(count):
            entry = services.robot_entry_join(event=event, player=player(f"bench-{number}"))
            services.robot_play_start(entry=entry)
        timed = [timed_close(event) for _ in range(args.repeat)]
        forfeits = {recorded for _, recorded in timed}
        assert forfeits == {count}, forfeits
        # Baseline: every board ended and recorded first, so that the close ends nothing.
        plays = RobotPlay.objects.filter(entry__event=event)
        for table_id in plays.values_list("table_id", flat=True):
            assert table_id is not None
            play_services.table_close(table_id=table_id, reason="the baseline")
        services.robot_plays_sync(plays=plays)
        baseline = [timed_close(event)[0] for _ in range(args.repeat)]
        close_ms = statistics.median(ms for ms, _ in timed)
        print(
            f"{count:>7} {close_ms:>9.1f} {close_ms / count:>12.2f} "
            f"{statistics.median(baseline):>11.1f} {count:>8}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
