"""The optional C kernel (``engine/_kernel.c``): the hot core of a pinochle hand behind the
public classes (``engine/_handcore.c``, see ``engine.handcore``), and whole random hands
and trick playouts in batches, card for card the hands the pure engine plays.

Built by ``make`` (``deploy/build_kernel.py``: gcc and the Python headers) into
``build/engine-kernel/``, beside a manifest of the digest of the source it was built
from; it is loaded only while that source is unchanged and ``ENGINE_KERNEL`` is not
``off``. Nothing needs it: without it ``KERNEL`` is ``None``, the callers take the pure
engine's path, and ``kernel_status()`` says why (logged once, ``python -m engine info``).
It lives outside the package; the bot sandbox's runtime copies the build read-only
beside its copy of ``engine/`` (``SANDBOX_DIR``), so bots get the same kernel.

The kernel plays whole random hands of every pinochle game (four-hand, three-hand
cutthroat and two-hand with its stock) and of Pinnacolo (two pairs, two, three or four
players: the draws and takes from the pile, every legal meld, addition and replacement of
a wild, the discards and the score; one wild a meld, as every preset has it);
``supports(rules)`` says whether it plays a variant's rules, ``random_hands`` and
``random_summary`` take either family's. Its playouts from a position (``playouts``) play
tricks alone: the four-hand and three-hand tricks, and two-hand's play-out once the stock
is empty (its stock phase has draws and melds between the tricks).

>>> import random
>>> from engine.rules import pinochle_rules
>>> if KERNEL is not None:
...     rng = random.Random(5)
...     hands = random_hands(pinochle_rules("single4"), game_seed=1, first=0, count=3, rng=rng)
...     assert len(hands) == 3 and all(len(hand["plays"]) == 48 for hand in hands)
...     from engine.pinnacolo import pinnacolo_rules
...     [hand] = random_hands(pinnacolo_rules("pinnacolo2"), game_seed=1, first=0, count=1,
...                           rng=rng)
...     assert len(pinnacolo_actions(hand["log"])) == hand["actions"]
"""

from __future__ import annotations

import array
import dataclasses
import hashlib
import importlib.machinery
import importlib.util
import json
import logging
import os
import random
import sys
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeGuard, TypeVar, cast

from engine.results import HandOutcome
from engine.rules import (
    AllPass,
    MustTrump,
    Pinochle2Rules,
    Pinochle3Rules,
    Pinochle4Rules,
    Rules,
    pinochle_rules,
    pinochle_variants,
)

if TYPE_CHECKING:
    from engine.pinnacolo.actions import PinnacoloAction
    from engine.pinnacolo.results import Outcome
    from engine.pinnacolo.rules import PinnacoloRules

    KernelRules = Rules | PinnacoloRules

__all__ = [
    "BUILD_DIR",
    "KERNEL",
    "KERNEL_DIR",
    "OUTCOMES",
    "SANDBOX_DIR",
    "SOURCE",
    "SOURCES",
    "config_of",
    "declare",
    "is_pinnacolo",
    "kernel_status",
    "kernel_variants",
    "outcomes_of",
    "parsed_config",
    "pinnacolo_actions",
    "pinnacolo_config",
    "pinnacolo_options",
    "playouts",
    "random_hands",
    "random_summary",
    "record_maker",
    "sample_deal",
    "search",
    "supports",
    "two_hand_melds",
]

PACKAGE_DIR = Path(__file__).resolve().parent
SOURCE = PACKAGE_DIR / "_kernel.c"
SOURCES = tuple(
    PACKAGE_DIR / name for name in ("_kernel.c", "_handcore.c", "_records.c", "_enums.c")
)
"""The kernel's sources: ``_kernel.c`` includes the others."""
MANIFEST = "manifest.json"
BUILD_DIR = PACKAGE_DIR.parent / "build" / "engine-kernel"
"""Where ``make engine-kernel`` builds it, beside the package."""
SANDBOX_DIR = PACKAGE_DIR.parent / "engine-kernel"
"""Where the bot sandbox's runtime copies the build, beside its copy of the package."""
KERNEL_DIR = (
    BUILD_DIR if (BUILD_DIR / MANIFEST).exists() or not SANDBOX_DIR.is_dir() else SANDBOX_DIR
)
"""The build this process loads: the project's, else a sandbox's copy."""
OUTCOMES = (
    HandOutcome.MADE,
    HandOutcome.SET,
    HandOutcome.THROWN_IN,
    HandOutcome.NO_MARRIAGE,
    HandOutcome.PASSED_OUT,
)
"""The kernel's outcome codes, in order."""

_log = logging.getLogger(__name__)


def source_digest() -> str:
    """The SHA-256 of the kernel's sources (empty when they are absent, as in the
    sandbox's copy of the package)."""
    digest = hashlib.sha256()
    try:
        for source in SOURCES:
            digest.update(source.read_bytes())
    except OSError:
        return ""
    return digest.hexdigest()


def library_path() -> Path:
    """Where the build puts the extension module."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return KERNEL_DIR / f"_kernel{suffix}"


def _load() -> tuple[ModuleType | None, str]:
    if os.environ.get("ENGINE_KERNEL", "auto").strip().lower() == "off":
        return None, "off (ENGINE_KERNEL=off)"
    try:
        manifest = json.loads((KERNEL_DIR / MANIFEST).read_text())
    except FileNotFoundError:
        return None, "not built (make engine-kernel: gcc and the Python headers)"
    except (OSError, ValueError) as error:
        return None, f"unreadable manifest ({error})"
    if not isinstance(manifest, dict) or manifest.get("python") != sys.implementation.cache_tag:
        return None, f"not built for {sys.implementation.cache_tag}"
    if manifest.get("source") != source_digest():
        return (
            None,
            "stale: its sources (engine/_kernel.c and its includes) changed since it was built",
        )
    spec = importlib.util.spec_from_file_location("engine._kernel", library_path())
    if spec is None or spec.loader is None:
        return None, "no extension module in the build"
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError as error:
        return None, f"does not load ({error})"
    return module, "loaded"


KERNEL, _STATUS = _load()
"""The kernel's module, or ``None`` (``kernel_status`` says why)."""
_told = False


def kernel_status() -> str:
    """``loaded``, or why the pure engine runs instead; logged once per process."""
    global _told
    if not _told:
        _told = True
        if KERNEL is None:
            _log.info("the C kernel is %s: the pure engine runs", _STATUS)
    return _STATUS


def _pinnacolo() -> Any:
    """``engine.pinnacolo.rules``, imported when first needed: ``engine.pinnacolo`` imports
    ``engine.game``, whose pinochle hands import this module (``engine.trickstate``), so an
    import at the top of this module would be circular."""
    import engine.pinnacolo.rules

    return engine.pinnacolo.rules


def is_pinnacolo(rules: object) -> TypeGuard[PinnacoloRules]:
    """Whether ``rules`` are Pinnacolo's (``PinnacoloRules``), not a pinochle game's."""
    return isinstance(rules, _pinnacolo().PinnacoloRules)


def supports(rules: KernelRules) -> bool:
    """Whether the kernel plays whole hands of these rules (four-hand, three-hand and
    two-hand pinochle; Pinnacolo with one wild a meld, every preset's); the first ask
    without a kernel logs why the pure engine plays them."""
    if KERNEL is None:
        kernel_status()
        return False
    if isinstance(rules, Pinochle4Rules | Pinochle3Rules | Pinochle2Rules):
        return True
    return is_pinnacolo(rules) and rules.wilds_per_meld == 1


def kernel_variants() -> list[str]:
    """The presets whose hands the kernel plays (none without a kernel)."""
    names = [name for name in pinochle_variants() if supports(pinochle_rules(name))]
    presets: dict[str, PinnacoloRules] = _pinnacolo().PINNACOLO_PRESETS
    return names + [name for name, rules in presets.items() if supports(rules)]


def outcomes_of(rules: KernelRules) -> tuple[HandOutcome | Outcome, ...]:
    """What the kernel's outcome codes of these rules' hands mean: ``OUTCOMES`` for the
    pinochle games; Pinnacolo's closed and stock out."""
    if is_pinnacolo(rules):
        from engine.pinnacolo import results  # circular at the top: see _pinnacolo

        return (results.Outcome.CLOSED, results.Outcome.STOCK_OUT)
    return OUTCOMES


def pinnacolo_config(rules: PinnacoloRules) -> tuple[int, ...]:
    """Pinnacolo's rules as the kernel reads them: one tuple, in ``_kernel.c``'s order."""
    module = _pinnacolo()
    return (
        rules.players,
        int(rules.pairs),
        rules.hand_size,
        int(rules.taken_card is module.TakenCard.ALWAYS),
        rules.wilds_per_meld,
        int(rules.replaced_wild_melded),
        int(rules.empty_stock is module.EmptyStock.LAST_CARD_ENDS),
        rules.closing_bonus,
        rules.one_go_bonus,
        int(rules.no_meld_penalty is module.NoMeldPenalty.DOUBLE_HAND),
        rules.no_meld_points,
    )


def pinnacolo_options(options: bytes) -> list[int]:
    """How many legal actions each action of a Pinnacolo hand's ``random_hands`` detail
    was chosen among (its ``options``: the kernel's native 32-bit words)."""
    return list(array.array("I", options))


_DRAW, _TAKE, _MELD, _ADD, _REPLACE, _DISCARD = range(6)
_NONE = 255
"""``_kernel.c``'s action codes, and its "stands for nothing" (a wild of three pinelle)."""


def pinnacolo_actions(log: bytes) -> list[PinnacoloAction]:
    """A Pinnacolo hand's actions from the ``log`` of its ``random_hands`` detail, as the
    pure engine's history holds them."""
    from engine.pinnacolo import actions  # circular at the top: see _pinnacolo

    out: list[PinnacoloAction] = []
    at = 0
    while at < len(log):
        code = log[at]
        if code == _DRAW:
            out.append(actions.DRAW)
            at += 1
        elif code == _TAKE:
            out.append(actions.Take(log[at + 1]))
            at += 2
        elif code == _DISCARD:
            out.append(actions.Discard(log[at + 1]))
            at += 2
        elif code == _REPLACE:
            out.append(actions.Replace(log[at + 1], log[at + 2]))
            at += 3
        else:
            # meld: the count, then (face, stands for) pairs; add: the meld index first.
            start = at + (2 if code == _MELD else 3)
            pairs = log[start : start + 2 * log[start - 1]]
            cards = [
                (face, -1 if stands_for == _NONE else stands_for)
                for face, stands_for in zip(pairs[::2], pairs[1::2], strict=True)
            ]
            meld = actions.MeldCards(cards) if code == _MELD else actions.Add(log[at + 1], cards)
            out.append(meld)
            at = start + len(pairs)
    return out


_CONFIGS: dict[int, tuple[Rules, Any]] = {}


def config_of(rules: Rules) -> tuple[Any, ...]:
    """The rules as the kernel reads them: one tuple, in ``_kernel.c``'s order."""
    tables = rules._tables
    values = tables.meld
    auction = rules if isinstance(rules, Pinochle4Rules | Pinochle3Rules) else None
    config = (
        rules.players,
        tables.hand_size,
        int(rules.deck == "double"),
        tables.head,
        int(rules.must_trump is MustTrump.ONLY_IF_WINNING),
        int(rules.must_overtrump),
        tables.counter_points,
        rules.last_trick_bonus,
        values.run,
        values.aces,
        values.kings,
        values.queens,
        values.jacks,
        values.pinochle,
        values.royal_marriage,
        values.marriage,
        values.dix,
        int(values.run_includes_marriage),
        int(rules.meld_needs_trick),
        tables.bids,
        tables.raise_limit,
        int(tables.pass_with_help),
        int(auction is not None and auction.all_pass is AllPass.DEALER_STUCK),
        int(auction is not None and auction.trump_needs_marriage),
        rules.pass_count if isinstance(rules, Pinochle4Rules) else 0,
        int(auction is not None and auction.throw_in),
        rules.widow if isinstance(rules, Pinochle3Rules) else 0,
        int(isinstance(rules, Pinochle3Rules) and rules.bury_meld_cards),
        rules.turned_dix if isinstance(rules, Pinochle2Rules) else 0,
        rules.dix_exchange if isinstance(rules, Pinochle2Rules) else 0,
    )
    return config


def two_hand_melds(trump: int) -> tuple[tuple[int, ...], ...]:
    """Two-hand's melds of table 3.1 with this trump, each as its faces in face order,
    in the order the kernel numbers them (``laid``): the run, the double run, the royal
    marriage, the marriages of the other suits, the dix, the pinochle, the double
    pinochle, then aces, kings, queens and jacks around, each single then double.

    >>> two_hand_melds(0)[:3]
    ((0, 1, 2, 3, 4), (0, 0, 1, 1, 2, 2, 3, 3, 4, 4), (2, 3))
    """
    base = trump * 6
    run = tuple(range(base, base + 5))
    marriages = [(suit * 6 + 2, suit * 6 + 3) for suit in range(4) if suit != trump]
    pinochle = (3, 16)  # QS and JD
    arounds = [tuple(suit * 6 + rank for suit in range(4)) for rank in (0, 2, 3, 4)]

    def double(faces: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(faces * 2))

    melds = [run, double(run), (base + 2, base + 3), *marriages, (base + 5,)]
    melds += [pinochle, double(pinochle)]
    for around in arounds:
        melds += [around, double(around)]
    return tuple(melds)


def _kernel() -> Any:
    if KERNEL is None:
        raise RuntimeError(f"the C kernel is {_STATUS}")
    return KERNEL


_Record = TypeVar("_Record")


def record_maker(cls: type[_Record]) -> Callable[..., _Record]:
    """What builds a frozen slotted dataclass ``cls`` from its fields by position: the
    kernel's maker, which stores them without running ``__init__`` (a frozen dataclass
    sets each field through ``object.__setattr__``, about 100 ns a field), else the class
    itself. Only for classes whose ``__init__`` does nothing but store its fields."""
    if KERNEL is None:
        return cls
    fields = tuple(field.name for field in dataclasses.fields(cast(Any, cls)))
    maker: Callable[..., _Record] = KERNEL.record_maker(cls, fields)
    return maker


def parsed_config(rules: Rules) -> Any:
    """The kernel's own copy of ``config_of(rules)``, parsed once per rules object: a
    bot's playouts call the kernel thousands of times with the same rules."""
    cached = _CONFIGS.get(id(rules))
    if cached is not None and cached[0] is rules:
        return cached[1]
    parsed = _kernel().config(config_of(rules))
    if len(_CONFIGS) > 64:
        _CONFIGS.clear()
    _CONFIGS[id(rules)] = (rules, parsed)
    return parsed


def random_hands(
    rules: KernelRules, *, game_seed: int, first: int, count: int, rng: random.Random
) -> list[dict[str, Any]]:
    """Hands ``first`` to ``first + count - 1`` of a game of seed ``game_seed`` (dealt
    from ``hand_seed(game_seed, n)``, dealer ``n`` mod the players), played out as
    ``play_randomly(rng)`` plays them; ``rng`` is advanced as that would.

    Each pinochle hand: ``outcome`` (an index of ``OUTCOMES``), ``declarer``, ``bid``,
    ``trump``, ``melds`` (by seat, 0 when not shown), ``taken``, ``won``, ``scores`` (by
    side), ``plays`` (the faces played, as bytes), ``calls`` (the auction: -1 pass, -2
    pass with help, else a rung of the ladder), ``buried`` and ``actions``; two-hand's
    decisions after its stock tricks in ``laid`` (-1 no meld, -2 the dix exchange, else
    an index of ``two_hand_melds(trump)``) and the choices each had in ``options`` (bit
    ``code + 2`` for each code offered).

    Each Pinnacolo hand: ``outcome`` (an index of ``outcomes_of(rules)``), ``closer``
    (-1: none), ``one_go``, ``seats`` (per seat: laid down, melded, in hand, bonus,
    score), ``scores`` (by side), ``actions`` (how many), ``log`` (the actions:
    ``pinnacolo_actions``), ``options`` (how many legal actions each was chosen among:
    ``pinnacolo_options``), ``hands`` (every seat's 53 face counts at the end, seat after
    seat) and ``melds`` (how many are on the table).
    """
    if is_pinnacolo(rules):
        state, hands = _kernel().pinnacolo_hands(
            pinnacolo_config(rules), game_seed, first, count, rng.getstate(), True
        )
    else:
        state, hands = _kernel().random_hands(
            parsed_config(cast("Rules", rules)), game_seed, first, count, rng.getstate(), True
        )
    rng.setstate(state)
    result: list[dict[str, Any]] = hands
    return result


def random_summary(
    rules: KernelRules, *, game_seed: int, first: int, count: int, rng: random.Random
) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """``random_hands`` summed: hands by outcome code (``outcomes_of(rules)``), actions,
    scores by side."""
    if is_pinnacolo(rules):
        state, summary = _kernel().pinnacolo_hands(
            pinnacolo_config(rules), game_seed, first, count, rng.getstate(), False
        )
    else:
        state, summary = _kernel().random_hands(
            parsed_config(cast("Rules", rules)), game_seed, first, count, rng.getstate(), False
        )
    rng.setstate(state)
    outcomes, actions, scores = summary
    return outcomes, actions, scores


def playouts(
    rules: Rules,
    *,
    trump: int,
    hands: Sequence[Sequence[int]],
    trick: Sequence[int],
    leader: int,
    taken: Sequence[int],
    count: int,
    greedy: bool,
    rng: random.Random | int,
    first: int = -1,
    uniform: Collection[int] = (),
) -> list[tuple[int, ...]]:
    """``count`` playouts of the tricks from one position with every hand known (the
    seats' face counts), ``trick`` led by ``leader``: the counters each side has taken at
    the end, last trick included. ``greedy``: the strong reference bot's card sense,
    else uniform among the legal cards; the seats of ``uniform`` play uniformly among
    the legal cards either way (drawing as ``greedy=False`` draws); the seat to move
    plays ``first`` if a face. ``rng`` is advanced as the playouts drew from it; an int
    is the seed of a ``random.Random`` of its own (cheaper: no state goes in or out)."""
    seeded = isinstance(rng, int)
    mask = 0
    for seat in uniform:
        mask |= 1 << seat
    state, results = _kernel().playouts(
        parsed_config(rules),
        trump,
        hands,
        trick,
        leader,
        taken,
        count,
        int(greedy),
        rng if isinstance(rng, int) else rng.getstate(),
        first,
        mask,
    )
    if not seeded:
        assert isinstance(rng, random.Random)
        rng.setstate(state)
    out: list[tuple[int, ...]] = results
    return out


def sample_deal(
    kinds: Sequence[int],
    pool: Sequence[int],
    room: Sequence[int],
    hands: Sequence[Sequence[int]],
    others: Sequence[int],
    rng: random.Random,
) -> list[list[int]]:
    """The unseen cards dealt at random to the three ``others`` under what the play has
    shown: ``pool`` (24 face counts) shuffled as ``rng.shuffle`` does, the cards some seat
    may not hold first, each to an allowed seat (``kinds[face]``: bits of ``others``) with
    room left, chance proportional to its room plus one, never leaving the rest
    impossible to place (Hall's condition). ``hands``: the four hands' counts so far.
    The strong reference bot's ``Beliefs.sample``, card for card; ``rng`` is advanced as
    that would. ``ValueError`` when no seat may take a card."""
    state, dealt = _kernel().sample_deal(kinds, pool, room, hands, others, rng.getstate())
    rng.setstate(state)
    result: list[list[int]] = dealt
    return result


def search(
    rules: Rules,
    *,
    trump: int,
    kinds: Sequence[int],
    pool: Sequence[int],
    room: Sequence[int],
    hands: Sequence[Sequence[int]],
    others: Sequence[int],
    trick: Sequence[int],
    leader: int,
    taken: Sequence[int],
    candidates: Sequence[int],
    deals: int,
    playouts: int,
    rng: random.Random,
    score: tuple[int, int, int, int, int],
) -> tuple[list[int], list[int]]:
    """The strong reference bot's search of one four-hand decision in one call: ``deals``
    times, the unseen cards dealt as ``sample_deal`` deals them (``kinds``, ``pool``,
    ``room``, ``hands``, ``others`` as there), a seed drawn as ``rng.getrandbits(32)``,
    then each of ``candidates`` (a face the seat to move plays first, -1 for none)
    played out as ``playouts(greedy=True, rng=seed)`` plays it, until ``playouts``
    playouts in all. ``score``: the two sides' meld, the bid, the declaring side and the
    searching seat's side, each playout counted as ``Playout.score`` counts it. The
    sums of the scores and the playouts, per candidate; ``rng`` is advanced as the bot's
    own loop (``StrongBot.evaluate`` without the kernel) would advance it."""
    state, totals, counts = _kernel().search(
        parsed_config(rules),
        trump,
        kinds,
        pool,
        room,
        hands,
        others,
        trick,
        leader,
        taken,
        candidates,
        deals,
        playouts,
        rng.getstate(),
        score,
    )
    rng.setstate(state)
    return list(totals), list(counts)


def declare(
    rules: Rules,
    *,
    hand: Sequence[int],
    seat: int,
    declarer: int,
    trump: int,
    deals: int,
    seed: int,
    partner_meld: float,
    total: int,
) -> list[tuple[int, int, int, float]]:
    """``deals`` whole four-hand hands from the end of the auction, as ``seat`` holding
    ``hand`` (face counts) sees them: the other cards dealt at random, ``declarer`` (-1:
    whichever opponent of ``seat`` the greedy bot values more) naming ``trump`` (-1: the
    greedy bot's trump), passing by rules of thumb, meld, and the tricks by the strong
    bot's playout card sense. Each: the declaring side's meld and counters, the other
    side's, the declarer, and the greedy bot's value of its hand (``hand_value``, with
    ``partner_meld`` and ``total`` its terms). The same ``seed`` deals the same hands
    whatever the declarer and the trump, so that they compare on the same cards."""
    rows = _kernel().declare(
        parsed_config(rules), hand, seat, declarer, trump, deals, seed, partner_meld, total
    )
    return [(int(a), int(b), int(c), float(d)) for a, b, c, d in rows]
