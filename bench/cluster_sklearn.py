"""scikit-learn side of the clustering bench: TfidfVectorizer + cosine_similarity + DBSCAN.

Usage: cluster_sklearn.py [--cjk-pairs] CORPUS.jsonl|LIBRARY_DIR LABELS.out  -> one JSON line with timings (s), CPU time (s, all
threads: time.process_time), counts, peak RSS (MB).
       cluster_sklearn.py LIBRARY_DIR LABELS.out   -> the same from a library's skill_*.md files, read as
upstream reads them (YAML front matter; the text is title, usage conditions and body, as `skillbench curate`
compares them); LABELS.out then has "skill_id label" lines.
Same settings as ours: default TfidfVectorizer (smooth idf, L2), DBSCAN(eps=0.5, min_samples=2) on the
precomputed cosine distance 1 - S, as upstream AGIAgent's skill_manager does.
--cjk-pairs: Chinese (CJK) text is split as Skillbench's tokenizer splits it, every run of CJK characters into
its characters and every pair of neighbouring characters (部署超时 -> 部 署 超 时 部署 署超 超时); the default
token pattern takes a whole run as one token, far less work on a bilingual library than the product does. Other
text keeps the default's words (runs of two or more word characters, lowercase). Only the CJK units differ: no
stemming or stop words are added on either side.
Given a library folder instead of a corpus file, it reads every top-level skill_*.md as upstream does
(YAML front matter; text = title, usage_conditions, body) inside the timing, as a whole-command reference.
"""
import glob
import json
import os
import re
import resource
import sys
import time

import numpy as np
from sklearn.cluster import DBSCAN
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.metrics.pairwise import cosine_similarity


def read_library(folder):
    """Every top-level skill_*.md in file-name order, read as upstream does: (skill ids, texts)."""
    import yaml

    ids, docs = [], []
    for name in sorted(os.listdir(folder)):
        if not (name.startswith("skill_") and name.endswith(".md")):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            text = f.read()
        _, front, body = text.split("---\n", 2)
        meta = yaml.load(front, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        ids.append(str(meta.get("skill_id")))
        docs.append(f"{meta.get('title', '')}\n{meta.get('usage_conditions', '')}\n{body.strip()}")
    return ids, docs


# CJK scripts as Skillbench's tokenizer takes them (text/tokenize.ts CJK_CLASS: Han, Hiragana, Katakana, Hangul).
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0003134f"
WORD = re.compile("[^\\W" + CJK + "]{2,}")
CJK_RUN = re.compile("[" + CJK + "]+")


def cjk_pairs_analyzer(doc):
    """The default's words of non-CJK text; each CJK run as its characters and neighbouring pairs."""
    doc = doc.lower()
    out = WORD.findall(doc)
    for run in CJK_RUN.findall(doc):
        out.extend(run)
        out.extend([run[i:i + 2] for i in range(len(run) - 1)])
    return out


def main():
    args = sys.argv[1:]
    cjk_pairs = "--cjk-pairs" in args
    args = [a for a in args if a != "--cjk-pairs"]
    corpus_path, labels_path = args[0], args[1]
    library = os.path.isdir(corpus_path)
    ids = None
    c0 = time.process_time()
    t_read = time.perf_counter()
    if library:
        ids, docs = read_library(corpus_path)
    else:
        with open(corpus_path, encoding="utf-8") as f:
            docs = [json.loads(line) for line in f if line.strip()]
        c0 = time.process_time()
    t0 = time.perf_counter()
    vec = TfidfVectorizer(analyzer=cjk_pairs_analyzer) if cjk_pairs else TfidfVectorizer()
    x = vec.fit_transform(docs)
    t1 = time.perf_counter()
    sim = cosine_similarity(x)
    n_pairs = int((np.count_nonzero(sim >= 0.5) - len(docs)) // 2)
    t2 = time.perf_counter()
    dist = 1.0 - sim
    del sim
    np.clip(dist, 0.0, None, out=dist)
    labels = DBSCAN(eps=0.5, min_samples=2, metric="precomputed").fit(dist).labels_
    t3 = time.perf_counter()
    cpu = time.process_time() - c0
    with open(labels_path, "w") as f:
        if ids is None:
            f.write("\n".join(str(int(l)) for l in labels) + "\n")
        else:
            f.write("\n".join(f"{i} {int(l)}" for i, l in zip(ids, labels)) + "\n")
    print(json.dumps({
        "read_s": t0 - t_read if library else 0.0,
        "index_s": t1 - t0,
        "pairs_s": t2 - t1,
        "dbscan_s": t3 - t2,
        "total_s": t3 - (t_read if library else t0),
        "cpu_s": cpu,
        "analyzer": "cjk-pairs" if cjk_pairs else "default",
        "vocab": len(vec.vocabulary_),
        "pairs": n_pairs,
        "clusters": int(len(set(labels.tolist()) - {-1})),
        "noise": int((labels < 0).sum()),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }))


if __name__ == "__main__":
    main()
