"""Every rule id of RULES.md R1-R9 has a test named after it (a new rule without a test fails here)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT.parent / "shared" / "RULES.md"


def test_every_rule_id_r1_to_r9_has_a_named_test() -> None:
    if not RULES.is_file():
        pytest.skip(f"the rules specification is not beside this checkout ({RULES.name} in ../shared)")
    ids = sorted(set(re.findall(r"^- (R[1-9]\.\d+) ", RULES.read_text(), flags=re.M)))
    assert len(ids) >= 38
    named = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        named |= {m.replace("_", ".", 1) for m in re.findall(r"def test_(R\d_\d+)", path.read_text())}
    missing = [rule for rule in ids if rule not in named]
    assert not missing, f"rules without a test named after them: {missing}"
