"""Follows every CSV page of each snapshot entity with nothing but Python's standard library (urllib, csv), the way a
script without pandas would: the first page unpinned, then each `Link: <…>; rel="next"` until there is none. Prints one
JSON object: per entity, the records read, the distinct keys, the releases the pages came from and X-Total-Count.

usage: python3 follow-pages.py BASE_URL
"""

import csv
import io
import json
import re
import sys
import urllib.request

KEYS = {
    "documents": "document_id",
    "supervisors": "supervisor_id",
    "recorded-positions": "position_id",
    "legislative-files": "file_number",
}


def follow(base, entity):
    url = f"{base}/api/snapshots/{entity}?format=csv"
    rows, releases, pages, total = [], set(), 0, None
    while url:
        with urllib.request.urlopen(url) as r:
            text = r.read().decode("utf-8")
            releases.add(r.headers["X-Release-Id"])
            total = int(r.headers["X-Total-Count"])
            link = re.match(r'<([^>]+)>; rel="next"', r.headers.get("Link") or "")
        rows.extend(csv.DictReader(io.StringIO(text, newline="")))
        pages += 1
        url = link.group(1) if link else None
    return {
        "records": len(rows),
        "keys": len({row[KEYS[entity]] for row in rows}),
        "releases": sorted(releases),
        "pages": pages,
        "total": total,
    }


if __name__ == "__main__":
    print(json.dumps({e: follow(sys.argv[1].rstrip("/"), e) for e in KEYS}))
