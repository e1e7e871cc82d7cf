"""The rules specification travels with the code, every rule has a test, and the project's copy is in step.

``docs/RULES.md`` and ``docs/RECORD.md`` are the project's own statement of
the rules and of the record format. Every rule id R1 to R9 there has a test named
after it (a new rule without a test fails here). In the project's workspace the
contract they follow lives in ``../shared``; when it is there, the project's
documents must name the same rules, variants and record events.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SHARED = ROOT.parent / "shared"


def rule_ids(text: str) -> list[str]:
    return sorted(set(re.findall(r"^- (R\d+\.\d+) ", text, flags=re.M)))


def variant_names(text: str) -> list[str]:
    return re.findall(r"^\| `(\w+)` \|", text, flags=re.M)


def record_reasons(text: str) -> list[str]:
    reasons = text[text.index("Reasons:") : text.index("When one step")]
    return re.findall(r"`(\w+)`", reasons)


def test_every_rule_id_r1_to_r9_has_a_named_test() -> None:
    ids = [rule for rule in rule_ids((DOCS / "RULES.md").read_text()) if int(rule[1 : rule.index(".")]) <= 9]
    assert len(ids) >= 39
    named = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        named |= {m.replace("_", ".", 1) for m in re.findall(r"def test_(R\d_\d+)", path.read_text())}
    missing = [rule for rule in ids if rule not in named]
    assert not missing, f"rules without a test named after them: {missing}"


@pytest.mark.skipif(not (SHARED / "RULES.md").is_file(), reason="outside the project's workspace: no ../shared")
def test_the_projects_rules_name_the_same_rules_and_variants_as_the_contract() -> None:
    ours, contract = (DOCS / "RULES.md").read_text(), (SHARED / "RULES.md").read_text()
    assert rule_ids(ours) == rule_ids(contract)
    assert variant_names(ours) == variant_names(contract)


@pytest.mark.skipif(not (SHARED / "RECORD.md").is_file(), reason="outside the project's workspace: no ../shared")
def test_the_projects_record_format_names_the_same_fields_and_events_as_the_contract() -> None:
    ours, contract = (DOCS / "RECORD.md").read_text(), (SHARED / "RECORD.md").read_text()
    assert record_reasons(ours) == record_reasons(contract)
    for example in re.findall(r"```json\n(.*?)```", contract, flags=re.S):
        assert example in ours
