import csv
from collections import Counter, defaultdict

rows = list(csv.DictReader(open("sales.csv"), delimiter=";"))
rows = [{k.lower(): v for k, v in r.items()} for r in rows]
