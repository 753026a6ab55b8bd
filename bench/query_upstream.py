"""The reference for `skillbench query`: query_skill as upstream AGIAgent does it, as one process.

Usage: query_upstream.py LIBRARY_DIR "QUERY" [--no-touch]  -> one JSON line: the top 3 (skill_id, title, score).

Reads every skill_*.md of the library (YAML front matter + body), fits scikit-learn's TfidfVectorizer
(max_features=1000) over "title usage_conditions content" with upstream's fallback tokenizer (English words and
single CJK characters: jieba is not installed here), ranks by cosine, keeps the top 3 (the first even at score 0,
the others only above 0) and, unless --no-touch, writes fetch_count + 1 and last_used_at into each hit as upstream
does (PyYAML dump of the front matter).
"""
import datetime
import glob
import json
import os
import re
import sys

import yaml
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.metrics.pairwise import cosine_similarity

TOKEN = re.compile(r"[A-Za-z0-9_]+|[\u4e00-\u9fff]")


def tokenize(text):
    return [t.lower() for t in TOKEN.findall(text)]


def read_skill(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not text.startswith("---"):
        return None
    end = text.find("\n---", 3)
    if end < 0:
        return None
    data = yaml.safe_load(text[3:end]) or {}
    body = text[end + 4 :].lstrip("\n")
    return data, body


def main():
    library, query = sys.argv[1], sys.argv[2]
    touch = "--no-touch" not in sys.argv[3:]
    skills = []
    for path in sorted(glob.glob(os.path.join(library, "skill_*.md"))):
        parsed = read_skill(path)
        if parsed:
            skills.append((path, parsed[0], parsed[1]))
    docs = [f"{d.get('title', '')} {d.get('usage_conditions', '')} {body}" for _, d, body in skills]
    vec = TfidfVectorizer(max_features=1000, tokenizer=tokenize, lowercase=False, token_pattern=None)
    matrix = vec.fit_transform(docs)
    scores = cosine_similarity(vec.transform([query]), matrix)[0]
    order = scores.argsort()[::-1][:3]
    hits = [i for rank, i in enumerate(order) if rank == 0 or scores[i] > 0]
    now = datetime.datetime.now().isoformat()
    for i in hits if touch else []:
        path, data, body = skills[i]
        data["fetch_count"] = int(data.get("fetch_count", 0)) + 1
        data["last_used_at"] = now
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("---\n" + yaml.dump(data, allow_unicode=True, sort_keys=False) + "---\n\n" + body)
        os.replace(tmp, path)
    print(json.dumps([{"skill_id": str(skills[i][1].get("skill_id")), "title": skills[i][1].get("title"), "score": float(scores[i])} for i in hits], ensure_ascii=False))


if __name__ == "__main__":
    main()
