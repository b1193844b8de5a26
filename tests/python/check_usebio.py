"""Parses a USEBIO XML document with Python's own XML parser and prints, as JSON, the pairs with
their places and the traveller lines, for the scoring service's end-to-end test."""

import json
import sys
import xml.etree.ElementTree as ET


def main():
    root = ET.parse(sys.argv[1]).getroot()
    event = root.find("EVENT")
    pairs = [
        {"pair": p.findtext("PAIR_NUMBER"), "place": p.findtext("PLACE"), "percentage": p.findtext("PERCENTAGE")}
        for p in event.find("PARTICIPANTS").findall("PAIR")
    ]
    lines = [
        {
            "board": b.findtext("BOARD_NUMBER"),
            "ns": t.findtext("NS_PAIR_NUMBER"),
            "ew": t.findtext("EW_PAIR_NUMBER"),
            "contract": t.findtext("CONTRACT"),
            "score": t.findtext("SCORE"),
        }
        for b in event.findall("BOARD")
        for t in b.findall("TRAVELLER_LINE")
    ]
    print(json.dumps({"version": root.get("Version"), "event_type": event.get("EVENT_TYPE"), "pairs": pairs, "lines": lines}))


if __name__ == "__main__":
    main()
