"""A tiny hand-written Shovel-Ready competition whose numbers are worked out in the tests."""

from __future__ import annotations

# Essay e1 has 20 words, e2 has 8.  Ground truth (row numbers as a spreadsheet shows them):
#   row 2  e1 Lead      0-4    Effective
#   row 3  e1 Claim     5-9    Ineffective
#   row 4  e1 Evidence  10-19  Effective
#   row 5  e2 Claim     0-5    Effective
TINY_GT = """id,discourse_type,predictionstring,discourse_effectiveness
e1,Lead,0 1 2 3 4,Effective
e1,Claim,5 6 7 8 9,Ineffective
e1,Evidence,10 11 12 13 14 15 16 17 18 19,Effective
e2,Claim,0 1 2 3 4 5,Effective
"""
# Alpha: the Claim (row 3) starts on word 4, which the Lead (row 2) already used, so overlap
# removal trims it to 5-9.  Evidence 11-19 covers 9 of the 10 ground-truth words.
TINY_ALPHA = """id,class,predictionstring,Effective,Ineffective
e1,Lead,0 1 2 3 4,0.8,0.2
e1,Claim,4 5 6 7 8 9,0.3,0.7
e1,Evidence,11 12 13 14 15 16 17 18 19,0.6,0.4
e2,Claim,0 1 2 3 4 5,0.5,0.5
"""
# Beta: a Claim (row 3) entirely inside the Lead's words is discarded by overlap removal.
TINY_BETA = """id,class,predictionstring,Effective,Ineffective
e1,Lead,0 1 2 3 4 5,1.0,0.0
e1,Claim,2 3 4,0.5,0.5
e1,Evidence,10 11 12 13 14 15 16 17 18 19,0.9,0.1
e2,Claim,0 1 2,0.5,0.5
"""
TINY_DEMO = """id,ell_status,gender
e1,Yes,F
e2,No,M
"""
TINY_RUNTIMES = """submission,runtime
Alpha,50
Beta,45
"""
TINY_ESSAYS = (
    "id,text\n"
    'e1,"Schools should start later because teenagers need more sleep to learn well every day '
    'and research shows that tired students score lower"\n'
    'e2,"Later starts would help students focus in class today"\n'
)


def tiny_files() -> dict[str, bytes]:
    return {
        "ground_truth.csv": TINY_GT.encode(),
        "submissions/Alpha.csv": TINY_ALPHA.encode(),
        "submissions/Beta.csv": TINY_BETA.encode(),
        "demographics.csv": TINY_DEMO.encode(),
        "runtimes.csv": TINY_RUNTIMES.encode(),
        "essays.csv": TINY_ESSAYS.encode(),
    }
