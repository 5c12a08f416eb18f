"""Hand records as a PDF (fpdf2): one block per board, the four hands around a compass.

Only the built-in Helvetica is used, so the PDF needs no font files; card names are ASCII.
"""

from __future__ import annotations

from typing import Any

from fpdf import FPDF

from engine.registry import load_game
from tournaments.models import Event

_SUITS = ("S", "H", "D", "C")
_SUIT_WORDS = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
# Where each seat's hand sits in a board's block: (column, row) in a 3 x 3 grid. Cards
# dealt to nobody (a widow) are printed in the first of the spare places no seat takes.
_PLACES = {"North": (1, 0), "East": (2, 1), "South": (1, 2), "West": (0, 1)}
_SPARE_PLACES = ((1, 2), (1, 1), (0, 2), (2, 2))


def _hand_lines(hand: dict[str, Any]) -> list[str]:
    return [hand["seat"]] + [f"{suit}: {hand['suits'][suit]}" for suit in _SUITS]


def hand_records_pdf(event: Event, records: list[dict[str, Any]]) -> bytes:
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(auto=True, margin=12)
    pdf.set_title(f"{event.name}: hand records")
    line = 4.2
    column = 62.0
    partnership = load_game(event.variant).partnership
    for record in records:
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 13)
        pdf.cell(0, 8, f"{event.name} - board {record['board']}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", "", 9)
        pdf.cell(0, 5, f"{event.variant}, dealer {record['dealer']}", new_x="LMARGIN", new_y="NEXT")
        top = pdf.get_y() + 2
        block = 5 * line + 3
        hands = record["hands"] + ([record["widow"]] if record.get("widow") else [])
        taken = {_PLACES[hand["seat"]] for hand in record["hands"]}
        spare = iter(place for place in _SPARE_PLACES if place not in taken)
        for hand in hands:
            col, row = _PLACES.get(hand["seat"]) or next(spare)
            for index, text in enumerate(_hand_lines(hand)):
                pdf.set_font("Helvetica", "B" if index == 0 else "", 9)
                pdf.set_xy(pdf.l_margin + col * column, top + row * block + index * line)
                pdf.cell(column, line, text)
        pdf.set_xy(pdf.l_margin, top + 3 * block + 2)
        if "results" in record and not partnership:
            _per_seat_results(pdf, record)
        elif "results" in record:
            _results_table(pdf, record)
    return bytes(pdf.output())


def _results_table(pdf: FPDF, record: dict[str, Any]) -> None:
    par = record.get("par")
    pdf.set_font("Helvetica", "B", 10)
    pdf.cell(0, 6, "Results", new_x="LMARGIN", new_y="NEXT")
    if par is not None:
        pdf.set_font("Helvetica", "", 9)
        scores = par.get("scores") or []
        if len(scores) == 3:
            shown = ", ".join(f"seat {seat} {score}" for seat, score in enumerate(scores))
        else:
            shown = f"NS {par['score_ns']}, EW {par['score_ew']}"
        pdf.cell(
            0,
            5,
            f"Par ({par['bot']} bot): {par['outcome']}, bid {par['bid']} by seat "
            f"{par['declarer']}, trump {par['trump']}: {shown}",
            new_x="LMARGIN",
            new_y="NEXT",
        )
    headings = (
        "Sec",
        "Rd",
        "Tbl",
        "NS",
        "EW",
        "Contract",
        "Result",
        "Score NS",
        "Score EW",
        "MP NS",
        "MP EW",
    )
    widths = (10, 10, 10, 12, 12, 34, 22, 18, 18, 16, 16)
    pdf.set_font("Helvetica", "B", 8)
    for heading, width in zip(headings, widths, strict=True):
        pdf.cell(width, 5, heading, border=1)
    pdf.ln()
    pdf.set_font("Helvetica", "", 8)
    for row in record["results"]:
        contract = f"{row['bid']} {row['trump'] or '-'} by {row['declarer_seat']}"
        cells = (
            row["section"],
            row["round"],
            row["table"],
            ",".join(str(n) for n in row["ns"]),
            ",".join(str(n) for n in row["ew"]),
            contract,
            row["hand_outcome"],
            row["score_ns"],
            row["score_ew"],
            row["matchpoints_ns"],
            row["matchpoints_ew"],
        )
        for value, width in zip(cells, widths, strict=True):
            pdf.cell(width, 5, str(value), border=1)
        pdf.ln()


def _per_seat_results(pdf: FPDF, record: dict[str, Any]) -> None:
    pdf.set_font("Helvetica", "B", 10)
    pdf.cell(0, 6, "Results", new_x="LMARGIN", new_y="NEXT")
    headings = ("Sec", "Rd", "Tbl", "Players", "Contract", "Result", "Buried", "Scores", "MP")
    widths = (10, 10, 10, 22, 34, 20, 14, 40, 30)
    pdf.set_font("Helvetica", "B", 8)
    for heading, width in zip(headings, widths, strict=True):
        pdf.cell(width, 5, heading, border=1)
    pdf.ln()
    pdf.set_font("Helvetica", "", 8)
    for row in record["results"]:
        cells = (
            row["section"],
            row["round"],
            row["table"],
            ",".join(str(n) for n in row["sides"]),
            f"{row['bid']} {row['trump'] or '-'} by {row['declarer_seat']}",
            row["hand_outcome"],
            row["buried"],
            " / ".join(str(n) for n in row["scores"]),
            " / ".join(str(n) for n in row["matchpoints"] or []),
        )
        for value, width in zip(cells, widths, strict=True):
            pdf.cell(width, 5, str(value), border=1)
        pdf.ln()
