"""A run's rows file, rows.jsonl: one JSON object a line, appended only by the Python that built the row and read back
by the reports (Python 3 standard library only). Bash never writes JSON: it passes key=value words.

  runrows.py ROWS key=value...    append a row made of the words alone (a target skipped or failed before any tool
                                  ran: status=skipped note=...)
"""

import json
import sys
from pathlib import Path


def words(assignments):
    """['target=netty', 'note=a=b'] -> {'target': 'netty', 'note': 'a=b'}."""
    return dict(assignment.split("=", 1) for assignment in assignments)


def append(rows_path, row):
    """Appends the row as one line, whole: a row is either in the file or not."""
    with open(rows_path, "a") as rows:
        rows.write(json.dumps(row) + "\n")


def read(rows_path):
    path = Path(rows_path)
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    append(argv[1], words(argv[2:]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
