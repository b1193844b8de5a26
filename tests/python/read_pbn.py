"""Reads a PBN file with endplay (a third-party PBN reader) and prints, as JSON, what it found for
each game: the board, the contract, declarer and tricks, the deal and the score tag. The scoring
service's end-to-end test compares this with what it exported."""

import json
import sys

from endplay.parsers import pbn
from endplay.types import Penalty

DENOMINATIONS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C", "nt": "NT"}
# endplay calls an undoubled contract's penalty "passed" (the bid was passed, not doubled); a
# passed-out board is a contract of level 0.
PENALTIES = {Penalty.passed: "", Penalty.doubled: "X", Penalty.redoubled: "XX"}


def game(board):
    entry = {"board": board.board_num, "score": board.info.get("Score")}
    contract = board.contract
    if contract is None:
        entry["contract"] = None
    elif contract.level == 0:
        entry["contract"] = "Pass"
    else:
        denomination = DENOMINATIONS[contract.denom.name]
        entry["contract"] = f"{contract.level}{denomination}{PENALTIES[contract.penalty]}"
        entry["declarer"] = "NESW"[contract.declarer.value]
        entry["tricks"] = contract.level + 6 + contract.result
        if board.deal is not None:
            entry["deal"] = board.deal.to_pbn()
    return entry


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        boards = pbn.load(f)
    print(json.dumps([game(b) for b in boards]))


if __name__ == "__main__":
    main()
